/**
 * The payments ledger as the Income page and the Inventory report show it: a payment or a refund per
 * row, refunds negative and marked as such, so the whole list adds up to the total above it. Both ask
 * the server for one page at a time (a year is tens of thousands of rows); the totals come with each
 * page and are the whole ledger's.
 */
import { useState } from 'react';
import type { IncomePage, Payment } from '../../lib/admin-api.ts';
import { DEFAULT_PAGE_SIZE, formatAmount, formatShortDate } from '../../lib/admin-format.ts';
import { useQuery } from '../../lib/query.ts';
import type { Column, ServerPaging } from './DataTable.tsx';
import { Badge } from './ui.tsx';

/** The totals a page of the ledger carries (the whole ledger's), and how many rows it has. */
export type LedgerTotalsOf = Pick<IncomePage, 'total' | 'total_amount' | 'total_collected' | 'total_refunded'>;

/**
 * One page of the ledger from `fetchPage`, and the paging to draw with it. A new page or page size
 * asks the server again (only the answer for the page asked for now is drawn); the last answer stays
 * drawn while the next is on its way.
 */
export function useLedgerPage(name: string, fetchPage: (page: number, pageSize: number) => Promise<IncomePage>, failed: (err: unknown) => string) {
  const [query, setQuery] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const { data, loading, error, refresh } = useQuery(name, query, (q) => fetchPage(q.page, q.pageSize));
  const paging: ServerPaging = {
    page: query.page,
    pageSize: query.pageSize,
    total: data?.total ?? 0,
    onPage: (page) => setQuery((q) => ({ ...q, page })),
    // A new page size starts again at page 1, as the bookings lists do.
    onPageSize: (pageSize) => setQuery({ page: 1, pageSize }),
  };
  return { data: data ?? null, items: data?.items ?? [], loading, error: error ? failed(error) : null, refresh, paging };
}

/** A ledger method in words (the Income list; the desk's refund dialog). */
export const METHOD_WORDS: Record<Payment['method'], string> = {
  UPI: 'UPI',
  CARD: 'Card',
  NETBANKING: 'Netbanking',
  WALLET: 'Wallet',
  CASH: 'Cash',
  BANK_TRANSFER: 'Bank transfer',
  OTHER: 'Other',
};

/** Net total, with what was collected and refunded under it once there has been a refund. */
export function LedgerTotals(props: { report: LedgerTotalsOf | null; label: string }) {
  const r = props.report;
  const refunded = Number(r?.total_refunded ?? 0);
  return (
    <>
      <p className="adm-total__label">
        {props.label}: {formatAmount(r?.total ? r.total_amount : 0)}
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
  {
    key: 'payment_transaction_id',
    header: 'Transaction ID',
    // A package sale's money (issue 34) has no booking: the sale is named instead.
    cell: (p) => <span className="adm-mono">{p.payment_transaction_id || (p.package_sale_id !== null ? `Package sale ${p.package_sale_id}` : '--')}</span>,
  },
  {
    key: 'amount',
    header: 'Amount',
    numeric: true,
    cell: (p) => (p.amount < 0 ? <span className="adm-amount--refund">{formatAmount(p.amount)}</span> : formatAmount(p.amount)),
  },
];

/** Rows are keyed by the provider's payment or refund id, which the ledger holds once. */
export const ledgerRowKey = (p: Payment) => `${p.kind}-${p.provider_reference}`;

/** A page of the ledger as a plain table (the Inventory report, whose Excel export holds every page). */
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
