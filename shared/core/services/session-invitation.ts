/**
 * The session's calendar invitation, built in one place (issue 31): the e-mails attach it and
 * GET /api/manage/{token}/session.ics answers it, so a client who both opens the e-mail and presses
 * "Add to calendar" holds one event, and a later change (the same UID, SEQUENCE raised, or
 * METHOD:CANCEL) moves or removes that one event wherever it came from.
 */
import { SESSION_MINUTES, sessionEnd } from '../../domain/session.ts';
import { displayName } from '../../domain/therapist.ts';
import { sessionStart } from '../../domain/time.ts';
import type { Config } from '../config.ts';
import { buildCalendar, buildIcs, type IcsEvent } from '../providers/mail/ics.ts';
import type { BookingView } from '../repositories/booking.repository.ts';

/** What a client coming to the centre is asked, in the e-mails and the invitation alike. */
export const ARRIVE_EARLY = 'Please arrive 10 minutes early.';

/** The downloaded file's name: therapy-session-{booking id}.ics. */
export function sessionIcsFilename(bookingId: number): string {
  return `therapy-session-${bookingId}.ics`;
}

/**
 * One UID per booking for its whole life; SEQUENCE the booking's calendar_sequence (each change the
 * client is sent raises it), unless a message names its own. A cancelled session is METHOD:CANCEL.
 */
export function sessionInvitation(b: BookingView, config: Config, now: Date, opts: { sequence?: number; method?: 'REQUEST' | 'CANCEL' } = {}): string {
  return buildIcs(sessionEvent(b, config, now, opts));
}

/**
 * Several sessions in one calendar file (a series' e-mails, issue 34): each session the same event,
 * under the same UID and SEQUENCE, as its own invitation and its Manage page's "Add to calendar" give.
 */
export function sessionsInvitation(sessions: readonly BookingView[], config: Config, now: Date): string {
  return buildCalendar(
    sessions.map((b) => sessionEvent(b, config, now)),
    'REQUEST',
  );
}

/**
 * Cancelled sessions in one calendar file (a series' cancellation e-mail): each the session's own event,
 * SEQUENCE raised past the last it was sent, METHOD:CANCEL, so calendars remove it.
 */
export function cancelledSessionsInvitation(sessions: readonly BookingView[], config: Config, now: Date): string {
  return buildCalendar(
    sessions.map((b) => sessionEvent(b, config, now, { sequence: b.calendarSequence + 1, method: 'CANCEL' })),
    'CANCEL',
  );
}

/** The session as one calendar event. */
function sessionEvent(b: BookingView, config: Config, now: Date, opts: { sequence?: number; method?: 'REQUEST' | 'CANCEL' } = {}): IcsEvent {
  const start = sessionStart(b);
  const host = new URL(config.publicBaseUrl).hostname;
  const therapist = displayName(b.therapistName);
  return {
    uid: `booking-${b.id}@${host}`,
    sequence: opts.sequence ?? b.calendarSequence,
    method: opts.method ?? (b.cancelled ? 'CANCEL' : 'REQUEST'),
    start,
    end: sessionEnd(start),
    stamp: now,
    summary: `Therapy session: ${b.clientFullName} with ${therapist}`,
    description: `${config.centreName}, ${SESSION_MINUTES}-minute ${b.bookingType === 'ONLINE' ? 'online' : 'in-person'} session (booking ${b.id}).${b.bookingType === 'OFFLINE' ? ` ${ARRIVE_EARLY}` : ''}`,
    location: b.bookingType === 'ONLINE' ? (b.googleMeetLink ?? 'Online') : `${b.locationName ?? ''}, ${b.locationAddress ?? ''}`,
    ...(b.bookingType === 'ONLINE' && b.googleMeetLink ? { url: b.googleMeetLink } : {}),
    organizer: { name: config.centreName, email: config.supportEmail },
    attendees: [{ name: b.clientFullName, email: b.clientEmail }, ...(b.therapistEmail ? [{ name: therapist, email: b.therapistEmail }] : [])],
  };
}
