import { z } from 'zod';
import { WAITLIST_TIMES } from '../domain/waitlist.ts';
import {
  ageField,
  dateField,
  emailField,
  fullNameField,
  idField,
  mobileField,
  needsGuardianConsent,
  noteField,
  sessionTypeField,
  termsField,
} from './booking.ts';
import { FIELD_MESSAGES } from './messages.ts';
import { isCityOf } from '../domain/india.ts';

/**
 * The waitlist (issue 34): POST /api/waitlist joins, the private link's calls (GET
 * /api/waitlist/{token}, POST …/claim, POST …/leave) and the panel's GET /api/admin/waitlist.
 */

export const WAITLIST_MESSAGES = {
  joined: 'You are on the waitlist. We will e-mail you as soon as a matching time comes free.',
  rangeOrder: 'The last date must be on or after the first.',
  perClient: (limit: number) =>
    `You are already waiting for ${limit} ${limit === 1 ? 'time' : 'times'}. Please leave one of those waitlists (from the link in its e-mail) before joining another.`,
  perAddress: (minutes: number) =>
    `Too many waitlist requests came from your network in the last few minutes. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  noOffer: 'No time is being held for you right now. We will e-mail you when one comes free.',
  offerEnded: 'The time held for you has been passed on, as it was not claimed in time. You are still on the waitlist.',
  closedBooked: 'You have already booked from this waitlist.',
  left: 'You have left the waitlist. We will not contact you about it again.',
} as const;

export const waitlistTimesField = z
  .array(z.enum(WAITLIST_TIMES, { error: `Times must be among ${WAITLIST_TIMES.join(', ')}` }), { error: 'Times must be a list' })
  .max(WAITLIST_TIMES.length)
  .refine((t) => new Set(t).size === t.length, { error: 'Each time of day may be named once' });

/** POST /api/waitlist. `times`: parts of the day (WAITLIST_TIMES); absent or empty: any time. */
export const waitlistJoinSchema = z
  .strictObject({
    therapist_id: idField('Therapist'),
    from_date: dateField,
    to_date: dateField,
    times: waitlistTimesField.optional(),
    client_full_name: fullNameField,
    client_email: emailField,
    client_mobile: mobileField,
    /** Ticked WAITLIST_WHATSAPP_CONSENT: the offer comes on WhatsApp too. */
    whatsapp_offers: z.boolean({ error: 'whatsapp_offers must be true or false' }).optional(),
  })
  .refine((v) => v.from_date <= v.to_date, { path: ['to_date'], error: WAITLIST_MESSAGES.rangeOrder });
export type WaitlistJoin = z.output<typeof waitlistJoinSchema>;

export const waitlistJoinResponseSchema = z.strictObject({ entry_id: z.number().int(), message: z.string() });
export type WaitlistJoinResponse = z.infer<typeof waitlistJoinResponseSchema>;

export const waitlistTokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'Not found' }) });

export const WAITLIST_STATUSES = ['waiting', 'offered', 'booked', 'left'] as const;

const offerSchema = z.strictObject({
  booking_id: z.number().int(),
  booking_date: z.string(),
  booking_time_slot_start: z.string(),
  /** ISO 8601: the slot is held for the client until then. */
  expires_at: z.string(),
});

/** GET /api/waitlist/{token}: the client's place on the list and the slot held for them, if any. */
export const waitlistEntrySchema = z.strictObject({
  therapist: z.strictObject({ id: z.number().int(), name: z.string() }),
  booking_type: z.enum(['ONLINE', 'OFFLINE']),
  centre: z.strictObject({ name: z.string(), address: z.string() }).nullable(),
  from_date: z.string(),
  to_date: z.string(),
  times: z.array(z.enum(WAITLIST_TIMES)),
  status: z.enum(WAITLIST_STATUSES),
  /** Rupees. */
  amount: z.number(),
  offer: offerSchema.nullable(),
});
export type WaitlistEntryDto = z.infer<typeof waitlistEntrySchema>;

/**
 * POST /api/waitlist/{token}/claim: what the wizard's details step asks that joining did not (the name,
 * e-mail and mobile are the entry's). Answered as POST /confirm-booking answers.
 */
export const waitlistClaimSchema = z
  .strictObject({
    client_age: ageField,
    session_type: sessionTypeField,
    client_state: z.string().trim().max(60).optional(),
    client_city: z.string().trim().max(80).optional(),
    client_note: noteField.optional(),
    terms_accepted: termsField,
    guardian_consent: z.boolean().optional(),
    whatsapp_reminders: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (needsGuardianConsent(v.client_age) && v.guardian_consent !== true) {
      ctx.addIssue({ code: 'custom', path: ['guardian_consent'], message: FIELD_MESSAGES.guardianConsentRequired });
    }
    if (v.client_state && v.client_city && !isCityOf(v.client_state, v.client_city)) {
      ctx.addIssue({ code: 'custom', path: ['client_city'], message: FIELD_MESSAGES.cityNotInState });
    }
  });
export type WaitlistClaim = z.output<typeof waitlistClaimSchema>;

export const waitlistLeaveResponseSchema = z.strictObject({ message: z.string() });

/** GET /api/admin/waitlist?therapist_id=: the therapist's live entries in the order they are offered. */
export const adminWaitlistQuerySchema = z.strictObject({ therapist_id: z.coerce.number().int().positive().max(2_147_483_647) });
export const adminWaitlistSchema = z.strictObject({
  entries: z.array(
    z.strictObject({
      id: z.number().int(),
      position: z.number().int(),
      client_full_name: z.string(),
      client_email: z.string(),
      client_mobile: z.string(),
      from_date: z.string(),
      to_date: z.string(),
      times: z.array(z.enum(WAITLIST_TIMES)),
      status: z.enum(WAITLIST_STATUSES),
      joined_at: z.string(),
      offer: offerSchema.nullable(),
    }),
  ),
});
export type AdminWaitlistDto = z.infer<typeof adminWaitlistSchema>;
