import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * One batch of each table's rows past retention, deleted in one statement and answered as a count.
 * The rows are picked by ctid (`ctid = any(array(select … limit n))` is a TID scan: the delete visits
 * exactly the rows the inner select found), so a statement touches at most `limit` rows and holds its
 * locks briefly; the caller repeats until a batch comes back short. The outer statement states the
 * condition again: a row is deleted only if it still qualifies when the delete reaches it.
 */

/** Outbox rows whose job finished before `before`. A row not finished (pending, handed to Redis, failed) is never touched. */
export async function deleteCompletedOutbox(db: Db, before: Date, limit: number): Promise<number> {
  const res = await db.execute(sql`
    delete from outbox
    where ctid = any(array(
        select ctid from outbox
        where completed_at is not null and completed_at < ${before}
        limit ${limit}))
      and completed_at is not null and completed_at < ${before}`);
  return res.rowCount ?? 0;
}

/** Payment-provider webhook deliveries received before `before`. */
export async function deleteWebhookEvents(db: Db, before: Date, limit: number): Promise<number> {
  const res = await db.execute(sql`
    delete from webhook_events
    where ctid = any(array(select ctid from webhook_events where received_at < ${before} limit ${limit}))
      and received_at < ${before}`);
  return res.rowCount ?? 0;
}

/** WhatsApp delivery statuses received before `before`. */
export async function deleteWhatsappStatusEvents(db: Db, before: Date, limit: number): Promise<number> {
  const res = await db.execute(sql`
    delete from whatsapp_status_events
    where ctid = any(array(select ctid from whatsapp_status_events where received_at < ${before} limit ${limit}))
      and received_at < ${before}`);
  return res.rowCount ?? 0;
}
