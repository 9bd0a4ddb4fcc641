import { sendSeriesCancelled, sendSeriesConfirmation, sendSeriesMoved } from '../../../shared/core/services/notification.service.ts';
import type { JobHandler } from './handler.ts';

/** One job per recipient, as a booking's confirmation: a retry never re-sends what already went out. */
export const seriesConfirmationMailJob: JobHandler<'mail.series-confirmation'> = async (p, deps) => ({
  result: await sendSeriesConfirmation(deps, p.seriesId, p.recipient),
});

export const seriesMovedMailJob: JobHandler<'mail.series-moved'> = async (p, deps) => ({ result: await sendSeriesMoved(deps, p) });

export const seriesCancelledMailJob: JobHandler<'mail.series-cancelled'> = async (p, deps) => ({ result: await sendSeriesCancelled(deps, p) });
