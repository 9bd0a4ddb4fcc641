import { toAdminBookingDto } from './admin-booking.repository.ts';
import { eq, or } from 'drizzle-orm';
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

/** The booking record of spec section 3 (money in rupees), for the confirmation page: the admin record plus payment ids. */
export function toBookingRecord(b: BookingView) {
  return {
    ...toAdminBookingDto({ b, therapistName: b.therapistName, locationName: b.locationName, locationAddress: b.locationAddress }),
    razorpay_payment_link_id: b.razorpayPaymentLinkId,
    razorpay_payment_id: b.razorpayPaymentId,
    paid_at: b.paidAt?.toISOString() ?? null,
  };
}
