/** Income (spec section 2): total collected and all transactions, newest booking date first. */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { adminApi, errorMessage, type IncomeReport } from '../../lib/admin-api.ts';
import { DEFAULT_PAGE_SIZE, MESSAGES, formatAmount, formatShortDate, paginate } from '../../lib/admin-format.ts';
import { Empty, ErrorPanel, Loading, PageSizeSelect, Pager } from './ui.tsx';

export default function Income() {
  const [data, setData] = useState<IncomeReport | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);

  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      setData(await adminApi.income());
    } catch (err) {
      setError(errorMessage(err, MESSAGES.incomeFailed));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const sorted = useMemo(
    () => (data?.payments ?? []).slice().sort((a, b) => (b.booking_date ?? '').localeCompare(a.booking_date ?? '')),
    [data],
  );
  const view = paginate(sorted, page, pageSize);

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Income</h1>
          <p className="muted">Payments collected for sessions.</p>
        </div>
      </header>
      {loading ? (
        <Loading label="Loading income..." />
      ) : error ? (
        <ErrorPanel title="Error Loading Income" message={error} onRetry={() => void load()} />
      ) : (
        <>
          <section className="adm-total card" aria-label="Total collected">
            <p className="adm-total__label">Total Income: {formatAmount(sorted.length ? data?.total_amount : 0)}</p>
          </section>
          <section className="adm-panel card" aria-labelledby="income-table">
            <div className="adm-panel__head">
              <h2 id="income-table">All Transactions</h2>
              <PageSizeSelect
                value={pageSize}
                onChange={(n) => {
                  setPageSize(n);
                  setPage(1);
                }}
              />
            </div>
            {sorted.length === 0 ? (
              <Empty>{MESSAGES.noIncome}</Empty>
            ) : (
              <div className="adm-table-wrap" role="region" aria-label="Transactions table" tabIndex={0}>
                <table className="adm-table">
                  <thead>
                    <tr>
                      <th scope="col">Booking Date</th>
                      <th scope="col">Client Name</th>
                      <th scope="col">Client Phone</th>
                      <th scope="col">Transaction ID</th>
                      <th scope="col" className="num">
                        Amount
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {view.items.map((p, i) => (
                      <tr key={`${p.payment_transaction_id ?? 'x'}-${(view.page - 1) * pageSize + i}`}>
                        <td>{formatShortDate(p.booking_date)}</td>
                        <td>{p.client_name || '--'}</td>
                        <td>{p.client_phone || '--'}</td>
                        <td className="adm-mono">{p.payment_transaction_id || '--'}</td>
                        <td className="num">{formatAmount(p.amount)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Pager page={view.page} totalPages={view.totalPages} onPage={setPage} label="Transactions" />
          </section>
        </>
      )}
    </div>
  );
}
