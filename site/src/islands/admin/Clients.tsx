/** Clients & Bookings (/admin/clients?search=): every booking with its client, filtered by name. */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { adminApi, errorMessage, isUnauthorized, type ClientBooking } from '../../lib/admin-api.ts';
import { CLIENT_LIST_PAGE_SIZE, MESSAGES, formatShortDate, formatTime, paginate, sessionLabel } from '../../lib/admin-format.ts';
import { adminNav, clientsSearchUrl } from '../../lib/admin-nav.ts';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { Empty, ErrorPanel, Loading, Pager, PaymentCell, StatusBadge } from './ui.tsx';

function searchParam(): string {
  if (typeof window === 'undefined') return '';
  return new URLSearchParams(window.location.search).get('search') ?? '';
}

function sessionType(b: ClientBooking): string {
  const s = b.session_type;
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : '--';
}

export default function Clients(props: { onLogout: () => void }) {
  const { onLogout } = props;
  const [rows, setRows] = useState<ClientBooking[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState(searchParam);
  const [page, setPage] = useState(1);
  const filterId = useId();

  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      setRows(await adminApi.clientsWithTherapists());
    } catch (err) {
      if (isUnauthorized(err)) onLogout();
      setError(errorMessage(err, MESSAGES.clientsFailed));
    } finally {
      setLoading(false);
    }
  }, [onLogout]);

  useEffect(() => {
    void load();
  }, [load]);

  const filtered = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return needle ? rows.filter((r) => (r.client_full_name ?? '').toLowerCase().includes(needle)) : rows;
  }, [rows, filter]);
  const view = paginate(filtered, page, CLIENT_LIST_PAGE_SIZE);

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Clients &amp; Bookings</h1>
          <p className="muted">Every booking with its client details.</p>
        </div>
        <button type="button" className="btn btn-secondary" onClick={() => void load()} disabled={loading}>
          Refresh Data
        </button>
      </header>
      {error ? (
        <ErrorPanel title="Error Loading Data" message={error} onRetry={() => void load()} />
      ) : (
        <section className="adm-panel card" aria-labelledby="clients-title">
          <div className="adm-panel__head">
            <h2 id="clients-title">Client Bookings</h2>
            <div className="adm-filter">
              <label htmlFor={filterId} className="label">
                Filter by name
              </label>
              <input
                id={filterId}
                className="input"
                type="search"
                value={filter}
                onChange={(e) => {
                  setFilter(e.target.value);
                  setPage(1);
                }}
              />
            </div>
          </div>
          {loading ? (
            <Loading label="Loading client data..." />
          ) : filtered.length === 0 ? (
            <Empty>{MESSAGES.noClientData}</Empty>
          ) : (
            <div className="adm-table-wrap adm-table-wrap--scroll" role="region" aria-label="Client bookings table" tabIndex={0}>
              <table className="adm-table adm-table--click adm-table--wide">
                <thead>
                  <tr>
                    {[
                      'Booking ID',
                      'Client Name',
                      'Client Email',
                      'Client Phone',
                      'Session Type',
                      'Client Notes',
                      'Client City',
                      'Client State',
                      'Therapist Name',
                      'Date',
                      'Time',
                      'Type',
                      'Payment Status',
                      'Status',
                    ].map((h) => (
                      <th key={h} scope="col">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {view.items.map((b) => {
                    const therapist = b.data?.therapist_details?.name ?? b.therapist_name;
                    const date = b.data?.booking_date ?? b.booking_date;
                    const time = b.data?.booking_time_slot_start ?? b.booking_time_slot_start;
                    const note = b.data?.client_note ?? b.client_note;
                    const type = b.data?.booking_type ?? b.booking_type;
                    return (
                      <tr key={b.id} onClick={() => adminNav.go(clientsSearchUrl(b.client_full_name))}>
                        <td>{b.id}</td>
                        <td>
                          <a href={clientsSearchUrl(b.client_full_name)} onClick={(e) => e.stopPropagation()}>
                            {b.client_full_name || '--'}
                          </a>
                        </td>
                        <td>{b.client_email || '--'}</td>
                        <td>{b.client_mobile || '--'}</td>
                        <td>{sessionType(b)}</td>
                        <td className="adm-cell-note">{note?.trim() || '--'}</td>
                        <td>--</td>
                        <td>--</td>
                        <td>{therapist ? displayName(therapist) : '--'}</td>
                        <td>{formatShortDate(date)}</td>
                        <td>{formatTime(time)}</td>
                        <td>{sessionLabel(type)}</td>
                        <td>
                          <PaymentCell badge={<StatusBadge status={b.payment_status} />} note={b.payment_note} />
                        </td>
                        <td>
                          {b.cancelled ? (
                            <span className="adm-status adm-status--bad">
                              <span aria-hidden="true">✕</span> Cancelled
                            </span>
                          ) : (
                            <span className="adm-status adm-status--ok">
                              <span aria-hidden="true">✓</span> Active
                            </span>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          <Pager page={view.page} totalPages={view.totalPages} onPage={setPage} label="Client bookings" />
        </section>
      )}
    </div>
  );
}
