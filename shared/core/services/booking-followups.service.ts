import { reminderAt } from '../../domain/session.ts';
import { sessionStart } from '../../domain/time.ts';
import { bookingJobIds, jobIds } from '../jobs/jobs.ts';
import { bookingJob as template, intent, intentFor, type BookingJobTemplate, type JobIntent } from '../jobs/outbox.ts';

/**
 * The booking policy of follow-up jobs: which jobs a booking needs when it is confirmed or changed.
 * The outbox (jobs/outbox.ts) only writes what this decides.
 */

type ConfirmedBooking = {
  id: number;
  bookingType: 'ONLINE' | 'OFFLINE' | 'ADMIN_BLOCK';
  bookingDate: string;
  bookingTimeSlotStart: string;
  googleMeetLink: string | null;
};

type Session = Pick<ConfirmedBooking, 'bookingDate' | 'bookingTimeSlotStart'>;

/**
 * The reminder of a session, due REMINDER_HOURS_BEFORE it starts (domain/session.ts; none when the
 * session is nearer than that). Its id and payload carry the session's start: a session moved later
 * gets a reminder of its own, and the reminder job skips a booking whose start is no longer the one it
 * was scheduled for.
 */
function reminderTemplates(b: Session, now: Date): BookingJobTemplate[] {
  const start = sessionStart(b);
  const remindAt = reminderAt(start);
  if (remindAt.getTime() <= now.getTime()) return [];
  return [template('mail.booking-reminder', bookingJobIds.reminderMail(start), { sessionStartsAt: start.toISOString() }, remindAt)];
}

function mailTemplates(b: Session, now: Date): BookingJobTemplate[] {
  return [
    template('mail.booking-confirmation', bookingJobIds.confirmationMail('client'), { recipient: 'client' }),
    template('mail.booking-confirmation', bookingJobIds.confirmationMail('therapist'), { recipient: 'therapist' }),
    ...reminderTemplates(b, now),
  ];
}

/**
 * What a confirmed booking (paid online, offline PENDING, or admin-confirmed) needs next, before it
 * has an id. Online sessions get their meeting link first; that job then writes the e-mails, which
 * carry the link. An admin block needs nothing.
 */
export function followupsForConfirmedBooking(b: Omit<ConfirmedBooking, 'id'>, now: Date): BookingJobTemplate[] {
  if (b.bookingType === 'ADMIN_BLOCK') return [];
  if (b.bookingType === 'ONLINE' && !b.googleMeetLink) return [template('meetings.create', bookingJobIds.meeting(), {})];
  return mailTemplates(b, now);
}

/** The same for a booking with its id: the admin-booking and payment paths enqueue these in their own transaction. */
export function intentsForConfirmedBooking(b: ConfirmedBooking, now: Date): JobIntent[] {
  return followupsForConfirmedBooking(b, now).map((t) => intentFor(t, b.id));
}

/** The 24-hour reminder alone (see reminderTemplates). */
function reminderIntents(b: Pick<ConfirmedBooking, 'id' | 'bookingDate' | 'bookingTimeSlotStart'>, now: Date): JobIntent[] {
  return reminderTemplates(b, now).map((t) => intentFor(t, b.id));
}

/** The confirmation e-mails and the 24-hour reminder (skipped when the session is less than 24 hours away). */
export function mailIntents(b: Pick<ConfirmedBooking, 'id' | 'bookingDate' | 'bookingTimeSlotStart'>, now: Date): JobIntent[] {
  return mailTemplates(b, now).map((t) => intentFor(t, b.id));
}

/**
 * What a change the client made themselves needs (issue 21): the client and the therapist each get an
 * e-mail with the calendar update (SEQUENCE `sequence`), the meeting follows the session, and a moved
 * session gets its new reminder (the old one skips itself). `from` is where a moved session was.
 */
export function intentsForClientChange(
  b: Pick<ConfirmedBooking, 'id' | 'bookingType' | 'bookingDate' | 'bookingTimeSlotStart'>,
  change: 'moved' | 'cancelled',
  sequence: number,
  now: Date,
  from?: { date: string; time: string },
): JobIntent[] {
  const mail = (recipient: 'client' | 'therapist') =>
    intent('mail.booking-changed', jobIds.changeMail(b.id, sequence, recipient), { bookingId: b.id, recipient, change, sequence, ...(from ? { from } : {}) });
  return [
    mail('client'),
    mail('therapist'),
    ...(b.bookingType === 'ONLINE' ? [intent('meetings.update', jobIds.meetingUpdate(b.id, sequence), { bookingId: b.id, sequence })] : []),
    ...(change === 'moved' ? reminderIntents(b, now) : []),
  ];
}

/**
 * What a session of a series needs when the series is booked or paid for at once (issue 34). The series
 * has one confirmation e-mail (seriesConfirmationIntents), so a session gets none of its own: an online
 * session its meeting (whose job sends the series' e-mail once the last link is made, then its
 * reminder), any other its 24-hour reminder.
 */
export function intentsForSeriesSession(b: Omit<ConfirmedBooking, 'id'> & { id: number; seriesId: number }, now: Date): JobIntent[] {
  if (b.bookingType === 'ONLINE' && !b.googleMeetLink) return [intent('meetings.create', jobIds.meeting(b.id), { bookingId: b.id, seriesId: b.seriesId })];
  return reminderIntents(b, now);
}

/** The series' one confirmation e-mail, to the client and to the therapist. */
export function seriesConfirmationIntents(seriesId: number): JobIntent[] {
  return (['client', 'therapist'] as const).map((recipient) =>
    intent('mail.series-confirmation', jobIds.seriesConfirmationMail(seriesId, recipient), { seriesId, recipient }),
  );
}

/**
 * The series' one cancellation e-mail for sessions staff cancelled together ("this and following"), to
 * the client and to the therapist, in place of each session's own (applyAdminCancel). Its job id is the
 * cancel's (its first session is cancelled once), so a cancel finished by the reconciliation asks for
 * the same e-mail and it goes once.
 */
export function seriesCancellationIntents(seriesId: number, bookingIds: readonly number[], reason?: string | null): JobIntent[] {
  return (['client', 'therapist'] as const).map((recipient) =>
    intent('mail.series-cancelled', jobIds.seriesCancelledMail(seriesId, bookingIds[0]!, recipient), {
      seriesId,
      recipient,
      bookingIds: [...bookingIds],
      ...(reason ? { reason } : {}),
    }),
  );
}

/**
 * What staff moving sessions of a series needs: one e-mail to each side listing the moved sessions with
 * their calendar updates, each online meeting moved with its session, and each session's new reminder.
 */
export function intentsForSeriesMove(
  seriesId: number,
  moved: readonly (Pick<ConfirmedBooking, 'id' | 'bookingType' | 'bookingDate' | 'bookingTimeSlotStart'> & { calendarSequence: number })[],
  now: Date,
): JobIntent[] {
  const bookingIds = moved.map((b) => b.id);
  return [
    ...(['client', 'therapist'] as const).map((recipient) =>
      intent('mail.series-moved', jobIds.seriesMovedMail(seriesId, now, recipient), { seriesId, recipient, bookingIds }),
    ),
    ...moved.flatMap((b) => [
      ...(b.bookingType === 'ONLINE'
        ? [intent('meetings.update', jobIds.meetingUpdate(b.id, b.calendarSequence), { bookingId: b.id, sequence: b.calendarSequence })]
        : []),
      ...reminderIntents(b, now),
    ]),
  ];
}
