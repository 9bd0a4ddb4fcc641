import { Router, type Request } from 'express';
import { z } from 'zod';
import { INT4_MAX } from '../../../shared/contract/booking.ts';
import { BOOKING_TOKEN_HEADER } from '../../../shared/contract/headers.ts';
import { API_MESSAGES } from '../../../shared/contract/messages.ts';
import { AppError } from '../../../shared/core/errors.ts';
import {
  confirmStoredLink,
  handlePaymentWebhook,
  paymentStatusFor,
  requestPaymentLink,
  type BookingProof,
  type PaymentDeps,
} from '../../../shared/core/services/payment.service.ts';
import type { AppDeps } from '../deps.ts';
import { adminOf, noStore } from '../middleware/auth.ts';
import { parseOr400 } from '../middleware/validate.ts';

/** A booking number: PostgreSQL's integer, so a larger one is a 400 and never reaches a query. */
const bookingIdField = z.union(
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

/** Spec section 3, payment-link request. Only booking_id matters: amount and customer come from the database. */
const generateLinkSchema = z.object({
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

const updateLinkSchema = z.object({
  payment_link_url: z.url({ error: 'payment_link_url must be a URL' }).max(500),
  razorpay_payment_link_id: z.string().min(1).max(64).optional(),
});

const idParam = z.object({ id: bookingIdField });
const refParam = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: API_MESSAGES.bookingNotFound }) });

function paymentDeps(deps: AppDeps): PaymentDeps {
  return { db: deps.db, payments: deps.payments, config: deps.config, logger: deps.logger, now: deps.now };
}

/** The booking token a request carries, in the X-Booking-Token header. */
function headerToken(req: Request): string | undefined {
  return req.get(BOOKING_TOKEN_HEADER) ?? undefined;
}

export function paymentRoutes(deps: AppDeps): Router {
  const r = Router();

  r.post('/api/payment/generate-link', noStore, async (req, res) => {
    const input = parseOr400(generateLinkSchema, req.body);
    const proof: BookingProof = {
      token: headerToken(req) ?? input.booking_token,
      admin: req.headers.authorization ? Boolean(await adminOf(deps, req)) : false,
    };
    const link = await requestPaymentLink({ db: deps.db, jobs: deps.jobs, config: deps.config, logger: req.log ?? deps.logger }, input.booking_id, proof);
    res.json({ short_url: link.short_url, payment_link_id: link.payment_link_id });
  });

  // The wizard's call carries the booking's token instead of an admin's: it may only confirm the link the
  // server already stored, never point a booking elsewhere. Anything else is the admin route's (audited),
  // which answers 401 without an admin token.
  r.post('/api/admin/bookings/:id/update-payment-link', noStore, async (req, res, next) => {
    if (req.headers.authorization || headerToken(req) === undefined) return next();
    const { id } = parseOr400(idParam, req.params);
    const input = parseOr400(updateLinkSchema, req.body);
    res.json(await confirmStoredLink(deps.db, id, input, { token: headerToken(req) }));
  });

  r.get('/api/get-razorpay-details/:id', noStore, async (req, res) => {
    const { id } = parseOr400(refParam, req.params);
    res.json(await paymentStatusFor(paymentDeps(deps), id, req.query as Record<string, unknown>, { token: headerToken(req) }));
  });

  r.post('/api/payment/webhook', async (req, res) => {
    if (!Buffer.isBuffer(req.body)) throw new AppError('unsupported_media_type', API_MESSAGES.webhookNotJson);
    const outcome = await handlePaymentWebhook(paymentDeps(deps), req.body, req.get('x-razorpay-signature'), req.get('x-razorpay-event-id'));
    res.json({ status: outcome });
  });

  return r;
}
