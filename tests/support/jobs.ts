import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import { SMTPServer } from 'smtp-server';
import { parseConfig, type Config } from '../../shared/core/config.ts';
import { createJobsClient, type JobsClient } from '../../shared/core/jobs/queues.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { createMailer, type Mailer } from '../../shared/core/providers/mail/mail.provider.ts';
import { jitsiProvider } from '../../shared/core/providers/meetings/jitsi.provider.ts';
import type { PaymentsProvider } from '../../shared/core/providers/payments/payments.provider.ts';
import { sandboxProvider, type SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { createLinkForBooking, type PaymentDeps } from '../../shared/core/services/payment.service.ts';
import { startWorker, type RunningWorker } from '../../worker/src/worker.ts';
import type { TestDatabase } from './db.ts';

import { REDIS_URL } from './redis.ts';

export { REDIS_URL, testPrefix } from './redis.ts';

export function configFor(env: Record<string, string | undefined>): Config {
  return parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', REDIS_URL, HOLDS_PER_CLIENT: '0', HOLDS_PER_IP: '0', ...env });
}

/** Polls until `check` answers something truthy; fails with `what` after `ms`. */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export type TestWorker = RunningWorker & { jobs: JobsClient; stop(): Promise<void> };

export async function startTestWorker(opts: {
  database: TestDatabase;
  config: Config;
  now: () => Date;
  payments: PaymentsProvider;
  mailer?: Mailer;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** How often the worker checks that Redis still holds its data. */
  redisCheckMs?: number;
}): Promise<TestWorker> {
  const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const jobs = createJobsClient(opts.config.redisUrl, opts.config.queuePrefix);
  const mailer = opts.mailer ?? createMailer(opts.config.mail, logger);
  const running = await startWorker(
    {
      db: opts.database.db,
      config: opts.config,
      logger,
      now: opts.now,
      payments: opts.payments,
      meetings: jitsiProvider({ domain: 'meet.jit.si' }),
      mailer,
      queues: jobs.queues,
      fetch,
    },
    {
      redisUrl: opts.config.redisUrl,
      prefix: opts.config.queuePrefix,
      concurrency: 5,
      lockDurationMs: opts.lockDurationMs ?? 30_000,
      stalledIntervalMs: opts.stalledIntervalMs ?? 30_000,
      reconcileEveryMinutes: 60,
      relay: { databaseUrl: opts.database.url, pollMs: 100 },
      ...(opts.redisCheckMs ? { redisCheckMs: opts.redisCheckMs } : {}),
    },
  );
  return {
    ...running,
    jobs,
    async stop() {
      await running.close();
      mailer.close();
      await jobs.close();
    },
  };
}

/** Removes every key under a test prefix. */
export async function dropQueues(jobs: JobsClient): Promise<void> {
  await Promise.allSettled(Object.values(jobs.queues).map((q) => q.obliterate({ force: true })));
}

/**
 * "Redis restarted empty", for this prefix only: deletes every key under it (the queues, the
 * schedulers, the worker's marker). Redis is shared with other test runs: never FLUSHALL.
 */
export async function deletePrefixKeys(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

export type ReceivedMail = { from: string; to: string[]; raw: string };

/**
 * A real SMTP server on a free port. While `stall` is set, each message's DATA is left unanswered
 * (the sender is stuck mid-job) and a function accepting it later is put in `held`.
 */
export async function startSmtpServer(): Promise<{
  url: string;
  messages: ReceivedMail[];
  dataStarted: number;
  stall: boolean;
  held: (() => void)[];
  close(): Promise<void>;
}> {
  const state = {
    url: '',
    messages: [] as ReceivedMail[],
    dataStarted: 0,
    stall: false,
    held: [] as (() => void)[],
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      state.dataStarted++;
      const stalled = state.stall;
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const accept = () => {
          state.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        };
        if (stalled) state.held.push(accept);
        else accept();
      });
    },
  });
  // A sender killed mid-message resets its connection; that is the scenario, not a failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = (server as unknown as { server: Server }).server.address() as AddressInfo;
  state.url = `smtp://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** An HTTP server on a free port whose handler is set once the app (which needs its own URL) exists. */
export async function startHttp(): Promise<{ url: string; server: Server; use(app: Express): void; close(): Promise<void> }> {
  let handler: Express | undefined;
  const server = createServer((req, res) => (handler ? handler(req, res) : res.writeHead(503).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    use: (app) => (handler = app),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The sandbox provider with the payment deps of a test app, and a JobsClient that runs the
 * payments.create-link job in this process instead of through Redis: for tests about who may have a
 * link and what the money does, not about the queue (payments-flow.test.ts runs the real worker).
 */
export function inProcessPayments(database: TestDatabase, config: Config, now: () => Date): { payments: SandboxPayments; deps: PaymentDeps; jobs: JobsClient } {
  const payments = sandboxProvider({ db: database.db, secret: (config.payments as { secret: string }).secret, publicBaseUrl: config.publicBaseUrl, now });
  const deps: PaymentDeps = { db: database.db, payments, config, logger: createLogger({ level: 'silent' }), now };
  const jobs = {
    queues: {} as JobsClient['queues'],
    runAndWait: (async (_name: string, payload: { bookingId: number }) => createLinkForBooking(deps, payload.bookingId)) as JobsClient['runAndWait'],
    close: async () => {},
  } satisfies JobsClient;
  return { payments, deps, jobs };
}
