import { reconcileLedger } from '../../../shared/core/services/ledger-reconcile.service.ts';
import type { JobHandler } from './handler.ts';

/** Scheduled hourly: the ledger against the provider for the last 7 days (missing captures and refunds, amounts). */
export const reconcileLedgerJob: JobHandler<'payments.reconcile-ledger'> = (_p, deps) => reconcileLedger(deps);
