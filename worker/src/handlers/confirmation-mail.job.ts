import { sendConfirmation } from '../../../shared/core/services/notification.service.ts';
import type { JobHandler } from './handler.ts';

/** One job per recipient, so a retry never re-sends a message that already went out. */
export const confirmationMailJob: JobHandler<'mail.booking-confirmation'> = async (p, deps) => ({
  result: await sendConfirmation(deps, p.bookingId, p.recipient),
});
