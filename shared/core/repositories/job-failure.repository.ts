import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { adminUsers, jobFailures } from '../db/schema.ts';

export type JobFailureRow = typeof jobFailures.$inferSelect;
export type JobFailureListRow = JobFailureRow & { resolvedByUsername: string | null };

type NewJobFailure = Pick<typeof jobFailures.$inferInsert, 'queue' | 'jobName' | 'jobId' | 'bookingId' | 'summary' | 'failedAt' | 'attempts'>;

/**
 * Records a job that failed for good: one row per queue and job id. `reopen`: a row already there
 * (resolved, or open) takes this failure's time and attempts and is open again, for a job that was
 * retried and failed for good once more; otherwise an existing row is left as it is (the relay
 * noticing the same unqueueable row on every pass). Answers whether a row was written.
 */
export async function recordJobFailure(db: DbOrTx, f: NewJobFailure, reopen: boolean): Promise<boolean> {
  const insert = db.insert(jobFailures).values(f);
  const written = reopen
    ? await insert
        .onConflictDoUpdate({
          target: [jobFailures.queue, jobFailures.jobId],
          set: { summary: f.summary, failedAt: f.failedAt, attempts: f.attempts, bookingId: f.bookingId, resolvedAt: null, resolvedByAdminId: null },
        })
        .returning({ id: jobFailures.id })
    : await insert.onConflictDoNothing({ target: [jobFailures.queue, jobFailures.jobId] }).returning({ id: jobFailures.id });
  return written.length > 0;
}

/** A later run of the job succeeded (a retry from the queues): its open row is resolved, by nobody. */
export async function resolveJobFailureBySuccess(db: DbOrTx, queue: string, jobId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(jobFailures)
    .set({ resolvedAt: at })
    .where(and(eq(jobFailures.queue, queue), eq(jobFailures.jobId, jobId), isNull(jobFailures.resolvedAt)))
    .returning({ id: jobFailures.id });
  return rows.length > 0;
}

const listColumns = { failure: jobFailures, resolvedByUsername: adminUsers.username };
const toListRow = (r: { failure: JobFailureRow; resolvedByUsername: string | null }): JobFailureListRow => ({
  ...r.failure,
  resolvedByUsername: r.resolvedByUsername,
});

/** One page: open ones first, newest first (job_failures_list_idx); how many there are, and how many open. */
export async function listJobFailures(db: Db, limit: number, offset: number): Promise<{ rows: JobFailureListRow[]; total: number; open: number }> {
  const [rows, [totals]] = await Promise.all([
    db
      .select(listColumns)
      .from(jobFailures)
      .leftJoin(adminUsers, eq(adminUsers.id, jobFailures.resolvedByAdminId))
      .orderBy(sql`(${jobFailures.resolvedAt} is null) desc`, desc(jobFailures.failedAt), desc(jobFailures.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count(), open: sql<number>`count(*) filter (where ${jobFailures.resolvedAt} is null)::int` }).from(jobFailures),
  ]);
  return { rows: rows.map(toListRow), total: totals!.total, open: totals!.open };
}

export async function getJobFailure(db: DbOrTx, id: number): Promise<JobFailureListRow | undefined> {
  const [row] = await db
    .select(listColumns)
    .from(jobFailures)
    .leftJoin(adminUsers, eq(adminUsers.id, jobFailures.resolvedByAdminId))
    .where(eq(jobFailures.id, id));
  return row ? toListRow(row) : undefined;
}

/** The row, locked until the transaction ends: two admins resolving it at once resolve it once. */
export async function findJobFailureForUpdate(tx: DbOrTx, id: number): Promise<JobFailureRow | undefined> {
  const [row] = await tx.select().from(jobFailures).where(eq(jobFailures.id, id)).for('update');
  return row;
}

export async function markJobFailureResolved(tx: DbOrTx, id: number, at: Date, adminId: number): Promise<JobFailureRow> {
  const [row] = await tx.update(jobFailures).set({ resolvedAt: at, resolvedByAdminId: adminId }).where(eq(jobFailures.id, id)).returning();
  return row!;
}
