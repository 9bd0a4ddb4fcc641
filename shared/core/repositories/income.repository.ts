import type { LedgerMethodDto, PaymentDto } from '../../contract/admin.ts';
import { paiseToRupees } from '../../domain/money.ts';
import pg from '../db/pg-types.ts';

/**
 * Kept apart from report.repository.ts and free of Drizzle: the workbook process (api/src/exports)
 * imports it, and starting that process must stay cheap.
 */

export type IncomeTotals = { netPaise: number; collectedPaise: number; refundedPaise: number };

/**
 * Every row of the payments ledger with its booking, newest booking date first (a booking's payment
 * before its refunds). The totals are scalar subqueries, worked out once before the first row: a window
 * sum over the rows would have PostgreSQL hold the whole list (spilling it to disk) before sending any.
 */
type LedgerEntryRow = {
  amount_paise: number;
  kind: 'capture' | 'refund';
  method: LedgerMethodDto;
  payment_id: string;
  refund_id: string | null;
  reason: string | null;
  occurred_at: string;
  booking_id: number;
  payment_transaction_id: string | null;
  client_full_name: string;
  client_mobile: string;
  booking_date: string;
  net_paise: number;
  collected_paise: number;
};
const LEDGER_ENTRIES = `
  select l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.booking_id,
         -- ISO 8601 in UTC, as toISOString() writes it: parsing a Date per row and printing it again cost
         -- more than the rest of the row.
         to_char(l.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
         b.payment_transaction_id, b.client_full_name, b.client_mobile, b.booking_date,
         (select coalesce(sum(amount_paise), 0) from payments_ledger)::int8 as net_paise,
         (select coalesce(sum(amount_paise), 0) from payments_ledger where kind = 'capture')::int8 as collected_paise
  from payments_ledger l join bookings b on b.id = l.booking_id
  order by b.booking_date desc, b.booking_time_slot_start desc, b.id desc, l.id`;

function toPayment(r: LedgerEntryRow): PaymentDto {
  return {
    amount: paiseToRupees(r.amount_paise),
    payment_transaction_id: r.payment_transaction_id,
    client_name: r.client_full_name,
    client_phone: r.client_mobile,
    booking_date: r.booking_date,
    booking_id: r.booking_id,
    kind: r.kind === 'capture' ? 'PAYMENT' : 'REFUND',
    method: r.method,
    provider_reference: r.refund_id ?? r.payment_id,
    recorded_at: r.occurred_at,
    reason: r.reason,
  };
}

/**
 * The ledger's rows, handed over one by one as PostgreSQL sends them, each with the ledger's totals
 * (worked out in the same statement, so both see one snapshot). A year's list (tens of thousands of
 * rows) is never held whole: each row is garbage before the next arrives, so it dies young instead of
 * growing the old generation by the size of the list on every call. Resolves with the row count.
 */
export async function eachLedgerEntry(
  pool: Pick<pg.Pool, 'connect'>,
  onEntry: (payment: PaymentDto, totals: IncomeTotals) => void,
): Promise<number> {
  const client = await pool.connect();
  let failure: Error | undefined;
  let count = 0;
  let totals: IncomeTotals | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const query = client.query(new pg.Query(LEDGER_ENTRIES));
      query.on('row', (r: LedgerEntryRow) => {
        if (failure) return;
        try {
          totals ??= { netPaise: r.net_paise, collectedPaise: r.collected_paise, refundedPaise: r.collected_paise - r.net_paise };
          onEntry(toPayment(r), totals);
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
