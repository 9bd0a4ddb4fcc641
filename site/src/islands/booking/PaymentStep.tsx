import { useStore } from '@nanostores/react';
import { useRef, useState, type ReactNode } from 'react';
import { API_MESSAGES, WIZARD_MESSAGES } from '../../../../shared/contract/messages.ts';
import { shortNoticeText } from '../../../../shared/contract/policy.ts';
import { formatPrice } from '../../../../shared/domain/money.ts';
import { SESSION_MINUTES } from '../../../../shared/domain/session.ts';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { normaliseIndianMobile } from '../../../../shared/domain/contact.ts';
import { formatLongDate, formatTime12h, formatTimeIst } from '../../../../shared/domain/time.ts';
import { ApiError, confirmBooking, generatePaymentLink, updatePaymentLink } from '../../lib/api.ts';
import {
  $booking,
  bookingMade,
  forgetPendingBooking,
  paymentLinkMade,
  pendingBooking,
  setPaymentComplete,
  setSlotNotice,
  setTimeSlot,
  type BookingState,
} from '../../stores/booking.ts';
import { StateView, StepHeading } from './common.tsx';
import { isShortNotice, useWizardSettings } from './settings.tsx';
import { checkBooking } from './payload.ts';
import { offlineStatusUrl } from '../../lib/payment-status-url.ts';

export type PaymentNav = {
  onBack: () => void;
  onStartOver: () => void;
  /** After a 409: back to the slot step, details kept. */
  onSlotTaken: () => void;
  /** Past the last step: 'Processing payment and redirecting...'. */
  onRedirecting: () => void;
  /** Navigates the page (window.location in the browser). */
  navigate?: (url: string) => void;
};

function transactionId(): string {
  const c = globalThis.crypto;
  return typeof c?.randomUUID === 'function' ? c.randomUUID() : `txn-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/**
 * Creates the booking, then pays online through the provider or goes to the pending page offline. The
 * request carries the booking's idempotency key, kept in the wizard's state until a choice changes: if
 * its answer is lost, pressing Pay again finds the same booking instead of colliding with its own hold.
 */
export async function payForBooking(s: BookingState, nav: PaymentNav): Promise<string | undefined> {
  const go = nav.navigate ?? ((url: string) => window.location.assign(url));
  const key = pendingBooking(transactionId).transactionId;
  const checked = checkBooking(s, key);
  if (!checked.ok) {
    const first = Object.values(checked.form)[0] ?? Object.values(checked.other)[0];
    return first ?? WIZARD_MESSAGES.unexpected;
  }
  let bookingId: number;
  let bookingToken: string | null;
  try {
    const created = await confirmBooking(checked.data);
    if (typeof created.booking_id !== 'number') return created.message || WIZARD_MESSAGES.createBookingFailed;
    bookingId = created.booking_id;
    bookingToken = created.booking_token ?? null;
    bookingMade(bookingId, bookingToken);
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) {
      // Taken meanwhile: fresh slots, a clear message, and the client's details kept.
      setTimeSlot(null);
      setSlotNotice(e.message || API_MESSAGES.slotTaken);
      nav.onSlotTaken();
      return undefined;
    }
    return e instanceof Error && e.message ? e.message : WIZARD_MESSAGES.createBookingFailed;
  }

  if (s.bookingType === 'offline') {
    setPaymentComplete(true);
    nav.onRedirecting();
    go(offlineStatusUrl(bookingId, key));
    return undefined;
  }

  let shortUrl: string;
  try {
    const link = await generatePaymentLink(
      {
        amount: s.selectedTherapist?.price ?? 1, // a missing price sends 1 (spec section 9)
        currency: 'INR',
        description: `Therapy session with ${displayName(s.selectedTherapist?.name ?? '')} on ${s.selectedTimeSlot?.date} at ${s.selectedTimeSlot?.start_time} IST`,
        customer_name: checked.data.client_full_name,
        customer_email: checked.data.client_email,
        customer_phone: checked.data.client_mobile,
        booking_id: bookingId,
      },
      bookingToken,
    );
    if (!link.short_url) return WIZARD_MESSAGES.paymentLinkFailed;
    shortUrl = link.short_url;
    paymentLinkMade(shortUrl);
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) {
      // This booking can no longer be paid (its hold ended): the next Pay asks for a new one.
      forgetPendingBooking();
      return e.message;
    }
    return WIZARD_MESSAGES.paymentLinkFailed;
  }
  try {
    await updatePaymentLink(bookingId, shortUrl, bookingToken);
  } catch (e) {
    // The server stored the link when it generated it; this call only confirms it, so the
    // client can still pay.
    console.warn('update-payment-link failed', e);
  }
  nav.onRedirecting();
  go(shortUrl);
  return undefined;
}

export function PaymentStep(nav: PaymentNav) {
  const s = useStore($booking);
  const { changePolicy, support } = useWizardSettings();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const errorRef = useRef<HTMLDivElement>(null);
  const t = s.selectedTherapist;
  const slot = s.selectedTimeSlot;
  const c = s.clientInfo;
  const offline = s.bookingType === 'offline';

  if (!t || !slot || !c.fullName || !c.email || !c.mobile) {
    return (
      <section className="wizard-step" aria-labelledby="step-payment-title">
        <StepHeading id="step-payment-title">Review and Pay</StepHeading>
        <StateView title="Booking Information Missing">
          <p>Some details of your booking are missing. Please start again to choose your session.</p>
          <button type="button" className="btn btn-primary" onClick={nav.onStartOver}>
            Start Over
          </button>
        </StateView>
      </section>
    );
  }

  const price = t.price === null ? 'Price on request' : formatPrice(t.price);
  const pay = async () => {
    if (busy) return;
    setBusy(true);
    setError('');
    let message: string | undefined;
    try {
      message = await payForBooking($booking.get(), nav);
    } catch (e) {
      message = e instanceof Error && e.message ? e.message : WIZARD_MESSAGES.unexpected;
    }
    if (message) {
      setError(message);
      setBusy(false);
      errorRef.current?.focus();
    }
  };

  return (
    <section className="wizard-step" aria-labelledby="step-payment-title">
      <StepHeading id="step-payment-title">Review and Pay</StepHeading>
      <div className="card summary-card">
        <h3 className="summary-title">Booking Summary</h3>
        <dl className="summary-list">
          <Row label="Session">{offline ? 'In-Person Session' : 'Online Session (video call)'}</Row>
          <Row label="Therapist">{displayName(t.name)}</Row>
          {offline && s.selectedLocation && (
            <Row label="Location">
              {s.selectedLocation.name}
              <span className="summary-sub">{s.selectedLocation.address}</span>
            </Row>
          )}
          <Row label="Date">{formatLongDate(slot.date)}</Row>
          <Row label="Time">
            {formatTime12h(slot.start_time)} – {formatTimeIst(slot.end_time)}
          </Row>
          <Row label="Duration">{`${SESSION_MINUTES} minutes`}</Row>
          <Row label="Name">{c.fullName}</Row>
          <Row label="Email">{c.email}</Row>
          <Row label="Mobile">{normaliseIndianMobile(c.mobile)}</Row>
          <Row label="Session type">{c.sessionType === 'couple' ? 'Couple' : 'Individual'}</Row>
        </dl>
        <div className="summary-total">
          <span>{offline ? 'Amount (pay at the centre)' : 'Amount payable now'}</span>
          <strong>{price}</strong>
        </div>
      </div>
      {isShortNotice(slot, changePolicy) && (
        <p className="callout callout--warm short-notice" role="note">
          {shortNoticeText(changePolicy, support)}
        </p>
      )}
      {offline ? (
        <p className="muted pay-note">No payment is taken now. Please pay at the centre when you arrive, 10 minutes before your session.</p>
      ) : (
        <p className="muted pay-note">You will be taken to our secure payment partner to pay by card or UPI.</p>
      )}
      <div ref={errorRef} tabIndex={-1} role="alert" className={error ? 'notice notice--error' : 'visually-hidden'}>
        {error}
      </div>
      <div className="wizard-nav">
        <button type="button" className="btn btn-secondary" onClick={nav.onBack} disabled={busy}>
          Back
        </button>
        <button type="button" className="btn btn-primary" onClick={pay} disabled={busy} aria-busy={busy}>
          {busy ? 'Processing...' : offline ? 'Confirm Booking' : t.price === null ? 'Pay Now' : `Pay ${price}`}
        </button>
      </div>
    </section>
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
