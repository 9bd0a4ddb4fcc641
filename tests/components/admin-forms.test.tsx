import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import Login from '../../site/src/islands/admin/Login.tsx';
import ManualBooking from '../../site/src/islands/admin/ManualBooking.tsx';
import Dashboard from '../../site/src/islands/admin/Dashboard.tsx';
import { adminNav } from '../../site/src/lib/admin-nav.ts';
import { adminApi } from '../../site/src/lib/admin-api.ts';
import { ADMIN_TOKEN_KEY, ADMIN_USER_KEY, loadSession } from '../../site/src/stores/admin-session.ts';
import { API_MESSAGES } from '../../shared/contract/messages.ts';
import {
  booking,
  bookingsServer,
  findNotice,
  gatewayError,
  mockFetch,
  SERVER_ERROR,
  signIn,
  addDays,
  resetPanelAroundEachTest,
  statesFor,
  today,
  ASHA,
  ROHAN,
} from './admin-helpers.tsx';

const tomorrow = addDays(today, 1);

const therapists = [ASHA, ROHAN];

resetPanelAroundEachTest();

describe('Login', () => {
  it('signs in, stores the session under the two keys and goes to the dashboard', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { calls } = mockFetch({
      'POST /api/admin/login': () => ({ access_token: 'abc', token_type: 'bearer', username: 'owner', is_superadmin: true, is_admin: true, is_active: true }),
    });
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      await gate;
      return realFetch(...args);
    });
    render(<Login />);
    fireEvent.change(screen.getByLabelText('Email / Username'), { target: { value: 'owner' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse battery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('button', { name: 'Logging in...' })).toBeTruthy();
    await act(async () => release());
    await waitFor(() => expect(adminNav.replace).toHaveBeenCalledWith('/admin/dashboard'));
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBe('abc');
    expect(JSON.parse(sessionStorage.getItem(ADMIN_USER_KEY)!)).toEqual({ username: 'owner', is_superadmin: true, is_admin: true, is_active: true });
    expect(calls[0]!.init!.body).toBe('username=owner&password=correct+horse+battery');
    expect((calls[0]!.init!.headers as Record<string, string>)['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect((calls[0]!.init!.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it("shows the server's detail, else the HTTP status, else the generic message", async () => {
    mockFetch({ 'POST /api/admin/login': [401, { detail: 'Incorrect username or password' }] });
    render(<Login />);
    fireEvent.change(screen.getByLabelText('Email / Username'), { target: { value: 'owner' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Incorrect username or password')).toBeTruthy();
    expect(adminNav.replace).not.toHaveBeenCalled();

    mockFetch({ 'POST /api/admin/login': gatewayError });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('HTTP error! status: 502')).toBeTruthy();

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Login failed. Please check credentials.')).toBeTruthy();
  });

  it('shows the message left by a 401 elsewhere', async () => {
    signIn();
    mockFetch({ 'GET /api/admin/income': [401, { detail: 'Token expired' }] });
    await expect(adminApi.incomePage(1, 10)).rejects.toThrow('Unauthorized. Please log in again.');
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
    expect(adminNav.replace).toHaveBeenCalledWith('/admin/login');
    render(<Login />);
    expect(await screen.findByText('Unauthorized. Please log in again.')).toBeTruthy();
  });

  it('a stored user who is inactive is no session', () => {
    sessionStorage.setItem(ADMIN_TOKEN_KEY, 't');
    sessionStorage.setItem(ADMIN_USER_KEY, JSON.stringify({ username: 'x', is_superadmin: false, is_admin: true, is_active: false }));
    expect(loadSession()).toBeNull();
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(ADMIN_USER_KEY)).toBeNull();
  });
});

function manualRoutes(extra: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/admin/therapists': therapists,
    'GET /locations': [
      { id: 1, name: 'West Branch', description: '', address: 'Borivali West', phone: '+91 98200 11111' },
      { id: 2, name: 'East Branch', description: '', address: 'Kandivali East', phone: '+91 98200 22222' },
    ],
    // Each answer is one therapist's: tomorrow 10:00 is booked and 11:00 blocked for therapist 1,
    // and only 10:00 is booked for therapist 5.
    'GET /api/admin/therapists/1/slot-states': statesFor(1, {
      [`${tomorrow}|10:00`]: { state: 'booked', booking_id: 9 },
      [`${tomorrow}|11:00`]: { state: 'blocked', booking_id: 10 },
      [`${today}|12:00`]: { state: 'past', booking_id: null },
    }),
    'GET /api/admin/therapists/5/slot-states': statesFor(5, { [`${tomorrow}|10:00`]: { state: 'booked', booking_id: 12 } }),
    ...extra,
  });
}

describe('Manual Booking', () => {
  it('shows every required-field message', async () => {
    signIn();
    manualRoutes();
    render(<ManualBooking onClose={() => {}} onCreated={() => {}} />);
    await screen.findByLabelText('Therapist');
    fireEvent.change(screen.getByLabelText('Booking Type'), { target: { value: 'OFFLINE' } });
    fireEvent.change(screen.getByLabelText('Amount (₹)'), { target: { value: '-5' } });
    fireEvent.change(screen.getByLabelText('Client Email'), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByLabelText('Client Mobile'), { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    for (const msg of [
      'Therapist is required',
      'Booking date is required',
      'Time slot is required',
      'Client name is required',
      'Valid client email is required',
      'Valid 10-digit mobile is required',
      'Location is required for offline booking',
      'Amount is required and must be positive',
    ]) {
      expect(screen.getByText(msg)).toBeTruthy();
    }
    fireEvent.change(screen.getByLabelText('Booking Type'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    expect(screen.getByText('Booking type is required')).toBeTruthy();
    // Editing a field clears its error.
    fireEvent.change(screen.getByLabelText('Client Name'), { target: { value: 'Meera' } });
    expect(screen.queryByText('Client name is required')).toBeNull();
  });

  it('offers only the chosen therapist’s type of session and centre', async () => {
    signIn();
    manualRoutes();
    render(<ManualBooking onClose={() => {}} onCreated={() => {}} />);
    const type = (await screen.findByLabelText('Booking Type')) as HTMLSelectElement;
    const values = (select: HTMLSelectElement) =>
      Array.from(select.options)
        .map((o) => o.value)
        .filter(Boolean);
    expect(values(type)).toEqual(['ONLINE', 'OFFLINE']);
    // Rohan works in person at the West Branch (1) only.
    fireEvent.change(screen.getByLabelText('Therapist'), { target: { value: '5' } });
    expect(values(type)).toEqual(['OFFLINE']);
    expect(values(screen.getByLabelText('Location') as HTMLSelectElement)).toEqual(['1']);
    // Asha works online only: no centre to choose.
    fireEvent.change(screen.getByLabelText('Therapist'), { target: { value: '1' } });
    expect(values(type)).toEqual(['ONLINE']);
    expect(type.value).toBe('ONLINE');
    expect(screen.queryByLabelText('Location')).toBeNull();
  });

  it('a message about a blank the therapist fills (type, centre, amount) goes once it is filled', async () => {
    signIn();
    manualRoutes();
    render(<ManualBooking onClose={() => {}} onCreated={() => {}} />);
    await screen.findByLabelText('Therapist');
    fireEvent.change(screen.getByLabelText('Booking Type'), { target: { value: 'OFFLINE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    expect(screen.getByText('Amount is required and must be positive')).toBeTruthy();
    expect(screen.getByText('Location is required for offline booking')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Therapist'), { target: { value: '5' } });
    expect((screen.getByLabelText('Amount (₹)') as HTMLInputElement).value).toBe('1800');
    expect(screen.queryByText('Amount is required and must be positive')).toBeNull();
    expect(screen.queryByText('Location is required for offline booking')).toBeNull();
    expect(screen.getByLabelText('Amount (₹)').getAttribute('aria-invalid')).toBeNull();
    // What the therapist does not fill keeps its message.
    expect(screen.getByText('Client name is required')).toBeTruthy();
  });

  it('offers 15 days from today and only the free slots of the server’s states', async () => {
    signIn();
    const { calls } = manualRoutes();
    render(<ManualBooking onClose={() => {}} onCreated={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Therapist'), { target: { value: '1' } });
    const dateSelect = screen.getByLabelText('Booking Date') as HTMLSelectElement;
    const dates = Array.from(dateSelect.options)
      .map((o) => o.value)
      .filter(Boolean);
    expect(dates).toHaveLength(15);
    expect(dates[0]).toBe(today);
    expect(dates[14]).toBe(addDays(today, 14));
    fireEvent.change(dateSelect, { target: { value: tomorrow } });
    await waitFor(() => {
      const times = Array.from((screen.getByLabelText('Time Slot') as HTMLSelectElement).options)
        .map((o) => o.value)
        .filter(Boolean);
      // 10:00 booked, 11:00 blocked.
      expect(times).toEqual(['12:00']);
    });
    fireEvent.change(dateSelect, { target: { value: today } });
    const todays = Array.from((screen.getByLabelText('Time Slot') as HTMLSelectElement).options)
      .map((o) => o.value)
      .filter(Boolean);
    expect(todays).toEqual(['10:00', '11:00']);
    expect((screen.getByLabelText('Amount (₹)') as HTMLInputElement).value).toBe('1500');
    expect(calls.map((c) => c.url.pathname)).toContain('/api/admin/therapists/1/slot-states');
    // Therapist 5's booking at 10:00 tomorrow is theirs alone.
    fireEvent.change(screen.getByLabelText('Therapist'), { target: { value: '5' } });
    fireEvent.change(dateSelect, { target: { value: tomorrow } });
    await waitFor(() => {
      const times = Array.from((screen.getByLabelText('Time Slot') as HTMLSelectElement).options)
        .map((o) => o.value)
        .filter(Boolean);
      expect(times).toEqual(['11:00', '12:00']);
    });
  });

  /** Asha (online), tomorrow at noon, Meera's details: all but how it was settled. */
  async function fillOnline() {
    fireEvent.change(await screen.findByLabelText('Therapist'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('Booking Date'), { target: { value: tomorrow } });
    await waitFor(() => expect((screen.getByLabelText('Time Slot') as HTMLSelectElement).options.length).toBe(2));
    fireEvent.change(screen.getByLabelText('Time Slot'), { target: { value: '12:00' } });
    fireEvent.change(screen.getByLabelText('Client Name'), { target: { value: 'Meera Pillai' } });
    fireEvent.change(screen.getByLabelText('Client Email'), { target: { value: 'meera@example.com' } });
    fireEvent.change(screen.getByLabelText('Client Mobile'), { target: { value: '98765 43210' } });
  }

  it('online: asks how the session was settled; paid now by UPI sends COMPLETED with the method (a UUID per form) and reports success', async () => {
    signIn();
    const { calls } = manualRoutes({ 'POST /confirm-booking': { booking_id: 321, message: 'ok' } });
    const onCreated = vi.fn();
    render(<ManualBooking onClose={() => {}} onCreated={onCreated} />);
    await fillOnline();
    expect(screen.queryByText('Online bookings are saved as Completed.')).toBeNull();
    const payment = screen.getByRole('group', { name: 'Payment' });
    const paidNow = within(payment).getByRole('radio', { name: 'Paid now' });
    const link = within(payment).getByRole('radio', { name: 'Not paid yet: send a payment link' });
    expect([paidNow, link].map((r) => (r as HTMLInputElement).checked)).toEqual([false, false]);
    // Nothing chosen: nothing is sent, the choice says why, and focus goes to it.
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    expect(within(payment).getByText('Choose how the session was settled.')).toBeTruthy();
    expect(document.activeElement).toBe(paidNow);
    expect(paidNow.getAttribute('aria-describedby')).toBe(within(payment).getByText('Choose how the session was settled.').id);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // Paid now asks the method (the desk's four), and the amount stays the price.
    fireEvent.click(paidNow);
    expect(screen.queryByText('Choose how the session was settled.')).toBeNull();
    const method = screen.getByLabelText('Payment method') as HTMLSelectElement;
    expect(Array.from(method.options).map((o) => o.text)).toEqual(['Select a method', 'Cash', 'Card', 'UPI', 'Bank transfer']);
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    expect(screen.getByText('Choose the payment method.')).toBeTruthy();
    expect(document.activeElement).toBe(method);
    expect(method.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(method, { target: { value: 'UPI' } });
    expect(screen.getByText('Saved as Completed with the payment recorded; the client is e-mailed the confirmation.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith('Manual booking 321 created successfully!'));
    const post = calls.find((c) => c.method === 'POST')!;
    const body = JSON.parse(String(post.init!.body));
    expect(body).toMatchObject({
      therapist_id: 1,
      booking_date: tomorrow,
      booking_time_slot_start: '12:00',
      client_full_name: 'Meera Pillai',
      client_mobile: '9876543210',
      booking_type: 'ONLINE',
      location_id: 0,
      amount: 1500,
      payment_status: 'COMPLETED',
      payment_method: 'UPI',
      admin_confirmed: true,
    });
    expect(body.payment_transaction_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((post.init!.headers as Record<string, string>).Authorization).toBe('Bearer test-token');
  });

  it('online, not paid yet: sends payment_status PENDING and no method, and says a link goes to the client', async () => {
    signIn();
    const { calls } = manualRoutes({ 'POST /confirm-booking': { booking_id: 322, message: 'ok' } });
    const onCreated = vi.fn();
    render(<ManualBooking onClose={() => {}} onCreated={onCreated} />);
    await fillOnline();
    fireEvent.click(screen.getByRole('radio', { name: 'Paid now' }));
    fireEvent.change(screen.getByLabelText('Payment method'), { target: { value: 'CASH' } });
    // Changed its mind: the method goes with "Paid now".
    fireEvent.click(screen.getByRole('radio', { name: 'Not paid yet: send a payment link' }));
    expect(screen.queryByLabelText('Payment method')).toBeNull();
    expect(screen.getByText('Saved as awaiting payment: the client is e-mailed a payment link, and the booking is confirmed once it is paid.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith('Manual booking 322 created successfully!'));
    const body = JSON.parse(String(calls.find((c) => c.method === 'POST')!.init!.body));
    expect(body).toMatchObject({ booking_type: 'ONLINE', payment_status: 'PENDING', amount: 1500 });
    expect(body).not.toHaveProperty('payment_method');
  });

  it('in person: "Pay at the centre" by default, or "Paid now" with its method', async () => {
    signIn();
    const { calls } = manualRoutes({ 'POST /confirm-booking': { booking_id: 323, message: 'ok' } });
    render(<ManualBooking onClose={() => {}} onCreated={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Therapist'), { target: { value: '5' } });
    const payment = screen.getByRole('group', { name: 'Payment' });
    expect(
      within(payment)
        .getAllByRole('radio')
        .map((r) => [r.closest('label')!.textContent, (r as HTMLInputElement).checked]),
    ).toEqual([
      ['Pay at the centre', true],
      ['Paid now', false],
      ['From a package', false],
    ]);
    expect(screen.getByText('Saved as Pending; payment is collected at the visit.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Booking Date'), { target: { value: addDays(today, 2) } });
    await waitFor(() => expect((screen.getByLabelText('Time Slot') as HTMLSelectElement).options.length).toBe(4));
    fireEvent.change(screen.getByLabelText('Time Slot'), { target: { value: '11:00' } });
    fireEvent.change(screen.getByLabelText('Client Name'), { target: { value: 'Rahul' } });
    fireEvent.change(screen.getByLabelText('Client Email'), { target: { value: 'rahul@example.com' } });
    fireEvent.change(screen.getByLabelText('Client Mobile'), { target: { value: '9123456780' } });
    fireEvent.click(within(payment).getByRole('radio', { name: 'Paid now' }));
    fireEvent.change(screen.getByLabelText('Payment method'), { target: { value: 'CARD' } });
    fireEvent.change(screen.getByLabelText('Amount (₹)'), { target: { value: '1700' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = JSON.parse(String(calls.find((c) => c.method === 'POST')!.init!.body));
    expect(body).toMatchObject({ booking_type: 'OFFLINE', location_id: 1, payment_status: 'COMPLETED', payment_method: 'CARD', amount: 1700 });
  });

  it('offline bookings are PENDING at the chosen location; failures show the messages', async () => {
    signIn();
    let answer: unknown = SERVER_ERROR;
    const { calls } = manualRoutes({ 'POST /confirm-booking': () => answer });
    render(<ManualBooking onClose={() => {}} onCreated={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Therapist'), { target: { value: '5' } });
    expect((screen.getByLabelText('Booking Type') as HTMLSelectElement).value).toBe('OFFLINE');
    expect((screen.getByLabelText('Location') as HTMLSelectElement).value).toBe('1');
    fireEvent.change(screen.getByLabelText('Booking Date'), { target: { value: addDays(today, 2) } });
    await waitFor(() => expect((screen.getByLabelText('Time Slot') as HTMLSelectElement).options.length).toBe(4));
    fireEvent.change(screen.getByLabelText('Time Slot'), { target: { value: '10:00' } });
    fireEvent.change(screen.getByLabelText('Client Name'), { target: { value: 'Rahul' } });
    fireEvent.change(screen.getByLabelText('Client Email'), { target: { value: 'rahul@example.com' } });
    fireEvent.change(screen.getByLabelText('Client Mobile'), { target: { value: '9123456780' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    expect(await screen.findByText(API_MESSAGES.internal)).toBeTruthy();
    const body = JSON.parse(String(calls.find((c) => c.method === 'POST')!.init!.body));
    expect(body).toMatchObject({ booking_type: 'OFFLINE', location_id: 1, payment_status: 'PENDING', amount: 1800 });

    answer = [409, { detail: 'This time slot is already booked or blocked. Please choose another.' }];
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    expect(await screen.findByText('This time slot is already booked or blocked. Please choose another.')).toBeTruthy();
    // The same form keeps its transaction id.
    const ids = calls.filter((c) => c.method === 'POST').map((c) => JSON.parse(String(c.init!.body)).payment_transaction_id);
    expect(new Set(ids).size).toBe(1);
  });

  it('form data and slot failures', async () => {
    signIn();
    mockFetch({ 'GET /api/admin/therapists': SERVER_ERROR });
    render(<ManualBooking onClose={() => {}} onCreated={() => {}} />);
    expect(await screen.findByText('Failed to load form data.')).toBeTruthy();
    cleanup();
    manualRoutes({ 'GET /api/admin/therapists/1/slot-states': SERVER_ERROR });
    render(<ManualBooking onClose={() => {}} onCreated={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Therapist'), { target: { value: '1' } });
    expect(await screen.findByText('Failed to fetch available time slots.')).toBeTruthy();
  });

  it('traps focus and closes on Escape', async () => {
    signIn();
    manualRoutes();
    const onClose = vi.fn();
    render(<ManualBooking onClose={onClose} onCreated={() => {}} />);
    await screen.findByLabelText('Therapist');
    const dialog = screen.getByRole('dialog', { name: 'Manual Booking' });
    const create = within(dialog).getByRole('button', { name: 'Create Booking' });
    create.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close dialog' }));
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(create);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
});

describe('Dashboard actions', () => {
  function dashRoutes(extra: Record<string, unknown> = {}) {
    return mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer([
        booking({ id: 41, booking_date: tomorrow, payment_status: 'PENDING' }),
        booking({ id: 42, booking_date: tomorrow, payment_status: 'PENDING', payment_transaction_id: null, booking_time_slot_start: '11:00:00' }),
        booking({ id: 43, booking_date: tomorrow, booking_type: 'ADMIN_BLOCK', payment_status: 'BLOCKED', booking_time_slot_start: '12:00:00' }),
        booking({ id: 44, booking_date: addDays(today, -1), booking_time_slot_start: '13:00:00' }),
      ]),
      'GET /api/admin/therapists/1/slot-states': statesFor(1, {
        [`${tomorrow}|10:00`]: { state: 'booked', booking_id: 41 },
        [`${tomorrow}|11:00`]: { state: 'booked', booking_id: 42 },
        [`${tomorrow}|12:00`]: { state: 'blocked', booking_id: 43 },
      }),
      ...extra,
    });
  }

  it('cancel asks the spec question and reports success in green', async () => {
    signIn();
    const { calls } = dashRoutes({
      'POST /api/admin/bookings/41/cancel': { booking_id: 41, cancelled: true, unblocked: false, message: 'Booking 41 cancelled successfully.' },
    });
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel booking 41' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure you want to cancel booking 41? This cannot be undone.' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 41' }));
    const msg = await findNotice('Booking 41 cancelled successfully.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/admin/bookings/41/cancel')).toBe(true);
    // Past bookings cannot be cancelled; blocks offer Unblock instead.
    expect(screen.queryByRole('button', { name: 'Cancel booking 44' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Unblock booking 43' })).toBeTruthy();
  });

  it('cancel failure is red', async () => {
    signIn();
    dashRoutes({ 'POST /api/admin/bookings/41/cancel': [409, { detail: 'Booking 41 is already cancelled.' }] });
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel booking 41' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel booking 41' }));
    const msg = await findNotice('Failed to cancel booking 41: Booking 41 is already cancelled.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--error');
  });

  it('payment link panel: Send makes and sends the link, shows it with Copy, in success styling; the row then says "Link sent"', async () => {
    signIn();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const sentAt = new Date(`${today}T09:30:00+05:30`).toISOString();
    let sent = false;
    const { calls } = mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer(() => [
        booking({
          id: 41,
          booking_date: tomorrow,
          payment_status: 'PENDING',
          ...(sent ? { payment_link_url: 'https://pay.example/l/abc', payment_link_sent_at: sentAt, payment_link_sent_to: ['email'] } : {}),
        }),
        booking({ id: 45, booking_date: tomorrow, booking_time_slot_start: '11:00:00' }),
      ]),
      'POST /api/admin/bookings/41/send-payment-link': () => {
        sent = true;
        return { payment_link_url: 'https://pay.example/l/abc', sent_to: ['email'], sent_at: sentAt };
      },
    });
    render(<Dashboard onLogout={() => {}} />);
    // Only a booking waiting for its payment has a link to send.
    fireEvent.click(await screen.findByRole('button', { name: 'Payment link for booking 41' }));
    expect(screen.queryByRole('button', { name: 'Payment link for booking 45' })).toBeNull();
    const panel = screen.getByRole('dialog', { name: 'Payment link for booking 41' });
    expect(within(panel).getByText('No payment link yet. Send makes one and sends it to the client.')).toBeTruthy();
    expect(within(panel).getByText('Not sent to the client yet.')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Send to client' }));
    const done = await within(panel).findByText('Payment link for booking 41 sent to the client by e-mail at 9:30 AM.');
    // Its kind, not its words, makes it a success: green, and announced politely.
    expect(done.closest('.adm-notice')!.className).toContain('adm-notice--success');
    expect(done.closest('[role]')!.getAttribute('role')).toBe('status');
    expect((within(panel).getByLabelText('Payment link') as HTMLInputElement).value).toBe('https://pay.example/l/abc');
    expect(within(panel).getByText('Link sent 9:30 AM by e-mail.')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/admin/bookings/41/send-payment-link');
    fireEvent.click(within(panel).getByRole('button', { name: 'Copy link' }));
    expect(await within(panel).findByText('Link copied to the clipboard.')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('https://pay.example/l/abc');
    fireEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    // The lists were reloaded: the row says when the link went.
    const table = screen.getByRole('region', { name: 'All Booked Slots table' });
    await waitFor(() => expect(within(table).getByText(/Link sent 9:30 AM/)).toBeTruthy());
  });

  it('payment link panel: a refusal is an error (red, an alert); Create link makes one to copy without sending', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer([booking({ id: 41, booking_date: tomorrow, payment_status: 'PENDING' })]),
      'POST /api/admin/bookings/41/send-payment-link': [409, { detail: 'Booking 41 is already paid.' }],
      'POST /api/create-shareable-payment-link': { payment_link_url: 'https://pay.example/l/new' },
    });
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Payment link for booking 41' }));
    const panel = screen.getByRole('dialog', { name: 'Payment link for booking 41' });
    fireEvent.click(within(panel).getByRole('button', { name: 'Send to client' }));
    const refused = await within(panel).findByText('Failed to send the payment link for booking 41: Booking 41 is already paid.');
    expect(refused.closest('.adm-notice')!.className).toContain('adm-notice--error');
    expect(refused.closest('[role]')!.getAttribute('role')).toBe('alert');
    fireEvent.click(within(panel).getByRole('button', { name: 'Create link' }));
    expect(await within(panel).findByText('Payment link for booking 41 created successfully.')).toBeTruthy();
    expect((within(panel).getByLabelText('Payment link') as HTMLInputElement).value).toBe('https://pay.example/l/new');
  });

  it('slots: Booked, Blocked with Unblock, free with Block; block asks and reports', async () => {
    signIn();
    const { calls } = dashRoutes({ 'POST /api/admin/availability/block': { blocked: false, booking_id: 43, message: 'unblocked' } });
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'View availability of Dr. Asha Mehta' }));
    // 5 dates on wide screens.
    await screen.findByRole('group', { name: 'Choose a date' });
    expect(within(screen.getByRole('group', { name: 'Choose a date' })).getAllByRole('button', { pressed: false }).length + 1).toBe(5);
    fireEvent.click(within(screen.getByRole('group', { name: 'Choose a date' })).getAllByRole('button')[2]!);
    await screen.findByRole('button', { name: 'Unblock 12:00 PM' });
    const slotList = document.querySelector('.adm-slots') as HTMLElement;
    // 10:00 and 11:00 are held by bookings 41 and 42, 12:00 by the block 43.
    expect(within(slotList).getAllByText('Booked')).toHaveLength(2);
    expect(within(slotList).getByText('Blocked')).toBeTruthy();
    expect(within(slotList).getByRole('button', { name: 'Unblock 12:00 PM' })).toBeTruthy();
    expect(within(slotList).queryByRole('button', { name: 'Block 10:00 AM' })).toBeNull();
    fireEvent.click(within(slotList).getByRole('button', { name: 'Unblock 12:00 PM' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Are you sure you want to unblock this time slot?' })).getByRole('button', { name: 'Unblock slot' }),
    );
    expect(await findNotice(/^Slot 12:00 PM on .+ unblocked successfully\.$/)).toBeTruthy();
    const post = calls.find((c) => c.url.pathname === '/api/admin/availability/block')!;
    expect(JSON.parse(String(post.init!.body))).toEqual({ therapist_id: 1, start_time: '12:00', date: tomorrow, action: 'unblock' });
  });

  it('load failure offers Retry and Logout', async () => {
    signIn();
    mockFetch({ 'GET /api/admin/therapists': SERVER_ERROR, 'GET /api/admin/bookings': bookingsServer([]) });
    const onLogout = vi.fn();
    render(<Dashboard onLogout={onLogout} />);
    expect(await screen.findByText(API_MESSAGES.internal)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalled();
  });
});
