import { sendChangeMail } from '../../../shared/core/services/notification.service.ts';
import type { JobHandler } from './handler.ts';

/** One job per change and recipient (the change's calendar SEQUENCE in its id), so a retry never sends twice. */
export const changeMailJob: JobHandler<'mail.booking-changed'> = async (p, deps) => ({ result: await sendChangeMail(deps, p) });
