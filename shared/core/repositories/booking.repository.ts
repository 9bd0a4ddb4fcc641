import { toAdminBookingDto } from './admin-booking.repository.ts';
import { eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../jobs/outbox.ts';
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
 * The booking record of spec section 3 (money in rupees), for the confirmation page: the admin record
 * plus payment ids and, while an unpaid online booking holds its slot, how long the hold has left
 * (seconds from `now`, on the server's clock, so a client's wrong clock does not matter).
 */
export function toBookingRecord(b: BookingView, now: Date) {
  const holdLeft = b.paymentHoldExpiresAt ? Math.max(0, Math.floor((b.paymentHoldExpiresAt.getTime() - now.getTime()) / 1000)) : null;
  return {
    ...toAdminBookingDto({ b, therapistName: b.therapistName, locationName: b.locationName, locationAddress: b.locationAddress }),
    razorpay_payment_link_id: b.razorpayPaymentLinkId,
    razorpay_payment_id: b.razorpayPaymentId,
    paid_at: b.paidAt?.toISOString() ?? null,
    payment_hold_expires_at: b.paymentHoldExpiresAt?.toISOString() ?? null,
    payment_hold_seconds_left: holdLeft,
  };
}
