import { Router } from 'express';
import { databaseReady } from '../../../shared/core/services/public-catalogue.service.ts';
import type { AppDeps } from '../deps.ts';
import { RETRY_AFTER_SECONDS } from '../middleware/errors.ts';

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/readyz', async (_req, res) => {
    const checks: Record<string, string> = {};
    await Promise.all([
      withTimeout(databaseReady(deps.db), 2000).then(
        () => (checks.postgres = 'ok'),
        (e: Error) => (checks.postgres = e.message),
      ),
      withTimeout(deps.redis.ping(), 2000).then(
        () => (checks.redis = 'ok'),
        (e: Error) => (checks.redis = e.message),
      ),
    ]);
    const ok = Object.values(checks).every((v) => v === 'ok');
    // The same hint as every other 503: a load balancer or monitor may look again in a minute.
    if (!ok) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready', checks });
  });
  return r;
}
