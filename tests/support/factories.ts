import type { BookingCreateInput } from '../../shared/contract/booking.ts';
import type { NewBooking } from '../../shared/core/repositories/booking-batch/booking-batch.ts';

/** A valid online booking for the seeded Dr. Asha Mehta (id 1, online, ₹1,500, 10:00–18:00). */
/** Overrides may be deliberately invalid: tests send them to the server. */
export type Overrides = Record<string, unknown>;

export function onlineBooking(overrides: Overrides = {}): BookingCreateInput {
  return {
    therapist_id: 1,
    booking_date: '2026-11-24',
    booking_time_slot_start: '10:00',
    client_full_name: 'Meera Pillai',
    client_email: 'meera.pillai@example.com',
    client_mobile: '9876543210',
    client_age: 29,
    client_state: 'Maharashtra',
    client_city: 'Mumbai',
    client_note: 'First session',
    session_type: 'individual',
    terms_accepted: true,
    booking_type: 'ONLINE',
    location_id: 0,
    therapist_email: 'asha.mehta@wellbeingcentre.in',
    amount: 1500,
    ...overrides,
  } as BookingCreateInput;
}

/** A valid in-person booking for the seeded Dr. Rohan Kapoor (id 5, West Branch id 1, ₹1,800). */
export function offlineBooking(overrides: Overrides = {}): BookingCreateInput {
  return onlineBooking({
    therapist_id: 5,
    booking_type: 'OFFLINE',
    location_id: 1,
    client_state: undefined,
    client_city: undefined,
    amount: 1800,
    ...overrides,
  });
}

/** Monday 23 November 2026, 09:30 at the centre. */
export const MONDAY_MORNING_IST = '2026-11-23T09:30:00+05:30';
/** Dr. Asha Mehta's hours in the demo seed. */
export const ASHA_HOURS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
/** The working days of the wizard's offer on MONDAY_MORNING_IST, from the next day (no Sundays). */
export const OFFER_DAYS = [
  '2026-11-24',
  '2026-11-25',
  '2026-11-26',
  '2026-11-27',
  '2026-11-28',
  '2026-11-30',
  '2026-12-01',
  '2026-12-02',
  '2026-12-03',
  '2026-12-04',
  '2026-12-05',
  '2026-12-07',
  '2026-12-08',
];

/** A valid manual in-person booking (the admin panel's payload) for Dr. Rohan Kapoor. */
export function manualOfflineBooking(overrides: Overrides = {}): Record<string, unknown> {
  return {
    therapist_id: 5,
    booking_date: '2026-11-24',
    booking_time_slot_start: '12:00',
    client_full_name: 'Walk In',
    client_email: 'walk.in@example.com',
    client_mobile: '9876500000',
    booking_type: 'OFFLINE',
    location_id: 1,
    amount: 1800,
    admin_confirmed: true,
    ...overrides,
  };
}

/**
 * A public online hold for Dr. Asha Mehta as the booking service hands it to the batcher
 * (insertBookingWithIntents, batchRow): its hold ends 20 minutes after `askedAt`.
 */
export function newOnlineHold(askedAt: Date, overrides: Partial<NewBooking> = {}): NewBooking & { bookingType: 'ONLINE' } {
  return {
    therapistId: 1,
    serviceId: 1,
    bookingDate: '2026-11-24',
    bookingTimeSlotStart: '10:00',
    locationId: null,
    clientFullName: 'Meera Pillai',
    clientEmail: 'meera.pillai@example.com',
    clientMobile: '9876543210',
    clientAge: 29,
    clientState: 'Maharashtra',
    clientCity: 'Mumbai',
    clientNote: '',
    sessionType: 'individual',
    termsAccepted: true,
    paymentStatus: 'INITIATED',
    paymentHoldExpiresAt: new Date(askedAt.getTime() + 20 * 60_000),
    paymentTransactionId: null,
    adminConfirmed: false,
    createdByAdminId: null,
    bookingTokenHash: null,
    clientAddressHash: null,
    whatsappOptInAt: null,
    whatsappConsentText: null,
    ...overrides,
    bookingType: 'ONLINE',
  };
}
