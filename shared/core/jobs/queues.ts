import { Queue, QueueEvents, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { DEFAULT_JOB_OPTIONS, QUEUE_NAMES, queueOf, type JobName, type JobPayload, type QueueName } from './jobs.ts';

/** Producer connections fail fast while Redis is away, so callers (the relay, the API) can tell. */
export function producerConnection(url: string): ConnectionOptions {
  return { url, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 };
}

/** Worker connections wait for Redis to come back (BullMQ requires maxRetriesPerRequest: null). */
export function workerConnection(url: string): ConnectionOptions {
  return { url, maxRetriesPerRequest: null };
}

export type Queues = Record<QueueName, Queue>;

export function createQueues(redisUrl: string, prefix: string): Queues {
  const connection = producerConnection(redisUrl);
  const queues = {} as Queues;
  for (const name of QUEUE_NAMES) {
    const q = new Queue(name, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
    // A lost connection is reported by the callers that fail; the queue itself must not crash the process.
    q.on('error', () => {});
    queues[name] = q;
  }
  return queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.allSettled(Object.values(queues).map((q) => q.close()));
}

export function addJob<N extends JobName>(queues: Queues, name: N, payload: JobPayload<N>, opts: JobsOptions & { jobId: string }) {
  return queues[queueOf(name)].add(name, payload, opts);
}

/** What the API needs from BullMQ: the queues, and a way to wait for one job's result. */
export type JobsClient = {
  queues: Queues;
  /** Adds the job (a no-op if that job id exists), retries it if it had failed for good, and waits for its result. */
  runAndWait<N extends JobName, R>(name: N, payload: JobPayload<N>, jobId: string, timeoutMs: number): Promise<R>;
  close(): Promise<void>;
};

export function createJobsClient(redisUrl: string, prefix: string): JobsClient {
  const queues = createQueues(redisUrl, prefix);
  const events = new Map<QueueName, QueueEvents>();
  const eventsFor = async (name: QueueName) => {
    let e = events.get(name);
    if (!e) {
      e = new QueueEvents(name, { connection: workerConnection(redisUrl), prefix });
      e.on('error', () => {});
      events.set(name, e);
      await e.waitUntilReady();
    }
    return e;
  };
  return {
    queues,
    async runAndWait(name, payload, jobId, timeoutMs) {
      const queueName = queueOf(name);
      const queueEvents = await eventsFor(queueName);
      const queue = queues[queueName];
      let job = await queue.add(name, payload, { jobId });
      if ((await queue.getJobState(jobId)) === 'failed') {
        job = (await queue.getJob(jobId)) ?? job;
        await job.retry('failed');
      }
      return job.waitUntilFinished(queueEvents, timeoutMs);
    },
    async close() {
      await Promise.allSettled([...events.values()].map((e) => e.close()));
      await closeQueues(queues);
    },
  };
}
