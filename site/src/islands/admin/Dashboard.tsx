/** Admin Dashboard (spec section 2): therapists, availability, bookings and the actions on them. */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
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
  MESSAGES,
  canCancel,
  canGenerateLink,
  canRecordPayment,
  canUnblock,
  formatAmount,
  formatShortDate,
  formatTime,
  isBlockBooking,
  isPaidBooking,
  parseRefundAmount,
  REFUND_REASON_MAX,
  sessionLabel,
  todayAtCentre,
} from '../../lib/admin-format.ts';
import { $adminSession } from '../../stores/admin-session.ts';
import { adminWindowDates } from '../../../../shared/domain/slots.ts';
import { displayName, isOnlineType } from '../../../../shared/domain/therapist.ts';
import { DataTable, type Column } from './DataTable.tsx';
import ManualBooking from './ManualBooking.tsx';
import PaymentsAttention from './PaymentsAttention.tsx';
import { ErrorPanel, Loading, Modal, Notice, PaymentCell, StatusBadge, useIsMobile } from './ui.tsx';

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

export default function Dashboard(props: { onLogout: () => void }) {
  const { onLogout } = props;
  const session = useStore($adminSession);
  const mobile = useIsMobile();
  const [therapists, setTherapists] = useState<AdminTherapist[]>([]);
  const [bookings, setBookings] = useState<AdminBooking[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  // The server's states for one therapist; drawn only under that therapist (see slotsFor).
  const [slotStates, setSlotStates] = useState<AdminSlotStatesResponse | null>(null);
  const slotsRequest = useRef(0);
  const [paying, setPaying] = useState<AdminBooking | null>(null);
  // A paid booking being cancelled: its refund is chosen in a dialog, not a yes/no confirm.
  const [refunding, setRefunding] = useState<AdminBooking | null>(null);
  const [slotsLoading, setSlotsLoading] = useState(false);
  const [slotsError, setSlotsError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [manualOpen, setManualOpen] = useState(false);
  const today = todayAtCentre();
  const windowDates = useMemo(() => adminWindowDates(today), [today]);
  const [stripStart, setStripStart] = useState(0);
  const [selectedDate, setSelectedDate] = useState(today);
  const visible = mobile ? 3 : 5;

  const load = useCallback(async () => {
    if (!session?.user?.is_active) {
      setError(MESSAGES.unauthorizedInactive);
      onLogout();
      return;
    }
    setLoading(true);
    setError(null);
    try {
      const [t, b] = await Promise.all([adminApi.therapists(), adminApi.bookings()]);
      setTherapists(t);
      setBookings(b);
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

  const refreshBookings = useCallback(async () => {
    try {
      setBookings(await adminApi.bookings());
    } catch (err) {
      setMessage(errorMessage(err, MESSAGES.adminDataFailed));
    }
  }, []);

  const loadSlots = useCallback(async (therapistId: number) => {
    // Only the latest request may draw: an answer for a therapist clicked away from must not land
    // under the one now selected.
    const ticket = ++slotsRequest.current;
    setSlotsLoading(true);
    setSlotsError(null);
    try {
      const [s, b] = await Promise.all([adminApi.slotStates(therapistId), adminApi.bookings()]);
      if (ticket !== slotsRequest.current) return;
      setSlotStates(s);
      setBookings(b);
    } catch (err) {
      if (ticket === slotsRequest.current) setSlotsError(errorMessage(err, MESSAGES.availabilityFailed));
    } finally {
      if (ticket === slotsRequest.current) setSlotsLoading(false);
    }
  }, []);

  function selectTherapist(id: number) {
    setSelectedId(id);
    setSlotStates(null);
    setSelectedDate(today);
    setStripStart(0);
    void loadSlots(id);
    requestAnimationFrame(() => document.getElementById('therapist-details')?.focus());
  }

  const selected = therapists.find((t) => t.id === selectedId) ?? null;
  const therapistBookings = useMemo(
    () => bookings.filter((b) => b.therapist_id === selectedId).sort((a, b) => (b.booking_date + b.booking_time_slot_start).localeCompare(a.booking_date + a.booking_time_slot_start)),
    [bookings, selectedId],
  );
  const allBookings = useMemo(
    () => bookings.slice().sort((a, b) => (b.booking_date + b.booking_time_slot_start).localeCompare(a.booking_date + a.booking_time_slot_start)),
    [bookings],
  );

  /** Cancel or Unblock: a paid booking asks what happens to the money; anything else is a yes/no. */
  function startCancel(b: AdminBooking) {
    if (!canUnblock(b) && isPaidBooking(b)) {
      setRefunding(b);
      return;
    }
    if (!window.confirm(canUnblock(b) ? MESSAGES.blockConfirm('unblock') : MESSAGES.cancelConfirm(b.id))) return;
    void cancelBooking(b);
  }

  async function cancelBooking(b: AdminBooking, refund?: CancelRefund) {
    const unblock = canUnblock(b);
    setRefunding(null);
    setBusy(`cancel-${b.id}`);
    try {
      const res = await adminApi.cancelBooking(b.id, refund);
      setMessage(
        unblock
          ? MESSAGES.slotToggled(formatTime(b.booking_time_slot_start), formatShortDate(b.booking_date), 'unblock')
          : // The server's message says what became of the money (" ₹500.00 refunded.", " No refund.").
            res?.message || MESSAGES.cancelled(b.id),
      );
    } catch (err) {
      const msg = errorMessage(err, 'Unknown error');
      setMessage(
        unblock
          ? MESSAGES.slotToggleFailed('unblock', formatTime(b.booking_time_slot_start), formatShortDate(b.booking_date), msg)
          : MESSAGES.cancelFailed(b.id, msg),
      );
    } finally {
      setBusy(null);
      // Refused or not, the lists show the booking as it now is: a 409 "is paid" means it was paid
      // since the list was loaded, and the next Cancel then asks about the refund.
      if (selectedId) await loadSlots(selectedId);
      else await refreshBookings();
    }
  }

  async function toggleSlot(slot: AdminSlotStateEntry, action: 'block' | 'unblock') {
    if (!selected) return;
    if (!window.confirm(MESSAGES.blockConfirm(action))) return;
    const time = formatTime(slot.start_time);
    const date = formatShortDate(selectedDate);
    setBusy(`slot-${slot.start_time}`);
    try {
      // The server does what was asked or refuses; the notice reports what it did.
      const res = await adminApi.setBlock(selected.id, slot.start_time, selectedDate, action);
      setMessage(MESSAGES.slotToggled(time, date, res?.blocked ? 'block' : 'unblock'));
    } catch (err) {
      setMessage(MESSAGES.slotToggleFailed(action, time, date, errorMessage(err, 'Unknown error')));
    } finally {
      setBusy(null);
      // Refused or not, the grid shows the slot as it now is.
      await loadSlots(selected.id);
    }
  }

  async function recordPayment(b: AdminBooking, method: PaymentMethod, amount: number) {
    setPaying(null);
    setBusy(`pay-${b.id}`);
    try {
      const res = await adminApi.recordPayment(b.id, method, amount);
      setMessage(res?.message || MESSAGES.paymentRecorded(b.id));
    } catch (err) {
      setMessage(errorMessage(err, 'Unknown error'));
    } finally {
      setBusy(null);
      if (selectedId) await loadSlots(selectedId);
      else await refreshBookings();
    }
  }

  async function generateLink(b: AdminBooking) {
    if (!canGenerateLink(b)) {
      setMessage(MESSAGES.linkMissingDetails(b.id));
      return;
    }
    setBusy(`link-${b.id}`);
    try {
      const res = await adminApi.createShareableLink(Number(b.amount), b.id, b.payment_transaction_id!);
      const url = res?.payment_link_url;
      if (!url) {
        setMessage(MESSAGES.linkMissing);
        return;
      }
      await adminApi.updatePaymentLink(b.id, url);
      await copyText(url);
      setMessage(MESSAGES.linkCopied(b.id));
      void refreshBookings();
    } catch (err) {
      setMessage(MESSAGES.linkFailed(b.id, errorMessage(err, 'Unknown error')));
    } finally {
      setBusy(null);
    }
  }

  const bookingActions = (b: AdminBooking) => {
    const unblock = canUnblock(b);
    const cancel = !unblock && canCancel(b, today);
    const link = !b.cancelled && !isBlockBooking(b) && b.payment_status !== 'COMPLETED' && b.payment_status !== 'CANCELLED';
    const pay = canRecordPayment(b);
    if (!unblock && !cancel && !link && !pay) return <span className="muted">--</span>;
    return (
      <div className="adm-btns">
        {pay ? (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            disabled={busy !== null}
            aria-label={`Record payment for booking ${b.id}`}
            onClick={() => setPaying(b)}
          >
            {busy === `pay-${b.id}` ? 'Recording...' : 'Record payment'}
          </button>
        ) : null}
        {unblock ? (
          <button type="button" className="btn btn-sm btn-warn" disabled={busy !== null} onClick={() => startCancel(b)}>
            Unblock
          </button>
        ) : null}
        {cancel ? (
          <button
            type="button"
            className="btn btn-sm btn-danger"
            disabled={busy !== null}
            aria-label={`Cancel booking ${b.id}`}
            onClick={() => startCancel(b)}
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
            onClick={() => void generateLink(b)}
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
      note={b.payment_note}
    />
  );

  const bookingColumns: Column<AdminBooking>[] = [
    { key: 'id', header: 'ID', cell: (b) => b.id, primary: true },
    { key: 'client', header: 'Client', cell: (b) => (isBlockBooking(b) ? <em>Admin block</em> : b.client_full_name || '--') },
    { key: 'date', header: 'Date', cell: (b) => formatShortDate(b.booking_date) },
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

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Admin Dashboard</h1>
          <p className="muted">Manage therapists, availability and bookings.</p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setManualOpen(true)}>
          Manual Booking
        </button>
      </header>

      <Notice message={message} onDismiss={() => setMessage(null)} />

      {/* Money first: what reconciliation found is for super admins only (the server refuses anyone else). */}
      {session?.user.is_superadmin ? <PaymentsAttention /> : null}

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
          {slotsLoading ? (
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
                  <li key={slot.start_time} className={`adm-slot adm-slot--${slot.state}`}>
                    <span className="adm-slot__time">{time}</span>
                    {slot.state === 'booked' ? (
                      <span className="adm-slot__state">Booked</span>
                    ) : slot.state === 'past' ? (
                      <span className="adm-slot__state muted">Past</span>
                    ) : slot.state === 'blocked' ? (
                      <>
                        <span className="adm-slot__state">Blocked</span>
                        {/* A block on the therapist's schedule (no booking id) is not the grid's to lift. */}
                        {slot.booking_id !== null ? (
                          <button
                            type="button"
                            className="btn btn-sm btn-warn"
                            disabled={busy !== null}
                            aria-label={`Unblock ${time}`}
                            onClick={() => void toggleSlot(slot, 'unblock')}
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
                        onClick={() => void toggleSlot(slot, 'block')}
                      >
                        Block
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      ) : (
        <p className="adm-hint card">Choose a therapist above to see their details and availability.</p>
      )}

      {selected ? (
        <DataTable
          title={`Booked Sessions: ${displayName(selected.name)}`}
          rows={therapistBookings}
          columns={bookingColumns}
          rowKey={(b) => b.id}
          empty="No booked sessions for this therapist."
          actions={bookingActions}
          resetKey={selectedId}
        />
      ) : null}

      <DataTable
        title="All Booked Slots"
        rows={allBookings}
        columns={allColumns}
        rowKey={(b) => b.id}
        empty="No bookings yet."
        actions={bookingActions}
      />

      {refunding ? (
        <CancelRefundDialog
          booking={refunding}
          superadmin={session?.user.is_superadmin === true}
          onCancel={() => setRefunding(null)}
          onConfirm={(refund) => void cancelBooking(refunding, refund)}
        />
      ) : null}

      {paying ? <RecordPaymentDialog booking={paying} onCancel={() => setPaying(null)} onConfirm={(m, amount) => void recordPayment(paying, m, amount)} /> : null}

      {manualOpen ? (
        <ManualBooking
          onClose={() => setManualOpen(false)}
          onCreated={(msg) => {
            setManualOpen(false);
            setMessage(msg);
            if (selectedId) void loadSlots(selectedId);
            else void refreshBookings();
          }}
        />
      ) : null}
    </div>
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
