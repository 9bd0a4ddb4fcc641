import { sendMoneyUpdate } from '../../../shared/core/services/notification.service.ts';
import type { JobHandler } from './handler.ts';

/** What became of a booking's money, after a cancel or a stray payment's refund. */
export const moneyMailJob: JobHandler<'mail.booking-money'> = async (p, deps) => ({ result: await sendMoneyUpdate(deps, p.bookingId, p.reason) });
