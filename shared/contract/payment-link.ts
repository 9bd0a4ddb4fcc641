import { z } from 'zod';
import { adminBookingSchema } from './admin.ts';
import { INT4_MAX, PAYMENT_STATUSES } from './booking.ts';

/**
 * The wizard's payment calls (spec section 3): the link for a booking, confirming the link the server
 * stored, the booking's details after the provider's checkout, and the provider's webhook. Money in
 * rupees.
 */

/** A booking number: PostgreSQL's integer, so a larger one is a 400 and never reaches a query. */
export const bookingIdField = z.union(
  [
    z.number().int().positive().max(INT4_MAX),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number)
      .pipe(z.number().max(INT4_MAX)),
  ],
  { error: 'booking_id must be a booking number' },
);

/** POST /api/payment/generate-link. Only booking_id matters: amount and customer come from the database. */
export const generateLinkSchema = z.object({
  booking_id: bookingIdField,
  /** The booking's token may come in the body as well as in the X-Booking-Token header. */
  booking_token: z.string().max(100).optional(),
  amount: z.number().min(0).optional(),
  currency: z.literal('INR').optional(),
  description: z.string().max(500).optional(),
  customer_name: z.string().max(200).optional(),
  customer_email: z.string().max(254).optional(),
  customer_phone: z.string().max(20).optional(),
});

export const paymentLinkResponseSchema = z.strictObject({ short_url: z.string(), payment_link_id: z.string() });

/** POST /api/admin/bookings/{id}/update-payment-link with the booking's token: confirms the stored link only. */
export const confirmLinkSchema = z.object({
  payment_link_url: z.url({ error: 'payment_link_url must be a URL' }).max(500),
  razorpay_payment_link_id: z.string().min(1).max(64).optional(),
});

/** The answer of both forms of update-payment-link (the admin's, audited, and the wizard's confirmation). */
export const paymentLinkSavedSchema = z.strictObject({ booking_id: z.number().int(), payment_link_url: z.string(), message: z.string() });

/** The booking record a caller with proof (provider's signature, the booking's token, an admin) receives. */
export const bookingRecordSchema = adminBookingSchema.extend({
  razorpay_payment_link_id: z.string().nullable(),
  razorpay_payment_id: z.string().nullable(),
  paid_at: z.string().nullable(),
  /** While an unpaid online booking holds its slot: seconds left, on the server's clock. */
  payment_hold_seconds_left: z.number().int().nullable(),
  /** A confirmed booking's private Manage booking address (/manage-booking?token=…), for its client only. */
  manage_url: z.string().nullable(),
  /**
   * Whether the client may still move or cancel the session online now (CHANGE_NOTICE_HOURS before it
   * starts): a session booked at short notice has a manage_url (its details, Add to calendar) but no changes.
   */
  changes_open: z.boolean(),
});
export type BookingRecord = z.infer<typeof bookingRecordSchema>;

/** GET /api/get-razorpay-details/{ref}: the record with proof, the payment status alone without. */
export const bookingDetailsResponseSchema = z.strictObject({
  data: z.union([bookingRecordSchema, z.strictObject({ payment_status: z.enum(PAYMENT_STATUSES) })]),
});

/** The provider's checkout callback parameters, passed on in the query of the details call. */
export const paymentCallbackQuerySchema = z.object({
  payment_status: z.string().optional(),
  razorpay_payment_link_id: z.string().max(64).optional(),
  razorpay_payment_link_reference_id: z.string().max(64).optional(),
  razorpay_payment_link_status: z.string().max(32).optional(),
  razorpay_payment_id: z.string().max(64).optional(),
  razorpay_signature: z.string().max(128).optional(),
});

/** POST /api/payment/webhook: what became of the event. */
export const paymentWebhookAckSchema = z.strictObject({ status: z.enum(['processed', 'duplicate', 'ignored']) });
