import { createHash } from 'node:crypto';
import { and, eq, getTableColumns, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import pg from '../db/pg-types.ts';
import { queueOf } from '../jobs/jobs.ts';
import type { DbOrTx, JobIntent } from '../jobs/outbox.ts';
import { bookings, locations, therapists } from '../db/schema.ts';
import { LIVE_BOOKING_SQL } from './live-booking.ts';

export type BookingRow = typeof bookings.$inferSelect;

export type BookingView = BookingRow & {
  therapistName: string;
  therapistEmail: string | null;
  locationName: string | null;
  locationAddress: string | null;
};

const viewColumns = {
  booking: bookings,
  therapistName: therapists.name,
  therapistEmails: therapists.emails,
  locationName: locations.name,
  locationAddress: locations.address,
};

type Joined = { booking: BookingRow; therapistName: string; therapistEmails: string[]; locationName: string | null; locationAddress: string | null };

function toView(r: Joined): BookingView {
  return {
    ...r.booking,
    therapistName: r.therapistName,
    therapistEmail: r.therapistEmails[0] ?? null,
    locationName: r.locationName,
    locationAddress: r.locationAddress,
  };
}

export async function getBooking(db: DbOrTx, id: number): Promise<BookingRow | undefined> {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  return row;
}

export async function getBookingView(db: DbOrTx, id: number): Promise<BookingView | undefined> {
  const [row] = await db
    .select(viewColumns)
    .from(bookings)
    .innerJoin(therapists, eq(therapists.id, bookings.therapistId))
    .leftJoin(locations, eq(locations.id, bookings.locationId))
    .where(eq(bookings.id, id));
  return row ? toView(row) : undefined;
}

/**
 * The confirmation page knows a booking by an unguessable reference only: its payment link id
 * (online) or its payment transaction id (offline). Sequential booking ids would expose clients.
 */
export async function findBookingByPublicRef(db: DbOrTx, ref: string): Promise<BookingView | undefined> {
  const [row] = await db
    .select(viewColumns)
    .from(bookings)
    .innerJoin(therapists, eq(therapists.id, bookings.therapistId))
    .leftJoin(locations, eq(locations.id, bookings.locationId))
    .where(or(eq(bookings.razorpayPaymentLinkId, ref), eq(bookings.paymentTransactionId, ref)))
    .limit(1);
  return row ? toView(row) : undefined;
}

/** The booking a client's idempotency key (payment_transaction_id) made, if any: the key is unique. */
export async function findBookingByTransactionId(db: DbOrTx, transactionId: string): Promise<BookingRow | undefined> {
  const [row] = await db.select().from(bookings).where(eq(bookings.paymentTransactionId, transactionId));
  return row;
}

/**
 * The same, and whether it was made in the last `minutes` by PostgreSQL's clock (the one that stamped
 * created_at, so a test's pinned app clock cannot skew it).
 */
export async function findRecentBookingByTransactionId(
  db: DbOrTx,
  transactionId: string,
  minutes: number,
): Promise<{ booking: BookingRow; recent: boolean } | undefined> {
  const [row] = await db
    .select({ booking: bookings, recent: sql<boolean>`${bookings.createdAt} > now() - make_interval(mins => ${minutes})` })
    .from(bookings)
    .where(eq(bookings.paymentTransactionId, transactionId));
  return row;
}

/** Sets a booking's token hash (a replay after the server's secret changed). */
export async function setBookingTokenHash(db: DbOrTx, id: number, hash: string, now: Date): Promise<void> {
  await db.update(bookings).set({ bookingTokenHash: hash, updatedAt: now }).where(eq(bookings.id, id));
}

/** What a new booking writes from the request; its price comes from the therapist, in the statement. */
export type NewBooking = Required<
  Pick<
    typeof bookings.$inferInsert,
    | 'therapistId' | 'serviceId' | 'bookingDate' | 'bookingTimeSlotStart' | 'bookingType' | 'locationId'
    | 'clientFullName' | 'clientEmail' | 'clientMobile' | 'clientAge' | 'clientState' | 'clientCity' | 'clientNote'
    | 'sessionType' | 'termsAccepted' | 'paymentStatus' | 'paymentHoldExpiresAt' | 'paymentTransactionId'
    | 'adminConfirmed' | 'createdByAdminId' | 'bookingTokenHash' | 'clientAddressHash'
    | 'whatsappOptInAt' | 'whatsappConsentText'
  >
>;
const NEW_BOOKING_KEYS = [
  'therapistId', 'serviceId', 'bookingDate', 'bookingTimeSlotStart', 'bookingType', 'locationId',
  'clientFullName', 'clientEmail', 'clientMobile', 'clientAge', 'clientState', 'clientCity', 'clientNote',
  'sessionType', 'termsAccepted', 'paymentStatus', 'paymentHoldExpiresAt', 'paymentTransactionId',
  'adminConfirmed', 'createdByAdminId', 'bookingTokenHash', 'clientAddressHash',
  // The WhatsApp consent rides in the same row of the batch: no statement of its own.
  'whatsappOptInAt', 'whatsappConsentText',
] as const satisfies readonly (keyof NewBooking)[];
const columns = getTableColumns(bookings);

/**
 * Why a booking was not written: the therapist is missing or inactive, offers the other session type,
 * works elsewhere, the slot is not on their template (or blocked by the centre), the service does not
 * exist, or the slot is already live for someone else.
 */
export type BookingRefusal = 'therapist' | 'therapist_type' | 'location' | 'slot' | 'service' | 'taken' | 'holds_client' | 'holds_address';

/**
 * The abuse limits on a public online booking (an unpaid hold): at most `perClient` live holds per
 * e-mail and per mobile, at most `perAddress` new unpaid holds from one client address in
 * HOLD_ADDRESS_WINDOW_MINUTES. 0 turns a limit off.
 */
export type HoldLimits = { perClient: number; perAddress: number };
export const HOLD_ADDRESS_WINDOW_MINUTES = 10;
const THERAPIST_TYPE = { ONLINE: 1, OFFLINE: 2 } as const;

/** One booking of a batch as the statement reads it: `n` is its place in the batch. */
const BATCH_COLUMNS = [
  'n int',
  ...NEW_BOOKING_KEYS.map((k) => `${columns[k].name} ${columns[k].getSQLType()}`),
  'therapist_type smallint',
  'intents jsonb',
  'asked_at timestamptz',
  'hold_limit_client int',
  'hold_limit_address int',
].join(', ');
const INSERTED = NEW_BOOKING_KEYS.map((k) => columns[k].name);

/**
 * The booking hot path: a batch of bookings written by one statement (prepared once per connection).
 * Per booking it checks the therapist, the template and the service, inserts the rows that pass
 * (priced from the therapist) and writes their job intents. ON CONFLICT on the live-slot index (the
 * rule that keeps a therapist from being double-booked) turns a slot taken by another booking, in
 * this batch or committed, into a refusal rather than an error that would fail the whole batch; of
 * two in a batch asking for one slot, the first asked gets it. Data-modifying CTEs commit together or
 * not at all, so the outbox guarantee holds without a transaction's extra round trips.
 *
 * Intents are built for the sentinel booking id 0 (real ids start at 1); the statement rewrites it in
 * each job id and payload to the id the insert produced. ctx sets booking.catalog_notify before any
 * row is written, so the insert trigger's WHEN skips them: the commit notifies nobody (migrations 0005
 * and 0006), so call announceBooking once this returns.
 */
const BOOKING_INSERT = `with input as (
    select * from jsonb_to_recordset($1::jsonb) as x(${BATCH_COLUMNS})
  ),
  -- The client's live holds and the address's recent unpaid holds, with those asked earlier in this
  -- batch; only for rows with limits (a batch with limits runs after advisory locks on its clients and
  -- addresses, so the counts cannot race). address_retry: seconds until the address may hold one more.
  holds as (
    select i.n,
      case when i.hold_limit_client > 0 then greatest(
        (select count(*) from bookings x where x.payment_status = 'INITIATED' and not x.cancelled and x.booking_type = 'ONLINE'
           and x.created_by_admin_id is null and x.payment_hold_expires_at > i.asked_at and x.client_email = i.client_email)
          + count(*) filter (where i.hold_limit_client > 0) over (partition by i.client_email order by i.n),
        (select count(*) from bookings x where x.payment_status = 'INITIATED' and not x.cancelled and x.booking_type = 'ONLINE'
           and x.created_by_admin_id is null and x.payment_hold_expires_at > i.asked_at and x.client_mobile = i.client_mobile)
          + count(*) filter (where i.hold_limit_client > 0) over (partition by i.client_mobile order by i.n))
      end as client_holds,
      case when i.hold_limit_address > 0 then
        (select count(*) from bookings x where x.client_address_hash = i.client_address_hash
           and x.created_at > now() - interval '${HOLD_ADDRESS_WINDOW_MINUTES} minutes' and x.payment_status <> 'COMPLETED')
          + count(*) filter (where i.hold_limit_address > 0) over (partition by i.client_address_hash order by i.n)
      end as address_holds,
      case when i.hold_limit_address > 0 then
        (select ceil(extract(epoch from min(x.created_at) + interval '${HOLD_ADDRESS_WINDOW_MINUTES} minutes' - now()))::int from bookings x
          where x.client_address_hash = i.client_address_hash
            and x.created_at > now() - interval '${HOLD_ADDRESS_WINDOW_MINUTES} minutes' and x.payment_status <> 'COMPLETED')
      end as address_retry
    from input i
  ),
  ctx as (
    select i.*, t.price_paise, set_config('booking.catalog_notify', 'after_commit', true) as announced_after_commit,
      case
        when t.id is null then 'therapist'
        when t.type <> i.therapist_type then 'therapist_type'
        when i.location_id is not null and t.location_id is distinct from i.location_id then 'location'
        when not coalesce(s.is_available, false) or coalesce(s.admin_blocked, false) then 'slot'
        -- Weekly hours, centre holidays and the therapist's time off (migration 0011).
        when not (extract(dow from i.booking_date)::smallint = any(s.weekdays)) then 'slot'
        when exists (select 1 from centre_holidays ch where ch.holiday_date = i.booking_date)
          or exists (select 1 from therapist_time_off o where o.therapist_id = t.id and i.booking_date between o.from_date and o.to_date) then 'slot'
        when i.service_id is not null and not exists (select 1 from services v where v.id = i.service_id) then 'service'
        when h.client_holds > i.hold_limit_client then 'holds_client'
        when h.address_holds > i.hold_limit_address then 'holds_address'
      end as refusal,
      -- Only the address's wait: when a client's own hold ends would tell a stranger probing with
      -- someone's e-mail or mobile when that person booked.
      case when h.address_holds > i.hold_limit_address then h.address_retry end as retry_after
    from input i
    join holds h on h.n = i.n
    left join therapists t on t.id = i.therapist_id and t.is_active
    left join availability_slots s on s.therapist_id = t.id and s.start_time = i.booking_time_slot_start
  ),
  b as (
    insert into bookings (${INSERTED.join(', ')}, amount_paise)
    -- Never the client's figure: the therapist's price as the centre set it (none set books 0).
    select ${INSERTED.map((c) => `ctx.${c}`).join(', ')}, coalesce(ctx.price_paise, 0)
    from ctx where ctx.refusal is null
    -- Every statement takes the slots in one order, so two batches never wait for each other in a circle.
    order by ctx.therapist_id, ctx.booking_date, ctx.booking_time_slot_start, ctx.n
    on conflict (therapist_id, booking_date, booking_time_slot_start)
      where ${LIVE_BOOKING_SQL}
    do nothing
    returning id, therapist_id, booking_date, booking_time_slot_start
  ),
  -- Which booking of the batch each row is: of two asking for the same slot, the first was inserted.
  w as (
    select distinct on (b.id) b.id, ctx.n
    from b join ctx using (therapist_id, booking_date, booking_time_slot_start)
    where ctx.refusal is null
    order by b.id, ctx.n
  ),
  o as (
    insert into outbox (queue, job_name, job_id, payload, available_at)
    select x.queue, x.job_name, regexp_replace(x.job_id, '\\.0(\\.|$)', '.' || w.id || '\\1'),
           x.payload || jsonb_build_object('bookingId', w.id), coalesce(x.available_at, ctx.asked_at)
    from w join ctx on ctx.n = w.n
      cross join jsonb_to_recordset(ctx.intents) as x(queue text, job_name text, job_id text, payload jsonb, available_at timestamptz)
    on conflict (queue, job_id) do nothing
  )
  select ctx.n, coalesce(ctx.refusal, case when w.id is null then 'taken' end) as refusal, w.id, ctx.retry_after
  from ctx left join w on w.n = ctx.n`;

type Created = { id: number; jobDueNow: boolean } | { refusal: BookingRefusal; retryAfterSeconds?: number };
type Pending = {
  row: Record<string, unknown>;
  /** Advisory lock keys of the client and address a limited hold counts against; empty without limits. */
  lockKeys: bigint[];
  jobDueNow: boolean;
  resolve: (created: Created) => void;
  reject: (err: unknown) => void;
};

/** A 63-bit advisory lock key for one client e-mail, mobile or address (collisions only serialise two clients). */
function lockKey(kind: string, value: string): bigint {
  return BigInt.asIntN(64, createHash('sha256').update(`hold:${kind}:${value}`).digest().readBigInt64BE(0));
}

/** Per pool: the bookings waiting for a statement, and how many statements are on their way. */
type Writer = { waiting: Pending[]; scheduled: boolean; inFlight: number };
const writers = new WeakMap<pg.Pool, Writer>();
/** A batch's JSON stays small (about 600 bytes a booking) and its statement short. */
const MAX_BATCH = 64;
/**
 * Two, not one: a statement held up (waiting on another transaction's row for the same slot) does
 * not hold every booking behind it. More only spread the same bookings over smaller batches, each
 * with its own commit; on the bench's 2-core machine 1 and 2 measured alike, 4 slower.
 */
const MAX_IN_FLIGHT = 2;

/**
 * Checks and writes a new online or in-person booking with its job intents. Bookings asked for in the
 * same turn of the event loop, or while two statements are on their way, share one statement and one
 * commit: under load that is one round trip and one flush to disk for many bookings, and alone it is
 * the single statement it always was.
 */
export function insertBookingWithIntents(
  db: Db,
  values: NewBooking & { bookingType: 'ONLINE' | 'OFFLINE' },
  intentsFor: (bookingId: number) => JobIntent[],
  /** The app's clock when the booking was asked for: jobs due at once are stamped with it, and it decides which holds are live. */
  askedAt: Date,
  limits?: HoldLimits,
): Promise<Created> {
  const intents = intentsFor(0);
  const perClient = limits?.perClient ?? 0;
  const perAddress = values.clientAddressHash ? (limits?.perAddress ?? 0) : 0;
  const row: Record<string, unknown> = {
    therapist_type: THERAPIST_TYPE[values.bookingType],
    asked_at: askedAt.toISOString(),
    hold_limit_client: perClient,
    hold_limit_address: perAddress,
  };
  const lockKeys: bigint[] = [];
  if (perClient > 0) lockKeys.push(lockKey('email', values.clientEmail), lockKey('mobile', values.clientMobile));
  if (perAddress > 0) lockKeys.push(lockKey('address', values.clientAddressHash!));
  for (const k of NEW_BOOKING_KEYS) row[columns[k].name] = values[k] === null ? null : columns[k].mapToDriverValue(values[k]);
  row.intents = intents.map((i) => ({
    queue: queueOf(i.name),
    job_name: i.name,
    job_id: i.jobId,
    payload: i.payload,
    available_at: i.runAt?.toISOString() ?? null,
  }));
  const pool = db.$client;
  let writer = writers.get(pool);
  if (!writer) writers.set(pool, (writer = { waiting: [], scheduled: false, inFlight: 0 }));
  const w = writer;
  return new Promise((resolve, reject) => {
    w.waiting.push({ row, lockKeys, jobDueNow: intents.some((i) => !i.runAt), resolve, reject });
    schedule(pool, w);
  });
}

function schedule(pool: pg.Pool, w: Writer): void {
  if (w.scheduled || w.inFlight >= MAX_IN_FLIGHT || w.waiting.length === 0) return;
  w.scheduled = true;
  setImmediate(() => {
    w.scheduled = false;
    while (w.waiting.length && w.inFlight < MAX_IN_FLIGHT) {
      const batch = w.waiting.splice(0, MAX_BATCH);
      w.inFlight++;
      void writeBatch(pool, batch).finally(() => {
        w.inFlight--;
        schedule(pool, w);
      });
    }
  });
}

type InsertRow = { n: number; refusal: BookingRefusal | null; id: number | null; retry_after: number | null };

/**
 * The statement alone, or, when some booking of the batch counts against a hold limit, inside a
 * transaction that first takes an advisory lock per client and address (in one order, so two batches
 * never wait for each other in a circle): the counts the statement reads then include every hold
 * committed before, and no other batch for the same client can slip in between count and insert.
 */
async function runInsert(pool: pg.Pool, batch: Pending[]): Promise<InsertRow[]> {
  const query = { name: 'booking_insert', text: BOOKING_INSERT, values: [JSON.stringify(batch.map((p, n) => ({ n, ...p.row })))] };
  const keys = [...new Set(batch.flatMap((p) => p.lockKeys))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (keys.length === 0) return (await pool.query<InsertRow>(query)).rows;
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query({
      name: 'booking_hold_locks',
      text: 'select count(pg_advisory_xact_lock(k)) from (select k from unnest($1::bigint[]) as k order by k) as keys',
      values: [keys.map(String)],
    });
    const { rows } = await client.query<InsertRow>(query);
    await client.query('commit');
    return rows;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

async function writeBatch(pool: pg.Pool, batch: Pending[]): Promise<void> {
  try {
    const rows = await runInsert(pool, batch);
    // One row per booking: ctx joins only on unique keys, and w gives each inserted row one booking.
    for (const r of rows) {
      const p = batch[r.n]!;
      p.resolve(
        r.refusal
          ? { refusal: r.refusal, ...(r.retry_after !== null ? { retryAfterSeconds: Math.max(1, r.retry_after) } : {}) }
          : { id: r.id!, jobDueNow: p.jobDueNow },
      );
    }
  } catch (err) {
    // The server refused the statement, so nothing of it was written: one booking's bad value must not
    // fail the others, so each is tried alone. A lost connection may have committed: no second try.
    if (batch.length > 1 && err instanceof pg.DatabaseError) {
      await Promise.all(batch.map((p) => writeBatch(pool, [p])));
    } else {
      for (const p of batch) p.reject(err);
    }
  }
}

/**
 * Stores a booking's meeting link unless it has one already, and answers the link it holds now (the
 * first one stored wins, whichever run of the job made it).
 */
export async function storeMeetingLinkIfNone(tx: DbOrTx, bookingId: number, url: string, now: Date): Promise<string | null | undefined> {
  await tx.update(bookings).set({ googleMeetLink: url, updatedAt: now }).where(and(eq(bookings.id, bookingId), isNull(bookings.googleMeetLink)));
  const [stored] = await tx.select({ link: bookings.googleMeetLink }).from(bookings).where(eq(bookings.id, bookingId));
  return stored?.link;
}
