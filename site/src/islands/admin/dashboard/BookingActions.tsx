/** A booking row's buttons: attendance, Record payment, Unblock or Cancel, and Payment link (its panel: Copy and Send). */
import { ATTENDANCE_WORDS, attendanceOpen } from '../../../../../shared/domain/attendance.ts';
import { centreNow } from '../../../../../shared/domain/time.ts';
import type { AdminBooking } from '../../../lib/admin-api.ts';
import { canCancel, canRecordPayment, canSendLink, canUnblock } from '../../../lib/admin-format.ts';
import type { NoticeAt } from './notice.ts';
import type { DashboardActions } from './useDashboardActions.ts';

export function BookingActions(props: { booking: AdminBooking; at: NoticeAt; today: string; actions: DashboardActions }) {
  const { booking: b, at, today, actions } = props;
  const { busy } = actions;
  const unblock = canUnblock(b);
  const cancel = !unblock && canCancel(b, today);
  const link = canSendLink(b);
  const pay = canRecordPayment(b);
  // A session that has started: the desk says whether the client came (and may correct it).
  const attend = attendanceOpen(
    { bookingType: b.booking_type, cancelled: b.cancelled, paymentStatus: b.payment_status, bookingDate: b.booking_date, start: b.booking_time_slot_start },
    centreNow(),
  );
  if (!unblock && !cancel && !link && !pay && !attend) return <span className="muted">--</span>;
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
    </div>
  );
}
