import { sql } from 'drizzle-orm';
import type { TestDatabase } from './db.ts';

/** The end-of-day workbook's header row (EOD_Report_{date}.xlsx, sheet End_of_Day), one expectation for every test of it. */
export const EOD_WORKBOOK_HEADER = [
  'Booking ID',
  'Session Time',
  'Client Name',
  'Therapist ID',
  'Therapist Name',
  'Service ID',
  'Payment Status',
  'Cancelled',
  'Amount',
  'Paid',
  'Refunded',
  'Payment Method',
  'Attendance',
];

/**
 * `count` online bookings from 1 January 2025, each paid by UPI and captured in the ledger at 10:00 that
 * day: booking n with therapist 1 + n % `therapists`, `perDay` a day, from 08:00 over `hours` hours
 * (each hour shared by the therapists), by "`name` n" at "`email`n@example.com". For the income list's
 * tests, too many rows to write one by one.
 */
export async function insertPaidOnlineBookings(
  database: TestDatabase,
  b: { count: number; therapists: number; perDay: number; hours: number; name: string; email: string },
): Promise<void> {
  const int = (n: number) => sql.raw(String(Math.trunc(n)));
  await database.db.execute(sql`
    with b as (
      insert into bookings (therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, client_full_name,
                            client_email, client_mobile, payment_status, payment_transaction_id, amount_paise)
      select 1 + n % ${int(b.therapists)}, 1, date '2025-01-01' + (n / ${int(b.perDay)}), make_time(8 + (n / ${int(b.therapists)}) % ${int(b.hours)}, 0, 0),
             'ONLINE', ${b.name}::text || ' ' || n, ${b.email}::text || n || '@example.com', (9000000000 + n)::text, 'COMPLETED', 'txn-' || n, 100000 + n
      from generate_series(0, ${int(b.count - 1)}) n
      returning id, amount_paise, payment_transaction_id)
    insert into payments_ledger (booking_id, kind, provider, payment_id, amount_paise, method, occurred_at)
    select id, 'capture', 'razorpay', 'pay_' || payment_transaction_id, amount_paise, 'UPI', timestamptz '2025-01-01 10:00+05:30' from b`);
}
