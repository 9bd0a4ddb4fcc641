import { createHash } from 'node:crypto';
import { z } from 'zod';
import { displayName } from '../../domain/therapist.ts';
import { SESSION_MINUTES } from '../../domain/session.ts';
import { addDays, centreNow, formatLongDate, formatTime12h, sessionStart } from '../../domain/time.ts';
import type { Config } from '../config.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError, isUniqueViolation } from '../errors.ts';
import { jobIds } from '../jobs/jobs.ts';
import { JobWaitTimeout, type JobsClient } from '../jobs/queues.ts';
import { enqueueInTx, intent } from '../jobs/outbox.ts';
import { intentsForConfirmedBooking } from './booking-followups.service.ts';
import type { Logger } from '../logger.ts';
import { bookingOfReference, linkReference, MIN_LINK_LIFETIME_MS, type PaymentsProvider } from '../providers/payments/payments.provider.ts';
import { paymentCallbackSchema, type PaymentCallback } from '../../contract/payment-callback.ts';
import { INT4_MAX } from '../../contract/booking.ts';
import { API_MESSAGES as M } from '../../contract/messages.ts';
import { findBookingByPublicRef, getBooking, getBookingView, type BookingView } from '../repositories/booking.repository.ts';
import { moneyOf, recordCapture, type LedgerMethod } from '../repositories/ledger.repository.ts';
import { beginRefund, completeRefund, refundUnderWay, type ApplyRefund } from './refund.service.ts';
import { mapBookingRecord } from './booking-records.ts';
import { bookingTokenMatches, manageTokenFor, manageUrlFor } from './booking-token.ts';
import { saleWebhook } from './package-payment.service.ts';
import { saleOfReference } from '../../domain/payment-link-reference.ts';
import { isConfirmedBooking, manageOptions } from '../../domain/manage.ts';
import { setManageHashIfMissing } from '../repositories/manage.repository.ts';
import { findBookingForUpdate, updateBookingRow } from '../repositories/admin-booking.repository.ts';
import {
  earliestRunningHoldEnd,
  failInitiatedBooking,
  paymentLinkIdOf,
  recordWebhookEvent,
  storeLinkIfNone,
  unpaidOnlineBookingIds,
  awaitingLinkBookingIds,
} from '../repositories/payment.repository.ts';
import type { CapturedPayment, PaymentDeps } from './payment-deps.ts';

// The deps and a captured payment live apart so a package sale's payments can share them (payment-deps.ts).
export type { CapturedPayment, PaymentDeps };

/** A missing price books ₹0, but a payment link cannot be for nothing: it is made for ₹1 (spec section 9). */
export const MIN_LINK_PAISE = 100;

const METHODS: Record<string, LedgerMethod> = { upi: 'UPI', card: 'CARD', netbanking: 'NETBANKING', wallet: 'WALLET' };
/** The ledger's method for a provider's method name. */
export function ledgerMethod(method: string | undefined): LedgerMethod {
  return (method && METHODS[method.toLowerCase()]) || 'OTHER';
}

/**
 * A captured payment for a booking: first recorded in the ledger (once, whatever order the callback,
 * webhook and reconciliation bring it in, and whatever state the booking is in), then the booking
 * follows. Online INITIATED (or FAILED, when a late payment still finds its slot free) → COMPLETED
 * with its follow-up jobs, and so does an online booking the centre made awaiting its payment link
 * (PENDING, issue 31), exactly as a wizard payment; in person PENDING (a shareable link) → COMPLETED. A payment for a booking
 * that cannot take it (cancelled, paid already, or its slot gone) stays in the ledger and a
 * payments.refund-stray job returns it. Answers whether this call completed the booking.
 */
export async function markPaid(tx: DbOrTx, bookingId: number, payment: CapturedPayment, now: Date, logger: Logger): Promise<boolean> {
  // The booking's row lock orders every report of a payment for it.
  const booking = await findBookingForUpdate(tx, bookingId);
  if (!booking) {
    logger.error({ bookingId, paymentId: payment.paymentId }, 'payment for an unknown booking: refund needed');
    return false;
  }
  const recorded = await recordCapture(tx, {
    bookingId,
    provider: payment.provider,
    paymentId: payment.paymentId,
    linkId: payment.linkId,
    amountPaise: payment.amountPaise ?? (booking.amountPaise > 0 ? booking.amountPaise : MIN_LINK_PAISE),
    method: payment.method ?? 'OTHER',
    occurredAt: now,
  });
  const set = {
    paymentStatus: 'COMPLETED' as const,
    razorpayPaymentId: payment.paymentId,
    razorpayPaymentLinkId: payment.linkId,
    paidAt: now,
    paymentHoldExpiresAt: null,
    updatedAt: now,
  };
  let row: typeof booking | undefined;
  if (!booking.cancelled && booking.bookingType === 'ONLINE' && (booking.paymentStatus === 'INITIATED' || booking.paymentStatus === 'PENDING')) {
    row = await updateBookingRow(tx, bookingId, set);
  } else if (!booking.cancelled && booking.bookingType === 'ONLINE' && booking.paymentStatus === 'FAILED') {
    try {
      // A savepoint: losing the slot to a newer booking must not abort the caller's transaction.
      row = await tx.transaction(async (sp) => updateBookingRow(sp, bookingId, set));
    } catch (err) {
      if (!isUniqueViolation(err, 'bookings_live_slot_uq')) throw err;
    }
  } else if (!booking.cancelled && booking.bookingType === 'OFFLINE' && booking.paymentStatus === 'PENDING') {
    // An in-person fee paid through a shareable link: nothing to send, the session was confirmed at booking.
    await updateBookingRow(tx, bookingId, set);
    logger.info({ bookingId }, 'in-person booking paid by link: COMPLETED');
    return true;
  }
  if (!row) {
    if (recorded && booking.razorpayPaymentId !== payment.paymentId) {
      // Money for a session that will not take place: the worker returns it (or shows it as due).
      logger.warn(
        { bookingId, paymentId: payment.paymentId },
        'payment captured for a booking that cannot take it (cancelled, already paid or its slot re-booked): refund',
      );
      await enqueueInTx(tx, [intent('payments.refund-stray', jobIds.strayRefund(payment.paymentId), { bookingId, paymentId: payment.paymentId })], now);
    }
    return false;
  }
  await enqueueInTx(tx, intentsForConfirmedBooking(row, now), now);
  logger.info({ bookingId }, 'booking paid: COMPLETED');
  return true;
}

/** INITIATED → FAILED: the slot is free again (bookings_live_slot_uq ignores FAILED rows). */
export async function markUnpaid(tx: DbOrTx, bookingId: number, now: Date, logger: Logger, reason: string): Promise<boolean> {
  const failed = await failInitiatedBooking(tx, bookingId, now);
  if (failed) logger.info({ bookingId, reason }, 'unpaid booking FAILED, slot freed');
  return failed;
}

export type PaymentLinkResult = { short_url: string; payment_link_id: string };

/** The payments.create-link job: one link per booking, stored on the booking. Safe to run again. */
export async function createLinkForBooking(deps: PaymentDeps, bookingId: number): Promise<PaymentLinkResult> {
  const booking = await getBookingView(deps.db, bookingId);
  if (!booking) throw new AppError('not_found', M.bookingNotFound);
  if (booking.paymentLinkUrl && booking.razorpayPaymentLinkId) {
    return { short_url: booking.paymentLinkUrl, payment_link_id: booking.razorpayPaymentLinkId };
  }
  const now = deps.now();
  if (booking.bookingType !== 'ONLINE' || booking.paymentStatus !== 'INITIATED' || booking.cancelled) {
    throw new AppError('conflict', 'This booking is not awaiting an online payment.');
  }
  const holdEnd = booking.paymentHoldExpiresAt ?? new Date(now.getTime() + deps.config.paymentHoldMinutes * 60_000);
  if (holdEnd.getTime() <= now.getTime()) throw new AppError('conflict', 'The time held for this booking has ended. Please book again.');

  const referenceId = linkReference(booking.id);
  const link =
    (await deps.payments.findPaymentLinkByReference(referenceId)) ??
    (await deps.payments.createPaymentLink({
      referenceId,
      amountPaise: booking.amountPaise > 0 ? booking.amountPaise : MIN_LINK_PAISE,
      description: `${deps.config.centreName}: ${SESSION_MINUTES}-minute online session with ${displayName(booking.therapistName)} on ${formatLongDate(booking.bookingDate)} at ${formatTime12h(booking.bookingTimeSlotStart)} (booking ${booking.id})`,
      customer: { name: booking.clientFullName, email: booking.clientEmail, contact: `+91${booking.clientMobile}` },
      callbackUrl: `${deps.config.publicBaseUrl}/payment-status`,
      // The provider needs a link to live at least 15 minutes; reconciliation cancels it when the hold ends.
      expireBy: new Date(Math.max(holdEnd.getTime(), now.getTime() + MIN_LINK_LIFETIME_MS)),
    }));
  await storeLinkIfNone(deps.db, booking.id, link, now);
  return { short_url: link.shortUrl, payment_link_id: link.id };
}

export type ReconcileOutcome = 'completed' | 'failed' | 'pending' | 'noop';

/**
 * Asks the provider about one unpaid online booking and settles it: paid, or failed once its hold is
 * over. One the centre made awaiting its payment link (PENDING) holds no hold: it is completed when its
 * link was paid and otherwise stays as it is (staff cancel it), whatever became of the link.
 */
export async function reconcileBooking(deps: PaymentDeps, bookingId: number): Promise<ReconcileOutcome> {
  const booking = await getBooking(deps.db, bookingId);
  if (booking?.bookingType !== 'ONLINE') return 'noop';
  const now = deps.now();
  if (booking.paymentStatus === 'PENDING' && !booking.cancelled && booking.razorpayPaymentLinkId) {
    const link = await deps.payments.fetchPaymentLink(booking.razorpayPaymentLinkId);
    if (link.status !== 'paid' || !link.paymentId) return 'pending';
    const paid = { provider: deps.payments.name, linkId: link.id, paymentId: link.paymentId, amountPaise: link.amountPaise };
    await deps.db.transaction((tx) => markPaid(tx, booking.id, paid, now, deps.logger));
    return 'completed';
  }
  if (booking.paymentStatus !== 'INITIATED') return 'noop';
  const settle = async (link: { status: string; id: string; paymentId?: string; amountPaise?: number }): Promise<ReconcileOutcome | undefined> => {
    if (link.status === 'paid' && link.paymentId) {
      const paid = { provider: deps.payments.name, linkId: link.id, paymentId: link.paymentId, amountPaise: link.amountPaise };
      await deps.db.transaction((tx) => markPaid(tx, booking.id, paid, now, deps.logger));
      return 'completed';
    }
    if (link.status === 'expired' || link.status === 'cancelled') {
      await markUnpaid(deps.db, booking.id, now, deps.logger, `link ${link.status}`);
      return 'failed';
    }
    return undefined;
  };
  if (booking.razorpayPaymentLinkId) {
    const settled = await settle(await deps.payments.fetchPaymentLink(booking.razorpayPaymentLinkId));
    if (settled) return settled;
  }
  const holdOver = !booking.paymentHoldExpiresAt || booking.paymentHoldExpiresAt.getTime() <= now.getTime();
  if (!holdOver) return 'pending';
  if (booking.razorpayPaymentLinkId) {
    const settled = await settle(await deps.payments.cancelPaymentLink(booking.razorpayPaymentLinkId));
    if (settled) return settled;
  }
  await markUnpaid(deps.db, booking.id, now, deps.logger, 'hold ended');
  return 'failed';
}

/** The scheduled payments.reconcile job: every unpaid online booking with a link, or whose hold is over. */
export async function reconcileAll(deps: PaymentDeps): Promise<Record<ReconcileOutcome, number>> {
  return reconcileWhere(deps, 'to-reconcile');
}

/** The payments.expire-holds job: every unpaid online booking whose hold is over (paid ones complete). */
export async function expireEndedHolds(deps: PaymentDeps): Promise<Record<ReconcileOutcome, number>> {
  return reconcileWhere(deps, 'hold-over');
}

/** When the earliest hold still running ends; its payments.expire-holds job waits for that instant. */
export async function nextHoldEnd(db: Db, now: Date): Promise<Date | undefined> {
  return earliestRunningHoldEnd(db, now);
}

async function reconcileWhere(deps: PaymentDeps, which: 'to-reconcile' | 'hold-over'): Promise<Record<ReconcileOutcome, number>> {
  const ids = await unpaidOnlineBookingIds(deps.db, which, deps.now());
  // The centre's bookings awaiting a link they were sent: a link expires when its session starts, so
  // from the day before today on.
  if (which === 'to-reconcile') ids.push(...(await awaitingLinkBookingIds(deps.db, addDays(centreNow(deps.now()).date, -1))));
  const counts: Record<ReconcileOutcome, number> = { completed: 0, failed: 0, pending: 0, noop: 0 };
  let lastError: unknown;
  for (const id of ids) {
    try {
      counts[await reconcileBooking(deps, id)]++;
    } catch (err) {
      lastError = err;
      deps.logger.warn({ bookingId: id, err: (err as Error).message }, 'reconcile: provider check failed');
    }
  }
  // One provider hiccup must not hide the others' results, but the run is reported as failed.
  if (lastError) throw lastError;
  return counts;
}

const webhookSchema = z.object({
  event: z.string(),
  payload: z
    .object({
      payment_link: z.object({ entity: z.object({ id: z.string(), reference_id: z.string().optional(), status: z.string().optional() }) }).optional(),
      payment: z.object({ entity: z.object({ id: z.string(), amount: z.number().int().positive().optional(), method: z.string().optional() }) }).optional(),
    })
    .optional(),
});

export type WebhookOutcome = 'processed' | 'duplicate' | 'ignored';

/**
 * POST /api/payment/webhook. Verified over the raw body, de-duplicated on the provider's event id in
 * the same transaction as its effect, and safe in any order: a late "expired" cannot undo a payment.
 */
export async function handlePaymentWebhook(
  deps: PaymentDeps,
  rawBody: Buffer,
  signature: string | undefined,
  eventIdHeader: string | undefined,
): Promise<WebhookOutcome> {
  if (!signature || !deps.payments.verifyWebhook(rawBody, signature)) throw new AppError('validation', M.webhookSignatureInvalid);
  let parsed: z.infer<typeof webhookSchema>;
  try {
    parsed = webhookSchema.parse(JSON.parse(rawBody.toString('utf8')));
  } catch {
    throw new AppError('validation', M.webhookMalformed);
  }
  const eventId = eventIdHeader?.trim() || `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
  const link = parsed.payload?.payment_link?.entity;
  const bookingId = bookingOfReference(link?.reference_id);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const fresh = await recordWebhookEvent(tx, { eventId: eventId.slice(0, 200), provider: deps.payments.name, event: parsed.event.slice(0, 100) });
    if (!fresh) return 'duplicate';
    if (link && saleOfReference(link.reference_id) !== undefined) {
      // A package sale's link (issue 34): its own settlement.
      const entity = parsed.payload?.payment?.entity;
      const paid = entity && {
        provider: deps.payments.name,
        linkId: link.id,
        paymentId: entity.id,
        amountPaise: entity.amount,
        method: ledgerMethod(entity.method),
      };
      return saleWebhook(tx, deps, parsed.event, link, paid, now);
    }
    if (!link || bookingId === undefined) return 'ignored';
    switch (parsed.event) {
      case 'payment_link.paid': {
        const entity = parsed.payload?.payment?.entity;
        if (!entity) return 'ignored';
        const paid = { provider: deps.payments.name, linkId: link.id, paymentId: entity.id, amountPaise: entity.amount, method: ledgerMethod(entity.method) };
        await markPaid(tx, bookingId, paid, now, deps.logger);
        return 'processed';
      }
      case 'payment_link.expired':
      case 'payment_link.cancelled': {
        if ((await paymentLinkIdOf(tx, bookingId)) !== link.id) return 'ignored';
        await markUnpaid(tx, bookingId, now, deps.logger, parsed.event);
        return 'processed';
      }
      default:
        return 'ignored';
    }
  });
}

/**
 * GET /api/get-razorpay-details: believes the query only when its signature verifies, otherwise asks
 * the provider; marks the booking paid at most once and answers it as it now stands.
 */
export async function confirmPayment(deps: PaymentDeps, booking: BookingView, query: Record<string, unknown>): Promise<BookingView> {
  const awaiting =
    (booking.bookingType === 'ONLINE' && (booking.paymentStatus === 'INITIATED' || booking.paymentStatus === 'FAILED')) ||
    // A booking the centre sent a link for: in person, or online and made awaiting its link (issue 31).
    (booking.bookingType !== 'ADMIN_BLOCK' && booking.paymentStatus === 'PENDING' && booking.razorpayPaymentLinkId !== null);
  if (!awaiting || booking.cancelled) return booking;
  const now = deps.now();
  const callback = signedCallbackFor(deps.payments, booking, query);
  let paid: CapturedPayment | undefined;
  if (callback) {
    paid = { provider: deps.payments.name, linkId: callback.razorpay_payment_link_id, paymentId: callback.razorpay_payment_id };
  } else if (booking.razorpayPaymentLinkId) {
    const link = await deps.payments.fetchPaymentLink(booking.razorpayPaymentLinkId);
    if (link.status === 'paid' && link.paymentId)
      paid = { provider: deps.payments.name, linkId: link.id, paymentId: link.paymentId, amountPaise: link.amountPaise };
  }
  if (paid) await deps.db.transaction((tx) => markPaid(tx, booking.id, paid, now, deps.logger));
  return (await getBookingView(deps.db, booking.id))!;
}

export type StrayOutcome = 'refunded' | 'refund-due' | 'noop';

/**
 * The payments.refund-stray job: a payment captured for a booking that cannot take it (cancelled,
 * paid already, or its hold over and its slot gone) goes back in full through the provider, recorded
 * in the ledger, and the client is told. With AUTO_REFUND_STRAY_PAYMENTS off it stays a refund due,
 * which the panel shows. Safe to run again: the booking's row lock, what the ledger already returned
 * and the provider's idempotency key (one per payment) make one refund. The provider is asked with no
 * transaction open (the refund's intent is written first); another refund of the booking still under
 * way makes this one wait (a retry).
 */
export async function refundStrayPayment(deps: PaymentDeps, bookingId: number, paymentId: string): Promise<StrayOutcome> {
  if (!deps.config.autoRefundStrayPayments) return 'refund-due';
  const begun = await deps.db.transaction(async (tx) => {
    const booking = await findBookingForUpdate(tx, bookingId);
    if (!booking) return 'noop';
    // The payment did become the booking's (a later report found its slot free after all).
    if (booking.paymentStatus === 'COMPLETED' && !booking.cancelled && booking.razorpayPaymentId === paymentId) return 'noop';
    if (await refundUnderWay(tx, bookingId)) throw new AppError('unavailable', `A refund of booking ${bookingId} is under way; this one waits for it.`);
    const left = (await moneyOf(tx, bookingId)).payments.find((p) => p.paymentId === paymentId)?.leftPaise ?? 0;
    if (left <= 0) return 'noop';
    const action = { kind: 'stray-refund' as const, paymentId };
    const refund = await beginRefund(
      tx,
      deps,
      bookingId,
      left,
      { key: 'stray', reason: 'Paid for a booking that could not take place', requestedBy: 'worker:refund-stray', onlyPaymentId: paymentId },
      action,
    );
    if ('intent' in refund) return refund.intent;
    await applyStrayRefund(tx, { bookingId, action, outcome: refund.settled, now: deps.now(), logger: deps.logger });
    return 'refunded';
  });
  if (typeof begun === 'string') return begun;
  await completeRefund(deps, begun, applyStrayRefund);
  return 'refunded';
}

/** Once a stray payment is back: the client is told, once per payment. */
export const applyStrayRefund: ApplyRefund<'stray-refund'> = async (tx, { bookingId, action, now }) => {
  await enqueueInTx(tx, [intent('mail.booking-money', jobIds.strayRefundMail(action.paymentId), { bookingId })], now);
};

/**
 * One live link per booking: closes a booking's open link at the provider (a new link replaces it, or
 * the booking was cancelled). A link paid meanwhile cannot be closed; its payment is recorded (and the
 * booking follows if it still can: markPaid). A provider that cannot be reached leaves the link open
 * (logged; the hold's expiry and the reconciliation still end it). Answers what became of the link.
 */
export async function closeOpenLink(
  deps: Pick<PaymentDeps, 'db' | 'payments' | 'logger' | 'now'>,
  bookingId: number,
  linkId: string | null,
): Promise<'none' | 'closed' | 'paid' | 'unreachable'> {
  if (!linkId) return 'none';
  let link;
  try {
    link = await deps.payments.cancelPaymentLink(linkId);
  } catch (err) {
    deps.logger.warn({ bookingId, err }, 'payment link could not be cancelled at the provider; it stays open until it expires');
    return 'unreachable';
  }
  if (link.status === 'paid' && link.paymentId) {
    const paid = { provider: deps.payments.name, linkId: link.id, paymentId: link.paymentId, amountPaise: link.amountPaise };
    await deps.db.transaction((tx) => markPaid(tx, bookingId, paid, deps.now(), deps.logger));
    return 'paid';
  }
  return 'closed';
}

/** What a caller offers as proof that a booking is theirs. */
export type BookingProof = {
  /** The booking token from the X-Booking-Token header (or the body, for the link request). */
  token?: unknown;
  /** A signed-in admin asked. */
  admin?: boolean;
};

/** What the API's link request needs: the database, and the jobs client the payments.create-link job runs through. */
export type PaymentLinkDeps = { db: Db; jobs: JobsClient; config: Pick<Config, 'paymentLinkWaitMs'>; logger: Logger };

/**
 * POST /api/payment/generate-link: only the booking's client (its token) or an admin may have its link,
 * and only while the booking waits for an online payment. Without proof the answer is 403 whether or
 * not the booking exists, so a loop over booking ids learns nothing. A stored link is answered as it
 * is; otherwise the payments.create-link job makes it and the request waits for its answer, a bounded
 * time (the API never calls the provider itself): 504 when the wait runs out (the job still runs), 502
 * when the job or Redis fails.
 */
export async function requestPaymentLink(deps: PaymentLinkDeps, bookingId: number, proof: BookingProof): Promise<PaymentLinkResult> {
  const booking = await getBooking(deps.db, bookingId);
  if (!booking || (!proof.admin && !bookingTokenMatches(proof.token, booking.bookingTokenHash))) {
    throw new AppError('forbidden', M.bookingTokenRequired);
  }
  if (booking.bookingType !== 'ONLINE' || booking.paymentStatus !== 'INITIATED' || booking.cancelled) {
    throw new AppError('conflict', M.notAwaitingPayment);
  }
  if (booking.paymentLinkUrl && booking.razorpayPaymentLinkId) {
    return { short_url: booking.paymentLinkUrl, payment_link_id: booking.razorpayPaymentLinkId };
  }
  try {
    return await deps.jobs.runAndWait('payments.create-link', { bookingId: booking.id }, jobIds.paymentLink(booking.id), deps.config.paymentLinkWaitMs);
  } catch (err) {
    deps.logger.warn({ bookingId: booking.id, err: (err as Error).message }, 'payment link job did not answer');
    throw new AppError(err instanceof JobWaitTimeout ? 'timeout' : 'bad_gateway', M.paymentLinkFailed);
  }
}

/** The wizard's confirmation of the link the server stored: the booking's token, and the very same link. */
export async function confirmStoredLink(
  db: Db,
  bookingId: number,
  link: { payment_link_url: string; razorpay_payment_link_id?: string | undefined },
  proof: BookingProof,
): Promise<{ message: string; booking_id: number; payment_link_url: string }> {
  const booking = await getBooking(db, bookingId);
  if (!booking || !bookingTokenMatches(proof.token, booking.bookingTokenHash)) throw new AppError('forbidden', M.bookingTokenRequired);
  const same =
    booking.paymentLinkUrl === link.payment_link_url && (!link.razorpay_payment_link_id || link.razorpay_payment_link_id === booking.razorpayPaymentLinkId);
  if (!same) throw new AppError('forbidden', 'Only the payment link the centre created for this booking can be saved.');
  return { message: 'Payment link saved.', booking_id: booking.id, payment_link_url: link.payment_link_url };
}

/**
 * The query when it is the provider's signed callback of a payment for this very booking (and its
 * current link, if any). Only a paid one: whoever holds a link can make a failed attempt, and the
 * sandbox signs that redirect too.
 */
function signedCallbackFor(payments: PaymentsProvider, booking: BookingView, query: Record<string, unknown>): PaymentCallback | undefined {
  const callback = paymentCallbackSchema.safeParse(query);
  if (!callback.success) return undefined;
  const c = callback.data;
  const forThisBooking =
    c.razorpay_payment_link_status === 'paid' &&
    bookingOfReference(c.razorpay_payment_link_reference_id) === booking.id &&
    (!booking.razorpayPaymentLinkId || c.razorpay_payment_link_id === booking.razorpayPaymentLinkId);
  return forThisBooking && payments.verifyCallback(c) ? c : undefined;
}

export type BookingDetailsAnswer =
  | { data: ReturnType<typeof mapBookingRecord> & { manage_url: string | null; changes_open: boolean } }
  | { data: { payment_status: BookingView['paymentStatus'] } };

/**
 * GET /api/get-razorpay-details/{ref}: ref is the payment link id, the transaction id or, with proof
 * only, the booking number. The client's record (name, e-mail, mobile, note, meeting link) goes only
 * to a caller with proof: the provider's signature over the callback for this booking, or its token.
 * Anyone else holding an unguessable reference learns the payment status and nothing more; a bare
 * booking number without proof is not found, so no answer is keyed by a sequential id alone. An
 * online booking is settled first (signed callback believed, otherwise the provider asked).
 */
export async function paymentStatusFor(deps: PaymentDeps, ref: string, query: Record<string, unknown>, proof: BookingProof): Promise<BookingDetailsAnswer> {
  const notFound = () => new AppError('not_found', M.bookingDetailsFailed);
  let booking = await findBookingByPublicRef(deps.db, ref);
  let byNumber = false;
  if (!booking && /^\d{1,10}$/.test(ref) && Number(ref) <= INT4_MAX) {
    booking = await getBookingView(deps.db, Number(ref));
    byNumber = true;
  }
  if (!booking) throw notFound();
  const proven =
    Boolean(proof.admin) || signedCallbackFor(deps.payments, booking, query) !== undefined || bookingTokenMatches(proof.token, booking.bookingTokenHash);
  if (byNumber && !proven) throw notFound();
  if (booking.bookingType === 'ONLINE' || booking.razorpayPaymentLinkId) booking = await confirmPayment(deps, booking, query);
  const claimedPaid = query.payment_status === 'paid' || query.razorpay_payment_link_status === 'paid';
  if (booking.bookingType === 'ONLINE' && booking.paymentStatus !== 'COMPLETED' && claimedPaid) {
    // Paid for a session that will not take place: say so, and that the money goes back.
    if ((await moneyOf(deps.db, booking.id)).capturedPaise > 0) {
      throw new AppError(
        'conflict',
        `${booking.cancelled ? 'This booking was cancelled' : 'The time held for this booking ended'} before your payment reached us, so the session will not take place. Your payment is being refunded in full to your original payment method; we have sent you an e-mail.`,
      );
    }
    throw new AppError('conflict', 'We could not confirm this payment yet. Please contact support.');
  }
  if (!proven) return { data: { payment_status: booking.paymentStatus } };
  const now = deps.now();
  const manageUrl = await manageUrlIfConfirmed(deps, booking, now);
  const record = mapBookingRecord(booking, now, await moneyOf(deps.db, booking.id));
  return { data: { ...record, manage_url: manageUrl, changes_open: manageUrl !== null && clientMayChange(deps.config, booking, now) } };
}

/** Whether the client may still move or cancel the session online (the Manage booking rule, shared/domain/manage.ts). */
function clientMayChange(config: Config, b: BookingView, now: Date): boolean {
  const options = manageOptions({ ...b, startsAt: sessionStart(b) }, now, { noticeHours: config.changeNoticeHours, maxReschedules: config.maxReschedules });
  return options.canReschedule || options.canCancel;
}

/**
 * The client's private Manage booking address (issue 21), for the caller who proved the booking is
 * theirs: only once it is confirmed and until its session starts. A booking from before the feature
 * gets its token's hash stored first, so the address works.
 */
async function manageUrlIfConfirmed(deps: PaymentDeps, booking: BookingView, now: Date): Promise<string | null> {
  if (booking.bookingType === 'ADMIN_BLOCK' || !isConfirmedBooking(booking) || now.getTime() >= sessionStart(booking).getTime()) return null;
  if (!booking.manageTokenHash) await setManageHashIfMissing(deps.db, booking.id, manageTokenFor(deps.config.jwtSecret, booking.id).hash);
  return manageUrlFor(deps.config.publicBaseUrl, deps.config.jwtSecret, booking.id);
}
