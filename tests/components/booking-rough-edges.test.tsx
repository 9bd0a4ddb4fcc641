/**
 * Issue 19, the client's items: what a real person stumbled on in the wizard and on /payment-status.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BookingWizard } from '../../site/src/islands/booking/BookingWizard.tsx';
import { PaymentStatus } from '../../site/src/islands/booking/PaymentStatus.tsx';
import {
  $booking,
  bookingMade,
  pendingBooking,
  reloadBooking,
  setBookingType,
  setStep,
  setTherapist,
  setTimeSlot,
  STORAGE_KEY,
  updateClientInfo,
} from '../../site/src/stores/booking.ts';
import { booking9, CATALOG, LINK_SAVED, mockFetch, OFFER, SERVICES, THERAPISTS, resetWizardAroundEachTest } from './booking-fixtures.ts';

resetWizardAroundEachTest();

const SLOT = { id: 11, date: '2030-01-08', start_time: '10:00', end_time: '11:00' };
const TOKEN = 'T'.repeat(43);

function readyToPay() {
  setBookingType('online');
  setTherapist(THERAPISTS[0]!, SERVICES[0]!);
  setTimeSlot(SLOT);
  updateClientInfo({
    fullName: 'Meera Sharma',
    email: 'meera@example.in',
    mobile: '9876543210',
    age: 34,
    state: 'Maharashtra',
    city: 'Mumbai',
    termsAccepted: true,
  });
  setStep(5);
}

function atDetails() {
  setBookingType('online');
  setTherapist(THERAPISTS[0]!, SERVICES[0]!);
  setTimeSlot(SLOT);
  setStep(4);
}

const field = (label: string) => screen.getByLabelText(label, { exact: false }) as HTMLInputElement;
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Continue to Payment' }));

const PAY_ROUTES = {
  ...CATALOG,
  'POST /confirm-booking': { body: { booking_id: 9, message: 'Booking created successfully.', booking_token: TOKEN } },
  'POST /api/payment/generate-link': { body: { short_url: 'https://pay.example/abc', payment_link_id: 'plink_1' } },
  'POST /api/admin/bookings/9/update-payment-link': LINK_SAVED,
};

function pageshow(persisted: boolean): Event {
  const Ctor = (globalThis as { PageTransitionEvent?: typeof PageTransitionEvent }).PageTransitionEvent;
  if (Ctor) return new Ctor('pageshow', { persisted });
  const e = new Event('pageshow');
  Object.defineProperty(e, 'persisted', { value: persisted });
  return e;
}

describe('1. Back from the checkout', () => {
  it('a page restored from the back/forward cache shows the payment step again, and Pay sends the same key for the same link', async () => {
    const { calls } = mockFetch(PAY_ROUTES);
    readyToPay();
    const navigate = vi.fn();
    render(<BookingWizard navigate={navigate} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹1,500' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://pay.example/abc'));
    expect(screen.getByRole('heading', { name: 'Processing payment and redirecting...' })).toBeTruthy();

    // The browser's Back from the checkout brings this very page back from its cache.
    act(() => {
      window.dispatchEvent(pageshow(true));
    });
    expect(await screen.findByRole('heading', { name: 'Review and Pay' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay ₹1,500' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(2));
    expect(navigate).toHaveBeenLastCalledWith('https://pay.example/abc');
    const keys = calls.filter((c) => c.url === '/confirm-booking').map((c) => (c.body as { payment_transaction_id: string }).payment_transaction_id);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('a page loaded afresh after leaving for the checkout shows the payment step, not "Processing" for ever', () => {
    readyToPay();
    pendingBooking(() => 'key-1');
    setStep(6); // the wizard had gone past the last step to redirect
    reloadBooking(); // a new page load reads the saved state
    expect($booking.get().currentStep).toBe(5);
    expect($booking.get().pending?.transactionId).toBe('key-1');
  });
});

describe('2. "Payment Failed!" is no dead end', () => {
  const failed =
    '?razorpay_payment_id=pay_2&razorpay_payment_link_id=plink_1&razorpay_payment_link_reference_id=9&razorpay_payment_link_status=failed&razorpay_signature=s';
  const held = (over: Record<string, unknown> = {}) =>
    booking9({ cancelled: false, payment_status: 'INITIATED', payment_link_url: 'https://pay.example/abc', payment_hold_seconds_left: 1080, ...over });

  it('offers "Try payment again" on the same link while the hold lasts, with the reference, the time left and the centre’s phone', async () => {
    const { calls } = mockFetch({ 'GET /api/get-razorpay-details/plink_1': { body: { data: held() } } });
    pendingBooking(() => 'key-2');
    bookingMade(9, TOKEN);
    render(<PaymentStatus search={failed} supportPhone="+91 98200 00000" supportPhoneHref="tel:+919820000000" />);
    expect(await screen.findByRole('heading', { name: 'Payment Failed!' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try payment again' }).getAttribute('href')).toBe('https://pay.example/abc');
    const ref = screen.getByText('Booking reference').closest('div')!;
    expect(within(ref).getByText('9')).toBeTruthy();
    expect(screen.getByText('18 minutes')).toBeTruthy();
    expect(screen.getByRole('link', { name: '+91 98200 00000' }).getAttribute('href')).toBe('tel:+919820000000');
    expect(calls[0]!.headers['x-booking-token']).toBe(TOKEN);
    // The spec's two buttons stay.
    expect(screen.getByRole('button', { name: 'Book Another Appointment' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Home Page' })).toBeTruthy();
  });

  it('once the hold is over there is no link to pay, and the page says so', async () => {
    mockFetch({ 'GET /api/get-razorpay-details/plink_1': { body: { data: held({ payment_status: 'FAILED', payment_hold_seconds_left: null }) } } });
    pendingBooking(() => 'key-3');
    bookingMade(9, TOKEN);
    render(<PaymentStatus search={failed} supportPhone="+91 98200 00000" />);
    expect(await screen.findByRole('heading', { name: 'Payment Failed!' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Try payment again' })).toBeNull();
    expect(screen.getByText(/The time held for this booking has ended/)).toBeTruthy();
  });

  it('without the booking’s token (another device) it still gives the reference and the phone', async () => {
    const { calls } = mockFetch({});
    render(<PaymentStatus search={failed} supportPhone="+91 98200 00000" />);
    expect(await screen.findByRole('heading', { name: 'Payment Failed!' })).toBeTruthy();
    expect(screen.getByText('9')).toBeTruthy();
    expect(screen.getByRole('link', { name: '+91 98200 00000' })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('the wizard keeps the link it was given, for this page', async () => {
    mockFetch(PAY_ROUTES);
    readyToPay();
    render(<BookingWizard navigate={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹1,500' }));
    await waitFor(() => expect($booking.get().pending?.linkUrl).toBe('https://pay.example/abc'));
  });
});

describe('3. the mobile field takes pasted numbers', () => {
  it.each([
    ['09876543210', '9876543210'],
    ['+91 98765 43210', '9876543210'],
    ['91-98765-43210', '9876543210'],
  ])('%s is kept whole, shown and sent as %s', async (written, digits) => {
    const { calls } = mockFetch(PAY_ROUTES);
    atDetails();
    render(<BookingWizard navigate={vi.fn()} />);
    await screen.findByRole('heading', { name: 'Your Information' });
    fireEvent.change(field('Full name'), { target: { value: 'Meera Sharma' } });
    fireEvent.change(field('Email'), { target: { value: 'meera@example.in' } });
    const mobile = field('Mobile number');
    fireEvent.change(mobile, { target: { value: written } });
    expect(mobile.value).toBe(written); // nothing cut off while typing or pasting
    fireEvent.blur(mobile);
    expect(mobile.value).toBe(digits);
    fireEvent.change(field('Age'), { target: { value: '34' } });
    fireEvent.change(screen.getByLabelText(/^State/), { target: { value: 'Maharashtra' } });
    fireEvent.change(screen.getByLabelText(/^City/), { target: { value: 'Mumbai' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /I accept the/ }));
    submit();
    expect(await screen.findByRole('heading', { name: 'Review and Pay' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay ₹1,500' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/confirm-booking')).toBe(true));
    expect((calls.find((c) => c.url === '/confirm-booking')!.body as { client_mobile: string }).client_mobile).toBe(digits);
  });

  it('a number that is not 10 digits however written is refused with the spec’s message', async () => {
    mockFetch(CATALOG);
    atDetails();
    render(<BookingWizard />);
    await screen.findByRole('heading', { name: 'Your Information' });
    fireEvent.change(field('Mobile number'), { target: { value: '+91 98765 4321' } });
    submit();
    expect(screen.getByText('Mobile number must be 10 digits')).toBeTruthy();
  });
});

describe('4. each step is a history entry', () => {
  it('the browser’s Back goes to the previous step and Forward returns, with the step in the address', async () => {
    mockFetch(CATALOG);
    render(<BookingWizard />);
    expect(location.search).toBe('');
    fireEvent.click(screen.getByRole('radio', { name: /Online Session/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Select Your Therapist' });
    expect(location.search).toBe('?step=therapist');
    fireEvent.click(await screen.findByRole('button', { name: 'Select Asha Mehta' }));
    await screen.findByRole('heading', { name: 'Select Date & Time' });
    expect(location.search).toBe('?step=slot');

    act(() => history.back());
    expect(await screen.findByRole('heading', { name: 'Select Your Therapist' })).toBeTruthy();
    await waitFor(() => expect(location.search).toBe('?step=therapist'));
    act(() => history.back());
    expect(await screen.findByRole('heading', { name: 'How would you like to meet?' })).toBeTruthy();
    act(() => history.forward());
    expect(await screen.findByRole('heading', { name: 'Select Your Therapist' })).toBeTruthy();
    act(() => history.forward());
    expect(await screen.findByRole('heading', { name: 'Select Date & Time' })).toBeTruthy();
    expect($booking.get().currentStep).toBe(3);
  });

  it('the wizard’s own Back steps back through history rather than piling entries up', async () => {
    mockFetch(CATALOG);
    render(<BookingWizard />);
    const start = history.length;
    fireEvent.click(screen.getByRole('radio', { name: /Online Session/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Select Your Therapist' });
    expect(history.length).toBe(start + 1);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'How would you like to meet?' })).toBeTruthy();
    await waitFor(() => expect(location.search).toBe(''));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Select Your Therapist' });
    // Forward was replaced by the same step, not added after it.
    expect(history.length).toBe(start + 1);
  });
});

describe('5. the confirmation page', () => {
  const paid =
    '?razorpay_payment_id=pay_1&razorpay_payment_link_id=plink_1&razorpay_payment_link_reference_id=9&razorpay_payment_link_status=paid&razorpay_signature=sig';
  const manageUrl = 'http://localhost:3000/manage-booking?token=mT0k3n_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ';
  const record = booking9({ cancelled: false, payment_status: 'COMPLETED', payment_state: 'PAID', manage_url: manageUrl, changes_open: true });

  it('waits for the meeting link, saying it is preparing it, then shows it', async () => {
    let asked = 0;
    const { calls } = mockFetch({
      'GET /api/get-razorpay-details/9': () => {
        asked += 1;
        return { body: { data: asked < 3 ? record : { ...record, google_meet_link: 'https://meet.jit.si/abc' } } };
      },
    });
    render(<PaymentStatus search={paid} pollMs={5} />);
    expect(await screen.findByRole('heading', { name: 'Booking Confirmed!' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Preparing your video link...');
    expect(await screen.findByRole('link', { name: /https:\/\/meet\.jit\.si\/abc/ })).toBeTruthy();
    expect(screen.queryByText('Preparing your video link...')).toBeNull();
    // Each question carries the callback's signed parameters, the client's proof.
    expect(new URL(calls[2]!.url, 'http://x').searchParams.get('razorpay_signature')).toBe('sig');
  });

  it('stops asking after a while and says the link will come by e-mail', async () => {
    mockFetch({ 'GET /api/get-razorpay-details/9': { body: { data: record } } });
    render(<PaymentStatus search={paid} pollMs={1} pollAttempts={2} />);
    expect(await screen.findByText(/Your video link is on its way/)).toBeTruthy();
  });

  it('offers Add to calendar: the server’s invitation for the session (the e-mail’s event), not a file of its own', async () => {
    mockFetch({ 'GET /api/get-razorpay-details/9': { body: { data: { ...record, google_meet_link: 'https://meet.jit.si/abc' } } } });
    render(<PaymentStatus search={paid} />);
    await screen.findByRole('heading', { name: 'Booking Confirmed!' });
    const ics = screen.getByRole('link', { name: 'Download .ics' });
    expect(ics.getAttribute('download')).toBe('therapy-session-9.ics');
    expect(ics.getAttribute('href')).toBe('/api/manage/mT0k3n_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ/session.ics');
    // A Google Calendar template link would be a second event that no reschedule moves.
    expect(screen.queryByRole('link', { name: /Google Calendar/ })).toBeNull();
  });

  it('no Manage booking address (not confirmed, or passed): no Add to calendar', async () => {
    mockFetch({ 'GET /api/get-razorpay-details/9': { body: { data: { ...record, manage_url: null, changes_open: false } } } });
    render(<PaymentStatus search={paid} />);
    await screen.findByRole('heading', { name: 'Booking Confirmed!' });
    expect(screen.queryByRole('link', { name: 'Download .ics' })).toBeNull();
  });

  it('says statuses in words, not codes', async () => {
    mockFetch({ 'GET /api/get-razorpay-details/9': { body: { data: { ...record, google_meet_link: 'https://meet.jit.si/abc' } } } });
    render(<PaymentStatus search={paid} />);
    await screen.findByRole('heading', { name: 'Booking Confirmed!' });
    const row = screen.getByText('Payment status').closest('div')!;
    expect(within(row).getByText('Paid')).toBeTruthy();
    expect(screen.queryByText('COMPLETED')).toBeNull();
  });

  it('says the payment in the words of the booking’s money (payment_state), as the panel and the Manage page do', async () => {
    mockFetch({ 'GET /api/get-razorpay-details/9': { body: { data: { ...record, cancelled: true, payment_state: 'REFUNDED' } } } });
    render(<PaymentStatus search={paid} />);
    await screen.findByRole('heading', { name: 'Booking Confirmed!' });
    expect(within(screen.getByText('Payment status').closest('div')!).getByText('Refunded')).toBeTruthy();
  });
});

describe('6. times carry their zone', () => {
  it('the slot step, the summary and the confirmation say IST', async () => {
    mockFetch(PAY_ROUTES);
    setBookingType('online');
    setTherapist(THERAPISTS[0]!, SERVICES[0]!);
    setStep(3);
    const { unmount } = render(<BookingWizard />);
    await screen.findByText('10:00 AM');
    expect(document.querySelector('.time-legend')?.textContent).toMatch(/IST/);
    unmount();
    readyToPay();
    render(<BookingWizard />);
    const time = (await screen.findByText('Time')).closest('div')!;
    expect(time.textContent).toContain('10:00 AM – 11:00 AM IST');
  });
});

describe('7. consent is the client’s own act', () => {
  it('the terms box starts unticked, and the form asks for it', async () => {
    mockFetch(CATALOG);
    atDetails();
    render(<BookingWizard />);
    await screen.findByRole('heading', { name: 'Your Information' });
    expect((screen.getByRole('checkbox', { name: /I accept the/ }) as HTMLInputElement).checked).toBe(false);
    expect($booking.get().clientInfo.termsAccepted).toBe(false);
    submit();
    expect(screen.getByText('You must accept the terms and conditions')).toBeTruthy();
  });
});

describe('8. validation gaps', () => {
  it('refuses user@example..com', async () => {
    mockFetch(CATALOG);
    atDetails();
    render(<BookingWizard />);
    await screen.findByRole('heading', { name: 'Your Information' });
    fireEvent.change(field('Email'), { target: { value: 'user@example..com' } });
    submit();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
  });

  it('under 18 shows and requires a guardian’s consent', async () => {
    const { calls } = mockFetch(PAY_ROUTES);
    readyToPay();
    setStep(4);
    render(<BookingWizard navigate={vi.fn()} />);
    await screen.findByRole('heading', { name: 'Your Information' });
    expect(screen.queryByRole('checkbox', { name: /parent or guardian/ })).toBeNull();
    fireEvent.change(field('Age'), { target: { value: '12' } });
    const consent = screen.getByRole('checkbox', { name: /A parent or guardian agrees to this booking/ }) as HTMLInputElement;
    expect(consent.checked).toBe(false);
    expect(screen.getByText(/clients under 18 book with the consent of a parent or guardian/)).toBeTruthy();
    submit();
    expect(screen.getByText('A parent or guardian must agree to this booking for a client under 18')).toBeTruthy();
    expect(document.activeElement).toBe(consent);
    fireEvent.click(consent);
    submit();
    expect(await screen.findByRole('heading', { name: 'Review and Pay' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay ₹1,500' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/confirm-booking')).toBe(true));
    expect(calls.find((c) => c.url === '/confirm-booking')!.body).toMatchObject({ client_age: 12, guardian_consent: true });
  });
});

describe('10. therapist cards', () => {
  it('show the languages and the next free slot', async () => {
    mockFetch(CATALOG);
    setBookingType('online');
    setStep(2);
    render(<BookingWizard />);
    const card = (await screen.findByRole('heading', { name: 'Asha Mehta' })).closest('li')!;
    const c = within(card);
    expect(c.getByText('Languages').nextElementSibling?.textContent).toBe('English');
    // OFFER: nothing on Monday 7 January, 10:00 the first time on Tuesday 8.
    expect(await c.findByText('Tue 8 Jan, 10:00 AM IST')).toBeTruthy();
    expect(c.getByText('Next available')).toBeTruthy();
  });
});

describe('11. after "just been booked"', () => {
  it('the slot step returns to the date the client had chosen, not the first date', async () => {
    mockFetch({ ...CATALOG, 'POST /confirm-booking': { status: 409, body: { detail: 'This time slot has just been booked. Please choose another.' } } });
    readyToPay();
    setTimeSlot({ id: 11, date: '2030-01-11', start_time: '10:00', end_time: '11:00' });
    updateClientInfo({ termsAccepted: true });
    setStep(5);
    render(<BookingWizard navigate={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹1,500' }));
    expect(await screen.findByRole('heading', { name: 'Select Date & Time' })).toBeTruthy();
    await screen.findByText('This time slot has just been booked. Please choose another.');
    await waitFor(() => expect(document.querySelector('.date-btn[aria-pressed="true"]')?.getAttribute('aria-label')).toMatch(/^Friday, January 11, 2030/));
    expect($booking.get().selectedTimeSlot).toBeNull();
    expect(JSON.parse(sessionStorage.getItem(STORAGE_KEY)!).slotDate).toBe('2030-01-11');
    expect(OFFER.days.find((d) => d.date === '2030-01-11')).toBeTruthy();
  });
});
