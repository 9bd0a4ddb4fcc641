/** Booking Calendar (spec sections 2 and 4): a Sunday-to-Saturday month grid of bookings. */
import { useEffect, useMemo, useState } from 'react';
import { useStore } from '@nanostores/react';
import { adminApi, errorMessage, isUnauthorized, type AdminBooking } from '../../lib/admin-api.ts';
import {
  clientChangeWords,
  CALENDAR_EVENTS_PER_DAY,
  CALENDAR_STATUSES,
  MESSAGES,
  calendarBadge,
  eventTimeRange,
  eventsByDate,
  formatLongDate,
  formatTime,
  meetingCode,
  monthGrid,
  sessionLabel,
  shiftMonth,
  therapistLabel,
  todayAtCentre,
} from '../../lib/admin-format.ts';
import { monthName, pad2 } from '../../../../shared/domain/time.ts';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { useQuery } from '../../lib/query.ts';
import { $adminSession } from '../../stores/admin-session.ts';
import { Badge, ErrorPanel, Loading, Modal, PaymentCell, useIsMobile } from './ui.tsx';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const WEEKDAYS_LONG = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The first and last dates of a month: what the calendar asks the server for. */
export function monthBounds(year: number, month: number): { from: string; to: string } {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { from: `${year}-${pad2(month)}-01`, to: `${year}-${pad2(month)}-${pad2(last)}` };
}

/**
 * The month grid. Each event shows its client, time, type and therapist; on a phone (`compact`) a
 * cell holds only its count, and the Agenda below the grid gives the names in full.
 */
export function CalendarGrid(props: {
  year: number;
  month: number;
  today: string;
  events: Map<string, AdminBooking[]>;
  onOpenDay: (date: string) => void;
  compact?: boolean;
}) {
  const { year, month, today, events, onOpenDay, compact } = props;
  const weeks = monthGrid(year, month);
  return (
    <table className="adm-cal" aria-label={`${monthName(month)} ${year}`}>
      <thead>
        <tr>
          {WEEKDAYS.map((d, i) => (
            <th key={d} scope="col">
              <abbr title={WEEKDAYS_LONG[i]}>{d}</abbr>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week, wi) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a month grid's week and blank cells are their positions.
          <tr key={wi}>
            {week.map((date, di) => {
              // biome-ignore lint/suspicious/noArrayIndexKey: a blank day before the 1st or after the last is only its position.
              if (!date) return <td key={di} className="adm-cal__blank" />;
              const list = events.get(date) ?? [];
              const shown = list.slice(0, CALENDAR_EVENTS_PER_DAY);
              const more = list.length - shown.length;
              const dayNum = Number(date.slice(8, 10));
              const label = `${formatLongDate(date)}, ${list.length} ${list.length === 1 ? 'event' : 'events'}`;
              return (
                <td key={date} className={`adm-cal__day${date === today ? ' is-today' : ''}`} data-date={date}>
                  {list.length ? (
                    <button type="button" className="adm-cal__open" aria-label={label} onClick={() => onOpenDay(date)}>
                      <span className="adm-cal__num" aria-current={date === today ? 'date' : undefined}>
                        {dayNum}
                      </span>
                      {compact ? (
                        <span className="adm-cal__count" aria-hidden="true">
                          {list.length}
                        </span>
                      ) : (
                        <span className="adm-cal__events" aria-hidden="true">
                          {shown.map((b) => (
                            <span key={b.id} className={`adm-cal__event adm-cal__event--${b.booking_type === 'ONLINE' ? 'online' : 'offline'}`}>
                              <span className="adm-cal__client">{b.client_full_name}</span>
                              <span className="adm-cal__meta">
                                {formatTime(b.booking_time_slot_start)} · {b.booking_type === 'ONLINE' ? 'Online' : 'In-Person'}
                              </span>
                              <span className="adm-cal__meta adm-cal__therapist">{displayName(b.therapist_name ?? '')}</span>
                            </span>
                          ))}
                          {more > 0 ? <span className="adm-cal__more">+{more} more</span> : null}
                        </span>
                      )}
                    </button>
                  ) : (
                    <span className="adm-cal__num" aria-current={date === today ? 'date' : undefined}>
                      {dayNum}
                    </span>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The month's sessions as a list, day by day, with every name in full: the phone's view of the grid. */
export function Agenda(props: { year: number; month: number; events: Map<string, AdminBooking[]>; onOpenDay: (date: string) => void }) {
  const { year, month, events, onOpenDay } = props;
  const days = [...events.keys()].filter((d) => d.startsWith(`${year}-${pad2(month)}-`)).sort();
  return (
    <section className="adm-agenda" aria-labelledby="cal-agenda">
      <h3 id="cal-agenda">
        Sessions in {monthName(month)} {year}
      </h3>
      {days.length === 0 ? (
        <p className="adm-empty">No sessions this month.</p>
      ) : (
        <ul className="adm-agenda__days">
          {days.map((date) => (
            <li key={date}>
              <button type="button" className="adm-agenda__day" onClick={() => onOpenDay(date)}>
                {formatLongDate(date)}
              </button>
              <ul className="adm-agenda__events">
                {events.get(date)!.map((b) => (
                  <li key={b.id} className={`adm-agenda__event adm-cal__event--${b.booking_type === 'ONLINE' ? 'online' : 'offline'}`}>
                    <span className="adm-agenda__time">{formatTime(b.booking_time_slot_start)}</span>
                    <span className="adm-agenda__client">{b.client_full_name || '--'}</span>
                    <span className="adm-agenda__meta">
                      {sessionLabel(b.booking_type)} · {therapistLabel(b.therapist_name)}
                    </span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function EventCard({ b }: { b: AdminBooking }) {
  const badge = calendarBadge(b);
  const online = b.booking_type === 'ONLINE';
  return (
    <article className="adm-event">
      <header className="adm-event__head">
        <h3>
          {sessionLabel(b.booking_type)} session: {b.client_full_name}
        </h3>
        <PaymentCell badge={<Badge tone={badge.tone}>{badge.label}</Badge>} note={[clientChangeWords(b), b.payment_note].filter(Boolean).join(' · ') || null} />
      </header>
      <dl className="adm-event__fields">
        <div>
          <dt>Time</dt>
          <dd>{eventTimeRange(b.booking_time_slot_start)}</dd>
        </div>
        <div>
          <dt>Session Type</dt>
          <dd>{online ? 'Online' : 'In-Person'}</dd>
        </div>
        <div>
          <dt>Client</dt>
          <dd>{b.client_full_name || '--'}</dd>
        </div>
        <div>
          <dt>Therapist</dt>
          <dd>{therapistLabel(b.therapist_name)}</dd>
        </div>
        {online ? (
          <div>
            <dt>Meeting Code</dt>
            <dd>{meetingCode(b.google_meet_link)}</dd>
          </div>
        ) : (
          <div>
            <dt>Location</dt>
            <dd>{[b.location_name, b.location_address].filter(Boolean).join(', ') || 'N/A'}</dd>
          </div>
        )}
        <div>
          <dt>Client Notes</dt>
          <dd>{b.client_note?.trim() || 'None'}</dd>
        </div>
      </dl>
    </article>
  );
}

export default function Calendar(props: { onLogout: () => void }) {
  const { onLogout } = props;
  const session = useStore($adminSession);
  const today = todayAtCentre();
  const [ym, setYm] = useState(() => ({ year: Number(today.slice(0, 4)), month: Number(today.slice(5, 7)) }));
  const [openDay, setOpenDay] = useState<string | null>(null);
  const mobile = useIsMobile();
  // Checked once, when the calendar opens: an inactive account is signed out rather than shown data.
  const [active] = useState(() => session?.user?.is_active === true);
  // Only the month shown, and only what the calendar shows (spec section 4); a new month asks for its own.
  const month = useQuery('calendar', active ? ym : null, (q) =>
    adminApi.bookings({ ...monthBounds(q.year, q.month), status: CALENDAR_STATUSES, order: 'asc' }),
  );
  const unauthorized = !active || isUnauthorized(month.error);
  useEffect(() => {
    if (unauthorized) onLogout();
  }, [unauthorized, onLogout]);
  const error = !active ? MESSAGES.unauthorizedInactive : month.error ? errorMessage(month.error, MESSAGES.calendarFailed) : null;
  const loading = month.loading;
  const bookings = month.data ?? [];
  const load = active ? month.refresh : onLogout;

  const events = useMemo(() => eventsByDate(bookings), [bookings]);
  const dayEvents = openDay ? (events.get(openDay) ?? []) : [];

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Booking Calendar</h1>
          <p className="muted">View all confirmed and pending bookings.</p>
        </div>
      </header>
      {error ? (
        <ErrorPanel title="Error Loading Calendar" message={error} onRetry={load} onLogout={onLogout} />
      ) : (
        <section className="adm-panel card" aria-labelledby="cal-month">
          <div className="adm-cal__bar">
            <h2 id="cal-month" aria-live="polite">
              {monthName(ym.month)} {ym.year}
            </h2>
            <div className="btn-row">
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => setYm((v) => shiftMonth(v.year, v.month, -1))}>
                <span aria-hidden="true">‹</span> Previous
              </button>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => setYm({ year: Number(today.slice(0, 4)), month: Number(today.slice(5, 7)) })}
              >
                Today
              </button>
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => setYm((v) => shiftMonth(v.year, v.month, 1))}>
                Next <span aria-hidden="true">›</span>
              </button>
            </div>
          </div>
          {loading ? (
            <Loading label="Loading bookings..." />
          ) : (
            <>
              <CalendarGrid year={ym.year} month={ym.month} today={today} events={events} onOpenDay={setOpenDay} compact={mobile} />
              {mobile ? <Agenda year={ym.year} month={ym.month} events={events} onOpenDay={setOpenDay} /> : null}
            </>
          )}
        </section>
      )}
      {openDay ? (
        <Modal
          title={`Events on ${formatLongDate(openDay)}`}
          onClose={() => setOpenDay(null)}
          footer={
            <button type="button" className="btn btn-primary" onClick={() => setOpenDay(null)}>
              Close
            </button>
          }
        >
          <div className="adm-events">
            {dayEvents.map((b) => (
              <EventCard key={b.id} b={b} />
            ))}
          </div>
        </Modal>
      ) : null}
    </div>
  );
}
