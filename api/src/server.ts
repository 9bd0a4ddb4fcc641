import { once } from 'node:events';
import module from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { config } from '../../shared/core/config.ts';
import { connectDatabase } from '../../shared/core/db/client.ts';
import { createJobsClient } from '../../shared/core/jobs/queues.ts';
import { createLogger, exitAfterLogs, exitOnUncaught } from '../../shared/core/logger.ts';
import { ReadCache } from '../../shared/core/services/read-cache.service.ts';
import { createLoginThrottle } from '../../shared/core/services/auth.service.ts';
import { paymentsFromConfig } from '../../shared/core/providers/payments/payments.factory.ts';
import { buildApp } from './app.ts';

const cfg = config();
const logger = createLogger({ level: cfg.logLevel, name: 'api' });
exitOnUncaught(logger);
const database = connectDatabase(cfg.databaseUrl, { max: 20, applicationName: 'booking-api' });
const redis = new Redis(cfg.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection problem'));
void redis.connect().catch(() => {});

const now = () => new Date();
const readCache = new ReadCache(cfg.databaseUrl, logger);
await readCache.start();
const jobs = createJobsClient(cfg.redisUrl, cfg.queuePrefix);
const payments = paymentsFromConfig(cfg, database.db, now);
const siteDir = fileURLToPath(new URL('../../site/dist', import.meta.url));
const app = buildApp({
  config: cfg,
  db: database.db,
  redis,
  logger,
  now,
  siteDir,
  readCache,
  jobs,
  payments,
  loginThrottle: createLoginThrottle(redis, cfg),
});
const server = app.listen(cfg.port, cfg.host);
await once(server, 'listening');
const { port } = server.address() as AddressInfo;
logger.info({ port, payments: payments.name }, `API listening on ${cfg.publicBaseUrl}`);
// Every module is loaded: the next start reads them from the compile cache (node-process.ts), even if
// this one is killed rather than stopped.
module.flushCompileCache();

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: finishing in-flight requests');
  // Stop accepting, let in-flight requests finish, close idle keep-alive sockets.
  server.close();
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  force.unref();
  await once(server, 'close').catch(() => {});
  await Promise.allSettled([database.close(), redis.quit(), readCache.stop(), jobs.close()]);
  logger.info('stopped');
  exitAfterLogs(logger, 0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
