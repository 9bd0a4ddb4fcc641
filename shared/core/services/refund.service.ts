import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { DbOrTx } from '../jobs/outbox.ts';
import type { Logger } from '../logger.ts';
import type { PaymentsProvider } from '../providers/payments/payments.provider.ts';
import { moneyOf, recordRefund } from '../repositories/ledger.repository.ts';

export type RefundDeps = { db: Db; payments: PaymentsProvider | undefined; logger: Logger; now: () => Date };

export type RefundOutcome = { refundedPaise: number; status: 'processed' | 'pending' };

/**
 * Returns `amountPaise` of a booking's money to the client, from its payments newest first, and
 * records each refund in the ledger in the caller's transaction. A provider's payment goes back
 * through the provider under an idempotency key made of `key` and the payment (a retry after a
 * failure, even one whose answer was lost, is the same refund, recorded once); money taken at the
 * counter goes back at the counter. A provider refusal or failure throws, so the caller's
 * transaction (the cancel) rolls back with it.
 */
export async function refundBookingMoney(
  tx: DbOrTx,
  deps: RefundDeps,
  bookingId: number,
  amountPaise: number,
  opts: { key: string; reason: string | null; byAdminId?: number | null; onlyPaymentId?: string },
): Promise<RefundOutcome> {
  const money = await moneyOf(tx, bookingId);
  if (opts.onlyPaymentId) money.payments = money.payments.filter((p) => p.paymentId === opts.onlyPaymentId);
  const left = money.payments.reduce((n, p) => n + p.leftPaise, 0);
  if (amountPaise <= 0 || amountPaise > left) {
    throw new AppError('validation', `The refund can be at most what is left of the payment (${(left / 100).toFixed(2)} rupees).`, {
      amount: 'Amount is more than was paid',
    });
  }
  let due = amountPaise;
  let status: RefundOutcome['status'] = 'processed';
  for (const p of [...money.payments].reverse()) {
    if (due === 0) break;
    const part = Math.min(due, p.leftPaise);
    if (part <= 0) continue;
    let refundId: string;
    if (p.provider === 'counter') {
      refundId = `counter_refund_${randomUUID()}`;
    } else {
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
      refundId = refund.id;
    }
    await recordRefund(tx, {
      bookingId,
      provider: p.provider,
      paymentId: p.paymentId,
      refundId,
      amountPaise: part,
      reason: opts.reason,
      recordedByAdminId: opts.byAdminId ?? null,
      occurredAt: deps.now(),
    });
    due -= part;
  }
  deps.logger.info({ bookingId, amountPaise, status }, 'booking refunded');
  return { refundedPaise: amountPaise, status };
}
