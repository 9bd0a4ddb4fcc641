import { sendStaffInvitation } from '../../../shared/core/services/notification.service.ts';
import type { JobHandler } from './handler.ts';

/** A staff account's set-password link. */
export const staffInvitationMailJob: JobHandler<'mail.staff-invitation'> = async (p, deps) => ({
  result: await sendStaffInvitation(deps, p.invitationId, p.kind),
});
