/**
 * Clients & Bookings (/admin/clients?search=): every booking with its client, filtered by name and
 * paged by the server, in columns that fit a desk screen without scrolling sideways.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { adminApi, errorMessage, isUnauthorized, type ClientBooking } from '../../lib/admin-api.ts';
import { CLIENT_LIST_PAGE_SIZE, MESSAGES, clientChangeWords, formatShortDate, formatTime, sessionLabel } from '../../lib/admin-format.ts';
import { adminNav, clientsSearchUrl } from '../../lib/admin-nav.ts';
import { useQuery } from '../../lib/query.ts';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { Empty, ErrorPanel, Loading, Pager, PaymentCell, StatusBadge, useIsMobile } from './ui.tsx';
import { ATTENDANCE_WORDS } from '../../../../shared/domain/attendance.ts';

function searchParam(): string {
  if (typeof window === 'undefined') return '';
  return new URLSearchParams(window.location.search).get('search') ?? '';
}

function sessionType(b: ClientBooking): string {
  const s = b.session_type;
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : '--';
}

/** A booking's fields as the list shows them (the spec's `data` object first, the record's own else). */
function view(b: ClientBooking) {
  const therapist = b.data?.therapist_details?.name ?? b.therapist_name;
  const kind = sessionLabel(b.data?.booking_type ?? b.booking_type);
  return {
    therapist: therapist ? displayName(therapist) : '--',
    date: formatShortDate(b.data?.booking_date ?? b.booking_date),
    time: formatTime(b.data?.booking_time_slot_start ?? b.booking_time_slot_start),
    kind,
    type: b.session_type ? `${kind} · ${sessionType(b)}` : kind,
    note: (b.data?.client_note ?? b.client_note)?.trim() || '--',
  };
}

function BookingState({ cancelled }: { cancelled: boolean }) {
  return cancelled ? (
    <span className="adm-status adm-status--bad">
      <span aria-hidden="true">✕</span> Cancelled
    </span>
  ) : (
    <span className="adm-status adm-status--ok">
      <span aria-hidden="true">✓</span> Active
    </span>
  );
}

export default function Clients(props: { onLogout: () => void }) {
  const { onLogout } = props;
  const [filter, setFilter] = useState(searchParam);
  // The name the server filters by: what was typed, once typing pauses.
  const [name, setName] = useState(filter);
  const [page, setPage] = useState(1);
  const filterId = useId();
  const mobile = useIsMobile();

  useEffect(() => {
    if (filter === name) return;
    const timer = setTimeout(() => {
      setName(filter);
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [filter, name]);

  // One page of the client list, filtered by name on the server (it holds every booking ever made).
  const clients = useQuery('clients', { name, page }, (q) => adminApi.clientsPage(q.name, q.page, CLIENT_LIST_PAGE_SIZE));
  const { loading, refresh: retry } = clients;
  const rows = clients.data?.items ?? [];
  const error = clients.error ? errorMessage(clients.error, MESSAGES.clientsFailed) : null;
  useEffect(() => {
    if (isUnauthorized(clients.error)) onLogout();
  }, [clients.error, onLogout]);

  const totalPages = Math.max(1, Math.ceil((clients.data?.total ?? 0) / CLIENT_LIST_PAGE_SIZE));

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Clients &amp; Bookings</h1>
          <p className="muted">Every booking with its client details.</p>
        </div>
        <button type="button" className="btn btn-secondary" onClick={retry} disabled={loading}>
          Refresh Data
        </button>
      </header>
      {error ? (
        <ErrorPanel title="Error Loading Data" message={error} onRetry={retry} />
      ) : (
        <section className="adm-panel card" aria-labelledby="clients-title">
          <div className="adm-panel__head">
            <h2 id="clients-title">Client Bookings</h2>
            <div className="adm-filter">
              <label htmlFor={filterId} className="label">
                Filter by name
              </label>
              <input id={filterId} className="input" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
            </div>
          </div>
          {loading && rows.length === 0 ? (
            <Loading label="Loading client data..." />
          ) : rows.length === 0 ? (
            <Empty>{MESSAGES.noClientData}</Empty>
          ) : mobile ? (
            <ul className="adm-cards" aria-label="Client bookings" aria-busy={loading}>
              {rows.map((b) => {
                const v = view(b);
                return (
                  <li key={b.id} className="adm-card">
                    <p className="adm-client-card__head">
                      <a href={clientsSearchUrl(b.client_full_name)}>{b.client_full_name || '--'}</a>
                      <span className="muted"> · Booking {b.id}</span>
                    </p>
                    <dl>
                      {(
                        [
                          ['Email', b.client_email || '--'],
                          ['Phone', b.client_mobile || '--'],
                          ['Therapist', v.therapist],
                          ['Date', v.date],
                          ['Time', v.time],
                          ['Type', v.type],
                          [
                            'Payment Status',
                            <PaymentCell
                              key="pay"
                              badge={<StatusBadge status={b.payment_status} />}
                              note={
                                [clientChangeWords(b), b.payment_note, b.attendance ? ATTENDANCE_WORDS[b.attendance] : null].filter(Boolean).join(' · ') || null
                              }
                            />,
                          ],
                          ['Status', <BookingState key="state" cancelled={b.cancelled} />],
                          ['Notes', v.note],
                        ] as [string, ReactNode][]
                      ).map(([label, value]) => (
                        <div key={label} className="adm-card__row">
                          <dt>{label}</dt>
                          <dd>{value}</dd>
                        </div>
                      ))}
                    </dl>
                  </li>
                );
              })}
            </ul>
          ) : (
            <div className="adm-table-wrap" role="region" aria-label="Client bookings table" tabIndex={0} aria-busy={loading}>
              <table className="adm-table adm-table--click adm-table--clients">
                {/* Fixed widths: the table is never wider than the page, so nothing scrolls sideways. */}
                <colgroup>
                  {[8, 20, 11, 12, 8, 9, 12, 11, 9].map((w, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a column's place is what it is; the list never changes.
                    <col key={i} style={{ width: `${w}%` }} />
                  ))}
                </colgroup>
                <thead>
                  <tr>
                    {['Booking ID', 'Client', 'Therapist', 'Date', 'Time', 'Type', 'Payment Status', 'Status', 'Notes'].map((h) => (
                      <th key={h} scope="col">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((b) => {
                    const v = view(b);
                    return (
                      <tr key={b.id} onClick={() => adminNav.go(clientsSearchUrl(b.client_full_name))}>
                        <td>{b.id}</td>
                        <td className="adm-client">
                          <a href={clientsSearchUrl(b.client_full_name)} onClick={(e) => e.stopPropagation()}>
                            {b.client_full_name || '--'}
                          </a>
                          <span className="adm-client__contact">{b.client_email || '--'}</span>
                          <span className="adm-client__contact">{b.client_mobile || '--'}</span>
                        </td>
                        <td>{v.therapist}</td>
                        <td>{v.date}</td>
                        <td>{v.time}</td>
                        <td>
                          {v.kind}
                          {b.session_type ? <span className="adm-client__contact">{sessionType(b)}</span> : null}
                        </td>
                        <td>
                          <PaymentCell
                            badge={<StatusBadge status={b.payment_status} />}
                            note={
                              [clientChangeWords(b), b.payment_note, b.attendance ? ATTENDANCE_WORDS[b.attendance] : null].filter(Boolean).join(' · ') || null
                            }
                          />
                        </td>
                        <td>
                          <BookingState cancelled={b.cancelled} />
                        </td>
                        <td className="adm-client__note">{v.note}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          <Pager page={Math.min(page, totalPages)} totalPages={totalPages} onPage={setPage} label="Client bookings" />
        </section>
      )}
    </div>
  );
}
