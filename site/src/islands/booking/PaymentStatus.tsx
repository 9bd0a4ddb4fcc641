import { useEffect, useRef, useState, type ReactNode } from 'react';
import { formatPrice } from '../../../../shared/domain/money.ts';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { formatLongDate, formatTime12h, isHhMm } from '../../../../shared/domain/time.ts';
import { getBookingDetails, type BookingDetails } from '../../lib/api.ts';
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
  lookupFailed: 'Failed to retrieve booking details. Please contact support.',
  confirmedTitle: 'Booking Confirmed!',
} as const;

type View =
  | { kind: 'verifying' }
  | { kind: 'failed'; text: string }
  | { kind: 'lookup-failed'; message: string; paymentId: string }
  | { kind: 'confirmed'; booking: BookingDetails }
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
  const bookingId = q.get('razorpay_payment_link_reference_id') || q.get('booking_id') || '';
  if (!linkId || !status) return { kind: 'failed', text: STATUS_TEXT.invalid };

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
  if (status !== 'paid') return { kind: 'failed', text: STATUS_TEXT.failedText };
  if (!bookingId) return { kind: 'lookup-failed', message: STATUS_TEXT.lookupFailed, paymentId: paymentId || 'N/A' };
  try {
    const res = await getBookingDetails(bookingId, params, bookingToken);
    const booking = record(res?.data);
    if (!booking) throw new Error(STATUS_TEXT.lookupFailed);
    return { kind: 'confirmed', booking };
  } catch (e) {
    return { kind: 'lookup-failed', message: (e instanceof Error && e.message) || STATUS_TEXT.lookupFailed, paymentId: paymentId || 'N/A' };
  }
}

export function PaymentStatus({ search, navigate }: { search?: string; navigate?: (url: string) => void } = {}) {
  const [view, setView] = useState<View>({ kind: 'verifying' });
  const headingRef = useRef<HTMLHeadingElement>(null);

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

  let tone: 'ok' | 'error';
  let title: string;
  let body;
  switch (view.kind) {
    case 'failed':
      tone = 'error';
      title = STATUS_TEXT.failedTitle;
      body = <p>{view.text}</p>;
      break;
    case 'lookup-failed':
      tone = 'error';
      title = STATUS_TEXT.lookupFailedTitle;
      body = (
        <>
          <p>{view.message}</p>
          <p>Please try again or contact support with Payment ID: {view.paymentId}</p>
        </>
      );
      break;
    case 'confirmed':
      tone = 'ok';
      title = STATUS_TEXT.confirmedTitle;
      body = (
        <>
          <p>Thank you. Your payment was received and your session is booked. A confirmation has been sent to your email.</p>
          <Details booking={view.booking} />
        </>
      );
      break;
    case 'in-person':
      tone = 'ok';
      title = STATUS_TEXT.confirmedTitle;
      body = (
        <>
          <p>
            Your in-person session is booked. <strong>Payment status: Pending.</strong> Please pay at the centre on the day of your visit, and
            arrive 10 minutes early.
          </p>
          {view.booking ? (
            <Details booking={view.booking} />
          ) : (
            <dl className="summary-list">
              <div className="summary-row">
                <dt>Booking ID</dt>
                <dd>{view.bookingId}</dd>
              </div>
            </dl>
          )}
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
        <button type="button" className="btn btn-primary" onClick={bookAnother}>
          Book Another Appointment
        </button>
        <a className="btn btn-secondary" href="/">
          Go to Home Page
        </a>
      </div>
    </div>
  );
}

function Details({ booking: b }: { booking: BookingDetails }) {
  const offline = String(b.booking_type).toUpperCase() === 'OFFLINE';
  const time = typeof b.booking_time_slot_start === 'string' && isHhMm(b.booking_time_slot_start) ? formatTime12h(b.booking_time_slot_start) : b.booking_time_slot_start;
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
      <Row label="Payment status">{b.payment_status}</Row>
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

export default PaymentStatus;
