/**
 * Whether the client came to a session (issue 20): any admin marks it ATTENDED or NO_SHOW, and may
 * correct it. Pure and browser-safe, so the panel offers the buttons exactly when the server takes them.
 */
import { isLiveBooking } from './slot-states.ts';
import { timeToMinutes } from './time.ts';

export type Attendance = 'ATTENDED' | 'NO_SHOW';

export const ATTENDANCE_WORDS: Record<Attendance, string> = { ATTENDED: 'Attended', NO_SHOW: 'No-show' };

type Session = { bookingType: string; cancelled: boolean; paymentStatus: string; bookingDate: string; start: string };

/** A session that went ahead on the books: not a block, not cancelled or released, not an unpaid online hold. */
export function isHeldSession(b: Omit<Session, 'bookingDate' | 'start'>): boolean {
  return b.bookingType !== 'ADMIN_BLOCK' && isLiveBooking(b.cancelled, b.paymentStatus) && b.paymentStatus !== 'INITIATED';
}

/** Whether the session has started by now at the centre (`today`: the centre's date and minutes). */
export function hasStarted(b: Pick<Session, 'bookingDate' | 'start'>, today: { date: string; minutes: number }): boolean {
  const date = b.bookingDate.slice(0, 10);
  return date < today.date || (date === today.date && timeToMinutes(b.start.slice(0, 5)) <= today.minutes);
}

/** Attendance can be marked: a held session that has started. */
export function attendanceOpen(b: Session, today: { date: string; minutes: number }): boolean {
  return isHeldSession(b) && hasStarted(b, today);
}

/**
 * A session marked attended took place: it is not cancelled afterwards. One rule for the panel
 * (no Cancel on it) and the server (a cancel is refused, 409).
 */
export function isAttended(b: { attendance?: Attendance | null | undefined }): boolean {
  return b.attendance === 'ATTENDED';
}
