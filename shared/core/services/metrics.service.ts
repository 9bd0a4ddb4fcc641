/**
 * Metrics for whoever runs the centre's servers (issue 32), in the Prometheus text format through
 * prom-client. Each process has its own registry with Node's default process metrics.
 *
 * The API's registry also says what the database and the queues hold, read at each scrape, so the
 * numbers are exact whichever process did the work and survive restarts:
 * - `bookings_created_total{type}`: rows of bookings (never deleted), by type;
 * - `payments_recorded_total{method}` / `refunds_recorded_total{method}`: rows of the append-only ledger;
 * - `job_failures_open`: jobs that failed for good and nobody has resolved;
 * - `queue_jobs{queue,state}`: BullMQ's counts.
 * And every request it answers, in `http_request_duration_seconds{method,route,status_class}`, the route
 * as its template (`/api/admin/bookings/:id/cancel`), never the path a caller typed.
 */
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client.ts';
import type { Queues } from '../jobs/queues.ts';
import { countsForMetrics } from '../repositories/metrics.repository.ts';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed', 'completed'] as const;

export type Metrics = {
  registry: Registry;
  /** One answered request: its method, route template, status and how long it took. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
};

/** A process's registry with Node's default metrics, prefixed by nothing (their usual names). */
export function processMetrics(process: 'api' | 'worker'): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ process });
  collectDefaultMetrics({ register: registry });
  return registry;
}

export function apiMetrics(deps: { db: Db; queues: Queues }): Metrics {
  const registry = processMetrics('api');
  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Requests the API answered, by method, route template and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // One scrape reads the counts once for the four metrics that need them.
  let counts: Promise<Awaited<ReturnType<typeof countsForMetrics>>> | undefined;
  const countsOnce = () => {
    counts ??= countsForMetrics(deps.db).finally(() => setImmediate(() => (counts = undefined)));
    return counts;
  };
  new Counter({
    name: 'bookings_created_total',
    help: 'Bookings ever created, by type (ONLINE, OFFLINE, ADMIN_BLOCK)',
    labelNames: ['type'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { type, n } of (await countsOnce()).bookings) this.inc({ type }, n);
    },
  });
  new Counter({
    name: 'payments_recorded_total',
    help: 'Payments recorded in the ledger, by method',
    labelNames: ['method'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { kind, method, n } of (await countsOnce()).ledger) if (kind === 'capture') this.inc({ method }, n);
    },
  });
  new Counter({
    name: 'refunds_recorded_total',
    help: 'Refunds recorded in the ledger, by method',
    labelNames: ['method'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { kind, method, n } of (await countsOnce()).ledger) if (kind === 'refund') this.inc({ method }, n);
    },
  });
  new Gauge({
    name: 'job_failures_open',
    help: 'Jobs that failed for good and are not resolved',
    registers: [registry],
    async collect() {
      this.set((await countsOnce()).openJobFailures);
    },
  });
  new Gauge({
    name: 'queue_jobs',
    help: 'Jobs in each queue, by state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      await Promise.all(
        Object.entries(deps.queues).map(async ([queue, q]) => {
          const byState = await q.getJobCounts(...QUEUE_STATES);
          for (const state of QUEUE_STATES) this.set({ queue, state }, byState[state] ?? 0);
        }),
      );
    },
  });
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      http.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
    },
  };
}

/** Whether a request may read the metrics: `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. */
export function metricsTokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
