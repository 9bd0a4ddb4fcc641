import type { DbOrTx } from '../db/client.ts';
import { recordJobFailure, resolveJobFailureBySuccess } from '../repositories/job-failure.repository.ts';
import type { JobName } from './jobs.ts';

/**
 * The worker's and the outbox relay's record of jobs that failed for good (job_failures): the row the
 * admins see on the dashboard, and its resolution when a retried job succeeds. The admins' list and
 * their own resolving are services/job-failure.service.ts.
 */

/** What each job does, as an admin reads it at the head of "… failed for booking 123". */
const JOB_LABELS: Record<JobName, string> = {
  'payments.create-link': 'Payment link',
  'payments.send-link': 'Sending the payment link',
  'payments.expire-holds': 'Releasing unpaid holds',
  'payments.reconcile': 'Payment check',
  'payments.reconcile-ledger': 'Ledger check',
  'payments.sandbox-webhook': 'Sandbox payment event',
  'payments.refund-stray': 'Refund of a payment no booking or package could take',
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
  'mail.series-confirmation': 'Series confirmation e-mail',
  'mail.series-moved': 'Series change e-mail',
  'mail.series-cancelled': 'Series cancellation e-mail',
  'waitlist.slot-freed': 'Offering a freed slot to the waitlist',
  'waitlist.offer-expiry': 'Passing an unclaimed waitlist offer on',
  'mail.waitlist': 'Waitlist e-mail',
  'whatsapp.waitlist-offer': 'Waitlist offer on WhatsApp',
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
