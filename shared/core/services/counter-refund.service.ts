import { randomUUID } from 'node:crypto';
import { ADMIN_MESSAGES as AM, type RecordRefundInput } from '../../contract/admin.ts';
import type { RecordRefundResponse, RefundDueItem, RefundsDueResponse } from '../../contract/refunds.ts';
import { formatRupees, paiseToRupees, rupeesToPaise } from '../../domain/money.ts';
import { toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { AppError, fieldError } from '../errors.ts';
import { findBookingForUpdate } from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { moneyOf, recordRefund } from '../repositories/ledger.repository.ts';
import { listDueAtCounter, openRequestForUpdate, resolveRequest, setOpenAmount, type RefundRequestListRow } from '../repositories/refund-request.repository.ts';

/** Who asked for a refund, as the lists show it: refund_requests.requested_by is 'client', 'admin:{id}' or 'worker:…'. */
export function requestedByOf(r: Pick<RefundRequestListRow, 'requestedBy'>): 'CLIENT' | 'ADMIN' | 'SYSTEM' {
  if (r.requestedBy === 'client') return 'CLIENT';
  return r.requestedBy.startsWith('admin:') ? 'ADMIN' : 'SYSTEM';
}

function toDueItem(r: RefundRequestListRow): RefundDueItem {
  return {
    id: r.id,
    booking_id: r.bookingId,
    client_full_name: r.clientFullName,
    client_mobile: r.clientMobile,
    therapist_name: r.therapistName,
    booking_date: r.bookingDate,
    booking_time_slot_start: toHhMm(r.bookingTimeSlotStart),
    amount: paiseToRupees(r.amountPaise),
    paid_by: r.counterMethods,
    reason: r.reason,
    requested_by: requestedByOf(r),
    requested_by_username: r.requestedByUsername,
    requested_at: r.requestedAt.toISOString(),
  };
}

/** GET /api/admin/refunds/due (every admin): what the desk has to hand back, oldest first, and its total. */
export async function refundsDue(db: Db): Promise<RefundsDueResponse> {
  const rows = await listDueAtCounter(db);
  return { items: rows.map(toDueItem), total_due: paiseToRupees(rows.reduce((n, r) => n + r.amountPaise, 0)) };
}

const METHOD_WORDS: Record<RecordRefundInput['method'], string> = { CASH: 'cash', CARD: 'card', UPI: 'UPI', BANK_TRANSFER: 'bank transfer' };

/**
 * POST /api/admin/bookings/{id}/record-refund (every admin): money due at the counter handed back to
 * the client. One transaction with the booking's row locked: a refund row in the ledger against the
 * counter's payment (provider 'counter', the method used, recorded by this admin; one row per payment
 * it comes from, which is one but for a booking paid at the desk more than once), the open AT_COUNTER
 * request reduced by it or closed (DONE) when nothing is left, and the audit entry. Never more than
 * is due (400); nothing due is a 409, so a second recording of the same hand-over changes nothing.
 */
export async function recordCounterRefund(db: Db, id: number, input: RecordRefundInput, by: { adminId: number }, now: Date): Promise<RecordRefundResponse> {
  return db.transaction(async (tx) => {
    const booking = await findBookingForUpdate(tx, id);
    if (!booking || booking.bookingType === 'ADMIN_BLOCK') throw new AppError('not_found', AM.bookingNotFound(id));
    const due = await openRequestForUpdate(tx, id, 'AT_COUNTER');
    if (!due) throw new AppError('conflict', AM.nothingDueAtCounter(id));
    const amountPaise = input.amount !== undefined ? rupeesToPaise(input.amount) : due.amountPaise;
    if (amountPaise > due.amountPaise) throw fieldError('amount', AM.refundMoreThanDue(formatRupees(paiseToRupees(due.amountPaise))));
    let left = amountPaise;
    for (const p of (await moneyOf(tx, id)).payments.reverse()) {
      if (left === 0) break;
      const part = Math.min(left, p.leftPaise);
      if (p.provider !== 'counter' || part <= 0) continue;
      await recordRefund(tx, {
        bookingId: id,
        provider: 'counter',
        paymentId: p.paymentId,
        refundId: `counter_refund_${randomUUID()}`,
        amountPaise: part,
        reason: due.reason || null,
        method: input.method,
        recordedByAdminId: by.adminId,
        occurredAt: now,
      });
      left -= part;
    }
    // The request never asks more than the counter's payments hold (beginRefund takes it from them).
    if (left > 0) throw new AppError('conflict', `The ledger holds less counter money for booking ${id} than is due; nothing was recorded.`);
    const stillDue = due.amountPaise - amountPaise;
    const amount = formatRupees(paiseToRupees(amountPaise));
    if (stillDue > 0) await setOpenAmount(tx, due.id, stillDue);
    else await resolveRequest(tx, due.id, { status: 'DONE', at: now, byAdminId: by.adminId, note: `Handed back ${amount} (${METHOD_WORDS[input.method]})` });
    await insertAudit(tx, {
      adminId: by.adminId,
      actor: `admin:${by.adminId}`,
      action: 'booking.record_refund',
      entityType: 'booking',
      entityId: id,
      before: { refund_due: paiseToRupees(due.amountPaise) },
      after: { refund_due: paiseToRupees(stillDue), refund: { method: input.method, amount: paiseToRupees(amountPaise) } },
    });
    return {
      booking_id: id,
      amount: paiseToRupees(amountPaise),
      method: input.method,
      still_due: paiseToRupees(stillDue),
      message: AM.counterRefundRecorded(id, amount),
    };
  });
}
