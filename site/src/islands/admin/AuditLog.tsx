/** Audit Log (super admins): who changed what, field by field, newest first, from GET /api/admin/audit-log. */
import { useState } from 'react';
import { adminApi, errorMessage, type AuditEntry } from '../../lib/admin-api.ts';
import { DEFAULT_PAGE_SIZE, auditActionLabel, auditEntity, auditFieldLabel, auditValue } from '../../lib/admin-format.ts';
import { useQuery } from '../../lib/query.ts';
import { Empty, ErrorPanel, Loading, PageSizeSelect, Pager, useIsMobile } from './ui.tsx';

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

/**
 * What an entry changed, field by field: "Payment status: PENDING → COMPLETED"; a value where there
 * was none (a creation's) is shown alone. An entry whose fields did not change (a password) says what it did.
 */
export function AuditChanges({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) {
    return <span className="muted">{entry.action === 'admin_user.password_change' ? 'Password changed (never recorded)' : 'No field changed'}</span>;
  }
  return (
    <ul className="adm-changes">
      {entry.changes.map((c) => (
        <li key={c.field}>
          <span className="adm-changes__field">{auditFieldLabel(c.field)}:</span>{' '}
          {c.before === null ? (
            // A value where there was none (a new record's, a payment's method): just the value.
            auditValue(c.field, c.after)
          ) : (
            <>
              <span className="adm-changes__before">{auditValue(c.field, c.before)}</span> <span aria-hidden="true">→</span>{' '}
              <span className="visually-hidden">changed to</span> <span className="adm-changes__after">{auditValue(c.field, c.after)}</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

const whenOf = (at: string) => (Number.isNaN(Date.parse(at)) ? at : when.format(new Date(at)));

export default function AuditLog() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const { data, loading, error, refresh } = useQuery('audit-log', { page, pageSize }, (q) => adminApi.auditLog(q.page, q.pageSize));

  const mobile = useIsMobile();
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
        <ErrorPanel title="Error Loading Audit Log" message={errorMessage(error, 'Failed to load the audit log.')} onRetry={refresh} />
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
          ) : mobile ? (
            <ul className="adm-cards" aria-label="Audit entries">
              {items.map((e) => (
                <li key={e.id} className="adm-card adm-audit-card">
                  <p className="adm-audit-card__head">
                    <strong>{auditActionLabel(e.action)}</strong> · {auditEntity(e.entity_type, e.entity_id)}
                  </p>
                  <p className="adm-audit-card__who muted">
                    {e.by}, {whenOf(e.at)}
                  </p>
                  <AuditChanges entry={e} />
                </li>
              ))}
            </ul>
          ) : (
            <div className="adm-table-wrap" role="region" aria-label="Audit entries table" tabIndex={0}>
              <table className="adm-table adm-table--audit">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Record</th>
                    <th scope="col">What changed</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((e) => (
                    <tr key={e.id}>
                      <td>{whenOf(e.at)}</td>
                      <td>{e.by}</td>
                      <td>{auditActionLabel(e.action)}</td>
                      <td className="adm-nowrap">{auditEntity(e.entity_type, e.entity_id)}</td>
                      <td>
                        <AuditChanges entry={e} />
                      </td>
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
