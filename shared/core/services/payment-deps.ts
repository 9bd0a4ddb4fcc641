import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import type { PaymentsProvider } from '../providers/payments/payments.provider.ts';
import type { LedgerMethod } from '../repositories/ledger.repository.ts';

/**
 * What settling a payment needs, and what the provider reports of one: shared by a booking's payments
 * (payment.service.ts, which re-exports them) and a package sale's (package-payment.service.ts, which
 * payment.service.ts calls for a sale's webhook, so neither may import the other's types).
 */
export type PaymentDeps = { db: Db; payments: PaymentsProvider; config: Config; logger: Logger; now: () => Date };

/** A payment the provider reports captured, with what it says of it. */
export type CapturedPayment = {
  provider: 'razorpay' | 'sandbox';
  linkId: string;
  paymentId: string;
  /** What was captured; the booking's link amount when the report does not say (a callback). */
  amountPaise?: number | undefined;
  method?: LedgerMethod | undefined;
};
