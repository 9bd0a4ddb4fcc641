import { jobIds } from '../../shared/core/jobs/jobs.ts';
import { addJob } from '../../shared/core/jobs/queues.ts';
import { nextHoldEnd } from '../../shared/core/services/payment.service.ts';
import type { WorkerDeps } from './handlers/handler.ts';

/** How often the worker looks for a hold that no expiry job waits for yet. Holds last 5 minutes or more. */
export const HOLD_CHECK_MS = 30_000;

/**
 * Unpaid holds end on time without a job per booking: one delayed payments.expire-holds job waits
 * for the earliest hold still running, and arms the next when it has run. Holds taken meanwhile end
 * later, so they only need arming when no job is waiting; the worker checks every HOLD_CHECK_MS.
 * The job id is the instant, so any number of workers arm it once. Answers the instant armed.
 */
export async function armHoldExpiry(deps: Pick<WorkerDeps, 'db' | 'queues' | 'now'>): Promise<Date | undefined> {
  const now = deps.now();
  const endsAt = await nextHoldEnd(deps.db, now);
  if (endsAt) {
    await addJob(
      deps.queues,
      'payments.expire-holds',
      { endsAt: endsAt.toISOString() },
      { jobId: jobIds.holdExpiry(endsAt), delay: endsAt.getTime() - now.getTime() },
    );
  }
  return endsAt;
}
