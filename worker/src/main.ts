import module from 'node:module';
import { config } from '../../shared/core/config.ts';
import { connectDatabase } from '../../shared/core/db/client.ts';
import { closeQueues, createQueues, withTimeout } from '../../shared/core/jobs/queues.ts';
import { createLogger, exitAfterLogs, exitOnUncaught } from '../../shared/core/logger.ts';
import { createMailer } from '../../shared/core/providers/mail/mail.provider.ts';
import { meetingsFromConfig } from '../../shared/core/providers/meetings/meetings.factory.ts';
import { paymentsFromConfig } from '../../shared/core/providers/payments/payments.factory.ts';
import { startHeartbeat } from './heartbeat.ts';
import { serveWorkerMetrics } from './metrics-server.ts';
import { startWorker } from './worker.ts';

const cfg = config();
const logger = createLogger({ level: cfg.logLevel, name: 'worker' });
exitOnUncaught(logger);
const database = connectDatabase(cfg.databaseUrl, { max: 10, applicationName: 'booking-worker' });
const now = () => new Date();
const queues = createQueues(cfg.redisUrl, cfg.queuePrefix);
const mailer = createMailer(cfg.mail, logger);
const payments = paymentsFromConfig(cfg, database.db, now);

const running = await startWorker(
  { db: database.db, config: cfg, logger, now, payments, meetings: meetingsFromConfig(cfg), mailer, queues, fetch },
  {
    redisUrl: cfg.redisUrl,
    prefix: cfg.queuePrefix,
    concurrency: cfg.worker.concurrency,
    lockDurationMs: cfg.worker.lockDurationMs,
    stalledIntervalMs: cfg.worker.stalledIntervalMs,
    reconcileEveryMinutes: cfg.worker.reconcileEveryMinutes,
    relay: { databaseUrl: cfg.databaseUrl },
  },
);
logger.info({ payments: payments.name, meetings: cfg.meetings.provider, mail: mailer.kind, prefix: cfg.queuePrefix }, 'worker started');
const metricsServer =
  cfg.worker.metricsPort && cfg.metricsToken
    ? await serveWorkerMetrics({ port: cfg.worker.metricsPort, token: cfg.metricsToken, workers: running.workers, logger })
    : undefined;
if (cfg.worker.metricsPort && !cfg.metricsToken) logger.warn('WORKER_METRICS_PORT is set but METRICS_TOKEN is not: no metrics are served');
const heartbeat = cfg.worker.healthFile
  ? startHeartbeat({
      file: cfg.worker.healthFile,
      // Both stores answer within a few seconds: a hung connection is not health.
      checks: () => withTimeout(Promise.all([database.pool.query('select 1'), queues.mail.count()]), 5_000, 'health checks'),
      logger,
    })
  : undefined;
// The next start reads the modules from the compile cache (node-process.ts), even if this one is killed.
module.flushCompileCache();

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: letting running jobs finish');
  heartbeat?.stop();
  metricsServer?.close();
  await running.close();
  await closeQueues(queues);
  mailer.close();
  await database.close();
  logger.info('stopped');
  exitAfterLogs(logger, 0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
