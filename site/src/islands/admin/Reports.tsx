/**
 * Reports (spec section 2): Inventory, End of Day and Therapist Monthly, and Packages (issue 34), each with an Excel export. End
 * of Day also says each session's time, how it was paid and whether the client came (issue 31).
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { adminApi, errorMessage, packageApi } from '../../lib/admin-api.ts';
import { MESSAGES, formatAmount, formatShortDate, formatTime, todayAtCentre } from '../../lib/admin-format.ts';
import { ATTENDANCE_WORDS } from '../../../../shared/domain/attendance.ts';
import { CASH_UP_METHOD_LABELS } from '../../../../shared/domain/cash-up.ts';
import { monthName, pad2 } from '../../../../shared/domain/time.ts';
import { useQuery } from '../../lib/query.ts';
import { LedgerTable, useLedgerPage } from './LedgerTable.tsx';
import { ExportButton, Summary } from './report-parts.tsx';
import { Empty, ErrorPanel, Loading, PageSizeSelect, Pager, PaymentCell, StatusBadge, ColumnHeads } from './ui.tsx';

type Tab = 'inventory' | 'eod' | 'monthly' | 'packages';
const TABS: { key: Tab; label: string; errorName: string }[] = [
  { key: 'inventory', label: 'Inventory', errorName: 'inventory' },
  { key: 'eod', label: 'End of Day', errorName: 'end of day' },
  { key: 'monthly', label: 'Therapist Monthly', errorName: 'therapist monthly' },
  { key: 'packages', label: 'Packages', errorName: 'packages' },
];

export const MIN_REPORT_YEAR = 2020;

/** A report for `params` (a date, a month), its failure said in the report's name. */
function useReport<P, T>(name: string, params: P, load: (params: P) => Promise<T>, errorName: string) {
  const { data, loading, error, refresh } = useQuery(name, params, load);
  return { data, loading, error: error ? errorMessage(error, MESSAGES.reportFailed(errorName)) : null, refresh };
}

const inventoryFailed = (err: unknown) => errorMessage(err, MESSAGES.reportFailed('inventory'));

/** The ledger a page at a time, like Income; the Excel download holds every row. */
function InventoryTab() {
  const { data, items, loading, error, refresh, paging } = useLedgerPage('inventory-report', adminApi.inventoryPage, inventoryFailed);
  const today = todayAtCentre();
  const totalPages = Math.max(1, Math.ceil(paging.total / paging.pageSize));
  return (
    <>
      <div className="adm-panel__head">
        <h2>Inventory Report</h2>
        <div className="adm-panel__tools">
          <PageSizeSelect value={paging.pageSize} label="Rows per page" onChange={paging.onPageSize} />
          <ExportButton workbook={adminApi.inventoryWorkbook} fileName={`Inventory_Report_${today}.xlsx`} hasData={(data?.total ?? 0) > 0} />
        </div>
      </div>
      {error ? (
        <ErrorPanel title="Error Loading Report" message={error} onRetry={refresh} />
      ) : loading && !data ? (
        <Loading />
      ) : (
        <>
          <Summary
            items={[
              ['Total Income', formatAmount(data?.total_amount)],
              // Payments and refunds, every page's: the ledger's rows.
              ['Entries', String(data?.total ?? 0)],
              ...(Number(data?.total_refunded ?? 0) > 0 ? ([['Refunded', formatAmount(data?.total_refunded)]] as [string, string][]) : []),
            ]}
          />
          {loading ? <Loading /> : items.length === 0 ? <Empty>No inventory data available.</Empty> : <LedgerTable rows={items} label="Inventory payments" />}
          <Pager page={Math.min(paging.page, totalPages)} totalPages={totalPages} onPage={paging.onPage} label="Inventory" />
        </>
      )}
    </>
  );
}

function EodTab() {
  const [date, setDate] = useState(todayAtCentre);
  const dateId = useId();
  const { data, loading, error, refresh } = useReport('eod-report', { date }, (q) => adminApi.eodReport(q.date), 'end of day');
  const details = data?.details ?? [];
  return (
    <>
      <div className="adm-panel__head">
        <h2>End of Day Report</h2>
        <ExportButton workbook={() => adminApi.eodWorkbook(date)} fileName={`EOD_Report_${date}.xlsx`} hasData={details.length > 0} />
      </div>
      <div className="field adm-inline-field">
        <label className="label" htmlFor={dateId}>
          Report date
        </label>
        <input id={dateId} className="input" type="date" value={date} onChange={(e) => e.target.value && setDate(e.target.value)} />
      </div>
      {loading ? (
        <Loading />
      ) : error ? (
        <ErrorPanel title="Error Loading Report" message={error} onRetry={refresh} />
      ) : (
        <>
          <Summary
            items={[
              ['Report Date', formatShortDate(data?.report_date ?? date)],
              ['Total Bookings', String(data?.total_bookings_today ?? 0)],
              // Sessions that take place, apart from online holds still waiting for their payment.
              ['Booked Sessions', String(data?.booked_sessions_today ?? 0)],
              ['Unpaid Holds', String(data?.unpaid_holds_today ?? 0)],
              ['Completed', String(data?.completed_bookings_today ?? 0)],
              ['Cancelled', String(data?.cancelled_bookings_today ?? 0)],
              ['Total Income', formatAmount(data?.total_income_today)],
              ...(Number(data?.total_refunded_today ?? 0) > 0 ? ([['Refunded', formatAmount(data?.total_refunded_today)]] as [string, string][]) : []),
            ]}
          />
          {details.length === 0 ? (
            <Empty>No bookings for this date.</Empty>
          ) : (
            <div className="adm-table-wrap" role="region" aria-label="End of day bookings" tabIndex={0}>
              <table className="adm-table">
                <thead>
                  <tr>
                    <ColumnHeads
                      cols={[
                        'Booking ID',
                        'Time',
                        'Client Name',
                        'Therapist',
                        'Service ID',
                        'Payment Status',
                        'Cancelled',
                        { num: 'Amount' },
                        { num: 'Paid' },
                        'Method',
                        'Attendance',
                      ]}
                    />
                  </tr>
                </thead>
                <tbody>
                  {details.map((d) => (
                    <tr key={d.booking_id}>
                      <td>{d.booking_id}</td>
                      <td className="adm-nowrap">{formatTime(d.session_time)}</td>
                      <td>{d.client_name || '--'}</td>
                      <td>{d.therapist_name || '--'}</td>
                      <td>{d.service_id ?? '--'}</td>
                      <td>
                        <PaymentCell
                          badge={<StatusBadge status={d.payment_status} />}
                          note={d.payment_status === 'INITIATED' && !d.cancelled ? 'Unpaid hold' : null}
                        />
                      </td>
                      <td>{d.cancelled ? 'Yes' : 'No'}</td>
                      <td className="num">{formatAmount(d.amount)}</td>
                      <td className="num">
                        {formatAmount(Number(d.amount_paid) - Number(d.amount_refunded))}
                        {Number(d.amount_refunded) > 0 ? <span className="adm-pay-note"> (refunded {formatAmount(d.amount_refunded)})</span> : null}
                      </td>
                      <td>{d.payment_methods.length ? d.payment_methods.map((m) => CASH_UP_METHOD_LABELS[m]).join(', ') : '--'}</td>
                      <td>{d.attendance ? ATTENDANCE_WORDS[d.attendance] : '--'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </>
  );
}

function MonthlyTab() {
  const today = todayAtCentre();
  const currentYear = Number(today.slice(0, 4));
  const maxYear = currentYear + 5;
  const [year, setYear] = useState(currentYear);
  const [yearText, setYearText] = useState(String(currentYear));
  const [month, setMonth] = useState(Number(today.slice(5, 7)));
  const yearId = useId();
  const monthId = useId();
  const { data, loading, error, refresh } = useReport('monthly-report', { year, month }, (q) => adminApi.monthlyReport(q.year, q.month), 'therapist monthly');
  const rows = data?.therapist_performance ?? [];
  const yearValid = /^\d{4}$/.test(yearText) && Number(yearText) >= MIN_REPORT_YEAR && Number(yearText) <= maxYear;
  return (
    <>
      <div className="adm-panel__head">
        <h2>Therapist Monthly Report</h2>
        <ExportButton
          workbook={() => adminApi.monthlyWorkbook(year, month)}
          fileName={`Therapist_Monthly_Report_${year}-${pad2(month)}.xlsx`}
          hasData={rows.length > 0}
        />
      </div>
      <div className="adm-inline-fields">
        <div className="field adm-inline-field">
          <label className="label" htmlFor={yearId}>
            Year
          </label>
          <input
            id={yearId}
            className="input"
            type="number"
            min={MIN_REPORT_YEAR}
            max={maxYear}
            value={yearText}
            aria-invalid={!yearValid || undefined}
            aria-describedby={!yearValid ? `${yearId}-err` : undefined}
            onChange={(e) => {
              setYearText(e.target.value);
              const y = Number(e.target.value);
              if (/^\d{4}$/.test(e.target.value) && y >= MIN_REPORT_YEAR && y <= maxYear) setYear(y);
            }}
          />
          {!yearValid ? (
            <span id={`${yearId}-err`} className="error-text">
              Enter a year from {MIN_REPORT_YEAR} to {maxYear}.
            </span>
          ) : null}
        </div>
        <div className="field adm-inline-field">
          <label className="label" htmlFor={monthId}>
            Month
          </label>
          <select id={monthId} className="select" value={month} onChange={(e) => setMonth(Number(e.target.value))}>
            {Array.from({ length: 12 }, (_, i) => i + 1).map((m) => (
              <option key={m} value={m}>
                {monthName(m)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {loading ? (
        <Loading />
      ) : error ? (
        <ErrorPanel title="Error Loading Report" message={error} onRetry={refresh} />
      ) : (
        <>
          <Summary
            items={[
              ['Period', `${monthName(month)} ${year}`],
              ['Total Sessions', String(rows.reduce((n, r) => n + r.total_sessions, 0))],
              ['Total Income', formatAmount(rows.reduce((n, r) => n + Number(r.total_income), 0))],
              ...(rows.some((r) => Number(r.total_refunded) > 0)
                ? ([['Refunded', formatAmount(rows.reduce((n, r) => n + Number(r.total_refunded), 0))]] as [string, string][])
                : []),
            ]}
          />
          {rows.length === 0 ? (
            <Empty>No therapist data for this month.</Empty>
          ) : (
            <div className="adm-table-wrap" role="region" aria-label="Therapist performance" tabIndex={0}>
              <table className="adm-table">
                <thead>
                  <tr>
                    <ColumnHeads
                      cols={[
                        'Therapist ID',
                        'Therapist Name',
                        { num: 'Total Sessions' },
                        { num: 'Completed' },
                        { num: 'Missed / Cancelled' },
                        { num: 'Attended' },
                        { num: 'No-show' },
                        { num: 'Total Income' },
                      ]}
                    />
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.therapist_id}>
                      <td>{r.therapist_id}</td>
                      <td>{r.therapist_name}</td>
                      <td className="num">{r.total_sessions}</td>
                      <td className="num">{r.completed_sessions}</td>
                      <td className="num">{r.missed_or_cancelled_sessions}</td>
                      <td className="num">{r.attended_sessions ?? 0}</td>
                      <td className="num">{r.no_show_sessions ?? 0}</td>
                      <td className="num">{formatAmount(r.total_income)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </>
  );
}

/**
 * Packages (issue 34): sold in the period (this month so far unless changed), and now: sessions used,
 * left, expired and refunded, those expiring within 30 days, and the money received for sessions not
 * yet given (deferred income).
 */
function PackagesTab() {
  const today = todayAtCentre();
  const [range, setRange] = useState({ from: `${today.slice(0, 8)}01`, to: today });
  const fromId = useId();
  const toId = useId();
  const { data, loading, error, refresh } = useReport('packages-report', range, (q) => packageApi.report(q.from, q.to), 'packages');
  return (
    <>
      <div className="adm-panel__head">
        <h2>Packages Report</h2>
        <ExportButton workbook={() => packageApi.reportWorkbook(range.from, range.to)} fileName={`Packages_Report_${range.from}_${range.to}.xlsx`} hasData />
      </div>
      <div className="btn-row">
        <div className="field adm-inline-field">
          <label className="label" htmlFor={fromId}>
            Sold from
          </label>
          <input
            id={fromId}
            className="input"
            type="date"
            value={range.from}
            onChange={(e) => e.target.value && setRange((r) => ({ ...r, from: e.target.value }))}
          />
        </div>
        <div className="field adm-inline-field">
          <label className="label" htmlFor={toId}>
            to
          </label>
          <input id={toId} className="input" type="date" value={range.to} onChange={(e) => e.target.value && setRange((r) => ({ ...r, to: e.target.value }))} />
        </div>
      </div>
      {loading && !data ? (
        <Loading />
      ) : error ? (
        <ErrorPanel title="Error Loading Report" message={error} onRetry={refresh} />
      ) : data ? (
        <>
          <Summary
            items={[
              ['Packages Sold', String(data.totals.sales)],
              ['Sold For', formatAmount(data.totals.amount)],
              ['Sessions Used', String(data.credits.used)],
              ['Sessions Left', String(data.credits.left)],
              ['Sessions Expired', String(data.credits.expired)],
              ['Sessions Refunded', String(data.credits.refunded)],
              ['Deferred Income', formatAmount(data.deferred)],
            ]}
          />
          {data.sold.length === 0 ? (
            <Empty>No package sold in this period.</Empty>
          ) : (
            <div className="adm-table-wrap" role="region" aria-label="Packages sold" tabIndex={0}>
              <table className="adm-table">
                <thead>
                  <tr>
                    <ColumnHeads cols={['Package', { num: 'Sold' }, { num: 'Sessions' }, { num: 'Amount' }]} />
                  </tr>
                </thead>
                <tbody>
                  {data.sold.map((r) => (
                    <tr key={r.package_id}>
                      <td>{r.package_name}</td>
                      <td className="num">{r.sales}</td>
                      <td className="num">{r.sessions}</td>
                      <td className="num">{formatAmount(r.amount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>Expiring within 30 days</h3>
          {data.expiring.length === 0 ? (
            <Empty>No package with sessions left expires within 30 days.</Empty>
          ) : (
            <ul className="adm-cards">
              {data.expiring.map((e) => (
                <li key={e.sale_id}>
                  Sale {e.sale_id}: {e.client_full_name}, {e.package_name}: {e.sessions_left} left until {formatShortDate(e.expires_on)}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </>
  );
}

export default function Reports() {
  const [tab, setTab] = useState<Tab>('inventory');
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ inventory: null, eod: null, monthly: null, packages: null });
  const baseId = useId();

  function onKeyDown(e: KeyboardEvent) {
    const i = TABS.findIndex((t) => t.key === tab);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % TABS.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + TABS.length) % TABS.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = TABS.length - 1;
    if (next < 0) return;
    e.preventDefault();
    const key = TABS[next]!.key;
    setTab(key);
    tabRefs.current[key]?.focus();
  }

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Reports</h1>
          <p className="muted">Payments, daily activity and therapist performance.</p>
        </div>
      </header>
      <div className="adm-tabs" role="tablist" aria-label="Reports" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.key}
            ref={(el) => {
              tabRefs.current[t.key] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${t.key}`}
            aria-selected={tab === t.key}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab === t.key ? 0 : -1}
            className="adm-tab"
            onClick={() => setTab(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <section className="adm-panel card" role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${tab}`}>
        {tab === 'inventory' ? <InventoryTab /> : tab === 'eod' ? <EodTab /> : tab === 'monthly' ? <MonthlyTab /> : <PackagesTab />}
      </section>
    </div>
  );
}
