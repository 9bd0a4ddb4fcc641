import { sql } from 'drizzle-orm';
import { adminTokenRevocations, adminUsers, auditLog, bookings, outbox, sandboxPaymentLinks, webhookEvents } from '../../shared/core/db/schema.ts';
import type { Db } from '../../shared/core/db/client.ts';

const TABLES = {
  bookings,
  outbox,
  audit_log: auditLog,
  admin_users: adminUsers,
  admin_token_revocations: adminTokenRevocations,
  webhook_events: webhookEvents,
  sandbox_payment_links: sandboxPaymentLinks,
};

/**
 * What requests can have written: the row count of every table a request writes to, and a digest of
 * the bookings' contents (a cancel or a payment link changes a row without adding one). Equal before
 * and after means nothing was written.
 */
export async function writtenRows(db: Db): Promise<Record<string, number | string>> {
  const counts = await Promise.all(Object.entries(TABLES).map(async ([name, table]) => [name, await db.$count(table)] as const));
  const digest = await db.execute<{ d: string | null }>(sql`select md5(string_agg(b::text, '|' order by b.id)) as d from bookings b`);
  return { ...Object.fromEntries(counts), bookings_digest: digest.rows[0]?.d ?? '' };
}
