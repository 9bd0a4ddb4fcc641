import { z } from 'zod';
import { pagedSchema, pagingFields, type Paged } from './admin.ts';

/**
 * Jobs that failed for good (their last attempt failed, or the outbox relay could not queue them):
 * each leaves one row an admin sees on the dashboard, until someone marks it resolved.
 */

/** GET /api/admin/job-failures: open ones first, newest first; ?page= and ?page_size= as the other lists. */
export const jobFailuresQuerySchema = z.strictObject(pagingFields);
export type JobFailuresQuery = z.output<typeof jobFailuresQuerySchema>;

export const jobFailureSchema = z.strictObject({
  id: z.number().int(),
  queue: z.string(),
  job_name: z.string(),
  job_id: z.string(),
  booking_id: z.number().int().nullable(),
  /** What failed, in words, with no client's personal data: "Meeting link failed for booking 123". */
  summary: z.string(),
  failed_at: z.string(),
  attempts: z.number().int(),
  resolved_at: z.string().nullable(),
  /** Who marked it resolved; null while open, or when a later retry of the job succeeded. */
  resolved_by: z.string().nullable(),
});
export type JobFailureDto = z.infer<typeof jobFailureSchema>;

/** One page of the list, and how many are open in all (the dashboard's badge). */
export const jobFailuresPageSchema = pagedSchema(jobFailureSchema).extend({ open: z.number().int() });
export type JobFailuresPage = z.infer<typeof jobFailuresPageSchema> & Paged<JobFailureDto>;

export const resolveJobFailureResponseSchema = z.strictObject({ item: jobFailureSchema, message: z.string() });
export type ResolveJobFailureResponse = z.infer<typeof resolveJobFailureResponseSchema>;

export const JOB_FAILURE_MESSAGES = {
  notFound: (id: number) => `Failed job ${id} was not found.`,
  alreadyResolved: (id: number) => `Failed job ${id} is already resolved.`,
  resolved: (id: number) => `Failed job ${id} marked resolved successfully.`,
};
