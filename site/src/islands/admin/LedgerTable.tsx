/**
 * The payments ledger as the Income page and the Inventory report show it: a payment or a refund per
 * row, refunds negative and marked as such, so the column adds up to the total above it.
 */
import type { IncomeReport, Payment } from '../../lib/admin-api.ts';
import { formatAmount, formatShortDate } from '../../lib/admin-format.ts';
import type { Column } from './DataTable.tsx';
import { Badge } from './ui.tsx';

const METHOD_WORDS: Record<Payment['method'], string> = {
  UPI: 'UPI',
  CARD: 'Card',
  NETBANKING: 'Netbanking',
  WALLET: 'Wallet',
  CASH: 'Cash',
  OTHER: 'Other',
};

/** Net total, with what was collected and refunded under it once there has been a refund. */
export function LedgerTotals(props: { report: IncomeReport | null; label: string }) {
  const r = props.report;
  const refunded = Number(r?.total_refunded ?? 0);
  return (
    <>
      <p className="adm-total__label">
        {props.label}: {formatAmount(r?.payments.length ? r.total_amount : 0)}
      </p>
      {refunded > 0 ? (
        <p className="adm-total__parts">
          Collected {formatAmount(r?.total_collected)} · Refunded {formatAmount(refunded)}
        </p>
      ) : null}
    </>
  );
}

/** A payment says how it was paid; a refund says why it was made (its method is the payment's). */
function EntryType({ p }: { p: Payment }) {
  if (p.kind === 'REFUND') {
    return (
      <span className="adm-pay">
        <Badge tone="orange">Refund</Badge>
        {p.reason ? <span className="adm-pay-note">{p.reason}</span> : null}
      </span>
    );
  }
  return (
    <span className="adm-pay">
      <Badge tone="green">Payment</Badge>
      <span className="muted">{METHOD_WORDS[p.method] ?? p.method}</span>
    </span>
  );
}

export const ledgerColumns: Column<Payment>[] = [
  { key: 'booking_date', header: 'Booking Date', cell: (p) => formatShortDate(p.booking_date) },
  { key: 'client_name', header: 'Client Name', cell: (p) => p.client_name || '--', primary: true },
  { key: 'client_phone', header: 'Client Phone', cell: (p) => p.client_phone || '--' },
  { key: 'kind', header: 'Type', cell: (p) => <EntryType p={p} /> },
  { key: 'payment_transaction_id', header: 'Transaction ID', cell: (p) => <span className="adm-mono">{p.payment_transaction_id || '--'}</span> },
  {
    key: 'amount',
    header: 'Amount',
    numeric: true,
    cell: (p) => (p.amount < 0 ? <span className="adm-amount--refund">{formatAmount(p.amount)}</span> : formatAmount(p.amount)),
  },
];

/** Rows are keyed by the provider's payment or refund id, which the ledger holds once. */
export const ledgerRowKey = (p: Payment) => `${p.kind}-${p.provider_reference}`;

/** The whole ledger as one table (the Inventory report, which its Excel export mirrors). */
export function LedgerTable(props: { rows: readonly Payment[]; label: string }) {
  return (
    <div className="adm-table-wrap" role="region" aria-label={props.label} tabIndex={0}>
      <table className="adm-table">
        <thead>
          <tr>
            {ledgerColumns.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((p) => (
            <tr key={ledgerRowKey(p)}>
              {ledgerColumns.map((c) => (
                <td key={c.key} className={c.numeric ? 'num' : undefined}>
                  {c.cell(p)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
