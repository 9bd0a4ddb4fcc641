/** Admin Dashboard (spec section 2): therapists, availability, bookings and the actions on them. */
import { Fragment, useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import {
  adminApi,
  errorMessage,
  type AdminBooking,
  type AdminSlotStateEntry,
  type AdminSlotStatesResponse,
  type AdminTherapist,
  type CancelRefund,
  type PaymentMethod,
} from '../../lib/admin-api.ts';
import {
  DEFAULT_PAGE_SIZE,
  MESSAGES,
  STATUS_FILTERS,
  canCancel,
  canGenerateLink,
  canRecordPayment,
  canUnblock,
  formatAmount,
  formatInstantTime,
  formatShortDate,
  formatTime,
  holdNote,
  isBlockBooking,
  isPaidBooking,
  isUnpaidHold,
  parseRefundAmount,
  REFUND_REASON_MAX,
  sessionLabel,
  statusesFor,
  todayAtCentre,
} from '../../lib/admin-format.ts';
import { $adminSession } from '../../stores/admin-session.ts';
import { adminWindowDates } from '../../../../shared/domain/slots.ts';
import { displayName, isOnlineType } from '../../../../shared/domain/therapist.ts';
import { DataTable, type Column } from './DataTable.tsx';
import ManualBooking from './ManualBooking.tsx';
import PaymentsAttention from './PaymentsAttention.tsx';
import JobFailures from './JobFailures.tsx';
import { ATTENDANCE_WORDS, attendanceOpen, type Attendance } from '../../../../shared/domain/attendance.ts';
import { centreNow } from '../../../../shared/domain/time.ts';
import { catalogueApi } from '../../lib/catalogue-api.ts';
import { ConfirmDialog, ErrorPanel, InlineNotice, LiveRegion, Loading, Modal, PaymentCell, StatusBadge, useIsMobile } from './ui.tsx';

function firstEmail(email: AdminTherapist['email']): string {
  if (Array.isArray(email)) return email[0] ?? '--';
  return email || '--';
}

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Fall back to a hidden textarea where the async clipboard is unavailable.
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.append(ta);
  ta.select();
  const ok = document.execCommand?.('copy');
  ta.remove();
  if (!ok) throw new Error('Could not copy to the clipboard.');
}

/** Which of the dashboard's two booking tables an action was taken in. */
type Table = 'all' | 'therapist';

/**
 * Where an action's message is drawn: next to what was pressed (a booking's row, a slot of the
 * grid), or at the top of the page for what was pressed there (Manual Booking).
 */
type NoticeAt = { kind: 'top' } | { kind: 'row'; table: Table; id: number; index: number } | { kind: 'slot'; date: string; start: string };
type Message = { text: string; at: NoticeAt };

/** An action waiting for the receptionist's yes in the panel's own dialog. */
type Pending =
  | { kind: 'cancel'; booking: AdminBooking; at: NoticeAt }
  | { kind: 'slot'; slot: AdminSlotStateEntry; action: 'block' | 'unblock'; date: string };

type ListState = { items: AdminBooking[]; total: number; loading: boolean; error: string | null };
const EMPTY_LIST: ListState = { items: [], total: 0, loading: true, error: null };

const NOTICE_ID = 'dashboard-notice';

export default function Dashboard(props: { onLogout: () => void }) {
  const { onLogout } = props;
  const session = useStore($adminSession);
  const mobile = useIsMobile();
  const [therapists, setTherapists] = useState<AdminTherapist[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  // The server's states for one therapist; drawn only under that therapist (see slotsFor).
  const [slotStates, setSlotStates] = useState<AdminSlotStatesResponse | null>(null);
  const slotsRequest = useRef(0);
  const [paying, setPaying] = useState<{ booking: AdminBooking; at: NoticeAt } | null>(null);
  // A paid booking being cancelled: its refund is chosen in a dialog, not a yes/no confirm.
  const [refunding, setRefunding] = useState<{ booking: AdminBooking; at: NoticeAt } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [slotsLoading, setSlotsLoading] = useState(false);
  const [slotsError, setSlotsError] = useState<string | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [manualOpen, setManualOpen] = useState(false);
  const today = todayAtCentre();
  const windowDates = useMemo(() => adminWindowDates(today), [today]);
  const [stripStart, setStripStart] = useState(0);
  const [selectedDate, setSelectedDate] = useState(today);
  const visible = mobile ? 3 : 5;
  // The lists ask the server for one page of what they show: All Booked Slots from today on (or one
  // date), by therapist and status; a therapist's sessions from today on. `refresh` reloads both.
  const [allQuery, setAllQuery] = useState({ therapistId: '', status: 'active' as string, date: '', page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [therapistPage, setTherapistPage] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [all, setAll] = useState<ListState>(EMPTY_LIST);
  const [mine, setMine] = useState<ListState>(EMPTY_LIST);
  const [refresh, setRefresh] = useState(0);
  const allRequest = useRef(0);
  const mineRequest = useRef(0);
  const filterIds = { therapist: useId(), status: useId(), date: useId() };

  const load = useCallback(async () => {
    if (!session?.user?.is_active) {
      setError(MESSAGES.unauthorizedInactive);
      onLogout();
      return;
    }
    setLoading(true);
    setError(null);
    try {
      setTherapists(await adminApi.therapists());
      setRefresh((n) => n + 1);
    } catch (err) {
      setError(errorMessage(err, MESSAGES.adminDataFailed));
    } finally {
      setLoading(false);
    }
  }, [session, onLogout]);

  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (refresh === 0) return;
    const ticket = ++allRequest.current;
    setAll((s) => ({ ...s, loading: true, error: null }));
    const { therapistId, status, date, page, pageSize } = allQuery;
    adminApi
      .bookingsPage({
        from: date || today,
        ...(date ? { to: date } : {}),
        ...(therapistId ? { therapist_id: Number(therapistId) } : {}),
        status: statusesFor(status),
        order: 'asc',
        page,
        page_size: pageSize,
      })
      .then(
        (res) => ticket === allRequest.current && setAll({ items: res.items, total: res.total, loading: false, error: null }),
        (err: unknown) => ticket === allRequest.current && setAll({ items: [], total: 0, loading: false, error: errorMessage(err, MESSAGES.adminDataFailed) }),
      );
  }, [allQuery, refresh, today]);

  useEffect(() => {
    if (refresh === 0 || selectedId === null) return;
    const ticket = ++mineRequest.current;
    setMine((s) => ({ ...s, loading: true, error: null }));
    adminApi
      .bookingsPage({ therapist_id: selectedId, from: today, order: 'asc', page: therapistPage.page, page_size: therapistPage.pageSize })
      .then(
        (res) => ticket === mineRequest.current && setMine({ items: res.items, total: res.total, loading: false, error: null }),
        (err: unknown) => ticket === mineRequest.current && setMine({ items: [], total: 0, loading: false, error: errorMessage(err, MESSAGES.availabilityFailed) }),
      );
  }, [selectedId, therapistPage, refresh, today]);

  const loadSlots = useCallback(async (therapistId: number) => {
    // Only the latest request may draw: an answer for a therapist clicked away from must not land
    // under the one now selected.
    const ticket = ++slotsRequest.current;
    setSlotsLoading(true);
    setSlotsError(null);
    try {
      const s = await adminApi.slotStates(therapistId);
      if (ticket !== slotsRequest.current) return;
      setSlotStates(s);
    } catch (err) {
      if (ticket === slotsRequest.current) setSlotsError(errorMessage(err, MESSAGES.availabilityFailed));
    } finally {
      if (ticket === slotsRequest.current) setSlotsLoading(false);
    }
  }, []);

  /** After an action: the grid and both lists show the bookings as they now are. */
  const reloadAfterAction = useCallback(async () => {
    setRefresh((n) => n + 1);
    if (selectedId) await loadSlots(selectedId);
  }, [selectedId, loadSlots]);

  function selectTherapist(id: number) {
    setSelectedId(id);
    setSlotStates(null);
    setSelectedDate(today);
    setStripStart(0);
    setMine(EMPTY_LIST);
    setTherapistPage((p) => ({ ...p, page: 1 }));
    void loadSlots(id);
    requestAnimationFrame(() => document.getElementById('therapist-details')?.focus());
  }

  // An action whose button went away with the reload (a cancelled booking's Cancel) leaves focus
  // nowhere: it goes to the message, which says what happened.
  useEffect(() => {
    if (!message || message.at.kind === 'top') return;
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) document.getElementById(NOTICE_ID)?.focus();
  }, [message, all.items, mine.items, slotStates]);

  const selected = therapists.find((t) => t.id === selectedId) ?? null;

  const rowAt = (table: Table, b: AdminBooking): NoticeAt => ({
    kind: 'row',
    table,
    id: b.id,
    index: Math.max(0, (table === 'all' ? all.items : mine.items).findIndex((x) => x.id === b.id)),
  });

  /** Cancel or Unblock: a paid booking asks what happens to the money; anything else asks in a dialog. */
  function startCancel(b: AdminBooking, at: NoticeAt) {
    if (!canUnblock(b) && isPaidBooking(b)) {
      setRefunding({ booking: b, at });
      return;
    }
    setPending({ kind: 'cancel', booking: b, at });
  }

  async function cancelBooking(b: AdminBooking, at: NoticeAt, refund?: CancelRefund) {
    const unblock = canUnblock(b);
    setRefunding(null);
    setPending(null);
    setMessage(null);
    setBusy(`cancel-${b.id}`);
    try {
      const res = await adminApi.cancelBooking(b.id, refund);
      setMessage({
        at,
        text: unblock
          ? MESSAGES.slotToggled(formatTime(b.booking_time_slot_start), formatShortDate(b.booking_date), 'unblock')
          : // The server's message says what became of the money (" ₹500.00 refunded.", " No refund.").
            res?.message || MESSAGES.cancelled(b.id),
      });
    } catch (err) {
      const msg = errorMessage(err, 'Unknown error');
      setMessage({
        at,
        text: unblock
          ? MESSAGES.slotToggleFailed('unblock', formatTime(b.booking_time_slot_start), formatShortDate(b.booking_date), msg)
          : MESSAGES.cancelFailed(b.id, msg),
      });
    } finally {
      setBusy(null);
      // Refused or not, the lists show the booking as it now is: a 409 "is paid" means it was paid
      // since the list was loaded, and the next Cancel then asks about the refund.
      await reloadAfterAction();
    }
  }

  async function toggleSlot(slot: AdminSlotStateEntry, action: 'block' | 'unblock', date: string) {
    if (!selected) return;
    setPending(null);
    setMessage(null);
    const time = formatTime(slot.start_time);
    const shownDate = formatShortDate(date);
    const at: NoticeAt = { kind: 'slot', date, start: slot.start_time };
    setBusy(`slot-${slot.start_time}`);
    try {
      // The server does what was asked or refuses; the notice reports what it did.
      const res = await adminApi.setBlock(selected.id, slot.start_time, date, action);
      setMessage({ at, text: MESSAGES.slotToggled(time, shownDate, res?.blocked ? 'block' : 'unblock') });
    } catch (err) {
      setMessage({ at, text: MESSAGES.slotToggleFailed(action, time, shownDate, errorMessage(err, 'Unknown error')) });
    } finally {
      setBusy(null);
      // Refused or not, the grid shows the slot as it now is.
      await reloadAfterAction();
    }
  }

  async function recordPayment(b: AdminBooking, at: NoticeAt, method: PaymentMethod, amount: number) {
    setPaying(null);
    setMessage(null);
    setBusy(`pay-${b.id}`);
    try {
      const res = await adminApi.recordPayment(b.id, method, amount);
      setMessage({ at, text: res?.message || MESSAGES.paymentRecorded(b.id) });
    } catch (err) {
      setMessage({ at, text: errorMessage(err, 'Unknown error') });
    } finally {
      setBusy(null);
      await reloadAfterAction();
    }
  }

  async function generateLink(b: AdminBooking, at: NoticeAt) {
    setMessage(null);
    if (!canGenerateLink(b)) {
      setMessage({ at, text: MESSAGES.linkMissingDetails(b.id) });
      return;
    }
    setBusy(`link-${b.id}`);
    try {
      const res = await adminApi.createShareableLink(Number(b.amount), b.id, b.payment_transaction_id!);
      const url = res?.payment_link_url;
      if (!url) {
        setMessage({ at, text: MESSAGES.linkMissing });
        return;
      }
      await adminApi.updatePaymentLink(b.id, url);
      await copyText(url);
      setMessage({ at, text: MESSAGES.linkCopied(b.id) });
      setRefresh((n) => n + 1);
    } catch (err) {
      setMessage({ at, text: MESSAGES.linkFailed(b.id, errorMessage(err, 'Unknown error')) });
    } finally {
      setBusy(null);
    }
  }

  async function markAttendance(b: AdminBooking, status: Attendance, at: NoticeAt) {
    setMessage(null);
    setBusy(`attend-${b.id}`);
    try {
      await catalogueApi.markAttendance(b.id, status);
      setMessage({ at, text: `Booking ${b.id} marked ${ATTENDANCE_WORDS[status].toLowerCase()} successfully.` });
      setRefresh((n) => n + 1);
    } catch (err) {
      setMessage({ at, text: `Failed to mark booking ${b.id}: ${errorMessage(err, 'Unknown error')}` });
    } finally {
      setBusy(null);
    }
  }

  const bookingActions = (table: Table) => (b: AdminBooking) => {
    const unblock = canUnblock(b);
    const cancel = !unblock && canCancel(b, today);
    const link = !b.cancelled && !isBlockBooking(b) && b.payment_status !== 'COMPLETED' && b.payment_status !== 'CANCELLED';
    const pay = canRecordPayment(b);
    const now = centreNow();
    // A session that has started: the desk says whether the client came (and may correct it).
    const attend = attendanceOpen(
      { bookingType: b.booking_type, cancelled: b.cancelled, paymentStatus: b.payment_status, bookingDate: b.booking_date, start: b.booking_time_slot_start },
      now,
    );
    if (!unblock && !cancel && !link && !pay && !attend) return <span className="muted">--</span>;
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
                onClick={() => void markAttendance(b, status, rowAt(table, b))}
              >
                {ATTENDANCE_WORDS[status]}
              </button>
            ))
          : null}
        {pay ? (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            disabled={busy !== null}
            aria-label={`Record payment for booking ${b.id}`}
            onClick={() => setPaying({ booking: b, at: rowAt(table, b) })}
          >
            {busy === `pay-${b.id}` ? 'Recording...' : 'Record payment'}
          </button>
        ) : null}
        {unblock ? (
          <button
            type="button"
            className="btn btn-sm btn-warn"
            disabled={busy !== null}
            aria-label={`Unblock booking ${b.id}`}
            onClick={() => startCancel(b, rowAt(table, b))}
          >
            Unblock
          </button>
        ) : null}
        {cancel ? (
          <button
            type="button"
            className="btn btn-sm btn-danger"
            disabled={busy !== null}
            aria-label={`Cancel booking ${b.id}`}
            onClick={() => startCancel(b, rowAt(table, b))}
          >
            Cancel
          </button>
        ) : null}
        {link ? (
          <button
            type="button"
            className="btn btn-sm btn-secondary"
            disabled={busy !== null}
            aria-label={`Generate payment link for booking ${b.id}`}
            onClick={() => void generateLink(b, rowAt(table, b))}
          >
            {busy === `link-${b.id}` ? 'Generating...' : 'Payment Link'}
          </button>
        ) : null}
      </div>
    );
  };

  const statusCell = (b: AdminBooking) => (
    <PaymentCell
      badge={b.cancelled ? <span className="adm-badge adm-badge--grey">CANCELLED</span> : <StatusBadge status={b.payment_status} />}
      note={[b.payment_note, holdNote(b), b.attendance ? ATTENDANCE_WORDS[b.attendance] : null].filter(Boolean).join(' · ') || null}
    />
  );

  const bookingColumns: Column<AdminBooking>[] = [
    { key: 'id', header: 'ID', cell: (b) => b.id, primary: true },
    { key: 'client', header: 'Client', cell: (b) => (isBlockBooking(b) ? <em>Admin block</em> : b.client_full_name || '--') },
    { key: 'date', header: 'Date', cell: (b) => <DateCell date={b.booking_date} today={today} /> },
    { key: 'time', header: 'Time', cell: (b) => formatTime(b.booking_time_slot_start) },
    { key: 'type', header: 'Type', cell: (b) => sessionLabel(b.booking_type) },
    { key: 'amount', header: 'Amount', cell: (b) => formatAmount(b.amount) },
    { key: 'status', header: 'Status', cell: statusCell },
  ];
  const allColumns: Column<AdminBooking>[] = [
    bookingColumns[0]!,
    { key: 'therapist', header: 'Therapist', cell: (b) => displayName(b.therapist_name ?? '') || '--' },
    ...bookingColumns.slice(1),
  ];
  const therapistColumns: Column<AdminTherapist>[] = [
    { key: 'id', header: 'ID', cell: (t) => t.id, primary: true },
    { key: 'name', header: 'Name', cell: (t) => t.name },
    { key: 'type', header: 'Type', cell: (t) => (isOnlineType(t.type) ? 'Online' : 'Offline') },
  ];

  if (loading) return <Loading label="Loading dashboard..." />;
  if (error) return <ErrorPanel title="Something went wrong" message={error} onRetry={() => void load()} onLogout={onLogout} />;

  const stripDates = windowDates.slice(stripStart, stripStart + visible);
  // Never another therapist's answer (e.g. one still arriving after a switch).
  const shownStates = selected && slotStates?.therapist_id === selected.id ? slotStates : null;
  const daySlots = shownStates?.days.find((d) => d.date === selectedDate)?.slots;

  const noticeNode = message ? <InlineNotice id={NOTICE_ID} message={message.text} onDismiss={() => setMessage(null)} /> : null;
  const rowNotice = (table: Table) =>
    message?.at.kind === 'row' && message.at.table === table ? { rowKey: message.at.id, index: message.at.index, content: noticeNode } : null;
  const slotAt = message?.at.kind === 'slot' ? message.at : null;
  // A slot's message goes after its tile; one for a date or slot not shown goes above the grid.
  const slotNoticeInGrid = slotAt !== null && slotAt.date === selectedDate && Boolean(daySlots?.some((s) => s.start_time === slotAt.start));
  const setFilter = (patch: Partial<typeof allQuery>) => setAllQuery((q) => ({ ...q, ...patch, page: 1 }));
  const allDescription = allQuery.date
    ? `Bookings on ${formatShortDate(allQuery.date)}, earliest first.`
    : "Today's sessions first, then upcoming, earliest first.";

  return (
    <div className="adm-page">
      <LiveRegion message={message?.text ?? null} />
      <header className="adm-page__head">
        <div>
          <h1>Admin Dashboard</h1>
          <p className="muted">Manage therapists, availability and bookings.</p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setManualOpen(true)}>
          Manual Booking
        </button>
      </header>

      {message?.at.kind === 'top' ? noticeNode : null}

      {/* Money first: what reconciliation found is for super admins only (the server refuses anyone else). */}
      {session?.user.is_superadmin ? <PaymentsAttention /> : null}
      <JobFailures />

      <DataTable
        title="Therapists"
        rows={therapists}
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
        <section className="adm-panel card" id="therapist-details" tabIndex={-1} aria-labelledby="therapist-details-title">
          <h2 id="therapist-details-title">Therapist Details &amp; Availability</h2>
          <dl className="adm-details">
            <div>
              <dt>Name</dt>
              <dd>{selected.name}</dd>
            </div>
            <div>
              <dt>Type</dt>
              <dd>{isOnlineType(selected.type) ? 'Online' : 'Offline'}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd>{firstEmail(selected.email)}</dd>
            </div>
            <div>
              <dt>Price</dt>
              <dd>{formatAmount(selected.price)}</dd>
            </div>
          </dl>

          <div className="adm-strip" role="group" aria-label="Choose a date">
            <button
              type="button"
              className="adm-icon-btn adm-strip__arrow"
              aria-label="Previous dates"
              disabled={stripStart === 0}
              onClick={() => setStripStart((s) => Math.max(0, s - 1))}
            >
              <span aria-hidden="true">‹</span>
            </button>
            <ul className="adm-strip__dates" style={{ gridTemplateColumns: `repeat(${visible}, minmax(0, 1fr))` }}>
              {stripDates.map((d) => {
                const [wd, md] = formatShortDate(d).split(', ');
                return (
                  <li key={d}>
                    <button type="button" className="adm-date" aria-pressed={d === selectedDate} onClick={() => setSelectedDate(d)}>
                      <span className="adm-date__wd">{wd}</span>
                      <span className="adm-date__md">{md}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
            <button
              type="button"
              className="adm-icon-btn adm-strip__arrow"
              aria-label="Next dates"
              disabled={stripStart + visible >= windowDates.length}
              onClick={() => setStripStart((s) => Math.min(windowDates.length - visible, s + 1))}
            >
              <span aria-hidden="true">›</span>
            </button>
          </div>

          <h3 className="adm-subhead">Slots on {formatShortDate(selectedDate)}</h3>
          {slotAt && !slotNoticeInGrid ? noticeNode : null}
          {slotsLoading && !shownStates ? (
            <Loading label="Loading availability..." />
          ) : slotsError ? (
            <ErrorPanel title="Could not load availability" message={slotsError} onRetry={() => void loadSlots(selected.id)} onLogout={onLogout} />
          ) : !shownStates ? null : !daySlots ? (
            <p className="adm-empty">{MESSAGES.slotStatesMissing}</p>
          ) : daySlots.length === 0 ? (
            <p className="adm-empty">No time slots configured for this therapist.</p>
          ) : (
            <ul className="adm-slots">
              {daySlots.map((slot) => {
                const time = formatTime(slot.start_time);
                return (
                  <Fragment key={slot.start_time}>
                    <li className={`adm-slot adm-slot--${slot.state}`}>
                      {slot.state !== 'blocked' ? <span className="adm-slot__time">{time}</span> : null}
                      {slot.state === 'booked' ? (
                        <span className="adm-slot__state">Booked</span>
                      ) : slot.state === 'past' ? (
                        <span className="adm-slot__state muted">Past</span>
                      ) : slot.state === 'blocked' ? (
                        <>
                          {/* Time over state, so the text and Unblock fit the tile side by side. */}
                          <span className="adm-slot__label">
                            <span className="adm-slot__time">{time}</span>
                            <span className="adm-slot__state">Blocked</span>
                          </span>
                          {/* A block on the therapist's schedule (no booking id) is not the grid's to lift. */}
                          {slot.booking_id !== null ? (
                            <button
                              type="button"
                              className="btn btn-sm btn-warn"
                              disabled={busy !== null}
                              aria-label={`Unblock ${time}`}
                              onClick={() => setPending({ kind: 'slot', slot, action: 'unblock', date: selectedDate })}
                            >
                              Unblock
                            </button>
                          ) : null}
                        </>
                      ) : (
                        <button
                          type="button"
                          className="btn btn-sm btn-secondary"
                          disabled={busy !== null}
                          aria-label={`Block ${time}`}
                          onClick={() => setPending({ kind: 'slot', slot, action: 'block', date: selectedDate })}
                        >
                          Block
                        </button>
                      )}
                    </li>
                    {slotNoticeInGrid && slotAt?.start === slot.start_time ? <li className="adm-slots__notice">{noticeNode}</li> : null}
                  </Fragment>
                );
              })}
            </ul>
          )}
        </section>
      ) : (
        <p className="adm-hint card">Choose a therapist above to see their details and availability.</p>
      )}

      {selected ? (
        mine.error ? (
          <ErrorPanel title="Could not load the bookings" message={mine.error} onRetry={() => setRefresh((n) => n + 1)} />
        ) : (
          <DataTable
            title={`Booked Sessions: ${displayName(selected.name)}`}
            rows={mine.items}
            columns={bookingColumns}
            rowKey={(b) => b.id}
            empty="No booked sessions for this therapist from today on."
            description="Today and upcoming, earliest first."
            actions={bookingActions('therapist')}
            loading={mine.loading && mine.items.length === 0}
            paging={{
              page: therapistPage.page,
              pageSize: therapistPage.pageSize,
              total: mine.total,
              onPage: (page) => setTherapistPage((p) => ({ ...p, page })),
              onPageSize: (pageSize) => setTherapistPage({ page: 1, pageSize }),
            }}
            notice={rowNotice('therapist')}
          />
        )
      ) : null}

      {all.error ? (
        <ErrorPanel title="Could not load the bookings" message={all.error} onRetry={() => setRefresh((n) => n + 1)} />
      ) : (
        <DataTable
          title="All Booked Slots"
          rows={all.items}
          columns={allColumns}
          rowKey={(b) => b.id}
          empty={allQuery.date ? 'No bookings on this date match the filters.' : 'No bookings from today on match the filters.'}
          description={allDescription}
          actions={bookingActions('all')}
          loading={all.loading && all.items.length === 0}
          paging={{
            page: allQuery.page,
            pageSize: allQuery.pageSize,
            total: all.total,
            onPage: (page) => setAllQuery((q) => ({ ...q, page })),
            onPageSize: (pageSize) => setAllQuery((q) => ({ ...q, pageSize, page: 1 })),
          }}
          notice={rowNotice('all')}
          filters={
            <>
              <div className="field">
                <label className="label" htmlFor={filterIds.therapist}>
                  Therapist
                </label>
                <select id={filterIds.therapist} className="select" value={allQuery.therapistId} onChange={(e) => setFilter({ therapistId: e.target.value })}>
                  <option value="">All therapists</option>
                  {therapists.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label className="label" htmlFor={filterIds.status}>
                  Status
                </label>
                <select id={filterIds.status} className="select" value={allQuery.status} onChange={(e) => setFilter({ status: e.target.value })}>
                  {STATUS_FILTERS.map((f) => (
                    <option key={f.value} value={f.value}>
                      {f.label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label className="label" htmlFor={filterIds.date}>
                  Date
                </label>
                <div className="adm-filters__date">
                  <input
                    id={filterIds.date}
                    className="input"
                    type="date"
                    value={allQuery.date}
                    onChange={(e) => setFilter({ date: e.target.value })}
                  />
                  {allQuery.date ? (
                    <button type="button" className="btn btn-sm btn-secondary" onClick={() => setFilter({ date: '' })}>
                      From today
                    </button>
                  ) : null}
                </div>
              </div>
            </>
          }
        />
      )}

      {refunding ? (
        <CancelRefundDialog
          booking={refunding.booking}
          superadmin={session?.user.is_superadmin === true}
          onCancel={() => setRefunding(null)}
          onConfirm={(refund) => void cancelBooking(refunding.booking, refunding.at, refund)}
        />
      ) : null}

      {pending?.kind === 'cancel' ? (
        <CancelBookingDialog
          booking={pending.booking}
          onCancel={() => setPending(null)}
          onConfirm={() => void cancelBooking(pending.booking, pending.at)}
        />
      ) : null}

      {pending?.kind === 'slot' && selected ? (
        <SlotBlockDialog
          action={pending.action}
          time={formatTime(pending.slot.start_time)}
          date={formatShortDate(pending.date)}
          therapist={selected.name}
          onCancel={() => setPending(null)}
          onConfirm={() => void toggleSlot(pending.slot, pending.action, pending.date)}
        />
      ) : null}

      {paying ? (
        <RecordPaymentDialog
          booking={paying.booking}
          onCancel={() => setPaying(null)}
          onConfirm={(m, amount) => void recordPayment(paying.booking, paying.at, m, amount)}
        />
      ) : null}

      {manualOpen ? (
        <ManualBooking
          onClose={() => setManualOpen(false)}
          onCreated={(msg) => {
            setManualOpen(false);
            setMessage({ at: { kind: 'top' }, text: msg });
            void reloadAfterAction();
          }}
        />
      ) : null}
    </div>
  );
}

/** A booking's date, its day and month kept on one line, and today's marked as such. */
function DateCell(props: { date: string; today: string }) {
  const [weekdayMonthDay, year] = [formatShortDate(props.date).replace(/, \d{4}$/, ''), props.date.slice(0, 4)];
  return (
    <span className="adm-datecell">
      {props.date.slice(0, 10) === props.today ? <span className="adm-today">Today</span> : null}
      <span className="adm-nowrap">{weekdayMonthDay},</span> {year}
    </span>
  );
}

/**
 * The spec's question before cancelling an unpaid booking or lifting a block, in the panel's own
 * dialog, with what will follow: what was (not) paid, the hold's end, the freed slot, the client's e-mail.
 */
export function CancelBookingDialog(props: { booking: AdminBooking; onCancel: () => void; onConfirm: () => void }) {
  const { booking: b, onCancel, onConfirm } = props;
  const when = `${formatShortDate(b.booking_date)} at ${formatTime(b.booking_time_slot_start)}`;
  const therapist = displayName(b.therapist_name ?? '') || '--';
  if (canUnblock(b)) {
    return (
      <ConfirmDialog
        title={MESSAGES.blockConfirm('unblock')}
        confirmLabel="Unblock slot"
        cancelLabel="Keep it blocked"
        tone="warn"
        onCancel={onCancel}
        onConfirm={onConfirm}
      >
        <p>
          {when} with {therapist} becomes free: clients can book it again.
        </p>
      </ConfirmDialog>
    );
  }
  const paid = Number(b.amount_paid ?? 0);
  const hold = holdNote(b);
  const money = isUnpaidHold(b)
    ? `This is an unpaid hold${b.payment_hold_expires_at ? ` (it ${hold?.includes('expired') ? 'expired' : 'expires'} at ${formatInstantTime(b.payment_hold_expires_at)})` : ''}: nothing has been paid, and its payment link stops taking payment.`
    : paid > 0
      ? `This booking was paid ${formatAmount(paid)}; it is not refunded.`
      : b.booking_type === 'OFFLINE' && b.payment_status === 'PENDING'
        ? `Nothing has been paid yet: the fee of ${formatAmount(b.amount)} was to be collected at the visit.`
        : `No payment has been recorded for this booking (price ${formatAmount(b.amount)}).`;
  return (
    <ConfirmDialog
      title={MESSAGES.cancelConfirm(b.id)}
      confirmLabel={`Cancel booking ${b.id}`}
      cancelLabel="Keep booking"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p className="adm-confirm__what">
        {b.client_full_name || '--'} with {therapist}, {when} ({sessionLabel(b.booking_type)}).
      </p>
      <ul className="adm-confirm__list">
        <li>{money}</li>
        <li>The slot becomes free for other clients.</li>
        <li>The client is told by e-mail that the session is cancelled.</li>
      </ul>
    </ConfirmDialog>
  );
}

/** The spec's question before blocking or unblocking a slot of the grid, with what it means for clients. */
export function SlotBlockDialog(props: {
  action: 'block' | 'unblock';
  time: string;
  date: string;
  therapist: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { action, time, date, therapist, onCancel, onConfirm } = props;
  return (
    <ConfirmDialog
      title={MESSAGES.blockConfirm(action)}
      confirmLabel={action === 'block' ? 'Block slot' : 'Unblock slot'}
      cancelLabel={action === 'block' ? "Don't block" : 'Keep it blocked'}
      tone={action === 'block' ? 'primary' : 'warn'}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>
        {action === 'block'
          ? `Clients can no longer book ${time} on ${date} with ${therapist}. You can unblock it later.`
          : `${time} on ${date} with ${therapist} becomes free: clients can book it again.`}
      </p>
    </ConfirmDialog>
  );
}

const PAYMENT_METHODS: { value: PaymentMethod; label: string }[] = [
  { value: 'CASH', label: 'Cash' },
  { value: 'CARD', label: 'Card' },
  { value: 'UPI', label: 'UPI' },
];

/** Record payment for an in-person booking paid at the desk: method and amount (the booking's by default). */
export function RecordPaymentDialog(props: { booking: AdminBooking; onCancel: () => void; onConfirm: (method: PaymentMethod, amount: number) => void }) {
  const { booking, onCancel, onConfirm } = props;
  const [method, setMethod] = useState<PaymentMethod>('CASH');
  const [amount, setAmount] = useState(booking.amount != null ? String(booking.amount) : '');
  const [amountError, setAmountError] = useState<string | null>(null);
  const id = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    const value = Number(amount);
    if (amount.trim() === '' || !Number.isFinite(value) || value <= 0) {
      setAmountError(MESSAGES.recordPaymentAmount);
      document.getElementById(`${id}-amount`)?.focus();
      return;
    }
    onConfirm(method, Math.round(value * 100) / 100);
  }

  return (
    <Modal title={`Record payment for booking ${booking.id}`} onClose={onCancel}>
      <form className="adm-form" onSubmit={submit} noValidate>
        <p className="muted">
          {booking.client_full_name || '--'}, {formatShortDate(booking.booking_date)} at {formatTime(booking.booking_time_slot_start)}
        </p>
        <div className="field">
          <label className="label" htmlFor={`${id}-method`}>
            Payment method
          </label>
          <select id={`${id}-method`} className="select" value={method} onChange={(e) => setMethod(e.target.value as PaymentMethod)}>
            {PAYMENT_METHODS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="label" htmlFor={`${id}-amount`}>
            Amount (₹)
          </label>
          <input
            id={`${id}-amount`}
            className="input"
            type="number"
            min={0}
            step={0.01}
            inputMode="decimal"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              setAmountError(null);
            }}
            {...(amountError ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-amount-error` } : {})}
          />
          {amountError ? (
            <p id={`${id}-amount-error`} className="error-text">
              {amountError}
            </p>
          ) : null}
        </div>
        <div className="btn-row adm-form__actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary">
            Confirm payment
          </button>
        </div>
      </form>
    </Modal>
  );
}

type RefundChoice = CancelRefund['refund'];

/**
 * Cancelling a paid booking: the spec's question, what was paid, and what to do with it: a full or
 * partial refund (super admins only; the server answers 403 to anyone else) or none, with the policy
 * reason. The Confirm button says what will happen to the money before it is pressed.
 */
export function CancelRefundDialog(props: {
  booking: AdminBooking;
  superadmin: boolean;
  onCancel: () => void;
  onConfirm: (refund: CancelRefund) => void;
}) {
  const { booking, superadmin, onCancel, onConfirm } = props;
  const paid = Number(booking.amount_paid ?? 0);
  const refunded = Number(booking.amount_refunded ?? 0);
  // No default for super admins: a refund, or none, is a decision about money and is made on purpose.
  // A plain admin has one choice, so it starts chosen.
  const [choice, setChoice] = useState<RefundChoice | null>(superadmin ? null : 'NONE');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<string>(MESSAGES.noRefundReasonDefault);
  const [error, setError] = useState<{ field: 'choice' | 'amount' | 'reason'; text: string } | null>(null);
  const id = useId();
  const partial = parseRefundAmount(amount, paid);

  const confirmLabel =
    choice === 'FULL'
      ? MESSAGES.cancelAndRefund(paid)
      : choice === 'PARTIAL'
        ? MESSAGES.cancelAndRefund(partial)
        : choice === 'NONE'
          ? MESSAGES.cancelWithoutRefund
          : 'Confirm cancellation';

  function fail(field: 'choice' | 'amount' | 'reason', text: string, focusId: string) {
    setError({ field, text });
    document.getElementById(focusId)?.focus();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (choice === null) return fail('choice', MESSAGES.refundChoiceRequired, `${id}-FULL`);
    if ((choice === 'FULL' || choice === 'PARTIAL') && !superadmin) return fail('choice', MESSAGES.refundSuperadminOnly, `${id}-NONE`);
    if (choice === 'FULL') return onConfirm({ refund: 'FULL' });
    if (choice === 'PARTIAL') {
      if (partial === null) return fail('amount', MESSAGES.refundAmountInvalid(paid), `${id}-amount`);
      return onConfirm({ refund: 'PARTIAL', amount: partial });
    }
    const why = reason.trim();
    if (!why) return fail('reason', MESSAGES.noRefundReasonRequired, `${id}-reason`);
    onConfirm({ refund: 'NONE', reason: why });
  }

  const invalid = (field: 'choice' | 'amount' | 'reason', describedBy?: string) => {
    const ids = [describedBy, error?.field === field ? `${id}-${field}-error` : undefined].filter(Boolean).join(' ');
    return { ...(error?.field === field ? { 'aria-invalid': true as const } : {}), ...(ids ? { 'aria-describedby': ids } : {}) };
  };
  const errorText = (field: 'choice' | 'amount' | 'reason') =>
    error?.field === field ? (
      <p id={`${id}-${field}-error`} className="error-text">
        {error.text}
      </p>
    ) : null;

  const option = (value: RefundChoice, label: string) => {
    const locked = value !== 'NONE' && !superadmin;
    return (
      <label className={`adm-choice${locked ? ' is-disabled' : ''}`} htmlFor={`${id}-${value}`}>
        <input
          id={`${id}-${value}`}
          type="radio"
          name={`${id}-refund`}
          value={value}
          checked={choice === value}
          disabled={locked}
          onChange={() => {
            // Disabled already; this also holds where a disabled radio still reports a click.
            if (locked) return;
            setChoice(value);
            setError(null);
          }}
          {...(locked ? { 'aria-describedby': `${id}-locked` } : {})}
        />
        <span>{label}</span>
      </label>
    );
  };

  return (
    <Modal title={MESSAGES.cancelConfirm(booking.id)} onClose={onCancel}>
      <form className="adm-form" onSubmit={submit} noValidate>
        <p className="muted">
          {booking.client_full_name || '--'}, {formatShortDate(booking.booking_date)} at {formatTime(booking.booking_time_slot_start)}
        </p>
        <p className="adm-refund__paid">
          Amount paid: <strong>{formatAmount(paid)}</strong>
          {refunded > 0 ? <span className="muted"> (already refunded {formatAmount(refunded)})</span> : null}
        </p>
        {/* aria-invalid is not allowed on a group; the error is tied to it by description instead. */}
        <fieldset className="adm-choices" {...(error?.field === 'choice' ? { 'aria-describedby': `${id}-choice-error` } : {})}>
          <legend className="label">Refund</legend>
          {!superadmin ? (
            <p id={`${id}-locked`} className="hint">
              {MESSAGES.refundSuperadminOnly}
            </p>
          ) : null}
          {option('FULL', `Full refund (${formatAmount(paid)})`)}
          {option('PARTIAL', 'Partial refund')}
          {choice === 'PARTIAL' ? (
            <div className="field adm-choice__more">
              <label className="label" htmlFor={`${id}-amount`}>
                Refund amount (₹)
              </label>
              <input
                id={`${id}-amount`}
                className="input"
                type="text"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => {
                  setAmount(e.target.value);
                  setError(null);
                }}
                {...invalid('amount', `${id}-amount-hint`)}
              />
              <p id={`${id}-amount-hint`} className="hint">
                More than ₹0 and at most {formatAmount(paid)}.
              </p>
              {errorText('amount')}
            </div>
          ) : null}
          {option('NONE', 'No refund')}
          {choice === 'NONE' ? (
            <div className="field adm-choice__more">
              <label className="label" htmlFor={`${id}-reason`}>
                Reason
              </label>
              <input
                id={`${id}-reason`}
                className="input"
                type="text"
                maxLength={REFUND_REASON_MAX}
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value);
                  setError(null);
                }}
                {...invalid('reason')}
              />
              {errorText('reason')}
            </div>
          ) : null}
          {errorText('choice')}
        </fieldset>
        <div className="btn-row adm-form__actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn-danger">
            {confirmLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
