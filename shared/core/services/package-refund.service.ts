import { randomUUID } from 'node:crypto';
import { PACKAGE_MESSAGES as PM, STRAY_SALE_REFUND_REASON, type PackageSaleDto } from '../../contract/packages.ts';
import type { DeskPaymentMethod } from '../../contract/admin.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { AppError, fieldError } from '../errors.ts';
import { jobIds } from '../jobs/jobs.ts';
import type { DbOrTx } from '../db/client.ts';
import { enqueueInTx, intent } from '../jobs/outbox.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { recordRefund } from '../repositories/ledger.repository.ts';
import { appendCredit, moneyOfSale, saleForUpdate, saleWithTotals } from '../repositories/package.repository.ts';
import {
  closeRefundIntent,
  insertSaleRefundIntent,
  intentForUpdate,
  openIntentOfSale,
  type SaleRefundIntent,
} from '../repositories/refund-intent.repository.ts';
import { adminActor, refundablePaise, refundMessage, saleDetail } from './package.service.ts';
import { answeredParts, askProvider, outcomeOf, recordAsked, type Asked, type RefundDeps } from './refund.service.ts';

/**
 * A super admin refunds a package's unused sessions pro rata (issue 34): their share of the price, at
 * most the money the sale still holds. Paid at the counter, the money is handed back there now (one
 * refund row in the payments ledger, by the desk's method). Paid online, it goes back through the
 * provider by the refund-intent flow of refund.service.ts: the intent is written with the sale locked,
 * the provider asked after that commit under an idempotency key of this sale, then the refund recorded,
 * the intent closed and the credits refunded in a second transaction; the payments.reconcile job
 * finishes one a stopped process left open. While the intent is open no credit is used (spendCredits).
 */

/** What the intent's caller does once the money is back: the sale's unused sessions, as counted when it began, refunded. */
type SaleRefundAction = { kind: 'package-refund'; adminId: number; sessions: number };
/** A second payment for a sale already paid, given back in full: the sale and its credits stay as they are. */
type SaleStrayAction = { kind: 'package-stray-refund'; paymentId: string };

export type SaleRefundResult = {
  sale: PackageSaleDto;
  refund: { amount: number; sessions: number; status: 'processed' | 'pending' | 'at_counter' };
  message: string;
};

export async function refundSale(
  deps: RefundDeps,
  id: number,
  input: { method?: DeskPaymentMethod | undefined; reason?: string | undefined },
  by: { adminId: number },
): Promise<SaleRefundResult> {
  const now = deps.now();
  const reason = input.reason || 'Unused package sessions refunded';
  const begun = await deps.db.transaction(async (tx) => {
    const sale = await saleForUpdate(tx, id);
    if (!sale) throw new AppError('not_found', PM.saleNotFound(id));
    if (await openIntentOfSale(tx, id)) throw new AppError('conflict', PM.refundUnderWay(id));
    const totals = (await saleWithTotals(tx, id))!;
    // One refund per sale (its credit row and its provider idempotency key are the sale's).
    if (totals.refunded > 0) throw new AppError('conflict', PM.alreadyRefunded(id));
    const money = await moneyOfSale(tx, id);
    const amountPaise = refundablePaise(totals, money.capturedPaise - money.refundedPaise);
    if (amountPaise <= 0) throw new AppError('conflict', PM.nothingToRefund(id));
    const capture = money.captures.find((c) => c.leftPaise >= amountPaise);
    if (!capture) throw new AppError('conflict', PM.nothingToRefund(id));
    const action: SaleRefundAction = { kind: 'package-refund', adminId: by.adminId, sessions: totals.left };
    if (capture.provider === 'counter') {
      if (!input.method) throw fieldError('method', PM.refundMethodRequired);
      await recordRefund(tx, {
        packageSaleId: id,
        provider: 'counter',
        paymentId: capture.paymentId,
        refundId: `counter_refund_${randomUUID()}`,
        amountPaise,
        reason,
        method: input.method,
        recordedByAdminId: by.adminId,
        occurredAt: now,
      });
      await applySaleRefund(tx, id, action, { amountPaise, atCounter: true }, now);
      return { done: { amountPaise, sessions: action.sessions, status: 'at_counter' as const } };
    }
    if (!deps.payments || deps.payments.name !== capture.provider) {
      throw new AppError('conflict', `Payment ${capture.paymentId} was taken through ${capture.provider}, which is not configured: refund it there.`);
    }
    const refundIntent = await insertSaleRefundIntent(tx, {
      packageSaleId: id,
      amountPaise,
      counterPaise: 0,
      parts: [{ provider: capture.provider, paymentId: capture.paymentId, amountPaise, idempotencyKey: `pkg-refund-${id}-${capture.paymentId}`.slice(0, 64) }],
      reason,
      requestedBy: `admin:${by.adminId}`,
      byAdminId: by.adminId,
      action,
      createdAt: now,
    });
    return { intent: refundIntent };
  });
  let result: { amountPaise: number; sessions: number; status: 'processed' | 'pending' | 'at_counter' };
  if (begun.intent) {
    const asked = await askProvider(deps, begun.intent);
    const failure = asked.failure ? (asked.failure.error instanceof Error ? asked.failure.error.message : String(asked.failure.error)) : undefined;
    const settled = (await settleSaleRefund(deps, begun.intent, asked, failure === undefined ? {} : { failure })).intent;
    if (settled.status !== 'DONE') throw asked.failure?.error ?? new AppError('bad_gateway', PM.refundUnderWay(id));
    const outcome = outcomeOf(settled);
    result = { amountPaise: outcome.refundedPaise, sessions: (settled.action as SaleRefundAction).sessions, status: outcome.status };
  } else {
    result = begun.done!;
  }
  return {
    sale: await saleDetail(deps.db, id),
    refund: { amount: paiseToRupees(result.amountPaise), sessions: result.sessions, status: result.status },
    message: refundMessage(id, result.amountPaise),
  };
}

/** The refund's change once the money is back: the sessions counted refunded, audited, the client told. */
async function applySaleRefund(tx: DbOrTx, saleId: number, action: SaleRefundAction, money: { amountPaise: number; atCounter: boolean }, now: Date) {
  const by = adminActor(action.adminId);
  await appendCredit(tx, { saleId, kind: 'refunded', sessions: -action.sessions, actor: by.actor, byAdminId: by.adminId, occurredAt: now });
  await insertAudit(tx, {
    ...by,
    action: 'package_sale.refund',
    entityType: 'package_sale',
    entityId: saleId,
    before: null,
    after: { sessions: action.sessions, amount: paiseToRupees(money.amountPaise), at_counter: money.atCounter },
  });
  await enqueueInTx(tx, [intent('mail.package-refunded', jobIds.packageRefundMail(saleId), { saleId })], now);
}

/**
 * Phase 3 with the sale locked: every refund the provider made recorded in the ledger (once, by its
 * refund id), then the intent, if still open, closed FAILED (nothing applied), kept open, or DONE with
 * the credits refunded. Answers the intent as it now stands.
 */
async function settleSaleRefund(
  deps: RefundDeps,
  refund: SaleRefundIntent,
  asked: Asked,
  end: { failure?: string; keepOpen?: boolean },
): Promise<{ intent: SaleRefundIntent; applied: boolean }> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await saleForUpdate(tx, refund.packageSaleId);
    const current = (await intentForUpdate(tx, refund.id)) as SaleRefundIntent;
    await recordAsked(tx, { packageSaleId: refund.packageSaleId }, refund, asked, now);
    if (current.status !== 'OPEN' || end.keepOpen) return { intent: current, applied: false };
    if (end.failure !== undefined) {
      return { intent: (await closeRefundIntent(tx, refund.id, { status: 'FAILED', failure: end.failure, at: now })) as SaleRefundIntent, applied: false };
    }
    const parts = answeredParts(refund, asked);
    const closed = (await closeRefundIntent(tx, refund.id, { status: 'DONE', parts, at: now })) as SaleRefundIntent;
    const action = refund.action as SaleRefundAction | SaleStrayAction;
    if (action.kind === 'package-stray-refund') await applyStraySaleRefund(tx, refund.packageSaleId, action, refund.amountPaise, now);
    else await applySaleRefund(tx, refund.packageSaleId, action, { amountPaise: refund.amountPaise, atCounter: false }, now);
    return { intent: closed, applied: true };
  });
}

/** The payments.reconcile job's part for a package refund left open: the provider asked again under the same key, then phase 3. */
export async function finishSaleRefund(deps: RefundDeps, refund: SaleRefundIntent): Promise<'done' | 'failed' | 'open' | 'noop'> {
  const asked = await askProvider(deps, refund);
  if (asked.failure && !asked.failure.refused) {
    if (asked.done.length > 0) await settleSaleRefund(deps, refund, asked, { keepOpen: true });
    return 'open';
  }
  const failure = asked.failure ? (asked.failure.error instanceof Error ? asked.failure.error.message : String(asked.failure.error)) : undefined;
  const settled = await settleSaleRefund(deps, refund, asked, failure === undefined ? {} : { failure });
  if (settled.applied) return 'done';
  return asked.failure && settled.intent.status === 'FAILED' ? 'failed' : 'noop';
}

export type StraySaleOutcome = 'refunded' | 'refund-due' | 'noop';

/**
 * The payments.refund-stray job for a package sale: a second payment captured for a sale already paid
 * (two of its links paid, or a webhook for another payment after the sale was paid) goes back in full
 * through the provider by the sale's refund-intent flow, as its unused sessions' refund does: the
 * intent written with the sale locked, the provider asked after that commit under a key of this payment,
 * the refund recorded in the ledger once (its refund id) and the intent closed; the payments.reconcile
 * job finishes one a stopped process left open (finishSaleRefund). Safe to run again: what the ledger
 * already returned of the payment and the provider's idempotency key make one refund. Another refund of
 * the sale still under way makes this one wait (a retry). With AUTO_REFUND_STRAY_PAYMENTS off it stays
 * a refund due, in the ledger as money the sale holds beyond its price.
 */
export async function refundStraySalePayment(
  deps: RefundDeps & { config: { autoRefundStrayPayments: boolean } },
  saleId: number,
  paymentId: string,
): Promise<StraySaleOutcome> {
  if (!deps.config.autoRefundStrayPayments) return 'refund-due';
  const begun = await deps.db.transaction(async (tx) => {
    const sale = await saleForUpdate(tx, saleId);
    if (!sale) return undefined;
    if (await openIntentOfSale(tx, saleId)) throw new AppError('unavailable', PM.refundUnderWay(saleId));
    const capture = (await moneyOfSale(tx, saleId)).captures.find((c) => c.paymentId === paymentId);
    // Money taken at the counter is never a stray: only a provider's payment link pays twice.
    if (!capture || capture.provider === 'counter' || capture.leftPaise <= 0) return undefined;
    const action: SaleStrayAction = { kind: 'package-stray-refund', paymentId };
    return insertSaleRefundIntent(tx, {
      packageSaleId: saleId,
      amountPaise: capture.leftPaise,
      counterPaise: 0,
      parts: [{ provider: capture.provider, paymentId, amountPaise: capture.leftPaise, idempotencyKey: `pkg-stray-${paymentId}`.slice(0, 64) }],
      reason: STRAY_SALE_REFUND_REASON,
      requestedBy: 'worker:refund-stray',
      byAdminId: null,
      action,
      createdAt: deps.now(),
    });
  });
  if (!begun) return 'noop';
  const asked = await askProvider(deps, begun);
  const failure = asked.failure ? (asked.failure.error instanceof Error ? asked.failure.error.message : String(asked.failure.error)) : undefined;
  // A provider that could not be reached leaves the intent open: the job's retry, or the reconciliation, asks again.
  if (asked.failure && !asked.failure.refused) {
    if (asked.done.length > 0) await settleSaleRefund(deps, begun, asked, { keepOpen: true });
    throw asked.failure.error;
  }
  const settled = (await settleSaleRefund(deps, begun, asked, failure === undefined ? {} : { failure })).intent;
  if (settled.status !== 'DONE') throw asked.failure?.error ?? new AppError('bad_gateway', PM.refundUnderWay(saleId));
  return 'refunded';
}

/** Once a second payment is back: audited with the sale, the client told (once per payment); its credits and status are untouched. */
async function applyStraySaleRefund(tx: DbOrTx, saleId: number, action: SaleStrayAction, amountPaise: number, now: Date) {
  await enqueueInTx(tx, [intent('mail.package-refunded', jobIds.packageStrayRefundMail(action.paymentId), { saleId, paymentId: action.paymentId })], now);
  await insertAudit(tx, {
    adminId: null,
    actor: 'worker:refund-stray',
    action: 'package_sale.stray_refund',
    entityType: 'package_sale',
    entityId: saleId,
    before: null,
    after: { payment_id: action.paymentId, amount: paiseToRupees(amountPaise) },
  });
}
