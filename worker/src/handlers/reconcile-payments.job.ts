import { reconcileAll } from '../../../shared/core/services/payment.service.ts';
import type { JobHandler } from './handler.ts';

/** Scheduled: catches payments whose client never came back and whose webhook was lost. */
export const reconcilePaymentsJob: JobHandler<'payments.reconcile'> = (_p, deps) => reconcileAll(deps);
