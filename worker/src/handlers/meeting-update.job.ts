import { updateMeetingForBooking } from '../../../shared/core/services/notification.service.ts';
import type { JobHandler } from './handler.ts';

/** The client moved or cancelled an online session: its meeting follows, keeping its link. */
export const meetingUpdateJob: JobHandler<'meetings.update'> = async (p, deps) => ({ result: await updateMeetingForBooking(deps, p.bookingId, p.sequence) });
