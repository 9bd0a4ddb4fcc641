/**
 * Admin Dashboard (spec section 2): therapists, availability, bookings and the actions on them. It
 * opens on Today (issue 31): the desk's sessions first, then what needs attention, then the
 * therapists and their availability (folding away), then All Booked Slots.
 */
import { useEffect, useReducer, useState } from 'react';
import { useStore } from '@nanostores/react';
import { displayName, isOnlineType } from '../../../../shared/domain/therapist.ts';
import { adminApi, errorMessage, type AdminTherapist } from '../../lib/admin-api.ts';
import { DEFAULT_PAGE_SIZE, MESSAGES, todayAtCentre } from '../../lib/admin-format.ts';
import { useQuery } from '../../lib/query.ts';
import { $adminSession } from '../../stores/admin-session.ts';
import { AllBookings, TherapistBookings, type Paging } from './dashboard/BookingLists.tsx';
import { DashboardDialogs } from './dashboard/DashboardDialogs.tsx';
import { Fold } from './dashboard/Fold.tsx';
import { NOTICE_ID } from './dashboard/notice.ts';
import { TherapistPanel } from './dashboard/TherapistPanel.tsx';
import { TodaySessions } from './dashboard/TodaySessions.tsx';
import { useDashboardActions } from './dashboard/useDashboardActions.ts';
import { DataTable, type Column } from './DataTable.tsx';
import ManualBooking from './ManualBooking.tsx';
import SeriesBooking from './SeriesBooking.tsx';
import PaymentsAttention from './PaymentsAttention.tsx';
import JobFailures from './JobFailures.tsx';
import RefundsDue from './RefundsDue.tsx';
import { ErrorPanel, InlineNotice, LiveRegion, Loading } from './ui.tsx';

const therapistColumns: Column<AdminTherapist>[] = [
  { key: 'id', header: 'ID', cell: (t) => t.id, primary: true },
  { key: 'name', header: 'Name', cell: (t) => t.name },
  { key: 'type', header: 'Type', cell: (t) => (isOnlineType(t.type) ? 'Online' : 'Offline') },
];

const bump = (n: number) => n + 1;

export default function Dashboard(props: { onLogout: () => void }) {
  const { onLogout } = props;
  const session = useStore($adminSession);
  // Checked once, when the dashboard opens: an inactive account is signed out rather than shown data.
  const [active] = useState(() => session?.user?.is_active === true);
  const therapists = useQuery('dashboard-therapists', active ? {} : null, () => adminApi.therapists());
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [therapistPage, setTherapistPage] = useState<Paging>({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  // Each list and the grid fetch again when their version moves on (after an action, or Retry).
  const [listsVersion, reloadLists] = useReducer(bump, 0);
  const [slotsVersion, reloadSlots] = useReducer(bump, 0);
  const [manualOpen, setManualOpen] = useState(false);
  const [seriesOpen, setSeriesOpen] = useState(false);
  const today = todayAtCentre();
  const selected = therapists.data?.find((t) => t.id === selectedId) ?? null;
  const actions = useDashboardActions(
    selected?.id ?? null,
    () => {
      reloadLists();
      reloadSlots();
    },
    reloadLists,
  );

  useEffect(() => {
    if (!active) onLogout();
  }, [active, onLogout]);

  function selectTherapist(id: number) {
    setSelectedId(id);
    setTherapistPage((p) => ({ ...p, page: 1 }));
    requestAnimationFrame(() => document.getElementById('therapist-details')?.focus());
  }

  const retry = () => {
    therapists.refresh();
    reloadLists();
  };
  if (!active) return <ErrorPanel title="Something went wrong" message={MESSAGES.unauthorizedInactive} onRetry={onLogout} onLogout={onLogout} />;
  if (therapists.error)
    return <ErrorPanel title="Something went wrong" message={errorMessage(therapists.error, MESSAGES.adminDataFailed)} onRetry={retry} onLogout={onLogout} />;
  if (!therapists.data || therapists.loading) return <Loading label="Loading dashboard..." />;

  const { message } = actions;
  const notice = message ? <InlineNotice id={NOTICE_ID} message={message} onDismiss={actions.dismiss} /> : null;
  const lists = { today, version: listsVersion, actions, notice, onRetry: reloadLists };
  return (
    <div className="adm-page">
      <LiveRegion message={message} />
      <header className="adm-page__head">
        <div>
          <h1>Admin Dashboard</h1>
          <p className="muted">Manage therapists, availability and bookings.</p>
        </div>
        <div className="adm-btns">
          <button type="button" className="btn btn-primary" onClick={() => setManualOpen(true)}>
            Manual Booking
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => setSeriesOpen(true)}>
            Book a series
          </button>
        </div>
      </header>
      {message?.at.kind === 'top' ? notice : null}
      {/* The desk's day first: nothing pushes it down. */}
      <TodaySessions {...lists} />
      {/* Money next: what reconciliation found is for super admins only (the server refuses anyone else). */}
      {session?.user.is_superadmin ? <PaymentsAttention /> : null}
      <RefundsDue version={listsVersion} />
      <JobFailures />
      <Fold
        name="therapists"
        title="Therapists and availability"
        summary={[therapists.data.length === 1 ? '1 therapist' : `${therapists.data.length} therapists`, selected ? displayName(selected.name) : null]
          .filter(Boolean)
          .join(' · ')}
      >
        <DataTable
          title="Therapists"
          rows={therapists.data}
          columns={therapistColumns}
          rowKey={(t) => t.id}
          empty="No therapists found."
          actionsHeader="Action"
          actions={(t) => (
            <button
              type="button"
              className={`btn btn-sm ${t.id === selectedId ? 'btn-primary' : 'btn-secondary'}`}
              aria-pressed={t.id === selectedId}
              aria-label={`View availability of ${t.name}`}
              onClick={() => selectTherapist(t.id)}
            >
              View
            </button>
          )}
        />
        {selected ? (
          <>
            <TherapistPanel key={selected.id} therapist={selected} today={today} version={slotsVersion} actions={actions} notice={notice} onLogout={onLogout} />
            <TherapistBookings key={`bookings-${selected.id}`} {...lists} therapist={selected} paging={therapistPage} onPaging={setTherapistPage} />
          </>
        ) : (
          <p className="adm-hint card">Choose a therapist above to see their details and availability.</p>
        )}
      </Fold>
      <AllBookings {...lists} therapists={therapists.data} />
      <DashboardDialogs actions={actions} therapist={selected} superadmin={session?.user.is_superadmin === true} />
      {manualOpen ? (
        <ManualBooking
          onClose={() => setManualOpen(false)}
          onCreated={(msg) => {
            setManualOpen(false);
            actions.say({ text: msg, kind: 'success' });
            reloadLists();
            reloadSlots();
          }}
        />
      ) : null}
      {seriesOpen ? (
        <SeriesBooking
          onClose={() => setSeriesOpen(false)}
          onCreated={(msg) => {
            setSeriesOpen(false);
            actions.say({ text: msg, kind: 'success' });
            reloadLists();
            reloadSlots();
          }}
        />
      ) : null}
    </div>
  );
}
