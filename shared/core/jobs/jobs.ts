import { z } from 'zod';

/**
 * The one map from job name to queue and payload. Producers (the outbox, the API) and the worker
 * both read it; the worker validates every payload against it before a handler sees it.
 */
const bookingRef = z.strictObject({ bookingId: z.number().int().positive() });

/**
 * The WhatsApp reminder's retries: its own, not the mail queue's. Meta's "not now" answers (rate
 * limits, its own outages) are retried WHATSAPP_ATTEMPTS times in all, waiting WHATSAPP_RETRY_DELAY_MS,
 * then twice that, and so on (the worker's 'whatsapp' backoff strategy; about half an hour in all by
 * default), so the last try still leaves the e-mail fallback most of the day before the session.
 */
export const WHATSAPP_ATTEMPTS = 6;
export const WHATSAPP_BACKOFF = 'whatsapp';

export const JOBS = {
  'payments.create-link': { queue: 'payments', payload: bookingRef },
  /**
   * A manual online booking the centre made unpaid (issue 31): its payment link, made if needed and
   * sent to the client once. Written with the booking, so a crash after its commit still sends it.
   */
  'payments.send-link': { queue: 'payments', payload: bookingRef },
  /** Due when the earliest running hold ends; settles every hold over by then. */
  'payments.expire-holds': { queue: 'payments', payload: z.strictObject({ endsAt: z.iso.datetime({ offset: true }) }) },
  'payments.reconcile': { queue: 'payments', payload: z.strictObject({}) },
  /** Hourly: the ledger against the provider for the last 7 days; disagreements go on the super admin's list. */
  'payments.reconcile-ledger': { queue: 'payments', payload: z.strictObject({}) },
  'payments.sandbox-webhook': {
    queue: 'payments',
    payload: z.strictObject({ url: z.url(), body: z.string().min(2), eventId: z.string().min(1) }),
  },
  /**
   * An online session's meeting link. `seriesId`: the session was booked in a series (issue 34), whose one
   * confirmation e-mail follows once the last of its links is made, instead of this session's own.
   */
  'meetings.create': {
    queue: 'meetings',
    payload: z.strictObject({ bookingId: z.number().int().positive(), seriesId: z.number().int().positive().optional() }),
  },
  /**
   * The client moved or cancelled a session (issue 21): the meeting keeps its link; a provider with
   * calendar events moves or cancels the event to the booking's state when the job runs.
   */
  'meetings.update': { queue: 'meetings', payload: z.strictObject({ bookingId: z.number().int().positive(), sequence: z.number().int().min(0) }) },
  'mail.booking-confirmation': {
    queue: 'mail',
    payload: z.strictObject({ bookingId: z.number().int().positive(), recipient: z.enum(['client', 'therapist']) }),
  },
  /**
   * Due 24 hours before the session that started at sessionStartsAt when it was scheduled: a session
   * moved since has a reminder of its own, and this one is skipped. Jobs from before the field lack it.
   */
  'mail.booking-reminder': {
    queue: 'mail',
    payload: z.strictObject({ bookingId: z.number().int().positive(), sessionStartsAt: z.iso.datetime({ offset: true }).optional() }),
  },
  /** The client moved or cancelled a session: each side hears of it, with the calendar update (same UID, SEQUENCE = sequence). */
  'mail.booking-changed': {
    queue: 'mail',
    payload: z.strictObject({
      bookingId: z.number().int().positive(),
      recipient: z.enum(['client', 'therapist']),
      change: z.enum(['moved', 'cancelled']),
      sequence: z.number().int().min(1),
      /** Where a moved session was before (centre date and HH:MM). */
      from: z.strictObject({ date: z.iso.date(), time: z.string().regex(/^\d{2}:\d{2}$/) }).optional(),
    }),
  },
  /**
   * The 24-hour reminder on WhatsApp, for a client who opted in (the reminder job hands it over); on
   * the mail queue, the client's notifications' own. Falls back to the e-mail reminder itself.
   */
  'whatsapp.reminder': {
    queue: 'mail',
    payload: z.strictObject({ bookingId: z.number().int().positive(), sessionStartsAt: z.iso.datetime({ offset: true }) }),
    options: { attempts: WHATSAPP_ATTEMPTS, backoff: { type: WHATSAPP_BACKOFF } },
  },
  /** One sending of a booking's payment link (sentAt names it): the e-mail to the client, with the booking's link as it is then. */
  'mail.payment-link': { queue: 'mail', payload: z.strictObject({ bookingId: z.number().int().positive(), sentAt: z.iso.datetime({ offset: true }) }) },
  /** The same sending on WhatsApp, for a client who opted in; its own retries, as the reminder's. */
  'whatsapp.payment-link': {
    queue: 'mail',
    payload: z.strictObject({ bookingId: z.number().int().positive(), sentAt: z.iso.datetime({ offset: true }) }),
    options: { attempts: WHATSAPP_ATTEMPTS, backoff: { type: WHATSAPP_BACKOFF } },
  },
  /** A waitlist offer on WhatsApp, for a client who opted in when joining (issue 34); the offer's e-mail goes as well. */
  'whatsapp.waitlist-offer': {
    queue: 'mail',
    payload: z.strictObject({ offerId: z.number().int().positive() }),
    options: { attempts: WHATSAPP_ATTEMPTS, backoff: { type: WHATSAPP_BACKOFF } },
  },
  /** A series' one confirmation e-mail (issue 34): every session's date, with one calendar file holding them all. */
  'mail.series-confirmation': {
    queue: 'mail',
    payload: z.strictObject({ seriesId: z.number().int().positive(), recipient: z.enum(['client', 'therapist']) }),
  },
  /** Staff moved sessions of a series: one e-mail listing them, with the calendar updates (each session's UID, SEQUENCE raised). */
  'mail.series-moved': {
    queue: 'mail',
    payload: z.strictObject({
      seriesId: z.number().int().positive(),
      recipient: z.enum(['client', 'therapist']),
      bookingIds: z.array(z.number().int().positive()).min(1).max(52),
    }),
  },
  /** Staff cancelled sessions of a series: one e-mail to each side listing them, the client's with each one's money. */
  'mail.series-cancelled': {
    queue: 'mail',
    payload: z.strictObject({
      seriesId: z.number().int().positive(),
      recipient: z.enum(['client', 'therapist']),
      bookingIds: z.array(z.number().int().positive()).min(1).max(52),
      reason: z.string().max(300).optional(),
    }),
  },
  /** What became of a booking's money after it was cancelled or did not go ahead (refunded, due, or kept and why). */
  'mail.booking-money': { queue: 'mail', payload: z.strictObject({ bookingId: z.number().int().positive(), reason: z.string().max(300).optional() }) },
  /**
   * A payment that arrived for a booking that cannot take it, or for a package sale already paid (a
   * second link paid): returned in full (AUTO_REFUND_STRAY_PAYMENTS).
   */
  'payments.refund-stray': {
    queue: 'payments',
    payload: z.union([
      z.strictObject({ bookingId: z.number().int().positive(), paymentId: z.string().min(1).max(64) }),
      z.strictObject({ saleId: z.number().int().positive(), paymentId: z.string().min(1).max(64) }),
    ]),
  },
  'reports.nightly': { queue: 'reports', payload: z.strictObject({}) },
  /**
   * Nightly: finished outbox rows and webhook events past RETENTION_DAYS are deleted. On the reports
   * queue, the one for nightly upkeep: a queue of its own would keep a worker and a Redis connection
   * open for one short run a day.
   */
  'reports.retention': { queue: 'reports', payload: z.strictObject({}) },
  /**
   * A live booking's slot was freed (issue 34; written by the bookings trigger of migration 0027, in the
   * transaction that freed it): offers it to the first waitlist client waiting for it. On the payments
   * queue, with the holds it makes and ends.
   */
  'waitlist.slot-freed': {
    queue: 'payments',
    payload: z.strictObject({ therapistId: z.number().int().positive(), date: z.iso.date(), start: z.string().regex(/^\d{2}:\d{2}$/) }),
  },
  /** Due when a waitlist offer's hold ends: unclaimed, its slot is freed (and so passes to the next). */
  'waitlist.offer-expiry': { queue: 'payments', payload: z.strictObject({ offerId: z.number().int().positive() }) },
  /** The waitlist's e-mails: joined (with the private link), or a slot held for the client (offerId). */
  'mail.waitlist': {
    queue: 'mail',
    payload: z.strictObject({ entryId: z.number().int().positive(), kind: z.enum(['joined', 'offer']), offerId: z.number().int().positive().optional() }),
  },
  /** A package sold (issue 34): the client's e-mail with their package's private link. */
  'mail.package-sold': { queue: 'mail', payload: z.strictObject({ saleId: z.number().int().positive() }) },
  /** Seven days before a package expires with sessions left: one reminder per expiry date. */
  'mail.package-expiring': { queue: 'mail', payload: z.strictObject({ saleId: z.number().int().positive() }) },
  /** The unused sessions of a package refunded: what goes back, and how. */
  /** A package's unused sessions refunded; with paymentId, a second payment for it given back (refundStraySalePayment). */
  'mail.package-refunded': {
    queue: 'mail',
    payload: z.strictObject({ saleId: z.number().int().positive(), paymentId: z.string().min(1).max(64).optional() }),
  },
  /**
   * Nightly: credits of packages past their last day expire, and clients whose package expires within
   * seven days with sessions left are reminded (each once). On the reports queue, the nightly upkeep's.
   */
  'packages.expire': { queue: 'reports', payload: z.strictObject({}) },
  /** A staff account's set-password link (a new account, or a password reset); the token is derived in the worker, never stored. */
  'mail.staff-invitation': { queue: 'mail', payload: z.strictObject({ invitationId: z.uuid(), kind: z.enum(['invite', 'reset']) }) },
} as const;

export type JobName = keyof typeof JOBS;
export type QueueName = (typeof JOBS)[JobName]['queue'];
export type JobPayload<N extends JobName> = z.output<(typeof JOBS)[N]['payload']>;

export const QUEUE_NAMES = [...new Set(Object.values(JOBS).map((j) => j.queue))] as QueueName[];

export function queueOf(name: JobName): QueueName {
  return JOBS[name].queue;
}

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOBS, name);
}

/** A job's own retry options, where it has them; the rest use DEFAULT_JOB_OPTIONS. */
export function jobOptionsOf(name: string): { attempts: number; backoff: { type: string } } | undefined {
  return isJobName(name) ? (JOBS[name] as { options?: { attempts: number; backoff: { type: string } } }).options : undefined;
}

/** Retries back off exponentially (5 s, 10 s, 20 s, …); a job that keeps failing stays in the failed set. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 5_000 },
  // Completed jobs are kept for a while so a re-dispatched job id is recognised as already done.
  removeOnComplete: { age: 14 * 24 * 3600, count: 50_000 },
  removeOnFail: false,
} as const;

/**
 * The job id of a booking's job as the parts on either side of the booking id. A new booking's jobs
 * are written by the statement that inserts it (the booking batcher), before any id is known: it fills
 * the id in between the parts. jobIds below builds the same ids from the same parts, so the two
 * cannot drift apart.
 */
export type BookingJobId = { prefix: string; suffix: string };

/** The job id the parts make for one booking. */
export function fillBookingJobId(parts: BookingJobId, bookingId: number): string {
  return `${parts.prefix}${bookingId}${parts.suffix}`;
}

/** The jobs a newly written booking may need, as id parts (see BookingJobId). */
export const bookingJobIds = {
  meeting: (): BookingJobId => ({ prefix: 'meeting.', suffix: '' }),
  confirmationMail: (recipient: 'client' | 'therapist'): BookingJobId => ({ prefix: 'mail-confirmation.', suffix: `.${recipient}` }),
  /** Per session start, so a moved session gets a reminder of its own (and the old one's id stays used). */
  reminderMail: (sessionStartsAt: Date): BookingJobId => ({ prefix: 'mail-reminder.', suffix: `.${sessionStartsAt.getTime()}` }),
};

/** Stable job ids: one per booking and purpose (per instant for hold expiry), so any re-dispatch is a no-op. BullMQ forbids ':'. */
export const jobIds = {
  paymentLink: (bookingId: number) => `payment-link.${bookingId}`,
  holdExpiry: (endsAt: Date) => `expire-holds.${endsAt.getTime()}`,
  meeting: (bookingId: number) => fillBookingJobId(bookingJobIds.meeting(), bookingId),
  confirmationMail: (bookingId: number, recipient: 'client' | 'therapist') => fillBookingJobId(bookingJobIds.confirmationMail(recipient), bookingId),
  reminderMail: (bookingId: number, sessionStartsAt: Date) => fillBookingJobId(bookingJobIds.reminderMail(sessionStartsAt), bookingId),
  changeMail: (bookingId: number, sequence: number, recipient: 'client' | 'therapist') => `mail-changed.${bookingId}.${sequence}.${recipient}`,
  meetingUpdate: (bookingId: number, sequence: number) => `meeting-update.${bookingId}.${sequence}`,
  /** Per session start, as whatsapp_messages is: a moved session is reminded again. */
  whatsappReminder: (bookingId: number, startsAt: Date) => `whatsapp-reminder.${bookingId}.${startsAt.getTime()}`,
  /** The e-mail after Meta reported the WhatsApp reminder failed. */
  whatsappFallback: (bookingId: number, startsAt: Date) => `whatsapp-reminder.${bookingId}.${startsAt.getTime()}.failed`,
  cancellationMail: (bookingId: number) => `mail-cancelled.${bookingId}`,
  /** The client hears the owner's decision on a refund request (approved or declined), once per request. */
  refundReviewMail: (requestId: number) => `mail-refund-review.${requestId}`,
  /** Once per booking: the link a manual booking made unpaid is sent with. */
  paymentLinkSend: (bookingId: number) => `payment-link-send.${bookingId}`,
  /** Per sending (its instant): the same sending is one message, a new one (Send pressed again) another. */
  paymentLinkMail: (bookingId: number, sentAt: Date) => `mail-payment-link.${bookingId}.${sentAt.getTime()}`,
  whatsappPaymentLink: (bookingId: number, sentAt: Date) => `whatsapp-payment-link.${bookingId}.${sentAt.getTime()}`,
  strayRefund: (paymentId: string) => `refund-stray.${paymentId}`,
  strayRefundMail: (paymentId: string) => `mail-refund.${paymentId}`,
  sandboxWebhook: (eventId: string) => `sandbox-webhook.${eventId}`,
  staffInvitation: (invitationId: string) => `mail-staff-invitation.${invitationId}`,
  seriesConfirmationMail: (seriesId: number, recipient: 'client' | 'therapist') => `mail-series-confirmation.${seriesId}.${recipient}`,
  /** Per move (its instant): each move of a series is its own message. */
  /** One per cancel of a series: its first session is cancelled once. */
  seriesCancelledMail: (seriesId: number, firstBookingId: number, recipient: 'client' | 'therapist') =>
    `mail-series-cancelled.${seriesId}.${firstBookingId}.${recipient}`,
  seriesMovedMail: (seriesId: number, at: Date, recipient: 'client' | 'therapist') => `mail-series-moved.${seriesId}.${at.getTime()}.${recipient}`,
  /** The waitlist's (issue 34): an offer's expiry and e-mail, once per offer; the joined e-mail once per entry. */
  waitlistOfferExpiry: (offerId: number) => `waitlist-offer-expiry.${offerId}`,
  waitlistOfferMail: (offerId: number) => `mail-waitlist-offer.${offerId}`,
  whatsappWaitlistOffer: (offerId: number) => `whatsapp-waitlist-offer.${offerId}`,
  waitlistJoinedMail: (entryId: number) => `mail-waitlist-joined.${entryId}`,
  packageSoldMail: (saleId: number) => `mail-package-sold.${saleId}`,
  /** Per expiry date: a package extended after its reminder is reminded again before its new date. */
  packageExpiringMail: (saleId: number, expiresOn: string) => `mail-package-expiring.${saleId}.${expiresOn}`,
  packageRefundMail: (saleId: number) => `mail-package-refunded.${saleId}`,
  packageStrayRefundMail: (paymentId: string) => `mail-package-stray-refund.${paymentId}`,
};
