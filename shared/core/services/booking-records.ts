/**
 * Booking rows as the API answers them (immich's mapX): the repositories return rows, these shape
 * them into the contract's records, in rupees and the centre's HH:MM.
 */
import type { AdminBookingDto, ClientBookingDto, ClientSearchResult } from '../../contract/admin.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { paymentNote } from '../../domain/payment-note.ts';
import { paymentState } from '../../domain/payment-state.ts';
import { toHhMm } from '../../domain/time.ts';
import type { ClientRow, RecordRow } from '../repositories/admin-booking.repository.ts';
import type { BookingView } from '../repositories/booking.repository.ts';

export function mapAdminBooking(r: RecordRow): AdminBookingDto {
  const b = r.b;
  return {
    id: b.id,
    booking_date: b.bookingDate,
    booking_time_slot_start: toHhMm(b.bookingTimeSlotStart),
    client_full_name: b.clientFullName,
    client_email: b.clientEmail,
    client_mobile: b.clientMobile,
    therapist_id: b.therapistId,
    therapist_name: r.therapistName,
    booking_type: b.bookingType,
    payment_status: b.paymentStatus,
    payment_link_url: b.paymentLinkUrl,
    payment_transaction_id: b.paymentTransactionId,
    amount: paiseToRupees(b.amountPaise),
    cancelled: b.cancelled,
    google_meet_link: b.googleMeetLink,
    location_id: b.locationId,
    location_name: r.locationName,
    location_address: r.locationAddress,
    client_note: b.clientNote,
    service_id: b.serviceId,
    session_type: b.sessionType,
    admin_confirmed: b.adminConfirmed,
    amount_paid: paiseToRupees(r.paidPaise ?? 0),
    amount_refunded: paiseToRupees(r.refundedPaise ?? 0),
    payment_note: paymentNote({ paymentStatus: b.paymentStatus, cancelled: b.cancelled, paidPaise: r.paidPaise ?? 0, refundedPaise: r.refundedPaise ?? 0 }),
    attendance: b.attendance ?? null,
    client_change: b.clientChange && b.clientChangedAt ? { kind: b.clientChange, at: b.clientChangedAt.toISOString() } : null,
    payment_hold_expires_at: b.paymentStatus === 'INITIATED' && !b.cancelled && b.paymentHoldExpiresAt ? b.paymentHoldExpiresAt.toISOString() : null,
    payment_state: paymentState({
      ...b,
      paidPaise: r.paidPaise ?? 0,
      refundedPaise: r.refundedPaise ?? 0,
      refundOpen: r.refundOpen,
      waitlistHold: r.waitlistHold,
    }),
    payment_link_sent_at: b.paymentLinkSentAt?.toISOString() ?? null,
    payment_link_sent_to: (b.paymentLinkSentTo as ('email' | 'whatsapp')[] | null) ?? null,
    series_id: b.seriesId,
  };
}

/** The client list's form of a booking record: the spec's `data` object and the client's city and state. */
export function mapClientBooking(r: RecordRow): ClientBookingDto {
  const dto = mapAdminBooking(r);
  return {
    ...dto,
    client_city: r.b.clientCity,
    client_state: r.b.clientState,
    data: {
      booking_type: dto.booking_type,
      client_note: dto.client_note,
      therapist_details: { name: dto.therapist_name },
      booking_date: dto.booking_date,
      booking_time_slot_start: dto.booking_time_slot_start,
      location_address: dto.location_address,
    },
  };
}

/** Clients whose name matches come first, then by name (any case), then by e-mail. */
export function mapClientSearch(rows: ClientRow[]): ClientSearchResult[] {
  return [...rows]
    .sort(
      (a, b) => Number(b.nameMatches) - Number(a.nameMatches) || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.email.localeCompare(b.email),
    )
    .map(({ name, email, phone }) => ({ name, email, phone }));
}

/**
 * The booking record of spec section 3 (money in rupees), for the confirmation page: the admin record
 * (its payment in words from the ledger's `money`) plus payment ids and, while an unpaid online booking holds its slot, how long the hold has left
 * (seconds from `now`, on the server's clock, so a client's wrong clock does not matter).
 */
export function mapBookingRecord(b: BookingView, now: Date, money: { capturedPaise: number; refundedPaise: number }) {
  const holdLeft = b.paymentHoldExpiresAt ? Math.max(0, Math.floor((b.paymentHoldExpiresAt.getTime() - now.getTime()) / 1000)) : null;
  return {
    ...mapAdminBooking({
      b,
      therapistName: b.therapistName,
      locationName: b.locationName,
      locationAddress: b.locationAddress,
      paidPaise: money.capturedPaise,
      refundedPaise: money.refundedPaise,
    }),
    razorpay_payment_link_id: b.razorpayPaymentLinkId,
    razorpay_payment_id: b.razorpayPaymentId,
    paid_at: b.paidAt?.toISOString() ?? null,
    payment_hold_expires_at: b.paymentHoldExpiresAt?.toISOString() ?? null,
    payment_hold_seconds_left: holdLeft,
  };
}
