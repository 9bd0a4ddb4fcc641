import { aggregatePreviousDay } from '../../../shared/core/services/report.service.ts';
import type { JobHandler } from './handler.ts';

/** Scheduled at 00:30 Asia/Kolkata: the day that just ended becomes report rows (idempotent upsert). */
export const nightlyReportsJob: JobHandler<'reports.nightly'> = async (_p, deps) => {
  const { date, totals } = await aggregatePreviousDay(deps.db, deps.now());
  deps.logger.info({ date, totals }, 'nightly report aggregated');
  return { date };
};
