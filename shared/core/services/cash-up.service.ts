import { CASH_UP_METHODS, type CashUpMethod, DESK_PAYMENT_METHODS, type DeskPaymentMethod } from '../../contract/admin.ts';
import type { CashUpLine, CashUpMovement, CashUpReport } from '../../contract/cash-up.ts';
import { CASH_UP_METHOD_LABELS, CASH_UP_RECORDED_BY } from '../../domain/cash-up.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { addDays, centreInstant, centreNow, toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { type CashUpRow, ledgerRowsBetween } from '../repositories/cash-up.repository.ts';
import type { LedgerMethod, LedgerProvider } from '../repositories/ledger.repository.ts';

/**
 * How the cash-up counts a ledger row's money: through the payment provider is ONLINE, whatever the
 * client paid it with; at the counter, by the desk's method; a counter row with none of the desk's
 * methods (OTHER: older manual bookings' payments and cancels' refunds) is OTHER, so it never vanishes.
 */
export function cashUpMethodOf(provider: LedgerProvider, method: LedgerMethod): CashUpMethod {
  if (provider !== 'counter') return 'ONLINE';
  return isDeskMethod(method) ? method : 'OTHER';
}

const isDeskMethod = (method: string): method is DeskPaymentMethod => (DESK_PAYMENT_METHODS as readonly string[]).includes(method);

/** Who recorded a movement: the admin, else the reconciliation, else the provider (online) or the system. */
export function recordedByOf(row: Pick<CashUpRow, 'admin_username' | 'by_reconciliation' | 'provider'>): string {
  if (row.admin_username) return row.admin_username;
  if (row.by_reconciliation) return CASH_UP_RECORDED_BY.reconciliation;
  return row.provider === 'counter' ? CASH_UP_RECORDED_BY.system : CASH_UP_RECORDED_BY.online;
}

/** The instants a day at the centre starts and ends ([from, to)), whatever the server's zone. */
export function centreDayBounds(date: string): [Date, Date] {
  return [centreInstant(date, '00:00'), centreInstant(addDays(date, 1), '00:00')];
}

function mapMovement(r: CashUpRow): CashUpMovement {
  return {
    id: r.id,
    kind: r.kind === 'capture' ? 'PAYMENT' : 'REFUND',
    occurred_at: r.occurred_at,
    time: centreNow(new Date(r.occurred_at)).time,
    booking_id: r.booking_id,
    package_sale_id: r.package_sale_id,
    client_name: r.client_full_name,
    session_date: r.booking_date,
    session_time: r.booking_time_slot_start === null ? null : toHhMm(r.booking_time_slot_start),
    method: cashUpMethodOf(r.provider, r.method),
    paid_with: r.method,
    amount: paiseToRupees(r.amount_paise),
    recorded_by: recordedByOf(r),
  };
}

type Paise = { taken: number; refunded: number };
const inRupees = (p: Paise) => ({ taken: paiseToRupees(p.taken), refunded: paiseToRupees(p.refunded), net: paiseToRupees(p.taken - p.refunded) });

/**
 * The day's cash-up: every ledger row whose money moved on `date` at the centre, added up per method
 * in paise (rupees only in the answer, so the lines add up to the totals exactly).
 */
export async function cashUpReport(db: Pick<Db, 'execute'>, date: string): Promise<CashUpReport> {
  const [from, to] = centreDayBounds(date);
  const rows = await ledgerRowsBetween(db, from, to);
  const per = new Map<CashUpMethod, Paise>(CASH_UP_METHODS.map((m) => [m, { taken: 0, refunded: 0 }]));
  const seen = new Set<CashUpMethod>();
  const desk: Paise = { taken: 0, refunded: 0 };
  const total: Paise = { taken: 0, refunded: 0 };
  for (const r of rows) {
    const method = cashUpMethodOf(r.provider, r.method);
    seen.add(method);
    for (const sum of method === 'ONLINE' ? [per.get(method)!, total] : [per.get(method)!, desk, total]) {
      if (r.kind === 'capture') sum.taken += r.amount_paise;
      else sum.refunded -= r.amount_paise;
    }
  }
  const methods: CashUpLine[] = CASH_UP_METHODS.filter((m) => m !== 'OTHER' || seen.has(m)).map((m) => ({
    method: m,
    label: CASH_UP_METHOD_LABELS[m],
    ...inRupees(per.get(m)!),
  }));
  return { date, methods, at_desk: inRupees(desk), total: inRupees(total), movements: rows.map(mapMovement) };
}
