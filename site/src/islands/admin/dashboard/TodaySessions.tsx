/**
 * Today (issue 31, item 7): what the dashboard opens on. Each of today's sessions at the centre, in
 * time order, with its client and a number to tap and call, the therapist, the payment in words
 * beside the spec's badge, and the same actions as every booking list (BookingActions): an action
 * added there is offered here too. Cards on a phone, a table on a wide screen.
 */
import { Fragment, useId, type ReactNode } from 'react';
import { formatMobile, mobileTelHref } from '../../../../../shared/domain/contact.ts';
import { clientOfferDates } from '../../../../../shared/domain/slots.ts';
import { displayName } from '../../../../../shared/domain/therapist.ts';
import { addDays } from '../../../../../shared/domain/time.ts';
import { adminApi, errorMessage, type AdminBooking } from '../../../lib/admin-api.ts';
import {
  paymentStateWords,
  CALENDAR_STATUSES,
  MESSAGES,
  formatLongDate,
  formatShortDate,
  formatTime,
  paymentStateTone,
  sessionCount,
  sessionLabel,
  todaysSessions,
} from '../../../lib/admin-format.ts';
import { useQuery } from '../../../lib/query.ts';
import { Loading, useIsMobile } from '../ui.tsx';
import { BookingActions } from './BookingActions.tsx';
import { statusCellWithoutWords } from './BookingLists.tsx';
import { useNoticeTakesLostFocus, type NoticeAt } from './notice.ts';
import type { DashboardActions } from './useDashboardActions.ts';

const TODAY_EMPTY = 'No sessions today.';

type Props = { today: string; version: number; actions: DashboardActions; notice: ReactNode; onRetry: () => void };

/** The payment in words (shared/domain/payment-state.ts), then the spec's badge and any note beside it. */
function Payment({ b }: { b: AdminBooking }) {
  return (
    <span className="adm-day__pay">
      <span className={`adm-day__words adm-day__words--${paymentStateTone(b.payment_state)}`}>{paymentStateWords(b)}</span>
      {statusCellWithoutWords(b)}
    </span>
  );
}

/** The client's number as a link that dials it, named for who is called. */
function Phone({ b }: { b: AdminBooking }) {
  if (!b.client_mobile) return <span className="muted">--</span>;
  const shown = formatMobile(b.client_mobile);
  return (
    <a className="adm-day__tel" href={mobileTelHref(b.client_mobile)} aria-label={`Call ${b.client_full_name || 'the client'} on ${shown}`}>
      <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16" focusable="false">
        <path
          fill="currentColor"
          d="M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.6a1 1 0 0 1-.25 1z"
        />
      </svg>
      <span>{shown}</span>
    </a>
  );
}

/** 'In-Person · West Branch', 'Online'. */
function where(b: AdminBooking): string {
  return [sessionLabel(b.booking_type), b.booking_type === 'OFFLINE' ? b.location_name : null].filter(Boolean).join(' · ');
}

/** On a quiet day: how many sessions the next working day (not a Sunday) holds. */
function NextDay({ today }: { today: string }) {
  const next = clientOfferDates(addDays(today, 1), 1)[0]!;
  const ahead = useQuery('today-next-day', { next }, (q) =>
    adminApi.bookingsPage({ from: q.next, to: q.next, status: CALENDAR_STATUSES, page: 1, page_size: 1 }),
  );
  if (!ahead.data) return null;
  return (
    <p className="adm-day__next muted">
      Next working day, {formatShortDate(next)}: {ahead.data.total === 0 ? 'nothing booked yet' : sessionCount(ahead.data.total)}.
    </p>
  );
}

export function TodaySessions(props: Props) {
  const { today, version, actions, notice, onRetry } = props;
  const headingId = useId();
  const mobile = useIsMobile();
  // The admin bookings list, asked for today only: the sessions that will happen (what the calendar
  // shows: no block, nothing cancelled or failed), earliest first.
  const day = useQuery('today-sessions', { today, version }, (q) => adminApi.bookings({ from: q.today, to: q.today, status: CALENDAR_STATUSES, order: 'asc' }));
  const items = day.error || !day.data ? [] : todaysSessions(day.data);
  useNoticeTakesLostFocus(actions.message, items);
  const m = actions.message;
  const at = m?.at.kind === 'row' && m.at.table === 'today' ? m.at : null;
  // An action's message goes under its session, or where the session was once it has left the list.
  const noticeAfter = at ? items.findIndex((b) => b.id === at.id) : -1;
  const noticeBefore = at && noticeAfter < 0 ? Math.min(at.index, items.length) : -1;
  const rowAt = (b: AdminBooking, index: number): NoticeAt => ({ kind: 'row', table: 'today', id: b.id, index });
  const buttons = (b: AdminBooking, i: number) => <BookingActions booking={b} today={today} actions={actions} at={rowAt(b, i)} />;

  let body: ReactNode;
  if (day.error) {
    body = (
      <div className="adm-attn__error" role="alert">
        <p className="error-text">{errorMessage(day.error, MESSAGES.adminDataFailed)}</p>
        <button type="button" className="btn btn-sm btn-secondary" onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  } else if (!day.data) {
    body = <Loading label="Loading today's sessions..." />;
  } else if (items.length === 0) {
    body = (
      <div className="adm-day__empty">
        {at ? <div className="adm-row-notice">{notice}</div> : null}
        <p className="adm-day__none">{TODAY_EMPTY}</p>
        <NextDay today={today} />
      </div>
    );
  } else if (mobile) {
    body = (
      <ol className="adm-day__cards" aria-label="Today's sessions">
        {items.map((b, i) => (
          <Fragment key={b.id}>
            {i === noticeBefore ? <li className="adm-day__card adm-card--notice">{notice}</li> : null}
            <li className="adm-day__card">
              <div className="adm-day__when">
                <span className="adm-day__time">{formatTime(b.booking_time_slot_start)}</span>
                <span className="adm-day__where">{where(b)}</span>
              </div>
              <p className="adm-day__client">{b.client_full_name || '--'}</p>
              <Phone b={b} />
              <dl className="adm-day__facts">
                <div>
                  <dt>Therapist</dt>
                  <dd>{displayName(b.therapist_name ?? '') || '--'}</dd>
                </div>
                <div>
                  <dt>Payment</dt>
                  <dd>
                    <Payment b={b} />
                  </dd>
                </div>
              </dl>
              <div className="adm-day__actions">{buttons(b, i)}</div>
              {i === noticeAfter ? <div className="adm-card__notice">{notice}</div> : null}
            </li>
          </Fragment>
        ))}
        {noticeBefore === items.length ? <li className="adm-day__card adm-card--notice">{notice}</li> : null}
      </ol>
    );
  } else {
    const noticeRow = (
      <tr className="adm-row-notice">
        <td colSpan={5}>{notice}</td>
      </tr>
    );
    body = (
      <div className="adm-table-wrap" role="region" aria-label="Today's sessions table" tabIndex={0}>
        <table className="adm-table adm-day__table">
          <thead>
            <tr>
              <th scope="col">Time (IST)</th>
              <th scope="col">Client and phone</th>
              <th scope="col">Therapist</th>
              <th scope="col">Payment</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {items.map((b, i) => (
              <Fragment key={b.id}>
                {i === noticeBefore ? noticeRow : null}
                <tr>
                  <td className="adm-day__time">{formatTime(b.booking_time_slot_start)}</td>
                  <td>
                    <span className="adm-day__client">{b.client_full_name || '--'}</span>
                    <Phone b={b} />
                    <span className="adm-day__where">{where(b)}</span>
                  </td>
                  <td>{displayName(b.therapist_name ?? '') || '--'}</td>
                  <td>
                    <Payment b={b} />
                  </td>
                  <td className="adm-actions">{buttons(b, i)}</td>
                </tr>
                {i === noticeAfter ? noticeRow : null}
              </Fragment>
            ))}
            {noticeBefore === items.length ? noticeRow : null}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <section className="adm-panel card adm-day" aria-labelledby={headingId}>
      <div className="adm-day__head">
        <div className="adm-day__title">
          <h2 id={headingId}>Today</h2>
          {day.data && !day.error ? <span className="adm-day__count">{sessionCount(items.length)}</span> : null}
        </div>
        <p className="adm-day__date">{formatLongDate(today)} · times in IST</p>
      </div>
      {body}
    </section>
  );
}
