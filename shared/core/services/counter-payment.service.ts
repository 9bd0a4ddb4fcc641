import { randomUUID } from 'node:crypto';
import type { RecordPaymentInput, RecordPaymentResponse } from '../../contract/admin.ts';
import { formatRupees, paiseToRupees, rupeesToPaise } from '../../domain/money.ts';
import { deskPaymentDue, paymentState } from '../../domain/payment-state.ts';
import { AppError } from '../errors.ts';
import { enqueueInTx } from '../jobs/outbox.ts';
import { auditableBooking, findBookingForUpdate, updateBookingRow, type BookingRow } from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { getBooking } from '../repositories/booking.repository.ts';
import { moneyOf, recordCapture } from '../repositories/ledger.repository.ts';
import { intentsForConfirmedBooking } from './booking-followups.service.ts';
import { closeOpenLink, type PaymentDeps } from './payment.service.ts';

/** An online booking the centre made awaiting its payment link (issue 31), with a link out. */
const awaitingLink = (b: BookingRow) => b.bookingType === 'ONLINE' && b.paymentStatus === 'PENDING' && !b.cancelled && b.razorpayPaymentLinkId !== null;

/**
 * A fee taken at the centre (cash, card machine, UPI or a bank transfer; issue 31): one capture in the
 * ledger under an id of ours, in one transaction with its audit entry, for a booking the desk may take
 * it for (deskPaymentDue): in person to be paid at the centre, confirmed with no money recorded, or an
 * online booking the centre made awaiting its payment link. That last one is confirmed as a paid one
 * is, with its follow-up jobs (meeting link, confirmation e-mails, reminder). The booking's row lock
 * makes a second recording, even one sent at the same moment, a 409 rather than a second capture.
 *
 * A booking waiting on a link has it closed at the provider before the money is recorded: a link paid
 * meanwhile is the booking's payment (markPaid records it) and the desk gets 409 "already paid", so the
 * client never pays twice. A provider that cannot be reached leaves the link open; it is tried again
 * after the commit, and a payment that still slips in is returned as a stray one.
 */
export async function recordCounterPayment(
  deps: Pick<PaymentDeps, 'db' | 'payments' | 'logger' | 'now'>,
  id: number,
  input: RecordPaymentInput,
  by: { adminId: number },
): Promise<RecordPaymentResponse> {
  const now = deps.now();
  const first = await getBooking(deps.db, id);
  let linkLeftOpen: string | null = null;
  if (first && awaitingLink(first)) {
    const closed = await closeOpenLink(deps, id, first.razorpayPaymentLinkId);
    if (closed === 'paid') throw new AppError('conflict', `Booking ${id} is already paid.`);
    if (closed === 'unreachable') linkLeftOpen = first.razorpayPaymentLinkId;
  }
  const answer = await deps.db.transaction(async (tx) => {
    const before = await findBookingForUpdate(tx, id);
    if (!before || before.bookingType === 'ADMIN_BLOCK') throw new AppError('not_found', `Booking ${id} was not found.`);
    const money = await moneyOf(tx, id);
    const state = paymentState({ ...before, paidPaise: money.capturedPaise, refundedPaise: money.refundedPaise });
    if (!deskPaymentDue(state, before.paymentStatus)) {
      if (before.cancelled || before.paymentStatus === 'CANCELLED')
        throw new AppError('conflict', `Booking ${id} is cancelled: no payment can be recorded for it.`);
      if (state === 'PAID' || state === 'REFUNDED' || state === 'NO_CHARGE') throw new AppError('conflict', `Booking ${id} is already paid.`);
      if (before.paymentStatus === 'INITIATED')
        throw new AppError('conflict', `Booking ${id} is waiting for its online payment: it is paid online, not at the centre.`);
      throw new AppError('conflict', `Booking ${id} was not paid in time and its slot was released: no payment can be recorded for it.`);
    }
    const amountPaise = input.amount !== undefined ? rupeesToPaise(input.amount) : before.amountPaise;
    if (amountPaise <= 0) throw new AppError('validation', 'This booking has no price: please enter the amount received.', { amount: 'Amount is required' });
    await recordCapture(tx, {
      bookingId: id,
      provider: 'counter',
      paymentId: `counter_${randomUUID()}`,
      amountPaise,
      method: input.method,
      recordedByAdminId: by.adminId,
      occurredAt: now,
    });
    const after = await updateBookingRow(tx, id, { paymentStatus: 'COMPLETED', paidAt: now, updatedAt: now });
    // Confirmed only now: the session's follow-ups, as for a payment online.
    if (before.bookingType === 'ONLINE' && before.paymentStatus === 'PENDING') await enqueueInTx(tx, intentsForConfirmedBooking(after!, now), now);
    await insertAudit(tx, {
      adminId: by.adminId,
      actor: `admin:${by.adminId}`,
      action: 'booking.record_payment',
      entityType: 'booking',
      entityId: id,
      before: auditableBooking(before),
      after: { ...auditableBooking(after!), payment: { method: input.method, amount: paiseToRupees(amountPaise) } },
    });
    return {
      booking_id: id,
      payment_status: 'COMPLETED' as const,
      message: `Payment of ${formatRupees(paiseToRupees(amountPaise))} recorded for booking ${id} successfully.`,
    };
  });
  if (linkLeftOpen) await closeOpenLink(deps, id, linkLeftOpen);
  return answer;
}
