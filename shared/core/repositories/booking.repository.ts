import { eq, or } from 'drizzle-orm';
import { paiseToRupees } from '../../domain/money.ts';
import { toHhMm } from '../../domain/time.ts';
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

/** The booking record of spec section 3 (money in rupees), for the confirmation page. */
export function toBookingRecord(b: BookingView) {
  return {
    id: b.id,
    booking_date: b.bookingDate,
    booking_time_slot_start: toHhMm(b.bookingTimeSlotStart),
    client_full_name: b.clientFullName,
    client_email: b.clientEmail,
    client_mobile: b.clientMobile,
    therapist_id: b.therapistId,
    therapist_name: b.therapistName,
    booking_type: b.bookingType,
    payment_status: b.paymentStatus,
    payment_link_url: b.paymentLinkUrl,
    payment_transaction_id: b.paymentTransactionId,
    amount: paiseToRupees(b.amountPaise),
    cancelled: b.cancelled,
    google_meet_link: b.googleMeetLink,
    location_id: b.locationId,
    location_name: b.locationName,
    location_address: b.locationAddress,
    client_note: b.clientNote,
    razorpay_payment_link_id: b.razorpayPaymentLinkId,
    razorpay_payment_id: b.razorpayPaymentId,
    paid_at: b.paidAt?.toISOString() ?? null,
  };
}
