/** One date's slots for a therapist: free ones can be blocked, blocks made from the grid unblocked. */
import { Fragment, type ReactNode } from 'react';
import type { AdminSlotStateEntry } from '../../../lib/admin-api.ts';
import { formatTime } from '../../../lib/admin-format.ts';
import type { DashboardActions } from './useDashboardActions.ts';

export function SlotGrid(props: { slots: AdminSlotStateEntry[]; date: string; actions: DashboardActions; noticeAt: string | null; notice: ReactNode }) {
  const { slots, date, actions, noticeAt, notice } = props;
  return (
    <ul className="adm-slots">
      {slots.map((slot) => (
        <Fragment key={slot.start_time}>
          <li className={`adm-slot adm-slot--${slot.state}`}>
            <SlotTile slot={slot} date={date} actions={actions} />
          </li>
          {noticeAt === slot.start_time ? <li className="adm-slots__notice">{notice}</li> : null}
        </Fragment>
      ))}
    </ul>
  );
}

function SlotTile(props: { slot: AdminSlotStateEntry; date: string; actions: DashboardActions }) {
  const { slot, date, actions } = props;
  const time = formatTime(slot.start_time);
  const ask = (action: 'block' | 'unblock') => actions.ask({ kind: 'slot', slot, action, date });
  if (slot.state === 'booked' || slot.state === 'past') {
    return (
      <>
        <span className="adm-slot__time">{time}</span>
        {slot.state === 'booked' ? <span className="adm-slot__state">Booked</span> : <span className="adm-slot__state muted">Past</span>}
      </>
    );
  }
  if (slot.state === 'blocked') {
    return (
      <>
        {/* Time over state, so the text and Unblock fit the tile side by side. */}
        <span className="adm-slot__label">
          <span className="adm-slot__time">{time}</span>
          <span className="adm-slot__state">Blocked</span>
        </span>
        {/* A block on the therapist's schedule (no booking id) is not the grid's to lift. */}
        {slot.booking_id !== null ? (
          <button type="button" className="btn btn-sm btn-warn" disabled={actions.busy !== null} aria-label={`Unblock ${time}`} onClick={() => ask('unblock')}>
            Unblock
          </button>
        ) : null}
      </>
    );
  }
  return (
    <>
      <span className="adm-slot__time">{time}</span>
      <button type="button" className="btn btn-sm btn-secondary" disabled={actions.busy !== null} aria-label={`Block ${time}`} onClick={() => ask('block')}>
        Block
      </button>
    </>
  );
}
