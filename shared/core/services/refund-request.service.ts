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
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError, fieldError } from '../errors.ts';
import { jobIds } from '../jobs/jobs.ts';
import { enqueueInTx, intent } from '../jobs/outbox.ts';
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
import { beginRefund, completeRefund, refundablePaise, refundResultOf, refundUnderWay, type ApplyRefund } from './refund.service.ts';

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
 * a booking's money), then the request's: a second decision, even one sent at the same moment (or while
 * the first's refund is still with the provider), is a 409.
 */
async function lockOpenReview(tx: DbOrTx, id: number): Promise<RefundRequestRow> {
  const peek = await requestById(tx, id);
  if (peek?.kind !== 'REVIEW') throw new AppError('not_found', AM.refundRequestNotFound(id));
  await findBookingForUpdate(tx, peek.bookingId);
  const r = (await requestForUpdate(tx, id))!;
  if (r.status !== 'OPEN') throw new AppError('conflict', AM.refundRequestDecided(id, r.status));
  // The booking's refund under way (this request's approval, say, still with the provider) decides first.
  const underWay = await refundUnderWay(tx, r.bookingId);
  if (underWay) {
    const approving = underWay.action.kind === 'approve-refund-request' && underWay.action.requestId === id;
    throw new AppError('conflict', approving ? AM.refundRequestDecided(id, 'APPROVED') : AM.refundUnderWay(r.bookingId));
  }
  return r;
}

/**
 * POST /api/admin/refund-requests/{id}/approve (super admins): the refund runs exactly as a super
 * admin's cancel refund does (the provider's part through the provider under an idempotency key of
 * this request, asked after the approval's checks commit with no transaction open; the counter's part
 * due at the counter), then the request is APPROVED with what was refunded, audited, and the client is
 * told by e-mail (applyApproval, in the refund's second short transaction). A refused refund approves
 * nothing; an approval whose process stopped halfway is finished by the payments.reconcile job.
 */
export async function approveRefundRequest(
  db: Db,
  id: number,
  input: ApproveRefundInput,
  by: Decider,
  now: Date,
  opts: { payments: PaymentsProvider | undefined; logger: Logger },
): Promise<RefundReviewDecisionResponse> {
  const deps = { db, payments: opts.payments, logger: opts.logger, now: () => now };
  const begun = await db.transaction(async (tx) => {
    const r = await lockOpenReview(tx, id);
    const held = (await refundablePaise(tx, r.bookingId)).totalPaise;
    if (held <= 0) throw new AppError('conflict', AM.refundRequestNothingHeld(r.bookingId));
    const amountPaise = input.refund === 'FULL' ? held : rupeesToPaise(input.amount);
    if (amountPaise > held) throw fieldError('amount', `The refund can be at most ${formatRupees(paiseToRupees(held))}, what the booking holds.`);
    const action = { kind: 'approve-refund-request' as const, requestId: id, adminId: by.adminId, refund: input.refund, reason: input.reason || null };
    const refund = await beginRefund(
      tx,
      deps,
      r.bookingId,
      amountPaise,
      { key: `refund-request-${id}`, reason: input.reason || r.reason, byAdminId: by.adminId, requestedBy: `admin:${by.adminId}` },
      action,
    );
    // Through the provider: finished after this commit.
    if ('intent' in refund) return { intent: refund.intent };
    await applyApproval(tx, { bookingId: r.bookingId, action, outcome: refund.settled, now, logger: opts.logger });
    return { outcome: refund.settled };
  });
  const outcome = begun.intent ? await completeRefund(deps, begun.intent, applyApproval) : begun.outcome!;
  const refund = refundResultOf(outcome);
  return { item: toReviewItem((await getRefundRequest(db, id))!), refund, message: AM.refundApproved(id, formatRupees(refund.amount)) };
}

/**
 * The approval itself, once the money is back: the request APPROVED with what was refunded, audited,
 * and the client told by e-mail. In the approval's transaction, or in the refund's phase 3 (the
 * request's, or the payments.reconcile job's after a crash), with the booking's row locked.
 */
export const applyApproval: ApplyRefund<'approve-refund-request'> = async (tx, { action, outcome, now, logger }) => {
  const id = action.requestId;
  const r = (await requestForUpdate(tx, id))!;
  // A decline waits while the refund is under way (lockOpenReview), so the request is still open here.
  if (r.status !== 'OPEN') {
    logger.error(
      { requestId: id, bookingId: r.bookingId, status: r.status },
      'refund made for a request decided meanwhile: the ledger has it, the request stays as decided',
    );
    return;
  }
  const result = refundResultOf(outcome!);
  const note = `${action.refund === 'FULL' ? 'Full' : 'Partial'} refund. ${AM.refundNote(result)}${action.reason ? ` ${action.reason}` : ''}`;
  const after = await resolveRequest(tx, id, { status: 'APPROVED', at: now, byAdminId: action.adminId, note });
  await insertAudit(tx, {
    adminId: action.adminId,
    actor: `admin:${action.adminId}`,
    action: 'refund_request.approve',
    entityType: 'refund_request',
    entityId: id,
    before: auditable(r),
    after: { ...auditable(after!), refund: { choice: action.refund, amount: result.amount, ...(result.at_counter ? { at_counter: result.at_counter } : {}) } },
  });
  await enqueueInTx(tx, [intent('mail.booking-money', jobIds.refundReviewMail(id), { bookingId: r.bookingId })], now);
};

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
