import { and, asc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { recordset, typedRows } from '../db/recordset.ts';
import { bookings, series } from '../db/schema.ts';
import type { BookingRow } from './admin-booking.repository.ts';
import { LIVE_BOOKING_SQL, liveBooking } from './live-booking.ts';

export type SeriesRow = typeof series.$inferSelect;
export type NewSeries = typeof series.$inferInsert;
export type NewSession = typeof bookings.$inferInsert;

export async function insertSeries(tx: DbOrTx, values: NewSeries): Promise<SeriesRow> {
  const [row] = await tx.insert(series).values(values).returning();
  return row!;
}

export async function getSeries(db: DbOrTx, id: number): Promise<SeriesRow | undefined> {
  const [row] = await db.select().from(series).where(eq(series.id, id));
  return row;
}

/** The series' row, locked: changes to one series go one at a time, and its e-mail waits for them. */
export async function lockSeries(tx: DbOrTx, id: number): Promise<SeriesRow | undefined> {
  const [row] = await tx.select().from(series).where(eq(series.id, id)).for('update');
  return row;
}

/**
 * Ids for `n` new bookings from the bookings' own identity, in one statement: each session's Manage
 * token is derived from its id, so the ids are known before the one insert that writes them all.
 */
export async function allocateBookingIds(tx: DbOrTx, n: number): Promise<number[]> {
  const { rows } = await tx.execute<{ id: number }>(
    sql`select nextval(pg_get_serial_sequence('bookings', 'id'))::int as id from generate_series(1, ${n}::int)`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Every session of a series in one statement. A slot someone else holds live is left out by the
 * live-slot index (ON CONFLICT … DO NOTHING; bookings_live_slot_uq), so the caller learns from the rows
 * answered which were not written, and decides. Rows are written in date order: two series
 * taking the same slots wait for each other in one order, never in a circle.
 */
export async function insertSessions(tx: DbOrTx, rows: readonly NewSession[]): Promise<BookingRow[]> {
  const ordered = [...rows].sort((a, b) => a.bookingDate.localeCompare(b.bookingDate));
  const { columns, json } = recordset(bookings, ordered);
  const { rows: written } = await tx.execute<Record<string, unknown>>(sql`
    insert into bookings (${columns})
    select ${columns} from jsonb_populate_recordset(null::bookings, ${json}::jsonb)
    on conflict (therapist_id, booking_date, booking_time_slot_start) where ${sql.raw(LIVE_BOOKING_SQL)} do nothing
    returning *`);
  return typedRows(bookings, written);
}

/** The series' live sessions on or after `fromDate` (that day's alone for `onlyThatDay`), in date order. */
export async function listLiveSessions(db: DbOrTx, seriesId: number, fromDate: string, onlyThatDay: boolean): Promise<BookingRow[]> {
  return liveSessionsQuery(db, seriesId, fromDate, onlyThatDay);
}

/** The same, locked until the transaction ends: a move goes one at a time with any other change to them. */
export async function lockLiveSessions(tx: DbOrTx, seriesId: number, fromDate: string, onlyThatDay: boolean): Promise<BookingRow[]> {
  return liveSessionsQuery(tx, seriesId, fromDate, onlyThatDay).for('update');
}

function liveSessionsQuery(db: DbOrTx, seriesId: number, fromDate: string, onlyThatDay: boolean) {
  return db
    .select()
    .from(bookings)
    .where(and(eq(bookings.seriesId, seriesId), onlyThatDay ? eq(bookings.bookingDate, fromDate) : gte(bookings.bookingDate, fromDate), liveBooking))
    .orderBy(asc(bookings.bookingDate), asc(bookings.id));
}

/**
 * Moves sessions to another start on their own dates (and to another therapist, when given), in one
 * statement, raising each calendar SEQUENCE so the invitations the client holds are updated. The
 * live-slot index refuses a slot someone else took meanwhile: the whole statement fails, nothing moves.
 */
export async function moveSessions(tx: DbOrTx, ids: readonly number[], to: { start: string; therapistId: number | null }, now: Date): Promise<BookingRow[]> {
  if (ids.length === 0) return [];
  return tx
    .update(bookings)
    .set({
      bookingTimeSlotStart: to.start,
      ...(to.therapistId === null ? {} : { therapistId: to.therapistId }),
      calendarSequence: sql`${bookings.calendarSequence} + 1`,
      updatedAt: now,
    })
    .where(inArray(bookings.id, [...ids]))
    .returning();
}

/** The other sessions of a series, as the client's Manage page lists them (no money, no other client's data: it is theirs). */
export async function listSeriesSessionsBrief(
  db: Db,
  seriesId: number,
): Promise<{ id: number; bookingDate: string; bookingTimeSlotStart: string; cancelled: boolean }[]> {
  return db
    .select({
      id: bookings.id,
      bookingDate: bookings.bookingDate,
      bookingTimeSlotStart: bookings.bookingTimeSlotStart,
      cancelled: bookings.cancelled,
    })
    .from(bookings)
    .where(eq(bookings.seriesId, seriesId))
    .orderBy(asc(bookings.bookingDate), asc(bookings.id));
}

/** How many of the series' live, paid online sessions still wait for their meeting link. */
export async function countSessionsAwaitingMeeting(tx: DbOrTx, seriesId: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(
      and(
        eq(bookings.seriesId, seriesId),
        eq(bookings.bookingType, 'ONLINE'),
        eq(bookings.paymentStatus, 'COMPLETED'),
        isNull(bookings.googleMeetLink),
        liveBooking,
      ),
    );
  return row?.n ?? 0;
}
