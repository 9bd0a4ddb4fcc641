import { z } from 'zod';
import { bookingCreateResponseSchema, dateField, PAYMENT_STATUSES, timeField, transactionIdField } from './booking.ts';
import { clientPackageSchema } from './packages.ts';
import { MANAGE_CLOSED_REASONS, type ManageClosedReason } from '../domain/manage.ts';
import { PAYMENT_STATES } from '../domain/payment-state.ts';

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

/**
 * POST /api/manage/{token}/book-again (issue 34): the same therapist, type, centre and time, a week
 * ("Book the same time next week", weeks_ahead 1) or two ("in two weeks", 2) after this session. payment_transaction_id is the idempotency key, as in POST /confirm-booking:
 * a retried request answers the booking it made.
 */
export const manageBookAgainSchema = z.strictObject({
  weeks_ahead: z.union([z.literal(1), z.literal(2)], { error: 'weeks_ahead must be 1 or 2' }),
  payment_transaction_id: transactionIdField.optional(),
});
export type ManageBookAgainBody = z.input<typeof manageBookAgainSchema>;
/**
 * Answered as POST /confirm-booking answers; a session booked with a package credit (the session booked
 * again was paid by one, and its sale can pay this one) is confirmed at once: its Manage link and the
 * package come with it, and no payment follows.
 */
export const bookAgainResponseSchema = bookingCreateResponseSchema.extend({
  manage_url: z.string().optional(),
  package: clientPackageSchema.optional(),
});
export type BookAgainResponse = z.infer<typeof bookAgainResponseSchema>;

/** Why a change is not offered now; null when it is. Defined with the rules that decide it (shared/domain/manage.ts). */
export { MANAGE_CLOSED_REASONS, type ManageClosedReason };

export const manageBookingSchema = z.strictObject({
  booking_reference: z.string(),
  therapist: z.strictObject({ id: z.number().int(), name: z.string(), title: z.string() }),
  /** e.g. "Individual therapy", "Couple therapy"; the session type the client chose. */
  session_type: z.string(),
  booking_type: z.enum(['ONLINE', 'OFFLINE']),
  /** The centre (address) for an in-person session; null for online. */
  centre: z.strictObject({ name: z.string(), address: z.string() }).nullable(),
  booking_date: z.string(),
  booking_time_slot_start: z.string(),
  booking_time_slot_end: z.string(),
  /** Rupees. */
  amount: z.number(),
  payment_status: z.enum(PAYMENT_STATUSES),
  /** The payment in words' key (PAYMENT_STATE_WORDS), from the booking and its ledger: "Refunded" after a refunded cancel. */
  payment_state: z.enum(PAYMENT_STATES),
  cancelled: z.boolean(),
  /** Online sessions only, and only once paid. */
  meeting_link: z.string().nullable(),
  /** What the client may do now. */
  can_reschedule: z.boolean(),
  can_cancel: z.boolean(),
  /** Whether "Book the same time next week" is offered: not for a desk's booking made without the client's age or session type. */
  can_book_again: z.boolean(),
  /** When can_reschedule/can_cancel are false: why, in a machine word and in words for the client. */
  closed_reason: z.enum(MANAGE_CLOSED_REASONS).nullable(),
  policy: z.string(),
  /** Changes close at this instant (ISO 8601): the session's start less CHANGE_NOTICE_HOURS. */
  changes_close_at: z.string(),
  reschedules_left: z.number().int(),
  /** What cancelling now would return, in rupees (the full amount paid; 0 for an unpaid hold). */
  refund_on_cancel: z.number(),
  /** Of refund_on_cancel, what was paid at the centre: handed back there, not through the provider. */
  refund_on_cancel_at_centre: z.number(),
  support: z.strictObject({ phone: z.string(), email: z.string() }),
  /**
   * A session booked in a series (issue 34): every session of that series, this one marked `current`,
   * each with its own private Manage booking link. Only the client's own series: a token opens nothing else.
   * Absent for a booking made alone.
   */
  series_sessions: z
    .array(
      z.strictObject({
        booking_date: z.string(),
        booking_time_slot_start: z.string(),
        cancelled: z.boolean(),
        current: z.boolean(),
        manage_url: z.string(),
      }),
    )
    .optional(),
});
export type ManageBookingDto = z.infer<typeof manageBookingSchema>;

export const manageChangeResultSchema = z.strictObject({ booking: manageBookingSchema, message: z.string() });
export type ManageChangeResultDto = z.infer<typeof manageChangeResultSchema>;
