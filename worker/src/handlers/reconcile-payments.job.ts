import { reconcileSales } from '../../../shared/core/services/package-payment.service.ts';
import { reconcileAll } from '../../../shared/core/services/payment.service.ts';
import { finishAbandonedRefunds } from '../../../shared/core/services/refund-recovery.service.ts';
import type { JobHandler } from './handler.ts';

/**
 * Scheduled: finishes refunds a stopped process left halfway (their intents), then catches payments
 * (of bookings and of package sales) whose client never came back and whose webhook was lost. Neither's error keeps the other from running;
 * either fails the run (retried).
 */
export const reconcilePaymentsJob: JobHandler<'payments.reconcile'> = async (_p, deps) => {
  let refundError: unknown;
  const refunds = await finishAbandonedRefunds(deps).catch((err: unknown) => {
    refundError = err;
    return undefined;
  });
  let salesError: unknown;
  // Package sales bought online (issue 34) whose client never came back and whose webhook was lost.
  const packageSales = await reconcileSales(deps).catch((err: unknown) => {
    salesError = err;
    return undefined;
  });
  const bookings = await reconcileAll(deps);
  if (refundError) throw refundError;
  if (salesError) throw salesError;
  return { ...bookings, refunds, packageSales };
};
