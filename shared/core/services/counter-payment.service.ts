import { randomUUID } from 'node:crypto';
import type { RecordPaymentInput, RecordPaymentResponse } from '../../contract/admin.ts';
import { formatRupees, paiseToRupees, rupeesToPaise } from '../../domain/money.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { auditableBooking, findBookingForUpdate, updateBookingRow } from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { hasCapture, recordCapture } from '../repositories/ledger.repository.ts';

/**
 * A fee paid at the centre for an in-person booking (cash, card machine or UPI at the desk): one
 * capture in the ledger under an id of ours, and the booking COMPLETED, in one transaction with its
 * audit entry. The booking's row lock makes a second recording, even one sent at the same moment,
 * a 409 rather than a second capture.
 */
export async function recordCounterPayment(db: Db, id: number, input: RecordPaymentInput, by: { adminId: number }, now: Date): Promise<RecordPaymentResponse> {
  return db.transaction(async (tx) => {
    const before = await findBookingForUpdate(tx, id);
    if (!before || before.bookingType === 'ADMIN_BLOCK') throw new AppError('not_found', `Booking ${id} was not found.`);
    if (before.bookingType !== 'OFFLINE') throw new AppError('conflict', `Booking ${id} is an online session: it is paid online, not at the centre.`);
    if (before.paymentStatus === 'COMPLETED' || (await hasCapture(tx, id))) throw new AppError('conflict', `Booking ${id} is already paid.`);
    if (before.cancelled || before.paymentStatus !== 'PENDING')
      throw new AppError('conflict', `Booking ${id} is cancelled: no payment can be recorded for it.`);
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
      payment_status: 'COMPLETED',
      message: `Payment of ${formatRupees(paiseToRupees(amountPaise))} recorded for booking ${id} successfully.`,
    };
  });
}
