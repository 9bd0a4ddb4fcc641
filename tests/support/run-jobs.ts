/**
 * The outbox's jobs run in the test's own process, as the worker runs them (the payload checked against
 * JOBS, the handler, the row marked completed): for tests about what the jobs do, not about the queue
 * (jobs-faults.test.ts and payments-flow.test.ts run the real worker).
 */
import type { Job } from 'bullmq';
import { and, asc, isNull, lte } from 'drizzle-orm';
import type { Config } from '../../shared/core/config.ts';
import { outbox } from '../../shared/core/db/schema.ts';
import { JOBS, type JobName } from '../../shared/core/jobs/jobs.ts';
import { markOutboxCompleted } from '../../shared/core/jobs/outbox.ts';
import { createLogger } from '../../shared/core/logger.ts';
import type { Mailer } from '../../shared/core/providers/mail/mail.provider.ts';
import { jitsiProvider } from '../../shared/core/providers/meetings/jitsi.provider.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import type { WorkerDeps } from '../../worker/src/handlers/handler.ts';
import { HANDLERS } from '../../worker/src/worker.ts';
import type { TestDatabase } from './db.ts';

/** The worker's dependencies for runDueJobs: the test's database, payments, configuration, clock and mailer, meetings on Jitsi, no queues. */
export function inProcessWorker(database: TestDatabase, payments: SandboxPayments, config: Config, now: () => Date, mailer: Mailer): WorkerDeps {
  return {
    db: database.db,
    payments,
    config,
    logger: createLogger({ level: 'silent' }),
    now,
    mailer,
    meetings: jitsiProvider({ domain: 'meet.jit.si' }),
    queues: {} as never,
    fetch,
  };
}

export type RanJob = { name: JobName; jobId: string; payload: unknown; result: unknown };

/**
 * Runs every outbox job due by the deps' clock and not yet completed, oldest first, again until none is
 * left (a job may write more), and answers what ran. `skip`: job names left alone (by default the
 * sandbox's webhooks, which tests deliver themselves). A job that throws fails the test.
 */
export async function runDueJobs(deps: WorkerDeps, opts: { skip?: readonly JobName[]; attemptsMade?: number } = {}): Promise<RanJob[]> {
  const skip = new Set<string>(opts.skip ?? ['payments.sandbox-webhook']);
  const ran: RanJob[] = [];
  for (;;) {
    const rows = (
      await deps.db
        .select()
        .from(outbox)
        .where(and(isNull(outbox.completedAt), lte(outbox.availableAt, deps.now())))
        .orderBy(asc(outbox.id))
    ).filter((r) => !skip.has(r.jobName));
    if (rows.length === 0) return ran;
    for (const row of rows) {
      const name = row.jobName as JobName;
      const payload = JOBS[name].payload.parse(row.payload);
      const attempts = (JOBS[name] as { options?: { attempts: number } }).options?.attempts ?? 1;
      const job = { id: row.jobId, name, data: payload, attemptsMade: opts.attemptsMade ?? 0, opts: { attempts } } as unknown as Job;
      const result = await (HANDLERS[name] as (p: unknown, d: WorkerDeps, j: Job) => Promise<unknown>)(payload, deps, job);
      await markOutboxCompleted(deps.db, row.queue, row.jobId);
      ran.push({ name, jobId: row.jobId, payload, result });
    }
  }
}
