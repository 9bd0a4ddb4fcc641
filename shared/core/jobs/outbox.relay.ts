import { asc, eq, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { isJobName, queueOf } from './jobs.ts';
import { withTimeout, type Queues } from './queues.ts';

export type OutboxRelay = {
  /** Moves every pending intent to BullMQ; answers how many were dispatched. Throws nothing. */
  drainOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
};

type RelayDeps = {
  db: Db;
  queues: Queues;
  logger: Logger;
  now: () => Date;
  /** When given, LISTEN on it for 'outbox' notifications so dispatch does not wait for the next poll. */
  databaseUrl?: string;
  pollMs?: number;
  batchSize?: number;
  /** How long one enqueue may wait for Redis before the row is left for the next pass. */
  enqueueTimeoutMs?: number;
};

/**
 * The relay from the outbox table to BullMQ. Rows are locked with FOR UPDATE SKIP LOCKED, so any
 * number of relays can run; a row is marked dispatched only after BullMQ accepted the job, and the
 * BullMQ job id is the row's job_id, so a row dispatched twice (crash between add and commit) is
 * still one job.
 */
export function createOutboxRelay(deps: RelayDeps): OutboxRelay {
  const pollMs = deps.pollMs ?? 1_000;
  const batchSize = deps.batchSize ?? 100;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = true;
  let listener: pg.Client | undefined;

  async function dispatchBatch(): Promise<{ dispatched: number; more: boolean }> {
    return deps.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(outbox)
        .where(isNull(outbox.dispatchedAt))
        .orderBy(asc(outbox.id))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      let dispatched = 0;
      for (const row of rows) {
        if (!isJobName(row.jobName) || queueOf(row.jobName) !== row.queue) {
          await tx.update(outbox).set({ attempts: sql`${outbox.attempts} + 1`, lastError: `unknown job ${row.jobName}` }).where(eq(outbox.id, row.id));
          continue;
        }
        try {
          const delay = Math.max(0, row.availableAt.getTime() - deps.now().getTime());
          await withTimeout(
            deps.queues[row.queue as keyof Queues].add(row.jobName, row.payload, { jobId: row.jobId, delay }),
            deps.enqueueTimeoutMs ?? 5_000,
            `enqueue ${row.jobName}`,
          );
        } catch (err) {
          await tx
            .update(outbox)
            .set({ attempts: sql`${outbox.attempts} + 1`, lastError: (err as Error).message.slice(0, 500) })
            .where(eq(outbox.id, row.id));
          deps.logger.warn({ err: (err as Error).message, outboxId: row.id, job: row.jobName }, 'outbox: enqueue failed, will retry');
          return { dispatched, more: false };
        }
        await tx.update(outbox).set({ dispatchedAt: sql`now()`, lastError: null }).where(eq(outbox.id, row.id));
        dispatched++;
      }
      return { dispatched, more: rows.length === batchSize };
    });
  }

  async function drain(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const { dispatched, more } = await dispatchBatch();
        total += dispatched;
        if (!more) break;
      }
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message }, 'outbox: relay pass failed');
    }
    return total;
  }

  function drainOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = drain().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        void drainOnce();
      }
    });
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(async () => {
      await drainOnce();
      schedule();
    }, pollMs);
  }

  async function listen(url: string): Promise<void> {
    const client = new pg.Client({ connectionString: url, application_name: 'booking-outbox-listen' });
    client.on('error', () => {});
    client.on('notification', () => void drainOnce());
    try {
      await client.connect();
      await client.query('listen outbox');
      listener = client;
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message }, 'outbox: LISTEN unavailable, polling only');
      await client.end().catch(() => {});
    }
  }

  return {
    drainOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      if (deps.databaseUrl) void listen(deps.databaseUrl);
      void drainOnce();
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await listener?.end().catch(() => {});
      listener = undefined;
      await running;
    },
  };
}
