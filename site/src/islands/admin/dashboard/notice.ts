/** Where the dashboard draws an action's message, and what waits for the receptionist's yes. */
import { useEffect } from 'react';
import type { AdminBooking, AdminSlotStateEntry } from '../../../lib/admin-api.ts';
import type { NoticeMessage } from '../ui.tsx';

/** Which of the dashboard's booking lists an action was taken in. */
export type Table = 'all' | 'therapist' | 'today';

/**
 * Where an action's message is drawn: next to what was pressed (a booking's row, a slot of the
 * grid), or at the top of the page for what was pressed there (Manual Booking).
 */
export type NoticeAt = { kind: 'top' } | { kind: 'row'; table: Table; id: number; index: number } | { kind: 'slot'; date: string; start: string };
export type Message = NoticeMessage & { at: NoticeAt };

/** An action waiting for the receptionist's yes in the panel's own dialog. */
export type Pending =
  | { kind: 'cancel'; booking: AdminBooking; at: NoticeAt }
  | { kind: 'slot'; slot: AdminSlotStateEntry; action: 'block' | 'unblock'; date: string };

export const NOTICE_ID = 'dashboard-notice';

/**
 * An action whose button went away with the reload (a cancelled booking's Cancel) leaves focus
 * nowhere: it goes to the message, which says what happened. `shown` is what the reload redrew.
 */
export function useNoticeTakesLostFocus(message: Message | null, shown: unknown): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shown` is the trigger: the lists redrawn after the message may have removed the focused row.
  useEffect(() => {
    if (!message || message.at.kind === 'top') return;
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) document.getElementById(NOTICE_ID)?.focus();
  }, [message, shown]);
}
