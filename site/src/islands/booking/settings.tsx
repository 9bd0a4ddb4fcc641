import { createContext, useContext } from 'react';
import { DEFAULT_MANAGE_POLICY, hasNotice, type ManagePolicy, type Support } from '../../../../shared/domain/manage.ts';
import { centreInstant } from '../../../../shared/domain/time.ts';

/**
 * What the wizard knows from the site's configuration, read when the site is built (book.astro passes
 * it, as the other pages pass the centre's contacts): the client's change policy and whom to call.
 */
export type WizardSettings = { changePolicy: ManagePolicy; support?: Support | undefined };

export const WizardSettingsContext = createContext<WizardSettings>({ changePolicy: DEFAULT_MANAGE_POLICY });

export function useWizardSettings(): WizardSettings {
  return useContext(WizardSettingsContext);
}

/** A session that starts within the notice cannot be moved or cancelled online once booked (the Manage booking rule). */
export function isShortNotice(slot: { date: string; start_time: string }, policy: ManagePolicy, now: Date = new Date()): boolean {
  return !hasNotice(centreInstant(slot.date, slot.start_time), now, policy.noticeHours);
}
