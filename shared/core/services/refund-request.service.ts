/**
 * What an admin may decide about a paid booking's money when cancelling it, and the owner's decisions
 * on a plain admin's refund request (issue 31, item 5).
 */
import { ADMIN_MESSAGES as AM, type ApproveRefundInput, type DeclineRefundInput } from '../../contract/admin.ts';
import type { RefundOptionsResponse, RefundReviewDecisionResponse, RefundReviewItem } from '../../contract/refunds.ts';
import { withinNotice } from '../../domain/manage.ts';
import { formatRupees, paiseToRupees, rupeesToPaise } from '../../domain/money.ts';
import { refundChoices } from '../../domain/refund-choices.ts';
import { sessionStart, toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { AppError, fieldError } from '../errors.ts';
import { jobIds } from '../jobs/jobs.ts';
import { enqueueInTx, intent, type DbOrTx } from '../jobs/outbox.ts';
import type { Logger } from '../logger.ts';
import type { PaymentsProvider } from '../providers/payments/payments.provider.ts';
import { findBookingForUpdate } from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { getBooking } from '../repositories/booking.repository.ts';
import {
  getRefundRequest,
  requestById,
  requestForUpdate,
  resolveRequest,
  type RefundRequestListRow,
  type RefundRequestRow,
} from '../repositories/refund-request.repository.ts';
import { refundablePaise, refundBookingMoney, refundResultOf } from './refund.service.ts';

/**
 * GET /api/admin/bookings/{id}/refund-options: what this admin may choose about the booking's money
 * if they cancel it now (the cancel checks the same rule), what can be refunded, and the part of it
 * paid at the counter.
 */
export async function refundOptions(db: Db, id: number, by: { isSuperadmin: boolean }, now: Date, noticeHours: number): Promise<RefundOptionsResponse> {
  const b = await getBooking(db, id);
  if (!b || b.bookingType === 'ADMIN_BLOCK') throw new AppError('not_found', AM.bookingNotFound(id));
  const held = await refundablePaise(db, id);
  const inside = withinNotice(sessionStart(b), now, noticeHours);
  return {
    booking_id: id,
    held: paiseToRupees(held.totalPaise),
    held_at_counter: paiseToRupees(held.counterPaise),
    choices: held.totalPaise > 0 ? refundChoices({ superadmin: by.isSuperadmin, withinNotice: inside }) : [],
    inside_notice_window: inside,
    notice_hours: noticeHours,
  };
}

/** A refund request as the owner's list shows it. */
export function toReviewItem(r: RefundRequestListRow): RefundReviewItem {
  return {
    id: r.id,
    booking_id: r.bookingId,
    client_full_name: r.clientFullName,
    therapist_name: r.therapistName,
    booking_date: r.bookingDate,
    booking_time_slot_start: toHhMm(r.bookingTimeSlotStart),
    amount: paiseToRupees(r.amountPaise),
    held: paiseToRupees(Math.max(0, r.heldPaise)),
    held_at_counter: paiseToRupees(Math.max(0, r.counterHeldPaise)),
    reason: r.reason,
    requested_by_username: r.requestedByUsername,
    requested_at: r.requestedAt.toISOString(),
    status: r.status === 'OPEN' || r.status === 'APPROVED' || r.status === 'DECLINED' ? r.status : 'OPEN',
    resolved_at: r.resolvedAt?.toISOString() ?? null,
    resolved_by: r.resolvedByUsername,
    resolution: r.resolutionNote,
  };
}

function auditable(r: RefundRequestRow): Record<string, unknown> {
  return {
    booking_id: r.bookingId,
    amount: paiseToRupees(r.amountPaise),
    reason: r.reason,
    status: r.status,
    resolution: r.resolutionNote,
  };
}

type Decider = { adminId: number };

/**
 * The open REVIEW request `id`, with its booking's row locked first (the lock order of every change to
 * a booking's money), then the request's: a second decision, even one sent at the same moment, is a 409.
 */
async function lockOpenReview(tx: DbOrTx, id: number): Promise<RefundRequestRow> {
  const peek = await requestById(tx, id);
  if (peek?.kind !== 'REVIEW') throw new AppError('not_found', AM.refundRequestNotFound(id));
  await findBookingForUpdate(tx, peek.bookingId);
  const r = (await requestForUpdate(tx, id))!;
  if (r.status !== 'OPEN') throw new AppError('conflict', AM.refundRequestDecided(id, r.status));
  return r;
}

/**
 * POST /api/admin/refund-requests/{id}/approve (super admins): the refund runs exactly as a super
 * admin's cancel refund does (refundBookingMoney, in this transaction: the provider's part through the
 * provider under an idempotency key of this request, the counter's part due at the counter), the
 * request is APPROVED with what was refunded, audited, and the client is told by e-mail.
 */
export async function approveRefundRequest(
  db: Db,
  id: number,
  input: ApproveRefundInput,
  by: Decider,
  now: Date,
  opts: { payments: PaymentsProvider | undefined; logger: Logger },
): Promise<RefundReviewDecisionResponse> {
  const refund = await db.transaction(async (tx) => {
    const r = await lockOpenReview(tx, id);
    const held = (await refundablePaise(tx, r.bookingId)).totalPaise;
    if (held <= 0) throw new AppError('conflict', AM.refundRequestNothingHeld(r.bookingId));
    const amountPaise = input.refund === 'FULL' ? held : rupeesToPaise(input.amount);
    if (amountPaise > held) throw fieldError('amount', `The refund can be at most ${formatRupees(paiseToRupees(held))}, what the booking holds.`);
    const done = await refundBookingMoney(tx, { db, payments: opts.payments, logger: opts.logger, now: () => now }, r.bookingId, amountPaise, {
      key: `refund-request-${id}`,
      reason: input.reason || r.reason,
      byAdminId: by.adminId,
      requestedBy: `admin:${by.adminId}`,
    });
    const result = refundResultOf(done);
    const note = `${input.refund === 'FULL' ? 'Full' : 'Partial'} refund. ${AM.refundNote(result)}${input.reason ? ` ${input.reason}` : ''}`;
    const after = await resolveRequest(tx, id, { status: 'APPROVED', at: now, byAdminId: by.adminId, note });
    await insertAudit(tx, {
      adminId: by.adminId,
      actor: `admin:${by.adminId}`,
      action: 'refund_request.approve',
      entityType: 'refund_request',
      entityId: id,
      before: auditable(r),
      after: { ...auditable(after!), refund: { choice: input.refund, amount: result.amount, ...(result.at_counter ? { at_counter: result.at_counter } : {}) } },
    });
    await enqueueInTx(tx, [intent('mail.booking-money', jobIds.refundReviewMail(id), { bookingId: r.bookingId })], now);
    return result;
  });
  return { item: toReviewItem((await getRefundRequest(db, id))!), refund, message: AM.refundApproved(id, formatRupees(refund.amount)) };
}

/**
 * POST /api/admin/refund-requests/{id}/decline (super admins): nothing is refunded; the request is
 * DECLINED with the reason, audited, and the client is told the reason by e-mail.
 */
export async function declineRefundRequest(db: Db, id: number, input: DeclineRefundInput, by: Decider, now: Date): Promise<RefundReviewDecisionResponse> {
  await db.transaction(async (tx) => {
    const r = await lockOpenReview(tx, id);
    const after = await resolveRequest(tx, id, { status: 'DECLINED', at: now, byAdminId: by.adminId, note: input.reason });
    await insertAudit(tx, {
      adminId: by.adminId,
      actor: `admin:${by.adminId}`,
      action: 'refund_request.decline',
      entityType: 'refund_request',
      entityId: id,
      before: auditable(r),
      after: auditable(after!),
    });
    await enqueueInTx(tx, [intent('mail.booking-money', jobIds.refundReviewMail(id), { bookingId: r.bookingId })], now);
  });
  return { item: toReviewItem((await getRefundRequest(db, id))!), message: AM.refundDeclined(id) };
}
