import { Router } from 'express';
import { API_MESSAGES } from '../../../shared/contract/messages.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { type Metrics, metricsTokenMatches } from '../../../shared/core/services/metrics.service.ts';
import type { AppDeps } from '../deps.ts';

/**
 * GET /metrics for Prometheus: with METRICS_TOKEN unset there is nothing here (404, and no metrics are
 * gathered at all); set, only a scraper that sends it as its bearer token is answered.
 */
export function metricsRoutes(deps: AppDeps, metrics: Metrics | undefined): Router {
  const r = Router();
  r.get('/metrics', async (req, res) => {
    const token = deps.config.metricsToken;
    if (!token || !metrics) throw new AppError('not_found', API_MESSAGES.notFound);
    if (!metricsTokenMatches(req.get('authorization'), token)) {
      res.set('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthorized', 'The metrics need the deployment’s metrics token.');
    }
    res
      .set('Cache-Control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });
  return r;
}
