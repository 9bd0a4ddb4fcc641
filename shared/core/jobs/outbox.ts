import { is, Param, Placeholder, sql } from 'drizzle-orm';
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

/** What the public booking path writes; every column is a parameter of one prepared statement. */
export type NewBooking = Required<
  Pick<
    typeof bookings.$inferInsert,
    | 'therapistId' | 'serviceId' | 'bookingDate' | 'bookingTimeSlotStart' | 'bookingType' | 'locationId'
    | 'clientFullName' | 'clientEmail' | 'clientMobile' | 'clientAge' | 'clientState' | 'clientCity' | 'clientNote'
    | 'sessionType' | 'termsAccepted' | 'paymentStatus' | 'paymentHoldExpiresAt' | 'paymentTransactionId'
    | 'amountPaise' | 'adminConfirmed' | 'createdByAdminId'
  >
>;
const NEW_BOOKING_KEYS = [
  'therapistId', 'serviceId', 'bookingDate', 'bookingTimeSlotStart', 'bookingType', 'locationId',
  'clientFullName', 'clientEmail', 'clientMobile', 'clientAge', 'clientState', 'clientCity', 'clientNote',
  'sessionType', 'termsAccepted', 'paymentStatus', 'paymentHoldExpiresAt', 'paymentTransactionId',
  'amountPaise', 'adminConfirmed', 'createdByAdminId',
] as const satisfies readonly (keyof NewBooking)[];

type BookingStatement = { text: string; params: unknown[] };
const bookingStatements = new WeakMap<Db, BookingStatement>();

/** The statement text is built once per database handle; PostgreSQL plans it once per connection. */
function bookingStatement(db: Db): BookingStatement {
  let s = bookingStatements.get(db);
  if (s) return s;
  const placeholders = Object.fromEntries(NEW_BOOKING_KEYS.map((k) => [k, sql.placeholder(k)])) as unknown as NewBooking;
  const insert = db.insert(bookings).values(placeholders).returning({ id: bookings.id }).toSQL();
  // set_config runs in the main query, before the statement's AFTER triggers fire (migration 0005).
  const text = `with b as (${insert.sql}),
    o as (
      insert into outbox (queue, job_name, job_id, payload, available_at)
      select x.queue, x.job_name, regexp_replace(x.job_id, '\\.0(\\.|$)', '.' || b.id || '\\1'),
             x.payload || jsonb_build_object('bookingId', b.id), coalesce(x.available_at, now())
      from b cross join jsonb_to_recordset($${insert.params.length + 1}::jsonb)
        as x(queue text, job_name text, job_id text, payload jsonb, available_at timestamptz)
      on conflict (queue, job_id) do nothing
    )
    select b.id, set_config('booking.catalog_notify', 'after_commit', true) from b`;
  s = { text, params: insert.params };
  bookingStatements.set(db, s);
  return s;
}

/** Drizzle's fillPlaceholders, but a null stays null (its timestamp encoder would call null.toISOString()). */
function fill(params: unknown[], values: Record<string, unknown>): unknown[] {
  return params.map((p) => {
    if (is(p, Placeholder)) return values[p.name];
    if (is(p, Param) && is(p.value, Placeholder)) {
      const v = values[p.value.name];
      return v === null || v === undefined ? null : p.encoder.mapToDriverValue(v);
    }
    return p;
  });
}

/**
 * Inserts a booking and its job intents in one statement: data-modifying CTEs commit together or not
 * at all, so this keeps the outbox guarantee in one round trip instead of a transaction's five (the
 * booking hot path). Intents are built for the sentinel booking id 0 (real ids start at 1) and the
 * statement rewrites that id in each job id and payload to the id the insert produced.
 *
 * The commit itself notifies nobody (see migration 0005): call announceBooking once it returns.
 */
export async function insertBookingWithIntents(
  db: Db,
  values: NewBooking,
  intentsFor: (bookingId: number) => JobIntent[],
): Promise<{ id: number; jobDueNow: boolean }> {
  const statement = bookingStatement(db);
  const intents = intentsFor(0);
  const rows = intents.map((i) => ({
    queue: queueOf(i.name),
    job_name: i.name,
    job_id: i.jobId,
    payload: i.payload,
    available_at: i.runAt?.toISOString() ?? null,
  }));
  const result = await db.$client.query<{ id: number }>({
    name: 'booking_insert',
    text: statement.text,
    values: [...fill(statement.params, values), JSON.stringify(rows)],
  });
  return { id: result.rows[0]!.id, jobDueNow: intents.some((i) => !i.runAt) };
}

type Announcement = { payloads: Set<string>; wakeRelay: boolean; sent: Promise<void> };
const gathering = new WeakMap<Db, Announcement>();

/**
 * Tells every process that a therapist's bookings changed (their read caches drop the offer) and,
 * when a job is due now, wakes the outbox relay; a lost announcement only delays the relay to its
 * next poll. Bookings answered in the same turn of the event loop share one notify-only transaction
 * (committing it need not wait for the disk), so under load it costs a round trip per turn, not per
 * booking. Resolves once the announcement is sent.
 */
export function announceBooking(db: Db, therapistId: number, wakeRelay: boolean): Promise<void> {
  let batch = gathering.get(db);
  if (!batch) {
    const next: Announcement = { payloads: new Set(), wakeRelay: false, sent: Promise.resolve() };
    next.sent = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      gathering.delete(db);
      const payloads = [...next.payloads];
      const channels = payloads.map(() => 'catalog_changed');
      if (next.wakeRelay) {
        channels.push('outbox');
        payloads.push('');
      }
      await db.$client.query({
        name: 'booking_announce',
        text: `select set_config('synchronous_commit', 'off', true), pg_notify(n.channel, n.payload)
               from unnest($1::text[], $2::text[]) as n(channel, payload)`,
        values: [channels, payloads],
      });
    });
    gathering.set(db, (batch = next));
  }
  batch.payloads.add(`therapist:${therapistId}`);
  batch.wakeRelay ||= wakeRelay;
  return batch.sent;
}
