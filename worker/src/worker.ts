import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { CENTRE_TIME_ZONE } from '../../shared/domain/time.ts';
import { AppError } from '../../shared/core/errors.ts';
import { isJobName, JOBS, QUEUE_NAMES, WHATSAPP_BACKOFF, type JobName } from '../../shared/core/jobs/jobs.ts';
import { markOutboxCompleted } from '../../shared/core/jobs/outbox.ts';
import { jobSucceededAfterFailing, recordFailedJob } from '../../shared/core/jobs/job-failures.ts';
import { createOutboxRelay, type OutboxRelay } from '../../shared/core/jobs/outbox.relay.ts';
import { quietRedis, workerConnection, type Queues } from '../../shared/core/jobs/queues.ts';
import { confirmationMailJob } from './handlers/confirmation-mail.job.ts';
import { expireHoldsJob } from './handlers/expire-holds.job.ts';
import type { JobHandler, WorkerDeps } from './handlers/handler.ts';
import { meetingLinkJob } from './handlers/meeting-link.job.ts';
import { meetingUpdateJob } from './handlers/meeting-update.job.ts';
import { changeMailJob } from './handlers/change-mail.job.ts';
import { nightlyReportsJob } from './handlers/nightly-reports.job.ts';
import { paymentLinkJob } from './handlers/payment-link.job.ts';
import { reconcileLedgerJob } from './handlers/reconcile-ledger.job.ts';
import { reconcilePaymentsJob } from './handlers/reconcile-payments.job.ts';
import { reminderMailJob } from './handlers/reminder-mail.job.ts';
import { moneyMailJob } from './handlers/money-mail.job.ts';
import { staffInvitationMailJob } from './handlers/staff-invitation-mail.job.ts';
import { refundStrayJob } from './handlers/refund-stray.job.ts';
import { retentionJob } from './handlers/retention.job.ts';
import { sandboxWebhookJob } from './handlers/sandbox-webhook.job.ts';
import { whatsappReminderJob } from './handlers/whatsapp-reminder.job.ts';
import { paymentLinkSendJob } from './handlers/payment-link-send.job.ts';
import { paymentLinkMailJob } from './handlers/payment-link-mail.job.ts';
import { whatsappPaymentLinkJob } from './handlers/whatsapp-payment-link.job.ts';
import { whatsappWaitlistOfferJob } from './handlers/whatsapp-waitlist-offer.job.ts';
import { seriesCancelledMailJob, seriesConfirmationMailJob, seriesMovedMailJob } from './handlers/series-mail.job.ts';
import { waitlistMailJob, waitlistOfferExpiryJob, waitlistSlotFreedJob } from './handlers/waitlist.job.ts';
import { packageExpiringMailJob, packageRefundedMailJob, packageSoldMailJob } from './handlers/package-mail.job.ts';
import { packagesExpireJob } from './handlers/packages-expire.job.ts';
import { armHoldExpiry, HOLD_CHECK_MS } from './hold-expiry.ts';
import { redispatchFromOutbox, watchRedisData, type RedisRecovery } from './redis-recovery.ts';

/** Exported for tests that run the outbox's jobs in their own process (tests/support/run-jobs.ts). */
export const HANDLERS: { [N in JobName]: JobHandler<N> } = {
  'payments.create-link': paymentLinkJob,
  'payments.send-link': paymentLinkSendJob,
  'payments.expire-holds': expireHoldsJob,
  'payments.reconcile': reconcilePaymentsJob,
  'payments.reconcile-ledger': reconcileLedgerJob,
  'payments.sandbox-webhook': sandboxWebhookJob,
  'meetings.create': meetingLinkJob,
  'meetings.update': meetingUpdateJob,
  'mail.booking-confirmation': confirmationMailJob,
  'mail.booking-reminder': reminderMailJob,
  'mail.booking-money': moneyMailJob,
  'mail.booking-changed': changeMailJob,
  'payments.refund-stray': refundStrayJob,
  'reports.nightly': nightlyReportsJob,
  'reports.retention': retentionJob,
  'mail.staff-invitation': staffInvitationMailJob,
  'whatsapp.reminder': whatsappReminderJob,
  'mail.payment-link': paymentLinkMailJob,
  'whatsapp.payment-link': whatsappPaymentLinkJob,
  'whatsapp.waitlist-offer': whatsappWaitlistOfferJob,
  'mail.series-confirmation': seriesConfirmationMailJob,
  'mail.series-moved': seriesMovedMailJob,
  'mail.series-cancelled': seriesCancelledMailJob,
  'waitlist.slot-freed': waitlistSlotFreedJob,
  'waitlist.offer-expiry': waitlistOfferExpiryJob,
  'mail.waitlist': waitlistMailJob,
  'mail.package-sold': packageSoldMailJob,
  'mail.package-expiring': packageExpiringMailJob,
  'mail.package-refunded': packageRefundedMailJob,
  'packages.expire': packagesExpireJob,
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
  /** How often to check that Redis still holds its data (REDIS_CHECK_MS when absent). */
  redisCheckMs?: number;
};

export type RunningWorker = { workers: Worker[]; relay: OutboxRelay | undefined; recovery: RedisRecovery; close(): Promise<void> };

async function dispatch(job: Job, deps: WorkerDeps): Promise<unknown> {
  if (!isJobName(job.name)) throw new UnrecoverableError(`unknown job ${job.name}`);
  const parsed = JOBS[job.name].payload.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`invalid payload for ${job.name}: ${parsed.error.message}`);
  let result: unknown;
  try {
    result = await (HANDLERS[job.name] as JobHandler<JobName>)(parsed.data as never, deps, job);
  } catch (err) {
    // A client-side error (missing booking, wrong state) will not get better by retrying.
    if (err instanceof AppError && err.status < 500) throw new UnrecoverableError(err.message);
    throw err;
  }
  await markCompleted(job, deps);
  return result;
}

/**
 * Records in the outbox that the job is done, before BullMQ hears of it: a Redis that loses its data
 * afterwards never gets the job back (no second e-mail). Scheduled jobs come from no outbox row.
 * Failing to record it must not fail the job, whose work is done: a retry would do it twice.
 */
async function markCompleted(job: Job, deps: WorkerDeps): Promise<void> {
  if (!job.id) return;
  // A job that failed before and now succeeded (a retry, maybe from the queues after it failed for
  // good): its failure row, if it has one, is resolved. Only then: one statement more per job otherwise.
  if (job.attemptsMade > 0) {
    await jobSucceededAfterFailing(deps.db, job.queueName, job.id, deps.now()).catch((err: Error) =>
      deps.logger.warn({ queue: job.queueName, job: job.name, jobId: job.id, err: err.message }, 'job done but its failure row could not be resolved'),
    );
  }
  if (job.repeatJobKey) return;
  try {
    await markOutboxCompleted(deps.db, job.queueName, job.id);
  } catch (err) {
    deps.logger.error(
      { queue: job.queueName, job: job.name, jobId: job.id, err: (err as Error).message },
      'job done but not recorded in the outbox: should Redis lose its data, it would run again',
    );
  }
}

/**
 * A job failed for good: beside the log line, a row the admins see on the dashboard (job_failures).
 * The job stays in the failed set, where the queues can retry it. Failing to write the row is logged:
 * the job's failure is already in the log and the queues.
 */
async function recordFailure(job: Job, deps: WorkerDeps): Promise<void> {
  if (!job.id) return;
  try {
    await recordFailedJob(deps.db, { queue: job.queueName, jobName: job.name, jobId: job.id, payload: job.data, attempts: job.attemptsMade }, deps.now());
  } catch (err) {
    deps.logger.error(
      { queue: job.queueName, job: job.name, jobId: job.id, err: (err as Error).message },
      'job failed for good and its failure row could not be written',
    );
  }
}

/**
 * The ledger reconciliation's schedule: hourly, at minute 40. A job of its own beside payments.reconcile
 * rather than a step inside it: that one runs every few minutes over the few unpaid bookings and must
 * stay cheap, while this one asks the provider about every link and payment of the last 7 days. Its
 * own scheduler keeps "at most once an hour" in Redis with no last-run bookkeeping of ours, a provider
 * error on one item does not fail (and retry) the cheap job, and Bull Board shows each run apart. A
 * cron pattern rather than `every`: an `every` scheduler also runs at once whenever it is registered,
 * so each worker start (and each Redis recovery) would trigger a full 7-day run.
 */
export const LEDGER_RECONCILE_PATTERN = '40 * * * *';

/**
 * The retention job's schedule: daily at 03:15 in the centre's zone, when nobody books, after the
 * 00:30 report aggregation. A pattern, not `every`, for the reason the ledger's is.
 */
export const RETENTION_PATTERN = '15 3 * * *';

/**
 * The packages' nightly upkeep (issue 34): daily at 00:45 in the centre's zone, once the day before has
 * ended there, so a package whose last day was yesterday expires. A pattern, not `every`, as above.
 */
export const PACKAGES_EXPIRE_PATTERN = '45 0 * * *';

/**
 * Repeatable jobs: payment reconciliation, ledger reconciliation, the nightly report aggregation at
 * 00:30, the packages' expiry at 00:45 and the retention prune at 03:15 in the centre's zone.
 */
export async function registerSchedulers(queues: Queues, opts: Pick<WorkerOptions, 'reconcileEveryMinutes'>): Promise<void> {
  await queues.payments.upsertJobScheduler('payments.reconcile', { every: opts.reconcileEveryMinutes * 60_000 }, { name: 'payments.reconcile', data: {} });
  await queues.payments.upsertJobScheduler(
    'payments.reconcile-ledger',
    { pattern: LEDGER_RECONCILE_PATTERN, tz: CENTRE_TIME_ZONE },
    { name: 'payments.reconcile-ledger', data: {} },
  );
  await queues.reports.upsertJobScheduler('reports.nightly', { pattern: '30 0 * * *', tz: CENTRE_TIME_ZONE }, { name: 'reports.nightly', data: {} });
  await queues.reports.upsertJobScheduler('reports.retention', { pattern: RETENTION_PATTERN, tz: CENTRE_TIME_ZONE }, { name: 'reports.retention', data: {} });
  await queues.reports.upsertJobScheduler('packages.expire', { pattern: PACKAGES_EXPIRE_PATTERN, tz: CENTRE_TIME_ZONE }, { name: 'packages.expire', data: {} });
}

/**
 * One BullMQ Worker per queue, the outbox relay, the schedulers, the hold check and the watch for
 * Redis losing its data. close() lets running jobs finish.
 */
export async function startWorker(deps: WorkerDeps, opts: WorkerOptions): Promise<RunningWorker> {
  const workers = QUEUE_NAMES.map((queue) => {
    const w = new Worker(queue, (job) => dispatch(job, deps), {
      connection: workerConnection(opts.redisUrl),
      prefix: opts.prefix,
      concurrency: opts.concurrency,
      lockDuration: opts.lockDurationMs,
      stalledInterval: opts.stalledIntervalMs,
      maxStalledCount: 2,
      // The WhatsApp reminder's backoff (jobs.ts): WHATSAPP_RETRY_DELAY_MS, doubling. Every other job
      // names a built-in strategy and never reaches this.
      settings: {
        backoffStrategy: (attemptsMade: number, type?: string) => {
          if (type !== WHATSAPP_BACKOFF) throw new Error(`unknown backoff strategy ${type}`);
          return (deps.config.whatsapp?.retryDelayMs ?? 60_000) * 2 ** Math.max(0, attemptsMade - 1);
        },
      },
    });
    w.on('failed', (job, err) => {
      const final = !job || job.attemptsMade >= (job.opts.attempts ?? 1) || err instanceof UnrecoverableError;
      deps.logger[final ? 'error' : 'warn'](
        { queue, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message },
        final ? 'job failed for good: it stays in the failed set (Bull Board)' : 'job failed, will retry with backoff',
      );
      if (final && job) void recordFailure(job, deps);
    });
    w.on('error', (err) => deps.logger.warn({ queue, err: err.message }, 'worker connection problem'));
    return w;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  await registerSchedulers(deps.queues, opts);
  const relay = opts.relay ? createOutboxRelay({ db: deps.db, queues: deps.queues, logger: deps.logger, now: deps.now, ...opts.relay }) : undefined;
  relay?.start();
  const armHolds = () =>
    armHoldExpiry(deps).catch((err: Error) => deps.logger.warn({ err: err.message }, 'hold expiry: could not arm; trying again at the next check'));
  void armHolds();
  const holdCheck = setInterval(armHolds, HOLD_CHECK_MS);
  const markerConnection = quietRedis(opts.redisUrl, false);
  const recovery = watchRedisData({
    db: deps.db,
    logger: deps.logger,
    now: deps.now,
    redis: markerConnection,
    prefix: opts.prefix,
    ...(opts.redisCheckMs ? { checkMs: opts.redisCheckMs } : {}),
    async recover() {
      await registerSchedulers(deps.queues, opts);
      await redispatchFromOutbox(deps);
      await armHoldExpiry(deps);
      // The rows' notification wakes listening relays; this one need not wait for it.
      void relay?.drainOnce();
    },
  });
  // Redis may have come back empty while no worker ran: the first check is now, once the connection is
  // up (it queues nothing while connecting, so an early check would only fail and log).
  await new Promise<void>((resolve) => {
    if (markerConnection.status === 'ready') return resolve();
    const timer = setTimeout(resolve, 5_000);
    markerConnection.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await recovery.checkOnce();
  recovery.start();
  return {
    workers,
    relay,
    recovery,
    async close() {
      clearInterval(holdCheck);
      await recovery.stop();
      markerConnection.disconnect();
      await relay?.stop();
      // Worker.close() waits for the jobs in progress to finish before it resolves.
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
