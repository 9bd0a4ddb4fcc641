import { createMeetingForBooking } from '../../../shared/core/services/notification.service.ts';
import type { JobHandler } from './handler.ts';

export const meetingLinkJob: JobHandler<'meetings.create'> = (p, deps) => createMeetingForBooking(deps, p.bookingId, p.seriesId);
