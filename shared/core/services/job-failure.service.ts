import {
  JOB_FAILURE_MESSAGES as JM,
  type JobFailureDto,
  type JobFailuresPage,
  type JobFailuresQuery,
  type ResolveJobFailureResponse,
} from '../../contract/job-failures.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import {
  findJobFailureForUpdate,
  getJobFailure,
  listJobFailures,
  markJobFailureResolved,
  type JobFailureListRow,
  type JobFailureRow,
} from '../repositories/job-failure.repository.ts';
import { pageOrFirst } from './paging.ts';

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
