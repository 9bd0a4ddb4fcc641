import type { Redis } from 'ioredis';
import { redispatchUnfinished } from '../../shared/core/jobs/outbox.ts';
import { withTimeout } from '../../shared/core/jobs/queues.ts';
import type { WorkerDeps } from './handlers/handler.ts';

/** How often the worker checks that Redis still holds its data. Well inside the minute allowed for recovery. */
export const REDIS_CHECK_MS = 15_000;

/**
 * A key under the queue prefix saying "this Redis holds the queues' data". Redis without persistence
 * restarts empty, and then this key is gone with the jobs and the schedulers. It is 'ok' once a
 * recovery finished, 'pending' while one runs (or when a worker died running it).
 */
export const redisMarkerKey = (prefix: string) => `${prefix}:worker:redis-data`;

export type RedisRecovery = {
  /** One check; recovers when the marker says Redis lost its data. Answers whether it recovered. Throws nothing. */
  checkOnce(): Promise<boolean>;
  start(): void;
  stop(): Promise<void>;
};

type RecoveryDeps = Pick<WorkerDeps, 'db' | 'logger' | 'now'> & {
  /** A connection that fails fast while Redis is away (queues.ts quietRedis, not blocking). */
  redis: Redis;
  prefix: string;
  checkMs?: number;
  /**
   * What Redis lost and PostgreSQL knows: the schedulers, the outbox intents not finished (the relay
   * re-adds them under their own job ids), the hold expiry. Each step is idempotent.
   */
  recover(): Promise<void>;
};

/**
 * Watches for Redis losing its data and puts back what PostgreSQL knows should be there, without a
 * restart. Any number of workers may watch the same Redis: a worker that finds the marker missing or
 * 'pending' recovers, and the steps are idempotent (same job ids, upserted schedulers), so two doing
 * it together make one of each. The marker goes back to 'ok' only after a recovery finished (SET XX,
 * so a second loss during the recovery is noticed at the next check), and a worker killed halfway
 * leaves 'pending' for the others to finish. Also runs at start: Redis may have restarted empty while
 * no worker ran.
 */
export function watchRedisData(deps: RecoveryDeps): RedisRecovery {
  const key = redisMarkerKey(deps.prefix);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<boolean> | undefined;
  let stopped = true;

  let first = true;
  async function check(): Promise<boolean> {
    try {
      // While Redis is away this fails at once (no offline queue): nothing to recover then.
      const redis = deps.redis;
      const marker = await withTimeout(redis.get(key), 5_000, 'redis data check');
      const wasFirst = first;
      first = false;
      if (marker === 'ok') return false;
      // NX: a worker that finds the key missing claims it; 'pending' already there means another is at it, or died at it.
      if (marker === null) await withTimeout(redis.set(key, 'pending', 'NX'), 5_000, 'redis data marker');
      // At start a missing marker is most often a Redis this worker has not used before: no alarm then.
      if (wasFirst) deps.logger.info({ marker }, 'redis: no data marker yet; putting back schedulers, unfinished jobs and the hold expiry');
      else deps.logger.warn({ marker }, 'redis: its data is gone; putting back schedulers, unfinished jobs and the hold expiry');
      await deps.recover();
      const done = await withTimeout(redis.set(key, 'ok', 'XX'), 5_000, 'redis data marker');
      if (done === null) deps.logger.warn('redis: lost its data again during the recovery; recovering again at the next check');
      else deps.logger.info('redis: recovered from PostgreSQL');
      return true;
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message }, 'redis: data check or recovery failed; trying again at the next check');
      return false;
    }
  }

  function checkOnce(): Promise<boolean> {
    running ??= check().finally(() => (running = undefined));
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(async () => {
      await checkOnce();
      schedule();
    }, deps.checkMs ?? REDIS_CHECK_MS);
  }

  return {
    checkOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** The recovery steps that live in the database. */
export async function redispatchFromOutbox(deps: Pick<WorkerDeps, 'db' | 'logger' | 'now'>): Promise<number> {
  const count = await redispatchUnfinished(deps.db, deps.now());
  deps.logger.info({ count }, 'outbox: unfinished jobs handed to the relay again');
  return count;
}
