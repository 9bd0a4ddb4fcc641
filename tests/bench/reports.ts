/**
 * Report timings over a year of 50,000 bookings, in a throwaway database:
 *   npx node tests/bench/reports.ts            (needs PostgreSQL at TEST_DATABASE_SERVER or 127.0.0.1:5432)
 * Prints each report's time with live data and with nightly aggregates, and EXPLAIN ANALYZE of the
 * income list. Not a test: timings on a shared machine are indicative only.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { connectDatabase } from '../../shared/core/db/client.ts';
import { runMigrations } from '../../shared/core/db/migrate.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { addDays } from '../../shared/domain/time.ts';
import { LEDGER_PAGE } from '../../shared/core/repositories/income.repository.ts';
import { aggregateDay, eodReport, incomePage, incomeReport, therapistMonthlyReport } from '../../shared/core/services/report.service.ts';

const server = process.env.TEST_DATABASE_SERVER ?? 'postgres://root@127.0.0.1:5432';
const name = `booking_bench_${randomBytes(4).toString('hex')}`;
const url = `${server}/${name}`;
const FIRST = '2025-11-22';
const LAST = '2026-11-21';
const now = new Date(`${addDays(LAST, 1)}T12:00:00+05:30`);

async function time<T>(label: string, fn: () => Promise<T>, runs = 5): Promise<T> {
  let result: T | undefined;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    result = await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  console.log(`${label.padEnd(48)} median ${samples[Math.floor(runs / 2)]!.toFixed(1)} ms  max ${samples.at(-1)!.toFixed(1)} ms`);
  return result!;
}

await runMigrations(url);
const database = connectDatabase(url);
try {
  await seedDemoData(database.db);
  await database.db.execute(sql`
    insert into bookings (therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, location_id, client_full_name,
                          client_email, client_mobile, payment_status, payment_transaction_id, amount_paise, cancelled)
    select t, 1, d::date, make_time(h, 0, 0), case when t <= 4 then 'ONLINE'::booking_type else 'OFFLINE'::booking_type end,
           case when t <= 4 then null when t <= 6 then 1 else 2 end,
           'Client ' || n, 'c' || n || '@example.com', (9000000000 + n)::text,
           (array['COMPLETED','COMPLETED','COMPLETED','PENDING','FAILED','INITIATED'])[1 + (n % 6)]::payment_status,
           'txn-' || n, 100000 + (n % 7) * 10000, (n % 11 = 0)
    from (select row_number() over () as n, t, d, h
          from generate_series(1, 8) t, generate_series(${FIRST}::date, ${LAST}::date, interval '1 day') d, generate_series(6, 23) h) s
    where n <= 50000`);
  await database.db.execute(sql`
    insert into payments_ledger (booking_id, kind, provider, payment_id, amount_paise, method, occurred_at)
    select id, 'capture', 'razorpay', 'pay_' || payment_transaction_id, amount_paise, 'UPI', created_at
    from bookings where payment_status = 'COMPLETED' and booking_type <> 'ADMIN_BLOCK'`);
  await database.db.execute(sql`
    insert into payments_ledger (booking_id, kind, provider, payment_id, refund_id, amount_paise, method, occurred_at)
    select id, 'refund', 'razorpay', 'pay_' || payment_transaction_id, 'rfnd_' || payment_transaction_id, -amount_paise, 'OTHER', created_at
    from bookings where payment_status = 'COMPLETED' and cancelled and booking_type <> 'ADMIN_BLOCK'`);
  await database.db.execute(sql`vacuum analyze bookings`);
  await database.db.execute(sql`vacuum analyze payments_ledger`);
  const live = {
    eod: await time('EOD (live)', () => eodReport(database.db, '2026-05-10', now)),
    monthly: await time('Therapist monthly (live)', () => therapistMonthlyReport(database.db, 2026, 5, now)),
  };
  await time('Income / inventory (live, ~25k ledger rows)', () => incomeReport(database.db));
  const t = performance.now();
  for (let d = FIRST; d <= LAST; d = addDays(d, 1)) await aggregateDay(database.db, d);
  console.log(`aggregateDay for every day of the year: ${(performance.now() - t).toFixed(0)} ms`);
  const agg = {
    eod: await time('EOD (aggregated)', () => eodReport(database.db, '2026-05-10', now)),
    monthly: await time('Therapist monthly (aggregated)', () => therapistMonthlyReport(database.db, 2026, 5, now)),
  };
  console.log(`aggregated numbers equal live: ${JSON.stringify(agg) === JSON.stringify(live)}`);
  const plan = await database.pool.query(`explain analyze select l.amount_paise, l.kind, b.client_full_name, b.booking_date
    from payments_ledger l join bookings b on b.id = l.booking_id
    order by b.booking_date desc, b.booking_time_slot_start desc, b.id desc, l.id`);
  console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
  // A page as the panel asks for it (issue 22): near the start, and deep in the year.
  await time('Income, first page of 10', () => incomePage(database.db, { page: 1, pageSize: 10, offset: 0 }));
  await time('Income, page 300 of 100', () => incomePage(database.db, { page: 300, pageSize: 100, offset: 29_900 }));
  for (const offset of [0, 20_000]) {
    const page = await database.pool.query(`explain analyze ${LEDGER_PAGE}`, [100, offset]);
    console.log(`\nEXPLAIN ANALYZE of a page of 100 at offset ${offset}:\n${page.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
} finally {
  await database.close();
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
