import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';

/**
 * Rows of `table` made from one client address (its `client_address_hash`) in the last `minutes`, by
 * their time column `at`, and the seconds until the earliest of them leaves that window: the address
 * limit of the hold limits, for any table a public request writes (waitlist joins, package purchases).
 */
export async function recentFromAddress(
  tx: DbOrTx,
  source: { table: string; at: string },
  addressHash: string,
  minutes: number,
  now: Date,
): Promise<{ count: number; retryAfterSeconds: number }> {
  const since = new Date(now.getTime() - minutes * 60_000);
  const at = sql.identifier(source.at);
  const { rows } = await tx.execute<{ n: number; first: string | null }>(sql`
    select count(*)::int as n, min(${at}) as first from ${sql.identifier(source.table)}
    where client_address_hash = ${addressHash} and ${at} > ${since.toISOString()}::timestamptz`);
  const first = rows[0]!.first ? new Date(rows[0]!.first).getTime() : now.getTime();
  return { count: rows[0]!.n, retryAfterSeconds: Math.max(1, Math.ceil((first + minutes * 60_000 - now.getTime()) / 1000)) };
}
