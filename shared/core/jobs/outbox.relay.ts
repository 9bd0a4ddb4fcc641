import { asc, inArray, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { isJobName, jobOptionsOf, queueOf } from './jobs.ts';
import { recordFailedJob } from '../services/job-failure.service.ts';
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

  /**
   * One pass over a batch: one BullMQ addBulk per queue (each atomic in Redis) and one UPDATE per
   * outcome, not a round trip to each of them per row. Rows of a queue Redis refused stay pending.
   */
  async function dispatchBatch(): Promise<{ dispatched: number; more: boolean }> {
    return deps.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(outbox)
        .where(isNull(outbox.dispatchedAt))
        .orderBy(asc(outbox.id))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      const unknown = rows.filter((row) => !isJobName(row.jobName) || queueOf(row.jobName) !== row.queue);
      if (unknown.length > 0) {
        await tx
          .update(outbox)
          .set({ attempts: sql`${outbox.attempts} + 1`, lastError: sql`'unknown job ' || ${outbox.jobName}` })
          .where(
            inArray(
              outbox.id,
              unknown.map((r) => r.id),
            ),
          );
        // No worker can run these until one knows the job: an admin sees each once, not only a log line.
        // In a savepoint: a failure to record them must not hold back the rows that can be sent.
        await tx
          .transaction(async (sp) => {
            for (const row of unknown) {
              const job = { queue: row.queue, jobName: row.jobName, jobId: row.jobId, payload: row.payload, attempts: row.attempts + 1 };
              await recordFailedJob(sp, job, deps.now(), { once: true });
            }
          })
          .catch((err: Error) => deps.logger.warn({ err: err.message, outboxIds: unknown.map((r) => r.id) }, 'outbox: unknown jobs not recorded as failures'));
      }
      const unknownIds = new Set(unknown.map((r) => r.id));
      const byQueue = new Map<keyof Queues, typeof rows>();
      for (const row of rows) {
        if (unknownIds.has(row.id)) continue;
        const queue = row.queue as keyof Queues;
        byQueue.set(queue, [...(byQueue.get(queue) ?? []), row]);
      }
      const now = deps.now().getTime();
      const outcomes = await Promise.all(
        [...byQueue].map(async ([queue, batch]) => {
          const jobs = batch.map((row) => ({
            name: row.jobName,
            data: row.payload,
            opts: { ...jobOptionsOf(row.jobName), jobId: row.jobId, delay: Math.max(0, row.availableAt.getTime() - now) },
          }));
          try {
            await withTimeout(deps.queues[queue].addBulk(jobs), deps.enqueueTimeoutMs ?? 5_000, `enqueue ${batch.length} ${queue} job(s)`);
            return { batch };
          } catch (err) {
            return { batch, error: err as Error };
          }
        }),
      );
      const sent = outcomes.filter((o) => !o.error).flatMap((o) => o.batch.map((r) => r.id));
      if (sent.length > 0) await tx.update(outbox).set({ dispatchedAt: sql`now()`, lastError: null }).where(inArray(outbox.id, sent));
      for (const { batch, error } of outcomes) {
        if (!error) continue;
        await tx
          .update(outbox)
          .set({ attempts: sql`${outbox.attempts} + 1`, lastError: error.message.slice(0, 500) })
          .where(
            inArray(
              outbox.id,
              batch.map((r) => r.id),
            ),
          );
        deps.logger.warn({ err: error.message, outboxIds: batch.map((r) => r.id) }, 'outbox: enqueue failed, will retry');
      }
      // A refused queue ends the drain; the poll tries again.
      return { dispatched: sent.length, more: rows.length === batchSize && outcomes.every((o) => !o.error) };
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
