import { z } from 'zod';
import { dateField, timeField } from './booking.ts';
import { MANAGE_CLOSED_REASONS, type ManageClosedReason } from '../domain/manage.ts';

/**
 * The client's own Manage booking calls (issue 21), keyed only by the private token from their e-mail:
 * GET /api/manage/{token}, POST /api/manage/{token}/reschedule, POST /api/manage/{token}/cancel.
 * Money here is rupees, as in every public answer.
 */
export const manageTokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'Not found' }) });

/** Strict: a field the call does not know is refused, never silently dropped. */
export const manageRescheduleSchema = z.strictObject({
  booking_date: dateField,
  booking_time_slot_start: timeField,
});
export type ManageRescheduleBody = z.input<typeof manageRescheduleSchema>;

/** Why a change is not offered now; null when it is. Defined with the rules that decide it (shared/domain/manage.ts). */
export { MANAGE_CLOSED_REASONS, type ManageClosedReason };

export type ManageBookingDto = {
  booking_reference: string;
  therapist: { id: number; name: string; title: string };
  /** e.g. "Individual therapy", "Couple therapy"; the session type the client chose. */
  session_type: string;
  booking_type: 'ONLINE' | 'OFFLINE';
  /** The centre (address) for an in-person session; null for online. */
  centre: { name: string; address: string } | null;
  booking_date: string;
  booking_time_slot_start: string;
  booking_time_slot_end: string;
  /** Rupees. */
  amount: number;
  payment_status: 'COMPLETED' | 'PENDING' | 'INITIATED' | 'FAILED' | 'BLOCKED' | 'CANCELLED';
  cancelled: boolean;
  /** Online sessions only, and only once paid. */
  meeting_link: string | null;
  /** What the client may do now. */
  can_reschedule: boolean;
  can_cancel: boolean;
  /** When can_reschedule/can_cancel are false: why, in a machine word and in words for the client. */
  closed_reason: ManageClosedReason | null;
  policy: string;
  /** Changes close at this instant (ISO 8601): the session's start less CHANGE_NOTICE_HOURS. */
  changes_close_at: string;
  reschedules_left: number;
  /** What cancelling now would return, in rupees (the full amount paid; 0 for an unpaid hold). */
  refund_on_cancel: number;
  support: { phone: string; email: string };
};

export type ManageChangeResultDto = { booking: ManageBookingDto; message: string };
