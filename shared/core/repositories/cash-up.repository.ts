import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { LedgerMethod, LedgerProvider } from './ledger.repository.ts';

/** A ledger row of the cash-up with its booking's and recorder's columns; cash-up.service.ts maps it. */
export type CashUpRow = {
  id: number;
  kind: 'capture' | 'refund';
  provider: LedgerProvider;
  method: LedgerMethod;
  amount_paise: number;
  /** ISO 8601 in UTC. */
  occurred_at: string;
  booking_id: number | null;
  package_sale_id: number | null;
  client_full_name: string;
  booking_date: string | null;
  booking_time_slot_start: string | null;
  /** The admin who recorded it, if one did. */
  admin_username: string | null;
  /** Recorded by the ledger reconciliation: the payment or refund it found at the provider and wrote in. */
  by_reconciliation: boolean;
};

/**
 * Every ledger row whose money moved in [from, to) (payments_ledger_occurred_idx), oldest first. The
 * reconciliation opens a MISSING_CAPTURE or MISSING_REFUND for exactly the rows it writes (and only
 * when it writes them), so that is how its rows are known.
 */
export async function ledgerRowsBetween(db: Pick<Db, 'execute'>, from: Date, to: Date): Promise<CashUpRow[]> {
  const res = await db.execute<CashUpRow>(sql`
    select l.id::int as id, l.kind, l.provider, l.method, l.amount_paise,
           to_char(l.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
           l.booking_id, l.package_sale_id, coalesce(b.client_full_name, s.client_full_name) as client_full_name,
           b.booking_date, b.booking_time_slot_start::text as booking_time_slot_start,
           a.username as admin_username,
           exists (
             select 1 from payment_discrepancies d
             where d.provider = l.provider and d.payment_id = l.payment_id
               and ((l.kind = 'capture' and d.kind = 'MISSING_CAPTURE' and d.refund_id = '')
                 or (l.kind = 'refund' and d.kind = 'MISSING_REFUND' and d.refund_id = l.refund_id))
           ) as by_reconciliation
    from payments_ledger l
    left join bookings b on b.id = l.booking_id
    left join package_sales s on s.id = l.package_sale_id
    left join admin_users a on a.id = l.recorded_by_admin_id
    where l.occurred_at >= ${from.toISOString()}::timestamptz and l.occurred_at < ${to.toISOString()}::timestamptz
    order by l.occurred_at, l.id`);
  return res.rows;
}
