import { Queue, QueueEvents, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { DEFAULT_JOB_OPTIONS, QUEUE_NAMES, queueOf, type JobName, type JobPayload, type QueueName } from './jobs.ts';

/** Worker connections wait for Redis to come back (BullMQ requires maxRetriesPerRequest: null). */
export function workerConnection(url: string): ConnectionOptions {
  return { url, maxRetriesPerRequest: null };
}

export type Queues = Record<QueueName, Queue>;

/** Connections this module opened itself, so they can be dropped even while Redis is away. */
const ownedConnections = new WeakMap<object, Redis[]>();

export function quietRedis(url: string, blocking: boolean): Redis {
  // Producers fail fast while Redis is away (no offline queue); blocking readers wait for it.
  const redis = blocking
    ? new Redis(url, { maxRetriesPerRequest: null })
    : new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 });
  redis.on('error', () => {});
  return redis;
}

/**
 * BullMQ waits for Redis to come back rather than failing; callers that must answer (the relay, an
 * HTTP request) give up after `ms`. A job added late is harmless: job ids make the re-try a no-op.
 */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: Redis did not answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function createQueues(redisUrl: string, prefix: string): Queues {
  const connection = quietRedis(redisUrl, false);
  const queues = {} as Queues;
  ownedConnections.set(queues, [connection]);
  for (const name of QUEUE_NAMES) {
    const q = new Queue(name, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
    // A lost connection is reported by the callers that fail; the queue itself must not crash the process.
    q.on('error', () => {});
    queues[name] = q;
  }
  return queues;
}

/** close() waits for Redis; against a Redis that is gone, the connections are dropped instead. */
async function closeAll(items: (Queue | QueueEvents)[], connections: Redis[]): Promise<void> {
  const closing = Promise.allSettled(items.map((q) => q.close()));
  await withTimeout(closing, 2_000, 'close').catch(() => {});
  for (const c of connections) c.disconnect();
}

export async function closeQueues(queues: Queues): Promise<void> {
  await closeAll(Object.values(queues), ownedConnections.get(queues) ?? []);
}

export function addJob<N extends JobName>(queues: Queues, name: N, payload: JobPayload<N>, opts: JobsOptions & { jobId: string }) {
  return queues[queueOf(name)].add(name, payload, opts);
}

/** A job that did not finish within the wait its caller gave it (it may still finish later). */
export class JobWaitTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what}: no result within ${ms} ms`);
    this.name = 'JobWaitTimeout';
  }
}

/** What the API needs from BullMQ: the queues, and a way to wait for one job's result. */
export type JobsClient = {
  queues: Queues;
  /**
   * Adds the job (a no-op if that job id exists), retries it if it had failed for good, and waits for its
   * result: JobWaitTimeout when the wait ends first, the job's own failure or Redis's otherwise.
   */
  runAndWait<N extends JobName, R>(name: N, payload: JobPayload<N>, jobId: string, timeoutMs: number): Promise<R>;
  close(): Promise<void>;
};

export function createJobsClient(redisUrl: string, prefix: string): JobsClient {
  const queues = createQueues(redisUrl, prefix);
  const events = new Map<QueueName, QueueEvents>();
  const eventConnections: Redis[] = [];
  const eventsFor = async (name: QueueName) => {
    let e = events.get(name);
    if (!e) {
      const connection = quietRedis(redisUrl, true);
      eventConnections.push(connection);
      e = new QueueEvents(name, { connection, prefix });
      e.on('error', () => {});
      events.set(name, e);
      await e.waitUntilReady();
    }
    return e;
  };
  return {
    queues,
    async runAndWait(name, payload, jobId, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const queueName = queueOf(name);
      const queue = queues[queueName];
      const { job, queueEvents } = await withTimeout(
        (async () => {
          const queueEvents = await eventsFor(queueName);
          let job = await queue.add(name, payload, { jobId });
          if ((await queue.getJobState(jobId)) === 'failed') {
            job = (await queue.getJob(jobId)) ?? job;
            await job.retry('failed');
          }
          return { job, queueEvents };
        })(),
        timeoutMs,
        `enqueue ${name}`,
      );
      try {
        return await job.waitUntilFinished(queueEvents, Math.max(1, deadline - Date.now()));
      } catch (err) {
        // BullMQ says a wait ran out only in words; the deadline says it without reading them.
        if (Date.now() >= deadline) throw new JobWaitTimeout(`job ${name}`, timeoutMs);
        throw err;
      }
    },
    async close() {
      await closeAll([...events.values()], eventConnections);
      await closeQueues(queues);
    },
  };
}
