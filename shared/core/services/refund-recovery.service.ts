/**
 * Refunds left halfway (issue 32): a refund's intent is written before the provider is asked and
 * closed once its answer is recorded, so a process that stopped in between (killed, its database
 * connection lost) leaves it open. The payments.reconcile job finishes each such intent: the provider
 * is asked again under the same idempotency keys (it answers the refund it made, or makes it now), the
 * refunds are recorded once, and the change its caller asked for is applied, as the request would have.
 */
import { isSaleIntent, openIntentsBefore } from '../repositories/refund-intent.repository.ts';
import { enqueueInTx } from '../jobs/outbox.ts';
import { applyAdminCancel } from './admin-booking.service.ts';
import { seriesCancellationIntents } from './booking-followups.service.ts';
import { applyClientCancel } from './manage.service.ts';
import { finishSaleRefund } from './package-refund.service.ts';
import { applyStrayRefund, closeOpenLink, type PaymentDeps } from './payment.service.ts';
import { applyApproval } from './refund-request.service.ts';
import { finishRefund, type ApplyRefund, type RefundAction, type RefundActionKind } from './refund.service.ts';

/** How old an open intent must be before the job takes it for abandoned: a request asks the provider well within it. */
export const ABANDONED_REFUND_MS = 60_000;

/** Each kind of refund's change, as its service applies it after the refund. */
const APPLY: { [K in RefundActionKind]: ApplyRefund<K> } = {
  'admin-cancel': applyAdminCancel,
  'client-cancel': applyClientCancel,
  'approve-refund-request': applyApproval,
  'stray-refund': applyStrayRefund,
};

export type RefundRecoveryReport = { done: number; failed: number; open: number; noop: number };

/**
 * Every intent open for longer than `olderThanMs`, oldest first: finished (done), refused by the
 * provider (failed: nothing of its change applied), or left open because the provider could not be
 * reached (the next run asks again). One intent's error does not stop the others; the run then fails
 * with it (and is retried).
 */
export async function finishAbandonedRefunds(deps: PaymentDeps, opts: { olderThanMs?: number } = {}): Promise<RefundRecoveryReport> {
  const before = new Date(deps.now().getTime() - (opts.olderThanMs ?? ABANDONED_REFUND_MS));
  const report: RefundRecoveryReport = { done: 0, failed: 0, open: 0, noop: 0 };
  let lastError: unknown;
  for (const intent of await openIntentsBefore(deps.db, before)) {
    if (isSaleIntent(intent)) {
      // A package sale's refund (issue 34): its own change, the sale's unused credits refunded.
      try {
        const result = await finishSaleRefund(deps, intent);
        report[result]++;
        deps.logger.info({ intentId: intent.id, saleId: intent.packageSaleId, result }, 'package refund left halfway: finished by reconciliation');
      } catch (err) {
        lastError = err;
        deps.logger.warn({ intentId: intent.id, saleId: intent.packageSaleId, err: (err as Error).message }, 'package refund left halfway: could not finish');
      }
      continue;
    }
    const kind = intent.action.kind as RefundActionKind;
    const apply = APPLY[kind] as ApplyRefund<RefundActionKind> | undefined;
    if (!apply) {
      deps.logger.error({ intentId: intent.id, bookingId: intent.bookingId, kind }, 'refund intent of an unknown kind: left open');
      continue;
    }
    try {
      const result = await finishRefund(deps, intent, apply);
      report[result]++;
      deps.logger.info({ intentId: intent.id, bookingId: intent.bookingId, kind, result }, 'refund left halfway: finished by reconciliation');
      // A cancel closes the unpaid booking's payment link after its commit, as the request would have.
      const link = intent.action.openLink;
      if (result === 'done' && typeof link === 'string') await closeOpenLink(deps, intent.bookingId, link);
      // A session of a series' cancel: the series' e-mail, as the cancel would have sent it (the same job, so once).
      const cancel = kind === 'admin-cancel' ? (intent.action as Extract<RefundAction, { kind: 'admin-cancel' }>) : undefined;
      const series = cancel?.series;
      if (result === 'done' && series) {
        const reason = cancel.choice?.refund === 'NONE' || cancel.choice?.refund === 'PARTIAL' ? cancel.choice.reason : undefined;
        await deps.db.transaction((tx) => enqueueInTx(tx, seriesCancellationIntents(series.id, series.bookingIds, reason), deps.now()));
      }
    } catch (err) {
      lastError = err;
      deps.logger.warn(
        { intentId: intent.id, bookingId: intent.bookingId, err: (err as Error).message },
        'refund left halfway: could not finish; next run tries again',
      );
    }
  }
  if (lastError) throw lastError;
  return report;
}
