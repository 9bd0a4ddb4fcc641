/**
 * The rules of the client's own Manage booking (issue 21), pure and browser-safe: what the client may
 * change, until when, and the policy in words. Instants are compared as instants (a session's start is
 * its wall-clock time at the centre, through shared/domain/time.ts), so the server's TZ never matters.
 */
import { formatLongDate, formatTimeIst, pad2, centreNow } from './time.ts';

/** Why a change is not offered now (shared/contract/manage.ts re-exports these for the page). */
export const MANAGE_CLOSED_REASONS = ['NOTICE_WINDOW', 'RESCHEDULE_LIMIT', 'CANCELLED', 'PAST', 'NOT_CONFIRMED'] as const;
export type ManageClosedReason = (typeof MANAGE_CLOSED_REASONS)[number];

export type ManagedBookingState = {
  bookingType: 'ONLINE' | 'OFFLINE' | 'ADMIN_BLOCK';
  paymentStatus: string;
  cancelled: boolean;
  rescheduleCount: number;
  /** The session's start instant. */
  startsAt: Date;
};

export type ManagePolicy = { noticeHours: number; maxReschedules: number };

/** CHANGE_NOTICE_HOURS and MAX_RESCHEDULES when unset: the API's configuration and the site's build read the same. */
export const DEFAULT_MANAGE_POLICY: ManagePolicy = { noticeHours: 24, maxReschedules: 2 };

/**
 * "Book the same time next week" (issue 34) books again with the details the wizard asked the client:
 * a desk's booking made without their age or session type (a series, a manual booking) cannot be
 * repeated so, and is not offered (the page, the e-mail) nor accepted (POST …/book-again), unless it
 * was paid by a package's credit: then it is booked again from the package.
 */
export function canBookAgain<T extends { bookingType: string; clientAge: number | null; sessionType: string | null }>(
  b: T,
): b is T & { bookingType: Exclude<T['bookingType'], 'ADMIN_BLOCK'>; clientAge: number; sessionType: NonNullable<T['sessionType']> } {
  return b.bookingType !== 'ADMIN_BLOCK' && b.clientAge !== null && b.sessionType !== null;
}

/** A booking the client was told is confirmed, and still on: paid online, or in person (paid at the visit or by link). */
export function isConfirmedBooking(b: Pick<ManagedBookingState, 'bookingType' | 'paymentStatus' | 'cancelled'>): boolean {
  if (b.cancelled) return false;
  if (b.bookingType === 'ONLINE') return b.paymentStatus === 'COMPLETED';
  return b.bookingType === 'OFFLINE' && (b.paymentStatus === 'PENDING' || b.paymentStatus === 'COMPLETED');
}

/** The last instant a client may change the session themselves: its start less the notice. */
export function changesCloseAt(startsAt: Date, noticeHours: number): Date {
  return new Date(startsAt.getTime() - noticeHours * 3600_000);
}

/** The earliest start that leaves the notice from `now`: a session may be moved to it, and no sooner. */
export function earliestWithNotice(now: Date, noticeHours: number): Date {
  return new Date(now.getTime() + noticeHours * 3600_000);
}

/** Whether `now` leaves at least the notice before the start: exactly the notice is enough, a minute less is not. */
export function hasNotice(startsAt: Date, now: Date, noticeHours: number): boolean {
  return startsAt.getTime() >= earliestWithNotice(now, noticeHours).getTime();
}

export type ManageOptions = {
  canReschedule: boolean;
  canCancel: boolean;
  /** Why a change is not offered (the first reason that applies); null when both are. */
  closedReason: ManageClosedReason | null;
  reschedulesLeft: number;
};

/** What the client may do now, and why not. */
export function manageOptions(b: ManagedBookingState, now: Date, policy: ManagePolicy): ManageOptions {
  const reschedulesLeft = Math.max(0, policy.maxReschedules - b.rescheduleCount);
  const closed = (reason: ManageClosedReason): ManageOptions => ({ canReschedule: false, canCancel: false, closedReason: reason, reschedulesLeft });
  if (b.cancelled) return closed('CANCELLED');
  if (now.getTime() >= b.startsAt.getTime()) return closed('PAST');
  if (!isConfirmedBooking(b)) return closed('NOT_CONFIRMED');
  if (!hasNotice(b.startsAt, now, policy.noticeHours)) return closed('NOTICE_WINDOW');
  if (reschedulesLeft === 0) return { canReschedule: false, canCancel: true, closedReason: 'RESCHEDULE_LIMIT', reschedulesLeft };
  return { canReschedule: true, canCancel: true, closedReason: null, reschedulesLeft };
}

export type Support = { phone: string; email: string };

export function hoursWord(n: number): string {
  return `${n} ${n === 1 ? 'hour' : 'hours'}`;
}

export function timesWord(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

/** An instant as the client reads it at the centre: 'Sunday, November 29, 2026 at 10:00 AM IST'. */
export function formatCentreInstant(at: Date): string {
  const c = centreNow(at);
  return `${formatLongDate(c.date)} at ${formatTimeIst(`${pad2(Math.floor(c.minutes / 60))}:${pad2(c.minutes % 60)}`)}`;
}

/** Why a change was refused, in words for the client, with whom to contact. */
export function manageRefusal(reason: ManageClosedReason, policy: ManagePolicy, support: Support, startsAt: Date): string {
  const contact = `Please call ${support.phone} or write to ${support.email}.`;
  switch (reason) {
    case 'NOTICE_WINDOW':
      return `Your session starts in less than ${hoursWord(policy.noticeHours)} (${formatCentreInstant(startsAt)}), so it can no longer be moved or cancelled online. Changes can be made online until ${hoursWord(policy.noticeHours)} before the session; after that the cancellation policy applies and 100% of the session fee is charged. ${contact}`;
    case 'RESCHEDULE_LIMIT':
      return policy.maxReschedules === 0
        ? `Sessions cannot be moved online. ${contact}`
        : `This session has already been moved ${timesWord(policy.maxReschedules)}, the most allowed online. You can still cancel it here, or to move it again: ${contact}`;
    case 'CANCELLED':
      return `This booking has been cancelled. ${contact}`;
    case 'PAST':
      return `This session has already started, so it can no longer be changed. ${contact}`;
    case 'NOT_CONFIRMED':
      return `This booking is not confirmed, so it cannot be changed here. ${contact}`;
  }
}

/** Whether the session starts within the notice (changes close at its start less the notice): the terms charge the full fee. */
export function withinNotice(startsAt: Date, now: Date, noticeHours: number): boolean {
  return !hasNotice(startsAt, now, noticeHours);
}

/**
 * The Manage booking page's "Book the same time next week" section (issue 34): the confirmation
 * e-mail's link ends with `#` and this, and the page opens at the section.
 */
export const BOOK_AGAIN_ANCHOR = 'book-again';
