import { useEffect, useRef, useState } from 'react';
import type { ManageBookingDto } from '../../../../shared/contract/manage.ts';
import { BOOK_AGAIN_ANCHOR } from '../../../../shared/domain/manage.ts';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { addDays, formatLongDate, formatTimeIst } from '../../../../shared/domain/time.ts';
import { ApiError, bookAgainManaged, generatePaymentLink } from '../../lib/api.ts';
import { ErrorBeside } from '../booking/common.tsx';
import { offlineStatusUrl } from '../../lib/payment-status-url.ts';

export const BOOK_AGAIN_TEXT = {
  title: 'Book your next session',
  nextWeek: 'Book the same time next week',
  inTwoWeeks: 'Book the same time in two weeks',
  terms: 'The same therapist, session and terms as this booking.',
  failed: 'Something went wrong while booking. Please try again, or book on the booking page.',
  paymentFailed: 'Your session is booked, but the payment link could not be made. Please call us and we will send it to you.',
} as const;

type Props = {
  token: string;
  booking: ManageBookingDto;
  /** Navigates the page (window.location in the browser): to the checkout, or to the in-person confirmation. */
  navigate?: ((url: string) => void) | undefined;
};

/**
 * "Book the same time next week" (and "in two weeks", issue 34): one press books the slot a week or two
 * after this session with the same therapist, type and centre (POST /api/manage/{token}/book-again, the
 * wizard's own checks), then goes on as the wizard's Pay does: online to the payment link, in person to
 * the confirmation; booked with a package credit (the session was paid by one), to its Manage page. A refusal (the slot taken, a holiday, past the booking window) is shown in the
 * server's words beside the buttons.
 */
export function BookAgain({ token, booking: b, navigate }: Props) {
  const [busy, setBusy] = useState<1 | 2 | null>(null);
  const [error, setError] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  // One key per page: a press sent again after a lost answer finds the booking it made.
  const keys = useRef<Record<1 | 2, string>>({ 1: crypto.randomUUID(), 2: crypto.randomUUID() });
  const go = navigate ?? ((url: string) => window.location.assign(url));

  useEffect(() => {
    if (window.location.hash === `#${BOOK_AGAIN_ANCHOR}`) {
      headingRef.current?.scrollIntoView({ block: 'start' });
      headingRef.current?.focus();
    }
  }, []);

  const book = async (weeks: 1 | 2) => {
    if (busy) return;
    setBusy(weeks);
    setError('');
    const transactionId = keys.current[weeks];
    let bookingId: number;
    let bookingToken: string | null;
    try {
      const made = await bookAgainManaged(token, { weeks_ahead: weeks, payment_transaction_id: transactionId });
      if (typeof made.booking_id !== 'number') throw new Error(made.message || BOOK_AGAIN_TEXT.failed);
      // Booked with a package credit: confirmed, nothing to pay; its own Manage page says so.
      if (made.manage_url) {
        go(made.manage_url);
        return;
      }
      bookingId = made.booking_id;
      bookingToken = made.booking_token ?? null;
    } catch (e) {
      setBusy(null);
      setError(e instanceof ApiError || e instanceof Error ? e.message || BOOK_AGAIN_TEXT.failed : BOOK_AGAIN_TEXT.failed);
      return;
    }
    if (b.booking_type === 'OFFLINE') {
      go(offlineStatusUrl(bookingId, transactionId));
      return;
    }
    try {
      const link = await generatePaymentLink(
        {
          booking_id: bookingId,
          currency: 'INR',
          description: `Therapy session with ${displayName(b.therapist.name)} on ${dateAfter(b, weeks)} at ${b.booking_time_slot_start} IST`,
        },
        bookingToken,
      );
      if (!link.short_url) throw new Error(BOOK_AGAIN_TEXT.paymentFailed);
      go(link.short_url);
    } catch (e) {
      setBusy(null);
      setError(e instanceof ApiError && e.message ? e.message : BOOK_AGAIN_TEXT.paymentFailed);
    }
  };

  return (
    <section className="card manage-card" aria-labelledby="manage-again-title" id={BOOK_AGAIN_ANCHOR}>
      <h2 ref={headingRef} id="manage-again-title" tabIndex={-1} className="manage-subtitle">
        {BOOK_AGAIN_TEXT.title}
      </h2>
      <p className="muted">
        {BOOK_AGAIN_TEXT.terms} {formatTimeIst(b.booking_time_slot_start)} on {formatLongDate(dateAfter(b, 1))} or {formatLongDate(dateAfter(b, 2))}.
      </p>
      <div className="btn-row manage-actions">
        {([1, 2] as const).map((weeks) => (
          <button key={weeks} type="button" className="btn btn-secondary" disabled={busy !== null} aria-busy={busy === weeks} onClick={() => void book(weeks)}>
            {busy === weeks ? 'Booking...' : weeks === 1 ? BOOK_AGAIN_TEXT.nextWeek : BOOK_AGAIN_TEXT.inTwoWeeks}
          </button>
        ))}
      </div>
      <ErrorBeside message={error} />
    </section>
  );
}

function dateAfter(b: ManageBookingDto, weeks: 1 | 2): string {
  return addDays(b.booking_date, 7 * weeks);
}
