/**
 * A series' sessions together (issue 34), opened from one of its bookings: each session's date, time and
 * state, and the series actions from that booking's date: cancel this session or it and every following
 * one (a paid session needs the money decision, as a single cancel does), or move them to another time
 * on their own dates. A move that meets taken or closed slots lists each with the nearest free time and
 * moves nothing.
 */
import { useId, useState } from 'react';
import { adminApi, errorMessage, type AdminBooking, type CancelRefund, type SeriesConflict } from '../../lib/admin-api.ts';
import { formatLongDate, formatTime } from '../../lib/admin-format.ts';
import { useQuery } from '../../lib/query.ts';
import { SeriesConflicts } from './SeriesConflicts.tsx';
import { FieldError, Loading, Modal, StatusBadge } from './ui.tsx';

type Scope = 'this' | 'following';
type Money = 'FULL' | 'NONE' | 'REQUEST';

export default function SeriesSessions(props: { booking: AdminBooking; onClose: () => void; onChanged: (message: string) => void }) {
  const { booking, onClose, onChanged } = props;
  const seriesId = booking.series_id!;
  const idp = useId();
  const detail = useQuery('series', { seriesId }, (q) => adminApi.series(q.seriesId));
  const [scope, setScope] = useState<Scope>('following');
  const [time, setTime] = useState('');
  const [money, setMoney] = useState<Money>('FULL');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<{ detail: string; items: SeriesConflict[] } | null>(null);
  const sessions = detail.data?.sessions ?? [];
  const affected = sessions.filter(
    (s) => !s.cancelled && (scope === 'this' ? s.booking_date === booking.booking_date : s.booking_date >= booking.booking_date),
  );
  const paid = affected.some((s) => s.amount_paid - s.amount_refunded > 0);

  async function act(work: () => Promise<string | null>) {
    setBusy(true);
    setFailure(null);
    setConflicts(null);
    try {
      const done = await work();
      if (done) onChanged(done);
    } catch (err) {
      setFailure(errorMessage(err, 'The series could not be changed. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  const cancel = () =>
    act(async () => {
      const refund: CancelRefund | undefined = !paid ? undefined : money === 'FULL' ? { refund: 'FULL' } : { refund: money, reason: reason.trim() };
      const res = await adminApi.cancelSeries(seriesId, { from_date: booking.booking_date, scope, ...(refund ? { refund } : {}) });
      return res.message;
    });
  const move = () =>
    act(async () => {
      if (!/^\d{2}:\d{2}$/.test(time)) {
        setFailure('Choose the new time.');
        return null;
      }
      const answer = await adminApi.moveSeries(seriesId, { from_date: booking.booking_date, scope, booking_time_slot_start: time });
      if (answer.ok) return answer.body.message;
      setConflicts({ detail: answer.conflict.detail, items: answer.conflict.conflicts });
      return null;
    });

  return (
    <Modal title={`Series ${seriesId}`} onClose={onClose} wide>
      {detail.error ? (
        <p className="adm-notice adm-notice--error" role="alert">
          {errorMessage(detail.error, 'The series could not be loaded.')}
        </p>
      ) : !detail.data ? (
        <Loading label="Loading series..." />
      ) : (
        <>
          <p className="muted">
            {detail.data.client_full_name}, every {detail.data.interval_weeks === 1 ? 'week' : 'two weeks'}: {sessions.length} sessions
          </p>
          <ol className="adm-series">
            {sessions.map((s) => (
              <li key={s.id} aria-current={s.id === booking.id ? 'true' : undefined}>
                {formatLongDate(s.booking_date)} at {formatTime(s.booking_time_slot_start)}{' '}
                <StatusBadge status={s.cancelled ? 'CANCELLED' : s.payment_status} />
                {s.id === booking.id ? <strong> (this booking)</strong> : null}
              </li>
            ))}
          </ol>
          <fieldset className="field">
            <legend className="label">Which sessions</legend>
            <label className="adm-radio">
              <input type="radio" name={`${idp}-scope`} checked={scope === 'this'} onChange={() => setScope('this')} /> This session only
            </label>
            <label className="adm-radio">
              <input type="radio" name={`${idp}-scope`} checked={scope === 'following'} onChange={() => setScope('following')} /> This and following (
              {affected.length})
            </label>
          </fieldset>
          {paid ? (
            <div className="field">
              <label className="label" htmlFor={`${idp}-money`}>
                Paid sessions on cancel
              </label>
              <select id={`${idp}-money`} className="select" value={money} onChange={(e) => setMoney(e.target.value as Money)}>
                <option value="FULL">Full refund (super admins)</option>
                <option value="REQUEST">Ask the owner to refund</option>
                <option value="NONE">No refund</option>
              </select>
              {money !== 'FULL' ? (
                <>
                  <label className="label" htmlFor={`${idp}-reason`}>
                    Reason
                  </label>
                  <input id={`${idp}-reason`} className="input" value={reason} onChange={(e) => setReason(e.target.value)} />
                </>
              ) : null}
            </div>
          ) : null}
          <div className="adm-btns">
            <button type="button" className="btn btn-danger" disabled={busy || affected.length === 0} onClick={() => void cancel()}>
              {scope === 'this' ? 'Cancel this session' : 'Cancel this and following'}
            </button>
          </div>
          <div className="field adm-series__move">
            <label className="label" htmlFor={`${idp}-time`}>
              Move to (same dates)
            </label>
            <input id={`${idp}-time`} className="input" type="time" step={3600} value={time} onChange={(e) => setTime(e.target.value)} />
            <button type="button" className="btn btn-secondary" disabled={busy || affected.length === 0} onClick={() => void move()}>
              {scope === 'this' ? 'Move this session' : 'Move this and following'}
            </button>
          </div>
          {conflicts ? <SeriesConflicts detail={conflicts.detail} conflicts={conflicts.items} /> : null}
          <FieldError id={`${idp}-failure`} error={failure} />
        </>
      )}
    </Modal>
  );
}
