import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** Counts for the metrics (issue 32), read at each scrape: the database is where every process writes them. */
export async function countsForMetrics(db: Db): Promise<{
  bookings: { type: string; n: number }[];
  ledger: { kind: 'capture' | 'refund'; method: string; n: number }[];
  openJobFailures: number;
}> {
  const [bookings, ledger, failures] = await Promise.all([
    db.execute<{ type: string; n: number }>(sql`select booking_type::text as type, count(*)::int as n from bookings group by 1`),
    db.execute<{ kind: 'capture' | 'refund'; method: string; n: number }>(sql`select kind, method, count(*)::int as n from payments_ledger group by 1, 2`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from job_failures where resolved_at is null`),
  ]);
  return { bookings: bookings.rows, ledger: ledger.rows, openJobFailures: failures.rows[0]?.n ?? 0 };
}
