import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changePolicyText } from '../../shared/contract/policy.ts';
import { BookingWizard } from '../../site/src/islands/booking/BookingWizard.tsx';
import { resetCatalogCache } from '../../site/src/islands/booking/data.ts';
import { PaymentStatus, resolveStatus } from '../../site/src/islands/booking/PaymentStatus.tsx';
import {
  $booking,
  bookingMade,
  resetBooking,
  setBookingType,
  setLocation,
  setStep,
  setTherapist,
  setTimeSlot,
  updateClientInfo,
} from '../../site/src/stores/booking.ts';
import { WHATSAPP_CONSENT } from '../../shared/contract/booking.ts';
import { API_MESSAGES } from '../../shared/contract/messages.ts';
import { booking9, CATALOG, LINK_SAVED, LOCATIONS, mockFetch, SERVER_ERROR, SERVICES, setViewport, THERAPISTS } from './booking-fixtures.ts';

beforeEach(() => {
  sessionStorage.clear();
  resetBooking();
  resetCatalogCache();
  setViewport(false);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const SLOT = { id: 11, date: '2030-01-08', start_time: '10:00', end_time: '11:00' };

function atDetails(type: 'online' | 'offline') {
  setBookingType(type);
  if (type === 'offline') setLocation(LOCATIONS[1]!);
  setTherapist(type === 'online' ? THERAPISTS[0]! : THERAPISTS[3]!, SERVICES[0]!);
  setTimeSlot(SLOT);
  setStep(type === 'online' ? 4 : 5);
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Continue to Payment' }));
const field = (label: string) => screen.getByLabelText(label, { exact: false }) as HTMLInputElement;

describe('Your Information', () => {
  it('online: every required message, tied to its field; editing a field clears its own error', async () => {
    mockFetch(CATALOG);
    atDetails('online');
    render(<BookingWizard />);
    await screen.findByRole('heading', { name: 'Your Information' });
    // Consent is the client's own act: the box starts unticked (a deliberate departure from the spec).
    expect((screen.getByRole('checkbox', { name: /I accept the/ }) as HTMLInputElement).checked).toBe(false);
    submit();
    for (const m of [
      'Full name is required',
      'Email is required',
      'Mobile number is required',
      'Age is required',
      'State is required',
      'City is required',
      'You must accept the terms and conditions',
    ]) {
      expect(screen.getByText(m)).toBeTruthy();
    }
    expect(screen.getByRole('alert').textContent).toMatch(/Please correct the 7 highlighted fields/);
    const name = field('Full name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toContain('Full name is required');
    expect(document.activeElement).toBe(name);
    fireEvent.change(name, { target: { value: 'Meera' } });
    expect(screen.queryByText('Full name is required')).toBeNull();
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect($booking.get().currentStep).toBe(4);
  });

  it('format rules: email, 10-digit mobile, age 1 to 120, session type', async () => {
    mockFetch(CATALOG);
    atDetails('offline');
    updateClientInfo({ sessionType: '' });
    render(<BookingWizard />);
    await screen.findByRole('heading', { name: 'Your Information' });
    fireEvent.change(field('Full name'), { target: { value: 'Meera' } });
    fireEvent.change(field('Email'), { target: { value: 'meera@' } });
    fireEvent.change(field('Mobile number'), { target: { value: '98765' } });
    fireEvent.change(field('Age'), { target: { value: '0' } });
    expect(field('Age').min).toBe('1');
    expect(field('Age').max).toBe('120');
    submit();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Mobile number must be 10 digits')).toBeTruthy();
    expect(screen.getByText('Age is required')).toBeTruthy();
    expect(screen.getByText('Please select a session type')).toBeTruthy();
    // Offline: state and city are optional.
    expect(screen.queryByText('State is required')).toBeNull();
    expect(screen.queryByText('City is required')).toBeNull();
    fireEvent.change(field('Age'), { target: { value: '130' } });
    submit();
    expect(screen.getByText('Age must be between 1 and 120')).toBeTruthy();
  });

  it('city waits for a state and is cleared when the state changes; both misspelt keys are offered', async () => {
    mockFetch(CATALOG);
    atDetails('online');
    render(<BookingWizard />);
    await screen.findByRole('heading', { name: 'Your Information' });
    const state = screen.getByLabelText(/^State/) as HTMLSelectElement;
    const city = () => screen.getByLabelText(/^City/) as HTMLSelectElement;
    expect(city().disabled).toBe(true);
    const options = [...state.options].map((o) => o.value);
    expect(options).toContain('Himachal Pardesh');
    expect(options).toContain('Puduchery');
    expect(options).toContain('Tamil Nadu');
    fireEvent.change(state, { target: { value: 'Maharashtra' } });
    expect(city().disabled).toBe(false);
    fireEvent.change(city(), { target: { value: 'Pune' } });
    expect($booking.get().clientInfo.city).toBe('Pune');
    fireEvent.change(state, { target: { value: 'Karnataka' } });
    expect($booking.get().clientInfo.city).toBe('');
    expect(city().value).toBe('');
  });

  it('terms and privacy open in a new tab; offline shows the arrive-early note and fee notes; a valid form moves to payment', async () => {
    mockFetch(CATALOG);
    atDetails('offline');
    render(<BookingWizard />);
    await screen.findByRole('heading', { name: 'Your Information' });
    expect(screen.getByRole('link', { name: /terms and conditions/ }).getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: /privacy policy/ }).getAttribute('href')).toBe('/privacy-policy');
    expect(screen.getByText('Please arrive 10 minutes early for your in-person session.')).toBeTruthy();
    expect(screen.getByText(/Additional charges apply for every 15 minutes beyond the scheduled 60 minutes/)).toBeTruthy();
    // The policy in its one wording, the same as the e-mails' and the Manage booking page's.
    expect(screen.getByText(changePolicyText({ noticeHours: 24, maxReschedules: 2 }))).toBeTruthy();
    expect(screen.queryByText(/please contact us at least 24 hours/)).toBeNull();
    const terms = screen.getByRole('checkbox', { name: /I accept the/ }) as HTMLInputElement;
    expect(terms.checked).toBe(false); // the client ticks it
    fireEvent.click(terms);
    fireEvent.change(field('Full name'), { target: { value: 'Meera Sharma' } });
    fireEvent.change(field('Email'), { target: { value: 'meera@example.in' } });
    fireEvent.change(field('Mobile number'), { target: { value: '9876543210' } });
    fireEvent.change(field('Age'), { target: { value: '34' } });
    submit();
    expect(await screen.findByRole('heading', { name: 'Review and Pay' })).toBeTruthy();
    expect($booking.get().currentStep).toBe(6);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Your Information' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Select Date & Time' })).toBeTruthy();
    expect($booking.get().currentStep).toBe(4);
  });
});

function readyToPay(type: 'online' | 'offline') {
  atDetails(type);
  updateClientInfo({
    fullName: 'Meera Sharma',
    email: 'meera@example.in',
    mobile: '9876543210',
    age: 34,
    state: 'Maharashtra',
    city: 'Mumbai',
    termsAccepted: true,
  });
  setStep(type === 'online' ? 5 : 6);
}

describe('Payment', () => {
  it('Booking Information Missing with Start Over back to step 1', async () => {
    mockFetch(CATALOG);
    setBookingType('online');
    setStep(5);
    render(<BookingWizard />);
    expect(await screen.findByRole('heading', { name: 'Booking Information Missing' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start Over' }));
    expect(screen.getByRole('heading', { name: 'How would you like to meet?' })).toBeTruthy();
    expect($booking.get().bookingType).toBeNull();
  });

  it('offline: creates the booking and goes to /payment-status as pending', async () => {
    const { calls } = mockFetch({ ...CATALOG, 'POST /confirm-booking': { body: { booking_id: 42, message: 'Booking created successfully.' } } });
    readyToPay('offline');
    const navigate = vi.fn();
    render(<BookingWizard navigate={navigate} />);
    expect(await screen.findByText('₹2,500')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Booking' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    const post = calls.find((c) => c.method === 'POST')!;
    const txn = (post.body as { payment_transaction_id: string }).payment_transaction_id;
    expect(txn).toMatch(/^[0-9a-f-]{36}$/);
    // The transaction id, not the guessable booking number, is what the status page looks the booking up by.
    expect(navigate).toHaveBeenCalledWith(`/payment-status?razorpay_payment_link_id=${txn}&razorpay_payment_link_status=pending&booking_id=42`);
    expect(post.body).toMatchObject({
      therapist_id: 7,
      booking_date: '2030-01-08',
      booking_time_slot_start: '10:00',
      booking_type: 'OFFLINE',
      location_id: 2,
      client_full_name: 'Meera Sharma',
      terms_accepted: true,
      amount: 2500,
      service_id: 1,
    });
    // Not ticked: the request carries no WhatsApp field at all.
    expect(post.body).not.toHaveProperty('whatsapp_reminders');
    expect(screen.getByRole('heading', { name: 'Processing payment and redirecting...' })).toBeTruthy();
  });

  it('WhatsApp reminders: unticked by default with its wording beside it; ticked, the booking asks for them', async () => {
    const { calls } = mockFetch({ ...CATALOG, 'POST /confirm-booking': { body: { booking_id: 43, message: 'Booking created successfully.' } } });
    readyToPay('offline');
    setStep(5);
    const navigate = vi.fn();
    render(<BookingWizard navigate={navigate} />);
    await screen.findByRole('heading', { name: 'Your Information' });
    const box = screen.getByRole('checkbox', { name: /Send me reminders on WhatsApp/ }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    // The words agreed to are the box's description, the very string the server records.
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe(WHATSAPP_CONSENT.detail);
    fireEvent.click(box);
    expect($booking.get().clientInfo.whatsappReminders).toBe(true);
    submit();
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm Booking' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST' && c.url === '/confirm-booking')!.body).toMatchObject({
      whatsapp_reminders: true,
      client_mobile: '9876543210',
    });
  });

  it('online: booking, payment link (₹ amount, INR), link confirmation, then the provider page', async () => {
    const { calls } = mockFetch({
      ...CATALOG,
      'POST /confirm-booking': { body: { booking_id: 9, message: 'ok', booking_token: 'T'.repeat(43) } },
      'POST /api/payment/generate-link': { body: { short_url: 'https://pay.example/abc', payment_link_id: 'plink_1' } },
      'POST /api/admin/bookings/9/update-payment-link': LINK_SAVED,
    });
    readyToPay('online');
    const navigate = vi.fn();
    render(<BookingWizard navigate={navigate} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹1,500' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://pay.example/abc'));
    const link = calls.find((c) => c.url === '/api/payment/generate-link')!;
    expect(link.body).toMatchObject({
      amount: 1500,
      currency: 'INR',
      customer_name: 'Meera Sharma',
      customer_email: 'meera@example.in',
      customer_phone: '9876543210',
      booking_id: 9,
    });
    expect(calls.find((c) => c.url.endsWith('/update-payment-link'))?.body).toEqual({ payment_link_url: 'https://pay.example/abc' });
    // Only the booking's token lets the server answer the link: both calls carry it, and the wizard keeps it.
    expect(link.headers['x-booking-token']).toBe('T'.repeat(43));
    expect(calls.find((c) => c.url.endsWith('/update-payment-link'))?.headers['x-booking-token']).toBe('T'.repeat(43));
    expect($booking.get().pending).toMatchObject({ bookingId: 9, bookingToken: 'T'.repeat(43) });
  });

  it('a Pay whose answer was lost is sent again with the same transaction id; a changed choice gets a new one', async () => {
    let lost = true;
    const { calls } = mockFetch({
      ...CATALOG,
      'POST /confirm-booking': () => {
        if (lost) {
          lost = false;
          throw new TypeError('Failed to fetch');
        }
        return { body: { booking_id: 9, message: 'ok', booking_token: 'T'.repeat(43) } };
      },
      'POST /api/payment/generate-link': { body: { short_url: 'https://pay.example/abc', payment_link_id: 'plink_1' } },
      'POST /api/admin/bookings/9/update-payment-link': LINK_SAVED,
    });
    readyToPay('online');
    const navigate = vi.fn();
    render(<BookingWizard navigate={navigate} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹1,500' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay ₹1,500' }).hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Pay ₹1,500' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://pay.example/abc'));
    const keys = calls.filter((c) => c.url === '/confirm-booking').map((c) => (c.body as { payment_transaction_id: string }).payment_transaction_id);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    // Another slot is another booking: its request must not reuse the key.
    setTimeSlot({ ...SLOT, start_time: '11:00', end_time: '12:00' });
    expect($booking.get().pending).toBeNull();
  });

  it('a missing price sends 0 in the booking and 1 in the payment link', async () => {
    const { calls } = mockFetch({
      ...CATALOG,
      'POST /confirm-booking': { body: { booking_id: 9, message: 'ok' } },
      'POST /api/payment/generate-link': { body: { short_url: 'https://pay.example/x', payment_link_id: 'p' } },
    });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    readyToPay('online');
    setTherapist(THERAPISTS[1]!, SERVICES[0]!);
    setTimeSlot(SLOT);
    const navigate = vi.fn();
    render(<BookingWizard navigate={navigate} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay Now' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(calls.find((c) => c.url === '/confirm-booking')?.body).toMatchObject({ amount: 0 });
    expect(calls.find((c) => c.url === '/api/payment/generate-link')?.body).toMatchObject({ amount: 1 });
  });

  it('shows each error above the pay button', async () => {
    mockFetch({ ...CATALOG, 'POST /confirm-booking': SERVER_ERROR });
    readyToPay('online');
    const { unmount } = render(<BookingWizard navigate={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹1,500' }));
    expect(await screen.findByText(API_MESSAGES.internal)).toBeTruthy();
    unmount();

    mockFetch({
      ...CATALOG,
      'POST /confirm-booking': { body: { booking_id: 3, message: 'Booking created successfully.' } },
      'POST /api/payment/generate-link': { status: 502, body: { detail: 'x' } },
    });
    const third = render(<BookingWizard navigate={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹1,500' }));
    const alert = await screen.findByText('Failed to generate payment link. Please contact support.');
    expect(alert.getAttribute('role')).toBe('alert');
    third.unmount();

    mockFetch({
      ...CATALOG,
      'POST /confirm-booking': { status: 400, body: { detail: 'Please choose a date within the next 15 working days (Sundays excluded).' } },
    });
    render(<BookingWizard navigate={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹1,500' }));
    expect(await screen.findByText('Please choose a date within the next 15 working days (Sundays excluded).')).toBeTruthy();
  });

  it('a slot taken meanwhile (409) returns to the slot step with the message, details kept', async () => {
    mockFetch({ ...CATALOG, 'POST /confirm-booking': { status: 409, body: { detail: 'This time slot has just been booked. Please choose another.' } } });
    readyToPay('online');
    render(<BookingWizard navigate={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹1,500' }));
    expect(await screen.findByRole('heading', { name: 'Select Date & Time' })).toBeTruthy();
    expect(screen.getByText('This time slot has just been booked. Please choose another.')).toBeTruthy();
    expect($booking.get().selectedTimeSlot).toBeNull();
    expect($booking.get().clientInfo.fullName).toBe('Meera Sharma');
    expect($booking.get().currentStep).toBe(3);
  });
});

describe('/payment-status', () => {
  const details = booking9({ payment_status: 'COMPLETED', location_name: null, location_address: null, google_meet_link: 'https://meet.example/abc' });

  it('no link id or status: the link is invalid', async () => {
    mockFetch({});
    render(<PaymentStatus search="" />);
    expect(screen.getByText('Verifying your booking...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Payment Failed!' })).toBeTruthy();
    expect(screen.getByText('Payment was unsuccessful or the payment link is invalid.')).toBeTruthy();
  });

  it('a status other than paid: Payment Failed!', async () => {
    mockFetch({});
    render(<PaymentStatus search="?razorpay_payment_link_id=plink_1&razorpay_payment_link_status=cancelled" />);
    expect(await screen.findByRole('heading', { name: 'Payment Failed!' })).toBeTruthy();
    expect(screen.getByText('Your payment could not be processed.')).toBeTruthy();
  });

  it('paid: looks the booking up with the callback params, confirms it and resets the booking', async () => {
    const { calls } = mockFetch({ 'GET /api/get-razorpay-details/9': { body: { data: details } } });
    updateClientInfo({ fullName: 'Old' });
    render(
      <PaymentStatus search="?razorpay_payment_id=pay_1&razorpay_payment_link_id=plink_1&razorpay_payment_link_reference_id=9&razorpay_payment_link_status=paid&razorpay_signature=sig" />,
    );
    expect(await screen.findByRole('heading', { name: 'Booking Confirmed!' })).toBeTruthy();
    expect(screen.getByText('Asha Mehta')).toBeTruthy();
    expect(screen.getByText('10:00 AM IST')).toBeTruthy();
    expect(screen.getByText('₹1,500')).toBeTruthy();
    const url = new URL(calls[0]!.url, 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      payment_status: 'paid',
      razorpay_payment_id: 'pay_1',
      razorpay_payment_link_id: 'plink_1',
      razorpay_payment_link_reference_id: '9',
      razorpay_payment_link_status: 'paid',
      razorpay_signature: 'sig',
    });
    expect($booking.get().clientInfo.fullName).toBe('');
  });

  it('paid through a link the centre sent (reference 9-…): the booking is looked up by its number (issue 31)', async () => {
    const { calls } = mockFetch({ 'GET /api/get-razorpay-details/9': { body: { data: details } } });
    render(
      <PaymentStatus search="?razorpay_payment_id=pay_1&razorpay_payment_link_id=plink_2&razorpay_payment_link_reference_id=9-a1b2c3d4e5f6&razorpay_payment_link_status=paid&razorpay_signature=sig" />,
    );
    expect(await screen.findByRole('heading', { name: 'Booking Confirmed!' })).toBeTruthy();
    expect(new URL(calls[0]!.url, 'http://x').pathname).toBe('/api/get-razorpay-details/9');
  });

  it('paid with a failed lookup: Booking Confirmation Failed! with the payment id', async () => {
    mockFetch({ 'GET /api/get-razorpay-details/9': SERVER_ERROR });
    render(
      <PaymentStatus search="?razorpay_payment_id=pay_7&razorpay_payment_link_id=plink_1&razorpay_payment_link_reference_id=9&razorpay_payment_link_status=paid" />,
    );
    expect(await screen.findByRole('heading', { name: 'Booking Confirmation Failed!' })).toBeTruthy();
    expect(screen.getByText('Please try again or contact support with Payment ID: pay_7')).toBeTruthy();
  });

  it('offline pending: the booking token kept by the wizard lets the page show the booking; without it the booking number alone', async () => {
    const record = booking9({
      id: 42,
      booking_type: 'OFFLINE',
      payment_status: 'PENDING',
      location_id: 2,
      location_name: 'East Branch',
      location_address: 'Kandivali East',
      google_meet_link: null,
    });
    const { calls } = mockFetch({ 'GET /api/get-razorpay-details/0b7e6a52-5c1f-4f3e-9d55-3f0b1f1e2a42': { body: { data: record } } });
    bookingMade(42, 'T'.repeat(43));
    const view = await resolveStatus(
      '?razorpay_payment_link_id=0b7e6a52-5c1f-4f3e-9d55-3f0b1f1e2a42&razorpay_payment_link_status=pending&booking_id=42',
      'T'.repeat(43),
    );
    expect(view).toMatchObject({ kind: 'in-person', booking: { id: 42, location_name: 'East Branch' } });
    expect(calls[0]!.headers['x-booking-token']).toBe('T'.repeat(43));
    // The server answers a caller without the token the payment status alone: no details to show.
    mockFetch({ 'GET /api/get-razorpay-details/0b7e6a52-5c1f-4f3e-9d55-3f0b1f1e2a42': { body: { data: { payment_status: 'PENDING' } } } });
    const bare = await resolveStatus('?razorpay_payment_link_id=0b7e6a52-5c1f-4f3e-9d55-3f0b1f1e2a42&razorpay_payment_link_status=pending&booking_id=42', null);
    expect(bare).toEqual({ kind: 'in-person', bookingId: '42', booking: null });
  });

  it('offline pending is the in-person confirmation, not a failure; Book Another Appointment resets and goes home', async () => {
    const { calls } = mockFetch({});
    const navigate = vi.fn();
    render(
      <PaymentStatus
        search="?razorpay_payment_link_id=0b7e6a52-5c1f-4f3e-9d55-3f0b1f1e2a42&razorpay_payment_link_status=pending&booking_id=42"
        navigate={navigate}
      />,
    );
    expect(await screen.findByRole('heading', { name: 'Booking Confirmed!' })).toBeTruthy();
    expect(screen.getByText(/Payment status: Pending/)).toBeTruthy();
    expect(screen.getByText('42')).toBeTruthy();
    expect(calls.some((c) => c.url.startsWith('/api/get-razorpay-details/0b7e6a52-5c1f-4f3e-9d55-3f0b1f1e2a42?'))).toBe(true);
    expect(screen.getByRole('link', { name: 'Go to Home Page' }).getAttribute('href')).toBe('/');
    setStep(3);
    fireEvent.click(screen.getByRole('button', { name: 'Book Another Appointment' }));
    expect($booking.get().currentStep).toBe(1);
    expect(navigate).toHaveBeenCalledWith('/');
  });
});
