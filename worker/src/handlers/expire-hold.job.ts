import { reconcileBooking } from '../../../shared/core/services/payment.service.ts';
import type { JobHandler } from './handler.ts';

/** Runs when an unpaid online booking's hold ends: paid bookings complete, the rest free their slot. */
export const expireHoldJob: JobHandler<'payments.expire-hold'> = async (p, deps) => ({ outcome: await reconcileBooking(deps, p.bookingId) });
