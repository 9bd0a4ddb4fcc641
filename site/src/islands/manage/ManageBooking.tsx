import { useCallback, useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { ManageBookingDto, ManageChangeResultDto } from '../../../../shared/contract/manage.ts';
import { REFUND_WORDS } from '../../../../shared/contract/refund-words.ts';
import { formatPrice } from '../../../../shared/domain/money.ts';
import { PAYMENT_STATE_WORDS } from '../../../../shared/domain/payment-state.ts';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { centreNow, formatLongDate, formatTime12h, formatTimeIst, CENTRE_ZONE_LABEL } from '../../../../shared/domain/time.ts';
import { ApiError, cancelManagedBooking, getManagedBooking, getSlotOffer, rescheduleManagedBooking, sessionIcsPath } from '../../lib/api.ts';
import { useModal } from '../../lib/modal.ts';
import { Loading, StateView, useLoad } from '../booking/common.tsx';
import { SlotPicker, type PickedSlot } from '../booking/SlotPicker.tsx';
import { BookAgain } from './BookAgain.tsx';

export const MANAGE_TEXT = {
  loading: 'Loading your booking...',
  notFoundTitle: 'We could not find this booking',
  notFound: 'This Manage booking link is not valid or has expired. Please use the link in your latest confirmation e-mail, or contact us and we will help you.',
  noToken: 'This page opens from the private Manage booking link in your confirmation e-mail.',
  loadFailedTitle: 'We could not load your booking',
  loadFailed: 'Something went wrong while loading your booking. Please try again.',
  summaryTitle: 'Your session',
  cancelledTitle: 'Session cancelled',
  change: 'Change date or time',
  cancel: 'Cancel session',
  pickTitle: 'Choose a new date and time',
  confirmMove: 'Confirm new time',
  keepTime: 'Keep current time',
  dialogTitle: 'Cancel this session?',
  keepSession: 'Keep my session',
  confirmCancel: 'Yes, cancel my session',
  noRefund: REFUND_WORDS.nothingPaid,
  addToCalendar: 'Add to calendar (.ics)',
  noSlots: 'Your therapist has no other free time in the next 15 working days. Please contact us and we will find a time with you.',
} as const;

/**
 * What cancelling returns, in the client's words (shared/contract/refunds.ts, as the e-mails say it):
 * through the original payment method, and what was paid at the centre handed back there.
 */
export function refundSentence(rupees: number, atCentreRupees: number, support: { phone: string; email: string }): string {
  return REFUND_WORDS.onCancel(rupees, atCentreRupees, support);
}

/** Why a change is not offered, in the client's words (the server's policy text follows it). */
export function closedReasonInWords(b: ManageBookingDto): string {
  switch (b.closed_reason) {
    case 'NOTICE_WINDOW': {
      const at = centreNow(new Date(b.changes_close_at));
      return `Online changes closed at ${formatTimeIst(at.time)} on ${formatLongDate(at.date)}, as your session is now close.`;
    }
    case 'RESCHEDULE_LIMIT':
      return 'This session has already been moved as many times as can be done online.';
    case 'CANCELLED':
      return 'This session has been cancelled, so there is nothing left to change.';
    case 'PAST':
      return 'The time of this session has passed.';
    case 'NOT_CONFIRMED':
      return 'This booking is not confirmed yet, so it cannot be changed online.';
    default:
      return 'This booking cannot be changed online.';
  }
}

type Support = { phone: string; phoneHref: string; email: string; emailHref: string };

/**
 * The booking is asked for as soon as this module runs, while React is still starting: the page's
 * largest paint is the booking, so its answer should not wait for the first render's effect.
 */
let early: { token: string; answer: Promise<ManageBookingDto> } | null = null;
if (typeof window !== 'undefined') {
  const token = new URLSearchParams(window.location.search).get('token');
  if (token) {
    early = { token, answer: getManagedBooking(token) };
    early.answer.catch(() => {}); // handled where it is used
  }
}

/** The early answer for this token (once), else a new question. */
function askForBooking(token: string): Promise<ManageBookingDto> {
  if (early?.token === token) {
    const { answer } = early;
    early = null;
    return answer;
  }
  return getManagedBooking(token);
}

type View =
  | { kind: 'loading' }
  | { kind: 'not-found'; noToken: boolean }
  | { kind: 'error'; message: string }
  /** `notice`: what the last change did; `refunded`: the refund stated when the client cancelled here. */
  | { kind: 'booking'; booking: ManageBookingDto; notice: string | null; refunded: number | null };

export type ManageBookingProps = {
  /** The query string (tests); otherwise the page's own. */
  search?: string;
  /** The centre's contacts from the site's configuration, for when there is no booking to take them from. */
  supportPhone: string;
  supportPhoneHref: string;
  supportEmail: string;
  supportEmailHref: string;
  /** Navigates the page (tests); otherwise window.location. */
  navigate?: (url: string) => void;
};

const telHref = (phone: string) => `tel:${phone.trim().startsWith('+') ? '+' : ''}${phone.replace(/[^\d]/g, '')}`;

export function ManageBooking({ search, supportPhone, supportPhoneHref, supportEmail, supportEmailHref, navigate }: ManageBookingProps) {
  const [token] = useState(() => new URLSearchParams(search ?? (typeof window === 'undefined' ? '' : window.location.search)).get('token') ?? '');
  const [view, setView] = useState<View>(() => (token ? { kind: 'loading' } : { kind: 'not-found', noToken: true }));
  const [attempt, setAttempt] = useState(0);
  // Bumped by every change the client makes: the page's heading then takes focus, so a screen reader
  // announces the new state and keyboard users start again from the top of it.
  const [changes, setChanges] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the trigger of Try again.
  useEffect(() => {
    if (!token) return;
    let live = true;
    setView({ kind: 'loading' });
    askForBooking(token).then(
      (booking) => live && setView({ kind: 'booking', booking, notice: null, refunded: null }),
      (e: unknown) => {
        if (!live) return;
        if (e instanceof ApiError && e.status === 404) setView({ kind: 'not-found', noToken: false });
        else setView({ kind: 'error', message: MANAGE_TEXT.loadFailed });
      },
    );
    return () => {
      live = false;
    };
  }, [token, attempt]);

  useEffect(() => {
    if (changes > 0) headingRef.current?.focus();
  }, [changes]);

  const fallbackSupport: Support = { phone: supportPhone, phoneHref: supportPhoneHref, email: supportEmail, emailHref: supportEmailHref };

  /** A change the server made: the new booking, its message, and focus to the heading. */
  const changed = (result: ManageChangeResultDto, refunded: number | null) => {
    setView({ kind: 'booking', booking: result.booking, notice: result.message, refunded });
    setChanges((n) => n + 1);
  };
  /** The token stopped working meanwhile (expired): the same page as an unknown link. */
  const lost = () => {
    setView({ kind: 'not-found', noToken: false });
    setChanges((n) => n + 1);
  };

  switch (view.kind) {
    case 'loading':
      return (
        <div className="card manage-card">
          <Loading text={MANAGE_TEXT.loading} />
        </div>
      );
    case 'not-found':
      return (
        <div className="card manage-card manage-card--centred">
          <h2 ref={headingRef} tabIndex={-1} className="manage-title">
            {MANAGE_TEXT.notFoundTitle}
          </h2>
          <p>{view.noToken ? MANAGE_TEXT.noToken : MANAGE_TEXT.notFound}</p>
          <ContactLine support={fallbackSupport} />
          <div className="btn-row manage-actions manage-actions--centred">
            <a className="btn btn-secondary" href="/">
              Go to Home Page
            </a>
          </div>
        </div>
      );
    case 'error':
      return (
        <div className="card manage-card manage-card--centred" role="alert">
          <h2 ref={headingRef} tabIndex={-1} className="manage-title">
            {MANAGE_TEXT.loadFailedTitle}
          </h2>
          <p>{view.message}</p>
          <ContactLine support={fallbackSupport} />
          <div className="btn-row manage-actions manage-actions--centred">
            <button type="button" className="btn btn-primary" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          </div>
        </div>
      );
    case 'booking':
      return (
        <BookingView
          key={changes}
          token={token}
          booking={view.booking}
          notice={view.notice}
          refunded={view.refunded}
          headingRef={headingRef}
          onChanged={changed}
          onLost={lost}
          navigate={navigate}
        />
      );
  }
}

function BookingView({
  token,
  booking: b,
  notice,
  refunded,
  headingRef,
  onChanged,
  onLost,
  navigate,
}: {
  token: string;
  booking: ManageBookingDto;
  notice: string | null;
  refunded: number | null;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onChanged: (result: ManageChangeResultDto, refunded: number | null) => void;
  onLost: () => void;
  navigate: ((url: string) => void) | undefined;
}) {
  const [picking, setPicking] = useState(false);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const changeRef = useRef<HTMLButtonElement>(null);
  const support: Support = {
    phone: b.support.phone,
    phoneHref: telHref(b.support.phone),
    email: b.support.email,
    emailHref: `mailto:${b.support.email}`,
  };
  const closed = !b.cancelled && (!b.can_reschedule || !b.can_cancel);

  return (
    <div className="manage">
      <section className="card manage-card" aria-labelledby="manage-title">
        <h2 ref={headingRef} id="manage-title" tabIndex={-1} className="manage-title">
          {b.cancelled ? MANAGE_TEXT.cancelledTitle : MANAGE_TEXT.summaryTitle}
        </h2>
        {notice && (
          <p className="notice notice--ok" role="status">
            {notice}
          </p>
        )}
        {/* The refund in words, unless the server's own message has said it already (it names the amount refunded). */}
        {b.cancelled && refunded !== null && !/refund/i.test(notice ?? '') && <p className="manage-refund">{refundSentence(refunded, 0, b.support)}</p>}
        <Summary booking={b} />
        {!b.cancelled && <AddToCalendar token={token} booking={b} />}
      </section>

      {!b.cancelled && picking && (
        <ReschedulePanel
          token={token}
          booking={b}
          onDone={onChanged}
          onLost={onLost}
          onClose={() => {
            setPicking(false);
            // Back to where the client was: the button that opened the picker.
            requestAnimationFrame(() => changeRef.current?.focus());
          }}
        />
      )}

      {!b.cancelled && !picking && (b.can_reschedule || b.can_cancel) && (
        <section className="card manage-card" aria-labelledby="manage-actions-title">
          <h2 id="manage-actions-title" className="manage-subtitle">
            Need to change your plans?
          </h2>
          <p className="muted">
            You can {b.can_reschedule && b.can_cancel ? 'change or cancel' : b.can_reschedule ? 'change' : 'cancel'} your session online until {closeTime(b)}.
            {b.can_reschedule && ` ${movesLeft(b.reschedules_left)}`}
          </p>
          <div className="btn-row manage-actions">
            {b.can_reschedule && (
              <button ref={changeRef} type="button" className="btn btn-primary" onClick={() => setPicking(true)}>
                {MANAGE_TEXT.change}
              </button>
            )}
            {b.can_cancel && (
              <button type="button" className="btn btn-danger-outline" onClick={() => setConfirmingCancel(true)}>
                {MANAGE_TEXT.cancel}
              </button>
            )}
          </div>
        </section>
      )}

      {closed && <ClosedPolicy booking={b} support={support} />}

      {b.series_sessions && <SeriesList sessions={b.series_sessions} />}
      {!b.cancelled && !picking && b.can_book_again && <BookAgain token={token} booking={b} navigate={navigate} />}

      {b.cancelled && (
        <section className="card manage-card" aria-labelledby="manage-next-title">
          <h2 id="manage-next-title" className="manage-subtitle">
            Would you like another time?
          </h2>
          <p>You are welcome to book a new session whenever it suits you.</p>
          <ContactLine support={support} lead="Questions? Call us on" />
          <div className="btn-row manage-actions">
            <a className="btn btn-primary" href="/book">
              Book a new session
            </a>
          </div>
        </section>
      )}

      {confirmingCancel && (
        <CancelDialog
          token={token}
          booking={b}
          onClose={() => setConfirmingCancel(false)}
          onDone={(result) => onChanged(result, b.refund_on_cancel)}
          onLost={onLost}
        />
      )}
    </div>
  );
}

/**
 * The sessions of the client's series (issue 34), this one marked: each opens its own Manage booking
 * page, where it is moved or cancelled alone within the policy.
 */
function SeriesList({ sessions }: { sessions: NonNullable<ManageBookingDto['series_sessions']> }) {
  return (
    <section className="card manage-card" aria-labelledby="manage-series-title">
      <h2 id="manage-series-title" className="manage-subtitle">
        Your sessions in this series
      </h2>
      <ol className="manage-series">
        {sessions.map((s) => (
          <li key={s.manage_url} aria-current={s.current ? 'true' : undefined}>
            {s.current ? (
              <strong>
                {formatLongDate(s.booking_date)} at {formatTimeIst(s.booking_time_slot_start)} (this session)
              </strong>
            ) : (
              <a href={s.manage_url}>
                {formatLongDate(s.booking_date)} at {formatTimeIst(s.booking_time_slot_start)}
              </a>
            )}
            {s.cancelled ? ' — cancelled' : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** "11:00 AM IST on Sunday, November 29, 2026" from the server's instant. */
function closeTime(b: ManageBookingDto): string {
  const at = centreNow(new Date(b.changes_close_at));
  return `${formatTimeIst(at.time)} on ${formatLongDate(at.date)}`;
}

function movesLeft(n: number): string {
  return n === 1 ? 'You can move this session once more.' : `You can move this session ${n} more times.`;
}

function sessionTime(b: Pick<ManageBookingDto, 'booking_time_slot_start' | 'booking_time_slot_end'>): string {
  return `${formatTime12h(b.booking_time_slot_start)} – ${formatTime12h(b.booking_time_slot_end)} ${CENTRE_ZONE_LABEL}`;
}

function Summary({ booking: b }: { booking: ManageBookingDto }) {
  const online = b.booking_type === 'ONLINE';
  return (
    <dl className="summary-list">
      <Row label="Booking reference">{b.booking_reference}</Row>
      <Row label="Therapist">
        {displayName(b.therapist.name)}
        {b.therapist.title && <span className="summary-sub">{b.therapist.title}</span>}
      </Row>
      <Row label="Session">{b.session_type}</Row>
      <Row label="Where">
        {online ? 'Online (video call)' : 'In person'}
        {!online && b.centre && (
          <span className="summary-sub">
            {b.centre.name}, {b.centre.address}
          </span>
        )}
      </Row>
      <Row label="Date">{formatLongDate(b.booking_date)}</Row>
      <Row label="Time">{sessionTime(b)}</Row>
      <Row label="Amount">{formatPrice(b.amount)}</Row>
      <Row label="Payment status">{PAYMENT_STATE_WORDS[b.payment_state]}</Row>
      {online && b.meeting_link && !b.cancelled && (
        <Row label="Meeting link">
          <a href={b.meeting_link} target="_blank" rel="noopener noreferrer">
            {b.meeting_link}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </Row>
      )}
    </dl>
  );
}

/**
 * "Add to calendar": the session's invitation from the server (GET /api/manage/{token}/session.ics),
 * the same event as the e-mailed one, with the same UID and the latest change's SEQUENCE: a calendar
 * that has it keeps one event, and a move updates it.
 */
function AddToCalendar({ token, booking: b }: { token: string; booking: ManageBookingDto }) {
  return (
    <div className="manage-calendar">
      <a className="btn btn-secondary" href={sessionIcsPath(token)} download={`therapy-session-${b.booking_reference}.ics`}>
        {MANAGE_TEXT.addToCalendar}
      </a>
      <p className="muted">The same event as the invitation in your e-mails: your calendar keeps one, and it follows any change.</p>
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="summary-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function ContactLine({ support, lead = 'Please call us on' }: { support: Support; lead?: string }) {
  return (
    <p className="manage-contact">
      {lead} <a href={support.phoneHref}>{support.phone}</a> or e-mail <a href={support.emailHref}>{support.email}</a>.
    </p>
  );
}

function ClosedPolicy({ booking: b, support }: { booking: ManageBookingDto; support: Support }) {
  const title = !b.can_reschedule && !b.can_cancel ? 'Changes are closed' : !b.can_reschedule ? 'Changing the time is closed' : 'Cancelling is closed';
  return (
    <section className="card manage-card manage-closed" aria-labelledby="manage-closed-title">
      <h2 id="manage-closed-title" className="manage-subtitle">
        {title}
      </h2>
      {b.closed_reason && <p>{closedReasonInWords(b)}</p>}
      <p className="manage-policy">{b.policy}</p>
      <ContactLine support={support} lead="To talk it over, call us on" />
    </section>
  );
}

/** An error beside the action that caused it, read out as it appears. */
function ActionError({ message }: { message: string | null }) {
  return (
    <div className="manage-error" aria-live="assertive" aria-atomic="true">
      {message && <p className="notice notice--error">{message}</p>}
    </div>
  );
}

function ReschedulePanel({
  token,
  booking: b,
  onDone,
  onLost,
  onClose,
}: {
  token: string;
  booking: ManageBookingDto;
  onDone: (result: ManageChangeResultDto, refunded: null) => void;
  onLost: () => void;
  onClose: () => void;
}) {
  const slots = useLoad(() => getSlotOffer(b.therapist.id), String(b.therapist.id));
  const [picked, setPicked] = useState<PickedSlot | null>(null);
  const [shownDate, setShownDate] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);

  // Opening the picker moves focus to it: keyboard and screen-reader users land on its heading.
  useEffect(() => titleRef.current?.focus(), []);

  const pickDate = useCallback((d: string) => {
    setShownDate(d);
    setPicked((p) => (p && p.date !== d ? null : p));
  }, []);
  const pickSlot = useCallback((s: PickedSlot | null) => {
    setPicked(s);
    if (s) setError(null);
  }, []);

  const confirm = async () => {
    if (!picked || busy) return;
    setBusy(true);
    setError(null);
    try {
      const result = await rescheduleManagedBooking(token, { booking_date: picked.date, booking_time_slot_start: picked.start_time });
      onDone(result, null);
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError && e.status === 404) return onLost();
      setError(e instanceof Error && e.message ? e.message : 'The time could not be changed. Please try again.');
      if (e instanceof ApiError && (e.status === 409 || e.status === 400)) {
        // Taken or no longer offered meanwhile: show what is free now, on the date the client was on.
        setShownDate(picked.date);
        setPicked(null);
        slots.reload();
      }
    }
  };

  return (
    <section className="card manage-card manage-picker" aria-labelledby="manage-pick-title">
      <h2 ref={titleRef} id="manage-pick-title" tabIndex={-1} className="manage-subtitle">
        {MANAGE_TEXT.pickTitle}
      </h2>
      <p className="muted">
        With {displayName(b.therapist.name)}. Your session stays on {formatLongDate(b.booking_date)} at {formatTimeIst(b.booking_time_slot_start)} until you
        confirm a new time.
      </p>
      <div className="slot-picker">
        {slots.status === 'loading' && <Loading text="Loading available time slots..." />}
        {slots.status === 'error' && (
          <StateView title="Failed to load time slots." tone="error" alert>
            <p>Please try again.</p>
            <button type="button" className="btn btn-secondary" onClick={slots.reload}>
              Try again
            </button>
          </StateView>
        )}
        {slots.status === 'done' && (
          <SlotPicker
            days={slots.data.days}
            selected={picked}
            shownDate={shownDate}
            onPickDate={pickDate}
            onPickSlot={pickSlot}
            noSlotsText={MANAGE_TEXT.noSlots}
          />
        )}
      </div>
      {picked && (
        <p className="manage-picked">
          New time: <strong>{formatLongDate(picked.date)}</strong> at <strong>{formatTimeIst(picked.start_time)}</strong>
        </p>
      )}
      <ActionError message={error} />
      <div className="wizard-nav">
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
          {MANAGE_TEXT.keepTime}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void confirm()} disabled={!picked || busy} aria-busy={busy}>
          {busy ? 'Moving your session...' : MANAGE_TEXT.confirmMove}
        </button>
      </div>
    </section>
  );
}

function CancelDialog({
  token,
  booking: b,
  onClose,
  onDone,
  onLost,
}: {
  token: string;
  booking: ManageBookingDto;
  onClose: () => void;
  onDone: (result: ManageChangeResultDto) => void;
  onLost: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A modal: focus starts on the safe choice, stays inside, Escape closes it (not while the cancel is
  // on its way), and the opener gets focus back.
  useModal(ref, () => !busy && onClose(), '[data-autofocus]');

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      onDone(await cancelManagedBooking(token));
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError && e.status === 404) return onLost();
      setError(e instanceof Error && e.message ? e.message : 'The session could not be cancelled. Please try again.');
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a press outside the dialog closes it; the keyboard's way is Escape (useModal).
    <div className="manage-backdrop" onMouseDown={(e) => e.target === e.currentTarget && !busy && onClose()}>
      <div ref={ref} className="manage-dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={bodyId}>
        <h2 id={titleId} className="manage-subtitle">
          {MANAGE_TEXT.dialogTitle}
        </h2>
        <div id={bodyId}>
          <p>
            Your session with {displayName(b.therapist.name)} on {formatLongDate(b.booking_date)} at {formatTimeIst(b.booking_time_slot_start)} will be
            cancelled, and its time offered to others.
          </p>
          <p className="manage-refund">{refundSentence(b.refund_on_cancel, b.refund_on_cancel_at_centre, b.support)}</p>
        </div>
        <ActionError message={error} />
        <div className="manage-dialog-actions">
          <button type="button" className="btn btn-secondary" data-autofocus onClick={onClose} disabled={busy}>
            {MANAGE_TEXT.keepSession}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void confirm()} disabled={busy} aria-busy={busy}>
            {busy ? 'Cancelling...' : MANAGE_TEXT.confirmCancel}
          </button>
        </div>
      </div>
    </div>
  );
}
