/**
 * The policy for changing a booking, in words (issue 31): one wording, here, for the wizard's details
 * and review steps, the confirmation page, the Manage booking page and every e-mail. Whether a session
 * may still be changed online is decided by shared/domain/manage.ts (hasNotice, manageOptions); these
 * only say it. `support`, where the page or message has it, adds whom to call.
 */
import { hoursWord, timesWord, type ManagePolicy, type Support } from '../domain/manage.ts';
import { SESSION_MINUTES } from '../domain/session.ts';

export type { ManagePolicy, Support };

function contact(support: Support | undefined): string {
  return support ? ` (call ${support.phone} or write to ${support.email})` : '';
}

function latePolicy(support: Support | undefined): string {
  return `changes can only be made by the centre${contact(support)}, and the cancellation policy applies: 100% of the session fee is charged.`;
}

/** How a client moves or cancels a session, and what happens within the notice. */
export function changePolicyText(policy: ManagePolicy, support?: Support): string {
  const hours = hoursWord(policy.noticeHours);
  const self =
    policy.maxReschedules > 0
      ? `You can move your session to another time with the same therapist (at most ${timesWord(policy.maxReschedules)}) or cancel it yourself with your Manage booking link until ${hours} before it starts.`
      : `You can cancel your session yourself with your Manage booking link until ${hours} before it starts; to move it, please contact the centre.`;
  return `${self} A paid session cancelled in time is refunded in full. Within ${hours} of the session, ${latePolicy(support)}`;
}

/** A session that starts within the notice (booked at short notice, or now close): no change online. */
export function shortNoticeText(policy: ManagePolicy, support?: Support): string {
  return `Your session starts in less than ${hoursWord(policy.noticeHours)}, so it cannot be moved or cancelled online: ${latePolicy(support)}`;
}

/** Charged time beyond the session (spec section 9). */
export const OVERTIME_TEXT = `Sessions running beyond ${SESSION_MINUTES} minutes are charged for every additional 15 minutes.`;
