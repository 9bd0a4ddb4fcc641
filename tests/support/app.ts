import { Redis } from 'ioredis';
import type request from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import type { AppDeps } from '../../api/src/deps.ts';
import { parseConfig } from '../../shared/core/config.ts';
import { createJobsClient, type JobsClient } from '../../shared/core/jobs/queues.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { paymentsFromConfig } from '../../shared/core/providers/payments/payments.factory.ts';
import { createLoginThrottle, type LoginThrottle } from '../../shared/core/services/auth.service.ts';
import { ReadCache } from '../../shared/core/services/read-cache.service.ts';
import { checkAnswers } from './contract-check.ts';
import type { TestDatabase } from './db.ts';
import { REDIS_URL, testPrefix } from './redis.ts';

/**
 * Hold limits off: most tests book many holds for one client from one address. The limits have tests
 * of their own (tests/integration/booking-privacy.test.ts) that turn them on.
 */
export const testConfig = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', HOLDS_PER_CLIENT: '0', HOLDS_PER_IP: '0' });

/** A clock fixed at an instant, movable by tests. */
export function fixedClock(iso: string): { now: () => Date; set: (iso: string) => void } {
  let current = new Date(iso);
  return { now: () => new Date(current), set: (next) => (current = new Date(next)) };
}

/**
 * The Redis-backed dependencies every test app of a file shares (one BullMQ client and one Redis
 * connection per file, under a key prefix of the file's own), made on first use and closed after the
 * file's tests by tests/support/integration-setup.ts.
 */
let sharedRedis: { jobs: JobsClient; throttle: LoginThrottle; close(): Promise<void> } | undefined;

function redisDependencies(): NonNullable<typeof sharedRedis> {
  if (sharedRedis) return sharedRedis;
  const prefix = testPrefix();
  const jobs = createJobsClient(REDIS_URL, prefix);
  // The offline queue on (unlike server.ts): a sign-in straight after the app is built waits for the connection.
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  // Counted in Redis as in production, but never slowing or refusing: most tests sign in and fail
  // sign-ins from one address far more often than a person could. admin-auth.test.ts gives its apps
  // throttles with the real limits.
  const throttle = createLoginThrottle(
    redis,
    { queuePrefix: prefix },
    { maxFailuresPerAccountAddress: 1_000_000, maxFailuresPerAddress: 1_000_000, delayStepMs: 0 },
  );
  sharedRedis = {
    jobs,
    throttle,
    async close() {
      redis.disconnect();
      await jobs.close();
    },
  };
  return sharedRedis;
}

/** Closes what the file's test apps shared (tests/support/integration-setup.ts, after the file's tests). */
export async function closeTestDependencies(): Promise<void> {
  const open = sharedRedis;
  sharedRedis = undefined;
  await open?.close();
}

/**
 * The API with its production dependencies, real ones: the sandbox payments provider the
 * configuration names (in process, over the test database), a real BullMQ jobs client and a login
 * throttle in Redis under the file's own prefix, and a ReadCache. The ReadCache is not started, so it
 * passes every read through as production's does while its LISTEN connection is down: a test that
 * writes rows straight to the database and reads them through the API must not race the notification.
 * Tests of the cache (read-cache.test.ts, compression.test.ts) start their own and pass it in.
 */
export function testApp(database: TestDatabase, overrides: Partial<AppDeps> = {}) {
  const config = overrides.config ?? testConfig;
  const now = overrides.now ?? (() => new Date());
  const logger = createLogger({ level: 'silent' });
  const lazy = (): Pick<AppDeps, 'jobs' | 'loginThrottle'> => {
    if (overrides.jobs && overrides.loginThrottle) return { jobs: overrides.jobs, loginThrottle: overrides.loginThrottle };
    const { jobs, throttle } = redisDependencies();
    return { jobs: overrides.jobs ?? jobs, loginThrottle: overrides.loginThrottle ?? throttle };
  };
  // Every answer is checked against the contract (the OpenAPI document's schemas): contract-check.ts.
  return checkAnswers(
    buildApp({
      config,
      db: database.db,
      redis: { ping: async () => 'PONG' },
      logger,
      now,
      readCache: overrides.readCache ?? new ReadCache(database.url, logger),
      payments: overrides.payments ?? paymentsFromConfig(config, database.db, now),
      ...lazy(),
      ...overrides,
    }),
  );
}

/** A supertest parser that keeps a binary answer (an .xlsx) as one Buffer. */
export const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  const stream = res as unknown as NodeJS.ReadableStream;
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => cb(null, Buffer.concat(chunks)));
};
