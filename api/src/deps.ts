import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Config } from '../../shared/core/config.ts';
import type { Db } from '../../shared/core/db/client.ts';
import type { JobsClient } from '../../shared/core/jobs/queues.ts';
import type { Logger } from '../../shared/core/logger.ts';
import type { PaymentsProvider } from '../../shared/core/providers/payments/payments.provider.ts';
import type { LoginThrottle } from '../../shared/core/services/auth.service.ts';
import type { Actor } from '../../shared/core/services/booking.service.ts';
import type { ReadCache } from '../../shared/core/services/read-cache.service.ts';
import type { Metrics } from '../../shared/core/services/metrics.service.ts';
import type { WholeListGate } from './http/whole-list-gate.ts';

/**
 * What the API is built from. Its own module, so routes and middleware can name it without importing
 * the app that imports them.
 */
export type AppDeps = {
  config: Config;
  db: Db;
  redis: Pick<Redis, 'ping'>;
  logger: Logger;
  /** The clock; tests pin it. */
  now: () => Date;
  /**
   * Cache of the public read calls, invalidated by PostgreSQL notifications. Until it is listening
   * (started, and its LISTEN connection up) it passes every read through uncached.
   */
  readCache: ReadCache;
  /**
   * Astro's build output, served after the API routes. Optional: server.ts always gives it, but an API
   * without a site (the tests, or a deployment whose own web server serves the pages) is whole without it.
   */
  siteDir?: string;
  /** Resolves an admin bearer token to an actor; defaults to the JWT bearer check of middleware/auth.ts. */
  authenticateAdmin?: (req: IncomingMessage) => Promise<Actor | undefined>;
  /** Failed sign-in counters in Redis, shared by every API process. */
  loginThrottle: LoginThrottle;
  /** BullMQ producers; POST /api/payment/generate-link waits on its job through them, and Bull Board shows their queues. */
  jobs: JobsClient;
  /** The payments provider (razorpay or sandbox). */
  payments: PaymentsProvider;
  /** Guards Bull Board at /admin/queues; defaults to super admins by bearer token or scoped cookie. */
  queuesGuard?: RequestHandler;
  /** Where the shipped (demo) therapist and location photos are read; defaults to api/images. Uploads are in PostgreSQL. */
  imagesDir?: string;
  /** The API's metrics (GET /metrics); made from db and jobs when METRICS_TOKEN is set and none is given. */
  metrics?: Metrics;
  /** How many whole income lists may stream at once, and how long a stalled reader is waited for (api/src/http/whole-list-gate.ts). */
  wholeListGate?: WholeListGate;
};
