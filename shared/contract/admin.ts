import { z } from 'zod';
import { isEmailAddress, normaliseIndianMobile } from '../domain/contact.ts';
import { DISCREPANCY_KINDS, REVIEW_NOTE_MAX, type PaymentsProviderName } from '../domain/payment-discrepancy.ts';
import { PAYMENT_STATES } from '../domain/payment-state.ts';
import type { AdminSlotStatesDay } from '../domain/slot-states.ts';
import { ADMIN_WINDOW_DAYS } from '../domain/slots.ts';
import { isHhMm, isIsoDate } from '../domain/time.ts';
import { INT4_MAX, PAYMENT_STATUSES, type PaymentStatus } from './booking.ts';
import { API_MESSAGES, MANUAL_BOOKING_MESSAGES as MB } from './messages.ts';
import { refundResultSchema, refundReviewListSchema, type RefundResult } from './refunds.ts';
import { formatRupees } from '../domain/money.ts';

/** Admin request schemas and response shapes (spec sections 3 and 7). Money here is rupees. */

export const ADMIN_MESSAGES = {
  loginFailed: 'Incorrect username or password',
  loginMissing: 'Username and password are required.',
  loginThrottled: 'Too many failed sign-in attempts. Please wait 15 minutes and try again.',
  loginUnavailable: 'Sign-in is temporarily unavailable. Please try again shortly.',
  unauthorized: API_MESSAGES.unauthorized,
  superadminOnly: 'Only super admins may view income and reports.',
  noDataToExport: 'No data to export.',
  bookingNotFound: (id: number) => `Booking ${id} was not found.`,
  alreadyCancelled: (id: number) => `Booking ${id} is already cancelled.`,
  cancelNeedsRefundChoice: (id: number) => `Booking ${id} is paid: choose a full, partial or no refund to cancel it.`,
  refundSuperadminOnly: 'Only super admins may refund payments.',
  cannotCancelBlocked: (id: number) => `Booking ${id} is blocked and cannot be cancelled.`,
  cancelPast: (id: number) => `Booking ${id} is in the past and can no longer be cancelled.`,
  cancelAttended: (id: number) => `Booking ${id} is marked attended: the session took place, so it can no longer be cancelled.`,
  cancelled: (id: number) => `Booking ${id} cancelled successfully.`,
  slotBlocked: (time: string, date: string) => `Slot ${time} on ${date} blocked successfully.`,
  slotUnblocked: (time: string, date: string) => `Slot ${time} on ${date} unblocked successfully.`,
  slotHeldByClient: 'This slot is already booked by a client and cannot be blocked.',
  slotAlreadyBlocked: (time: string, date: string) => `Slot ${time} on ${date} is already blocked; nothing was changed.`,
  slotNotBlocked: (time: string, date: string) => `Slot ${time} on ${date} is not blocked, so there is nothing to unblock; nothing was changed.`,
  slotBookedNotBlocked: (time: string, date: string) => `Slot ${time} on ${date} is booked by a client, not blocked; nothing was changed.`,
  slotStatesWindow: (first: string, last: string) => `from and days must stay within the admin window, ${first} to ${last}.`,
  slotStatesDays: `days must be a whole number from 1 to ${ADMIN_WINDOW_DAYS}`,
  slotPast: 'This time slot is in the past and cannot be changed.',
  slotNotOnSchedule: "This time slot is not on the therapist's schedule.",
  therapistNotFound: API_MESSAGES.therapistNotFound,
  serviceNotFound: API_MESSAGES.serviceNotFound,
  linkMissingDetails: (id: number) => `Error: Booking ${id} is missing required details (price, ID, or transaction ID) to generate a link.`,
  linkTransactionMismatch: (id: number) => `The transaction ID does not match booking ${id}.`,
  linkBookingClosed: (id: number) => `Booking ${id} is cancelled or blocked; no payment link can be generated.`,
  linkAlreadyPaid: (id: number) => `Booking ${id} is already paid.`,
  linkBookingFailed: (id: number) => `Booking ${id} was not paid in time and its slot was released; no payment link can be sent.`,
  linkUnavailable: 'Payment links are not available right now. Please try again later.',
  linkFailed: API_MESSAGES.paymentLinkFailed,
  linkUpdated: (id: number) => `Payment link for booking ${id} updated successfully.`,
  manualCreated: (id: number) => `Manual booking ${id} created successfully!`,
  manualDateWindow: `Please choose a date within the next ${ADMIN_WINDOW_DAYS} days, starting today.`,
  manualSlotPassed: API_MESSAGES.slotPassed,
  manualSlotNotOffered: API_MESSAGES.slotNotOffered,
  manualDayClosed: 'The centre is closed or the therapist is away on this date. Please choose another.',
  manualSlotTaken: 'This time slot is already booked or blocked. Please choose another.',
  therapistTypeMismatch: API_MESSAGES.therapistTypeMismatch,
  locationMismatch: API_MESSAGES.locationMismatch,
  attentionSuperadminOnly: 'Only super admins may see and review payments needing attention.',
  discrepancyNotFound: (id: number) => `Payment issue ${id} was not found.`,
  discrepancyAlreadyResolved: (id: number) => `Payment issue ${id} is already resolved; nothing was changed.`,
  discrepancyReviewed: (id: number) => `Payment issue ${id} marked reviewed successfully.`,
  // ---- Refunds at the counter and refund requests (issue 31, items 4 and 5)
  noRefundOutsideNotice: (hours: number) =>
    `No refund is only for a session starting within ${hours} hours, where the terms charge the full fee. Ask the owner to refund instead (refund "REQUEST", with the reason).`,
  refundRequestSuperadminOnly: 'Only super admins may approve or decline refund requests.',
  nothingDueAtCounter: (id: number) => `Nothing is due to be handed back at the counter for booking ${id}.`,
  refundMoreThanDue: (due: string) => `At most ${due} is due to be handed back.`,
  counterRefundRecorded: (id: number, amount: string) => `Refund of ${amount} handed back for booking ${id} recorded successfully.`,
  refundRequestNotFound: (id: number) => `Refund request ${id} was not found.`,
  refundRequestDecided: (id: number, status: string) => `Refund request ${id} has already been ${status.toLowerCase()}; nothing was changed.`,
  /** A second change to a booking's money while the provider is still being asked about the first (issue 32). */
  refundUnderWay: (id: number) => `A refund of booking ${id} is under way; nothing was changed. Please try again in a minute.`,
  refundRequestNothingHeld: (id: number) => `Booking ${id} holds no money any more; decline the request with the reason instead.`,
  refundApproved: (id: number, amount: string) => `Refund request ${id} approved successfully: ${amount} refunded.`,
  refundDeclined: (id: number) => `Refund request ${id} declined successfully.`,
  /** What a cancel (or an approved request) did with the money, after "Booking … cancelled successfully." */
  refundNote: (r: RefundResult): string => {
    if (r.status === 'none') return 'No refund.';
    if (r.status === 'requested') return `Refund of ${formatRupees(r.amount)} sent to the owner for review.`;
    const counter = r.at_counter ?? 0;
    const provider = Math.round((r.amount - counter) * 100) / 100;
    return [
      provider > 0 ? `${formatRupees(provider)} ${r.status === 'pending' ? 'refund pending' : 'refunded'}.` : null,
      counter > 0 ? `${formatRupees(counter)} to hand back at the counter.` : null,
    ]
      .filter(Boolean)
      .join(' ');
  },
} as const;

const text = (max: number) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, { error: `Must be at most ${max} characters` });
const positiveInt = (required: string) =>
  z.number({ error: required }).int({ error: required }).positive({ error: required }).max(INT4_MAX, { error: required });

/** A path or query parameter holding a positive whole number (e.g. a booking id). */
export const idParam = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{1,9}$/, { error: `${label} must be a positive whole number` })
    .transform(Number)
    .refine((n) => n > 0, { error: `${label} must be a positive whole number` });

/** The path parameters of a route on one record: its `id` (labelled for the 400's detail). */
export const idParams = (label: string) => z.object({ id: idParam(label) });

/** A route that takes no query parameters (an unknown one is a 400), or no body. */
export const noQuery = z.strictObject({});
export const noBody = z.strictObject({});

export const loginSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, { error: 'Username is required' }).max(254),
  password: z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' }).max(256),
});

export const loginResponseSchema = z.strictObject({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  username: z.string(),
  is_superadmin: z.boolean(),
  is_admin: z.boolean(),
  is_active: z.boolean(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;
/** POST /api/admin/logout. */
export const signedOutResponseSchema = z.strictObject({ message: z.string() });
/** POST /api/admin/queues-session: where Bull Board now opens with its cookie. */
export const queuesSessionResponseSchema = z.strictObject({ url: z.string() });

export const blockSlotSchema = z.strictObject({
  therapist_id: positiveInt('Therapist is required'),
  start_time: z
    .string({ error: 'Time slot is required' })
    .refine(isHhMm, { error: 'Time must be written HH:MM (24-hour)' })
    .transform((t) => t.slice(0, 5)),
  date: z.string({ error: 'Date is required' }).refine(isIsoDate, { error: 'Date must be a real date written YYYY-MM-DD' }),
  // The spec's call toggles. The panel says what it means, so a slot that changed under it (or a
  // grid that showed it wrongly) is refused with a 409 instead of silently flipped the other way.
  action: z.enum(['block', 'unblock'], { error: 'action must be "block" or "unblock"' }).optional(),
});
export type BlockSlotInput = z.output<typeof blockSlotSchema>;
export const blockSlotResponseSchema = z.strictObject({ blocked: z.boolean(), booking_id: z.number().int(), message: z.string() });
export type BlockSlotResponse = z.infer<typeof blockSlotResponseSchema>;

/** GET /api/admin/therapists/{id}/slot-states: from defaults to today, days to the rest of the window. */
export const slotStatesQuerySchema = z.strictObject({
  from: z
    .string({ error: 'from must be a real date written YYYY-MM-DD' })
    .refine(isIsoDate, { error: 'from must be a real date written YYYY-MM-DD' })
    .optional(),
  days: z
    .string({ error: ADMIN_MESSAGES.slotStatesDays })
    .regex(/^\d{1,2}$/, { error: ADMIN_MESSAGES.slotStatesDays })
    .transform(Number)
    .refine((n) => n >= 1 && n <= ADMIN_WINDOW_DAYS, { error: ADMIN_MESSAGES.slotStatesDays })
    .optional(),
});
export type SlotStatesQuery = z.output<typeof slotStatesQuerySchema>;
export type { AdminSlotStateEntry, AdminSlotStatesDay } from '../domain/slot-states.ts';
/** The grid's days as domain/slot-states.ts computes them; `satisfies` keeps the two in step. */
const adminSlotStatesDaySchema = z.strictObject({
  date: z.string(),
  slots: z.array(
    z.strictObject({
      start_time: z.string(),
      end_time: z.string(),
      state: z.enum(['free', 'booked', 'blocked', 'past']),
      booking_id: z.number().int().nullable(),
    }),
  ),
}) satisfies z.ZodType<AdminSlotStatesDay>;
export const adminSlotStatesResponseSchema = z.strictObject({ therapist_id: z.number().int(), today: z.string(), days: z.array(adminSlotStatesDaySchema) });
export type AdminSlotStatesResponse = z.infer<typeof adminSlotStatesResponseSchema>;
const fullRefund = z.strictObject({ refund: z.literal('FULL'), reason: text(300).optional() });
const partialRefund = z.strictObject({
  refund: z.literal('PARTIAL'),
  amount: z
    .number({ error: 'Amount must be a number' })
    .positive({ error: 'Amount must be more than zero' })
    .max(10_000_000, { error: 'Amount is too large' })
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { error: 'Amount may have at most two decimals' }),
  reason: text(300).optional(),
});
/**
 * POST /api/admin/bookings/{id}/cancel's optional body: what becomes of a paid booking's money. A
 * paid booking needs it; FULL and PARTIAL (amount in rupees, super admins) go back through the
 * provider, or at the counter for money taken there; NONE keeps it, for the reason given (the policy;
 * plain admins only inside the notice window); REQUEST cancels and asks a super admin to decide the
 * refund, for the reason given.
 */
export const cancelRefundSchema = z.discriminatedUnion(
  'refund',
  [
    fullRefund,
    partialRefund,
    z.strictObject({ refund: z.literal('NONE'), reason: text(300).pipe(z.string().min(1, { error: 'Please give the reason for keeping the payment' })) }),
    z.strictObject({ refund: z.literal('REQUEST'), reason: text(300).pipe(z.string().min(1, { error: 'Please give the reason for the refund request' })) }),
  ],
  { error: 'refund must be FULL, PARTIAL, NONE or REQUEST' },
);
export type CancelRefund = z.output<typeof cancelRefundSchema>;
export const cancelResponseSchema = z.strictObject({
  booking_id: z.number().int(),
  cancelled: z.literal(true),
  unblocked: z.boolean(),
  message: z.string(),
  refund: refundResultSchema.optional(),
});
export type CancelResponse = z.infer<typeof cancelResponseSchema>;

/** How money changes hands at the desk (issue 31): taking a fee, handing a refund back. The ledger's own method names. */
export const DESK_PAYMENT_METHODS = ['CASH', 'CARD', 'UPI', 'BANK_TRANSFER'] as const;
export type DeskPaymentMethod = (typeof DESK_PAYMENT_METHODS)[number];
export const deskMethodSchema = z.enum(DESK_PAYMENT_METHODS, { error: 'Method must be CASH, CARD, UPI or BANK_TRANSFER' });
/** Rupees typed at the desk: more than zero, at most two decimals. */
export const deskAmountSchema = z
  .number({ error: 'Amount must be a number' })
  .positive({ error: 'Amount must be more than zero' })
  .max(10_000_000, { error: 'Amount is too large' })
  .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { error: 'Amount may have at most two decimals' });

/**
 * The manual booking form (spec section 5). It collects no age, session type, state or city, so it
 * has its own schema; the admin's amount is the booking's amount.
 */
export const manualBookingSchema = z
  .strictObject({
    therapist_id: positiveInt(MB.therapistRequired),
    booking_date: z
      .string({ error: MB.dateRequired })
      .min(1, { error: MB.dateRequired })
      .refine(isIsoDate, { error: 'Booking date must be a real date written YYYY-MM-DD' }),
    booking_time_slot_start: z
      .string({ error: MB.slotRequired })
      .min(1, { error: MB.slotRequired })
      .refine(isHhMm, { error: 'Time must be written HH:MM (24-hour)' })
      .transform((t) => t.slice(0, 5)),
    client_full_name: z.string({ error: MB.clientNameRequired }).trim().min(1, { error: MB.clientNameRequired }).max(100),
    client_email: z
      .string({ error: MB.clientEmailRequired })
      .trim()
      .max(254, { error: MB.clientEmailRequired })
      .refine(isEmailAddress, { error: MB.clientEmailRequired }),
    client_mobile: z
      .string({ error: MB.clientMobileRequired })
      .trim()
      .transform(normaliseIndianMobile)
      .pipe(z.string().regex(/^\d{10}$/, { error: MB.clientMobileRequired })),
    client_note: text(2000).optional(),
    booking_type: z.enum(['ONLINE', 'OFFLINE'], { error: MB.bookingTypeRequired }),
    location_id: z
      .number({ error: MB.locationRequired })
      .int({ error: MB.locationRequired })
      .min(0)
      .max(INT4_MAX, { error: MB.locationRequired })
      .nullable()
      .optional(),
    amount: z
      .number({ error: MB.amountRequired })
      .positive({ error: MB.amountRequired })
      .max(10_000_000, { error: 'Amount is too large' })
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { error: 'Amount may have at most 2 decimals' })
      .optional(),
    payment_transaction_id: text(64)
      .regex(/^[A-Za-z0-9_-]*$/, { error: 'Transaction id may hold letters, digits, - and _ only' })
      .optional(),
    therapist_email: text(254).optional(),
    terms_accepted: z.boolean().optional(),
    service_id: z.number().int().positive().max(INT4_MAX, { error: ADMIN_MESSAGES.serviceNotFound }).optional(),
    // Always admin-confirmed. The settlement (issue 31): payment_method is money taken now (COMPLETED, one
    // ledger row); else an online booking with payment_status PENDING waits for a payment link sent to the
    // client, one without is the spec's COMPLETED with nothing recorded; in person it is paid at the centre.
    admin_confirmed: z.boolean({ error: 'admin_confirmed must be true or false' }).optional(),
    payment_status: z.enum(PAYMENT_STATUSES, { error: 'Unknown payment status' }).optional(),
    payment_method: deskMethodSchema.optional(),
    // Issue 34: "From a package": one credit of this sale pays the session; no money moves.
    package_sale_id: positiveInt('Package sale ID must be a positive whole number').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.amount === undefined && v.package_sale_id === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: MB.amountRequired });
    if (v.package_sale_id !== undefined && (v.payment_method || v.payment_status === 'PENDING')) {
      ctx.addIssue({ code: 'custom', path: ['package_sale_id'], message: MB.packageNotWithPayment });
    }
    if (v.booking_type === 'OFFLINE' && !v.location_id) {
      ctx.addIssue({ code: 'custom', path: ['location_id'], message: MB.locationRequired });
    }
    if (v.payment_method && v.payment_status === 'PENDING') {
      ctx.addIssue({ code: 'custom', path: ['payment_method'], message: MB.paidNowNotPending });
    }
  });
export type ManualBookingInput = z.input<typeof manualBookingSchema>;
export type ManualBooking = z.output<typeof manualBookingSchema>;

export const shareableLinkSchema = z.strictObject({
  amount: z.number({ error: 'Amount must be a number' }).min(0, { error: 'Amount must not be negative' }).max(10_000_000),
  booking_id: positiveInt('Booking ID is required'),
  merchant_transaction_id: text(64),
});
export const shareableLinkResponseSchema = z.strictObject({ payment_link_url: z.string() });
export type ShareableLinkResponse = z.infer<typeof shareableLinkResponseSchema>;
/** POST /api/admin/bookings/{id}/send-payment-link (issue 31): the link sent, how, and when (ISO 8601). */
export const sendPaymentLinkResponseSchema = z.strictObject({
  payment_link_url: z.string(),
  sent_to: z.array(z.enum(['email', 'whatsapp'])),
  sent_at: z.string(),
});
export type SendPaymentLinkResponse = z.infer<typeof sendPaymentLinkResponseSchema>;

export const updatePaymentLinkSchema = z.strictObject({
  payment_link_url: z.url({ protocol: /^https?$/, error: 'payment_link_url must be an http(s) URL' }).max(2048, { error: 'payment_link_url is too long' }),
  razorpay_payment_link_id: text(64).min(1).optional(),
});

export const nameQuerySchema = z.strictObject({ name: text(100).optional() });

export const eodQuerySchema = z.strictObject({
  report_date: z.string().refine(isIsoDate, { error: 'report_date must be a real date written YYYY-MM-DD' }).optional(),
});

/** Year bounds follow the reports screen: 2020 to the current year plus 5. */
export function monthlyQuerySchema(currentYear: number) {
  const max = currentYear + 5;
  const yearMsg = `year must be a whole number from 2020 to ${max}`;
  return z.strictObject({
    year: z
      .string()
      .regex(/^\d{4}$/, { error: yearMsg })
      .transform(Number)
      .refine((y) => y >= 2020 && y <= max, { error: yearMsg })
      .optional(),
    month: z
      .string()
      .regex(/^\d{1,2}$/, { error: 'month must be a whole number from 1 to 12' })
      .transform(Number)
      .refine((m) => m >= 1 && m <= 12, { error: 'month must be a whole number from 1 to 12' })
      .optional(),
  });
}

const PAGE_MESSAGE = 'page must be a positive whole number';
const PAGE_SIZE_MAX = 100;
const PAGE_SIZE_MESSAGE = `page_size must be a whole number from 1 to ${PAGE_SIZE_MAX}`;
/** ?page= and ?page_size= of a paged list: page from 1, page_size from 1 to 100. */
export const pagingFields = {
  page: z
    .string({ error: PAGE_MESSAGE })
    .regex(/^\d{1,6}$/, { error: PAGE_MESSAGE })
    .transform(Number)
    .refine((n) => n >= 1, { error: PAGE_MESSAGE })
    .optional(),
  page_size: z
    .string({ error: PAGE_SIZE_MESSAGE })
    .regex(/^\d{1,3}$/, { error: PAGE_SIZE_MESSAGE })
    .transform(Number)
    .refine((n) => n >= 1 && n <= PAGE_SIZE_MAX, { error: PAGE_SIZE_MESSAGE })
    .optional(),
};

export const auditQuerySchema = z.strictObject(pagingFields);

/**
 * GET /api/admin/income and /api/admin/reports/inventory. Without parameters the spec's answer, the
 * whole ledger; page or page_size make it one page of it: {page, page_size, total, items} with the
 * ledger's totals (IncomePage).
 */
export const incomeQuerySchema = z.strictObject(pagingFields);

/** One page of a list, and how many rows the whole list has. */
export type Paged<T> = { page: number; page_size: number; total: number; items: T[] };
const pageFields = { page: z.number().int().min(1), page_size: z.number().int().min(1), total: z.number().int().min(0) };
/** The answer schema of one page of `item`s (Paged<T>). */
export const pagedSchema = <T extends z.ZodType>(item: T) => z.strictObject({ ...pageFields, items: z.array(item) });

const isoDateQuery = (name: string) => {
  const message = `${name} must be a real date written YYYY-MM-DD`;
  return z.string({ error: message }).refine(isIsoDate, { error: message }).optional();
};

/**
 * The statuses a booking list can be filtered by, as the panel shows them: CANCELLED is every
 * cancelled booking (the flag or the status); the others are that payment status, not cancelled.
 */
export const BOOKING_FILTER_STATUSES = PAYMENT_STATUSES;
export type BookingFilterStatus = PaymentStatus;
const STATUS_MESSAGE = `status must be one or more of ${BOOKING_FILTER_STATUSES.join(', ')}, separated by commas`;

/**
 * GET /api/admin/bookings. Without parameters it answers the spec's list of every booking, newest
 * first. from/to (dates at the centre, inclusive), therapist_id, status (comma-separated) and order
 * narrow and sort it; page or page_size make the answer one page: {page, page_size, total, items}.
 */
export const adminBookingsQuerySchema = z
  .strictObject({
    from: isoDateQuery('from'),
    to: isoDateQuery('to'),
    therapist_id: idParam('therapist_id').optional(),
    status: z
      .string({ error: STATUS_MESSAGE })
      .max(100, { error: STATUS_MESSAGE })
      .transform((v) => v.split(','))
      .pipe(z.array(z.enum(BOOKING_FILTER_STATUSES, { error: STATUS_MESSAGE })).min(1, { error: STATUS_MESSAGE }))
      .optional(),
    order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
    ...pagingFields,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: 'from must not be after to', path: ['from'] });
export type AdminBookingsQuery = z.output<typeof adminBookingsQuerySchema>;

/**
 * GET /api/admin/clients-with-therapists: name filters by the client's name (case-insensitive,
 * anywhere in it); page or page_size make the answer one page, as for the bookings.
 */
export const clientBookingsQuerySchema = z.strictObject({ name: text(100).optional(), ...pagingFields });
export type ClientBookingsQuery = z.output<typeof clientBookingsQuerySchema>;

const bookingTypeSchema = z.enum(['ONLINE', 'OFFLINE', 'ADMIN_BLOCK']);
const paymentStatusSchema = z.enum(PAYMENT_STATUSES);

export const adminTherapistSchema = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  specialization: z.string(),
  bio: z.string(),
  price: z.number().nullable(),
  image_url: z.string(),
  /** 1 online; the admin side treats anything else as offline. */
  type: z.number().int(),
  type_label: z.enum(['online', 'offline']),
  locations: z.number().int().nullable(),
  offered_service_ids: z.array(z.number().int()),
  email: z.array(z.string()),
});
export type AdminTherapistDto = z.infer<typeof adminTherapistSchema>;

const adminBookingFields = {
  id: z.number().int(),
  booking_date: z.string(),
  booking_time_slot_start: z.string(),
  client_full_name: z.string(),
  client_email: z.string(),
  client_mobile: z.string(),
  therapist_id: z.number().int(),
  therapist_name: z.string(),
  booking_type: bookingTypeSchema,
  payment_status: paymentStatusSchema,
  payment_link_url: z.string().nullable(),
  payment_transaction_id: z.string().nullable(),
  amount: z.number(),
  cancelled: z.boolean(),
  google_meet_link: z.string().nullable(),
  location_id: z.number().int().nullable(),
  location_name: z.string().nullable(),
  location_address: z.string().nullable(),
  client_note: z.string(),
  service_id: z.number().int().nullable(),
  session_type: z.enum(['individual', 'couple']).nullable(),
  admin_confirmed: z.boolean(),
  /** Rupees captured for the booking (the ledger), and returned (positive). */
  amount_paid: z.number(),
  amount_refunded: z.number(),
  /** What the panel shows beside the payment status when money and booking tell more than the status. */
  payment_note: z.string().nullable(),
  /** Whether the client came to the (past) session, once an admin marked it. */
  attendance: z.enum(['ATTENDED', 'NO_SHOW']).nullable(),
  /** The client's own last change from Manage booking, and when (ISO 8601); null when the client changed nothing. */
  client_change: z.strictObject({ kind: z.enum(['MOVED', 'CANCELLED']), at: z.string() }).nullable(),
  /** An unpaid online hold (INITIATED) keeps its slot until then (ISO 8601); null for anything else. */
  payment_hold_expires_at: z.string().nullable(),
  /** The payment in words' key (shared/domain/payment-state.ts): status and ledger read together. */
  payment_state: z.enum(PAYMENT_STATES),
  /** When the centre last sent the client the payment link (ISO 8601), and how; null if never. */
  payment_link_sent_at: z.string().nullable(),
  payment_link_sent_to: z.array(z.enum(['email', 'whatsapp'])).nullable(),
  /** The series the session belongs to (issue 34): the panel shows a series' sessions together. Null or absent for a booking made alone. */
  series_id: z.number().int().nullable().optional(),
};
export const adminBookingSchema = z.strictObject(adminBookingFields);
export type AdminBookingDto = z.infer<typeof adminBookingSchema>;

export const clientBookingSchema = z.strictObject({
  ...adminBookingFields,
  client_city: z.string().nullable(),
  client_state: z.string().nullable(),
  data: z.strictObject({
    booking_type: bookingTypeSchema,
    client_note: z.string(),
    therapist_details: z.strictObject({ name: z.string() }),
    booking_date: z.string(),
    booking_time_slot_start: z.string(),
    location_address: z.string().nullable(),
  }),
});
export type ClientBookingDto = z.infer<typeof clientBookingSchema>;

export const clientSearchResultSchema = z.strictObject({ name: z.string(), email: z.string(), phone: z.string() });
export type ClientSearchResult = z.infer<typeof clientSearchResultSchema>;

/** How money was taken, as the payments ledger records it. */
const ledgerMethodSchema = z.enum(['UPI', 'CARD', 'NETBANKING', 'WALLET', 'CASH', 'BANK_TRANSFER', 'OTHER']);
export type LedgerMethodDto = z.infer<typeof ledgerMethodSchema>;

/**
 * One row of the payments ledger (spec's Payment: amount, payment_transaction_id, client_name,
 * client_phone, booking_date), with what the ledger adds: a refund is its own row with a negative
 * amount, so the list's sum is always the money the centre kept.
 */
export const paymentSchema = z.strictObject({
  amount: z.number(),
  payment_transaction_id: z.string().nullable(),
  client_name: z.string(),
  client_phone: z.string(),
  /** The session's date; for a package sale's money (issue 34), the day it moved at the centre. */
  booking_date: z.string(),
  /** The booking the money is for; null for a package sale's money (package_sale_id). */
  booking_id: z.number().int().nullable(),
  package_sale_id: z.number().int().nullable(),
  kind: z.enum(['PAYMENT', 'REFUND']),
  method: ledgerMethodSchema,
  /** The provider's payment or refund id (pay_…, rfnd_…), or the centre's own for money taken at the desk. */
  provider_reference: z.string(),
  /** When the money moved (ISO 8601). */
  recorded_at: z.string(),
  /** A refund's reason, when one was given. */
  reason: z.string().nullable(),
});
export type PaymentDto = z.infer<typeof paymentSchema>;
/** total_amount is net: payments less refunds; total_collected and total_refunded are its two parts (refunded as a positive number). */
const incomeTotals = { total_amount: z.number(), total_collected: z.number(), total_refunded: z.number() };
export const incomeReportSchema = z.strictObject({ ...incomeTotals, payments: z.array(paymentSchema) });
export type IncomeReport = z.infer<typeof incomeReportSchema>;
/** One page of the ledger, with the totals of the whole ledger (not of the page) beside it. */
export const incomePageSchema = z.strictObject({ ...pageFields, items: z.array(paymentSchema), ...incomeTotals });
export type IncomePage = z.infer<typeof incomePageSchema>;

export const eodDetailSchema = z.strictObject({
  booking_id: z.number().int(),
  client_name: z.string(),
  therapist_id: z.number().int(),
  therapist_name: z.string(),
  service_id: z.number().int().nullable(),
  payment_status: paymentStatusSchema,
  cancelled: z.boolean(),
  amount: z.number(),
  /** What the ledger holds for the booking: paid in, and refunded (positive). */
  amount_paid: z.number(),
  amount_refunded: z.number(),
  /** When the session starts at the centre ('HH:MM'). */
  session_time: z.string(),
  /** How the booking was paid, from the ledger's payments, as the cash-up counts them (CASH_UP_METHODS); empty if nothing was paid. */
  get payment_methods() {
    // A getter: the list is declared below, with the desk's methods it is made of.
    return z.array(cashUpMethodSchema);
  },
  attendance: adminBookingFields.attendance,
});
export type EodDetail = z.infer<typeof eodDetailSchema>;
/**
 * total_income_today is net of refunds, for the bookings of report_date; total_refunded_today is the
 * refunded part. total_bookings_today counts every booking of the day, whatever became of it;
 * booked_sessions_today the sessions that will take place or did (paid, or to be paid at the centre,
 * not cancelled) and unpaid_holds_today the online bookings still waiting for their payment.
 */
export const eodReportSchema = z.strictObject({
  report_date: z.string(),
  total_bookings_today: z.number().int(),
  completed_bookings_today: z.number().int(),
  cancelled_bookings_today: z.number().int(),
  booked_sessions_today: z.number().int(),
  unpaid_holds_today: z.number().int(),
  total_income_today: z.number(),
  total_refunded_today: z.number(),
  details: z.array(eodDetailSchema),
});
export type EodReport = z.infer<typeof eodReportSchema>;

export const therapistPerformanceSchema = z.strictObject({
  therapist_id: z.number().int(),
  therapist_name: z.string(),
  total_sessions: z.number().int(),
  completed_sessions: z.number().int(),
  missed_or_cancelled_sessions: z.number().int(),
  /** Net of refunds. */
  total_income: z.number(),
  total_refunded: z.number(),
  /** Sessions the centre marked attended, and no-shows. */
  attended_sessions: z.number().int(),
  no_show_sessions: z.number().int(),
});
export const therapistMonthlyReportSchema = z.strictObject({
  year: z.number().int(),
  month: z.number().int(),
  therapist_performance: z.array(therapistPerformanceSchema),
});
export type TherapistMonthlyReport = z.infer<typeof therapistMonthlyReportSchema>;

/** One field an admin action changed: its value before and after (null where there was none). */
const auditChangeSchema = z.strictObject({ field: z.string(), before: z.unknown(), after: z.unknown() });
export type AuditChange = z.infer<typeof auditChangeSchema>;

/**
 * An audit entry as the panel shows it: who (the admin's username, or "Command line"), what, and
 * only the fields that changed. A creation lists the new record's fields with before null.
 */
export const auditEntrySchema = z.strictObject({
  id: z.number().int(),
  at: z.string(),
  admin_id: z.number().int().nullable(),
  admin_username: z.string().nullable(),
  actor: z.string(),
  /** Who did it, in words: the admin's username, or "Command line". */
  by: z.string(),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  changes: z.array(auditChangeSchema),
});
export type AuditEntryDto = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = pagedSchema(auditEntrySchema);
export type AuditPage = z.infer<typeof auditPageSchema>;

/**
 * How the cash-up (and the End of Day report) counts money: the desk's methods, money taken or handed
 * back at the counter; ONLINE, every payment through the payment provider, whatever the client paid it
 * with; OTHER, a counter entry with no desk method (older manual bookings' and cancels' rows).
 */
export const CASH_UP_METHODS = [...DESK_PAYMENT_METHODS, 'ONLINE', 'OTHER'] as const;
export type CashUpMethod = (typeof CASH_UP_METHODS)[number];
export const cashUpMethodSchema = z.enum(CASH_UP_METHODS);

/**
 * POST /api/admin/bookings/{id}/record-payment: a fee taken at the centre for an in-person booking.
 * `amount` in rupees, the booking's price when left out.
 */
export const recordPaymentSchema = z.strictObject({
  method: deskMethodSchema,
  amount: deskAmountSchema.optional(),
});
export type RecordPaymentInput = z.output<typeof recordPaymentSchema>;
export const recordPaymentResponseSchema = z.strictObject({ booking_id: z.number().int(), payment_status: z.literal('COMPLETED'), message: z.string() });
export type RecordPaymentResponse = z.infer<typeof recordPaymentResponseSchema>;

/**
 * POST /api/admin/bookings/{id}/record-refund: money due at the counter handed back to the client,
 * how, and how much (rupees; all that is due when left out).
 */
export const recordRefundSchema = z.strictObject({
  method: deskMethodSchema,
  amount: deskAmountSchema.optional(),
});
export type RecordRefundInput = z.output<typeof recordRefundSchema>;

/** POST /api/admin/refund-requests/{id}/approve: the refund the super admin makes (as a cancel's FULL or PARTIAL). */
export const approveRefundSchema = z.discriminatedUnion('refund', [fullRefund, partialRefund], { error: 'refund must be FULL or PARTIAL' });
export type ApproveRefundInput = z.output<typeof approveRefundSchema>;
/** POST /api/admin/refund-requests/{id}/decline: why, told to the client. */
export const declineRefundSchema = z.strictObject({
  reason: text(300).pipe(z.string().min(1, { error: 'Please give the reason for declining the refund' })),
});
export type DeclineRefundInput = z.output<typeof declineRefundSchema>;

/** POST /api/admin/payments/attention/{id}/resolve: what the super admin found or did. */
export const resolveDiscrepancySchema = z.strictObject({
  note: z
    .string({ error: 'Please write what you checked or did (note)' })
    .trim()
    .min(1, { error: 'Please write what you checked or did (note)' })
    .max(REVIEW_NOTE_MAX, { error: `The note may be at most ${REVIEW_NOTE_MAX} characters` }),
});
export type ResolveDiscrepancyInput = z.output<typeof resolveDiscrepancySchema>;

export type { PaymentsProviderName } from '../domain/payment-discrepancy.ts';

/** One disagreement between the ledger and the payments provider, as the super admin's list shows it. Money in rupees. */
export const paymentAttentionItemSchema = z.strictObject({
  id: z.number().int(),
  kind: z.enum(DISCREPANCY_KINDS),
  /** What is wrong, in words ("Payment taken but not recorded"). */
  headline: z.string(),
  provider: z.enum(['razorpay', 'sandbox']) satisfies z.ZodType<PaymentsProviderName>,
  booking_id: z.number().int().nullable(),
  client_full_name: z.string().nullable(),
  booking_date: z.string().nullable(),
  /** HH:MM */
  booking_time_slot_start: z.string().nullable(),
  payment_id: z.string(),
  refund_id: z.string().nullable(),
  ledger_amount: z.number().nullable(),
  provider_amount: z.number().nullable(),
  detail: z.string(),
  detected_at: z.string(),
  last_seen_at: z.string(),
  resolved_at: z.string().nullable(),
  resolution: z.string().nullable(),
  /** The super admin who marked it reviewed; null when reconciliation resolved it (or it is open). */
  resolved_by: z.string().nullable(),
});
export type PaymentAttentionItem = z.infer<typeof paymentAttentionItemSchema>;

/** GET /api/admin/payments/attention: every open issue, newest first, and those resolved in the last 7 days. */
export const paymentsAttentionResponseSchema = z.strictObject({
  open: z.array(paymentAttentionItemSchema),
  recently_resolved: z.array(paymentAttentionItemSchema),
  /** Plain admins' refund requests for a super admin to approve or decline (issue 31). */
  refund_requests: refundReviewListSchema,
});
export type PaymentsAttentionResponse = z.infer<typeof paymentsAttentionResponseSchema>;
export const resolveDiscrepancyResponseSchema = z.strictObject({ item: paymentAttentionItemSchema, message: z.string() });
export type ResolveDiscrepancyResponse = z.infer<typeof resolveDiscrepancyResponseSchema>;
