import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { bookings, outbox } from '../db/schema.ts';
import { jobIds, queueOf, type JobName, type JobPayload } from './jobs.ts';

/** A drizzle transaction, or the database itself when the caller needs no surrounding transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

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

/**
 * Writes job intents into the outbox inside the caller's transaction: they exist exactly when the
 * change that needs them commits. The same job id twice is a no-op.
 */
export async function enqueueInTx(tx: DbOrTx, intents: readonly JobIntent[]): Promise<void> {
  if (intents.length === 0) return;
  await tx
    .insert(outbox)
    .values(
      intents.map((i) => ({
        queue: queueOf(i.name),
        jobName: i.name,
        jobId: i.jobId,
        payload: i.payload,
        availableAt: i.runAt ?? sql`now()`,
      })),
    )
    .onConflictDoNothing({ target: [outbox.queue, outbox.jobId] });
  // Wakes a listening relay at commit; polling covers a relay that is not listening.
  await tx.execute(sql`select pg_notify('outbox', '')`);
}

export type ConfirmedBooking = {
  id: number;
  bookingType: 'ONLINE' | 'OFFLINE' | 'ADMIN_BLOCK';
  bookingDate: string;
  bookingTimeSlotStart: string;
  googleMeetLink: string | null;
};

/** The instant a session starts: the booking's wall-clock time at the centre (IST has no DST). */
export function sessionStart(b: Pick<ConfirmedBooking, 'bookingDate' | 'bookingTimeSlotStart'>): Date {
  return new Date(`${b.bookingDate}T${b.bookingTimeSlotStart.slice(0, 5)}:00+05:30`);
}

/** The confirmation e-mails and the 24-hour reminder (skipped when the session is less than 24 hours away). */
export function mailIntents(b: Pick<ConfirmedBooking, 'id' | 'bookingDate' | 'bookingTimeSlotStart'>, now: Date): JobIntent[] {
  const intents: JobIntent[] = [
    intent('mail.booking-confirmation', jobIds.confirmationMail(b.id, 'client'), { bookingId: b.id, recipient: 'client' }),
    intent('mail.booking-confirmation', jobIds.confirmationMail(b.id, 'therapist'), { bookingId: b.id, recipient: 'therapist' }),
  ];
  const remindAt = new Date(sessionStart(b).getTime() - 24 * 3600_000);
  if (remindAt.getTime() > now.getTime()) intents.push(intent('mail.booking-reminder', jobIds.reminderMail(b.id), { bookingId: b.id }, remindAt));
  return intents;
}

/**
 * What a confirmed booking (paid online, offline PENDING, or admin-confirmed) needs next. Online
 * sessions get their meeting link first; that job then writes the e-mails, which carry the link.
 * The admin-booking path calls this and enqueueInTx in the transaction that writes the booking.
 */
export function intentsForConfirmedBooking(b: ConfirmedBooking, now: Date): JobIntent[] {
  if (b.bookingType === 'ADMIN_BLOCK') return [];
  if (b.bookingType === 'ONLINE' && !b.googleMeetLink) return [intent('meetings.create', jobIds.meeting(b.id), { bookingId: b.id })];
  return mailIntents(b, now);
}

/**
 * Inserts a booking and its job intents in one statement: data-modifying CTEs commit together or not
 * at all, so this keeps the outbox guarantee in one round trip instead of a transaction's five (the
 * booking hot path). Intents are built for the sentinel booking id 0 (real ids start at 1) and the
 * statement rewrites that id in each job id and payload to the id the insert produced.
 */
export async function insertBookingWithIntents(
  db: Db,
  values: typeof bookings.$inferInsert,
  intentsFor: (bookingId: number) => JobIntent[],
): Promise<number> {
  const insert = db.insert(bookings).values(values).returning({ id: bookings.id }).toSQL();
  const intents = intentsFor(0).map((i) => ({
    queue: queueOf(i.name),
    job_name: i.name,
    job_id: i.jobId,
    payload: i.payload,
    available_at: i.runAt?.toISOString() ?? null,
  }));
  const text = `with b as (${insert.sql}),
    o as (
      insert into outbox (queue, job_name, job_id, payload, available_at)
      select x.queue, x.job_name, regexp_replace(x.job_id, '\\.0(\\.|$)', '.' || b.id || '\\1'),
             x.payload || jsonb_build_object('bookingId', b.id), coalesce(x.available_at, now())
      from b cross join jsonb_to_recordset($${insert.params.length + 1}::jsonb)
        as x(queue text, job_name text, job_id text, payload jsonb, available_at timestamptz)
      on conflict (queue, job_id) do nothing
    )
    select b.id, pg_notify('outbox', '') from b`;
  const result = await db.$client.query<{ id: number }>(text, [...insert.params, JSON.stringify(intents)]);
  return result.rows[0]!.id;
}
