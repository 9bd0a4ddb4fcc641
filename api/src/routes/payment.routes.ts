import { Router, type Request } from 'express';
import { z } from 'zod';
import { API_MESSAGES } from '../../../shared/contract/messages.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { jobIds } from '../../../shared/core/jobs/jobs.ts';
import { getBooking, getBookingView, findBookingByPublicRef, toBookingRecord } from '../../../shared/core/repositories/booking.repository.ts';
import type { Actor } from '../../../shared/core/services/booking.service.ts';
import {
  confirmPayment,
  handlePaymentWebhook,
  PAYMENT_LINK_FAILED,
  type PaymentDeps,
  type PaymentLinkResult,
} from '../../../shared/core/services/payment.service.ts';
import { bookings } from '../../../shared/core/db/schema.ts';
import { eq } from 'drizzle-orm';
import type { AppDeps } from '../app.ts';
import { noStore } from '../middleware/auth.ts';
import { parseOr400 } from '../middleware/validate.ts';

const bookingIdField = z.union([z.number().int().positive(), z.string().regex(/^\d{1,9}$/).transform(Number)], {
  error: 'booking_id must be a booking number',
});

/** Spec section 3, payment-link request. Only booking_id matters: amount and customer come from the database. */
const generateLinkSchema = z.object({
  booking_id: bookingIdField,
  amount: z.number().min(0).optional(),
  currency: z.literal('INR').optional(),
  description: z.string().max(500).optional(),
  customer_name: z.string().max(200).optional(),
  customer_email: z.string().max(254).optional(),
  customer_phone: z.string().max(20).optional(),
});

const updateLinkSchema = z.object({
  payment_link_url: z.url({ error: 'payment_link_url must be a URL' }).max(500),
  razorpay_payment_link_id: z.string().min(1).max(64).optional(),
});

const callbackQuery = z.object({
  razorpay_payment_link_id: z.string().min(1).max(64),
  razorpay_payment_link_reference_id: z.string().min(1).max(64),
  razorpay_payment_link_status: z.string().min(1).max(32),
  razorpay_payment_id: z.string().min(1).max(64),
  razorpay_signature: z.string().min(1).max(128),
});

const idParam = z.object({ id: z.string().regex(/^\d{1,9}$/, { error: 'Booking not found.' }).transform(Number) });
const refParam = z.object({ id: z.string().regex(/^(\d{1,9}|[A-Za-z0-9_-]{6,64})$/, { error: 'Booking not found.' }) });

function paymentDeps(deps: AppDeps): PaymentDeps {
  if (!deps.payments) throw new AppError('unavailable', 'Payments are not configured.');
  return { db: deps.db, payments: deps.payments, config: deps.config, logger: deps.logger, now: deps.now };
}

export function paymentRoutes(deps: AppDeps): Router {
  const r = Router();

  r.post('/api/payment/generate-link', async (req, res) => {
    const input = parseOr400(generateLinkSchema, req.body);
    const booking = await getBooking(deps.db, input.booking_id);
    if (!booking) throw new AppError('not_found', 'Booking not found.');
    if (booking.paymentLinkUrl && booking.razorpayPaymentLinkId) {
      res.json({ short_url: booking.paymentLinkUrl, payment_link_id: booking.razorpayPaymentLinkId });
      return;
    }
    if (booking.bookingType !== 'ONLINE' || booking.paymentStatus !== 'INITIATED' || booking.cancelled) {
      throw new AppError('conflict', 'This booking is not awaiting an online payment.');
    }
    if (!deps.jobs) throw new AppError('unavailable', PAYMENT_LINK_FAILED);
    let result: PaymentLinkResult;
    try {
      result = await deps.jobs.runAndWait('payments.create-link', { bookingId: booking.id }, jobIds.paymentLink(booking.id), deps.config.paymentLinkWaitMs);
    } catch (err) {
      const timedOut = /timed out/i.test((err as Error).message);
      req.log?.warn({ bookingId: booking.id, err: (err as Error).message }, 'payment link job did not answer');
      throw new AppError(timedOut ? 'timeout' : 'bad_gateway', PAYMENT_LINK_FAILED);
    }
    res.json({ short_url: result.short_url, payment_link_id: result.payment_link_id });
  });

  // The wizard's call, without a token: it may only confirm the link the server already stored, never
  // point a booking elsewhere. With a token the admin route (audited) takes it.
  r.post('/api/admin/bookings/:id/update-payment-link', noStore, async (req, res, next) => {
    if (req.headers.authorization) return next();
    const { id } = parseOr400(idParam, req.params);
    const input = parseOr400(updateLinkSchema, req.body);
    const booking = await getBooking(deps.db, id);
    const same =
      booking?.paymentLinkUrl === input.payment_link_url &&
      (!input.razorpay_payment_link_id || input.razorpay_payment_link_id === booking.razorpayPaymentLinkId);
    if (!same) throw new AppError('unauthorized', API_MESSAGES.unauthorized);
    res.json({ message: 'Payment link saved.', booking_id: id, payment_link_url: input.payment_link_url });
  });

  r.get('/api/get-razorpay-details/:id', noStore, async (req, res) => {
    const { id } = parseOr400(refParam, req.params);
    let booking = await findBookingByPublicRef(deps.db, id);
    if (!booking && /^\d+$/.test(id)) {
      // A bare booking number is accepted only with a callback signed for that very booking.
      const candidate = await getBookingView(deps.db, Number(id));
      const callback = callbackQuery.safeParse(req.query);
      if (
        candidate &&
        deps.payments &&
        callback.success &&
        callback.data.razorpay_payment_link_reference_id === String(candidate.id) &&
        deps.payments.verifyCallback(callback.data)
      ) {
        booking = candidate;
      }
    }
    if (!booking) throw new AppError('not_found', 'Failed to retrieve booking details. Please contact support.');
    if (booking.bookingType === 'ONLINE') booking = await confirmPayment(paymentDeps(deps), booking, req.query as Record<string, unknown>);
    const claimedPaid = req.query.payment_status === 'paid' || req.query.razorpay_payment_link_status === 'paid';
    if (booking.bookingType === 'ONLINE' && booking.paymentStatus !== 'COMPLETED' && claimedPaid) {
      throw new AppError('conflict', 'We could not confirm this payment yet. Please contact support.');
    }
    res.json({ data: toBookingRecord(booking) });
  });

  r.post('/api/payment/webhook', async (req, res) => {
    if (!Buffer.isBuffer(req.body)) throw new AppError('unsupported_media_type', 'Send the webhook as application/json.');
    const outcome = await handlePaymentWebhook(
      paymentDeps(deps),
      req.body,
      req.get('x-razorpay-signature'),
      req.get('x-razorpay-event-id'),
    );
    res.json({ status: outcome });
  });

  return r;
}
