/**
 * Cash-up (issue 31): the day's money by when it was taken or handed back, for any admin. Each
 * method's Taken / Refunded / Net to count the till and the card machine against, and every movement
 * (tables on wide screens, lines and cards on phones). Printable: the sidebar and the controls stay off paper.
 */
import { useId, useState } from 'react';
import { CASH_UP_METHOD_LABELS } from '../../../../shared/domain/cash-up.ts';
import { adminApi, errorMessage, type CashUpMovement, type CashUpReport } from '../../lib/admin-api.ts';
import { formatAmount, formatLongDate, formatShortDate, formatTime, todayAtCentre } from '../../lib/admin-format.ts';
import { useQuery } from '../../lib/query.ts';
import { METHOD_WORDS } from './LedgerTable.tsx';
import { ExportButton } from './report-parts.tsx';
import { Empty, ErrorPanel, Loading, useIsMobile, ColumnHeads } from './ui.tsx';

const FAILED = 'Failed to load the cash-up.';

/** An amount, a refund's in the danger colour (it is negative). */
function Amount({ value }: { value: number }) {
  return value < 0 ? <span className="adm-amount--refund">{formatAmount(value)}</span> : formatAmount(value);
}

/** How the money moved: the desk's method, or Online with what the client paid with. */
function methodWords(m: CashUpMovement): string {
  const label = CASH_UP_METHOD_LABELS[m.method];
  return m.method === 'ONLINE' && m.paid_with !== 'OTHER' ? `${label} (${METHOD_WORDS[m.paid_with]})` : label;
}

/** The session the money is for; a package sale's money (issue 34) is for no one session. */
const session = (m: CashUpMovement) =>
  m.session_date && m.session_time ? `${formatShortDate(m.session_date)}, ${formatTime(m.session_time)}` : `Package sale ${m.package_sale_id}`;
const bookingOf = (m: CashUpMovement) => (m.booking_id === null ? '--' : String(m.booking_id));

type Totals = { taken: number; refunded: number; net: number };

/** A refund total as the money going out: negative, in the danger colour. */
const refundedCell = (t: Totals) => (t.refunded > 0 ? <span className="adm-amount--refund">{formatAmount(-t.refunded)}</span> : formatAmount(0));

/** On a phone each method is a line of its own: its name, then Taken, Refunded and Net side by side. */
function MethodLines({ report }: { report: CashUpReport }) {
  const item = (label: string, t: Totals, total = false) => (
    <li key={label} className={total ? 'adm-cashup__line adm-cashup__line--total' : 'adm-cashup__line'}>
      <span className="adm-cashup__method">{label}</span>
      <dl>
        <div>
          <dt>Taken</dt>
          <dd>{formatAmount(t.taken)}</dd>
        </div>
        <div>
          <dt>Refunded</dt>
          <dd>{refundedCell(t)}</dd>
        </div>
        <div>
          <dt>Net</dt>
          <dd>
            <strong>{formatAmount(t.net)}</strong>
          </dd>
        </div>
      </dl>
    </li>
  );
  return (
    <ul className="adm-cashup__lines" aria-label="Totals by method">
      {report.methods.map((m) => item(m.label, m))}
      {item('At the desk', report.at_desk, true)}
      {item('Total', report.total, true)}
    </ul>
  );
}

function MethodTable({ report }: { report: CashUpReport }) {
  const mobile = useIsMobile();
  if (mobile) return <MethodLines report={report} />;
  const row = (label: string, t: Totals, total = false) => (
    <tr key={label} className={total ? 'adm-cashup__total' : undefined}>
      <th scope="row">{label}</th>
      <td className="num">{formatAmount(t.taken)}</td>
      <td className="num">{refundedCell(t)}</td>
      <td className="num">
        <strong>{formatAmount(t.net)}</strong>
      </td>
    </tr>
  );
  return (
    <div className="adm-table-wrap adm-cashup__methods" role="region" aria-label="Totals by method" tabIndex={0}>
      <table className="adm-table">
        <thead>
          <tr>
            <ColumnHeads cols={['Method', { num: 'Taken' }, { num: 'Refunded' }, { num: 'Net' }]} />
          </tr>
        </thead>
        <tbody>{report.methods.map((m) => row(m.label, m))}</tbody>
        <tfoot>
          {row('At the desk', report.at_desk, true)}
          {row('Total', report.total, true)}
        </tfoot>
      </table>
    </div>
  );
}

function Movements({ movements }: { movements: CashUpMovement[] }) {
  const mobile = useIsMobile();
  if (movements.length === 0) return <Empty>No money was taken or refunded on this day.</Empty>;
  if (mobile) {
    return (
      <ul className="adm-cards" aria-label="Movements">
        {movements.map((m) => (
          <li key={m.id} className="adm-card">
            <dl>
              <div className="adm-card__row adm-card__row--primary">
                <dt>{formatTime(m.time)}</dt>
                <dd>
                  <Amount value={m.amount} />
                </dd>
              </div>
              <div className="adm-card__row">
                <dt>Client</dt>
                <dd>{m.client_name || '--'}</dd>
              </div>
              <div className="adm-card__row">
                <dt>Booking</dt>
                <dd>
                  {bookingOf(m)} · {session(m)}
                </dd>
              </div>
              <div className="adm-card__row">
                <dt>{m.kind === 'REFUND' ? 'Refund' : 'Payment'}</dt>
                <dd>{methodWords(m)}</dd>
              </div>
              <div className="adm-card__row">
                <dt>Recorded by</dt>
                <dd>{m.recorded_by}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="adm-table-wrap" role="region" aria-label="Movements table" tabIndex={0}>
      <table className="adm-table">
        <thead>
          <tr>
            <ColumnHeads cols={['Time', 'Booking', 'Client', 'Session', 'Type', 'Method', { num: 'Amount' }, 'Recorded by']} />
          </tr>
        </thead>
        <tbody>
          {movements.map((m) => (
            <tr key={m.id}>
              <td className="adm-nowrap">{formatTime(m.time)}</td>
              <td>{bookingOf(m)}</td>
              <td>{m.client_name || '--'}</td>
              <td className="adm-nowrap">{session(m)}</td>
              <td>{m.kind === 'REFUND' ? 'Refund' : 'Payment'}</td>
              <td>{methodWords(m)}</td>
              <td className="num">
                <Amount value={m.amount} />
              </td>
              <td>{m.recorded_by}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function CashUp() {
  const [date, setDate] = useState(todayAtCentre);
  const dateId = useId();
  const { data, loading, error, refresh } = useQuery('cash-up', { date }, (q) => adminApi.cashUp(q.date));
  return (
    <div className="adm-page adm-cashup">
      <header className="adm-page__head">
        <div>
          <h1>Cash-up</h1>
          <p className="muted">Money taken and handed back on the day, by method: count the till against it.</p>
        </div>
        <div className="adm-panel__tools adm-no-print">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => window.print()}>
            Print
          </button>
          <ExportButton workbook={() => adminApi.cashUpWorkbook(date)} fileName={`Cash_Up_${date}.xlsx`} hasData={(data?.movements.length ?? 0) > 0} />
        </div>
      </header>
      <div className="field adm-inline-field adm-no-print">
        <label className="label" htmlFor={dateId}>
          Day
        </label>
        <input id={dateId} className="input" type="date" value={date} onChange={(e) => e.target.value && setDate(e.target.value)} />
      </div>
      {error ? (
        <ErrorPanel title="Error Loading Cash-up" message={errorMessage(error, FAILED)} onRetry={refresh} />
      ) : loading || !data ? (
        <Loading label="Loading the cash-up..." />
      ) : (
        <>
          <section className="adm-panel card" aria-labelledby={`${dateId}-totals`}>
            <div className="adm-panel__head">
              <h2 id={`${dateId}-totals`}>{formatLongDate(data.date)}</h2>
            </div>
            <MethodTable report={data} />
          </section>
          <section className="adm-panel card" aria-labelledby={`${dateId}-moves`}>
            <div className="adm-panel__head">
              <h2 id={`${dateId}-moves`}>Movements</h2>
              {data.movements.length ? (
                <p className="muted adm-cashup__count">
                  {data.movements.length === 1 ? '1 movement' : `${data.movements.length} movements`}, oldest first (times in IST)
                </p>
              ) : null}
            </div>
            <Movements movements={data.movements} />
          </section>
        </>
      )}
    </div>
  );
}
