/**
 * Every call of the API in one table: method, path (OpenAPI form, `{param}`), what it reads (path,
 * query, body) and what it answers by status. The single source of the OpenAPI document
 * (openapi.ts, served at GET /api/openapi.json) and of the integration tests' check that each answer
 * matches it. A route Express registers and this table lacks fails tests/integration/openapi.test.ts.
 *
 * Error answers (4xx and 5xx, `{detail, errors?, request_id?}`) are added to every call by the
 * builder; a route lists a status here only when its answer differs from that.
 */
import { z } from 'zod';
import { jobFailuresPageSchema, jobFailuresQuerySchema, resolveJobFailureResponseSchema } from './job-failures.ts';
import {
  adminBookingSchema,
  adminBookingsQuerySchema,
  adminSlotStatesResponseSchema,
  adminTherapistSchema,
  approveRefundSchema,
  auditPageSchema,
  auditQuerySchema,
  blockSlotResponseSchema,
  blockSlotSchema,
  cancelRefundSchema,
  cancelResponseSchema,
  clientBookingSchema,
  clientBookingsQuerySchema,
  clientSearchResultSchema,
  declineRefundSchema,
  eodQuerySchema,
  eodReportSchema,
  idParam,
  incomePageSchema,
  incomeQuerySchema,
  incomeReportSchema,
  loginResponseSchema,
  loginSchema,
  manualBookingSchema,
  monthlyQuerySchema,
  nameQuerySchema,
  pagedSchema,
  paymentsAttentionResponseSchema,
  queuesSessionResponseSchema,
  recordPaymentResponseSchema,
  recordPaymentSchema,
  recordRefundSchema,
  sendPaymentLinkResponseSchema,
  resolveDiscrepancyResponseSchema,
  resolveDiscrepancySchema,
  shareableLinkResponseSchema,
  shareableLinkSchema,
  signedOutResponseSchema,
  slotStatesQuerySchema,
  therapistMonthlyReportSchema,
  updatePaymentLinkSchema,
} from './admin.ts';
import { bookingCreateResponseSchema, bookingCreateSchema } from './booking.ts';
import {
  seriesCancelResponseSchema,
  seriesCancelSchema,
  seriesConflictResponseSchema,
  seriesCreatedSchema,
  seriesCreateSchema,
  seriesDetailSchema,
  seriesMovedSchema,
  seriesMoveSchema,
} from './series.ts';
import { cashUpQuerySchema, cashUpReportSchema } from './cash-up.ts';
import {
  attendanceResponseSchema,
  attendanceSchema,
  catalogueTherapistSchema,
  deletedResponseSchema,
  holidayDtoSchema,
  holidayResponseSchema,
  holidaySchema,
  locationPatchSchema,
  locationPhotoResponseSchema,
  mePasswordSchema,
  passwordChangedResponseSchema,
  resetPasswordResponseSchema,
  serviceSchema,
  setPasswordResponseSchema,
  setPasswordSchema,
  staffCreateSchema,
  staffDtoSchema,
  therapistActiveResponseSchema,
  therapistCreateSchema,
  therapistPatchSchema,
  therapistPhotoResponseSchema,
  timeOffResponseSchema,
  timeOffSchema,
  weeklyHoursResponseSchema,
  weeklyHoursSchema,
} from './catalogue.ts';
import {
  adminWaitlistQuerySchema,
  adminWaitlistSchema,
  waitlistClaimSchema,
  waitlistEntrySchema,
  waitlistJoinResponseSchema,
  waitlistJoinSchema,
  waitlistLeaveResponseSchema,
  waitlistTokenParam,
} from './waitlist.ts';
import { manageBookAgainSchema, manageChangeResultSchema, manageBookingSchema, manageRescheduleSchema, manageTokenParam } from './manage.ts';
import { API_MESSAGES } from './messages.ts';
import { recordRefundResponseSchema, refundOptionsResponseSchema, refundReviewDecisionResponseSchema, refundsDueResponseSchema } from './refunds.ts';
import {
  bookingDetailsResponseSchema,
  confirmLinkSchema,
  generateLinkSchema,
  paymentCallbackQuerySchema,
  paymentLinkResponseSchema,
  paymentLinkSavedSchema,
  paymentWebhookAckSchema,
} from './payment-link.ts';
import {
  availabilitySlotSchema,
  bookedSlotSchema,
  errorBodySchema,
  locationDtoSchema,
  optionalTherapistIdQuerySchema,
  serviceDtoSchema,
  slotOfferSchema,
  therapistDtoSchema,
  therapistIdQuerySchema,
} from './public.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: anyone; an admin's bearer token (any admin, or a super admin); the booking's own
 * token (X-Booking-Token) or an admin; a provider's signature over the raw body.
 */
export type Access = 'public' | 'admin' | 'superadmin' | 'booking-token' | 'signature' | 'metrics-token';

/** A JSON body or answer, or another media type (an image, a workbook, text) described in words. */
export type Content = { json: z.ZodType } | { media: string; format?: 'binary' | 'text' };
export type Answer = Content & { description: string };

export type ApiRoute = {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: 'Public' | 'Booking' | 'Payments' | 'Manage booking' | 'Waitlist' | 'Admin' | 'Reports' | 'Catalogue' | 'Staff' | 'Health' | 'Webhooks';
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: Content & { required?: boolean; description?: string; alternatives?: readonly { media: string }[] };
  responses: Record<number, Answer>;
};

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const noQuery = z.strictObject({});
const idOf = (label: string) => z.strictObject({ id: idParam(label) });
// Each keeps its schema's own type, so the table's rows carry their request and answer types (RouteAnswer).
const json = <S extends z.ZodType>(schema: S, description: string) => ({ json: schema, description });
/** A series' 409: the dates in conflict, or (nothing left to act on, a refund under way) the error body. */
const seriesConflictAnswer = z.union([seriesConflictResponseSchema, errorBodySchema]);
const workbook = (description: string) => ({ media: XLSX, format: 'binary' as const, description });

/** The health answers: liveness, and readiness with each dependency's state. */
export const healthResponseSchema = z.strictObject({ status: z.literal('ok') });
const readinessSchema = (status: 'ready' | 'not ready') => z.strictObject({ status: z.literal(status), checks: z.record(z.string(), z.string()) });
export const whatsappWebhookAckSchema = z.strictObject({ status: z.literal('ok'), recorded: z.number().int().min(0) });

/** The OpenAPI document's own shape, as far as this table knows it. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** GET /api/get-razorpay-details/{id}: a payment link id, a transaction id or (with proof) the booking number. */
const bookingRefParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: API_MESSAGES.bookingNotFound }) });
const timeOffParams = z.strictObject({ id: idParam('Therapist ID'), entry: idParam('Time off ID') });
const imageFileParams = z.strictObject({ file: z.string().regex(/^\d{1,6}\.png$/) });
const imageNameParams = z.strictObject({ image: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}\.(png|jpe?g|webp|svg)$/) });
const whatsappVerifyQuery = z.object({
  'hub.mode': z.literal('subscribe'),
  'hub.verify_token': z.string(),
  'hub.challenge': z.string().regex(/^[A-Za-z0-9_-]{1,200}$/),
});
const PHOTO_BODY = {
  media: 'image/*',
  format: 'binary' as const,
  required: true,
  description: 'The photo as sent (JPEG, PNG or WebP); the server re-encodes it.',
};

/** The table. `year` bounds the monthly report's ?year= (2020 to the current year plus 5). */
export function apiRoutes(year: number) {
  const monthlyQuery = monthlyQuerySchema(year);
  return [
    // ---- Public reads (cached; ETag and 304)
    {
      method: 'get',
      path: '/locations',
      tag: 'Public',
      access: 'public',
      summary: 'The centres',
      responses: { 200: json(z.array(locationDtoSchema), 'Every centre') },
    },
    {
      method: 'get',
      path: '/services',
      tag: 'Public',
      access: 'public',
      summary: 'The services offered',
      responses: { 200: json(z.array(serviceDtoSchema), 'Every service') },
    },
    {
      method: 'get',
      path: '/therapists',
      tag: 'Public',
      access: 'public',
      summary: 'The active therapists',
      responses: { 200: json(z.array(therapistDtoSchema), 'Every active therapist') },
    },
    {
      method: 'get',
      path: '/availability-slots',
      tag: 'Public',
      access: 'public',
      summary: "The therapists' weekly slots",
      query: optionalTherapistIdQuerySchema,
      responses: { 200: json(z.array(availabilitySlotSchema), 'Weekly slots, of one therapist when asked') },
    },
    {
      method: 'get',
      path: '/booked-slots',
      tag: 'Public',
      access: 'public',
      summary: "A therapist's taken slots from today",
      query: therapistIdQuerySchema,
      responses: { 200: json(z.array(bookedSlotSchema), 'Taken slots') },
    },
    {
      method: 'get',
      path: '/api/slots',
      tag: 'Public',
      access: 'public',
      summary: 'The slots a therapist offers in the booking window',
      query: therapistIdQuerySchema,
      responses: { 200: json(slotOfferSchema, 'Free slots by day') },
    },
    {
      method: 'get',
      path: '/get_location_image/{file}',
      tag: 'Public',
      access: 'public',
      summary: "A centre's photo",
      params: imageFileParams,
      responses: { 200: { media: 'image/png', format: 'binary', description: 'The photo' } },
    },
    {
      method: 'get',
      path: '/get_specific_image/{image}',
      tag: 'Public',
      access: 'public',
      summary: "A therapist's photo",
      params: imageNameParams,
      responses: { 200: { media: 'image/*', format: 'binary', description: 'The photo' } },
    },

    // ---- Booking and payment (the wizard)
    {
      method: 'post',
      path: '/confirm-booking',
      tag: 'Booking',
      access: 'public',
      summary: "Book a session (a client's booking; with admin_confirmed or payment_status and an admin's token, a manual booking)",
      body: { json: z.union([bookingCreateSchema, manualBookingSchema]), required: true },
      responses: { 200: json(bookingCreateResponseSchema, 'The booking; a public booking carries its token for the payment calls') },
    },
    {
      method: 'post',
      path: '/api/payment/generate-link',
      tag: 'Payments',
      access: 'booking-token',
      summary: "The booking's payment link",
      body: { json: generateLinkSchema, required: true },
      responses: { 200: json(paymentLinkResponseSchema, 'The link') },
    },
    {
      method: 'post',
      path: '/api/admin/bookings/{id}/update-payment-link',
      tag: 'Payments',
      access: 'booking-token',
      summary: "Store a booking's payment link (an admin, audited), or confirm the stored one (the booking's token)",
      params: idOf('Booking ID'),
      body: { json: z.union([updatePaymentLinkSchema, confirmLinkSchema]), required: true },
      responses: { 200: json(paymentLinkSavedSchema, 'The link stored') },
    },
    {
      method: 'get',
      path: '/api/get-razorpay-details/{id}',
      tag: 'Payments',
      access: 'public',
      summary: "A booking after the provider's checkout: the record with proof (signature, token), else the payment status",
      params: bookingRefParams,
      query: paymentCallbackQuerySchema,
      responses: { 200: json(bookingDetailsResponseSchema, 'The booking or its payment status') },
    },
    {
      method: 'post',
      path: '/api/create-shareable-payment-link',
      tag: 'Payments',
      access: 'admin',
      summary: 'A payment link for a booking, to share with the client',
      body: { json: shareableLinkSchema, required: true },
      responses: { 200: json(shareableLinkResponseSchema, 'The link') },
    },
    {
      method: 'post',
      path: '/api/payment/webhook',
      tag: 'Webhooks',
      access: 'signature',
      summary: "The payments provider's events (X-Razorpay-Signature over the raw body)",
      body: { media: 'application/json', format: 'binary', required: true, description: "The provider's event, verified over its exact bytes" },
      responses: { 200: json(paymentWebhookAckSchema, 'What became of the event') },
    },
    {
      method: 'get',
      path: '/api/whatsapp/webhook',
      tag: 'Webhooks',
      access: 'public',
      summary: "Meta's subscription check (mounted only when WhatsApp is configured)",
      query: whatsappVerifyQuery,
      responses: { 200: { media: 'text/plain', format: 'text', description: 'The challenge, echoed' } },
    },
    {
      method: 'post',
      path: '/api/whatsapp/webhook',
      tag: 'Webhooks',
      access: 'signature',
      summary: "Meta's delivery statuses (X-Hub-Signature-256 over the raw body)",
      body: { media: 'application/json', format: 'binary', required: true, description: "Meta's delivery, verified over its exact bytes" },
      responses: { 200: json(whatsappWebhookAckSchema, 'How many statuses were recorded') },
    },

    // ---- Manage booking (the client's own, by the token from their e-mail; never cached)
    {
      method: 'get',
      path: '/api/manage/{token}',
      tag: 'Manage booking',
      access: 'public',
      summary: 'The booking and what the client may do now',
      params: manageTokenParam,
      responses: { 200: json(manageBookingSchema, 'The booking') },
    },
    {
      method: 'get',
      path: '/api/manage/{token}/session.ics',
      tag: 'Manage booking',
      access: 'public',
      summary: 'The session\'s calendar invitation ("Add to calendar"): the same UID and SEQUENCE as the latest e-mail\'s',
      params: manageTokenParam,
      responses: { 200: { media: 'text/calendar', format: 'text', description: 'An iCalendar file (therapy-session-{id}.ics)' } },
    },
    {
      method: 'post',
      path: '/api/manage/{token}/reschedule',
      tag: 'Manage booking',
      access: 'public',
      summary: 'Move the session to another free slot',
      params: manageTokenParam,
      body: { json: manageRescheduleSchema, required: true },
      responses: { 200: json(manageChangeResultSchema, 'The booking as it now stands') },
    },
    {
      method: 'post',
      path: '/api/manage/{token}/cancel',
      tag: 'Manage booking',
      access: 'public',
      summary: 'Cancel the session (a paid one is refunded in full; money paid at the centre is handed back there)',
      params: manageTokenParam,
      responses: { 200: json(manageChangeResultSchema, 'The booking as it now stands') },
    },
    {
      method: 'post',
      path: '/api/manage/{token}/book-again',
      tag: 'Manage booking',
      access: 'public',
      summary: "Book the same therapist, type, centre and time a week or two after this session (the wizard's checks, hold limits and payment hold)",
      params: manageTokenParam,
      body: { json: manageBookAgainSchema, required: true },
      responses: { 200: json(bookingCreateResponseSchema, 'The new booking, answered as POST /confirm-booking answers (its token for the payment calls)') },
    },

    // ---- Waitlist (issue 34): joining, the client's private link (never cached), the panel's list
    {
      method: 'post',
      path: '/api/waitlist',
      tag: 'Waitlist',
      access: 'public',
      summary: "Join a therapist's waitlist for a date range and times of day (the wizard's hold limits); the private link is e-mailed",
      body: { json: waitlistJoinSchema, required: true },
      responses: { 200: json(waitlistJoinResponseSchema, 'On the list') },
    },
    {
      method: 'get',
      path: '/api/waitlist/{token}',
      tag: 'Waitlist',
      access: 'public',
      summary: "The client's place on the waitlist and the slot held for them, if any",
      params: waitlistTokenParam,
      responses: { 200: json(waitlistEntrySchema, 'The entry') },
    },
    {
      method: 'post',
      path: '/api/waitlist/{token}/claim',
      tag: 'Waitlist',
      access: 'public',
      summary: "Book the slot held for the client (the wizard's details and checks; paid through the ordinary payment calls)",
      params: waitlistTokenParam,
      body: { json: waitlistClaimSchema, required: true },
      responses: { 200: json(bookingCreateResponseSchema, 'The booking, answered as POST /confirm-booking answers (its token for the payment calls)') },
    },
    {
      method: 'post',
      path: '/api/waitlist/{token}/leave',
      tag: 'Waitlist',
      access: 'public',
      summary: 'Leave the waitlist; a slot held for the client passes to the next',
      params: waitlistTokenParam,
      responses: { 200: json(waitlistLeaveResponseSchema, 'Left') },
    },
    {
      method: 'get',
      path: '/api/admin/waitlist',
      tag: 'Waitlist',
      access: 'admin',
      summary: "A therapist's waitlist, first in line first, with each slot held now",
      query: adminWaitlistQuerySchema,
      responses: { 200: json(adminWaitlistSchema, 'The entries') },
    },

    // ---- Admin sessions and bookings
    {
      method: 'post',
      path: '/api/admin/login',
      tag: 'Admin',
      access: 'public',
      summary: 'Sign in (throttled per address)',
      body: { json: loginSchema, required: true, alternatives: [{ media: 'application/x-www-form-urlencoded' }] },
      responses: { 200: json(loginResponseSchema, 'The bearer token') },
    },
    {
      method: 'post',
      path: '/api/admin/logout',
      tag: 'Admin',
      access: 'admin',
      summary: 'Sign out: the token is refused from now on',
      responses: { 200: json(signedOutResponseSchema, 'Signed out') },
    },
    {
      method: 'post',
      path: '/api/admin/queues-session',
      tag: 'Admin',
      access: 'superadmin',
      summary: 'Open Bull Board: the token becomes a cookie scoped to /admin/queues',
      responses: { 200: json(queuesSessionResponseSchema, "The board's address") },
    },
    {
      method: 'get',
      path: '/api/admin/therapists',
      tag: 'Admin',
      access: 'admin',
      summary: 'Every therapist, as the panel lists them',
      query: noQuery,
      responses: { 200: json(z.array(adminTherapistSchema), 'The therapists') },
    },
    {
      method: 'get',
      path: '/api/admin/bookings',
      tag: 'Admin',
      access: 'admin',
      summary: 'The bookings: every one, or filtered, sorted and paged',
      query: adminBookingsQuerySchema,
      responses: {
        200: json(z.union([z.array(adminBookingSchema), pagedSchema(adminBookingSchema)]), 'The whole list; one page when page or page_size is given'),
      },
    },
    {
      method: 'post',
      path: '/api/admin/series',
      tag: 'Admin',
      access: 'admin',
      summary: 'Book a series: the same therapist and time every one or two weeks (2 to 52 sessions), all or none unless asked to skip',
      body: { json: seriesCreateSchema, required: true },
      responses: {
        201: json(seriesCreatedSchema, 'Booked; conflicts lists the dates skipped'),
        409: json(seriesConflictAnswer, 'Some dates cannot be booked: each with its reason and the nearest free time that day; nothing was booked'),
      },
    },
    {
      method: 'get',
      path: '/api/admin/series/{id}',
      tag: 'Admin',
      access: 'admin',
      summary: 'A series: what was asked and every session',
      params: idOf('Series ID'),
      query: noQuery,
      responses: { 200: json(seriesDetailSchema, 'The series') },
    },
    {
      method: 'post',
      path: '/api/admin/series/{id}/cancel',
      tag: 'Admin',
      access: 'admin',
      summary: 'Cancel a session of a series, or it and every following one (paid ones say what becomes of the money)',
      params: idOf('Series ID'),
      body: { json: seriesCancelSchema, required: true },
      responses: { 200: json(seriesCancelResponseSchema, 'Cancelled') },
    },
    {
      method: 'post',
      path: '/api/admin/series/{id}/move',
      tag: 'Admin',
      access: 'admin',
      summary: 'Move a session of a series, or it and every following one, to another time (and therapist) on their own dates',
      params: idOf('Series ID'),
      body: { json: seriesMoveSchema, required: true },
      responses: {
        200: json(seriesMovedSchema, 'Moved'),
        409: json(
          seriesConflictAnswer,
          'Some sessions cannot be moved there (each with its reason and the nearest free time that day), or none is left to move; nothing was moved',
        ),
      },
    },
    {
      method: 'post',
      path: '/api/admin/bookings/{id}/cancel',
      tag: 'Admin',
      access: 'admin',
      summary: 'Cancel a booking (a paid one says what becomes of the money)',
      params: idOf('Booking ID'),
      body: { json: cancelRefundSchema, required: false },
      responses: { 200: json(cancelResponseSchema, 'Cancelled') },
    },
    {
      method: 'post',
      path: '/api/admin/bookings/{id}/record-payment',
      tag: 'Admin',
      access: 'admin',
      summary: 'Record a fee taken at the centre (in person, confirmed unrecorded, or online awaiting its link)',
      params: idOf('Booking ID'),
      body: { json: recordPaymentSchema, required: false },
      responses: { 200: json(recordPaymentResponseSchema, 'Recorded') },
    },
    {
      method: 'get',
      path: '/api/admin/bookings/{id}/refund-options',
      tag: 'Admin',
      access: 'admin',
      summary: "What this admin may decide about a paid booking's money when cancelling it",
      params: idOf('Booking ID'),
      query: noQuery,
      responses: { 200: json(refundOptionsResponseSchema, 'The choices, and what can be refunded') },
    },
    {
      method: 'post',
      path: '/api/admin/bookings/{id}/record-refund',
      tag: 'Admin',
      access: 'admin',
      summary: 'Record a refund due at the counter as handed back to the client',
      params: idOf('Booking ID'),
      body: { json: recordRefundSchema, required: true },
      responses: { 200: json(recordRefundResponseSchema, 'Recorded') },
    },
    {
      method: 'get',
      path: '/api/admin/refunds/due',
      tag: 'Admin',
      access: 'admin',
      summary: 'Refunds due at the counter: money to hand back at the desk',
      query: noQuery,
      responses: { 200: json(refundsDueResponseSchema, 'Oldest first, with the total') },
    },
    {
      method: 'post',
      path: '/api/admin/bookings/{id}/send-payment-link',
      tag: 'Admin',
      access: 'admin',
      summary: "Send the client the booking's payment link (made if needed) by e-mail, and WhatsApp where they opted in",
      params: idOf('Booking ID'),
      responses: { 200: json(sendPaymentLinkResponseSchema, 'The link, how it was sent, and when') },
    },
    {
      method: 'post',
      path: '/api/admin/bookings/{id}/attendance',
      tag: 'Admin',
      access: 'admin',
      summary: 'Mark a past session attended or a no-show',
      params: idOf('Booking ID'),
      body: { json: attendanceSchema, required: true },
      responses: { 200: json(attendanceResponseSchema, 'Marked') },
    },
    {
      method: 'post',
      path: '/api/admin/availability/block',
      tag: 'Admin',
      access: 'admin',
      summary: 'Block or unblock a slot',
      body: { json: blockSlotSchema, required: true },
      responses: { 200: json(blockSlotResponseSchema, 'The slot as it now stands') },
    },
    {
      method: 'get',
      path: '/api/admin/therapists/{id}/slot-states',
      tag: 'Admin',
      access: 'admin',
      summary: "A therapist's slots in the admin window, each free, booked, blocked or past",
      params: idOf('Therapist ID'),
      query: slotStatesQuerySchema,
      responses: { 200: json(adminSlotStatesResponseSchema, 'The grid') },
    },
    {
      method: 'get',
      path: '/api/admin/clients-with-therapists',
      tag: 'Admin',
      access: 'admin',
      summary: 'Bookings with their clients, filtered by name, optionally paged',
      query: clientBookingsQuerySchema,
      responses: {
        200: json(z.union([z.array(clientBookingSchema), pagedSchema(clientBookingSchema)]), 'The whole list; one page when page or page_size is given'),
      },
    },
    {
      method: 'get',
      path: '/api/admin/search-clients',
      tag: 'Admin',
      access: 'admin',
      summary: 'Clients by name, for the manual booking form',
      query: nameQuerySchema,
      responses: { 200: json(z.array(clientSearchResultSchema), 'Matching clients') },
    },
    {
      method: 'get',
      path: '/api/admin/payments/attention',
      tag: 'Admin',
      access: 'superadmin',
      summary: 'Payments where the ledger and the provider disagree',
      query: noQuery,
      responses: { 200: json(paymentsAttentionResponseSchema, 'Open issues, and those resolved in the last 7 days') },
    },
    {
      method: 'post',
      path: '/api/admin/payments/attention/{id}/resolve',
      tag: 'Admin',
      access: 'superadmin',
      summary: 'Mark a payment issue reviewed',
      params: idOf('Payment issue ID'),
      body: { json: resolveDiscrepancySchema, required: true },
      responses: { 200: json(resolveDiscrepancyResponseSchema, 'The issue, resolved') },
    },
    {
      method: 'post',
      path: '/api/admin/refund-requests/{id}/approve',
      tag: 'Admin',
      access: 'superadmin',
      summary: "Approve a plain admin's refund request: the full or partial refund runs",
      params: idOf('Refund request ID'),
      body: { json: approveRefundSchema, required: true },
      responses: { 200: json(refundReviewDecisionResponseSchema, 'The request, approved, and what the refund did') },
    },
    {
      method: 'post',
      path: '/api/admin/refund-requests/{id}/decline',
      tag: 'Admin',
      access: 'superadmin',
      summary: "Decline a plain admin's refund request, with the reason the client is told",
      params: idOf('Refund request ID'),
      body: { json: declineRefundSchema, required: true },
      responses: { 200: json(refundReviewDecisionResponseSchema, 'The request, declined') },
    },
    {
      method: 'get',
      path: '/api/admin/job-failures',
      tag: 'Admin',
      access: 'admin',
      summary: 'Jobs that failed for good: open ones first',
      query: jobFailuresQuerySchema,
      responses: { 200: json(jobFailuresPageSchema, 'One page, and how many are open') },
    },
    {
      method: 'post',
      path: '/api/admin/job-failures/{id}/resolve',
      tag: 'Admin',
      access: 'admin',
      summary: 'Mark a failed job resolved',
      params: idOf('Failed job ID'),
      responses: { 200: json(resolveJobFailureResponseSchema, 'The failed job, resolved') },
    },
    {
      method: 'get',
      path: '/api/admin/audit-log',
      tag: 'Admin',
      access: 'superadmin',
      summary: "The admins' changes, newest first",
      query: auditQuerySchema,
      responses: { 200: json(auditPageSchema, 'One page') },
    },

    // ---- Reports (super admins; the cash-up, any admin)
    {
      method: 'get',
      path: '/api/admin/income',
      tag: 'Reports',
      access: 'superadmin',
      summary: 'The payments ledger: whole (streamed), or one page with the totals',
      query: incomeQuerySchema,
      responses: { 200: json(z.union([incomeReportSchema, incomePageSchema]), 'The ledger; one page when page or page_size is given') },
    },
    {
      method: 'get',
      path: '/api/admin/reports/inventory',
      tag: 'Reports',
      access: 'superadmin',
      summary: 'The inventory report (the ledger, as income)',
      query: incomeQuerySchema,
      responses: { 200: json(z.union([incomeReportSchema, incomePageSchema]), 'The ledger; one page when page or page_size is given') },
    },
    {
      method: 'get',
      path: '/api/admin/reports/inventory.xlsx',
      tag: 'Reports',
      access: 'superadmin',
      summary: 'The inventory report as a workbook',
      query: noQuery,
      responses: { 200: workbook('The workbook') },
    },
    {
      method: 'get',
      path: '/api/admin/reports/eod',
      tag: 'Reports',
      access: 'superadmin',
      summary: "A day's bookings and money",
      query: eodQuerySchema,
      responses: { 200: json(eodReportSchema, 'The report') },
    },
    {
      method: 'get',
      path: '/api/admin/reports/eod.xlsx',
      tag: 'Reports',
      access: 'superadmin',
      summary: 'The day report as a workbook',
      query: eodQuerySchema,
      responses: { 200: workbook('The workbook') },
    },
    {
      method: 'get',
      path: '/api/admin/reports/cash-up',
      tag: 'Reports',
      access: 'admin',
      summary: "A day's money by when it moved: per method taken, refunded and net, and each movement",
      query: cashUpQuerySchema,
      responses: { 200: json(cashUpReportSchema, 'The cash-up') },
    },
    {
      method: 'get',
      path: '/api/admin/reports/cash-up.xlsx',
      tag: 'Reports',
      access: 'admin',
      summary: 'The cash-up as a workbook',
      query: cashUpQuerySchema,
      responses: { 200: workbook('The workbook') },
    },
    {
      method: 'get',
      path: '/api/admin/reports/therapist-monthly',
      tag: 'Reports',
      access: 'superadmin',
      summary: "Each therapist's month",
      query: monthlyQuery,
      responses: { 200: json(therapistMonthlyReportSchema, 'The report') },
    },
    {
      method: 'get',
      path: '/api/admin/reports/therapist-monthly.xlsx',
      tag: 'Reports',
      access: 'superadmin',
      summary: 'The month report as a workbook',
      query: monthlyQuery,
      responses: { 200: workbook('The workbook') },
    },

    // ---- Catalogue (super admins write; any admin reads holidays, services, centres)
    {
      method: 'get',
      path: '/api/admin/catalogue/therapists',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Every therapist with hours and time off',
      query: noQuery,
      responses: { 200: json(z.array(catalogueTherapistSchema), 'The therapists') },
    },
    {
      method: 'post',
      path: '/api/admin/therapists',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Add a therapist',
      body: { json: therapistCreateSchema, required: true },
      responses: { 201: json(catalogueTherapistSchema, 'Added') },
    },
    {
      method: 'patch',
      path: '/api/admin/therapists/{id}',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Change a therapist',
      params: idOf('Therapist ID'),
      body: { json: therapistPatchSchema, required: true },
      responses: { 200: json(catalogueTherapistSchema, 'Changed') },
    },
    {
      method: 'post',
      path: '/api/admin/therapists/{id}/activate',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Offer a therapist again',
      params: idOf('Therapist ID'),
      responses: { 200: json(therapistActiveResponseSchema, 'Active') },
    },
    {
      method: 'post',
      path: '/api/admin/therapists/{id}/deactivate',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Stop offering a therapist (their live bookings are listed, not cancelled)',
      params: idOf('Therapist ID'),
      responses: { 200: json(therapistActiveResponseSchema, 'Inactive, and the live bookings to decide about') },
    },
    {
      method: 'put',
      path: '/api/admin/therapists/{id}/photo',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: "Replace a therapist's photo",
      params: idOf('Therapist ID'),
      body: PHOTO_BODY,
      responses: { 200: json(therapistPhotoResponseSchema, 'Stored') },
    },
    {
      method: 'put',
      path: '/api/admin/therapists/{id}/hours',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: "Set a therapist's weekly hours",
      params: idOf('Therapist ID'),
      body: { json: weeklyHoursSchema, required: true },
      responses: { 200: json(weeklyHoursResponseSchema, 'The hours, and live bookings now outside them') },
    },
    {
      method: 'post',
      path: '/api/admin/therapists/{id}/time-off',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Add time off',
      params: idOf('Therapist ID'),
      body: { json: timeOffSchema, required: true },
      responses: { 201: json(timeOffResponseSchema, 'Added, and live bookings inside it') },
    },
    {
      method: 'delete',
      path: '/api/admin/therapists/{id}/time-off/{entry}',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Remove time off',
      params: timeOffParams,
      responses: { 200: json(deletedResponseSchema, 'Removed') },
    },
    {
      method: 'get',
      path: '/api/admin/holidays',
      tag: 'Catalogue',
      access: 'admin',
      summary: "The centre's holidays",
      query: noQuery,
      responses: { 200: json(z.array(holidayDtoSchema), 'The holidays') },
    },
    {
      method: 'post',
      path: '/api/admin/holidays',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Add a holiday',
      body: { json: holidaySchema, required: true },
      responses: { 201: json(holidayResponseSchema, 'Added, and live bookings on it') },
    },
    {
      method: 'delete',
      path: '/api/admin/holidays/{id}',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Remove a holiday',
      params: idOf('Holiday ID'),
      responses: { 200: json(deletedResponseSchema, 'Removed') },
    },
    {
      method: 'get',
      path: '/api/admin/services',
      tag: 'Catalogue',
      access: 'admin',
      summary: 'The services',
      query: noQuery,
      responses: { 200: json(z.array(serviceDtoSchema), 'The services') },
    },
    {
      method: 'post',
      path: '/api/admin/services',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Add a service',
      body: { json: serviceSchema, required: true },
      responses: { 201: json(serviceDtoSchema, 'Added') },
    },
    {
      method: 'patch',
      path: '/api/admin/services/{id}',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Rename a service',
      params: idOf('Service ID'),
      body: { json: serviceSchema, required: true },
      responses: { 200: json(serviceDtoSchema, 'Renamed') },
    },
    {
      method: 'get',
      path: '/api/admin/locations',
      tag: 'Catalogue',
      access: 'admin',
      summary: 'The centres',
      query: noQuery,
      responses: { 200: json(z.array(locationDtoSchema), 'The centres') },
    },
    {
      method: 'patch',
      path: '/api/admin/locations/{id}',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: 'Change a centre',
      params: idOf('Location ID'),
      body: { json: locationPatchSchema, required: true },
      responses: { 200: json(locationDtoSchema, 'Changed') },
    },
    {
      method: 'put',
      path: '/api/admin/locations/{id}/photo',
      tag: 'Catalogue',
      access: 'superadmin',
      summary: "Replace a centre's photo",
      params: idOf('Location ID'),
      body: PHOTO_BODY,
      responses: { 200: json(locationPhotoResponseSchema, 'Stored') },
    },

    // ---- Staff
    {
      method: 'get',
      path: '/api/admin/users',
      tag: 'Staff',
      access: 'superadmin',
      summary: 'The admins',
      query: noQuery,
      responses: { 200: json(z.array(staffDtoSchema), 'The admins') },
    },
    {
      method: 'post',
      path: '/api/admin/users',
      tag: 'Staff',
      access: 'superadmin',
      summary: 'Add an admin (invited by e-mail unless a password is given)',
      body: { json: staffCreateSchema, required: true },
      responses: { 201: json(staffDtoSchema, 'Added') },
    },
    {
      method: 'post',
      path: '/api/admin/users/{id}/activate',
      tag: 'Staff',
      access: 'superadmin',
      summary: 'Let an admin sign in again',
      params: idOf('Admin ID'),
      responses: { 200: json(staffDtoSchema, 'Active') },
    },
    {
      method: 'post',
      path: '/api/admin/users/{id}/deactivate',
      tag: 'Staff',
      access: 'superadmin',
      summary: "End an admin's access",
      params: idOf('Admin ID'),
      responses: { 200: json(staffDtoSchema, 'Inactive') },
    },
    {
      method: 'post',
      path: '/api/admin/users/{id}/reset-password',
      tag: 'Staff',
      access: 'superadmin',
      summary: 'E-mail an admin a set-password link',
      params: idOf('Admin ID'),
      responses: { 200: json(resetPasswordResponseSchema, 'Sent') },
    },
    {
      method: 'post',
      path: '/api/admin/me/password',
      tag: 'Staff',
      access: 'admin',
      summary: "Change one's own password (other sessions end)",
      body: { json: mePasswordSchema, required: true },
      responses: { 200: json(passwordChangedResponseSchema, 'Changed, with a new token') },
    },
    {
      method: 'post',
      path: '/api/admin/set-password',
      tag: 'Staff',
      access: 'public',
      summary: 'Set a password with the e-mailed link',
      body: { json: setPasswordSchema, required: true },
      responses: { 200: json(setPasswordResponseSchema, 'Set') },
    },

    // ---- Health and this document
    {
      method: 'get',
      path: '/metrics',
      tag: 'Health',
      access: 'metrics-token',
      summary: 'Prometheus metrics (404 unless METRICS_TOKEN is set; then only with it as the bearer token)',
      responses: { 200: { media: 'text/plain', format: 'text', description: 'The Prometheus text exposition format, version 0.0.4' } },
    },
    {
      method: 'get',
      path: '/healthz',
      tag: 'Health',
      access: 'public',
      summary: 'Liveness',
      responses: { 200: json(healthResponseSchema, 'The process answers') },
    },
    {
      method: 'get',
      path: '/readyz',
      tag: 'Health',
      access: 'public',
      summary: 'Readiness: PostgreSQL and Redis reachable',
      responses: { 200: json(readinessSchema('ready'), 'Ready'), 503: json(readinessSchema('not ready'), 'A dependency is out of reach (Retry-After)') },
    },
    {
      method: 'get',
      path: '/api/openapi.json',
      tag: 'Health',
      access: 'public',
      summary: 'This document',
      responses: { 200: json(openApiDocumentSchema, 'The OpenAPI 3.1 document') },
    },
  ] as const satisfies readonly ApiRoute[];
}

/**
 * The table's rows, each with the types of its own schemas: the site's API client takes its request
 * and answer types from them (type-only, so no zod reaches the browser).
 */
type ContractRoute = ReturnType<typeof apiRoutes>[number];
/** The paths the table lists for `method`. */
export type RoutePath<M extends HttpMethod> = Extract<ContractRoute, { method: M }>['path'];
type RouteOf<M extends HttpMethod, P> = Extract<ContractRoute, { method: M; path: P }>;
type Field<T, K extends PropertyKey> = K extends keyof T ? T[K] : never;

/** What a call answers when it succeeds (its 2xx answer's JSON as the server sends it; a Blob for a file). */
export type RouteAnswer<M extends HttpMethod, P> = AnswerOf<Field<RouteOf<M, P>['responses'], 200 | 201>>;
type AnswerOf<A> = A extends { json: infer S extends z.ZodType } ? z.output<S> : Blob;

/** The body a call sends, as the route's schema reads it (never: the call sends none). */
export type RouteBody<M extends HttpMethod, P> = BodyOf<Field<RouteOf<M, P>, 'body'>>;
type BodyOf<B> = B extends { json: infer S extends z.ZodType } ? z.input<S> : B extends { media: string } ? Blob : never;
/** Whether the route refuses a call without its body. */
export type RouteBodyRequired<M extends HttpMethod, P> = Field<RouteOf<M, P>, 'body'> extends { required: true } ? true : false;

/** A call's query parameters as the server reads them (numbers, lists); never: it takes none. */
export type RouteQuery<M extends HttpMethod, P> = OutputOf<Field<RouteOf<M, P>, 'query'>>;
/** The values of a path's `{name}` parts as the server reads them; never: the path has none. */
export type RouteParams<M extends HttpMethod, P> = OutputOf<Field<RouteOf<M, P>, 'params'>>;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : never;
