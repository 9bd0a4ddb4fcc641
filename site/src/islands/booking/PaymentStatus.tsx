import { useEffect, useRef, useState, type ReactNode } from 'react';
import { API_MESSAGES } from '../../../../shared/contract/messages.ts';
import { shortNoticeText } from '../../../../shared/contract/policy.ts';
import { DEFAULT_MANAGE_POLICY, type ManagePolicy, type Support } from '../../../../shared/domain/manage.ts';
import { formatPrice } from '../../../../shared/domain/money.ts';
import { bookingOfReference } from '../../../../shared/domain/payment-link-reference.ts';
import { PAYMENT_STATE_WORDS } from '../../../../shared/domain/payment-state.ts';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { centreNow, formatLongDate, formatTimeIst, isHhMm } from '../../../../shared/domain/time.ts';
import { getBookingDetails, manageTokenOf, sessionIcsPath, type BookingDetails } from '../../lib/api.ts';
import { $booking, resetBooking } from '../../stores/booking.ts';

/** The provider's callback parameters that are forwarded to the server's lookup. */
const FORWARDED = [
  'razorpay_payment_id',
  'razorpay_payment_link_id',
  'razorpay_payment_link_reference_id',
  'razorpay_payment_link_status',
  'razorpay_signature',
] as const;

export const STATUS_TEXT = {
  verifying: 'Verifying your booking...',
  invalid: 'Payment was unsuccessful or the payment link is invalid.',
  failedTitle: 'Payment Failed!',
  failedText: 'Your payment could not be processed.',
  lookupFailedTitle: 'Booking Confirmation Failed!',
  lookupFailed: API_MESSAGES.bookingDetailsFailed,
  confirmedTitle: 'Booking Confirmed!',
  tryAgain: 'Try payment again',
  holdEnded: 'The time held for this booking has ended, so the slot may have gone to someone else. Please book again.',
  preparingLink: 'Preparing your video link...',
  manageBooking: 'Manage booking',
  linkLater: 'Your video link is on its way: we will e-mail it to you, and it will show here when you open this page again.',
} as const;

/** A failed attempt's booking: its reference and, while its hold lasts, its link to pay again. */
export type Retry = { url: string; secondsLeft: number };

type Proof = { params: Record<string, string>; token: string | null };

type View =
  | { kind: 'verifying' }
  | { kind: 'failed'; text: string; reference: string | null; retry: Retry | null; holdEnded: boolean }
  | { kind: 'lookup-failed'; message: string; paymentId: string }
  | { kind: 'confirmed'; booking: BookingDetails; proof: Proof }
  | { kind: 'in-person'; bookingId: string; booking: BookingDetails | null };

/** The server answers the record only to the booking's client; otherwise the payment status alone. */
function record(data: BookingDetails | { payment_status: string } | undefined): BookingDetails | null {
  return data && 'id' in data ? data : null;
}

/**
 * `bookingToken`: the token the wizard kept for this booking (same tab), which lets the server answer
 * the booking's details; an online payment's signed callback does the same without it.
 */
export async function resolveStatus(search: string, bookingToken: string | null = $booking.get().pending?.bookingToken ?? null): Promise<View> {
  const q = new URLSearchParams(search);
  const linkId = q.get('razorpay_payment_link_id') ?? '';
  const status = (q.get('razorpay_payment_link_status') ?? '').toLowerCase();
  const paymentId = q.get('razorpay_payment_id') ?? '';
  // The booking's number: a link the centre made has a suffix after it (linkReference).
  const reference = q.get('razorpay_payment_link_reference_id');
  const bookingId = (reference ? String(bookingOfReference(reference) ?? reference) : '') || q.get('booking_id') || '';
  if (!linkId || !status) return { kind: 'failed', text: STATUS_TEXT.invalid, reference: null, retry: null, holdEnded: false };

  const params: Record<string, string> = { payment_status: status };
  for (const k of FORWARDED) {
    const v = q.get(k);
    if (v) params[k] = v;
  }

  // In person: the booking is held and paid at the visit, so 'pending' is not a failure.
  if (status === 'pending') {
    const id = bookingId || linkId;
    let booking: BookingDetails | null = null;
    try {
      booking = record((await getBookingDetails(linkId, params, bookingToken)).data);
    } catch {
      booking = null; // the booking exists; the page still confirms it without the extra details
    }
    return { kind: 'in-person', bookingId: id, booking };
  }
  if (status !== 'paid') return failedView(linkId, bookingId, params, bookingToken);
  if (!bookingId) return { kind: 'lookup-failed', message: STATUS_TEXT.lookupFailed, paymentId: paymentId || 'N/A' };
  try {
    const res = await getBookingDetails(bookingId, params, bookingToken);
    const booking = record(res?.data);
    if (!booking) throw new Error(STATUS_TEXT.lookupFailed);
    return { kind: 'confirmed', booking, proof: { params, token: bookingToken } };
  } catch (e) {
    return { kind: 'lookup-failed', message: (e instanceof Error && e.message) || STATUS_TEXT.lookupFailed, paymentId: paymentId || 'N/A' };
  }
}

/**
 * A failed attempt leaves the booking holding its slot until the hold ends, and its link open: the
 * client who made it (the wizard's token, same tab) gets the link again and the time left. Anyone
 * else holding the address learns only what the query already says.
 */
async function failedView(linkId: string, bookingId: string, params: Record<string, string>, token: string | null): Promise<View> {
  const base = { kind: 'failed' as const, text: STATUS_TEXT.failedText, reference: bookingId || null, retry: null, holdEnded: false };
  if (!token) return base;
  let booking: BookingDetails | null;
  try {
    booking = record((await getBookingDetails(linkId, params, token)).data);
  } catch {
    return base;
  }
  if (!booking) return base;
  const reference = String(booking.id);
  // Paid after all (another attempt, or the provider's late word): the booking is confirmed.
  if (booking.payment_status === 'COMPLETED' && !booking.cancelled) return { kind: 'confirmed', booking, proof: { params, token } };
  const secondsLeft = typeof booking.payment_hold_seconds_left === 'number' ? booking.payment_hold_seconds_left : 0;
  const url = typeof booking.payment_link_url === 'string' && booking.payment_link_url ? booking.payment_link_url : ($booking.get().pending?.linkUrl ?? null);
  const open = booking.payment_status === 'INITIATED' && !booking.cancelled && secondsLeft > 0;
  return { ...base, reference, retry: open && url ? { url, secondsLeft } : null, holdEnded: !open };
}

export type PaymentStatusProps = {
  search?: string;
  navigate?: (url: string) => void;
  /** The centre's support phone and e-mail (configuration) and the phone's tel: address. */
  supportPhone?: string;
  supportPhoneHref?: string;
  supportEmail?: string;
  /** The client's change policy (configuration): a session booked within its notice offers no changes. */
  changePolicy?: ManagePolicy;
  /** How often, and how many times, the page asks again for a new online booking's meeting link. */
  pollMs?: number;
  pollAttempts?: number;
};

export function PaymentStatus({
  search,
  navigate,
  supportPhone,
  supportPhoneHref,
  supportEmail,
  changePolicy = DEFAULT_MANAGE_POLICY,
  pollMs = 3000,
  pollAttempts = 10,
}: PaymentStatusProps = {}) {
  const [view, setView] = useState<View>({ kind: 'verifying' });
  const headingRef = useRef<HTMLHeadingElement>(null);
  const changes: ChangeRules = { policy: changePolicy, support: supportPhone && supportEmail ? { phone: supportPhone, email: supportEmail } : undefined };

  useEffect(() => {
    let live = true;
    void resolveStatus(search ?? window.location.search).then((v) => {
      if (!live) return;
      // The booking state is reset once the booking is known to exist.
      if (v.kind === 'confirmed' || v.kind === 'in-person') resetBooking();
      setView(v);
    });
    return () => {
      live = false;
    };
  }, [search]);

  useEffect(() => {
    if (view.kind !== 'verifying') headingRef.current?.focus();
  }, [view.kind]);

  const bookAnother = () => {
    resetBooking();
    (navigate ?? ((u: string) => window.location.assign(u)))('/');
  };

  if (view.kind === 'verifying') {
    return (
      <div className="card status-card" role="status">
        <span className="spinner" aria-hidden="true" />
        <p className="status-text">{STATUS_TEXT.verifying}</p>
      </div>
    );
  }

  const phone = supportPhone ? (
    <p className="status-help">
      Questions? Call us on <a href={supportPhoneHref ?? `tel:${supportPhone.replace(/[^\d+]/g, '')}`}>{supportPhone}</a>.
    </p>
  ) : null;

  let tone: 'ok' | 'error';
  let title: string;
  let body;
  let primary: ReactNode = null;
  switch (view.kind) {
    case 'failed':
      tone = 'error';
      title = STATUS_TEXT.failedTitle;
      body = (
        <>
          <p>{view.text}</p>
          {view.reference && (
            <dl className="summary-list">
              <Row label="Booking reference">{view.reference}</Row>
            </dl>
          )}
          {view.retry ? <HoldLeft retry={view.retry} /> : view.holdEnded && <p>{STATUS_TEXT.holdEnded}</p>}
          {phone}
        </>
      );
      if (view.retry) primary = <RetryLink retry={view.retry} />;
      break;
    case 'lookup-failed':
      tone = 'error';
      title = STATUS_TEXT.lookupFailedTitle;
      body = (
        <>
          <p>{view.message}</p>
          <p>Please try again or contact support with Payment ID: {view.paymentId}</p>
          {phone}
        </>
      );
      break;
    case 'confirmed':
      tone = 'ok';
      title = STATUS_TEXT.confirmedTitle;
      body = (
        <>
          <p>Thank you. Your payment was received and your session is booked. A confirmation has been sent to your email.</p>
          <Confirmed booking={view.booking} proof={view.proof} changes={changes} pollMs={pollMs} pollAttempts={pollAttempts} />
          {phone}
        </>
      );
      break;
    case 'in-person':
      tone = 'ok';
      title = STATUS_TEXT.confirmedTitle;
      body = (
        <>
          <p>
            Your in-person session is booked. <strong>Payment status: Pending.</strong> Please pay at the centre on the day of your visit, and arrive 10 minutes
            early.
          </p>
          {view.booking ? (
            <>
              <Details booking={view.booking} />
              <AddToCalendar booking={view.booking} />
              <ManageLink booking={view.booking} changes={changes} />
            </>
          ) : (
            <dl className="summary-list">
              <Row label="Booking ID">{view.bookingId}</Row>
            </dl>
          )}
          {phone}
        </>
      );
      break;
  }

  return (
    <div className={`card status-card status-card--${tone}`}>
      <span className={`status-icon status-icon--${tone}`} aria-hidden="true">
        {tone === 'ok' ? '✓' : '!'}
      </span>
      <h2 ref={headingRef} tabIndex={-1} className="status-title">
        {title}
      </h2>
      <div className="status-body">{body}</div>
      <div className="btn-row status-actions">
        {primary}
        <button type="button" className={primary ? 'btn btn-secondary' : 'btn btn-primary'} onClick={bookAnother}>
          Book Another Appointment
        </button>
        <a className="btn btn-secondary" href="/">
          Go to Home Page
        </a>
      </div>
    </div>
  );
}

/** Minutes left of a hold, counted down from the server's figure (the client's clock may be wrong). */
function useSecondsLeft(secondsLeft: number): number {
  const [deadline] = useState(() => Date.now() + secondsLeft * 1000);
  const [left, setLeft] = useState(secondsLeft);
  useEffect(() => {
    const tick = () => setLeft(Math.max(0, Math.round((deadline - Date.now()) / 1000)));
    const timer = setInterval(tick, 15_000);
    return () => clearInterval(timer);
  }, [deadline]);
  return left;
}

function HoldLeft({ retry }: { retry: Retry }) {
  const left = useSecondsLeft(retry.secondsLeft);
  const [until] = useState(() => formatTimeIst(centreNow(new Date(Date.now() + retry.secondsLeft * 1000)).time));
  if (left <= 0) return <p>{STATUS_TEXT.holdEnded}</p>;
  const minutes = Math.max(1, Math.ceil(left / 60));
  return (
    <p className="hold-left">
      Your time slot is still held for you for about <strong>{minutes === 1 ? '1 minute' : `${minutes} minutes`}</strong> (until {until}). You can try the
      payment again with the same link.
    </p>
  );
}

function RetryLink({ retry }: { retry: Retry }) {
  const left = useSecondsLeft(retry.secondsLeft);
  if (left <= 0) return null;
  return (
    <a className="btn btn-primary" href={retry.url}>
      {STATUS_TEXT.tryAgain}
    </a>
  );
}

/**
 * A new online booking's meeting link is made by the worker just after the payment: the page asks
 * again a few times, saying it is preparing the link, before leaving it to the e-mail.
 */
function Confirmed({
  booking: first,
  proof,
  changes,
  pollMs,
  pollAttempts,
}: {
  booking: BookingDetails;
  proof: Proof;
  changes: ChangeRules;
  pollMs: number;
  pollAttempts: number;
}) {
  const [booking, setBooking] = useState(first);
  const online = String(booking.booking_type).toUpperCase() === 'ONLINE';
  const waiting = online && !booking.google_meet_link;
  const [gaveUp, setGaveUp] = useState(false);

  useEffect(() => {
    if (!waiting) return;
    let live = true;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout>;
    const ask = () => {
      tries += 1;
      void getBookingDetails(String(first.id), proof.params, proof.token)
        .then((res) => record(res?.data))
        .catch(() => null)
        .then((next) => {
          if (!live) return;
          if (next?.google_meet_link) return setBooking(next);
          if (tries >= pollAttempts) return setGaveUp(true);
          timer = setTimeout(ask, pollMs);
        });
    };
    timer = setTimeout(ask, pollMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [waiting, first.id, proof, pollMs, pollAttempts]);

  return (
    <>
      <Details booking={booking} />
      {waiting && !gaveUp && (
        <div className="status-wait" role="status">
          <span className="spinner spinner--small" aria-hidden="true" />
          <span>{STATUS_TEXT.preparingLink}</span>
        </div>
      )}
      {waiting && gaveUp && <p className="muted">{STATUS_TEXT.linkLater}</p>}
      <AddToCalendar booking={booking} />
      <ManageLink booking={booking} changes={changes} />
    </>
  );
}

/** The client's change policy and whom to call, from the site's configuration. */
type ChangeRules = { policy: ManagePolicy; support: Support | undefined };

/**
 * "Add to calendar": the session's invitation as the server builds it for the e-mails (GET
 * /api/manage/{token}/session.ics), so the calendar holds one event, which a later change moves.
 */
function AddToCalendar({ booking }: { booking: BookingDetails }) {
  const token = booking.cancelled === true ? null : manageTokenOf(booking.manage_url);
  if (!token) return null;
  return (
    <div className="add-calendar">
      <h3 className="add-calendar-title">Add to calendar</h3>
      <p className="muted">The same event as the invitation in your confirmation e-mail: a calendar that already has it keeps one.</p>
      <div className="btn-row">
        <a className="btn btn-secondary" href={sessionIcsPath(token)} download={`therapy-session-${booking.id}.ics`}>
          Download .ics
        </a>
      </div>
    </div>
  );
}

/** The server's Manage booking address, only as a web address (never a script URL) on this site or its own. */
function manageHref(url: unknown): string | null {
  if (typeof url !== 'string' || !url) return null;
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * A confirmed booking's private link to move or cancel it (the same link as in the confirmation e-mail),
 * only while changes are open: a session booked within the notice says so instead.
 */
function ManageLink({ booking, changes }: { booking: BookingDetails; changes: ChangeRules }) {
  const href = booking.cancelled === true ? null : manageHref(booking.manage_url);
  if (!href) return null;
  if (!booking.changes_open) {
    return (
      <div className="manage-link">
        <h3 className="add-calendar-title">Need to change your plans?</h3>
        <p className="muted short-notice">{shortNoticeText(changes.policy, changes.support)}</p>
      </div>
    );
  }
  return (
    <div className="manage-link">
      <h3 className="add-calendar-title">Need to change your plans?</h3>
      <p className="muted">Move your session to another time or cancel it with your private link, also in your confirmation e-mail.</p>
      <a className="btn btn-secondary" href={href}>
        {STATUS_TEXT.manageBooking}
      </a>
    </div>
  );
}

function Details({ booking: b }: { booking: BookingDetails }) {
  const offline = String(b.booking_type).toUpperCase() === 'OFFLINE';
  const time =
    typeof b.booking_time_slot_start === 'string' && isHhMm(b.booking_time_slot_start) ? formatTimeIst(b.booking_time_slot_start) : b.booking_time_slot_start;
  let date = b.booking_date;
  try {
    date = formatLongDate(b.booking_date);
  } catch {
    // keep the server's text
  }
  return (
    <dl className="summary-list">
      <Row label="Booking ID">{b.id}</Row>
      <Row label="Name">{b.client_full_name}</Row>
      <Row label="Therapist">{b.therapist_name ? displayName(b.therapist_name) : ''}</Row>
      <Row label="Session">{offline ? 'In-Person Session' : 'Online Session'}</Row>
      <Row label="Date">{date}</Row>
      <Row label="Time">{time}</Row>
      {offline && b.location_name && (
        <Row label="Location">
          {b.location_name}
          {b.location_address && <span className="summary-sub">{b.location_address}</span>}
        </Row>
      )}
      {!offline && b.google_meet_link && (
        <Row label="Meeting link">
          <a href={b.google_meet_link} target="_blank" rel="noopener">
            {b.google_meet_link}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </Row>
      )}
      <Row label="Payment status">{PAYMENT_STATE_WORDS[b.payment_state]}</Row>
      {typeof b.amount === 'number' && <Row label="Amount">{formatPrice(b.amount)}</Row>}
    </dl>
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
