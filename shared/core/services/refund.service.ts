import type { RefundResult } from '../../contract/refunds.ts';
import { paiseToRupees } from '../../domain/money.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { DbOrTx } from '../jobs/outbox.ts';
import type { Logger } from '../logger.ts';
import type { PaymentsProvider } from '../providers/payments/payments.provider.ts';
import { ledgerForBooking, moneyOf, recordRefund } from '../repositories/ledger.repository.ts';
import { addDueAtCounter, openRequest, requestsOfBooking } from '../repositories/refund-request.repository.ts';

export type RefundDeps = { db: Db; payments: PaymentsProvider | undefined; logger: Logger; now: () => Date };

/**
 * What became of a refund: all of it (`refundedPaise`) is `providerPaise` sent back through the
 * payments provider (`status` says whether the provider has processed it) and `counterPaise` now due
 * at the counter, to be handed back at the desk.
 */
export type RefundOutcome = { refundedPaise: number; providerPaise: number; counterPaise: number; status: 'processed' | 'pending' };

/**
 * What of a booking's money can still be refunded, per payment, newest last: what the ledger leaves of
 * each payment, less what is already due at the counter (decided, not yet handed over) from the
 * counter's payments.
 */
async function refundableOf(tx: DbOrTx, bookingId: number) {
  const money = await moneyOf(tx, bookingId);
  let due = (await openRequest(tx, bookingId, 'AT_COUNTER'))?.amountPaise ?? 0;
  const payments = [...money.payments].reverse().map((p) => {
    if (p.provider !== 'counter' || due === 0) return p;
    const owed = Math.min(due, p.leftPaise);
    due -= owed;
    return { ...p, leftPaise: p.leftPaise - owed };
  });
  return payments.reverse();
}

/** What of a booking's money can still be refunded, and the part of it taken at the counter (which goes back there). */
export async function refundablePaise(tx: DbOrTx, bookingId: number): Promise<{ totalPaise: number; counterPaise: number }> {
  const payments = await refundableOf(tx, bookingId);
  return {
    totalPaise: payments.reduce((n, p) => n + Math.max(0, p.leftPaise), 0),
    counterPaise: payments.filter((p) => p.provider === 'counter').reduce((n, p) => n + Math.max(0, p.leftPaise), 0),
  };
}

/**
 * Returns `amountPaise` of a booking's money to the client, from its payments newest first, in the
 * caller's transaction (which holds the booking's row lock). A provider's payment goes back through
 * the provider under an idempotency key made of `key` and the payment (a retry after a failure, even
 * one whose answer was lost, is the same refund, recorded once), and the refund is recorded in the
 * ledger. Money taken at the counter goes back at the counter: no ledger row (no money has moved yet),
 * but the booking's open AT_COUNTER request records (or grows by) what the desk is to hand back; the
 * desk's record-refund writes the ledger row when it does. A provider refusal or failure throws, so
 * the caller's transaction (the cancel) rolls back with it.
 */
export async function refundBookingMoney(
  tx: DbOrTx,
  deps: RefundDeps,
  bookingId: number,
  amountPaise: number,
  opts: {
    key: string;
    reason: string | null;
    byAdminId?: number | null;
    /** Who decided the refund, as refund_requests keeps it: 'client', 'admin:{id}', 'worker:…'. */
    requestedBy: string;
    onlyPaymentId?: string;
  },
): Promise<RefundOutcome> {
  let payments = await refundableOf(tx, bookingId);
  if (opts.onlyPaymentId) payments = payments.filter((p) => p.paymentId === opts.onlyPaymentId);
  const left = payments.reduce((n, p) => n + Math.max(0, p.leftPaise), 0);
  if (amountPaise <= 0 || amountPaise > left) {
    throw new AppError('validation', `The refund can be at most what is left of the payment (${(left / 100).toFixed(2)} rupees).`, {
      amount: 'Amount is more than was paid',
    });
  }
  let due = amountPaise;
  let status: RefundOutcome['status'] = 'processed';
  let counterPaise = 0;
  for (const p of [...payments].reverse()) {
    if (due === 0) break;
    const part = Math.min(due, p.leftPaise);
    if (part <= 0) continue;
    due -= part;
    if (p.provider === 'counter') {
      counterPaise += part;
      continue;
    }
    if (!deps.payments || deps.payments.name !== p.provider) {
      throw new AppError('conflict', `Payment ${p.paymentId} was taken through ${p.provider}, which is not configured: refund it there.`);
    }
    const refund = await deps.payments.refundPayment({
      paymentId: p.paymentId,
      amountPaise: part,
      idempotencyKey: `${opts.key}-${p.paymentId}`.slice(0, 64),
      notes: { booking_id: String(bookingId) },
    });
    if (refund.status === 'failed') throw new AppError('bad_gateway', `The payment provider could not refund payment ${p.paymentId}. Please try again.`);
    if (refund.status === 'pending') status = 'pending';
    await recordRefund(tx, {
      bookingId,
      provider: p.provider,
      paymentId: p.paymentId,
      refundId: refund.id,
      amountPaise: part,
      reason: opts.reason,
      recordedByAdminId: opts.byAdminId ?? null,
      occurredAt: deps.now(),
    });
  }
  if (counterPaise > 0) {
    await addDueAtCounter(tx, {
      bookingId,
      amountPaise: counterPaise,
      reason: opts.reason ?? '',
      requestedBy: opts.requestedBy,
      requestedByAdminId: opts.byAdminId ?? null,
      requestedAt: deps.now(),
    });
  }
  deps.logger.info({ bookingId, amountPaise, counterPaise, status }, 'booking refunded');
  return { refundedPaise: amountPaise, providerPaise: amountPaise - counterPaise, counterPaise, status };
}

/** A refund's outcome as the API answers it (rupees): through the provider, due at the counter, or both. */
export function refundResultOf(done: RefundOutcome): RefundResult {
  return {
    status: done.providerPaise === 0 ? 'at_counter' : done.status,
    amount: paiseToRupees(done.refundedPaise),
    ...(done.counterPaise > 0 ? { at_counter: paiseToRupees(done.counterPaise) } : {}),
  };
}

/** A booking's money as the client's e-mails tell it: what the ledger moved, what the desk owes, and the owner's review. */
export type RefundState = {
  capturedPaise: number;
  refundedPaise: number;
  /** Of refundedPaise: sent back through the payments provider, and handed back at the desk. */
  providerRefundedPaise: number;
  handedBackPaise: number;
  /** Decided, to be handed back at the desk (the open AT_COUNTER request). */
  dueAtCounterPaise: number;
  /** The booking's latest refund request for the owner, if any. */
  review: { status: 'OPEN' | 'APPROVED' | 'DECLINED'; amountPaise: number; note: string | null } | null;
};

export async function refundStateOf(db: DbOrTx, bookingId: number): Promise<RefundState> {
  const [rows, requests] = await Promise.all([ledgerForBooking(db, bookingId), requestsOfBooking(db, bookingId)]);
  const sum = (keep: (r: (typeof rows)[number]) => boolean) => rows.filter(keep).reduce((n, r) => n + r.amountPaise, 0);
  const review = requests.filter((r) => r.kind === 'REVIEW').at(-1);
  const providerRefundedPaise = -sum((r) => r.kind === 'refund' && r.provider !== 'counter');
  const handedBackPaise = -sum((r) => r.kind === 'refund' && r.provider === 'counter');
  return {
    capturedPaise: sum((r) => r.kind === 'capture'),
    refundedPaise: providerRefundedPaise + handedBackPaise,
    providerRefundedPaise,
    handedBackPaise,
    dueAtCounterPaise: requests.filter((r) => r.kind === 'AT_COUNTER' && r.status === 'OPEN').reduce((n, r) => n + r.amountPaise, 0),
    review: review ? { status: review.status as 'OPEN' | 'APPROVED' | 'DECLINED', amountPaise: review.amountPaise, note: review.resolutionNote } : null,
  };
}
