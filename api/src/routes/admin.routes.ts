import { Router } from 'express';
import {
  ADMIN_MESSAGES,
  adminBookingsQuerySchema,
  approveRefundSchema,
  auditQuerySchema,
  blockSlotSchema,
  cancelRefundSchema,
  clientBookingsQuerySchema,
  declineRefundSchema,
  manualBookingSchema,
  nameQuerySchema,
  recordPaymentSchema,
  recordRefundSchema,
  resolveDiscrepancySchema,
  shareableLinkSchema,
  slotStatesQuerySchema,
  updatePaymentLinkSchema,
  noQuery,
  noBody,
  idParams,
} from '../../../shared/contract/admin.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { API_MESSAGES } from '../../../shared/contract/messages.ts';
import { auditLogPage } from '../../../shared/core/services/audit.service.ts';
import { pageOrFirst } from '../../../shared/core/services/paging.ts';
import {
  cancelBooking,
  createManualBooking,
  createShareableLink,
  listAdminTherapists,
  listBookings,
  listClientBookingsPage,
  searchClients,
  sendBookingPaymentLink,
  therapistSlotStates,
  toggleBlock,
  updatePaymentLink,
} from '../../../shared/core/services/admin-booking.service.ts';
import { seriesCancelSchema, seriesCreateSchema, seriesMoveSchema } from '../../../shared/contract/series.ts';
import { cancelSeries, createSeries, getSeriesDetail, moveSeries } from '../../../shared/core/services/series.service.ts';
import { recordCounterPayment } from '../../../shared/core/services/counter-payment.service.ts';
import { recordCounterRefund, refundsDue } from '../../../shared/core/services/counter-refund.service.ts';
import { approveRefundRequest, declineRefundRequest, refundOptions } from '../../../shared/core/services/refund-request.service.ts';
import { markDiscrepancyReviewed, paymentsNeedingAttention } from '../../../shared/core/services/payments-attention.service.ts';
import type { AppDeps } from '../deps.ts';
import {
  adminOf,
  currentAdmin,
  loginHandler,
  logoutHandler,
  noStore,
  queuesSessionHandler,
  requireAdmin,
  requireSuperadmin,
  superadminOnly,
} from '../middleware/auth.ts';
import { parseOr400 } from '../middleware/validate.ts';

const bookingIdParams = idParams('Booking ID');
const therapistIdParams = idParams('Therapist ID');
const seriesIdParams = idParams('Series ID');
const discrepancyIdParams = idParams('Payment issue ID');
const refundRequestIdParams = idParams('Refund request ID');

/** A body that asks for the admin's manual-booking powers. */
export function isManualBookingPayload(body: unknown): boolean {
  return typeof body === 'object' && body !== null && ('admin_confirmed' in body || 'payment_status' in body);
}

export function adminRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const r = Router();
  const auth = requireAdmin(deps);
  const actor = (res: import('express').Response) => ({ adminId: currentAdmin(res).id });

  r.post('/api/admin/login', loginHandler(deps));

  // Manual booking (spec section 5): the public route passes on a /confirm-booking payload with
  // admin_confirmed or payment_status.
  r.post('/confirm-booking', noStore, async (req, res) => {
    const admin = await adminOf(deps, req);
    if (!admin) throw new AppError('unauthorized', API_MESSAGES.unauthorized);
    const input = parseOr400(manualBookingSchema, req.body);
    res.json(await createManualBooking(db, input, { adminId: admin.id }, deps.now(), { tokenSecret: deps.config.jwtSecret }));
  });

  r.post('/api/create-shareable-payment-link', auth, async (req, res) => {
    const input = parseOr400(shareableLinkSchema, req.body);
    res.json(await createShareableLink(deps, input, actor(res)));
  });

  r.use('/api/admin', auth);

  r.post('/api/admin/logout', logoutHandler(deps));

  r.get('/api/admin/therapists', async (req, res) => {
    parseOr400(noQuery, req.query);
    res.json(await listAdminTherapists(db));
  });

  r.get('/api/admin/bookings', async (req, res) => {
    const query = parseOr400(adminBookingsQuerySchema, req.query);
    res.json(await listBookings(db, query));
  });

  r.post('/api/admin/bookings/:id/cancel', async (req, res) => {
    const { id } = parseOr400(bookingIdParams, req.params);
    // The spec's panel sends no body; a paid booking's cancel says what becomes of the money.
    const body = req.body && typeof req.body === 'object' && Object.keys(req.body as object).length > 0 ? req.body : undefined;
    const refund = body === undefined ? undefined : parseOr400(cancelRefundSchema, body);
    const admin = currentAdmin(res);
    res.json(
      await cancelBooking(db, id, { adminId: admin.id, isSuperadmin: admin.isSuperadmin }, deps.now(), {
        payments: deps.payments,
        logger: deps.logger,
        refund,
        noticeHours: deps.config.changeNoticeHours,
      }),
    );
  });

  // ---- Series (issue 34): a conflict is an answer (409 with the dates), not an error.
  r.post('/api/admin/series', async (req, res) => {
    const input = parseOr400(seriesCreateSchema, req.body);
    const out = await createSeries(db, input, actor(res), deps.now(), { tokenSecret: deps.config.jwtSecret });
    res.status(out.status).json(out.body);
  });

  r.get('/api/admin/series/:id', async (req, res) => {
    const { id } = parseOr400(seriesIdParams, req.params);
    parseOr400(noQuery, req.query);
    res.json(await getSeriesDetail(db, id));
  });

  r.post('/api/admin/series/:id/cancel', async (req, res) => {
    const { id } = parseOr400(seriesIdParams, req.params);
    const input = parseOr400(seriesCancelSchema, req.body);
    const admin = currentAdmin(res);
    res.json(
      await cancelSeries(db, id, input, { adminId: admin.id, isSuperadmin: admin.isSuperadmin }, deps.now(), {
        payments: deps.payments,
        logger: deps.logger,
        noticeHours: deps.config.changeNoticeHours,
      }),
    );
  });

  r.post('/api/admin/series/:id/move', async (req, res) => {
    const { id } = parseOr400(seriesIdParams, req.params);
    const input = parseOr400(seriesMoveSchema, req.body);
    const out = await moveSeries(db, id, input, actor(res), deps.now());
    res.status(out.status).json(out.body);
  });

  // ---- Refunds at the counter, and what a cancel may decide (issue 31, items 4 and 5)
  r.get('/api/admin/bookings/:id/refund-options', async (req, res) => {
    const { id } = parseOr400(bookingIdParams, req.params);
    parseOr400(noQuery, req.query);
    const admin = currentAdmin(res);
    res.json(await refundOptions(db, id, { isSuperadmin: admin.isSuperadmin }, deps.now(), deps.config.changeNoticeHours));
  });

  r.post('/api/admin/bookings/:id/record-refund', async (req, res) => {
    const { id } = parseOr400(bookingIdParams, req.params);
    const input = parseOr400(recordRefundSchema, req.body ?? {});
    res.json(await recordCounterRefund(db, id, input, actor(res), deps.now()));
  });

  r.get('/api/admin/refunds/due', async (req, res) => {
    parseOr400(noQuery, req.query);
    res.json(await refundsDue(db));
  });
  // ---- end of refunds at the counter

  r.post('/api/admin/bookings/:id/record-payment', async (req, res) => {
    const { id } = parseOr400(bookingIdParams, req.params);
    const input = parseOr400(recordPaymentSchema, req.body ?? {});
    res.json(await recordCounterPayment(deps, id, input, actor(res)));
  });

  r.post('/api/admin/bookings/:id/send-payment-link', async (req, res) => {
    const { id } = parseOr400(bookingIdParams, req.params);
    parseOr400(noBody, req.body ?? {});
    res.json(await sendBookingPaymentLink(deps, id, actor(res)));
  });

  r.post('/api/admin/bookings/:id/update-payment-link', async (req, res) => {
    const { id } = parseOr400(bookingIdParams, req.params);
    const input = parseOr400(updatePaymentLinkSchema, req.body);
    res.json(await updatePaymentLink(db, id, input, actor(res), deps.now()));
  });

  // ---- Availability: the admin grid and block/unblock (issue "Money and bookings always agree", item 5)
  r.post('/api/admin/availability/block', async (req, res) => {
    const input = parseOr400(blockSlotSchema, req.body);
    res.json(await toggleBlock(db, input, actor(res), deps.now()));
  });

  r.get('/api/admin/therapists/:id/slot-states', async (req, res) => {
    const { id } = parseOr400(therapistIdParams, req.params);
    const query = parseOr400(slotStatesQuerySchema, req.query);
    res.json(await therapistSlotStates(db, id, query, deps.now()));
  });
  // ---- end of availability

  r.get('/api/admin/clients-with-therapists', async (req, res) => {
    const q = parseOr400(clientBookingsQuerySchema, req.query);
    res.json(await listClientBookingsPage(db, q));
  });

  r.get('/api/admin/search-clients', async (req, res) => {
    const q = parseOr400(nameQuerySchema, req.query);
    res.json(await searchClients(db, q.name || undefined));
  });

  r.post('/api/admin/queues-session', requireSuperadmin, queuesSessionHandler(deps));

  // ---- Payments needing attention: what the ledger reconciliation found (super admins)
  const attention = superadminOnly(ADMIN_MESSAGES.attentionSuperadminOnly);
  r.get('/api/admin/payments/attention', attention, async (req, res) => {
    parseOr400(noQuery, req.query);
    res.json(await paymentsNeedingAttention(db, deps.now()));
  });

  r.post('/api/admin/payments/attention/:id/resolve', attention, async (req, res) => {
    const { id } = parseOr400(discrepancyIdParams, req.params);
    const input = parseOr400(resolveDiscrepancySchema, req.body);
    res.json(await markDiscrepancyReviewed(db, id, input, actor(res), deps.now()));
  });

  const decidesRefunds = superadminOnly(ADMIN_MESSAGES.refundRequestSuperadminOnly);
  r.post('/api/admin/refund-requests/:id/approve', decidesRefunds, async (req, res) => {
    const { id } = parseOr400(refundRequestIdParams, req.params);
    const input = parseOr400(approveRefundSchema, req.body);
    res.json(await approveRefundRequest(db, id, input, actor(res), deps.now(), { payments: deps.payments, logger: deps.logger }));
  });

  r.post('/api/admin/refund-requests/:id/decline', decidesRefunds, async (req, res) => {
    const { id } = parseOr400(refundRequestIdParams, req.params);
    const input = parseOr400(declineRefundSchema, req.body);
    res.json(await declineRefundRequest(db, id, input, actor(res), deps.now()));
  });

  r.get('/api/admin/audit-log', requireSuperadmin, async (req, res) => {
    const q = parseOr400(auditQuerySchema, req.query);
    res.json(await auditLogPage(db, pageOrFirst(q)));
  });

  return r;
}
