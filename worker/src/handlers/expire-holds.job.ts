import { expireEndedHolds } from '../../../shared/core/services/payment.service.ts';
import { armHoldExpiry } from '../hold-expiry.ts';
import type { JobHandler } from './handler.ts';

/** Runs when the earliest running hold ends: paid bookings complete, the rest free their slot; then waits for the next. */
export const expireHoldsJob: JobHandler<'payments.expire-holds'> = async (p, deps) => {
  // A job promoted a moment before its instant (clocks of Redis and this host) would find the hold still running.
  if (Date.parse(p.endsAt) > deps.now().getTime()) throw new Error(`hold expiry for ${p.endsAt} ran early; retrying`);
  const outcomes = await expireEndedHolds(deps);
  return { outcomes, next: (await armHoldExpiry(deps))?.toISOString() ?? null };
};
