import {
  JOB_FAILURE_MESSAGES as JM,
  type JobFailureDto,
  type JobFailuresPage,
  type JobFailuresQuery,
  type ResolveJobFailureResponse,
} from '../../contract/job-failures.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { JobName } from '../jobs/jobs.ts';
import type { DbOrTx } from '../jobs/outbox.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import {
  findJobFailureForUpdate,
  getJobFailure,
  listJobFailures,
  markJobFailureResolved,
  recordJobFailure,
  resolveJobFailureBySuccess,
  type JobFailureListRow,
  type JobFailureRow,
} from '../repositories/job-failure.repository.ts';
import { pageOrFirst } from './paging.ts';

/** What each job does, as an admin reads it at the head of "… failed for booking 123". */
const JOB_LABELS: Record<JobName, string> = {
  'payments.create-link': 'Payment link',
  'payments.send-link': 'Sending the payment link',
  'payments.expire-holds': 'Releasing unpaid holds',
  'payments.reconcile': 'Payment check',
  'payments.reconcile-ledger': 'Ledger check',
  'payments.sandbox-webhook': 'Sandbox payment event',
  'payments.refund-stray': 'Refund of a payment no booking could take',
  'meetings.create': 'Meeting link',
  'meetings.update': 'Meeting update',
  'mail.booking-confirmation': 'Confirmation e-mail',
  'mail.booking-reminder': 'Reminder e-mail',
  'mail.booking-changed': 'Change e-mail',
  'mail.booking-money': 'E-mail about the money',
  'whatsapp.reminder': 'WhatsApp reminder',
  'mail.payment-link': 'Payment link e-mail',
  'whatsapp.payment-link': 'WhatsApp payment link',
  'reports.nightly': 'Nightly report',
  'reports.retention': 'Nightly clean-up',
  'mail.staff-invitation': 'Staff invitation e-mail',
  'mail.package-sold': 'Package e-mail',
  'mail.package-expiring': 'Package expiry reminder',
  'mail.package-refunded': 'Package refund e-mail',
  'packages.expire': 'Package expiry',
};

/** The booking a job's payload names, if it names one. */
function bookingIdOf(payload: unknown): number | null {
  const id = (payload as { bookingId?: unknown } | null)?.bookingId;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

/**
 * "Meeting link failed for booking 123": built from the job's name and its booking id (and for a
 * confirmation, whose copy), never from its error, which may quote a client's address or number.
 * The error stays with the job in the queues.
 */
function jobFailureSummary(jobName: string, payload: unknown): string {
  const label = (JOB_LABELS as Record<string, string | undefined>)[jobName];
  if (!label) return `Job "${jobName}" is unknown to this worker and was not queued`;
  const recipient = (payload as { recipient?: unknown } | null)?.recipient;
  const whose = recipient === 'client' || recipient === 'therapist' ? ` to the ${recipient}` : '';
  const bookingId = bookingIdOf(payload);
  return bookingId === null ? `${label}${whose} failed` : `${label}${whose} failed for booking ${bookingId}`;
}

type FailedJob = { queue: string; jobName: string; jobId: string; payload: unknown; attempts: number };

/**
 * A job failed for good. From the worker (its last attempt failed): writes its row, or reopens it when
 * the job failed for good before and was retried since; the attempts before the last wrote nothing.
 * From the outbox relay (`once`: a row it cannot queue, seen again on every pass): writes it once.
 */
export async function recordFailedJob(db: DbOrTx, job: FailedJob, at: Date, opts: { once?: boolean } = {}): Promise<void> {
  const summary = jobFailureSummary(job.jobName, job.payload);
  const row = { queue: job.queue, jobName: job.jobName, jobId: job.jobId, bookingId: bookingIdOf(job.payload), summary, failedAt: at, attempts: job.attempts };
  await recordJobFailure(db, row, !opts.once);
}

/** The worker: a job that had failed before has now succeeded (retried from the queues), so its row is resolved. */
export async function jobSucceededAfterFailing(db: DbOrTx, queue: string, jobId: string, at: Date): Promise<void> {
  await resolveJobFailureBySuccess(db, queue, jobId, at);
}

function toDto(r: JobFailureListRow): JobFailureDto {
  return {
    id: r.id,
    queue: r.queue,
    job_name: r.jobName,
    job_id: r.jobId,
    booking_id: r.bookingId,
    summary: r.summary,
    failed_at: r.failedAt.toISOString(),
    attempts: r.attempts,
    resolved_at: r.resolvedAt?.toISOString() ?? null,
    resolved_by: r.resolvedByUsername,
  };
}

/** GET /api/admin/job-failures (every admin): open ones first, newest first, one page. */
export async function jobFailuresPage(db: Db, query: JobFailuresQuery): Promise<JobFailuresPage> {
  const page = pageOrFirst(query);
  const { rows, total, open } = await listJobFailures(db, page.pageSize, page.offset);
  return { page: page.page, page_size: page.pageSize, total, open, items: rows.map(toDto) };
}

const auditable = (r: JobFailureRow) => ({
  id: r.id,
  queue: r.queue,
  job_name: r.jobName,
  job_id: r.jobId,
  booking_id: r.bookingId,
  resolved_at: r.resolvedAt?.toISOString() ?? null,
  resolved_by_admin_id: r.resolvedByAdminId,
});

/**
 * POST /api/admin/job-failures/{id}/resolve (every admin): an open failure marked resolved, in one
 * transaction with its audit entry. The row lock makes a second resolve, even one sent at the same
 * moment, a 409 rather than a second resolution.
 */
export async function resolveJobFailure(db: Db, id: number, by: { adminId: number }, now: Date): Promise<ResolveJobFailureResponse> {
  await db.transaction(async (tx) => {
    const before = await findJobFailureForUpdate(tx, id);
    if (!before) throw new AppError('not_found', JM.notFound(id));
    if (before.resolvedAt) throw new AppError('conflict', JM.alreadyResolved(id));
    const after = await markJobFailureResolved(tx, id, now, by.adminId);
    await insertAudit(tx, {
      adminId: by.adminId,
      actor: `admin:${by.adminId}`,
      action: 'job_failure.resolve',
      entityType: 'job_failure',
      entityId: id,
      before: auditable(before),
      after: auditable(after),
    });
  });
  return { item: toDto((await getJobFailure(db, id))!), message: JM.resolved(id) };
}
