/**
 * Income (spec section 2): total collected and all transactions, newest booking date first, one page
 * at a time from the server (page size 10/20/50, default 10; changing it returns to page 1).
 */
import { adminApi, errorMessage } from '../../lib/admin-api.ts';
import { MESSAGES } from '../../lib/admin-format.ts';
import { DataTable } from './DataTable.tsx';
import { LedgerTotals, ledgerColumns, ledgerRowKey, useLedgerPage } from './LedgerTable.tsx';
import { ErrorPanel, Loading } from './ui.tsx';

const failed = (err: unknown) => errorMessage(err, MESSAGES.incomeFailed);

export default function Income() {
  // The server's order is the spec's (newest booking date first, a payment before its refunds).
  const { data, items, loading, error, refresh, paging } = useLedgerPage('income', adminApi.incomePage, failed);

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Income</h1>
          <p className="muted">Payments collected for sessions, and refunds.</p>
        </div>
      </header>
      {error ? (
        <ErrorPanel title="Error Loading Income" message={error} onRetry={refresh} />
      ) : loading && !data ? (
        <Loading label="Loading income..." />
      ) : (
        <>
          <section className="adm-total card" aria-label="Total collected">
            <LedgerTotals report={data} label="Total Income" />
          </section>
          <DataTable
            title="All Transactions"
            rows={items}
            columns={ledgerColumns}
            rowKey={ledgerRowKey}
            empty={MESSAGES.noIncome}
            paging={paging}
            loading={loading}
            loadingLabel="Loading income..."
          />
        </>
      )}
    </div>
  );
}
