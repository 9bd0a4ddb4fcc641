/**
 * A session's length and the times that follow from it (spec section 9), in one place for the slot
 * grids, the schedules, the e-mails, the calendar invitations, the meetings and the site. Browser-safe
 * and pure.
 */
import { pad2, timeToMinutes } from './time.ts';

/** Every session lasts an hour. */
export const SESSION_MINUTES = 60;

/** When a session that starts at `start` ends. */
export function sessionEnd(start: Date): Date {
  return new Date(start.getTime() + SESSION_MINUTES * 60_000);
}

/** The centre's wall-clock end of a session that starts at `start` ('HH:MM' or 'HH:MM:SS'), as 'HH:MM'. */
export function sessionEndTime(start: string): string {
  const m = timeToMinutes(start) + SESSION_MINUTES;
  return `${pad2(Math.floor(m / 60) % 24)}:${pad2(m % 60)}`;
}

/** The client is reminded of a session this many hours before it starts. */
export const REMINDER_HOURS_BEFORE = 24;

/** When the reminder of a session that starts at `start` is due. */
export function reminderAt(start: Date): Date {
  return new Date(start.getTime() - REMINDER_HOURS_BEFORE * 3600_000);
}

/** The service a booking is for when its request names none: the centre's one therapy session. */
export const DEFAULT_SERVICE_ID = 1;
