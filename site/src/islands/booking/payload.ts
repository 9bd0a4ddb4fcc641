import { bookingCreateSchema, fieldErrorsOf, needsGuardianConsent, type BookingCreate, type BookingCreateInput } from '../../../../shared/contract/booking.ts';
import { FIELD_MESSAGES } from '../../../../shared/contract/messages.ts';
import { isCityOf } from '../../../../shared/domain/india.ts';
import type { BookingState, ClientInfo } from '../../stores/booking.ts';

/** Form field ↔ payload field, for showing the schema's messages under the right input. */
export const FIELD_OF_PAYLOAD: Record<string, keyof ClientInfo> = {
  client_full_name: 'fullName',
  client_email: 'email',
  client_mobile: 'mobile',
  client_age: 'age',
  session_type: 'sessionType',
  client_state: 'state',
  client_city: 'city',
  client_note: 'notes',
  terms_accepted: 'termsAccepted',
  guardian_consent: 'guardianConsent',
  whatsapp_reminders: 'whatsappReminders',
};

export type FormErrors = Partial<Record<keyof ClientInfo, string>>;

/** The booking create payload (spec section 3) from the wizard's state. */
export function bookingPayload(s: BookingState, transactionId?: string): BookingCreateInput {
  const c = s.clientInfo;
  const offline = s.bookingType === 'offline';
  const payload: Record<string, unknown> = {
    therapist_id: s.selectedTherapist?.id,
    booking_date: s.selectedTimeSlot?.date,
    booking_time_slot_start: s.selectedTimeSlot?.start_time,
    client_full_name: c.fullName,
    client_email: c.email,
    client_mobile: c.mobile,
    client_age: c.age ?? undefined,
    client_note: c.notes,
    session_type: c.sessionType || undefined,
    terms_accepted: c.termsAccepted,
    booking_type: offline ? 'OFFLINE' : 'ONLINE',
    location_id: offline ? (s.selectedLocation?.id ?? 0) : 0,
    amount: s.selectedTherapist?.price ?? 0, // a missing price sends 0 (spec section 9)
  };
  // Asked (and sent) only under 18: an adult's booking carries no such field.
  if (needsGuardianConsent(c.age)) payload.guardian_consent = c.guardianConsent;
  // Sent only when ticked: a booking without it is what the server has always been sent.
  if (c.whatsappReminders) payload.whatsapp_reminders = true;
  if (c.state) payload.client_state = c.state;
  if (c.city) payload.client_city = c.city;
  if (s.selectedService) payload.service_id = s.selectedService.id;
  if (transactionId) payload.payment_transaction_id = transactionId;
  const email = s.selectedTherapist?.email;
  if (email) payload.therapist_email = email;
  return payload as BookingCreateInput;
}

export type Checked = { ok: true; data: BookingCreate } | { ok: false; form: FormErrors; other: Record<string, string> };

/** Validates with the same zod schema as the server; form errors are keyed by form field. */
export function checkBooking(s: BookingState, transactionId?: string): Checked {
  const r = bookingCreateSchema.safeParse(bookingPayload(s, transactionId));
  if (r.success) return { ok: true, data: r.data };
  const form: FormErrors = {};
  const other: Record<string, string> = {};
  for (const [key, message] of Object.entries(fieldErrorsOf(r.error))) {
    if (!message) continue;
    const field = FIELD_OF_PAYLOAD[key];
    if (field) form[field] = message;
    else other[key] = message;
  }
  // zod skips the schema's state/city refinement while other fields fail; apply the same rule
  // here so every message shows at once.
  const state = s.clientInfo.state.trim();
  const city = s.clientInfo.city.trim();
  if (s.bookingType !== 'offline') {
    if (!state) form.state ??= FIELD_MESSAGES.stateRequired;
    if (!city) form.city ??= FIELD_MESSAGES.cityRequired;
  }
  if (state && city && !isCityOf(state, city)) form.city ??= FIELD_MESSAGES.cityNotInState;
  if (needsGuardianConsent(s.clientInfo.age) && !s.clientInfo.guardianConsent) form.guardianConsent ??= FIELD_MESSAGES.guardianConsentRequired;
  return { ok: false, form, other };
}
