import { API_MESSAGES } from '../../contract/messages.ts';
import { changePolicyText, OVERTIME_TEXT, shortNoticeText } from '../../contract/policy.ts';
import { BOOK_AGAIN_ANCHOR, canBookAgain, hasNotice, isConfirmedBooking } from '../../domain/manage.ts';
import { formatPrice, paiseToRupees } from '../../domain/money.ts';
import { SESSION_MINUTES, sessionEnd } from '../../domain/session.ts';
import { displayName } from '../../domain/therapist.ts';
import { addDays, formatLongDate, formatTimeIst, sessionStart } from '../../domain/time.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { enqueueInTx, intent } from '../jobs/outbox.ts';
import { intentsForSeriesSession, mailIntents, seriesConfirmationIntents } from './booking-followups.service.ts';
import type { Logger } from '../logger.ts';
import { manageTokenFor, manageUrlFor } from './booking-token.ts';
import { jobIds, type JobPayload } from '../jobs/jobs.ts';
import type { MailMessage, Mailer } from '../providers/mail/mail.provider.ts';
import type { MeetingsProvider } from '../providers/meetings/meetings.provider.ts';
import { getBookingView, listSeriesBookingViews, storeMeetingLinkIfNone, type BookingView } from '../repositories/booking.repository.ts';
import { countSessionsAwaitingMeeting, getSeries, lockSeries, type SeriesRow } from '../repositories/series.repository.ts';
import { REFUND_WORDS } from '../../contract/refund-words.ts';
import { refundStateOf, type RefundState } from './refund.service.ts';
import { moneyOf } from '../repositories/ledger.repository.ts';
import { setManageHashIfMissing } from '../repositories/manage.repository.ts';
import { ensureMessage } from '../repositories/whatsapp.repository.ts';
import { ARRIVE_EARLY, cancelledSessionsInvitation, sessionInvitation as invitation, sessionsInvitation } from './session-invitation.ts';
import { INVITATION_HOURS, invitationForMail } from './staff.service.ts';
import { linkRefusal } from './payment-link-send.service.ts';

export type NotificationDeps = { db: Db; mailer: Mailer; meetings: MeetingsProvider; config: Config; logger: Logger; now: () => Date };

/** The therapist as the wizard and every page name them (shared/domain/therapist.ts): "Asha Mehta". */
function therapistOf(b: BookingView): string {
  return displayName(b.therapistName);
}

function when(b: BookingView): string {
  return `${formatLongDate(b.bookingDate)} at ${formatTimeIst(b.bookingTimeSlotStart)}`;
}

/** An online session's meeting as the provider holds it, made and moved in the same words. */
function meetingOf(b: BookingView, config: Config) {
  const start = sessionStart(b);
  return {
    bookingId: b.id,
    summary: `Therapy session with ${therapistOf(b)}`,
    description: `${config.centreName}: ${SESSION_MINUTES}-minute online session (booking ${b.id}).`,
    start,
    end: sessionEnd(start),
  };
}

/**
 * The meetings.create job: one link per online booking, then the e-mails that carry it. A session booked
 * in a series (`seriesId`) gets its reminder only: the series' one confirmation e-mail goes out once the
 * last of its sessions has its link (the series' row, locked, makes the jobs finishing together agree
 * which one is last).
 */
export async function createMeetingForBooking(deps: NotificationDeps, bookingId: number, seriesId?: number): Promise<{ url: string | null }> {
  const b = await getBookingView(deps.db, bookingId);
  if (!b) throw new AppError('not_found', API_MESSAGES.bookingNotFound);
  if (b.bookingType !== 'ONLINE' || !isConfirmedBooking(b)) return { url: null };
  const now = deps.now();
  let url = b.googleMeetLink;
  if (!url) {
    const made = await deps.meetings.createMeeting(meetingOf(b, deps.config));
    url = made.url;
  }
  const link = url;
  await deps.db.transaction(async (tx) => {
    url = (await storeMeetingLinkIfNone(tx, b.id, link, now)) ?? link;
    if (seriesId === undefined) {
      await enqueueInTx(tx, mailIntents(b, now), now);
      return;
    }
    await lockSeries(tx, seriesId);
    const waiting = await countSessionsAwaitingMeeting(tx, seriesId);
    await enqueueInTx(
      tx,
      [...intentsForSeriesSession({ ...b, googleMeetLink: url, seriesId }, now), ...(waiting === 0 ? seriesConfirmationIntents(seriesId) : [])],
      now,
    );
  });
  return { url };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Every web address in the paragraphs is a link in the HTML part (the text part shows it as it is):
 * the video call's, the Manage booking link's (`link` gives it its words), a set-password link's.
 */
export function renderHtml(title: string, paragraphs: string[], link?: { href: string; text: string }): string {
  const linked = (html: string) =>
    html.replace(/https?:\/\/[^\s<>"']*[^\s<>"'.,;:)]/g, (href) => {
      const text = link && href === escapeHtml(link.href) ? escapeHtml(link.text) : href;
      return `<a href="${href}" style="color:#3f7f7a">${text}</a>`;
    });
  const body = paragraphs.map((p) => `<p style="margin:0 0 12px">${linked(escapeHtml(p)).replace(/\n/g, '<br>')}</p>`).join('');
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#2f3e3c;background:#f6f3ec;padding:24px"><div style="max-width:560px;margin:auto;background:#fff;border-radius:12px;padding:24px"><h2 style="color:#3f7f7a;margin-top:0">${escapeHtml(title)}</h2>${body}</div></body></html>`;
}

function sessionLines(b: BookingView, config: Config): string[] {
  const lines = [
    `Therapist: ${therapistOf(b)}`,
    `Date and time: ${when(b)}`,
    `Duration: ${SESSION_MINUTES} minutes`,
    `Session: ${b.bookingType === 'ONLINE' ? 'Online (secure video call)' : 'In person'}${b.sessionType ? `, ${b.sessionType}` : ''}`,
  ];
  if (b.bookingType === 'ONLINE') {
    lines.push(`Join the video call: ${b.googleMeetLink ?? 'the link will follow in a separate e-mail'}`);
  } else {
    lines.push(`Centre: ${b.locationName ?? config.centreName}`, `Address: ${b.locationAddress ?? ''}`, ARRIVE_EARLY);
  }
  return lines;
}

/**
 * The policy in the one wording (shared/contract/policy.ts); a session already within the notice
 * (booked at short notice) is told it can no longer be changed online.
 */
function policy(b: BookingView, config: Config, now: Date): string {
  const rules = { noticeHours: config.changeNoticeHours, maxReschedules: config.maxReschedules };
  const support = { phone: config.supportPhone, email: config.supportEmail };
  const words = hasNotice(sessionStart(b), now, rules.noticeHours) ? changePolicyText(rules, support) : shortNoticeText(rules, support);
  return `Cancellation policy: ${words} ${OVERTIME_TEXT}`;
}

/** `paidPaise`: what the ledger holds as taken for the booking; a payment is mentioned only when there is one (issue 31). */
export function confirmationMail(b: BookingView, recipient: 'client' | 'therapist', config: Config, now: Date, paidPaise = 0): MailMessage | undefined {
  const ics = invitation(b, config, now);
  if (recipient === 'therapist') {
    if (!b.therapistEmail) return undefined;
    const subject = `New booking: ${b.clientFullName}, ${when(b)}`;
    const paragraphs = [
      `A${b.bookingType === 'ONLINE' ? `${paidPaise > 0 ? ' paid' : 'n'} online` : 'n in-person'} session has been booked with you.`,
      sessionLines(b, config).join('\n'),
      `Client: ${b.clientFullName}\nE-mail: ${b.clientEmail}\nMobile: ${b.clientMobile}${b.clientNote ? `\nNote from the client: ${b.clientNote}` : ''}`,
      `Booking reference: ${b.id}`,
    ];
    return { to: b.therapistEmail, subject, text: paragraphs.join('\n\n'), html: renderHtml('New booking', paragraphs), ics };
  }
  const amount = formatPrice(paiseToRupees(b.amountPaise));
  const paymentLine =
    paidPaise > 0
      ? `Payment received: ${formatPrice(paiseToRupees(paidPaise))}${b.razorpayPaymentId ? ` (payment ${b.razorpayPaymentId})` : ''}.`
      : b.bookingType === 'ONLINE'
        ? `Session fee: ${amount}, as arranged with the centre.`
        : `The session fee${b.amountPaise > 0 ? ` of ${amount}` : ''} is paid at the centre on the day of your visit (cash, card or UPI).`;
  const manage = manageUrlFor(config.publicBaseUrl, config.jwtSecret, b.id);
  const paragraphs = [
    `Dear ${b.clientFullName},`,
    `Your session with ${therapistOf(b)} is confirmed.`,
    sessionLines(b, config).join('\n'),
    paymentLine,
    manageParagraph(b, manage, config, now),
    ...(canBookAgain(b) ? [bookAgainParagraph(b, manage)] : []),
    policy(b, config, now),
    `Booking reference: ${b.id}. If you need anything, call ${config.supportPhone} or write to ${config.supportEmail}.`,
    `Warm regards,\n${config.centreName}`,
  ];
  return {
    to: b.clientEmail,
    subject: `Booking confirmed: your session on ${when(b)}`,
    text: paragraphs.join('\n\n'),
    html: renderHtml('Your session is confirmed', paragraphs, { href: manage, text: 'Manage booking' }),
    ics,
  };
}

/** The private Manage booking link, in words: it is the client's alone (what it allows is the policy's to say). */
function manageParagraph(b: BookingView, url: string, config: Config, now: Date): string {
  const open = hasNotice(sessionStart(b), now, config.changeNoticeHours);
  return `Manage booking: your private link to see your session${open ? ', move it or cancel it' : ' and add it to your calendar'} (please do not share it):\n${url}`;
}

/**
 * "Book the same time next week" (issue 34): the Manage booking page opened at its book-again buttons
 * (BookAgain.tsx's anchor), which book through the wizard's checks; a link cannot book by itself.
 */
function bookAgainParagraph(b: BookingView, manageUrl: string): string {
  return `Book the same time next week (${formatLongDate(addDays(b.bookingDate, 7))}) or in two weeks with ${therapistOf(b)}:\n${manageUrl}#${BOOK_AGAIN_ANCHOR}`;
}

export function reminderMail(b: BookingView, config: Config, now: Date): MailMessage {
  const paragraphs = [
    `Dear ${b.clientFullName},`,
    `This is a reminder of your session with ${therapistOf(b)} tomorrow.`,
    sessionLines(b, config).join('\n'),
    policy(b, config, now),
    `Warm regards,\n${config.centreName}`,
  ];
  return {
    to: b.clientEmail,
    subject: `Reminder: your session on ${when(b)}`,
    text: paragraphs.join('\n\n'),
    html: renderHtml('See you tomorrow', paragraphs),
  };
}

/**
 * The e-mail of one sending of a booking's payment link (issue 31): what the session is, the amount,
 * and the link. An online booking is confirmed, with its video call link, once it is paid.
 */
export function paymentLinkMail(b: BookingView, url: string, config: Config): MailMessage {
  const amount = formatPrice(paiseToRupees(b.amountPaise));
  const paragraphs = [
    `Dear ${b.clientFullName},`,
    `Your session with ${b.therapistName} on ${when(b)} is booked. Please pay the session fee of ${amount} through this secure payment link:\n${url}`,
    sessionLines(b, config).join('\n'),
    b.bookingType === 'ONLINE'
      ? 'The link can be used until the session starts. Once you have paid, we send you the confirmation with the video call link.'
      : 'You may also pay at the centre on the day of your visit (cash, card or UPI).',
    `Booking reference: ${b.id}. If you need anything, call ${config.supportPhone} or write to ${config.supportEmail}.`,
    `Warm regards,\n${config.centreName}`,
  ];
  return {
    to: b.clientEmail,
    subject: `Payment link for your session on ${when(b)}`,
    text: paragraphs.join('\n\n'),
    html: renderHtml('Your payment link', paragraphs, { href: url, text: `Pay ${amount}` }),
  };
}

/** The mail.payment-link job: the booking's link as it is now; nothing for a booking paid or cancelled since. */
export async function sendPaymentLinkMail(deps: NotificationDeps, bookingId: number): Promise<'sent' | 'skipped'> {
  const b = await getBookingView(deps.db, bookingId);
  if (!b) throw new AppError('not_found', API_MESSAGES.bookingNotFound);
  if (linkRefusal(b) || !b.paymentLinkUrl) return 'skipped';
  await deps.mailer.send(paymentLinkMail(b, b.paymentLinkUrl, deps.config), `payment-link-${bookingId}`);
  return 'sent';
}

/** The mail.booking-confirmation job. */
export async function sendConfirmation(deps: NotificationDeps, bookingId: number, recipient: 'client' | 'therapist'): Promise<'sent' | 'skipped'> {
  const b = await getBookingView(deps.db, bookingId);
  if (!b) throw new AppError('not_found', API_MESSAGES.bookingNotFound);
  if (!isConfirmedBooking(b)) return 'skipped';
  // A public booking is written without its token's hash (the batch statement that writes it cannot
  // know its id beforehand, and the key stays out of SQL); it gets it here, before a link to it goes out.
  if (recipient === 'client' && !b.manageTokenHash) {
    await setManageHashIfMissing(deps.db, b.id, manageTokenFor(deps.config.jwtSecret, b.id).hash);
  }
  const money = await moneyOf(deps.db, b.id);
  const message = confirmationMail(b, recipient, deps.config, deps.now(), money.capturedPaise - money.refundedPaise);
  if (!message) {
    deps.logger.warn({ bookingId, recipient }, 'no e-mail address for the therapist: confirmation not sent');
    return 'skipped';
  }
  await deps.mailer.send(message, `confirmation-${bookingId}-${recipient}`);
  return 'sent';
}

/** whatsapp_messages.kind of the 24-hour reminder. */
export const REMINDER = 'REMINDER';

/**
 * The mail.booking-reminder job, for a client who opted in while WhatsApp is configured: the message row
 * (PENDING, under its unique key) and the whatsapp.reminder job, in one transaction. A second hand-over
 * (the reminder job run again) finds both and adds nothing.
 */
async function handOverReminder(deps: Pick<NotificationDeps, 'db' | 'now'>, b: BookingView): Promise<void> {
  const start = sessionStart(b);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await ensureMessage(tx, b.id, REMINDER, start);
    await enqueueInTx(tx, [intent('whatsapp.reminder', jobIds.whatsappReminder(b.id, start), { bookingId: b.id, sessionStartsAt: start.toISOString() })], now);
  });
}

/**
 * The mail.booking-reminder job (delayed to 24 hours before the session). `scheduledFor` is the session
 * start the reminder was scheduled for: a session the client moved since has its own reminder. A client
 * who opted in to WhatsApp reminders, while WhatsApp is configured, gets it there: the whatsapp.reminder
 * job takes it over (and falls back to this e-mail itself).
 */
export async function sendReminder(deps: NotificationDeps, bookingId: number, scheduledFor?: string): Promise<'sent' | 'skipped' | 'whatsapp'> {
  const b = await getBookingView(deps.db, bookingId);
  if (!b) throw new AppError('not_found', API_MESSAGES.bookingNotFound);
  if (!isConfirmedBooking(b) || sessionStart(b).getTime() <= deps.now().getTime()) return 'skipped';
  if (scheduledFor !== undefined && new Date(scheduledFor).getTime() !== sessionStart(b).getTime()) return 'skipped';
  if (deps.config.whatsapp && b.whatsappOptInAt) {
    await handOverReminder(deps, b);
    return 'whatsapp';
  }
  await deps.mailer.send(reminderMail(b, deps.config, deps.now()), `reminder-${bookingId}`);
  return 'sent';
}

/**
 * The money's part of a cancellation e-mail, in the words of shared/contract/refunds.ts: what went
 * back through the provider, what was handed back or is to be handed back at the centre, what the
 * owner is reviewing or declined. `rest` is what is left after those: the caller says what of it.
 */
function refundLines(state: RefundState, config: Config, full: boolean): { lines: string[]; rest: number } {
  const lines: string[] = [];
  if (state.review?.status === 'APPROVED') lines.push(REFUND_WORDS.approved);
  if (state.providerRefundedPaise > 0) {
    lines.push(
      REFUND_WORDS.toOriginalMethod(paiseToRupees(state.providerRefundedPaise), {
        done: true,
        full: full && state.dueAtCounterPaise + state.handedBackPaise === 0,
      }),
    );
  }
  if (state.handedBackPaise > 0) lines.push(REFUND_WORDS.handedBack(paiseToRupees(state.handedBackPaise)));
  if (state.dueAtCounterPaise > 0)
    lines.push(REFUND_WORDS.atCentre(paiseToRupees(state.dueAtCounterPaise), { phone: config.supportPhone, email: config.supportEmail }));
  let rest = state.capturedPaise - state.refundedPaise - state.dueAtCounterPaise;
  if (rest > 0 && state.review?.status === 'OPEN') {
    lines.push(REFUND_WORDS.underReview(paiseToRupees(rest)));
    rest = 0;
  } else if (rest > 0 && state.review?.status === 'DECLINED') {
    lines.push(REFUND_WORDS.declined(paiseToRupees(rest), state.review.note ?? ''));
    rest = 0;
  }
  return { lines, rest };
}

/** What became of a booking's money, in the client's words ('' when it held none): the booking's e-mail and a series' cancellation alike. */
function moneyLines(b: BookingView, state: RefundState, reason: string | undefined, config: Config): string[] {
  const rupees = (paise: number) => formatPrice(paiseToRupees(paise));
  const lines: string[] = [];
  if (state.capturedPaise > 0) {
    lines.push(`We received ${rupees(state.capturedPaise)}.`);
    const { lines: refunds, rest } = refundLines(state, config, false);
    lines.push(...refunds);
    if (rest > 0) {
      // A paid booking the centre cancelled: what its decision did not refund is kept. A payment that
      // came for a booking that could not take it is still to go back.
      lines.push(
        b.cancelled && b.paymentStatus === 'COMPLETED'
          ? `${rupees(rest)} is not refunded${reason ? `: ${reason}` : '.'}`
          : `${rupees(rest)} is being refunded to you; we will write again when it has gone through.`,
      );
    }
  }
  return lines;
}

/**
 * The mail.booking-money job: tells the client what became of their booking and its money, from the
 * ledger and the booking's refund requests (cancelled by the centre, or a payment that came after the
 * booking ended; refunded, to be handed back at the centre, under review, declined, refund due, or
 * kept for the reason given). The owner's decision on a refund request sends it again.
 */
export async function sendMoneyUpdate(deps: NotificationDeps, bookingId: number, reason: string | undefined): Promise<'sent' | 'skipped'> {
  const b = await getBookingView(deps.db, bookingId);
  if (!b) throw new AppError('not_found', API_MESSAGES.bookingNotFound);
  if (b.bookingType === 'ADMIN_BLOCK' || !b.clientEmail) return 'skipped';
  const state = await refundStateOf(deps.db, bookingId);
  const what = b.cancelled
    ? `Your session with ${therapistOf(b)} on ${when(b)} has been cancelled.`
    : isConfirmedBooking(b)
      ? `Your session with ${therapistOf(b)} on ${when(b)} is still booked; this message is about a payment for it.`
      : `Your session with ${therapistOf(b)} on ${when(b)} did not go ahead: the time held for it ended before your payment reached us.`;
  const lines = moneyLines(b, state, reason, deps.config);
  const paragraphs = [
    `Dear ${b.clientFullName},`,
    what,
    ...(lines.length ? [lines.join(' ')] : []),
    `Booking reference: ${b.id}. If you have any question, call ${deps.config.supportPhone} or write to ${deps.config.supportEmail}.`,
    `Warm regards,\n${deps.config.centreName}`,
  ];
  const subject = b.cancelled ? `Booking cancelled: your session on ${when(b)}` : `About your payment for the session on ${when(b)}`;
  await deps.mailer.send(
    {
      to: b.clientEmail,
      subject,
      text: paragraphs.join('\n\n'),
      html: renderHtml(b.cancelled ? 'Your booking is cancelled' : 'About your payment', paragraphs),
    },
    `money-${bookingId}`,
  );
  return 'sent';
}

/**
 * The mail.staff-invitation job: the set-password link for a new staff account or a password reset.
 * The token travels in the link's fragment (#token=…), which browsers never send to a server, so no
 * access log or proxy sees it. An invitation used or replaced meanwhile sends nothing.
 */
export async function sendStaffInvitation(deps: NotificationDeps, invitationId: string, kind: 'invite' | 'reset'): Promise<'sent' | 'skipped'> {
  const found = await invitationForMail(deps.db, invitationId, deps.config.jwtSecret);
  if (!found || found.used || found.expiresAt <= deps.now() || !found.admin.isActive) return 'skipped';
  const link = `${deps.config.publicBaseUrl}/admin/set-password#token=${found.token}`;
  const paragraphs = [
    `Dear ${found.admin.username},`,
    kind === 'invite'
      ? `An account on the ${deps.config.centreName} admin panel has been made for you, with the username ${found.admin.username}. Choose your password here:`
      : `A super admin reset the password of your admin account ${found.admin.username}. Choose a new password here:`,
    link,
    `The link works once, for ${INVITATION_HOURS} hours. Your password needs at least 12 characters and must not be a common one. If you did not expect this message, tell the centre at ${deps.config.supportEmail}.`,
    `Warm regards,\n${deps.config.centreName}`,
  ];
  const subject = kind === 'invite' ? `Your admin account at ${deps.config.centreName}` : `Set a new password for ${deps.config.centreName}`;
  await deps.mailer.send(
    {
      to: found.admin.email,
      subject,
      text: paragraphs.join('\n\n'),
      html: renderHtml(kind === 'invite' ? 'Welcome to the admin panel' : 'Set a new password', paragraphs),
    },
    `staff-${kind}`,
  );
  return 'sent';
}

type ChangePayload = JobPayload<'mail.booking-changed'>;

/**
 * The e-mail of a change the client made (issue 21), to the client or the therapist, with the calendar
 * update: the same UID as the first invitation, SEQUENCE raised, METHOD:CANCEL for a cancellation.
 * `money` is what the ledger holds for the booking (a cancellation tells the client about the refund).
 */
export function changeMail(
  b: BookingView,
  p: Pick<ChangePayload, 'recipient' | 'change' | 'sequence' | 'from'>,
  config: Config,
  now: Date,
  money: RefundState,
): MailMessage | undefined {
  const cancelled = p.change === 'cancelled';
  const ics = invitation(b, config, now, { sequence: p.sequence, method: cancelled ? 'CANCEL' : 'REQUEST' });
  const before = p.from ? `${formatLongDate(p.from.date)} at ${formatTimeIst(p.from.time)}` : undefined;
  const rupees = (paise: number) => formatPrice(paiseToRupees(paise));
  if (p.recipient === 'therapist') {
    if (!b.therapistEmail) return undefined;
    const paragraphs = cancelled
      ? [`${b.clientFullName} has cancelled their session with you on ${when(b)}. The time is free again.`, `Booking reference: ${b.id}`]
      : [
          `${b.clientFullName} has moved their session with you${before ? ` from ${before}` : ''} to ${when(b)}.`,
          sessionLines(b, config).join('\n'),
          `Booking reference: ${b.id}`,
        ];
    const subject = cancelled ? `Session cancelled: ${b.clientFullName}, ${when(b)}` : `Session moved: ${b.clientFullName}, now ${when(b)}`;
    return {
      to: b.therapistEmail,
      subject,
      text: paragraphs.join('\n\n'),
      html: renderHtml(cancelled ? 'Session cancelled' : 'Session moved', paragraphs),
      ics,
    };
  }
  const manage = manageUrlFor(config.publicBaseUrl, config.jwtSecret, b.id);
  let paragraphs: string[];
  if (cancelled) {
    const { lines, rest } = refundLines(money, config, true);
    if (rest > 0) lines.push(`${rupees(rest)} is being refunded to you; we will write again when it has gone through.`);
    const refund = money.capturedPaise > 0 ? lines.join(' ') : 'Nothing was paid for this session, so nothing is charged.';
    paragraphs = [
      `Dear ${b.clientFullName},`,
      `As you asked, your session with ${therapistOf(b)} on ${when(b)} has been cancelled.`,
      refund,
      `Booking reference: ${b.id}. If you would like another session, you are welcome to book again; if you have any question, call ${config.supportPhone} or write to ${config.supportEmail}.`,
      `Warm regards,\n${config.centreName}`,
    ];
  } else {
    paragraphs = [
      `Dear ${b.clientFullName},`,
      `As you asked, your session with ${therapistOf(b)} has been moved${before ? ` from ${before}` : ''} to ${when(b)}. Your payment and your booking carry over unchanged${b.bookingType === 'ONLINE' ? ', and the video call link stays the same' : ''}.`,
      sessionLines(b, config).join('\n'),
      manageParagraph(b, manage, config, now),
      policy(b, config, now),
      `Booking reference: ${b.id}. If you need anything, call ${config.supportPhone} or write to ${config.supportEmail}.`,
      `Warm regards,\n${config.centreName}`,
    ];
  }
  return {
    to: b.clientEmail,
    subject: cancelled ? `Booking cancelled: your session on ${when(b)}` : `Session moved: now ${when(b)}`,
    text: paragraphs.join('\n\n'),
    html: renderHtml(
      cancelled ? 'Your booking is cancelled' : 'Your session has been moved',
      paragraphs,
      cancelled ? undefined : { href: manage, text: 'Manage booking' },
    ),
    ics,
  };
}

/**
 * The mail.booking-changed job. A message about a move that a later change (another move, a
 * cancellation) has overtaken is not sent: the later change's own message says where things stand.
 */
export async function sendChangeMail(deps: NotificationDeps, p: ChangePayload): Promise<'sent' | 'skipped'> {
  const b = await getBookingView(deps.db, p.bookingId);
  if (!b) throw new AppError('not_found', API_MESSAGES.bookingNotFound);
  if (b.bookingType === 'ADMIN_BLOCK' || b.calendarSequence !== p.sequence) return 'skipped';
  if ((p.change === 'cancelled') !== b.cancelled) return 'skipped';
  const message = changeMail(b, p, deps.config, deps.now(), await refundStateOf(deps.db, b.id));
  if (!message) {
    deps.logger.warn({ bookingId: b.id, recipient: p.recipient }, 'no e-mail address for the therapist: change not sent');
    return 'skipped';
  }
  await deps.mailer.send(message, `${p.change}-${b.id}-${p.sequence}-${p.recipient}`);
  return 'sent';
}

/**
 * The meetings.update job: the meeting follows the booking as it is now (moved, or cancelled), never
 * re-created, so the link the client has keeps working. A booking without a meeting yet needs nothing:
 * meetings.create reads the booking's time when it runs. A job overtaken by a later change does nothing.
 */
export async function updateMeetingForBooking(
  deps: NotificationDeps,
  bookingId: number,
  sequence: number,
): Promise<'moved' | 'cancelled' | 'unchanged' | 'skipped'> {
  const b = await getBookingView(deps.db, bookingId);
  if (!b) throw new AppError('not_found', API_MESSAGES.bookingNotFound);
  if (b.bookingType !== 'ONLINE' || !b.googleMeetLink || b.calendarSequence !== sequence) return 'skipped';
  return deps.meetings.updateMeeting({ ...meetingOf(b, deps.config), cancelled: b.cancelled });
}

/** A series' sessions still on, as its e-mails list them. */
function liveSessions(views: readonly BookingView[], ids?: readonly number[]): BookingView[] {
  return views.filter((b) => !b.cancelled && b.paymentStatus !== 'FAILED' && b.paymentStatus !== 'CANCELLED' && (!ids || ids.includes(b.id)));
}

/** One line per session: its date and time, and for the client the session's own Manage booking link. */
function seriesLines(sessions: readonly BookingView[], config: Config, withManage: boolean): string {
  return sessions
    .map((b, n) => `${n + 1}. ${when(b)}${withManage ? `\n   Manage booking: ${manageUrlFor(config.publicBaseUrl, config.jwtSecret, b.id)}` : ''}`)
    .join('\n');
}

/** How the series is paid, in the client's words. */
function seriesPaymentLine(settlement: SeriesRow['settlement'], first: BookingView, count: number): string {
  if (settlement === 'PACKAGE') return `Paid from your package: each of the ${count} sessions uses one session of it, and nothing more is due.`;
  const fee = formatPrice(paiseToRupees(first.amountPaise));
  if (settlement === 'PAID_NOW') return `Payment received: ${formatPrice(paiseToRupees(first.amountPaise * count))} for the ${count} sessions (${fee} each).`;
  if (settlement === 'SEND_LINK')
    return `Session fee: ${fee} each. We send you each session's payment link by e-mail a week before it; the video call link follows each payment.`;
  return `The session fee of ${fee} is paid at the centre on the day of each visit (cash, card or UPI).`;
}

/**
 * The series' one confirmation e-mail (issue 34), to the client or the therapist: every session's date
 * and time, and one calendar file with each session as its own event (the UIDs of the sessions' own
 * invitations, so a later change to one session updates that event).
 */
export function seriesConfirmationMail(
  sessions: readonly BookingView[],
  settlement: SeriesRow['settlement'],
  recipient: 'client' | 'therapist',
  config: Config,
  now: Date,
): MailMessage | undefined {
  const first = sessions[0]!;
  const ics = sessionsInvitation(sessions, config, now);
  const count = sessions.length;
  const kind = first.bookingType === 'ONLINE' ? 'online' : 'in-person';
  if (recipient === 'therapist') {
    if (!first.therapistEmail) return undefined;
    const paragraphs = [
      `A series of ${count} ${kind} sessions has been booked with you.`,
      seriesLines(sessions, config, false),
      `Client: ${first.clientFullName}\nE-mail: ${first.clientEmail}\nMobile: ${first.clientMobile}${first.clientNote ? `\nNote: ${first.clientNote}` : ''}`,
      `Series reference: ${first.seriesId}`,
    ];
    return {
      to: first.therapistEmail,
      subject: `New series: ${first.clientFullName}, ${count} sessions from ${when(first)}`,
      text: paragraphs.join('\n\n'),
      html: renderHtml('New series of sessions', paragraphs),
      ics,
    };
  }
  const paragraphs = [
    `Dear ${first.clientFullName},`,
    `Your ${count} sessions with ${therapistOf(first)} are booked:`,
    seriesLines(sessions, config, true),
    first.bookingType === 'ONLINE'
      ? 'Each session is a 60-minute secure video call; its link is in the calendar file attached and on its Manage booking page.'
      : `Each session is 60 minutes in person at ${first.locationName ?? config.centreName}, ${first.locationAddress ?? ''}. Please arrive 10 minutes early.`,
    seriesPaymentLine(settlement, first, count),
    'The attached calendar file holds every session. Each session has its own private Manage booking link above (please do not share them): you may move or cancel a session there within the policy.',
    policy(first, config, now),
    `Series reference: ${first.seriesId}. If you need anything, call ${config.supportPhone} or write to ${config.supportEmail}.`,
    `Warm regards,\n${config.centreName}`,
  ];
  return {
    to: first.clientEmail,
    subject: `Booking confirmed: ${count} sessions from ${when(first)}`,
    text: paragraphs.join('\n\n'),
    html: renderHtml('Your sessions are booked', paragraphs),
    ics,
  };
}

/** The mail.series-confirmation job: the series' sessions still on when it runs; nothing when none are. */
export async function sendSeriesConfirmation(deps: NotificationDeps, seriesId: number, recipient: 'client' | 'therapist'): Promise<'sent' | 'skipped'> {
  const found = await getSeries(deps.db, seriesId);
  if (!found) throw new AppError('not_found', 'Series not found.');
  const sessions = liveSessions(await listSeriesBookingViews(deps.db, seriesId));
  if (sessions.length === 0) return 'skipped';
  const message = seriesConfirmationMail(sessions, found.settlement, recipient, deps.config, deps.now());
  if (!message) {
    deps.logger.warn({ seriesId, recipient }, 'no e-mail address for the therapist: series confirmation not sent');
    return 'skipped';
  }
  await deps.mailer.send(message, `series-confirmation-${seriesId}-${recipient}`);
  return 'sent';
}

/**
 * The mail.series-moved job: staff moved sessions of a series; each side hears once, with every moved
 * session's new time and one calendar file updating their events (same UIDs, SEQUENCE raised). Sessions
 * cancelled since are left out.
 */
export async function sendSeriesMoved(deps: NotificationDeps, p: JobPayload<'mail.series-moved'>): Promise<'sent' | 'skipped'> {
  const sessions = liveSessions(await listSeriesBookingViews(deps.db, p.seriesId), p.bookingIds);
  if (sessions.length === 0) return 'skipped';
  const first = sessions[0]!;
  const ics = sessionsInvitation(sessions, deps.config, deps.now());
  const to = p.recipient === 'client' ? first.clientEmail : first.therapistEmail;
  if (!to) return 'skipped';
  const paragraphs =
    p.recipient === 'client'
      ? [
          `Dear ${first.clientFullName},`,
          `The centre has moved ${sessions.length === 1 ? 'a session' : `${sessions.length} sessions`} of your series with ${therapistOf(first)}. ${sessions.length === 1 ? 'It is' : 'They are'} now:`,
          seriesLines(sessions, deps.config, true),
          'Your payment and your booking carry over unchanged. The attached calendar file updates the sessions in your calendar.',
          `Series reference: ${first.seriesId}. If you need anything, call ${deps.config.supportPhone} or write to ${deps.config.supportEmail}.`,
          `Warm regards,\n${deps.config.centreName}`,
        ]
      : [
          `Sessions of ${first.clientFullName}'s series with you have been moved. They are now:`,
          seriesLines(sessions, deps.config, false),
          `Series reference: ${first.seriesId}`,
        ];
  await deps.mailer.send(
    {
      to,
      subject: `Sessions moved: ${p.recipient === 'client' ? 'your series' : first.clientFullName}, from ${when(first)}`,
      text: paragraphs.join('\n\n'),
      html: renderHtml('Sessions moved', paragraphs),
      ics,
    },
    `series-moved-${p.seriesId}-${p.recipient}`,
  );
  return 'sent';
}

/**
 * The mail.series-cancelled job: staff cancelled sessions of a series together; each side hears once,
 * with every cancelled session's date (the client with what became of each one's money) and one
 * calendar file removing their events (the sessions' UIDs, SEQUENCE raised, METHOD:CANCEL). Sessions
 * of the list not cancelled (a cancel that stopped halfway) are left out.
 */
export async function sendSeriesCancelled(deps: NotificationDeps, p: JobPayload<'mail.series-cancelled'>): Promise<'sent' | 'skipped'> {
  const sessions = (await listSeriesBookingViews(deps.db, p.seriesId)).filter((b) => b.cancelled && p.bookingIds.includes(b.id));
  if (sessions.length === 0) return 'skipped';
  const first = sessions[0]!;
  const to = p.recipient === 'client' ? first.clientEmail : first.therapistEmail;
  if (!to) return 'skipped';
  const ics = cancelledSessionsInvitation(sessions, deps.config, deps.now());
  const count = sessions.length === 1 ? 'a session' : `${sessions.length} sessions`;
  let paragraphs: string[];
  if (p.recipient === 'client') {
    const lines = [];
    for (const [n, b] of sessions.entries()) {
      const money = moneyLines(b, await refundStateOf(deps.db, b.id), p.reason, deps.config);
      lines.push(`${n + 1}. ${when(b)} (booking ${b.id})${money.length ? `\n   ${money.join(' ')}` : ''}`);
    }
    paragraphs = [
      `Dear ${first.clientFullName},`,
      `The centre has cancelled ${count} of your series with ${therapistOf(first)}:`,
      lines.join('\n'),
      'The attached calendar file removes them from your calendar.',
      `Series reference: ${first.seriesId}. If you have any question, call ${deps.config.supportPhone} or write to ${deps.config.supportEmail}.`,
      `Warm regards,\n${deps.config.centreName}`,
    ];
  } else {
    paragraphs = [
      `Sessions of ${first.clientFullName}'s series with you have been cancelled:`,
      seriesLines(sessions, deps.config, false),
      `Series reference: ${first.seriesId}`,
    ];
  }
  await deps.mailer.send(
    {
      to,
      subject: `Sessions cancelled: ${p.recipient === 'client' ? 'your series' : first.clientFullName}, from ${when(first)}`,
      text: paragraphs.join('\n\n'),
      html: renderHtml('Sessions cancelled', paragraphs),
      ics,
    },
    `series-cancelled-${p.seriesId}-${p.recipient}`,
  );
  return 'sent';
}
