import { z } from 'zod';
import { isEmailAddress, normaliseIndianMobile } from '../domain/contact.ts';
import { isCityOf } from '../domain/india.ts';
import { isHhMm, isIsoDate } from '../domain/time.ts';
import { FIELD_MESSAGES as M } from './messages.ts';

/** A required text field whose missing, wrong-typed and empty forms all say `required`. */
const requiredText = (required: string, max: number) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(max, { error: `Must be at most ${max} characters` });

const optionalText = (max: number) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, { error: `Must be at most ${max} characters` });

export const fullNameField = requiredText(M.fullNameRequired, 100);
export const emailField = requiredText(M.emailRequired, 254).refine(isEmailAddress, { error: M.emailInvalid });
/** The common Indian forms (+91, 91, a leading 0, spaces, dashes) become the 10 digits, then the rule applies. */
export const mobileField = z
  .string({ error: M.mobileRequired })
  .trim()
  .min(1, { error: M.mobileRequired })
  .transform(normaliseIndianMobile)
  .pipe(z.string().regex(/^\d{10}$/, { error: M.mobileDigits }));
export const ageField = z.number({ error: M.ageRequired }).int({ error: M.ageRange }).min(1, { error: M.ageRequired }).max(120, { error: M.ageRange });
export const sessionTypeField = z.enum(['individual', 'couple'], { error: M.sessionTypeRequired });
export const termsField = z.literal(true, { error: M.termsRequired });
/** The terms' minimum age: a younger client books only with a parent's or guardian's consent. */
export const MINIMUM_AGE_WITHOUT_GUARDIAN = 18;
export const noteField = optionalText(2000);
/** A booking request's idempotency key (POST /confirm-booking's payment_transaction_id). */
export const transactionIdField = optionalText(64).regex(/^[A-Za-z0-9_-]*$/, { error: 'Transaction id may hold letters, digits, - and _ only' });

/**
 * The WhatsApp reminder opt-in (issue 21): the box's label and what ticking it agrees to. One place,
 * so the page shows and the server records (bookings.whatsapp_consent_text) the very same words.
 * Honest about what happens: the one reminder, to the number given, instead of the e-mail; no
 * promise of a STOP reply (nothing reads replies), but a way to stop it.
 */
export const WHATSAPP_CONSENT = {
  label: 'Send me reminders on WhatsApp',
  detail:
    "The reminder a day before this session comes to the mobile number above on WhatsApp (Meta's service) instead of by e-mail; if WhatsApp cannot reach you, it comes by e-mail. To stop it, call or write to us.",
} as const;
/** What a booking records as agreed to, word for word: the label, then its wording. */
export const WHATSAPP_CONSENT_TEXT = `${WHATSAPP_CONSENT.label}. ${WHATSAPP_CONSENT.detail}`;

/**
 * The waitlist's WhatsApp opt-in (issue 34), on the join form as the wizard's box is: the offer of a
 * freed time comes on WhatsApp as well as by e-mail (waitlist_entries.whatsapp_consent_text records it).
 */
export const WAITLIST_WHATSAPP_CONSENT = {
  label: 'Also tell me on WhatsApp when a time comes free',
  detail:
    "When a time is held for you, a message comes to the mobile number above on WhatsApp (Meta's service) as well as the e-mail. To stop it, leave the waitlist from your link, or call or write to us.",
} as const;
export const WAITLIST_WHATSAPP_CONSENT_TEXT = `${WAITLIST_WHATSAPP_CONSENT.label}. ${WAITLIST_WHATSAPP_CONSENT.detail}`;

export const BOOKING_TYPES = ['ONLINE', 'OFFLINE'] as const;
export const PAYMENT_STATUSES = ['COMPLETED', 'PENDING', 'INITIATED', 'FAILED', 'BLOCKED', 'CANCELLED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const dateField = z.string({ error: 'Booking date is required' }).refine(isIsoDate, { error: 'Booking date must be a real date written YYYY-MM-DD' });
export const timeField = z
  .string({ error: 'Time slot is required' })
  .refine(isHhMm, { error: 'Time must be written HH:MM (24-hour)' })
  .transform((t) => t.slice(0, 5));
/** PostgreSQL's integer (int4) ceiling: every id column is one, and a larger number failed its query as a 500. */
export const INT4_MAX = 2_147_483_647;

export const idField = (label: string) =>
  z
    .number({ error: `${label} is required` })
    .int({ error: `${label} must be a whole number` })
    .positive({ error: `${label} is required` })
    .max(INT4_MAX, { error: `${label} does not exist` });

/** State and city: required for online sessions only, and the city must belong to the state. */
function refineStateCity(v: { booking_type: string; client_state?: string | undefined; client_city?: string | undefined }, ctx: z.RefinementCtx): void {
  const state = v.client_state?.trim() ?? '';
  const city = v.client_city?.trim() ?? '';
  if (v.booking_type === 'ONLINE') {
    if (!state) ctx.addIssue({ code: 'custom', path: ['client_state'], message: M.stateRequired });
    if (!city) ctx.addIssue({ code: 'custom', path: ['client_city'], message: M.cityRequired });
  }
  if (state && city && !isCityOf(state, city)) {
    ctx.addIssue({ code: 'custom', path: ['client_city'], message: M.cityNotInState });
  }
  if (!state && city) ctx.addIssue({ code: 'custom', path: ['client_state'], message: M.stateRequired });
}

/** Under 18, a parent or guardian must have agreed (the terms' eligibility rule). */
export function needsGuardianConsent(age: number | null | undefined): boolean {
  return typeof age === 'number' && age >= 1 && age < MINIMUM_AGE_WITHOUT_GUARDIAN;
}

function refineGuardian(v: { client_age: number; guardian_consent?: boolean | undefined }, ctx: z.RefinementCtx): void {
  if (needsGuardianConsent(v.client_age) && v.guardian_consent !== true) {
    ctx.addIssue({ code: 'custom', path: ['guardian_consent'], message: M.guardianConsentRequired });
  }
}

/**
 * POST /confirm-booking (spec section 3, with the details form's fields). The same schema
 * validates the wizard's form in the browser and the request on the server.
 */
export const bookingCreateSchema = z
  .strictObject({
    therapist_id: idField('Therapist'),
    booking_date: dateField,
    booking_time_slot_start: timeField,
    client_full_name: fullNameField,
    client_email: emailField,
    client_mobile: mobileField,
    client_age: ageField,
    client_state: optionalText(60).optional(),
    client_city: optionalText(80).optional(),
    client_note: noteField.optional(),
    session_type: sessionTypeField,
    terms_accepted: termsField,
    guardian_consent: z.boolean({ error: 'guardian_consent must be true or false' }).optional(),
    /** Ticked "Send me reminders on WhatsApp" (WHATSAPP_CONSENT); absent or false: e-mail only. */
    whatsapp_reminders: z.boolean({ error: 'whatsapp_reminders must be true or false' }).optional(),
    booking_type: z.enum(BOOKING_TYPES, { error: 'Booking type must be ONLINE or OFFLINE' }),
    location_id: z.number({ error: 'Location must be a number' }).int().min(0).max(INT4_MAX, { error: 'The selected location does not exist' }).default(0),
    service_id: z.number().int().positive().max(INT4_MAX, { error: 'The selected service does not exist' }).optional(),
    payment_transaction_id: transactionIdField.optional(),
    therapist_email: optionalText(254).optional(),
    // The client's figure is accepted for compatibility and ignored: the price comes from the database.
    amount: z.number({ error: 'Amount must be a number' }).min(0).max(10_000_000).optional(),
    admin_confirmed: z.boolean().optional(),
    payment_status: z.enum(PAYMENT_STATUSES).optional(),
  })
  .superRefine((v, ctx) => {
    refineStateCity(v, ctx);
    refineGuardian(v, ctx);
  });

export type BookingCreateInput = z.input<typeof bookingCreateSchema>;
export type BookingCreate = z.output<typeof bookingCreateSchema>;

/**
 * booking_token: the secret only the client who made a public booking receives; the payment-link and
 * booking-details calls ask for it (header X-Booking-Token). Admin bookings carry none.
 */
export const bookingCreateResponseSchema = z.strictObject({ booking_id: z.number().int(), message: z.string(), booking_token: z.string().optional() });
export type BookingCreateResponse = z.infer<typeof bookingCreateResponseSchema>;

/** Field errors keyed by payload field, the first message per field. */
export type FieldErrors = Partial<Record<string, string>>;

export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out[key] ??= `Unknown field: ${key}`;
      continue;
    }
    const key = issue.path.length ? String(issue.path[0]) : '_';
    out[key] ??= issue.message;
  }
  return out;
}
