import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { QueryConfig } from 'pg';
import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import { jobIds, queueOf, type JobName, type JobPayload } from './jobs.ts';
import { centreInstant } from '../../domain/time.ts';

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
 * change that needs them commits. The same job id twice is a no-op. A job due at once is stamped with
 * `now`, the app's clock, as its later ones are: the relay measures every delay on that clock.
 */
export async function enqueueInTx(tx: DbOrTx, intents: readonly JobIntent[], now: Date): Promise<void> {
  if (intents.length === 0) return;
  await tx
    .insert(outbox)
    .values(
      intents.map((i) => ({
        queue: queueOf(i.name),
        jobName: i.name,
        jobId: i.jobId,
        payload: i.payload,
        availableAt: i.runAt ?? now,
      })),
    )
    .onConflictDoNothing({ target: [outbox.queue, outbox.jobId] });
  // Wakes a listening relay at commit; polling covers a relay that is not listening.
  await tx.execute(sql`select pg_notify('outbox', '')`);
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

export type ConfirmedBooking = {
  id: number;
  bookingType: 'ONLINE' | 'OFFLINE' | 'ADMIN_BLOCK';
  bookingDate: string;
  bookingTimeSlotStart: string;
  googleMeetLink: string | null;
};

/** The instant a session starts: the booking's wall-clock time at the centre (IST has no DST). */
export function sessionStart(b: Pick<ConfirmedBooking, 'bookingDate' | 'bookingTimeSlotStart'>): Date {
  return centreInstant(b.bookingDate, b.bookingTimeSlotStart);
}

/**
 * The 24-hour reminder of a session (none when it is less than 24 hours away). Its id and payload carry
 * the session's start: a session moved later gets a reminder of its own, and the reminder job skips a
 * booking whose start is no longer the one it was scheduled for.
 */
export function reminderIntents(b: Pick<ConfirmedBooking, 'id' | 'bookingDate' | 'bookingTimeSlotStart'>, now: Date): JobIntent[] {
  const start = sessionStart(b);
  const remindAt = new Date(start.getTime() - 24 * 3600_000);
  if (remindAt.getTime() <= now.getTime()) return [];
  return [intent('mail.booking-reminder', jobIds.reminderMail(b.id, start), { bookingId: b.id, sessionStartsAt: start.toISOString() }, remindAt)];
}

/** The confirmation e-mails and the 24-hour reminder (skipped when the session is less than 24 hours away). */
export function mailIntents(b: Pick<ConfirmedBooking, 'id' | 'bookingDate' | 'bookingTimeSlotStart'>, now: Date): JobIntent[] {
  return [
    intent('mail.booking-confirmation', jobIds.confirmationMail(b.id, 'client'), { bookingId: b.id, recipient: 'client' }),
    intent('mail.booking-confirmation', jobIds.confirmationMail(b.id, 'therapist'), { bookingId: b.id, recipient: 'therapist' }),
    ...reminderIntents(b, now),
  ];
}

/**
 * What a change the client made themselves needs (issue 21): the client and the therapist each get an
 * e-mail with the calendar update (SEQUENCE `sequence`), the meeting follows the session, and a moved
 * session gets its new reminder (the old one skips itself). `from` is where a moved session was.
 */
export function intentsForClientChange(
  b: Pick<ConfirmedBooking, 'id' | 'bookingType' | 'bookingDate' | 'bookingTimeSlotStart'>,
  change: 'moved' | 'cancelled',
  sequence: number,
  now: Date,
  from?: { date: string; time: string },
): JobIntent[] {
  const mail = (recipient: 'client' | 'therapist') =>
    intent('mail.booking-changed', jobIds.changeMail(b.id, sequence, recipient), { bookingId: b.id, recipient, change, sequence, ...(from ? { from } : {}) });
  return [
    mail('client'),
    mail('therapist'),
    ...(b.bookingType === 'ONLINE' ? [intent('meetings.update', jobIds.meetingUpdate(b.id, sequence), { bookingId: b.id, sequence })] : []),
    ...(change === 'moved' ? reminderIntents(b, now) : []),
  ];
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
 * How long an announcement may take before it is given up (it takes milliseconds). Its bookings are
 * committed and answered after it, so a connection that stalls must not hold them, nor every
 * announcement gathered behind it.
 */
const ANNOUNCE_TIMEOUT_MS = 3_000;

type Announcement = { payloads: Set<string>; wakeRelay: boolean; sent: Promise<void>; settle: (err?: Error) => void };
/** Per database handle: the batch being gathered, and whether one is on its way. */
type Announcer = { gathering: Announcement | undefined; sending: boolean };
const announcers = new WeakMap<Db, Announcer>();

/**
 * Tells every process that a therapist's bookings changed (their read caches drop the offer) and,
 * when a job is due now, wakes the outbox relay; a lost announcement only delays the relay to its
 * next poll. Announcements share one notify-only transaction (committing it need not wait for the
 * disk): those made in the same turn of the event loop, and, while one is on its way, all made until
 * it is answered. Under load that is one round trip per round trip, not per booking. Resolves once
 * the announcement is sent.
 */
export function announceBooking(db: Db, therapistId: number, wakeRelay: boolean): Promise<void> {
  let announcer = announcers.get(db);
  if (!announcer) announcers.set(db, (announcer = { gathering: undefined, sending: false }));
  let batch = announcer.gathering;
  if (!batch) {
    let settle!: (err?: Error) => void;
    const sent = new Promise<void>((resolve, reject) => {
      settle = (err) => (err ? reject(err) : resolve());
    });
    announcer.gathering = batch = { payloads: new Set(), wakeRelay: false, sent, settle };
    if (!announcer.sending) scheduleAnnouncement(db, announcer);
  }
  batch.payloads.add(`therapist:${therapistId}`);
  batch.wakeRelay ||= wakeRelay;
  return batch.sent;
}

function scheduleAnnouncement(db: Db, announcer: Announcer): void {
  setImmediate(() => {
    const batch = announcer.gathering;
    if (!batch) return;
    announcer.gathering = undefined;
    announcer.sending = true;
    const payloads = [...batch.payloads];
    const channels = payloads.map(() => 'catalog_changed');
    if (batch.wakeRelay) {
      channels.push('outbox');
      payloads.push('');
    }
    // query_timeout is pg's own (not in its types): it fails the query and the pool destroys the connection.
    const query = {
      name: 'booking_announce',
      text: `select set_config('synchronous_commit', 'off', true), pg_notify(n.channel, n.payload)
             from unnest($1::text[], $2::text[]) as n(channel, payload)`,
      values: [channels, payloads],
      query_timeout: ANNOUNCE_TIMEOUT_MS,
    };
    db.$client
      .query(query as QueryConfig)
      .then(
        () => batch.settle(),
        (err: Error) => batch.settle(err),
      )
      .finally(() => {
        announcer.sending = false;
        if (announcer.gathering) scheduleAnnouncement(db, announcer);
      });
  });
}
