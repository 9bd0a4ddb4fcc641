/**
 * The Manual Booking form's values, its checks and the request it becomes. The checks are here and
 * nowhere else: the form calls `validateManualBooking` and draws what it returns.
 */
import { manualBookingSchema } from '../../../../../shared/contract/admin.ts';
import { fieldErrorsOf } from '../../../../../shared/contract/booking.ts';
import { normaliseIndianMobile } from '../../../../../shared/domain/contact.ts';
import { isOnlineType } from '../../../../../shared/domain/therapist.ts';
import type { AdminTherapist, ManualBookingPayload, PaymentMethod } from '../../../lib/admin-api.ts';

/**
 * How the session was settled (issue 31): paid now (a desk method), not paid yet with a payment link
 * sent to the client (online), or paid at the centre (in person), or with one session of a package the
 * client bought (issue 34: no money moves). Online asks; in person is paid at the centre unless told.
 */
export type Settlement = '' | 'PAID_NOW' | 'SEND_LINK' | 'PAY_AT_CENTRE' | 'FROM_PACKAGE';

export const SETTLEMENT_MESSAGES = {
  settlementRequired: 'Choose how the session was settled.',
  methodRequired: 'Choose the payment method.',
  saleRequired: 'Choose the package the session is taken from.',
} as const;

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
  settlement: Settlement;
  paymentMethod: '' | PaymentMethod;
  /** The package sale a session "From a package" uses a credit of. */
  packageSaleId: string;
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
  settlement: '',
  paymentMethod: '',
  packageSaleId: '',
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
  payment_method: 'paymentMethod',
  package_sale_id: 'packageSaleId',
};

/**
 * The form checked with the server's own schema (manualBookingSchema), its messages under the form's
 * fields, and the settlement the form asks for (chosen; a method when paid now).
 */
export function validateManualBooking(f: Form): Errors {
  const e: Errors = {};
  const parsed = manualBookingSchema.safeParse(toPayload(f, null, ''));
  if (!parsed.success) {
    for (const [field, message] of Object.entries(fieldErrorsOf(parsed.error))) {
      const key = FORM_FIELD[field];
      if (key && message) e[key] ??= message;
    }
  }
  if (f.bookingType && !f.settlement) e.settlement = SETTLEMENT_MESSAGES.settlementRequired;
  if (f.settlement === 'PAID_NOW' && !f.paymentMethod) e.paymentMethod ??= SETTLEMENT_MESSAGES.methodRequired;
  if (f.settlement === 'FROM_PACKAGE' && !f.packageSaleId) e.packageSaleId = SETTLEMENT_MESSAGES.saleRequired;
  return e;
}

/** What choosing a therapist fills in: their type of session, their centre in person, their price. */
export function filledBy(t: AdminTherapist | undefined): Partial<Form> {
  if (!t) return {};
  return {
    bookingType: isOnlineType(t.type) ? 'ONLINE' : 'OFFLINE',
    // In person it is paid at the centre unless the desk says otherwise; online the desk must say.
    settlement: isOnlineType(t.type) ? '' : 'PAY_AT_CENTRE',
    paymentMethod: '',
    packageSaleId: '',
    locationId: !isOnlineType(t.type) && t.locations ? String(t.locations) : '',
    ...(t.price != null ? { amount: String(t.price) } : {}),
  };
}

function firstEmail(email: AdminTherapist['email']): string | undefined {
  return (Array.isArray(email) ? email[0] : email) || undefined;
}

/**
 * An admin-confirmed booking: paid now is Completed with its method (the ledger records it), a payment
 * link to send or a fee paid at the visit is Pending. What manualBookingSchema reads, on the server as here.
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
    payment_status: form.settlement === 'PAID_NOW' || form.settlement === 'FROM_PACKAGE' ? 'COMPLETED' : 'PENDING',
    admin_confirmed: true,
    payment_transaction_id: transactionId,
  };
  if (form.settlement === 'PAID_NOW' && form.paymentMethod) payload.payment_method = form.paymentMethod;
  if (form.settlement === 'FROM_PACKAGE' && form.packageSaleId) payload.package_sale_id = Number(form.packageSaleId);
  const email = therapist ? firstEmail(therapist.email) : undefined;
  if (email) payload.therapist_email = email;
  return payload;
}
