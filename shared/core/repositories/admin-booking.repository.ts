import { and, asc, desc, eq, gte, ilike, lte, ne, not, or, sql, type SQL } from 'drizzle-orm';
import type { BookingFilterStatus } from '../../contract/admin.ts';
import type { SlotHolder } from '../../domain/slot-states.ts';
import { toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { bookings, locations, therapists } from '../db/schema.ts';
import { liveBooking } from './live-booking.ts';

export type BookingRow = typeof bookings.$inferSelect;

const recordColumns = {
  b: bookings,
  therapistName: therapists.name,
  locationName: locations.name,
  locationAddress: locations.address,
  // The booking's money from the ledger (payments_ledger_booking_idx).
  paidPaise: sql<number>`(select coalesce(sum(l.amount_paise), 0)::int from payments_ledger l where l.booking_id = ${bookings.id} and l.kind = 'capture')`,
  refundedPaise: sql<number>`(select coalesce(-sum(l.amount_paise), 0)::int from payments_ledger l where l.booking_id = ${bookings.id} and l.kind = 'refund')`,
  // An open refund decision (refund_requests_open_uq): money due back at the counter first.
  refundOpen: sql<
    'AT_COUNTER' | 'REVIEW' | null
  >`(select r.kind from refund_requests r where r.booking_id = ${bookings.id} and r.status = 'OPEN' order by r.kind = 'AT_COUNTER' desc limit 1)`,
  // The hold of an open waitlist offer (waitlist_offers_booking_uq).
  waitlistHold: sql<boolean>`exists (select 1 from waitlist_offers o where o.booking_id = ${bookings.id} and o.outcome is null)`,
};

/** A booking with its therapist's and location's names and, where read, its money from the ledger. */
export type RecordRow = {
  b: BookingRow;
  therapistName: string;
  locationName: string | null;
  locationAddress: string | null;
  /** Absent where the ledger was not read (the client's confirmation record). */
  paidPaise?: number;
  refundedPaise?: number;
  refundOpen?: 'AT_COUNTER' | 'REVIEW' | null;
  waitlistHold?: boolean;
};

/** How a list of bookings is narrowed and sorted; dates are the centre's, inclusive. */
export type BookingFilter = {
  from?: string | undefined;
  to?: string | undefined;
  therapistId?: number | undefined;
  statuses?: readonly BookingFilterStatus[] | undefined;
  /** By date and start time: desc (newest first, the spec's list) unless asc is asked for. */
  order?: 'asc' | 'desc' | undefined;
  /** Admin blocks are not clients' bookings: the client list leaves them out. */
  clientsOnly?: boolean | undefined;
  /** Part of the client's name, any case. */
  clientName?: string | undefined;
  /** The sessions of one series (bookings_series_idx). */
  seriesId?: number | undefined;
};

/** A page of a list: at most `limit` rows after skipping `offset`. */
export type Slice = { limit: number; offset: number };

/** CANCELLED is every cancelled booking (flag or status); any other status is that status, not cancelled. */
function statusCondition(status: BookingFilterStatus): SQL {
  if (status === 'CANCELLED') return or(bookings.cancelled, eq(bookings.paymentStatus, 'CANCELLED'))!;
  return and(eq(bookings.paymentStatus, status), not(bookings.cancelled))!;
}

function filterWhere(f: BookingFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (f.from) conditions.push(gte(bookings.bookingDate, f.from));
  if (f.to) conditions.push(lte(bookings.bookingDate, f.to));
  if (f.therapistId !== undefined) conditions.push(eq(bookings.therapistId, f.therapistId));
  if (f.statuses?.length) conditions.push(or(...f.statuses.map(statusCondition))!);
  if (f.clientsOnly) conditions.push(ne(bookings.bookingType, 'ADMIN_BLOCK'));
  if (f.clientName) conditions.push(ilike(bookings.clientFullName, containsPattern(f.clientName)));
  if (f.seriesId !== undefined) conditions.push(eq(bookings.seriesId, f.seriesId));
  return conditions.length ? and(...conditions) : undefined;
}

function selectRecords(db: Db, f: BookingFilter, slice?: Slice) {
  const order =
    f.order === 'asc'
      ? [asc(bookings.bookingDate), asc(bookings.bookingTimeSlotStart), asc(bookings.id)]
      : [desc(bookings.bookingDate), desc(bookings.bookingTimeSlotStart), desc(bookings.id)];
  const query = db
    .select(recordColumns)
    .from(bookings)
    .innerJoin(therapists, eq(therapists.id, bookings.therapistId))
    .leftJoin(locations, eq(locations.id, bookings.locationId))
    .where(filterWhere(f))
    .orderBy(...order);
  return slice ? query.limit(slice.limit).offset(slice.offset) : query;
}

/** The admin's booking records, narrowed by the filter, all of them or one slice. */
export async function listBookingRecords(db: Db, f: BookingFilter = {}, slice?: Slice): Promise<RecordRow[]> {
  return selectRecords(db, f, slice);
}

/** How many bookings the filter leaves (bookings_date_idx serves a date range). */
export async function countAdminBookings(db: Db, f: BookingFilter = {}): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(bookings).where(filterWhere(f));
  return row?.n ?? 0;
}

/** `%term%` for ILIKE with the user's own % and _ taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The records of clients' bookings (no admin blocks) whose client's name contains `name`. */
export async function listClientBookingRecords(db: Db, name: string | undefined, slice?: Slice): Promise<RecordRow[]> {
  return selectRecords(db, { clientsOnly: true, clientName: name }, slice);
}

export async function countClientBookings(db: Db, name: string | undefined): Promise<number> {
  return countAdminBookings(db, { clientsOnly: true, clientName: name });
}

/** A client as they booked, and whether their name itself contains the search term. */
export type ClientRow = { name: string; email: string; phone: string; nameMatches: boolean };

/**
 * The clients of bookings whose name, e-mail or mobile contains the term, each under the name they
 * booked with: one row per name, e-mail and mobile together (any case), so two people who gave the
 * same e-mail are two rows, and one client's own bookings are one. At most 1000 rows, in no order the
 * caller may rely on (the service sorts them). `mobileTerm` is the term as the mobile column is
 * searched for it (the service's reading of a number written `+91 …`); the term itself by default.
 */
export async function searchClientRows(db: Db, term: string | undefined, mobileTerm = term): Promise<ClientRow[]> {
  const conditions = [ne(bookings.bookingType, 'ADMIN_BLOCK')];
  const p = term ? containsPattern(term) : undefined;
  const m = mobileTerm ? containsPattern(mobileTerm) : p;
  if (p && m) conditions.push(or(ilike(bookings.clientFullName, p), ilike(bookings.clientEmail, p), ilike(bookings.clientMobile, m))!);
  const name = sql`lower(btrim(${bookings.clientFullName}))`;
  const email = sql`lower(${bookings.clientEmail})`;
  return (
    db
      .selectDistinctOn([name, email, bookings.clientMobile], {
        name: bookings.clientFullName,
        email: bookings.clientEmail,
        phone: bookings.clientMobile,
        nameMatches: p ? sql<boolean>`${bookings.clientFullName} ilike ${p}` : sql<boolean>`true`,
      })
      .from(bookings)
      .where(and(...conditions))
      // The latest booking's spelling of the name wins.
      .orderBy(name, email, bookings.clientMobile, desc(bookings.createdAt), desc(bookings.id))
      .limit(1000)
  );
}

export async function findBookingForUpdate(tx: Pick<Db, 'select'>, id: number): Promise<BookingRow | undefined> {
  const [row] = await tx.select().from(bookings).where(eq(bookings.id, id)).for('update');
  return row;
}

/** The live booking (client booking or admin block) holding a slot, locked. */
export async function findLiveSlotForUpdate(tx: Pick<Db, 'select'>, therapistId: number, date: string, start: string): Promise<BookingRow | undefined> {
  const [row] = await tx
    .select()
    .from(bookings)
    .where(and(eq(bookings.therapistId, therapistId), eq(bookings.bookingDate, date), eq(bookings.bookingTimeSlotStart, start), liveBooking))
    .orderBy(asc(bookings.id))
    .for('update');
  return row;
}

/** The live bookings (client bookings and admin blocks) of a therapist on the dates from..to. */
export async function listLiveSlotHolders(db: Db, therapistId: number, from: string, to: string): Promise<SlotHolder[]> {
  const rows = await db
    .select({ id: bookings.id, date: bookings.bookingDate, start: bookings.bookingTimeSlotStart, type: bookings.bookingType })
    .from(bookings)
    .where(and(eq(bookings.therapistId, therapistId), gte(bookings.bookingDate, from), lte(bookings.bookingDate, to), liveBooking))
    .orderBy(asc(bookings.id));
  return rows.map((r) => ({ id: r.id, booking_date: r.date, start_time: toHhMm(r.start), is_admin_block: r.type === 'ADMIN_BLOCK' }));
}

/** The audit view of a booking: the fields an admin action can change, plus what identifies it. */
export function auditableBooking(b: BookingRow): Record<string, unknown> {
  return {
    id: b.id,
    therapist_id: b.therapistId,
    booking_date: b.bookingDate,
    booking_time_slot_start: toHhMm(b.bookingTimeSlotStart),
    booking_type: b.bookingType,
    payment_status: b.paymentStatus,
    cancelled: b.cancelled,
    amount_paise: b.amountPaise,
    payment_transaction_id: b.paymentTransactionId,
    payment_link_url: b.paymentLinkUrl,
    razorpay_payment_link_id: b.razorpayPaymentLinkId,
    location_id: b.locationId,
    admin_confirmed: b.adminConfirmed,
  };
}

/** Writes `set` to one booking and answers the row as it now is (none when there is no such booking). */
export async function updateBookingRow(tx: Pick<Db, 'update'>, id: number, set: Partial<typeof bookings.$inferInsert>): Promise<BookingRow | undefined> {
  const [row] = await tx.update(bookings).set(set).where(eq(bookings.id, id)).returning();
  return row;
}

/** Inserts one booking (a manual booking or an admin block) and answers its row. */
export async function insertBookingRow(tx: Pick<Db, 'insert'>, values: typeof bookings.$inferInsert): Promise<BookingRow> {
  const [row] = await tx.insert(bookings).values(values).returning();
  return row!;
}
