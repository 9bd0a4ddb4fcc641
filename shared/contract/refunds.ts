/**
 * Refunds the desk hands back and refunds the owner decides (issue 31, items 4 and 5): the answers'
 * shapes, and the client's words about their money, used by the Manage booking page, the API's
 * answers and the e-mails alike. Money here is rupees.
 */
import { z } from 'zod';
import { REFUND_CHOICES } from '../domain/refund-choices.ts';

/**
 * What became of a booking's money when it was cancelled: refunded through the payments provider
 * (processed, or pending at the provider), due at the counter (at_counter: to be handed back at the
 * desk), asked of the owner (requested), or kept (none). `amount` is all of it; `at_counter` is the
 * part to be handed back at the desk, when there is one (the rest went back through the provider).
 */
export const REFUND_STATUSES = ['processed', 'pending', 'at_counter', 'requested', 'none'] as const;
export const refundResultSchema = z.strictObject({
  status: z.enum(REFUND_STATUSES),
  amount: z.number(),
  at_counter: z.number().optional(),
});
export type RefundResult = z.infer<typeof refundResultSchema>;

/** Who asked for a refund: the client (Manage booking), an admin, or the system (the worker). */
const requestedBySchema = z.enum(['CLIENT', 'ADMIN', 'SYSTEM']);

/** One refund to hand back at the desk (GET /api/admin/refunds/due). */
export const refundDueItemSchema = z.strictObject({
  /** The refund request's id. */
  id: z.number().int(),
  booking_id: z.number().int(),
  client_full_name: z.string(),
  client_mobile: z.string(),
  therapist_name: z.string(),
  booking_date: z.string(),
  /** HH:MM */
  booking_time_slot_start: z.string(),
  /** What is still to be handed back. */
  amount: z.number(),
  /** How the money was taken at the desk (CASH, CARD, UPI, BANK_TRANSFER), oldest payment first. */
  paid_by: z.array(z.string()),
  reason: z.string(),
  requested_by: requestedBySchema,
  /** The admin who decided the refund; null for the client or the system. */
  requested_by_username: z.string().nullable(),
  requested_at: z.string(),
});
export type RefundDueItem = z.infer<typeof refundDueItemSchema>;
export const refundsDueResponseSchema = z.strictObject({ items: z.array(refundDueItemSchema), total_due: z.number() });
export type RefundsDueResponse = z.infer<typeof refundsDueResponseSchema>;

/** A plain admin's refund request, as the super admin's "Payments needing attention" list shows it. */
export const refundReviewItemSchema = z.strictObject({
  id: z.number().int(),
  booking_id: z.number().int(),
  client_full_name: z.string(),
  therapist_name: z.string(),
  booking_date: z.string(),
  /** HH:MM */
  booking_time_slot_start: z.string(),
  /** What was held when the refund was asked for. */
  amount: z.number(),
  /** What the booking holds now, and the part of it paid at the counter (returned there if refunded). */
  held: z.number(),
  held_at_counter: z.number(),
  reason: z.string(),
  requested_by_username: z.string().nullable(),
  requested_at: z.string(),
  status: z.enum(['OPEN', 'APPROVED', 'DECLINED']),
  resolved_at: z.string().nullable(),
  resolved_by: z.string().nullable(),
  /** What was decided: the refund made, or the reason it was declined. */
  resolution: z.string().nullable(),
});
export type RefundReviewItem = z.infer<typeof refundReviewItemSchema>;
/** The open requests, oldest first, and those decided in the last 7 days, newest first. */
export const refundReviewListSchema = z.strictObject({ open: z.array(refundReviewItemSchema), recently_decided: z.array(refundReviewItemSchema) });

/** POST /api/admin/refund-requests/{id}/approve and …/decline. */
export const refundReviewDecisionResponseSchema = z.strictObject({
  item: refundReviewItemSchema,
  /** Approve only: what the refund did. */
  refund: refundResultSchema.optional(),
  message: z.string(),
});
export type RefundReviewDecisionResponse = z.infer<typeof refundReviewDecisionResponseSchema>;

/** The choices a cancel may make about a paid booking's money (who may make which: shared/domain/refund-choices.ts). */
export { REFUND_CHOICES, type RefundChoice } from '../domain/refund-choices.ts';

/** GET /api/admin/bookings/{id}/refund-options: what this admin may choose when cancelling this booking. */
export const refundOptionsResponseSchema = z.strictObject({
  booking_id: z.number().int(),
  /** What can be refunded now, and the part of it paid at the counter (handed back at the desk). */
  held: z.number(),
  held_at_counter: z.number(),
  /** This admin's choices; empty when nothing is held (a plain cancel). */
  choices: z.array(z.enum(REFUND_CHOICES)),
  /** The session starts within CHANGE_NOTICE_HOURS (the terms charge the full fee). */
  inside_notice_window: z.boolean(),
  notice_hours: z.number().int(),
});
export type RefundOptionsResponse = z.infer<typeof refundOptionsResponseSchema>;

/** POST /api/admin/bookings/{id}/record-refund's answer. */
export const recordRefundResponseSchema = z.strictObject({
  booking_id: z.number().int(),
  /** Handed back now. */
  amount: z.number(),
  method: z.string(),
  /** Still to be handed back (0 when the refund is complete). */
  still_due: z.number(),
  message: z.string(),
});
export type RecordRefundResponse = z.infer<typeof recordRefundResponseSchema>;
