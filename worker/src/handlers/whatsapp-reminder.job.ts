import { sendWhatsAppReminder } from '../../../shared/core/services/whatsapp.service.ts';
import type { JobHandler } from './handler.ts';

/**
 * The WhatsApp reminder. Its last attempt (attemptsMade counts the failed ones before this) falls back
 * to the e-mail reminder rather than failing for good: the client still hears of the session.
 */
export const whatsappReminderJob: JobHandler<'whatsapp.reminder'> = async (p, deps, job) => ({
  result: await sendWhatsAppReminder(deps, p, { last: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) }),
});
