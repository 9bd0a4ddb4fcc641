/**
 * The Manual Booking form's values, its checks and the request it becomes. The checks are here and
 * nowhere else: the form calls `validateManualBooking` and draws what it returns.
 */
import { MANUAL_BOOKING_MESSAGES as MB } from '../../../../../shared/contract/messages.ts';
import { isOnlineType } from '../../../../../shared/domain/therapist.ts';
import type { AdminTherapist, ManualBookingPayload } from '../../../lib/admin-api.ts';
import { EMAIL_RE } from '../../../lib/admin-format.ts';

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

export function validateManualBooking(f: Form): Errors {
  const e: Errors = {};
  if (!f.therapistId) e.therapistId = MB.therapistRequired;
  if (!f.bookingDate) e.bookingDate = MB.dateRequired;
  if (!f.slot) e.slot = MB.slotRequired;
  if (!f.clientName.trim()) e.clientName = MB.clientNameRequired;
  if (!EMAIL_RE.test(f.clientEmail.trim())) e.clientEmail = MB.clientEmailRequired;
  if (!/^\d{10}$/.test(f.clientMobile.trim())) e.clientMobile = MB.clientMobileRequired;
  if (!f.bookingType) e.bookingType = MB.bookingTypeRequired;
  if (f.bookingType === 'OFFLINE' && !f.locationId) e.locationId = MB.locationRequired;
  const amount = Number(f.amount);
  if (f.amount.trim() === '' || !Number.isFinite(amount) || amount <= 0) e.amount = MB.amountRequired;
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

/** An admin-confirmed booking: in person is Pending (paid at the visit), online Completed. */
export function toPayload(form: Form, therapist: AdminTherapist | null, transactionId: string): ManualBookingPayload {
  const offline = form.bookingType === 'OFFLINE';
  const payload: ManualBookingPayload = {
    therapist_id: Number(form.therapistId),
    booking_date: form.bookingDate,
    booking_time_slot_start: form.slot,
    client_full_name: form.clientName.trim(),
    client_email: form.clientEmail.trim(),
    client_mobile: form.clientMobile.trim(),
    client_note: form.notes.trim(),
    booking_type: offline ? 'OFFLINE' : 'ONLINE',
    location_id: offline ? Number(form.locationId) : 0,
    amount: Math.round(Number(form.amount) * 100) / 100,
    payment_status: offline ? 'PENDING' : 'COMPLETED',
    admin_confirmed: true,
    payment_transaction_id: transactionId,
  };
  const email = therapist ? firstEmail(therapist.email) : undefined;
  if (email) payload.therapist_email = email;
  return payload;
}
