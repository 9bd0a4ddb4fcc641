import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { recordset } from '../db/recordset.ts';
import { outbox } from '../db/schema.ts';
import { fillBookingJobId, queueOf, type BookingJobId, type JobName, type JobPayload } from './jobs.ts';

/**
 * The transactional outbox: job intents written in the transaction of the change that needs them, and
 * the worker's record of finishing them. Which jobs a booking needs is decided in
 * services/booking-followups.service.ts; the relay to BullMQ is outbox.relay.ts.
 */

export type JobIntent<N extends JobName = JobName> = {
  name: N;
  jobId: string;
  payload: JobPayload<N>;
  /** Run no earlier than this instant (a BullMQ delayed job). */
  runAt?: Date;
};

export function intent<N extends JobName>(name: N, jobId: string, payload: JobPayload<N>, runAt?: Date): JobIntent<N> {
  return runAt ? { name, jobId, payload, runAt } : { name, jobId, payload };
}

/** A booking's job: its payload is the booking id and more. */
type BookingJobName = { [N in JobName]: JobPayload<N> extends { bookingId: number } ? N : never }[JobName];

/**
 * A booking's job decided before the booking has an id: the booking batcher writes it in the statement
 * that inserts the booking, putting the new id between `idParts` and into the payload. intentFor makes
 * the same job for a booking that has its id.
 */
export type BookingJobTemplate<N extends BookingJobName = BookingJobName> = {
  name: N;
  idParts: BookingJobId;
  /** The payload without bookingId. */
  payload: Omit<JobPayload<N>, 'bookingId'>;
  /** Run no earlier than this instant. */
  runAt?: Date;
};

export function bookingJob<N extends BookingJobName>(
  name: N,
  idParts: BookingJobId,
  payload: Omit<JobPayload<N>, 'bookingId'>,
  runAt?: Date,
): BookingJobTemplate<N> {
  return runAt ? { name, idParts, payload, runAt } : { name, idParts, payload };
}

/** The job a template makes for the booking `bookingId`. */
export function intentFor(t: BookingJobTemplate, bookingId: number): JobIntent {
  return intent(t.name, fillBookingJobId(t.idParts, bookingId), { bookingId, ...t.payload } as JobPayload<BookingJobName>, t.runAt);
}

/**
 * Writes job intents into the outbox inside the caller's transaction: they exist exactly when the
 * change that needs them commits. The same job id twice is a no-op. A job due at once is stamped with
 * `now`, the app's clock, as its later ones are: the relay measures every delay on that clock.
 */
export async function enqueueInTx(tx: DbOrTx, intents: readonly JobIntent[], now: Date): Promise<void> {
  if (intents.length === 0) return;
  const { columns, json } = recordset(
    outbox,
    intents.map((i) => ({ queue: queueOf(i.name), jobName: i.name, jobId: i.jobId, payload: i.payload, availableAt: i.runAt ?? now })),
  );
  // Wakes a listening relay at commit; polling covers a relay that is not listening. In the insert's
  // statement: one round trip, not two, on every write that queues a job.
  await tx.execute(sql`
    with queued as (
      insert into outbox (${columns}) select ${columns} from jsonb_populate_recordset(null::outbox, ${json}::jsonb)
      on conflict (queue, job_id) do nothing)
    select pg_notify('outbox', '')`);
}

/**
 * The worker finished the job `jobId` of `queue`: if an outbox row made it, that row is done for
 * good, so a Redis that loses its data never gets it back. A job no row made (the API's payment
 * link, hold expiry, the schedulers) matches nothing. Answers whether a row was marked.
 */
export async function markOutboxCompleted(db: DbOrTx, queue: string, jobId: string): Promise<boolean> {
  const marked = await db
    .update(outbox)
    .set({ completedAt: sql`now()` })
    .where(and(eq(outbox.queue, queue), eq(outbox.jobId, jobId), isNull(outbox.completedAt)))
    .returning({ id: outbox.id });
  return marked.length > 0;
}

/**
 * How far back a job that was handed to Redis and never finished is handed over again after Redis
 * lost its data. Jobs due in the future (reminders) always are; a job due this long ago and not done
 * has failed for good or belongs to a row older than completed_at (migration 0007 left those null).
 * Kept below the 14 days BullMQ keeps completed jobs (DEFAULT_JOB_OPTIONS), so on the first start
 * after that migration a finished job inside the window is still in Redis and re-adding it is a no-op.
 */
export const REDISPATCH_WINDOW_MS = 7 * 24 * 3600_000;

/**
 * Redis lost its data: every intent handed to it and not finished is pending again, and the relays
 * are woken. They re-add each under its own job id, so running this twice (two workers noticing the
 * loss together) still makes one job each, and a job still in Redis is not added again. Answers how
 * many rows were handed back.
 */
export async function redispatchUnfinished(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(outbox)
      .set({ dispatchedAt: null })
      .where(and(isNotNull(outbox.dispatchedAt), isNull(outbox.completedAt), gt(outbox.availableAt, new Date(now.getTime() - REDISPATCH_WINDOW_MS))))
      .returning({ id: outbox.id });
    if (rows.length > 0) await tx.execute(sql`select pg_notify('outbox', '')`);
    return rows.length;
  });
}
