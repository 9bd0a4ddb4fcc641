import { z } from 'zod';
import { isHhMm, isIsoDate } from '../domain/time.ts';
import { adminBookingSchema, cancelRefundSchema, cancelResponseSchema, deskMethodSchema, manualBookingSchema } from './admin.ts';
import { INT4_MAX } from './booking.ts';
import { MANUAL_BOOKING_MESSAGES as MB } from './messages.ts';

/**
 * A series (issue 34): a course of sessions with one therapist at one time, every one or two weeks,
 * booked by staff in one request. Each session is a booking like any other. Money here is rupees.
 */
export const SERIES_MIN_SESSIONS = 2;
export const SERIES_MAX_SESSIONS = 52;

export const SERIES_MESSAGES = {
  notFound: (id: number) => `Series ${id} was not found.`,
  created: (id: number, booked: number) => `Series ${id} created: ${booked} ${booked === 1 ? 'session' : 'sessions'} booked.`,
  conflicts: (n: number, of: number) =>
    `${n} of the ${of} ${of === 1 ? 'date' : 'dates'} cannot be booked; nothing was booked. Choose other times for them, or book the rest and skip them.`,
  nothingLeft: 'None of the dates can be booked; nothing was booked.',
  moveConflicts: (n: number) => `${n} ${n === 1 ? 'session' : 'sessions'} cannot be moved there; nothing was moved.`,
  noSessionsFrom: (date: string) => `The series has no session still to come on or after ${date}.`,
  linkOnlineOnly: 'A payment link per session is for online sessions; an in-person series is paid at the centre or now.',
  atCentreInPersonOnly: 'Paying at the centre is for in-person sessions; an online series is paid by link or now.',
  methodWhenPaidNow: 'Please choose how the sessions were paid (cash, card, UPI or bank transfer).',
  methodOnlyWhenPaidNow: 'payment_method is only for sessions paid now.',
  noPrice: 'The therapist has no price set: give the amount per session.',
  sameSlot: 'The sessions are already at this time with this therapist; nothing was moved.',
  moved: (n: number) => `${n} ${n === 1 ? 'session' : 'sessions'} moved.`,
  saleRequired: "Please choose the client's package whose sessions pay for the series.",
  saleOnlyWithPackage: 'package_sale_id is only for a series paid from a package.',
  noAmountWithPackage: 'A series paid from a package takes no amount: each session uses one of its sessions.',
} as const;

/**
 * How the sessions are paid: each by its own payment link (online), at the centre on the day (in
 * person), all now at the desk (payment_method), or one credit each of the client's package sale
 * (PACKAGE, package_sale_id).
 */
export const SERIES_PAYMENTS = ['SEND_LINK', 'PAY_AT_CENTRE', 'PAID_NOW', 'PACKAGE'] as const;

const m = manualBookingSchema.shape;
const dateOf = (label: string) => z.string({ error: `${label} is required` }).refine(isIsoDate, { error: `${label} must be a real date written YYYY-MM-DD` });
const timeOf = z
  .string({ error: MB.slotRequired })
  .refine(isHhMm, { error: 'Time must be written HH:MM (24-hour)' })
  .transform((t) => t.slice(0, 5));

export const seriesCreateSchema = z
  .strictObject({
    therapist_id: m.therapist_id,
    booking_type: m.booking_type,
    location_id: m.location_id,
    booking_time_slot_start: timeOf,
    first_date: dateOf('First date'),
    interval_weeks: z.union([z.literal(1), z.literal(2)], { error: 'interval_weeks must be 1 (every week) or 2 (every two weeks)' }),
    count: z
      .number({ error: `count must be a whole number from ${SERIES_MIN_SESSIONS} to ${SERIES_MAX_SESSIONS}` })
      .int({ error: `count must be a whole number from ${SERIES_MIN_SESSIONS} to ${SERIES_MAX_SESSIONS}` })
      .min(SERIES_MIN_SESSIONS, { error: `count must be a whole number from ${SERIES_MIN_SESSIONS} to ${SERIES_MAX_SESSIONS}` })
      .max(SERIES_MAX_SESSIONS, { error: `count must be a whole number from ${SERIES_MIN_SESSIONS} to ${SERIES_MAX_SESSIONS}` }),
    client_full_name: m.client_full_name,
    client_email: m.client_email,
    client_mobile: m.client_mobile,
    client_note: m.client_note,
    service_id: m.service_id,
    /** "fail" (the default): any date that cannot be booked stops the whole series; "skip": the rest are booked. */
    on_conflict: z.enum(['fail', 'skip'], { error: 'on_conflict must be "fail" or "skip"' }).optional(),
    payment: z.enum(SERIES_PAYMENTS, { error: 'payment must be SEND_LINK, PAY_AT_CENTRE, PAID_NOW or PACKAGE' }),
    payment_method: deskMethodSchema.optional(),
    /** The client's package sale whose credits pay the sessions, one each (payment PACKAGE). */
    package_sale_id: m.package_sale_id,
    /** Rupees per session; the therapist's price when left out. */
    amount: m.amount.optional(),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.booking_type === 'OFFLINE' && !v.location_id) issue('location_id', MB.locationRequired);
    if (v.payment === 'SEND_LINK' && v.booking_type !== 'ONLINE') issue('payment', SERIES_MESSAGES.linkOnlineOnly);
    if (v.payment === 'PAY_AT_CENTRE' && v.booking_type !== 'OFFLINE') issue('payment', SERIES_MESSAGES.atCentreInPersonOnly);
    if (v.payment === 'PAID_NOW' && !v.payment_method) issue('payment_method', SERIES_MESSAGES.methodWhenPaidNow);
    if (v.payment !== 'PAID_NOW' && v.payment_method) issue('payment_method', SERIES_MESSAGES.methodOnlyWhenPaidNow);
    if (v.payment === 'PACKAGE' && v.package_sale_id === undefined) issue('package_sale_id', SERIES_MESSAGES.saleRequired);
    if (v.payment !== 'PACKAGE' && v.package_sale_id !== undefined) issue('package_sale_id', SERIES_MESSAGES.saleOnlyWithPackage);
    if (v.payment === 'PACKAGE' && v.amount !== undefined) issue('amount', SERIES_MESSAGES.noAmountWithPackage);
  });
export type SeriesCreateInput = z.input<typeof seriesCreateSchema>;
export type SeriesCreate = z.output<typeof seriesCreateSchema>;

/** A date of the series that cannot be booked (or moved to), why in words, and the nearest free start that day with the same therapist. */
export const seriesConflictSchema = z.strictObject({
  booking_date: z.string(),
  reason: z.string(),
  nearest_free_time: z.string().nullable(),
});
export type SeriesConflict = z.infer<typeof seriesConflictSchema>;

const seriesSessionRefSchema = z.strictObject({ id: z.number().int(), booking_date: z.string(), booking_time_slot_start: z.string() });

/** 201: the series and its sessions; `conflicts` lists the dates skipped (on_conflict "skip"). */
export const seriesCreatedSchema = z.strictObject({
  series_id: z.number().int(),
  bookings: z.array(seriesSessionRefSchema),
  conflicts: z.array(seriesConflictSchema),
  message: z.string(),
});
export type SeriesCreated = z.infer<typeof seriesCreatedSchema>;

/** 409: the dates that cannot be booked or moved to; nothing was written. */
export const seriesConflictResponseSchema = z.strictObject({ detail: z.string(), conflicts: z.array(seriesConflictSchema) });
export type SeriesConflictResponse = z.infer<typeof seriesConflictResponseSchema>;

/** GET /api/admin/series/{id}: what was asked, and every session (cancelled ones too), in date order. */
export const seriesDetailSchema = z.strictObject({
  series_id: z.number().int(),
  therapist_id: z.number().int(),
  booking_type: z.enum(['ONLINE', 'OFFLINE']),
  location_id: z.number().int().nullable(),
  booking_time_slot_start: z.string(),
  first_date: z.string(),
  interval_weeks: z.number().int(),
  sessions_asked: z.number().int(),
  client_full_name: z.string(),
  client_email: z.string(),
  client_mobile: z.string(),
  payment: z.enum(SERIES_PAYMENTS),
  package_sale_id: z.number().int().nullable(),
  created_at: z.string(),
  sessions: z.array(adminBookingSchema),
});
export type SeriesDetail = z.infer<typeof seriesDetailSchema>;

/** "This session" (the one on from_date) or "this and following" (every live session from from_date on, the default). */
const scopeSchema = z.enum(['this', 'following'], { error: 'scope must be "this" or "following"' }).optional();

export const seriesCancelSchema = z.strictObject({
  from_date: dateOf('from_date'),
  scope: scopeSchema,
  /** What becomes of each paid session's money, as a single cancel decides it (PARTIAL's amount is per session). */
  refund: cancelRefundSchema.optional(),
});
export type SeriesCancel = z.output<typeof seriesCancelSchema>;

export const seriesCancelResponseSchema = z.strictObject({
  series_id: z.number().int(),
  cancelled: z.array(cancelResponseSchema),
  message: z.string(),
});
export type SeriesCancelResponse = z.infer<typeof seriesCancelResponseSchema>;

export const seriesMoveSchema = z.strictObject({
  from_date: dateOf('from_date'),
  scope: scopeSchema,
  booking_time_slot_start: timeOf,
  /** Another therapist of the same type (and centre, in person); the same one when left out. */
  therapist_id: z.number().int().positive().max(INT4_MAX, { error: 'The selected therapist does not exist.' }).optional(),
});
export type SeriesMove = z.output<typeof seriesMoveSchema>;

export const seriesMovedSchema = z.strictObject({
  series_id: z.number().int(),
  bookings: z.array(seriesSessionRefSchema.extend({ therapist_id: z.number().int() })),
  message: z.string(),
});
export type SeriesMoved = z.infer<typeof seriesMovedSchema>;
