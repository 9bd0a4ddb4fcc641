import { createServer, type Server } from 'node:http';
import type { Worker } from 'bullmq';
import { Counter } from 'prom-client';
import type { Logger } from '../../shared/core/logger.ts';
import { metricsTokenMatches, processMetrics } from '../../shared/core/services/metrics.service.ts';

/**
 * The worker's own GET /metrics on WORKER_METRICS_PORT (issue 32), with the same bearer token as the
 * API's: Node's process metrics and `worker_jobs_total{queue,job,outcome}`, the jobs this process ran
 * (completed, failed and retried, failed for good). What the database and queues hold is the API's to say.
 */
export async function serveWorkerMetrics(opts: { port: number; host?: string; token: string; workers: Worker[]; logger: Logger }): Promise<Server> {
  const registry = processMetrics('worker');
  const jobs = new Counter({
    name: 'worker_jobs_total',
    help: 'Jobs this worker ran, by queue, job name and outcome',
    labelNames: ['queue', 'job', 'outcome'] as const,
    registers: [registry],
  });
  for (const w of opts.workers) {
    w.on('completed', (job) => jobs.inc({ queue: w.name, job: job.name, outcome: 'completed' }));
    w.on('failed', (job) => jobs.inc({ queue: w.name, job: job?.name ?? 'unknown', outcome: 'failed' }));
  }
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') return void res.writeHead(404).end();
    if (!metricsTokenMatches(req.headers.authorization, opts.token)) return void res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"' }).end();
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  server.on('error', (err) => opts.logger.warn({ err: err.message }, 'worker metrics: server problem'));
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? '0.0.0.0', resolve));
  return server;
}
