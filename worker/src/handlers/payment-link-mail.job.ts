import { sendPaymentLinkMail } from '../../../shared/core/services/notification.service.ts';
import type { JobHandler } from './handler.ts';

/** One sending of a booking's payment link, by e-mail. */
export const paymentLinkMailJob: JobHandler<'mail.payment-link'> = async (p, deps) => ({ result: await sendPaymentLinkMail(deps, p.bookingId) });
