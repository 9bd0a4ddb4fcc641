/** Therapist Details & Availability: who they are, a strip of dates, and that date's slots to block or unblock. */
import { useMemo, useState, type ReactNode } from 'react';
import { adminWindowDates } from '../../../../../shared/domain/slots.ts';
import { isOnlineType } from '../../../../../shared/domain/therapist.ts';
import { adminApi, errorMessage, type AdminTherapist } from '../../../lib/admin-api.ts';
import { MESSAGES, formatAmount, formatShortDate } from '../../../lib/admin-format.ts';
import { useQuery } from '../../../lib/query.ts';
import { ErrorPanel, Loading } from '../ui.tsx';
import { DateStrip } from './DateStrip.tsx';
import { useNoticeTakesLostFocus } from './notice.ts';
import { SlotGrid } from './SlotGrid.tsx';
import type { DashboardActions } from './useDashboardActions.ts';

function firstEmail(email: AdminTherapist['email']): string {
  if (Array.isArray(email)) return email[0] ?? '--';
  return email || '--';
}

export function TherapistPanel(props: {
  therapist: AdminTherapist;
  today: string;
  version: number;
  actions: DashboardActions;
  notice: ReactNode;
  onLogout: () => void;
}) {
  const { therapist, today, version, actions, notice, onLogout } = props;
  const windowDates = useMemo(() => adminWindowDates(today), [today]);
  const [selectedDate, setSelectedDate] = useState(today);
  // The server's states for this therapist, fetched again after every action on the grid or a list.
  const states = useQuery('slot-states', { therapistId: therapist.id, version }, (q) => adminApi.slotStates(q.therapistId));
  useNoticeTakesLostFocus(actions.message, states.data);
  // Never another therapist's answer.
  const shownStates = states.data?.therapist_id === therapist.id ? states.data : null;
  const daySlots = shownStates?.days.find((d) => d.date === selectedDate)?.slots;
  const slotAt = actions.message?.at.kind === 'slot' ? actions.message.at : null;
  // A slot's message goes after its tile; one for a date or slot not shown goes above the grid.
  const inGrid = slotAt !== null && slotAt.date === selectedDate && Boolean(daySlots?.some((s) => s.start_time === slotAt.start));

  return (
    <section className="adm-panel card" id="therapist-details" tabIndex={-1} aria-labelledby="therapist-details-title">
      <h2 id="therapist-details-title">Therapist Details &amp; Availability</h2>
      <dl className="adm-details">
        <div>
          <dt>Name</dt>
          <dd>{therapist.name}</dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{isOnlineType(therapist.type) ? 'Online' : 'Offline'}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{firstEmail(therapist.email)}</dd>
        </div>
        <div>
          <dt>Price</dt>
          <dd>{formatAmount(therapist.price)}</dd>
        </div>
      </dl>
      <DateStrip dates={windowDates} selected={selectedDate} onSelect={setSelectedDate} />
      <h3 className="adm-subhead">Slots on {formatShortDate(selectedDate)}</h3>
      {slotAt && !inGrid ? notice : null}
      {states.loading && !shownStates ? (
        <Loading label="Loading availability..." />
      ) : states.error ? (
        <ErrorPanel
          title="Could not load availability"
          message={errorMessage(states.error, MESSAGES.availabilityFailed)}
          onRetry={states.refresh}
          onLogout={onLogout}
        />
      ) : !shownStates ? null : !daySlots ? (
        <p className="adm-empty">{MESSAGES.slotStatesMissing}</p>
      ) : daySlots.length === 0 ? (
        <p className="adm-empty">No time slots configured for this therapist.</p>
      ) : (
        <SlotGrid slots={daySlots} date={selectedDate} actions={actions} noticeAt={inGrid ? slotAt.start : null} notice={notice} />
      )}
    </section>
  );
}
