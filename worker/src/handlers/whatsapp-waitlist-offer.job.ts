import { sendWhatsAppWaitlistOffer } from '../../../shared/core/services/whatsapp.service.ts';
import type { JobHandler } from './handler.ts';

/** A waitlist offer on WhatsApp; its last attempt settles on the offer's e-mail (which went anyway) rather than failing. */
export const whatsappWaitlistOfferJob: JobHandler<'whatsapp.waitlist-offer'> = async (p, deps, job) => ({
  result: await sendWhatsAppWaitlistOffer(deps, p, { last: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) }),
});
