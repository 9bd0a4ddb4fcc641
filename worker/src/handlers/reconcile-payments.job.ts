import { reconcileAll } from '../../../shared/core/services/payment.service.ts';
import { finishAbandonedRefunds } from '../../../shared/core/services/refund-recovery.service.ts';
import type { JobHandler } from './handler.ts';

/**
 * Scheduled: finishes refunds a stopped process left halfway (their intents), then catches payments
 * whose client never came back and whose webhook was lost. Neither's error keeps the other from running;
 * either fails the run (retried).
 */
export const reconcilePaymentsJob: JobHandler<'payments.reconcile'> = async (_p, deps) => {
  let refundError: unknown;
  const refunds = await finishAbandonedRefunds(deps).catch((err: unknown) => {
    refundError = err;
    return undefined;
  });
  const bookings = await reconcileAll(deps);
  if (refundError) throw refundError;
  return { ...bookings, refunds };
};
