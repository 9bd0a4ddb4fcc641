import {
  ADMIN_MESSAGES as AM,
  type PaymentAttentionItem,
  type PaymentsAttentionResponse,
  type ResolveDiscrepancyInput,
  type ResolveDiscrepancyResponse,
} from '../../contract/admin.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { discrepancyHeadline } from '../../domain/payment-discrepancy.ts';
import { toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import {
  findDiscrepancyForUpdate,
  getAttention,
  listAttention,
  resolveDiscrepancy,
  type AttentionRow,
  type DiscrepancyRow,
} from '../repositories/reconciliation.repository.ts';
import { listReviewRequests } from '../repositories/refund-request.repository.ts';
import { toReviewItem } from './refund-request.service.ts';

/** How long a resolved issue stays on the list, under the open ones. */
export const RECENTLY_RESOLVED_DAYS = 7;

const rupeesOrNull = (paise: number | null) => (paise === null ? null : paiseToRupees(paise));

function toItem(r: AttentionRow): PaymentAttentionItem {
  return {
    id: r.id,
    kind: r.kind,
    headline: discrepancyHeadline(r.kind, r.provider),
    provider: r.provider,
    booking_id: r.bookingId,
    client_full_name: r.clientFullName,
    booking_date: r.bookingDate,
    booking_time_slot_start: r.bookingTimeSlotStart ? toHhMm(r.bookingTimeSlotStart) : null,
    payment_id: r.paymentId,
    refund_id: r.refundId || null,
    ledger_amount: rupeesOrNull(r.ledgerPaise),
    provider_amount: rupeesOrNull(r.providerPaise),
    detail: r.detail,
    detected_at: r.detectedAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
    resolved_at: r.resolvedAt?.toISOString() ?? null,
    resolution: r.resolution,
    resolved_by: r.resolvedByUsername,
  };
}

/** The audit view of an issue: what identifies it and how it stands. */
function auditable(d: DiscrepancyRow): Record<string, unknown> {
  return {
    id: d.id,
    kind: d.kind,
    booking_id: d.bookingId,
    payment_id: d.paymentId,
    refund_id: d.refundId || null,
    resolved_at: d.resolvedAt?.toISOString() ?? null,
    resolution: d.resolution,
    resolved_by_admin_id: d.resolvedByAdminId,
  };
}

/**
 * GET /api/admin/payments/attention (super admins): open issues, newest first, then the recently
 * resolved; and plain admins' refund requests to approve or decline, with those decided recently.
 */
export async function paymentsNeedingAttention(db: Db, now: Date): Promise<PaymentsAttentionResponse> {
  const since = new Date(now.getTime() - RECENTLY_RESOLVED_DAYS * 24 * 3600_000);
  const [{ open, resolved }, reviews] = await Promise.all([listAttention(db, since), listReviewRequests(db, since)]);
  return {
    open: open.map(toItem),
    recently_resolved: resolved.map(toItem),
    refund_requests: { open: reviews.open.map(toReviewItem), recently_decided: reviews.decided.map(toReviewItem) },
  };
}

/**
 * POST /api/admin/payments/attention/{id}/resolve (super admins): an open issue marked reviewed with
 * the admin's note, in one transaction with its audit entry. The row lock makes a second review, even
 * one sent at the same moment, a 409 rather than a second resolution.
 */
export async function markDiscrepancyReviewed(
  db: Db,
  id: number,
  input: ResolveDiscrepancyInput,
  by: { adminId: number },
  now: Date,
): Promise<ResolveDiscrepancyResponse> {
  await db.transaction(async (tx) => {
    const before = await findDiscrepancyForUpdate(tx, id);
    if (!before) throw new AppError('not_found', AM.discrepancyNotFound(id));
    if (before.resolvedAt) throw new AppError('conflict', AM.discrepancyAlreadyResolved(id));
    const after = await resolveDiscrepancy(tx, id, now, input.note, by.adminId);
    await insertAudit(tx, {
      adminId: by.adminId,
      actor: `admin:${by.adminId}`,
      action: 'payment_discrepancy.review',
      entityType: 'payment_discrepancy',
      entityId: id,
      before: auditable(before),
      after: auditable(after!),
    });
  });
  return { item: toItem((await getAttention(db, id))!), message: AM.discrepancyReviewed(id) };
}
