import { sendReminder } from '../../../shared/core/services/notification.service.ts';
import type { JobHandler } from './handler.ts';

export const reminderMailJob: JobHandler<'mail.booking-reminder'> = async (p, deps) => ({ result: await sendReminder(deps, p.bookingId, p.sessionStartsAt) });
