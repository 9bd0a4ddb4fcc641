import type { Db } from '../../db/client.ts';
import pg from '../../db/pg-types.ts';
import { getTableColumns } from 'drizzle-orm';
import type { SlotWindow } from '../../../domain/slots.ts';
import { THERAPIST_TYPE } from '../../../domain/therapist.ts';
import { bookings } from '../../db/schema.ts';
import { queueOf } from '../../jobs/jobs.ts';
import type { BookingJobTemplate } from '../../jobs/outbox.ts';
import type { SlotRefusal } from '../slot-check.repository.ts';

/**
 * The booking batcher: new bookings asked for together are written, with their jobs, by one call of
 * book_batch (migrations 0018 and 0024, which say what it does) and one commit. The bench's booking
 * rate rests on it (docs/performance.md, "Bookings asked for together share one statement and one
 * commit").
 */

/**
 * The columns a client's request decides: a request sent again under the same idempotency key must ask
 * for these exactly (booking.service.ts, sameRequest).
 */
export const REQUESTED_KEYS = [
  'therapistId',
  'serviceId',
  'bookingDate',
  'bookingTimeSlotStart',
  'bookingType',
  'locationId',
  'clientFullName',
  'clientEmail',
  'clientMobile',
  'clientAge',
  'clientState',
  'clientCity',
  'clientNote',
  'sessionType',
] as const satisfies readonly (keyof typeof bookings.$inferInsert)[];

/**
 * Every column a new booking writes: the request's, then the server's. Its price comes from the
 * therapist, in the statement. The one list: NewBooking and the batch's rows are made from it, and
 * booking-insert-plan.test.ts holds the statement's column lists (book_batch, migration 0024) to it.
 */
export const NEW_BOOKING_KEYS = [
  ...REQUESTED_KEYS,
  'termsAccepted',
  'paymentStatus',
  'paymentHoldExpiresAt',
  'paymentTransactionId',
  'adminConfirmed',
  'createdByAdminId',
  'bookingTokenHash',
  'clientAddressHash',
  // The WhatsApp consent rides in the same row of the batch: no statement of its own.
  'whatsappOptInAt',
  'whatsappConsentText',
] as const satisfies readonly (keyof typeof bookings.$inferInsert)[];

/** What a new booking writes. */
export type NewBooking = Required<Pick<typeof bookings.$inferInsert, (typeof NEW_BOOKING_KEYS)[number]>>;

/** Each of NEW_BOOKING_KEYS with its column's name, as the statement reads the batch. */
const BOOKING_COLUMNS = (() => {
  const columns = getTableColumns(bookings);
  return NEW_BOOKING_KEYS.map((key) => [key, columns[key].name] as const);
})();
/**
 * A batch row's columns, each null: a booking's row is a copy, filled in. A copy keeps V8's fast
 * layout; an object given thirty keys one at a time falls back to a dictionary, and its row then cost
 * three times as much to build and write as JSON.
 */
const ROW_COLUMNS: Record<string, unknown> = Object.fromEntries([['n', 0], ...BOOKING_COLUMNS.map(([, name]) => [name, null])]);

/**
 * Why a booking was not written: the checker's refusal (slot_refusal, slot-check.repository.ts), the
 * slot already live for someone else, or a hold limit.
 */
export type BookingRefusal = SlotRefusal | 'taken' | 'holds_client' | 'holds_address';

/**
 * The abuse limits on a public online booking (an unpaid hold): at most `perClient` live holds per
 * e-mail and per mobile, at most `perAddress` new unpaid holds from one client address in
 * HOLD_ADDRESS_WINDOW_MINUTES. 0 turns a limit off.
 */
export type HoldLimits = { perClient: number; perAddress: number };
export const HOLD_ADDRESS_WINDOW_MINUTES = 10;

/** The call; its parameters are the batch (JSON), the address window in minutes and the lock keys. */
export const BOOK_BATCH = 'select n, refusal, id, retry_after from book_batch($1::jsonb, $2::int, $3::bigint[])';

/** What one booking of a batch carries beside its columns (the statement's `input`). */
type BatchRow = Record<string, unknown> & {
  /** The booking's place in its batch, set when the batch is sent. */
  n: number;
  therapist_type: number;
  asked_at: string;
  hold_limit_client: number;
  hold_limit_address: number;
  today: string;
  now_time: string;
  last_date: string;
  sundays_closed: boolean;
  followups: { queue: string; job_name: string; id_prefix: string; id_suffix: string; payload: unknown; available_at: string | null }[];
};

type Created = { id: number; jobDueNow: boolean } | { refusal: BookingRefusal; retryAfterSeconds?: number };
type Pending = {
  row: BatchRow;
  /** Advisory lock keys of the client and address a limited hold counts against; empty without limits. */
  lockKeys: number[];
  jobDueNow: boolean;
  resolve: (created: Created) => void;
  reject: (err: unknown) => void;
};

/**
 * An advisory lock key for one client e-mail, mobile or address: a 53-bit hash (cyrb53), a whole
 * number JavaScript holds exactly. A collision only makes two clients' bookings wait for each other,
 * so it need not be a cryptographic hash: three SHA-256s a booking (a hash object, a digest buffer and
 * a BigInt each) were a few per cent of a booking's CPU.
 */
function lockKey(kind: 1 | 2 | 3, value: string): number {
  let h1 = 0xdeadbeef ^ kind;
  let h2 = 0x41c6ce57 ^ kind;
  for (let i = 0; i < value.length; i++) {
    const ch = value.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
const LOCK_EMAIL = 1;
const LOCK_MOBILE = 2;
const LOCK_ADDRESS = 3;

/**
 * Per pool: the bookings waiting for a statement, how many statements are on their way, and the timer
 * that lets a second one go when the first is held up.
 */
type Writer = { waiting: Pending[]; scheduled: boolean; inFlight: number; stalled: NodeJS.Timeout | undefined };
const writers = new WeakMap<pg.Pool, Writer>();
/** A batch's JSON stays small (about 600 bytes a booking) and its statement short. */
const MAX_BATCH = 64;
/**
 * One statement at a time, so bookings asked meanwhile gather into the next: two at a time made
 * batches half the size, and PostgreSQL spent a quarter more on each booking (the statement's set-up,
 * its triggers and its commit are per statement), 5,200 against 5,400–6,000 bookings a second here. A
 * second goes only when the first has been on its way STALLED_MS (it takes a few): one held up
 * (waiting on another transaction's row for the same slot, or on a client's lock) does not hold every
 * booking behind it for as long as it waits.
 */
const MAX_IN_FLIGHT = 2;
const STALLED_MS = 20;

/**
 * One booking as the statement reads it, and the advisory lock keys its hold limits count against
 * (none without limits). `window` is the terms it books under (slotWindow: the client's for a public
 * booking, the admin's for an admin's), which the statement's checker applies.
 */
export function batchRow(
  values: NewBooking & { bookingType: 'ONLINE' | 'OFFLINE' },
  followups: readonly BookingJobTemplate[],
  askedAt: Date,
  window: SlotWindow,
  limits?: HoldLimits,
): { row: BatchRow; lockKeys: number[] } {
  const perClient = limits?.perClient ?? 0;
  const perAddress = values.clientAddressHash ? (limits?.perAddress ?? 0) : 0;
  const row = { ...ROW_COLUMNS } as BatchRow;
  // The columns as Drizzle's mapToDriverValue writes them (timestamps as ISO 8601; dates and times are
  // their strings already), without its mapping a column at a time, which was a seventh of what a
  // booking allocated. booking-insert-plan.test.ts holds the two equal.
  for (const [key, name] of BOOKING_COLUMNS) {
    const value = values[key];
    row[name] = value instanceof Date ? value.toISOString() : value;
  }
  row.therapist_type = THERAPIST_TYPE[values.bookingType];
  row.asked_at = askedAt.toISOString();
  row.hold_limit_client = perClient;
  row.hold_limit_address = perAddress;
  row.today = window.today;
  row.now_time = window.nowTime;
  row.last_date = window.lastDate;
  row.sundays_closed = window.sundaysClosed;
  row.followups = followups.map((f) => ({
    queue: queueOf(f.name),
    job_name: f.name,
    id_prefix: f.idParts.prefix,
    id_suffix: f.idParts.suffix,
    payload: f.payload,
    available_at: f.runAt?.toISOString() ?? null,
  }));
  return { row, lockKeys: holdLockKeys(values, { perClient, perAddress }) };
}

/**
 * The advisory lock keys a client's limited request counts under: its e-mail and mobile when the
 * per-client limit is on, its address when the per-address one is (and the address is known). The
 * waitlist's joins (waitlist.repository.ts) take the same keys, so a client's holds and joins are
 * counted one at a time.
 */
export function holdLockKeys(
  client: { clientEmail: string; clientMobile: string; clientAddressHash?: string | null | undefined },
  limits: HoldLimits,
): number[] {
  const keys: number[] = [];
  if (limits.perClient > 0) keys.push(lockKey(LOCK_EMAIL, client.clientEmail), lockKey(LOCK_MOBILE, client.clientMobile));
  if (limits.perAddress > 0 && client.clientAddressHash) keys.push(lockKey(LOCK_ADDRESS, client.clientAddressHash));
  return keys.sort((a, b) => a - b);
}

/**
 * Checks and writes a new online or in-person booking with its jobs. Bookings asked for in the
 * same turn of the event loop, or while a statement is on its way, share one statement and one
 * commit: under load that is one round trip and one flush to disk for many bookings, and alone it is
 * the single statement it always was.
 */
export function insertBookingWithIntents(
  db: Db,
  values: NewBooking & { bookingType: 'ONLINE' | 'OFFLINE' },
  /** The jobs the booking needs, written with it under its new id. */
  followups: readonly BookingJobTemplate[],
  /** The app's clock when the booking was asked for: jobs due at once are stamped with it, and it decides which holds are live. */
  askedAt: Date,
  /** The terms it books under (slotWindow). */
  window: SlotWindow,
  limits?: HoldLimits,
): Promise<Created> {
  const { row, lockKeys } = batchRow(values, followups, askedAt, window, limits);
  const pool = db.$client;
  let writer = writers.get(pool);
  if (!writer) writers.set(pool, (writer = { waiting: [], scheduled: false, inFlight: 0, stalled: undefined }));
  const w = writer;
  return new Promise((resolve, reject) => {
    w.waiting.push({ row, lockKeys, jobDueNow: followups.some((f) => !f.runAt), resolve, reject });
    schedule(pool, w);
  });
}

function schedule(pool: pg.Pool, w: Writer): void {
  if (w.scheduled || w.waiting.length === 0) return;
  if (w.inFlight > 0) {
    // Wait for the statement on its way, unless it is held up.
    if (w.inFlight < MAX_IN_FLIGHT && !w.stalled) {
      w.stalled = setTimeout(() => {
        w.stalled = undefined;
        if (w.inFlight > 0 && w.inFlight < MAX_IN_FLIGHT) send(pool, w);
      }, STALLED_MS);
    }
    return;
  }
  w.scheduled = true;
  setImmediate(() => {
    w.scheduled = false;
    if (w.inFlight === 0) send(pool, w);
  });
}

/** One statement with the bookings waiting (up to MAX_BATCH); when it is answered, the next. */
function send(pool: pg.Pool, w: Writer): void {
  if (w.waiting.length === 0) return;
  const batch = w.waiting.splice(0, MAX_BATCH);
  w.inFlight++;
  void writeBatch(pool, batch).finally(() => {
    w.inFlight--;
    if (w.stalled && w.inFlight === 0) {
      clearTimeout(w.stalled);
      w.stalled = undefined;
    }
    schedule(pool, w);
  });
}

/** The statement's answer, one per booking; booking-insert-plan.test.ts holds its columns to these. */
export type InsertRow = { n: number; refusal: BookingRefusal | null; id: number | null; retry_after: number | null };

/**
 * One call of book_batch: it takes an advisory lock per client and address a limited hold counts against
 * (in one order, so two batches never wait for each other in a circle), then runs the statement with a
 * fresh snapshot, so the counts it reads include every hold committed before and no other batch for the
 * same client can slip in between count and insert. One round trip, committed on its own.
 */
async function runInsert(pool: pg.Pool, batch: Pending[]): Promise<InsertRow[]> {
  for (const [n, p] of batch.entries()) p.row.n = n;
  const keys = [...new Set(batch.flatMap((p) => p.lockKeys))].sort((a, b) => a - b);
  const { rows } = await pool.query<InsertRow>({
    name: 'book_batch',
    text: BOOK_BATCH,
    // The keys as PostgreSQL's array text: whole numbers need no quoting, and pg's general array writer
    // cost more than the statement's JSON.
    values: [JSON.stringify(batch.map((p) => p.row)), HOLD_ADDRESS_WINDOW_MINUTES, `{${keys.join(',')}}`],
  });
  return rows;
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
