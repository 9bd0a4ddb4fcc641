/**
 * The rules of packages of sessions (issue 34), pure and browser-safe: a sale's last day, what it
 * covers, what a refund of its unused sessions returns, and the money it holds for sessions not yet
 * given. Money is integer paise.
 */
import { addDays } from './time.ts';

/** The last day a sale's credits may be used: `validityDays` days counted from the day of sale, that day the first. */
export function lastDayOf(soldOn: string, validityDays: number): string {
  return addDays(soldOn, validityDays - 1);
}

/** Whether a package covers a session: its therapist and format, where the package names any (none named covers all). */
export function packageCovers(
  p: { therapistIds: readonly number[]; sessionTypes: readonly string[] },
  s: { therapistId: number; bookingType: string },
): boolean {
  return (p.therapistIds.length === 0 || p.therapistIds.includes(s.therapistId)) && (p.sessionTypes.length === 0 || p.sessionTypes.includes(s.bookingType));
}

/** One session's share of a sale's price, times `sessions`, rounded down to the paisa (the centre never over-refunds). */
export function sessionsValue(pricePaise: number, sessionsTotal: number, sessions: number): number {
  return Math.floor((pricePaise * sessions) / sessionsTotal);
}

/**
 * Money received for sessions not yet given: the value of the credits left, never more than the sale's
 * money still held (what was captured less what was refunded).
 */
export function deferredPaise(s: { pricePaise: number; sessionsTotal: number; left: number; netPaise: number }): number {
  return Math.max(0, Math.min(s.netPaise, sessionsValue(s.pricePaise, s.sessionsTotal, Math.max(0, s.left))));
}
