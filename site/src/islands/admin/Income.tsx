/** Income (spec section 2): total collected and all transactions, newest booking date first. */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { adminApi, errorMessage, type IncomeReport } from '../../lib/admin-api.ts';
import { MESSAGES } from '../../lib/admin-format.ts';
import { DataTable } from './DataTable.tsx';
import { LedgerTotals, ledgerColumns, ledgerRowKey } from './LedgerTable.tsx';
import { ErrorPanel, Loading } from './ui.tsx';

export default function Income() {
  const [data, setData] = useState<IncomeReport | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

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

  // Newest booking date first (the spec's order, which the server sends too); the sort is stable, so a
  // booking's payment stays before its refunds.
  const rows = useMemo(() => (data?.payments ?? []).slice().sort((a, b) => b.booking_date.localeCompare(a.booking_date)), [data]);

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Income</h1>
          <p className="muted">Payments collected for sessions, and refunds.</p>
        </div>
      </header>
      {loading ? (
        <Loading label="Loading income..." />
      ) : error ? (
        <ErrorPanel title="Error Loading Income" message={error} onRetry={() => void load()} />
      ) : (
        <>
          <section className="adm-total card" aria-label="Total collected">
            <LedgerTotals report={data} label="Total Income" />
          </section>
          <DataTable title="All Transactions" rows={rows} columns={ledgerColumns} rowKey={ledgerRowKey} empty={MESSAGES.noIncome} />
        </>
      )}
    </div>
  );
}
