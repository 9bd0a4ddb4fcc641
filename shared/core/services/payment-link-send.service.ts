import { randomBytes } from 'node:crypto';
import { ADMIN_MESSAGES as AM, type SendPaymentLinkResponse } from '../../contract/admin.ts';
import { whatsappRecipient } from '../../domain/whatsapp.ts';
import { sessionStart } from '../../domain/time.ts';
import { AppError } from '../errors.ts';
import { jobIds } from '../jobs/jobs.ts';
import { enqueueInTx, intent, type JobIntent } from '../jobs/outbox.ts';
import { linkReference, MIN_LINK_LIFETIME_MS, type PaymentLink } from '../providers/payments/payments.provider.ts';
import { auditableBooking, findBookingForUpdate, updateBookingRow, type BookingRow } from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { getBooking } from '../repositories/booking.repository.ts';
import { ensureMessage } from '../repositories/whatsapp.repository.ts';
import { closeOpenLink, markPaid, type PaymentDeps } from './payment.service.ts';

/**
 * A booking's payment link made by the centre, and sent to the client (issue 31): the shareable link
 * (POST /api/create-shareable-payment-link), the panel's Send (POST /api/admin/bookings/{id}/send-payment-link)
 * and a manual online booking made unpaid (the payments.send-link job) all make it here.
 */

/** whatsapp_messages.kind of one sending of a payment link: a row per sending, named by its instant as its jobs are. */
export function paymentLinkKind(sentAt: Date): string {
  return `PAYMENT_LINK.${sentAt.getTime()}`;
}

/** Who made or sent the link, as the audit log names them. */
export type LinkActor = { adminId: number | null; actor: string };

export type LinkDeps = Pick<PaymentDeps, 'db' | 'payments' | 'config' | 'logger' | 'now'>;

/** How long a link shared for an in-person (or a wizard's) booking accepts payment. */
const SHARED_LINK_TTL_MS = 24 * 3600 * 1000;

/**
 * When a new link stops taking payment: an online booking the centre made awaiting its link, when its
 * session starts (the provider's minimum lifetime at least); any other, a day after it is made.
 */
function linkExpiry(b: BookingRow, now: Date): Date {
  if (b.bookingType === 'ONLINE' && b.paymentStatus === 'PENDING') {
    return new Date(Math.max(sessionStart(b).getTime(), now.getTime() + MIN_LINK_LIFETIME_MS));
  }
  return new Date(now.getTime() + SHARED_LINK_TTL_MS);
}

/**
 * Why no payment link can be made or sent for the booking now, if it cannot: a block, a cancelled
 * booking, one paid (or confirmed paid), one whose unpaid hold ended, or one without a price.
 */
export function linkRefusal(b: BookingRow): AppError | undefined {
  if (b.bookingType === 'ADMIN_BLOCK' || b.cancelled || b.paymentStatus === 'CANCELLED' || b.paymentStatus === 'BLOCKED') {
    return new AppError('conflict', AM.linkBookingClosed(b.id));
  }
  if (b.paymentStatus === 'COMPLETED') return new AppError('conflict', AM.linkAlreadyPaid(b.id));
  if (b.paymentStatus === 'FAILED') return new AppError('conflict', AM.linkBookingFailed(b.id));
  if (b.amountPaise <= 0) return new AppError('validation', AM.linkMissingDetails(b.id));
  return undefined;
}

/**
 * The booking's payment link. With `reuse`, the link it has is answered while it still takes payment
 * (the provider says so); otherwise, as for the shareable link, the open one is closed first. A link
 * paid meanwhile is the booking's payment (markPaid records it) and no link is made: 409 "already
 * paid". The new link is stored on the booking with its audit entry; never inside a transaction with
 * the provider's call.
 */
export async function linkForBooking(deps: LinkDeps, booking: BookingRow, by: LinkActor, opts: { reuse: boolean }): Promise<{ url: string; id: string }> {
  const id = booking.id;
  const now = deps.now();
  if (opts.reuse && booking.razorpayPaymentLinkId && booking.paymentLinkUrl) {
    let link: PaymentLink;
    try {
      link = await deps.payments.fetchPaymentLink(booking.razorpayPaymentLinkId);
    } catch {
      throw new AppError('bad_gateway', AM.linkUnavailable);
    }
    if (link.status === 'created' || link.status === 'partially_paid') return { url: booking.paymentLinkUrl, id: link.id };
    if (link.status === 'paid' && link.paymentId) {
      const paid = { provider: deps.payments.name, linkId: link.id, paymentId: link.paymentId, amountPaise: link.amountPaise };
      await deps.db.transaction((tx) => markPaid(tx, id, paid, now, deps.logger));
      throw new AppError('conflict', AM.linkAlreadyPaid(id));
    }
    // Expired or cancelled: a new one follows.
  } else if (!opts.reuse) {
    // One live link per booking: the one it had stops taking payment first.
    const previous = await closeOpenLink(deps, id, booking.razorpayPaymentLinkId);
    if (previous === 'paid') throw new AppError('conflict', AM.linkAlreadyPaid(id));
  }
  let link: PaymentLink;
  try {
    link = await deps.payments.createPaymentLink({
      // Not the booking id alone: Razorpay refuses a reference_id any earlier link of the booking has.
      referenceId: linkReference(id, randomBytes(6).toString('hex')),
      amountPaise: booking.amountPaise,
      description: `Therapy session booking ${id}`,
      customer: { name: booking.clientFullName, email: booking.clientEmail, contact: booking.clientMobile },
      callbackUrl: `${deps.config.publicBaseUrl}/payment-status`,
      expireBy: linkExpiry(booking, now),
    });
  } catch {
    throw new AppError('bad_gateway', AM.linkFailed);
  }
  await deps.db.transaction(async (tx) => {
    const before = await findBookingForUpdate(tx, id);
    const after = await updateBookingRow(tx, id, { paymentLinkUrl: link.shortUrl, razorpayPaymentLinkId: link.id, updatedAt: now });
    await insertAudit(tx, {
      ...by,
      action: 'booking.payment_link_create',
      entityType: 'booking',
      entityId: id,
      before: auditableBooking(before!),
      after: auditableBooking(after!),
    });
  });
  return { url: link.shortUrl, id: link.id };
}

/** The channels a sending reaches the client by: e-mail always; WhatsApp where they opted in and it is configured. */
function channelsFor(deps: LinkDeps, b: BookingRow): ('email' | 'whatsapp')[] {
  return deps.config.whatsapp && b.whatsappOptInAt && whatsappRecipient(b.clientMobile) ? ['email', 'whatsapp'] : ['email'];
}

/**
 * POST /api/admin/bookings/{id}/send-payment-link (and the payments.send-link job): the booking's link,
 * made if it has none that still takes payment, sent to the client. The sending is recorded on the
 * booking (payment_link_sent_at, payment_link_sent_to) with its audit entry and its messages' jobs, in
 * one transaction: the e-mail (mail.payment-link) and, where the client opted in, WhatsApp
 * (whatsapp.payment-link, its message row written with it). Each sending's jobs are named by its
 * instant, so a retried job is the same message and Send pressed again is a new one.
 * `onlyIfUnsent`: a booking sent its link before (by anyone) is not sent it again (answers undefined).
 */
export async function sendPaymentLink(
  deps: LinkDeps,
  id: number,
  by: LinkActor,
  opts: { onlyIfUnsent?: boolean } = {},
): Promise<SendPaymentLinkResponse | undefined> {
  const booking = await getBooking(deps.db, id);
  if (!booking) throw new AppError('not_found', AM.bookingNotFound(id));
  const refused = linkRefusal(booking);
  if (refused) throw refused;
  if (opts.onlyIfUnsent && booking.paymentLinkSentAt) return undefined;
  const link = await linkForBooking(deps, booking, by, { reuse: true });
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const before = await findBookingForUpdate(tx, id);
    // Paid or cancelled while the link was made: nothing is sent.
    const late = linkRefusal(before!);
    if (late) throw late;
    if (opts.onlyIfUnsent && before!.paymentLinkSentAt) return undefined;
    const sentTo = channelsFor(deps, before!);
    const after = await updateBookingRow(tx, id, { paymentLinkSentAt: now, paymentLinkSentTo: sentTo, updatedAt: now });
    await insertAudit(tx, {
      ...by,
      action: 'booking.payment_link_send',
      entityType: 'booking',
      entityId: id,
      before: { ...auditableBooking(before!), payment_link_sent_at: before!.paymentLinkSentAt?.toISOString() ?? null },
      after: { ...auditableBooking(after!), payment_link_sent_at: now.toISOString(), payment_link_sent_to: sentTo },
    });
    const sentAt = now.toISOString();
    const intents: JobIntent[] = [intent('mail.payment-link', jobIds.paymentLinkMail(id, now), { bookingId: id, sentAt })];
    if (sentTo.includes('whatsapp')) {
      await ensureMessage(tx, id, paymentLinkKind(now), sessionStart(before!));
      intents.push(intent('whatsapp.payment-link', jobIds.whatsappPaymentLink(id, now), { bookingId: id, sentAt }));
    }
    await enqueueInTx(tx, intents, now);
    return { payment_link_url: link.url, sent_to: sentTo, sent_at: sentAt };
  });
}

/**
 * The payments.send-link job, written with a manual online booking made unpaid (createManualBooking).
 * Why a job and not a call after the booking's commit: a crash between the two would leave the client
 * with a booking and no link. The intent commits with the booking, and the job is idempotent: a booking
 * sent its link already (this job's earlier run, or the desk's Send) is not sent it again, an open link
 * is reused rather than made twice, and one paid or cancelled meanwhile needs nothing. The provider
 * unreachable is retried by the queue; the admin who made the booking is the sender in the audit log.
 */
export async function sendLinkOfNewBooking(deps: LinkDeps, bookingId: number): Promise<'sent' | 'already-sent' | 'skipped'> {
  const booking = await getBooking(deps.db, bookingId);
  if (!booking || linkRefusal(booking)) return 'skipped';
  const by = { adminId: booking.createdByAdminId, actor: 'worker:payments.send-link' };
  try {
    return (await sendPaymentLink(deps, bookingId, by, { onlyIfUnsent: true })) ? 'sent' : 'already-sent';
  } catch (err) {
    // Paid or cancelled while it ran: nothing to send, and nothing failed.
    if (err instanceof AppError && err.code === 'conflict') return 'skipped';
    throw err;
  }
}
