/**
 * A booking row's buttons: attendance, Record payment, Unblock or Cancel, Payment link (its panel: Copy
 * and Send), and for a session of a series its series (the sessions together, cancel or move this and following).
 */
import { lazy, Suspense, useState } from 'react';
import { ATTENDANCE_WORDS, attendanceOpen } from '../../../../../shared/domain/attendance.ts';
import { centreNow } from '../../../../../shared/domain/time.ts';
import type { AdminBooking } from '../../../lib/admin-api.ts';
import { canCancel, canRecordPayment, canSendLink, canUnblock } from '../../../lib/admin-format.ts';
import type { NoticeAt } from './notice.ts';
import type { DashboardActions } from './useDashboardActions.ts';

const SeriesSessions = lazy(() => import('../SeriesSessions.tsx'));

export function BookingActions(props: { booking: AdminBooking; at: NoticeAt; today: string; actions: DashboardActions }) {
  const { booking: b, at, today, actions } = props;
  const { busy } = actions;
  const [seriesOpen, setSeriesOpen] = useState(false);
  const unblock = canUnblock(b);
  const cancel = !unblock && canCancel(b, today);
  const link = canSendLink(b);
  const pay = canRecordPayment(b);
  // A session that has started: the desk says whether the client came (and may correct it).
  const attend = attendanceOpen(
    { bookingType: b.booking_type, cancelled: b.cancelled, paymentStatus: b.payment_status, bookingDate: b.booking_date, start: b.booking_time_slot_start },
    centreNow(),
  );
  const inSeries = b.series_id != null;
  if (!unblock && !cancel && !link && !pay && !attend && !inSeries) return <span className="muted">--</span>;
  const button = (tone: string, label: string, onClick: () => void, text: string) => (
    <button type="button" className={`btn btn-sm btn-${tone}`} disabled={busy !== null} aria-label={label} onClick={onClick}>
      {text}
    </button>
  );
  return (
    <div className="adm-btns">
      {attend
        ? (['ATTENDED', 'NO_SHOW'] as const).map((status) => (
            <button
              key={status}
              type="button"
              className={`btn btn-sm ${b.attendance === status ? 'btn-primary' : 'btn-secondary'}`}
              disabled={busy !== null}
              aria-pressed={b.attendance === status}
              aria-label={`Mark booking ${b.id} ${ATTENDANCE_WORDS[status].toLowerCase()}`}
              onClick={() => actions.markAttendance(b, status, at)}
            >
              {ATTENDANCE_WORDS[status]}
            </button>
          ))
        : null}
      {pay
        ? button('primary', `Record payment for booking ${b.id}`, () => actions.startPayment(b, at), busy === `pay-${b.id}` ? 'Recording...' : 'Record payment')
        : null}
      {unblock ? button('warn', `Unblock booking ${b.id}`, () => actions.startCancel(b, at), 'Unblock') : null}
      {cancel ? button('danger', `Cancel booking ${b.id}`, () => actions.startCancel(b, at), 'Cancel') : null}
      {link ? button('secondary', `Payment link for booking ${b.id}`, () => actions.startLink(b, at), 'Payment link') : null}
      {inSeries ? button('secondary', `Series of booking ${b.id}`, () => setSeriesOpen(true), 'Series') : null}
      {seriesOpen ? (
        <Suspense fallback={null}>
          <SeriesSessions
            booking={b}
            onClose={() => setSeriesOpen(false)}
            onChanged={(text) => {
              setSeriesOpen(false);
              actions.seriesChanged(text, at);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
