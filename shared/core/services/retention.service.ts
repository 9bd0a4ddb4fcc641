import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { REDISPATCH_WINDOW_MS } from '../jobs/outbox.ts';
import { deleteCompletedOutbox, deleteWebhookEvents, deleteWhatsappStatusEvents } from '../repositories/retention.repository.ts';

/** Rows one delete statement removes at most: short statements, short locks, however much piled up. */
export const RETENTION_BATCH = 5_000;

const DAY_MS = 24 * 3600_000;

/**
 * A finished outbox row is kept at least this long whatever RETENTION_DAYS says. Its (queue, job id)
 * is what makes a job written twice one job: after Redis loses its data, a job due within
 * REDISPATCH_WINDOW_MS is run again (a meeting-link job that had not been marked done writes its
 * e-mails' intents again), and the e-mails' rows must still be there to say they were sent. A day
 * beyond the window covers the time between a row being finished and being pruned.
 */
export const OUTBOX_MIN_RETENTION_MS = REDISPATCH_WINDOW_MS + DAY_MS;

export type RetentionDeps = { db: Db; now: () => Date; config: Pick<Config, 'retentionDays'> };

export type Pruned = {
  /** Rows older than this were deleted (outbox rows: finished before `outboxBefore`). */
  before: string;
  outboxBefore: string;
  outbox: number;
  webhookEvents: number;
  whatsappStatusEvents: number;
};

/** Runs one batch statement until a batch comes back short; answers the rows deleted in all. */
async function inBatches(deleteBatch: () => Promise<number>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteBatch();
    total += n;
    if (n < batch) return total;
  }
}

/**
 * Deletes what is past RETENTION_DAYS: outbox rows whose job finished that long ago (a row whose job
 * is pending, in Redis, or failed for good is kept however old: it is work not done), payment webhook
 * deliveries and WhatsApp delivery statuses received that long ago. Those event rows only recognise
 * a delivery repeated while the provider still retries (Razorpay: 24 hours); a repeat after that is
 * still harmless, because what a delivery does is guarded by the booking's state and the ledger's
 * unique provider ids. Running it again, or in two workers at once, deletes nothing more.
 */
export async function pruneExpired(deps: RetentionDeps, batch: number = RETENTION_BATCH): Promise<Pruned> {
  const now = deps.now().getTime();
  const before = new Date(now - deps.config.retentionDays * DAY_MS);
  const outboxBefore = new Date(Math.min(before.getTime(), now - OUTBOX_MIN_RETENTION_MS));
  const outbox = await inBatches(() => deleteCompletedOutbox(deps.db, outboxBefore, batch), batch);
  const webhookEvents = await inBatches(() => deleteWebhookEvents(deps.db, before, batch), batch);
  const whatsappStatusEvents = await inBatches(() => deleteWhatsappStatusEvents(deps.db, before, batch), batch);
  return { before: before.toISOString(), outboxBefore: outboxBefore.toISOString(), outbox, webhookEvents, whatsappStatusEvents };
}
