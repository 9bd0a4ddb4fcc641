import { z } from 'zod';
import { pagingFields, type Paged } from './admin.ts';

/**
 * Jobs that failed for good (their last attempt failed, or the outbox relay could not queue them):
 * each leaves one row an admin sees on the dashboard, until someone marks it resolved.
 */

/** GET /api/admin/job-failures: open ones first, newest first; ?page= and ?page_size= as the other lists. */
export const jobFailuresQuerySchema = z.strictObject(pagingFields);
export type JobFailuresQuery = z.output<typeof jobFailuresQuerySchema>;

export type JobFailureDto = {
  id: number;
  queue: string;
  job_name: string;
  job_id: string;
  booking_id: number | null;
  /** What failed, in words, with no client's personal data: "Meeting link failed for booking 123". */
  summary: string;
  failed_at: string;
  attempts: number;
  resolved_at: string | null;
  /** Who marked it resolved; null while open, or when a later retry of the job succeeded. */
  resolved_by: string | null;
};

/** One page of the list, and how many are open in all (the dashboard's badge). */
export type JobFailuresPage = Paged<JobFailureDto> & { open: number };

export type ResolveJobFailureResponse = { item: JobFailureDto; message: string };

export const JOB_FAILURE_MESSAGES = {
  notFound: (id: number) => `Failed job ${id} was not found.`,
  alreadyResolved: (id: number) => `Failed job ${id} is already resolved.`,
  resolved: (id: number) => `Failed job ${id} marked resolved successfully.`,
};
