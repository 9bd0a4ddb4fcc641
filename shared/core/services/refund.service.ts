import type { CancelRefund } from '../../contract/admin.ts';
import type { RefundResult } from '../../contract/refunds.ts';
import { paiseToRupees } from '../../domain/money.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { PaymentsProvider, ProviderRefund } from '../providers/payments/payments.provider.ts';
import { findBookingForUpdate } from '../repositories/admin-booking.repository.ts';
import { ledgerForBooking, moneyOf, recordRefund, type Owner } from '../repositories/ledger.repository.ts';
import {
  closeRefundIntent,
  insertRefundIntent,
  intentForUpdate,
  openIntentOfBooking,
  type RefundIntentPart,
  type BookingRefundIntent,
  type RefundIntentRow,
} from '../repositories/refund-intent.repository.ts';
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

/** What a caller asks of a refund, beside the amount. */
export type RefundOptions = {
  /** The refund's idempotency key is `${key}-${paymentId}` for each payment: a retried request is the same refund at the provider. */
  key: string;
  reason: string | null;
  byAdminId?: number | null;
  /** Who decided the refund, as refund_requests keeps it: 'client', 'admin:{id}', 'worker:…'. */
  requestedBy: string;
  onlyPaymentId?: string;
};

/**
 * What the caller does once the money is back, kept with the refund's intent (refund_intents.action) so
 * that whoever finishes the refund (the request that began it, or the payments.reconcile job after a
 * crash) applies the same change. Each kind's change is one function of its service (listed in
 * refund-recovery.service.ts, for the job).
 */
export type RefundAction =
  | {
      kind: 'admin-cancel';
      adminId: number;
      choice: CancelRefund | null;
      /** What the booking held when the cancel was decided, and what of it is refunded. */
      heldPaise: number;
      refundPaise: number;
      /** The unpaid booking's payment link, closed after the cancel. */
      openLink: string | null;
      /** A session of a series cancelled with others: the series' one e-mail tells the client (seriesCancellationIntents). */
      series?: { id: number; bookingIds: number[] };
    }
  | { kind: 'client-cancel'; openLink: string | null }
  | { kind: 'approve-refund-request'; requestId: number; adminId: number; refund: 'FULL' | 'PARTIAL'; reason: string | null }
  | { kind: 'stray-refund'; paymentId: string };

export type RefundActionKind = RefundAction['kind'];

/**
 * The caller's change, in a transaction holding the booking's row lock: after a refund (`outcome`), or
 * with none (a cancel keeping the money, or nothing paid).
 */
export type ApplyRefund<K extends RefundActionKind, R = unknown> = (
  tx: DbOrTx,
  c: { bookingId: number; action: Extract<RefundAction, { kind: K }>; outcome: RefundOutcome | undefined; now: Date; logger: Logger },
) => Promise<R>;

/** A refund begun in the caller's transaction: settled there already (nothing for the provider), or an intent to finish after the commit. */
export type BegunRefund = { settled: RefundOutcome } | { intent: BookingRefundIntent };

/**
 * Phase 1 of a refund, in the caller's transaction (which holds the booking's row lock and has checked
 * its rules): takes `amountPaise` of the booking's money from its payments, newest first. Money taken
 * at the counter goes back at the counter (no ledger row: no money has moved yet; the booking's open
 * AT_COUNTER request records, or grows by, what the desk is to hand back). A provider's payment goes
 * back through the provider, which is not asked here: the refund's intent is written (each payment's
 * part under the idempotency key `${key}-${paymentId}`, with `action`, what the caller does once the
 * money is back), and the caller, after its commit, finishes it with completeRefund. Without a
 * provider's part the refund is settled here and the caller applies its change in this transaction.
 */
export async function beginRefund(
  tx: DbOrTx,
  deps: RefundDeps,
  bookingId: number,
  amountPaise: number,
  opts: RefundOptions,
  action: RefundAction,
): Promise<BegunRefund> {
  let payments = await refundableOf(tx, bookingId);
  if (opts.onlyPaymentId) payments = payments.filter((p) => p.paymentId === opts.onlyPaymentId);
  const left = payments.reduce((n, p) => n + Math.max(0, p.leftPaise), 0);
  if (amountPaise <= 0 || amountPaise > left) {
    throw new AppError('validation', `The refund can be at most what is left of the payment (${(left / 100).toFixed(2)} rupees).`, {
      amount: 'Amount is more than was paid',
    });
  }
  let due = amountPaise;
  let counterPaise = 0;
  const parts: RefundIntentPart[] = [];
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
    parts.push({ provider: p.provider, paymentId: p.paymentId, amountPaise: part, idempotencyKey: `${opts.key}-${p.paymentId}`.slice(0, 64) });
  }
  const who = { reason: opts.reason, requestedBy: opts.requestedBy, byAdminId: opts.byAdminId ?? null };
  if (parts.length === 0) {
    await dueAtCounter(tx, bookingId, counterPaise, who, deps.now());
    deps.logger.info({ bookingId, amountPaise, counterPaise }, 'booking refunded at the counter');
    return { settled: { refundedPaise: amountPaise, providerPaise: 0, counterPaise, status: 'processed' } };
  }
  // refund_intents_open_uq backs the callers' check (refuseWhileRefunding) under the same row lock.
  const intent = await insertRefundIntent(tx, { bookingId, amountPaise, counterPaise, parts, ...who, action, createdAt: deps.now() });
  return { intent };
}

async function dueAtCounter(tx: DbOrTx, bookingId: number, counterPaise: number, who: Pick<RefundIntentRow, 'reason' | 'requestedBy' | 'byAdminId'>, at: Date) {
  if (counterPaise <= 0) return;
  await addDueAtCounter(tx, {
    bookingId,
    amountPaise: counterPaise,
    reason: who.reason ?? '',
    requestedBy: who.requestedBy,
    requestedByAdminId: who.byAdminId,
    requestedAt: at,
  });
}

/** The booking's refund still under way (its intent open), if any: the booking's money waits for it. */
export async function refundUnderWay(tx: DbOrTx, bookingId: number): Promise<BookingRefundIntent | undefined> {
  return openIntentOfBooking(tx, bookingId);
}

/** Whether an open intent's change is the cancel of its booking (by an admin or the client). */
export function cancelsBooking(intent: RefundIntentRow): boolean {
  return intent.action.kind === 'admin-cancel' || intent.action.kind === 'client-cancel';
}

/** What became of a DONE intent: all of it refunded, pending while any provider part is. */
export function outcomeOf(intent: RefundIntentRow): RefundOutcome {
  return {
    refundedPaise: intent.amountPaise,
    providerPaise: intent.amountPaise - intent.counterPaise,
    counterPaise: intent.counterPaise,
    status: intent.parts.some((p) => p.status === 'pending') ? 'pending' : 'processed',
  };
}

/** The provider's answers for an intent's parts, in order, up to the first that failed. */
export type Asked = {
  done: { part: RefundIntentPart; refund: ProviderRefund }[];
  /** Why the provider did not refund a part; `refused` when asking again under the same key would answer the same. */
  failure?: { error: unknown; refused: boolean };
};

/**
 * Phase 3's first part, for a booking's intent or a sale's: every refund the provider made, into the
 * ledger (once: the unique index on the provider's refund id).
 */
export async function recordAsked(tx: DbOrTx, owner: Owner, intent: RefundIntentRow, asked: Asked, now: Date): Promise<void> {
  for (const { part, refund } of asked.done) {
    await recordRefund(tx, {
      ...owner,
      provider: part.provider,
      paymentId: part.paymentId,
      refundId: refund.id,
      amountPaise: part.amountPaise,
      reason: intent.reason,
      recordedByAdminId: intent.byAdminId,
      occurredAt: now,
    });
  }
}

/** The intent's parts as the provider answered them, for an intent closed DONE. */
export function answeredParts(intent: RefundIntentRow, asked: Asked): RefundIntentPart[] {
  return intent.parts.map((p) => {
    const answer = asked.done.find((d) => d.part.paymentId === p.paymentId)!.refund;
    return { ...p, refundId: answer.id, status: answer.status === 'pending' ? ('pending' as const) : ('processed' as const) };
  });
}

/**
 * Phase 2: each part of the intent to the provider, under its idempotency key, with no transaction
 * open. The same key answers the same refund, so asking again (a retry, the job after a crash) never
 * refunds twice.
 */
export async function askProvider(deps: RefundDeps, intent: RefundIntentRow): Promise<Asked> {
  const done: Asked['done'] = [];
  for (const part of intent.parts) {
    if (!deps.payments || deps.payments.name !== part.provider) {
      const error = new AppError('conflict', `Payment ${part.paymentId} was taken through ${part.provider}, which is not configured: refund it there.`);
      return { done, failure: { error, refused: false } };
    }
    let refund: ProviderRefund;
    try {
      refund = await deps.payments.refundPayment({
        paymentId: part.paymentId,
        amountPaise: part.amountPaise,
        idempotencyKey: part.idempotencyKey,
        notes: intent.bookingId !== null ? { booking_id: String(intent.bookingId) } : { package_sale_id: String(intent.packageSaleId) },
      });
    } catch (error) {
      // A conflict or validation error is the provider refusing this very request (more than is left,
      // the key used for another): the same again is refused again. Anything else may pass next time.
      const refused = error instanceof AppError && (error.code === 'conflict' || error.code === 'validation');
      return { done, failure: { error, refused } };
    }
    if (refund.status === 'failed') {
      const error = new AppError('bad_gateway', `The payment provider could not refund payment ${part.paymentId}. Please try again.`);
      return { done, failure: { error, refused: true } };
    }
    done.push({ part, refund });
  }
  return { done };
}

/**
 * Phase 3, in a transaction of its own with the booking's row locked again: every refund the provider
 * made is recorded in the ledger (once: the unique index on the provider's refund id; whatever became
 * of the intent meanwhile, since the money moved). Then the intent, if still open: closed FAILED with
 * `failure` (nothing of the caller's change applied), kept open (`keepOpen`: the job asks again later),
 * or closed DONE, the counter's part made due at the counter, and the caller's change applied. Answers
 * the intent as it now stands and whether this call applied the change.
 */
async function settle<K extends RefundActionKind>(
  deps: RefundDeps,
  intent: BookingRefundIntent,
  asked: Asked,
  apply: ApplyRefund<K>,
  end: { failure?: string; keepOpen?: boolean } = {},
): Promise<{ intent: RefundIntentRow; applied: boolean }> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await findBookingForUpdate(tx, intent.bookingId);
    const current = (await intentForUpdate(tx, intent.id))!;
    await recordAsked(tx, { bookingId: intent.bookingId }, intent, asked, now);
    if (current.status !== 'OPEN' || end.keepOpen) return { intent: current, applied: false };
    if (end.failure !== undefined) {
      return { intent: (await closeRefundIntent(tx, intent.id, { status: 'FAILED', failure: end.failure, at: now }))!, applied: false };
    }
    const parts = answeredParts(intent, asked);
    await dueAtCounter(tx, intent.bookingId, intent.counterPaise, intent, now);
    const closed = (await closeRefundIntent(tx, intent.id, { status: 'DONE', parts, at: now }))!;
    const outcome = outcomeOf(closed);
    await apply(tx, { bookingId: intent.bookingId, action: intent.action as Extract<RefundAction, { kind: K }>, outcome, now, logger: deps.logger });
    deps.logger.info(
      { bookingId: intent.bookingId, amountPaise: outcome.refundedPaise, counterPaise: outcome.counterPaise, status: outcome.status },
      'booking refunded',
    );
    return { intent: closed, applied: true };
  });
}

const failureText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Phases 2 and 3 for the request that began the refund, after its commit: the provider is asked, then
 * the refunds are recorded and the caller's change applied (`apply`). A provider that refuses or fails
 * closes the intent FAILED, applies nothing, and its error is the caller's answer (a refused refund
 * cancels nothing; a retried request is the same refund, by its keys). Should the payments.reconcile
 * job have finished the intent meanwhile, its outcome is the answer.
 */
export async function completeRefund<K extends RefundActionKind>(deps: RefundDeps, intent: BookingRefundIntent, apply: ApplyRefund<K>): Promise<RefundOutcome> {
  const asked = await askProvider(deps, intent);
  const failure = asked.failure ? failureText(asked.failure.error) : undefined;
  const settled = await settle(deps, intent, asked, apply, failure === undefined ? {} : { failure });
  if (settled.intent.status === 'DONE') return outcomeOf(settled.intent);
  if (asked.failure) {
    deps.logger.warn({ bookingId: intent.bookingId, intentId: intent.id, err: failure }, 'refund not made: nothing changed');
    throw asked.failure.error;
  }
  throw new AppError('bad_gateway', `The refund of booking ${intent.bookingId} could not be completed. Please try again.`);
}

/**
 * The payments.reconcile job's part for one intent left open (its process stopped between the phases):
 * the provider asked again under the same keys, then phase 3 as the request would have run it. A refusal
 * closes it FAILED with nothing applied; a provider that cannot be reached leaves it open for the next
 * run (what was refunded meanwhile is recorded already).
 */
export async function finishRefund<K extends RefundActionKind>(
  deps: RefundDeps,
  intent: BookingRefundIntent,
  apply: ApplyRefund<K>,
): Promise<'done' | 'failed' | 'open' | 'noop'> {
  const asked = await askProvider(deps, intent);
  if (asked.failure && !asked.failure.refused) {
    deps.logger.warn(
      { bookingId: intent.bookingId, intentId: intent.id, err: failureText(asked.failure.error) },
      'refund intent: provider not reached; next run tries again',
    );
    if (asked.done.length > 0) await settle(deps, intent, asked, apply, { keepOpen: true });
    return 'open';
  }
  const settled = await settle(deps, intent, asked, apply, asked.failure ? { failure: failureText(asked.failure.error) } : {});
  if (settled.applied) return 'done';
  if (asked.failure && settled.intent.status === 'FAILED') {
    deps.logger.warn(
      { bookingId: intent.bookingId, intentId: intent.id, err: settled.intent.failure },
      'refund intent refused by the provider: nothing changed',
    );
    return 'failed';
  }
  return 'noop';
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
