import { and, asc, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { isJobName, jobOptionsOf, queueOf } from './jobs.ts';
import { recordFailedJob } from './job-failures.ts';
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
  /** How long a relay holds the rows it took; longer than an enqueue may wait, so a live relay never loses them. */
  claimMs?: number;
};

/**
 * The relay from the outbox table to BullMQ. Rows are claimed for a while (claimed_until, taken with
 * FOR UPDATE SKIP LOCKED), so any number of relays can run; a row is marked dispatched only after
 * BullMQ accepted the job, and the BullMQ job id is the row's job_id, so a row dispatched twice
 * (a crash between the add and the record) is still one job.
 */
export function createOutboxRelay(deps: RelayDeps): OutboxRelay {
  const pollMs = deps.pollMs ?? 1_000;
  const batchSize = deps.batchSize ?? 100;
  const claimMs = deps.claimMs ?? Math.max(30_000, 3 * (deps.enqueueTimeoutMs ?? 5_000));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = true;
  let listener: pg.Client | undefined;

  /**
   * Takes up to a batch of pending rows for this relay until `claimMs` from now, in one statement of
   * its own: no transaction stays open while Redis answers (issue 32), so a PostgreSQL restart or a
   * slow Redis can hold neither a connection nor row locks. Rows another relay holds are skipped.
   */
  async function claimBatch() {
    return deps.db
      .update(outbox)
      .set({ claimedUntil: sql`now() + make_interval(secs => ${claimMs / 1000})` })
      .where(
        inArray(
          outbox.id,
          deps.db
            .select({ id: outbox.id })
            .from(outbox)
            .where(and(isNull(outbox.dispatchedAt), or(isNull(outbox.claimedUntil), lt(outbox.claimedUntil, sql`now()`))))
            .orderBy(asc(outbox.id))
            .limit(batchSize)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning();
  }

  /** A failed hand-over: counted, its error kept, and the claim let go so the next pass tries again. */
  async function recordFailure(ids: number[], error: SQL): Promise<void> {
    await deps.db
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} + 1`, lastError: error, claimedUntil: null })
      .where(inArray(outbox.id, ids));
  }

  /**
   * One pass over a batch: claimed, then one BullMQ addBulk per queue (each atomic in Redis), then one
   * UPDATE per outcome, not a round trip to each of them per row. Rows of a queue Redis refused stay
   * pending. A relay that dies between the add and the record leaves its rows claimed until the claim
   * passes; added again then, they are the same jobs (the BullMQ job id is the row's job_id).
   */
  async function dispatchBatch(): Promise<{ dispatched: number; more: boolean }> {
    const rows = (await claimBatch()).sort((a, b) => a.id - b.id);
    const unknown = rows.filter((row) => !isJobName(row.jobName) || queueOf(row.jobName) !== row.queue);
    if (unknown.length > 0) {
      await recordFailure(
        unknown.map((r) => r.id),
        sql`'unknown job ' || ${outbox.jobName}`,
      );
      // No worker can run these until one knows the job: an admin sees each once, not only a log line.
      // A failure to record them must not hold back the rows that can be sent.
      await deps.db
        .transaction(async (tx) => {
          for (const row of unknown) {
            const job = { queue: row.queue, jobName: row.jobName, jobId: row.jobId, payload: row.payload, attempts: row.attempts + 1 };
            await recordFailedJob(tx, job, deps.now(), { once: true });
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
    if (sent.length > 0) await deps.db.update(outbox).set({ dispatchedAt: sql`now()`, lastError: null, claimedUntil: null }).where(inArray(outbox.id, sent));
    for (const { batch, error } of outcomes) {
      if (!error) continue;
      await recordFailure(
        batch.map((r) => r.id),
        sql`${error.message.slice(0, 500)}`,
      );
      deps.logger.warn({ err: error.message, outboxIds: batch.map((r) => r.id) }, 'outbox: enqueue failed, will retry');
    }
    // A refused queue ends the drain; the poll tries again.
    return { dispatched: sent.length, more: rows.length === batchSize && outcomes.every((o) => !o.error) };
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

  /** LISTEN for new rows; a lost connection (PostgreSQL restarting) is made again, the poll covering the gap. */
  async function listen(url: string): Promise<void> {
    if (stopped) return;
    const client = new pg.Client({ connectionString: url, application_name: 'booking-outbox-listen' });
    let lost = false;
    const reconnect = () => {
      if (lost) return;
      lost = true;
      if (listener === client) listener = undefined;
      void client.end().catch(() => {});
      if (!stopped) setTimeout(() => void listen(url), Math.max(pollMs, 1_000)).unref();
    };
    client.on('error', reconnect);
    client.on('end', reconnect);
    client.on('notification', () => void drainOnce());
    try {
      await client.connect();
      await client.query('listen outbox');
      if (stopped) return void client.end().catch(() => {});
      listener = client;
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message }, 'outbox: LISTEN unavailable, polling until it is back');
      reconnect();
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
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
      await running;
    },
  };
}
