import { sql } from 'drizzle-orm';
import type { Db } from '../../shared/core/db/client.ts';

/** Every table a request can write to. */
const TABLES = [
  'bookings',
  'outbox',
  'audit_log',
  'admin_users',
  'admin_token_revocations',
  'webhook_events',
  'sandbox_payment_links',
  'payments_ledger',
  'sandbox_refunds',
  'payment_discrepancies',
  'refund_requests',
  'refund_intents',
  'whatsapp_messages',
  'whatsapp_status_events',
];

/**
 * What requests can have written: the row count of every table a request writes to, and a digest of
 * the bookings', admins' and payment issues' contents (a cancel, a payment link, a sign-in or a
 * review changes a row without adding one). Equal before and after means nothing was written. One statement: the fuzz test asks
 * after every request.
 */
export async function writtenRows(db: Db): Promise<Record<string, number | string>> {
  const counts = TABLES.map((t) => `(select count(*)::int from ${t}) as ${t}`).join(', ');
  const digests = `(select md5(coalesce(string_agg(b::text, '|' order by b.id), '')) from bookings b) as bookings_digest,
    (select md5(coalesce(string_agg(a::text, '|' order by a.id), '')) from admin_users a) as admin_users_digest,
    (select md5(coalesce(string_agg(d::text, '|' order by d.id), '')) from payment_discrepancies d) as payment_discrepancies_digest,
    (select md5(coalesce(string_agg(r::text, '|' order by r.id), '')) from refund_requests r) as refund_requests_digest`;
  const result = await db.execute<Record<string, number | string>>(sql.raw(`select ${counts}, ${digests}`));
  return { ...result.rows[0]! };
}
