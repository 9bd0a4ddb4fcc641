import { pruneExpired } from '../../../shared/core/services/retention.service.ts';
import type { JobHandler } from './handler.ts';

/** Scheduled daily at 03:15 Asia/Kolkata: rows past RETENTION_DAYS are deleted (counts only in the log). */
export const retentionJob: JobHandler<'reports.retention'> = async (_p, deps) => {
  const pruned = await pruneExpired(deps);
  deps.logger.info(pruned, 'retention: old rows deleted');
  return pruned;
};
