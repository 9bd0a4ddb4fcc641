/** Audit Log (super admins): who changed what, newest first, from GET /api/admin/audit-log. */
import { useCallback, useEffect, useState } from 'react';
import { adminApi, errorMessage, type AuditPage } from '../../lib/admin-api.ts';
import { DEFAULT_PAGE_SIZE } from '../../lib/admin-format.ts';
import { Empty, ErrorPanel, Loading, PageSizeSelect, Pager } from './ui.tsx';

const when = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

function summary(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
}

export default function AuditLog() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [data, setData] = useState<AuditPage | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      setData(await adminApi.auditLog(page, pageSize));
    } catch (err) {
      setError(errorMessage(err, 'Failed to load the audit log.'));
    } finally {
      setLoading(false);
    }
  }, [page, pageSize]);

  useEffect(() => {
    void load();
  }, [load]);

  const items = data?.items ?? [];
  const totalPages = Math.max(1, Math.ceil((data?.total ?? 0) / pageSize));

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Audit Log</h1>
          <p className="muted">Changes made by admins, newest first.</p>
        </div>
      </header>
      {error ? (
        <ErrorPanel title="Error Loading Audit Log" message={error} onRetry={() => void load()} />
      ) : (
        <section className="adm-panel card" aria-labelledby="audit-title">
          <div className="adm-panel__head">
            <h2 id="audit-title">Entries</h2>
            <PageSizeSelect
              value={pageSize}
              onChange={(n) => {
                setPageSize(n);
                setPage(1);
              }}
            />
          </div>
          {loading ? (
            <Loading />
          ) : items.length === 0 ? (
            <Empty>No audit entries yet.</Empty>
          ) : (
            <div className="adm-table-wrap" role="region" aria-label="Audit entries table" tabIndex={0}>
              <table className="adm-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Admin</th>
                    <th scope="col">Action</th>
                    <th scope="col">Entity</th>
                    <th scope="col">Change</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((e) => (
                    <tr key={e.id}>
                      <td>{Number.isNaN(Date.parse(e.at)) ? e.at : when.format(new Date(e.at))}</td>
                      <td>{e.admin_username ?? e.actor}</td>
                      <td>{e.action}</td>
                      <td>
                        {e.entity_type} {e.entity_id}
                      </td>
                      <td className="adm-cell-note">{summary(e.after) || summary(e.before) || '--'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager page={page} totalPages={totalPages} onPage={setPage} label="Audit log" />
        </section>
      )}
    </div>
  );
}
