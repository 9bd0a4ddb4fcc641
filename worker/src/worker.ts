import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { CENTRE_TIME_ZONE } from '../../shared/domain/time.ts';
import { AppError } from '../../shared/core/errors.ts';
import { isJobName, JOBS, QUEUE_NAMES, type JobName } from '../../shared/core/jobs/jobs.ts';
import { createOutboxRelay, type OutboxRelay } from '../../shared/core/jobs/outbox.relay.ts';
import { workerConnection, type Queues } from '../../shared/core/jobs/queues.ts';
import { confirmationMailJob } from './handlers/confirmation-mail.job.ts';
import { expireHoldsJob } from './handlers/expire-holds.job.ts';
import type { JobHandler, WorkerDeps } from './handlers/handler.ts';
import { meetingLinkJob } from './handlers/meeting-link.job.ts';
import { nightlyReportsJob } from './handlers/nightly-reports.job.ts';
import { paymentLinkJob } from './handlers/payment-link.job.ts';
import { reconcilePaymentsJob } from './handlers/reconcile-payments.job.ts';
import { reminderMailJob } from './handlers/reminder-mail.job.ts';
import { sandboxWebhookJob } from './handlers/sandbox-webhook.job.ts';
import { armHoldExpiry, HOLD_CHECK_MS } from './hold-expiry.ts';

const HANDLERS: { [N in JobName]: JobHandler<N> } = {
  'payments.create-link': paymentLinkJob,
  'payments.expire-holds': expireHoldsJob,
  'payments.reconcile': reconcilePaymentsJob,
  'payments.sandbox-webhook': sandboxWebhookJob,
  'meetings.create': meetingLinkJob,
  'mail.booking-confirmation': confirmationMailJob,
  'mail.booking-reminder': reminderMailJob,
  'reports.nightly': nightlyReportsJob,
};

export type WorkerOptions = {
  redisUrl: string;
  prefix: string;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  reconcileEveryMinutes: number;
  /** Run the outbox relay in this process (LISTEN on databaseUrl when given). */
  relay: { databaseUrl?: string; pollMs?: number } | false;
};

export type RunningWorker = { workers: Worker[]; relay: OutboxRelay | undefined; close(): Promise<void> };

async function dispatch(job: Job, deps: WorkerDeps): Promise<unknown> {
  if (!isJobName(job.name)) throw new UnrecoverableError(`unknown job ${job.name}`);
  const parsed = JOBS[job.name].payload.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`invalid payload for ${job.name}: ${parsed.error.message}`);
  try {
    return await (HANDLERS[job.name] as JobHandler<JobName>)(parsed.data as never, deps, job);
  } catch (err) {
    // A client-side error (missing booking, wrong state) will not get better by retrying.
    if (err instanceof AppError && err.status < 500) throw new UnrecoverableError(err.message);
    throw err;
  }
}

/** Repeatable jobs: payment reconciliation, and the nightly report aggregation at 00:30 in the centre's zone. */
export async function registerSchedulers(queues: Queues, opts: Pick<WorkerOptions, 'reconcileEveryMinutes'>): Promise<void> {
  await queues.payments.upsertJobScheduler('payments.reconcile', { every: opts.reconcileEveryMinutes * 60_000 }, { name: 'payments.reconcile', data: {} });
  await queues.reports.upsertJobScheduler('reports.nightly', { pattern: '30 0 * * *', tz: CENTRE_TIME_ZONE }, { name: 'reports.nightly', data: {} });
}

/** One BullMQ Worker per queue, the outbox relay, the schedulers and the hold check. close() lets running jobs finish. */
export async function startWorker(deps: WorkerDeps, opts: WorkerOptions): Promise<RunningWorker> {
  const workers = QUEUE_NAMES.map((queue) => {
    const w = new Worker(queue, (job) => dispatch(job, deps), {
      connection: workerConnection(opts.redisUrl),
      prefix: opts.prefix,
      concurrency: opts.concurrency,
      lockDuration: opts.lockDurationMs,
      stalledInterval: opts.stalledIntervalMs,
      maxStalledCount: 2,
    });
    w.on('failed', (job, err) => {
      const final = !job || job.attemptsMade >= (job.opts.attempts ?? 1) || err instanceof UnrecoverableError;
      deps.logger[final ? 'error' : 'warn'](
        { queue, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message },
        final ? 'job failed for good: it stays in the failed set (Bull Board)' : 'job failed, will retry with backoff',
      );
    });
    w.on('error', (err) => deps.logger.warn({ queue, err: err.message }, 'worker connection problem'));
    return w;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  await registerSchedulers(deps.queues, opts);
  const relay = opts.relay
    ? createOutboxRelay({ db: deps.db, queues: deps.queues, logger: deps.logger, ...opts.relay })
    : undefined;
  relay?.start();
  const armHolds = () =>
    armHoldExpiry(deps).catch((err: Error) => deps.logger.warn({ err: err.message }, 'hold expiry: could not arm; trying again at the next check'));
  void armHolds();
  const holdCheck = setInterval(armHolds, HOLD_CHECK_MS);
  return {
    workers,
    relay,
    async close() {
      clearInterval(holdCheck);
      await relay?.stop();
      // Worker.close() waits for the jobs in progress to finish before it resolves.
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
