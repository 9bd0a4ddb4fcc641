import type { PaymentDto } from '../../contract/admin.ts';
import { paiseToRupees } from '../../domain/money.ts';
import pg from '../db/pg-types.ts';

/**
 * Kept apart from report.repository.ts and free of Drizzle: the workbook process (api/src/exports)
 * imports it, and starting that process must stay cheap.
 */

/**
 * Completed payments, newest booking date first (served by bookings_income_idx), each with the total
 * of them all. The total is a scalar subquery, worked out once before the first row: a window sum
 * over the rows would have PostgreSQL hold the whole list (spilling it to disk) before sending any.
 */
type PaymentRow = { amount_paise: number; payment_transaction_id: string | null; client_full_name: string; client_mobile: string; booking_date: string; total_paise: number };
const COMPLETED = `payment_status = 'COMPLETED' and not cancelled and booking_type <> 'ADMIN_BLOCK'`;
const COMPLETED_PAYMENTS = `
  select amount_paise, payment_transaction_id, client_full_name, client_mobile, booking_date,
         (select sum(amount_paise) from bookings where ${COMPLETED})::int8 as total_paise
  from bookings
  where ${COMPLETED}
  order by booking_date desc, booking_time_slot_start desc, id desc`;

/**
 * Completed payments, newest booking date first, handed over one by one as PostgreSQL sends them, each
 * with the total of them all (worked out in the same statement, so both see one snapshot). A year's
 * list (tens of thousands of rows) is never held whole: each row is garbage before the next arrives,
 * so it dies young instead of growing the old generation by the size of the list on every call.
 * Resolves with the row count.
 */
export async function eachCompletedPayment(
  pool: Pick<pg.Pool, 'connect'>,
  onPayment: (payment: PaymentDto, totalPaise: number) => void,
): Promise<number> {
  const client = await pool.connect();
  let failure: Error | undefined;
  let count = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const query = client.query(new pg.Query(COMPLETED_PAYMENTS));
      query.on('row', (r: PaymentRow) => {
        if (failure) return;
        try {
          onPayment(
            {
              amount: paiseToRupees(r.amount_paise),
              payment_transaction_id: r.payment_transaction_id,
              client_name: r.client_full_name,
              client_phone: r.client_mobile,
              booking_date: r.booking_date,
            },
            r.total_paise,
          );
          count++;
        } catch (err) {
          failure = err as Error;
        }
      });
      query.on('error', reject);
      query.on('end', () => (failure ? reject(failure) : resolve()));
    });
  } catch (err) {
    // A connection whose query failed is not reused; one whose caller failed read its result to the end.
    client.release(err === failure ? undefined : (err as Error));
    throw err;
  }
  client.release();
  return count;
}
