/**
 * The Manual Booking form's values, its checks and the request it becomes. The checks are here and
 * nowhere else: the form calls `validateManualBooking` and draws what it returns.
 */
import { manualBookingSchema } from '../../../../../shared/contract/admin.ts';
import { fieldErrorsOf } from '../../../../../shared/contract/booking.ts';
import { normaliseIndianMobile } from '../../../../../shared/domain/contact.ts';
import { isOnlineType } from '../../../../../shared/domain/therapist.ts';
import type { AdminTherapist, ManualBookingPayload } from '../../../lib/admin-api.ts';

export type Form = {
  therapistId: string;
  bookingDate: string;
  slot: string;
  clientName: string;
  clientEmail: string;
  clientMobile: string;
  bookingType: '' | 'ONLINE' | 'OFFLINE';
  locationId: string;
  amount: string;
  notes: string;
};

export type Errors = Partial<Record<keyof Form, string>>;

export const EMPTY: Form = {
  therapistId: '',
  bookingDate: '',
  slot: '',
  clientName: '',
  clientEmail: '',
  clientMobile: '',
  bookingType: '',
  locationId: '',
  amount: '',
  notes: '',
};

/** The request's fields as the form names them, for the schema's messages. */
const FORM_FIELD: Partial<Record<string, keyof Form>> = {
  therapist_id: 'therapistId',
  booking_date: 'bookingDate',
  booking_time_slot_start: 'slot',
  client_full_name: 'clientName',
  client_email: 'clientEmail',
  client_mobile: 'clientMobile',
  booking_type: 'bookingType',
  location_id: 'locationId',
  amount: 'amount',
  client_note: 'notes',
};

/** The form checked with the server's own schema (manualBookingSchema), its messages under the form's fields. */
export function validateManualBooking(f: Form): Errors {
  const parsed = manualBookingSchema.safeParse(toPayload(f, null, ''));
  if (parsed.success) return {};
  const e: Errors = {};
  for (const [field, message] of Object.entries(fieldErrorsOf(parsed.error))) {
    const key = FORM_FIELD[field];
    if (key && message) e[key] ??= message;
  }
  return e;
}

/** What choosing a therapist fills in: their type of session, their centre in person, their price. */
export function filledBy(t: AdminTherapist | undefined): Partial<Form> {
  if (!t) return {};
  return {
    bookingType: isOnlineType(t.type) ? 'ONLINE' : 'OFFLINE',
    locationId: !isOnlineType(t.type) && t.locations ? String(t.locations) : '',
    ...(t.price != null ? { amount: String(t.price) } : {}),
  };
}

function firstEmail(email: AdminTherapist['email']): string | undefined {
  return (Array.isArray(email) ? email[0] : email) || undefined;
}

/**
 * An admin-confirmed booking: in person is Pending (paid at the visit), online Completed. What
 * manualBookingSchema reads, on the server as here.
 */
export function toPayload(form: Form, therapist: AdminTherapist | null, transactionId: string): ManualBookingPayload {
  const offline = form.bookingType === 'OFFLINE';
  const payload: ManualBookingPayload = {
    therapist_id: Number(form.therapistId),
    booking_date: form.bookingDate,
    booking_time_slot_start: form.slot,
    client_full_name: form.clientName.trim(),
    client_email: form.clientEmail.trim(),
    client_mobile: normaliseIndianMobile(form.clientMobile),
    client_note: form.notes.trim(),
    booking_type: (form.bookingType || undefined) as ManualBookingPayload['booking_type'],
    location_id: offline ? Number(form.locationId) : 0,
    // Blank or not a number reads as 0, which the schema refuses as it refuses a blank: a number that is
    // not one would end the parse before the form-wide rule (an offline booking's centre) is checked.
    amount: Number.isFinite(Number(form.amount)) ? Math.round(Number(form.amount) * 100) / 100 : 0,
    payment_status: offline ? 'PENDING' : 'COMPLETED',
    admin_confirmed: true,
    payment_transaction_id: transactionId,
  };
  const email = therapist ? firstEmail(therapist.email) : undefined;
  if (email) payload.therapist_email = email;
  return payload;
}
