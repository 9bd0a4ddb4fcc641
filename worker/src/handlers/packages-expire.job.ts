import { expirePackages } from '../../../shared/core/services/package-expiry.service.ts';
import type { JobHandler } from './handler.ts';

/** Scheduled daily at 00:45 Asia/Kolkata: credits past their package's last day expire; reminders a week before. */
export const packagesExpireJob: JobHandler<'packages.expire'> = async (_p, deps) => expirePackages(deps);
