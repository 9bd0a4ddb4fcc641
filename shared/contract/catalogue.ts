/**
 * The centre's catalogue and staff, managed from the admin panel (issue 20): request schemas and
 * answer shapes. Money here is rupees, as everywhere at the edges; field names follow GET /therapists.
 */
import { z } from 'zod';
import { SESSION_MINUTES } from '../domain/session.ts';
import { isHhMm, isIsoDate, timeToMinutes } from '../domain/time.ts';
import { loginResponseSchema } from './admin.ts';
import { INT4_MAX } from './booking.ts';
import { FIELD_MESSAGES } from './messages.ts';

/** The catalogue's answers that more than one check gives. */
export const CATALOGUE_MESSAGES = {
  inPersonNeedsLocation: 'An in-person therapist needs a location_id',
  serviceNameTaken: 'A service with this name already exists.',
  locationNotFound: (id: number) => `Location ${id} was not found.`,
} as const;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` });
const required = (label: string, max: number) => text(label, max).min(1, { error: `${label} is required` });
const email = z
  .string({ error: 'Each e-mail must be an address' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'E-mail addresses are at most 254 characters' })
  .refine((v) => EMAIL_RE.test(v), { error: FIELD_MESSAGES.emailInvalid });
const id = (label: string) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int({ error: `${label} must be a whole number` })
    .positive({ error: `${label} must be a whole number` })
    .max(INT4_MAX, { error: `${label} must be a whole number` });
export const isoDate = (label: string) =>
  z.string({ error: `${label} is required` }).refine(isIsoDate, { error: `${label} must be a real date written YYYY-MM-DD` });

/** A price in rupees with at most two decimals (null: no price set, books at ₹0). */
const price = z
  .number({ error: 'Price must be a number of rupees' })
  .min(0, { error: 'Price must not be negative' })
  .max(1_000_000, { error: 'Price is too large' })
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { error: 'Price may have at most two decimals' })
  .nullable();

/** The bio's four parts, as the team page shows them; stored pipe-separated (spec section 3). */
export const BIO_PARTS = ['summary', 'approaches', 'experience', 'languages'] as const;
const bioPart = (label: string) => text(label, 1000).refine((v) => !v.includes('|'), { error: `${label} must not contain "|"` });
const bio = z.union(
  [
    z.string({ error: 'Bio must be text' }).trim().max(4000, { error: 'Bio must be at most 4000 characters' }),
    z.strictObject({
      summary: bioPart('Summary').optional(),
      approaches: bioPart('Approaches').optional(),
      experience: bioPart('Experience').optional(),
      languages: bioPart('Languages').optional(),
    }),
  ],
  { error: 'Bio must be text or an object with summary, approaches, experience and languages' },
);
export type BioInput = z.output<typeof bio>;
export function bioText(b: BioInput): string {
  if (typeof b === 'string') return b;
  return BIO_PARTS.map((k) => b[k] ?? '').join('|');
}
export function bioParts(stored: string): Record<(typeof BIO_PARTS)[number], string> {
  const parts = stored.split('|');
  return { summary: parts[0]?.trim() ?? '', approaches: parts[1]?.trim() ?? '', experience: parts[2]?.trim() ?? '', languages: parts[3]?.trim() ?? '' };
}

const therapistFields = {
  name: required('Name', 120),
  title: text('Title', 120),
  specialization: text('Specialization', 200),
  bio,
  price,
  type: z.union([z.literal(1), z.literal(2)], { error: 'type must be 1 (online) or 2 (in person)' }),
  email: z.preprocess(
    (v) => (typeof v === 'string' ? [v] : v),
    z.array(email, { error: 'email must be an address or a list of addresses' }).max(5, { error: 'At most 5 e-mail addresses' }),
  ),
  location_id: id('location_id').nullable(),
  service_ids: z
    .array(id('Each service id'), { error: 'service_ids must be a list of service ids' })
    .max(50, { error: 'At most 50 services' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'service_ids must not repeat a service' }),
};

export const therapistCreateSchema = z
  .strictObject({
    ...therapistFields,
    title: therapistFields.title.default(''),
    specialization: therapistFields.specialization.default(''),
    bio: therapistFields.bio.default(''),
    price: therapistFields.price.default(null),
    email: therapistFields.email.default([]),
    location_id: therapistFields.location_id.optional(),
    service_ids: therapistFields.service_ids.default([]),
  })
  .superRefine((v, ctx) => {
    if (v.type === 2 && !v.location_id) ctx.addIssue({ code: 'custom', path: ['location_id'], message: CATALOGUE_MESSAGES.inPersonNeedsLocation });
  });
export type TherapistCreate = z.output<typeof therapistCreateSchema>;

export const therapistPatchSchema = z
  .strictObject({
    name: therapistFields.name.optional(),
    title: therapistFields.title.optional(),
    specialization: therapistFields.specialization.optional(),
    bio: therapistFields.bio.optional(),
    price: therapistFields.price.optional(),
    type: therapistFields.type.optional(),
    email: therapistFields.email.optional(),
    location_id: therapistFields.location_id.optional(),
    service_ids: therapistFields.service_ids.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { error: 'Send at least one field to change' });
export type TherapistPatch = z.output<typeof therapistPatchSchema>;

/** Weekly hours: per weekday Monday–Saturday, the hour-long sessions' start times. */
export const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type WeekdayKey = (typeof WEEKDAY_KEYS)[number];
/** 0 Sunday … 6 Saturday, as Date#getUTCDay and PostgreSQL's extract(dow). */
export const WEEKDAY_NUMBER: Record<WeekdayKey, number> = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const EARLIEST = 6 * 60;
const LATEST = 22 * 60;
const dayHours = (day: string) =>
  z
    .array(
      z
        .string({ error: `${day}: each start time must be written HH:MM` })
        .refine(isHhMm, { error: `${day}: each start time must be written HH:MM (24-hour)`, abort: true })
        .transform((t) => t.slice(0, 5))
        .refine((t) => timeToMinutes(t) >= EARLIEST && timeToMinutes(t) <= LATEST, { error: `${day}: sessions start between 06:00 and 22:00` }),
      { error: `${day} must be a list of start times` },
    )
    .max(17, { error: `${day}: at most 17 sessions a day` })
    .superRefine((starts, ctx) => {
      const sorted = starts.map(timeToMinutes).sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++) {
        if (sorted[i]! - sorted[i - 1]! < SESSION_MINUTES) {
          ctx.addIssue({ code: 'custom', message: `${day}: sessions last an hour, so start times must be at least ${SESSION_MINUTES} minutes apart` });
          return;
        }
      }
    });
export const weeklyHoursSchema = z.strictObject({
  mon: dayHours('Monday'),
  tue: dayHours('Tuesday'),
  wed: dayHours('Wednesday'),
  thu: dayHours('Thursday'),
  fri: dayHours('Friday'),
  sat: dayHours('Saturday'),
});
export type WeeklyHours = Record<WeekdayKey, string[]>;

export const timeOffSchema = z
  .strictObject({
    from_date: isoDate('from_date'),
    to_date: isoDate('to_date'),
    reason: text('Reason', 300).default(''),
  })
  .refine((v) => v.to_date >= v.from_date, { error: 'to_date must not be before from_date', path: ['to_date'] });
export type TimeOffInput = z.output<typeof timeOffSchema>;

export const holidaySchema = z.strictObject({ date: isoDate('date'), reason: text('Reason', 300).default('') });
export type HolidayInput = z.output<typeof holidaySchema>;

export const serviceSchema = z.strictObject({ name: required('Name', 200) });

export const locationPatchSchema = z
  .strictObject({
    name: required('Name', 120).optional(),
    description: text('Description', 1000).optional(),
    address: required('Address', 500).optional(),
    phone: text('Phone', 40)
      .regex(/^[0-9+() -]*$/, { error: 'Phone may hold digits, spaces, +, -, and brackets only' })
      .optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { error: 'Send at least one field to change' });
export type LocationPatch = z.output<typeof locationPatchSchema>;

export const attendanceSchema = z.strictObject({
  status: z.enum(['ATTENDED', 'NO_SHOW'], { error: 'status must be ATTENDED or NO_SHOW' }),
});

// ---- Staff
/** The staff accounts' answers: the panel's (services/staff.service.ts) and the command line's (admin-user.service.ts). */
export const STAFF_MESSAGES = {
  commonPassword: 'This password is too common. Please choose one that is harder to guess.',
  wrongCurrent: 'The current password is not correct.',
  samePassword: 'The new password must differ from the current one.',
  lastSuperadmin: 'This is the last active super admin: make another super admin first.',
  notFound: (id: number) => `Admin ${id} was not found.`,
  exists: 'An admin with this username or email already exists.',
  linkInvalid: 'This link is not valid or has expired. Ask a super admin for a new one.',
  inactive: 'This account is deactivated. Ask a super admin to activate it.',
} as const;

export const username = z
  .string({ error: 'Username is required' })
  .trim()
  .min(3, { error: 'Username must be at least 3 characters' })
  .max(50, { error: 'Username must be at most 50 characters' })
  .regex(/^[A-Za-z0-9._-]+$/, { error: 'Username may hold letters, digits, dot, dash and underscore only' });
export const newPassword = z
  .string({ error: 'Password is required' })
  .min(12, { error: 'Password must be at least 12 characters' })
  .max(256, { error: 'Password must be at most 256 characters' });

export const staffCreateSchema = z.strictObject({
  username,
  email,
  is_superadmin: z.boolean({ error: 'is_superadmin must be true or false' }).default(false),
  password: newPassword.optional(),
});
export type StaffCreate = z.output<typeof staffCreateSchema>;

export const mePasswordSchema = z.strictObject({
  current_password: z.string({ error: 'Current password is required' }).min(1, { error: 'Current password is required' }).max(256),
  new_password: newPassword,
});

export const setPasswordSchema = z.strictObject({
  token: z.string({ error: 'The link is not valid' }).regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'The link is not valid' }),
  password: newPassword,
});

// ---- Answers
const bioPartsSchema = z.strictObject({ summary: z.string(), approaches: z.string(), experience: z.string(), languages: z.string() }) satisfies z.ZodType<
  Record<(typeof BIO_PARTS)[number], string>
>;
const weeklyHoursAnswer = z.strictObject({
  mon: z.array(z.string()),
  tue: z.array(z.string()),
  wed: z.array(z.string()),
  thu: z.array(z.string()),
  fri: z.array(z.string()),
  sat: z.array(z.string()),
}) satisfies z.ZodType<WeeklyHours>;
export const timeOffDtoSchema = z.strictObject({ id: z.number().int(), from_date: z.string(), to_date: z.string(), reason: z.string() });
export type TimeOffDto = z.infer<typeof timeOffDtoSchema>;
export const catalogueTherapistSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  specialization: z.string(),
  bio: z.string(),
  bio_parts: bioPartsSchema,
  price: z.number().nullable(),
  image_url: z.string(),
  type: z.number().int(),
  location_id: z.number().int().nullable(),
  service_ids: z.array(z.number().int()),
  email: z.array(z.string()),
  is_active: z.boolean(),
  hours: weeklyHoursAnswer,
  time_off: z.array(timeOffDtoSchema),
});
export type CatalogueTherapistDto = z.infer<typeof catalogueTherapistSchema>;
export const holidayDtoSchema = z.strictObject({ id: z.number().int(), date: z.string(), reason: z.string() });
export type HolidayDto = z.infer<typeof holidayDtoSchema>;
/** A live booking a change touches: the centre decides about each one (nothing is cancelled silently). */
export const affectedBookingSchema = z.strictObject({
  id: z.number().int(),
  therapist_id: z.number().int(),
  therapist_name: z.string(),
  booking_date: z.string(),
  booking_time_slot_start: z.string(),
  booking_type: z.enum(['ONLINE', 'OFFLINE', 'ADMIN_BLOCK']),
  client_full_name: z.string(),
  payment_status: z.string(),
});
export type AffectedBookingDto = z.infer<typeof affectedBookingSchema>;
export const staffDtoSchema = z.strictObject({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  is_superadmin: z.boolean(),
  is_active: z.boolean(),
  /** An invitation or reset link is out and unused, not expired. */
  invitation_pending: z.boolean(),
  created_at: z.string(),
});
export type StaffDto = z.infer<typeof staffDtoSchema>;

/** The answers of the catalogue and staff writes (issue 20): what changed, and the live bookings it touches. */
export const therapistActiveResponseSchema = z.strictObject({ therapist: catalogueTherapistSchema, live_bookings: z.array(affectedBookingSchema) });
export const therapistPhotoResponseSchema = z.strictObject({ therapist_id: z.number().int(), image_url: z.string() });
export const weeklyHoursResponseSchema = z.strictObject({
  therapist_id: z.number().int(),
  hours: weeklyHoursAnswer,
  outside_hours: z.array(affectedBookingSchema),
});
export const timeOffResponseSchema = z.strictObject({ time_off: timeOffDtoSchema, bookings_inside: z.array(affectedBookingSchema) });
export const holidayResponseSchema = z.strictObject({ holiday: holidayDtoSchema, bookings_inside: z.array(affectedBookingSchema) });
export const deletedResponseSchema = z.strictObject({ deleted: z.literal(true), id: z.number().int() });
export const locationPhotoResponseSchema = z.strictObject({ location_id: z.number().int(), image_url: z.string() });
export const resetPasswordResponseSchema = z.strictObject({ id: z.number().int(), message: z.string() });
/** POST /api/admin/me/password: the other sessions ended; this one carries on with a new token. */
export const passwordChangedResponseSchema = loginResponseSchema.extend({ message: z.string() });
export const setPasswordResponseSchema = z.strictObject({ message: z.string(), username: z.string() });
export const attendanceResponseSchema = z.strictObject({ booking_id: z.number().int(), attendance: z.enum(['ATTENDED', 'NO_SHOW']), message: z.string() });
