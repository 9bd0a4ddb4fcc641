import { sendWhatsAppPaymentLink } from '../../../shared/core/services/whatsapp.service.ts';
import type { JobHandler } from './handler.ts';

/** One sending of a booking's payment link on WhatsApp; its last attempt settles on the sending's e-mail rather than failing. */
export const whatsappPaymentLinkJob: JobHandler<'whatsapp.payment-link'> = async (p, deps, job) => ({
  result: await sendWhatsAppPaymentLink(deps, p, { last: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) }),
});
