import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { bookings, locations, therapists } from '../db/schema.ts';

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

/** Every session of a series (issue 34), cancelled ones too, in date order: its e-mails read them together. */
export async function listSeriesBookingViews(db: DbOrTx, seriesId: number): Promise<BookingView[]> {
  const rows = await db
    .select(viewColumns)
    .from(bookings)
    .innerJoin(therapists, eq(therapists.id, bookings.therapistId))
    .leftJoin(locations, eq(locations.id, bookings.locationId))
    .where(eq(bookings.seriesId, seriesId))
    .orderBy(asc(bookings.bookingDate), asc(bookings.bookingTimeSlotStart), asc(bookings.id));
  return rows.map(toView);
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

/**
 * Stores a booking's meeting link unless it has one already, and answers the link it holds now (the
 * first one stored wins, whichever run of the job made it).
 */
export async function storeMeetingLinkIfNone(tx: DbOrTx, bookingId: number, url: string, now: Date): Promise<string | null | undefined> {
  await tx
    .update(bookings)
    .set({ googleMeetLink: url, updatedAt: now })
    .where(and(eq(bookings.id, bookingId), isNull(bookings.googleMeetLink)));
  const [stored] = await tx.select({ link: bookings.googleMeetLink }).from(bookings).where(eq(bookings.id, bookingId));
  return stored?.link;
}
