import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import Dashboard from '../../site/src/islands/admin/Dashboard.tsx';
import { clientChangeWords } from '../../site/src/lib/admin-format.ts';
import {
  booking,
  bookingsServer,
  findNotice,
  getNotice,
  mockFetch,
  signIn,
  addDays,
  resetPanelAroundEachTest,
  statesFor,
  today,
  ASHA,
  PRIYA,
  ROHAN,
} from './admin-helpers.tsx';

/**
 * The dashboard's availability grid draws the server's per-therapist slot states, and its
 * block/unblock and record-payment actions say what actually happened.
 */

const tomorrow = addDays(today, 1);

const therapists = [ASHA, PRIYA, ROHAN];
const templates = (therapistId: number) =>
  ['10:00', '11:00', '12:00'].map((t, i) => ({
    id: therapistId * 10 + i,
    start_time: `${t}:00`,
    end_time: `${t.slice(0, 2)}:59:00`,
    is_available: true,
    admin_blocked: false,
    therapist_id: therapistId,
  }));

resetPanelAroundEachTest();

async function openTherapist(name: string, dateIndex = 1) {
  fireEvent.click(await screen.findByRole('button', { name: `View availability of ${name}` }));
  const strip = await screen.findByRole('group', { name: 'Choose a date' });
  fireEvent.click(within(strip).getAllByRole('button')[dateIndex + 1]!); // the first button is "Previous dates"
  await waitFor(() => expect(document.querySelector('.adm-slots')).toBeTruthy());
  return document.querySelector('.adm-slots') as HTMLElement;
}

describe('availability grid per therapist', () => {
  it('a booking of therapist A at 10:00 does not make B’s 10:00 Booked; B may block it', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/therapists': therapists,
      // Asha (1) has a client at 10:00 tomorrow and an expired, FAILED hold at 11:00.
      'GET /api/admin/bookings': bookingsServer([
        booking({ id: 7, therapist_id: 1, booking_date: tomorrow, booking_time_slot_start: '10:00:00' }),
        booking({ id: 8, therapist_id: 2, booking_date: tomorrow, booking_time_slot_start: '11:00:00', payment_status: 'FAILED' }),
      ]),
      'GET /availability-slots': (url: URL) => templates(Number(url.searchParams.get('therapist_id'))),
      'GET /api/admin/therapists/1/slot-states': statesFor(1, { [`${tomorrow}|10:00`]: { state: 'booked', booking_id: 7 } }),
      'GET /api/admin/therapists/2/slot-states': statesFor(2),
      'POST /api/admin/availability/block': { blocked: true, booking_id: 99, message: 'Slot 10:00 blocked successfully.' },
    });
    render(<Dashboard onLogout={() => {}} />);

    let grid = await openTherapist('Dr. Asha Mehta');
    expect(within(grid).getAllByText('Booked')).toHaveLength(1);
    expect(within(grid).queryByRole('button', { name: 'Block 10:00 AM' })).toBeNull();

    grid = await openTherapist('Ms. Priya Nair');
    await waitFor(() => expect(within(grid).queryByText('Booked')).toBeNull());
    // Priya's 11:00 is held only by a FAILED hold: free, so Block is offered.
    expect(
      within(grid)
        .getAllByRole('button', { name: /^Block / })
        .map((b) => b.textContent),
    ).toEqual(['Block', 'Block', 'Block']);
    expect(within(grid).queryByRole('button', { name: /^Unblock/ })).toBeNull();
    expect(calls.some((c) => c.url.pathname === '/api/admin/therapists/2/slot-states')).toBe(true);

    fireEvent.click(within(grid).getByRole('button', { name: 'Block 10:00 AM' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Are you sure you want to block this time slot?' })).getByRole('button', { name: 'Block slot' }),
    );
    const msg = await findNotice(/^Slot 10:00 AM on .+ blocked successfully\.$/);
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    const post = calls.find((c) => c.url.pathname === '/api/admin/availability/block')!;
    expect(JSON.parse(String(post.init!.body))).toEqual({ therapist_id: 2, start_time: '10:00', date: tomorrow, action: 'block' });
  });

  it('Unblock asks to unblock; a refusal is shown in red, and the grid is reloaded', async () => {
    signIn();
    let blocked = true;
    const { calls } = mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer([]),
      'GET /api/admin/therapists/1/slot-states': () => statesFor(1, blocked ? { [`${tomorrow}|12:00`]: { state: 'blocked', booking_id: 43 } } : {}),
      'POST /api/admin/availability/block': () => {
        // Someone else lifted the block meanwhile: the server refuses rather than block it again.
        blocked = false;
        return [409, { detail: `Slot 12:00 on ${tomorrow} is not blocked, so there is nothing to unblock; nothing was changed.` }];
      },
    });
    render(<Dashboard onLogout={() => {}} />);
    const grid = await openTherapist('Dr. Asha Mehta');
    expect(within(grid).getByText('Blocked')).toBeTruthy();
    fireEvent.click(within(grid).getByRole('button', { name: 'Unblock 12:00 PM' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Are you sure you want to unblock this time slot?' })).getByRole('button', { name: 'Unblock slot' }),
    );
    const msg = await findNotice(/^Failed to unblock slot 12:00 PM on .+: Slot 12:00 on .+ is not blocked/);
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--error');
    const post = calls.find((c) => c.url.pathname === '/api/admin/availability/block')!;
    expect(JSON.parse(String(post.init!.body))).toMatchObject({ action: 'unblock' });
    await waitFor(() => expect(within(document.querySelector('.adm-slots') as HTMLElement).queryByText('Blocked')).toBeNull());
    expect(calls.filter((c) => c.url.pathname === '/api/admin/therapists/1/slot-states')).toHaveLength(2);
  });

  it('past and schedule-blocked slots offer no button; a late answer for another therapist is not drawn', async () => {
    signIn();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer([]),
      'GET /api/admin/therapists/1/slot-states': statesFor(1, { [`${tomorrow}|10:00`]: { state: 'booked', booking_id: 7 } }),
      'GET /api/admin/therapists/2/slot-states': {
        ...statesFor(2),
        days: statesFor(2).days.map((d, i) =>
          i === 1 ? { ...d, slots: [{ ...d.slots[0]!, state: 'past' }, { ...d.slots[1]!, state: 'blocked', booking_id: null }, d.slots[2]!] } : d,
        ),
      },
    });
    const realFetch = globalThis.fetch;
    // Asha's answer is held back until Priya's has been drawn.
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      if (String(args[0]).includes('/therapists/1/slot-states')) await gate;
      return realFetch(...args);
    });
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'View availability of Dr. Asha Mehta' }));
    const grid = await openTherapist('Ms. Priya Nair');
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByRole('heading', { name: 'Booked Sessions: Priya Nair' })).toBeTruthy();
    expect(within(document.querySelector('.adm-slots') as HTMLElement).queryByText('Booked')).toBeNull();
    expect(within(grid).getByText('Past')).toBeTruthy();
    expect(within(grid).getByText('Blocked')).toBeTruthy();
    expect(within(grid).queryByRole('button', { name: /10:00 AM|11:00 AM/ })).toBeNull();
    expect(within(grid).getByRole('button', { name: 'Block 12:00 PM' })).toBeTruthy();
  });
});

describe('a change the client made from Manage booking', () => {
  it('is said beside the status in the lists', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer([
        booking({ id: 71, booking_date: tomorrow, client_change: { kind: 'MOVED', at: '2026-11-23T04:00:00.000Z' } }),
        booking({ id: 73, booking_date: tomorrow, booking_time_slot_start: '12:00:00' }),
      ]),
    });
    render(<Dashboard onLogout={() => {}} />);
    expect((await screen.findAllByText(/Moved by the client/)).length).toBeGreaterThan(0);
    expect(clientChangeWords({ client_change: { kind: 'CANCELLED' } })).toBe('Cancelled by the client');
    expect(clientChangeWords({ client_change: null })).toBeNull();
  });
});

describe('Record payment', () => {
  const offline = (over: Record<string, unknown> = {}) =>
    booking({
      id: 51,
      therapist_id: 5,
      therapist_name: 'Dr. Rohan Kapoor',
      booking_type: 'OFFLINE',
      payment_status: 'PENDING',
      amount: 1800,
      booking_date: tomorrow,
      location_id: 1,
      ...over,
    });

  function routes(answer: () => unknown) {
    let paid = false;
    return mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer(() => [
        offline(paid ? { payment_status: 'COMPLETED' } : {}),
        offline({ id: 52, payment_status: 'COMPLETED', booking_time_slot_start: '11:00:00' }),
        offline({ id: 53, cancelled: true, booking_time_slot_start: '12:00:00' }),
        booking({ id: 54, payment_status: 'INITIATED', booking_date: tomorrow }),
        // Issue 31: an online booking the centre made awaiting its link, and one confirmed with no payment recorded.
        booking({ id: 55, payment_status: 'PENDING', booking_date: tomorrow, booking_time_slot_start: '14:00:00' }),
        booking({ id: 56, booking_date: tomorrow, booking_time_slot_start: '15:00:00', amount_paid: 0 }),
      ]),
      'POST /api/admin/bookings/51/record-payment': () => {
        const out = answer();
        if (!Array.isArray(out)) paid = true;
        return out;
      },
    });
  }

  it('is offered where the desk may take the money (to pay at the centre, awaiting a link, payment not recorded), in the table and in the mobile cards', async () => {
    signIn();
    routes(() => ({}));
    render(<Dashboard onLogout={() => {}} />);
    for (const id of [51, 55, 56]) expect(await screen.findByRole('button', { name: `Record payment for booking ${id}` })).toBeTruthy();
    // Paid, cancelled, and the wizard's hold (paid online).
    for (const id of [52, 53, 54]) expect(screen.queryByRole('button', { name: `Record payment for booking ${id}` })).toBeNull();
    // The spec's manual online payload: confirmed, its payment in words "Payment not recorded".
    const unrecorded = screen.getByRole('button', { name: 'Record payment for booking 56' }).closest('tr')!;
    expect(within(unrecorded).getByText('Payment not recorded').closest('.adm-pay')!.querySelector('.adm-badge')!.textContent).toBe('COMPLETED');
    cleanup();
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    render(<Dashboard onLogout={() => {}} />);
    const button = await screen.findByRole('button', { name: 'Record payment for booking 51' });
    expect(button.closest('.adm-card__actions')).toBeTruthy();
  });

  it('asks method and amount (the booking’s by default), sends them and shows the message in green', async () => {
    signIn();
    const { calls } = routes(() => ({ booking_id: 51, payment_status: 'COMPLETED', message: 'Payment of ₹1,750.50 recorded for booking 51 successfully.' }));
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Record payment for booking 51' }));
    const dialog = screen.getByRole('dialog', { name: 'Record payment for booking 51' });
    const method = within(dialog).getByLabelText('Payment method') as HTMLSelectElement;
    expect(Array.from(method.options).map((o) => [o.value, o.text])).toEqual([
      ['CASH', 'Cash'],
      ['CARD', 'Card'],
      ['UPI', 'UPI'],
      ['BANK_TRANSFER', 'Bank transfer'],
    ]);
    // Focus moves into the dialog.
    expect(dialog.contains(document.activeElement)).toBe(true);
    const amount = within(dialog).getByLabelText('Amount (₹)') as HTMLInputElement;
    expect(amount.value).toBe('1800');
    // A bad amount is caught before anything is sent.
    fireEvent.change(amount, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm payment' }));
    expect(within(dialog).getByText('Amount is required and must be positive')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(method, { target: { value: 'UPI' } });
    fireEvent.change(amount, { target: { value: '1750.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm payment' }));
    const msg = await findNotice('Payment of ₹1,750.50 recorded for booking 51 successfully.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    expect(screen.queryByRole('dialog')).toBeNull();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/admin/bookings/51/record-payment');
    expect(JSON.parse(String(post.init!.body))).toEqual({ method: 'UPI', amount: 1750.5 });
    expect((post.init!.headers as Record<string, string>).Authorization).toBe('Bearer test-token');
    // The lists are refreshed: booking 51 is now paid, so the button is gone.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Record payment for booking 51' })).toBeNull());
  });

  it('shows the server’s detail in red when it refuses; Cancel sends nothing', async () => {
    signIn();
    const { calls } = routes(() => [409, { detail: 'Booking 51 is already paid.' }]);
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Record payment for booking 51' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Record payment for booking 51' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm payment' }));
    const msg = await findNotice('Booking 51 is already paid.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--error');
    expect(JSON.parse(String(calls.find((c) => c.method === 'POST')!.init!.body))).toEqual({ method: 'CASH', amount: 1800 });
    // The lists are asked for again after the answer, refused or not (on the render that follows it).
    await waitFor(() => expect(calls.filter((c) => c.url.pathname === '/api/admin/bookings').length).toBeGreaterThanOrEqual(2));
  });
});

describe('Cancel and the client’s payment', () => {
  // 61 is paid (₹1,500 captured); 62 is unpaid; 63 was paid but has no money captured on record
  // (COMPLETED with amount_paid 0: nothing to refund, so the plain confirm).
  const paid = (over: Record<string, unknown> = {}) =>
    booking({ id: 61, booking_date: tomorrow, payment_status: 'COMPLETED', amount_paid: 1500, amount_refunded: 0, payment_note: null, ...over });

  /** What the server lets this admin choose for 61 (GET refund-options); a super admin's by default. */
  const superOptions = {
    booking_id: 61,
    held: 1500,
    held_at_counter: 0,
    choices: ['FULL', 'PARTIAL', 'NONE', 'REQUEST'],
    inside_notice_window: false,
    notice_hours: 24,
  };
  function routes(answer: (init: RequestInit | undefined) => unknown, options: Record<string, unknown> = superOptions) {
    let cancelled = false;
    return mockFetch({
      'GET /api/admin/bookings/61/refund-options': options,
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer(() => [
        paid(cancelled ? { cancelled: true, payment_note: 'Refunded ₹1,500.00' } : {}),
        booking({ id: 62, booking_date: tomorrow, payment_status: 'PENDING', amount_paid: 0, booking_time_slot_start: '11:00:00' }),
        booking({ id: 63, booking_date: tomorrow, payment_status: 'COMPLETED', amount_paid: 0, booking_time_slot_start: '12:00:00' }),
      ]),
      'POST /api/admin/bookings/61/cancel': (_url: URL, init: RequestInit | undefined) => {
        const out = answer(init);
        if (!Array.isArray(out)) cancelled = true;
        return out;
      },
      'POST /api/admin/bookings/62/cancel': {
        booking_id: 62,
        cancelled: true,
        unblocked: false,
        message: 'Booking 62 cancelled successfully.',
        refund: { status: 'none', amount: 0 },
      },
      'POST /api/admin/bookings/63/cancel': { booking_id: 63, cancelled: true, unblocked: false, message: 'Booking 63 cancelled successfully.' },
    });
  }
  const cancelPosts = (calls: ReturnType<typeof mockFetch>['calls']) => calls.filter((c) => c.method === 'POST' && c.url.pathname.endsWith('/cancel'));
  const bodyOf = (c: { init: RequestInit | undefined }) => (c.init?.body === undefined ? undefined : JSON.parse(String(c.init.body)));
  const question = 'Are you sure you want to cancel booking 61? This cannot be undone.';

  /** The server's answer to cancelling booking 61: its message and refund. */
  const cancelled61 = (message: string, refund: { status: string; amount: number }) => () => ({
    booking_id: 61,
    cancelled: true,
    unblocked: false,
    message,
    refund,
  });

  async function openRefundDialog() {
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel booking 61' }));
    const dialog = screen.getByRole('dialog', { name: question });
    // The choices come from the server (refund-options).
    await within(dialog).findByRole('group', { name: 'Refund' });
    return dialog;
  }

  it('an unpaid booking (and a COMPLETED one with nothing captured) asks the spec’s question in the panel’s dialog and sends no body', async () => {
    signIn();
    const { calls } = routes(() => ({}));
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel booking 62' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure you want to cancel booking 62? This cannot be undone.' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 62' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const msg = await findNotice('Booking 62 cancelled successfully.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel booking 63' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel booking 63' }));
    await findNotice('Booking 63 cancelled successfully.');
    const posts = cancelPosts(calls);
    expect(posts.map((c) => c.url.pathname)).toEqual(['/api/admin/bookings/62/cancel', '/api/admin/bookings/63/cancel']);
    for (const p of posts) {
      expect(p.init!.body).toBeUndefined();
      expect((p.init!.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    }
  });

  it('a paid booking opens the refund dialog instead of the confirm; FULL sends {"refund":"FULL"} and shows the server’s message in green', async () => {
    signIn(true);
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    const { calls } = routes(cancelled61('Booking 61 cancelled successfully. ₹1,500.00 refunded.', { status: 'processed', amount: 1500 }));
    render(<Dashboard onLogout={() => {}} />);
    const dialog = await openRefundDialog();
    expect(confirm).not.toHaveBeenCalled();
    expect(within(dialog).getByRole('heading', { name: question })).toBeTruthy();
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(within(dialog).getByText('₹1,500.00', { selector: 'strong' })).toBeTruthy();
    const full = within(dialog).getByRole('radio', { name: 'Full refund (₹1,500.00)' }) as HTMLInputElement;
    const partial = within(dialog).getByRole('radio', { name: 'Partial refund' }) as HTMLInputElement;
    const none = within(dialog).getByRole('radio', { name: 'No refund' }) as HTMLInputElement;
    // A super admin chooses on purpose: nothing is preselected, and Confirm without a choice sends nothing.
    expect([full.checked, partial.checked, none.checked]).toEqual([false, false, false]);
    expect(full.disabled || partial.disabled).toBe(false);
    expect(within(dialog).queryByText('Only super admins may refund payments.')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61' }));
    expect(within(dialog).getByText('Choose a full, partial or no refund.')).toBeTruthy();
    expect(cancelPosts(calls)).toHaveLength(0);

    fireEvent.click(full);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61 and refund ₹1,500.00' }));
    const msg = await findNotice('Booking 61 cancelled successfully. ₹1,500.00 refunded.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    expect(screen.queryByRole('dialog')).toBeNull();
    const [post] = cancelPosts(calls);
    expect(bodyOf(post!)).toEqual({ refund: 'FULL' });
    expect((post!.init!.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    // The lists are refreshed: 61 is now cancelled, so it leaves the active list; the message stays
    // where it was; under Cancelled it shows the server's note beside its badge.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel booking 61' })).toBeNull());
    expect(getNotice('Booking 61 cancelled successfully. ₹1,500.00 refunded.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'CANCELLED' } });
    expect((await screen.findAllByText('Refunded ₹1,500.00')).length).toBeGreaterThan(0);
  });

  it('PARTIAL: the amount must be more than 0, at most what was paid and in paise; the valid amount is sent', async () => {
    signIn(true);
    const { calls } = routes(cancelled61('Booking 61 cancelled successfully. ₹500.50 refund pending.', { status: 'pending', amount: 500.5 }));
    render(<Dashboard onLogout={() => {}} />);
    const dialog = await openRefundDialog();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Partial refund' }));
    const amount = within(dialog).getByLabelText('Refund amount (₹)') as HTMLInputElement;
    expect(amount.value).toBe('');
    // Until the amount is a valid one, the button does not name a sum.
    expect(within(dialog).getByRole('button', { name: 'Cancel booking 61 and refund' })).toBeTruthy();
    for (const bad of ['', '0', '-5', '1500.01', '2000', '12.345', 'abc', '1e3']) {
      fireEvent.change(amount, { target: { value: bad } });
      fireEvent.click(within(dialog).getByRole('button', { name: /^Cancel booking 61 and refund/ }));
      expect(within(dialog).getByText('Enter an amount more than ₹0 and at most ₹1,500.00, with at most two decimals.')).toBeTruthy();
      expect(amount.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(amount);
    }
    expect(cancelPosts(calls)).toHaveLength(0);
    // Exactly what was paid is allowed.
    fireEvent.change(amount, { target: { value: '1500.00' } });
    expect(within(dialog).getByRole('button', { name: 'Cancel booking 61 and refund ₹1,500.00' })).toBeTruthy();
    fireEvent.change(amount, { target: { value: '500.5' } });
    expect(amount.getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61 and refund ₹500.50' }));
    const msg = await findNotice('Booking 61 cancelled successfully. ₹500.50 refund pending.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    expect(bodyOf(cancelPosts(calls)[0]!)).toEqual({ refund: 'PARTIAL', amount: 500.5 });
  });

  it('NONE: the reason is prefilled, required, and sent trimmed', async () => {
    signIn(true);
    const { calls } = routes(cancelled61('Booking 61 cancelled successfully. No refund.', { status: 'none', amount: 0 }));
    render(<Dashboard onLogout={() => {}} />);
    const dialog = await openRefundDialog();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'No refund' }));
    const reason = within(dialog).getByLabelText('Reason') as HTMLInputElement;
    expect(reason.value).toBe("Cancelled with less than 24 hours' notice (Terms)");
    expect(reason.maxLength).toBe(300);
    fireEvent.change(reason, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61 without refund' }));
    expect(within(dialog).getByText('A reason is required when no refund is given.')).toBeTruthy();
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(cancelPosts(calls)).toHaveLength(0);
    fireEvent.change(reason, { target: { value: '  Client did not attend (no-show)  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61 without refund' }));
    await findNotice('Booking 61 cancelled successfully. No refund.');
    expect(bodyOf(cancelPosts(calls)[0]!)).toEqual({ refund: 'NONE', reason: 'Client did not attend (no-show)' });
  });

  it('a plain admin asks the owner to refund (REQUEST, with the reason); "No refund" is not offered outside the notice window; Keep booking sends nothing', async () => {
    signIn(false);
    const { calls } = routes(
      cancelled61('Booking 61 cancelled successfully. Refund of ₹1,500.00 sent to the owner for review.', { status: 'requested', amount: 1500 }),
      { ...superOptions, choices: ['REQUEST'] },
    );
    render(<Dashboard onLogout={() => {}} />);
    let dialog = await openRefundDialog();
    expect(within(dialog).queryByRole('radio', { name: /Full refund/ })).toBeNull();
    expect(within(dialog).queryByRole('radio', { name: 'Partial refund' })).toBeNull();
    expect(within(dialog).queryByRole('radio', { name: 'No refund' })).toBeNull();
    expect(
      within(dialog).getByText(
        'No refund is only for a session starting within 24 hours, where the terms charge the full fee. Ask the owner to refund instead.',
      ),
    ).toBeTruthy();
    // Its only choice starts chosen.
    const ask = within(dialog).getByRole('radio', { name: 'Ask the owner to refund' }) as HTMLInputElement;
    expect(ask.checked).toBe(true);
    const why = within(dialog).getByLabelText('Why should the client be refunded?') as HTMLInputElement;
    expect(why.value).toBe('');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61 and ask the owner' }));
    expect(within(dialog).getByText('Please say why the client should be refunded.')).toBeTruthy();
    expect(why.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(why);
    expect(cancelPosts(calls)).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep booking' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(cancelPosts(calls)).toHaveLength(0);

    dialog = await openRefundDialog();
    fireEvent.change(within(dialog).getByLabelText('Why should the client be refunded?'), { target: { value: '  Client is unwell  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61 and ask the owner' }));
    await findNotice('Booking 61 cancelled successfully. Refund of ₹1,500.00 sent to the owner for review.');
    expect(bodyOf(cancelPosts(calls)[0]!)).toEqual({ refund: 'REQUEST', reason: 'Client is unwell' });
  });

  it('a plain admin inside the notice window may also cancel without a refund, chosen on purpose', async () => {
    signIn(false);
    const { calls } = routes(cancelled61('Booking 61 cancelled successfully. No refund.', { status: 'none', amount: 0 }), {
      ...superOptions,
      choices: ['REQUEST', 'NONE'],
      inside_notice_window: true,
    });
    render(<Dashboard onLogout={() => {}} />);
    const dialog = await openRefundDialog();
    const ask = within(dialog).getByRole('radio', { name: 'Ask the owner to refund' }) as HTMLInputElement;
    const none = within(dialog).getByRole('radio', { name: 'No refund' }) as HTMLInputElement;
    expect([ask.checked, none.checked]).toEqual([false, false]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61' }));
    expect(within(dialog).getByText('Choose to ask the owner to refund, or no refund.')).toBeTruthy();
    fireEvent.click(none);
    expect((within(dialog).getByLabelText('Reason') as HTMLInputElement).value).toBe("Cancelled with less than 24 hours' notice (Terms)");
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61 without refund' }));
    await findNotice('Booking 61 cancelled successfully. No refund.');
    expect(bodyOf(cancelPosts(calls)[0]!)).toEqual({ refund: 'NONE', reason: "Cancelled with less than 24 hours' notice (Terms)" });
  });

  it('money taken at the counter: the dialog says it goes back at the desk', async () => {
    signIn(true);
    routes(() => ({}), { ...superOptions, held_at_counter: 1500 });
    render(<Dashboard onLogout={() => {}} />);
    const dialog = await openRefundDialog();
    expect(
      within(dialog).getByText(
        '₹1,500.00 of it was paid at the counter: a refund of it is handed back at the desk, and listed under “Refunds due at the counter” until then.',
      ),
    ).toBeTruthy();
  });

  it('the server’s 403 and 409 details show in red after the spec’s prefix, and the lists are reloaded', async () => {
    signIn(true);
    let answer: unknown = [403, { detail: 'Only super admins may refund payments.' }];
    const { calls } = routes(() => answer);
    render(<Dashboard onLogout={() => {}} />);
    let dialog = await openRefundDialog();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Full refund (₹1,500.00)' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61 and refund ₹1,500.00' }));
    let msg = await findNotice('Failed to cancel booking 61: Only super admins may refund payments.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--error');
    // All Booked Slots (asked from today on, no end) and Today (asked for today only) are both asked again.
    const allCalls = () => calls.filter((c) => c.url.pathname === '/api/admin/bookings' && !c.url.searchParams.has('to'));
    const todayCalls = () => calls.filter((c) => c.url.pathname === '/api/admin/bookings' && c.url.searchParams.get('to') === today);
    await waitFor(() => expect(allCalls()).toHaveLength(2));
    await waitFor(() => expect(todayCalls()).toHaveLength(2));

    answer = [409, { detail: 'Booking 61 is paid: choose a full, partial or no refund to cancel it.' }];
    dialog = await openRefundDialog();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'No refund' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel booking 61 without refund' }));
    msg = await findNotice('Failed to cancel booking 61: Booking 61 is paid: choose a full, partial or no refund to cancel it.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--error');
    // Nothing was cancelled: the booking still offers Cancel.
    await waitFor(() => expect(allCalls()).toHaveLength(3));
    await waitFor(() => expect(todayCalls()).toHaveLength(3));
    expect(screen.getByRole('button', { name: 'Cancel booking 61' })).toBeTruthy();
  });
});

describe('payment note', () => {
  const rows = [
    booking({
      id: 71,
      booking_date: tomorrow,
      cancelled: true,
      payment_status: 'COMPLETED',
      amount_paid: 1500,
      payment_note: 'Paid after cancellation — refund due',
    }),
    booking({
      id: 72,
      booking_date: tomorrow,
      payment_status: 'COMPLETED',
      amount_paid: 1500,
      amount_refunded: 500,
      payment_note: 'Partly refunded ₹500.00',
      booking_time_slot_start: '11:00:00',
    }),
    booking({ id: 73, booking_date: tomorrow, payment_status: 'PENDING', amount_paid: 0, payment_note: null, booking_time_slot_start: '12:00:00' }),
  ];

  it('renders as sent beside the status badge, in the therapist’s and all bookings tables and in the mobile cards', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer(rows),
      'GET /api/admin/therapists/1/slot-states': statesFor(1),
    });
    render(<Dashboard onLogout={() => {}} />);
    // The cancelled booking is not active: it shows under All statuses.
    fireEvent.change(await screen.findByLabelText('Status'), { target: { value: 'all' } });
    await screen.findByText('Paid after cancellation — refund due');
    const all = await screen.findByRole('region', { name: 'All Booked Slots table' });
    const cell = (region: HTMLElement, id: number) => within(region).getByText(String(id), { selector: 'td' }).closest('tr')!;
    const due = within(cell(all, 71)).getByText('Paid after cancellation — refund due');
    // Beside the badge, in the same status cell.
    expect(due.closest('.adm-pay')!.querySelector('.adm-badge')!.textContent).toBe('CANCELLED');
    expect(within(cell(all, 72)).getByText('Partly refunded ₹500.00').closest('.adm-pay')!.querySelector('.adm-badge')!.textContent).toBe('COMPLETED');
    // No money note; its payment in words (issue 31): an online booking waiting for its link.
    expect(cell(all, 73).querySelector('.adm-pay-note')!.textContent).toBe('Awaiting payment');

    fireEvent.click(screen.getByRole('button', { name: 'View availability of Dr. Asha Mehta' }));
    const mine = await screen.findByRole('region', { name: 'Booked Sessions: Asha Mehta table' });
    expect(within(cell(mine, 71)).getByText('Paid after cancellation — refund due')).toBeTruthy();

    cleanup();
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Status'), { target: { value: 'all' } });
    await screen.findByText('Paid after cancellation — refund due');
    const cards = await screen.findByRole('list', { name: 'All Booked Slots' });
    expect(within(cards).getByText('Paid after cancellation — refund due').closest('.adm-card')).toBeTruthy();
    expect(within(cards).getByText('Partly refunded ₹500.00')).toBeTruthy();
  });
});

describe('Payments needing attention', () => {
  const issue = (over: Record<string, unknown> = {}) => ({
    id: 7,
    kind: 'MISSING_REFUND',
    headline: 'Refund at Razorpay not in the ledger',
    provider: 'razorpay',
    booking_id: 61,
    client_full_name: 'Meera Pillai',
    booking_date: '2026-11-24',
    booking_time_slot_start: '10:00',
    payment_id: 'pay_29QQoUBi66xm2f',
    refund_id: 'rfnd_FP8QHiV938haTz',
    ledger_amount: null,
    provider_amount: 500,
    detail:
      'Razorpay refunded ₹500.00 of payment pay_29QQoUBi66xm2f (refund rfnd_FP8QHiV938haTz) and the ledger did not have it; it is now recorded. Booking 61 is still confirmed: check whether it should still take place and whether the client was told.',
    detected_at: '2026-11-23T04:10:00.000Z',
    last_seen_at: '2026-11-23T05:10:00.000Z',
    resolved_at: null,
    resolution: null,
    resolved_by: null,
    ...over,
  });
  const open = [
    issue(),
    issue({
      id: 8,
      kind: 'AMOUNT_MISMATCH',
      headline: 'Amounts differ',
      refund_id: null,
      ledger_amount: 1500,
      provider_amount: 1200,
      detail: 'The ledger has payment pay_X as ₹1,500.00; Razorpay has ₹1,200.00.',
    }),
    issue({
      id: 9,
      kind: 'NOT_AT_PROVIDER',
      headline: 'Not found at the provider',
      booking_id: 62,
      client_full_name: 'Arjun Rao',
      ledger_amount: 300,
      provider_amount: null,
      detail: 'The ledger has payment pay_Y of ₹300.00, and Razorpay does not know it.',
    }),
  ];
  const capture = issue({
    id: 5,
    kind: 'MISSING_CAPTURE',
    headline: 'Payment taken but not recorded',
    booking_id: 63,
    client_full_name: 'Kavya Iyer',
    refund_id: null,
    provider_amount: 1500,
    detail:
      'Razorpay took ₹1,500.00 (payment pay_Z) on link plink_A, and the ledger did not have it. It is now recorded; booking 63 is cancelled, so the money goes back in full automatically.',
    resolved_at: '2026-11-23T04:10:00.000Z',
    resolution: 'Recorded from the provider by reconciliation',
  });

  const noRefundRequests = { open: [], recently_decided: [] };
  function routes(answer: () => unknown) {
    let reviewed = false;
    return mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer([]),
      'GET /api/admin/payments/attention': () =>
        reviewed
          ? {
              open: open.slice(1),
              recently_resolved: [
                { ...open[0], resolved_at: '2026-11-23T06:00:00.000Z', resolution: 'Refunded by phone; booking kept.', resolved_by: 'owner' },
                capture,
              ],
              refund_requests: noRefundRequests,
            }
          : { open, recently_resolved: [capture], refund_requests: noRefundRequests },
      'POST /api/admin/payments/attention/7/resolve': () => {
        const out = answer();
        if (!Array.isArray(out)) reviewed = true;
        return out;
      },
    });
  }
  const section = async () => (await screen.findByRole('heading', { name: 'Payments needing attention' })).closest('section') as HTMLElement;

  it('a super admin sees each issue in words, with the booking, the amounts and when it was found', async () => {
    signIn(true);
    routes(() => ({}));
    render(<Dashboard onLogout={() => {}} />);
    const s = await section();
    const openList = await within(s).findByRole('list', { name: 'Open payment issues' });
    const items = within(openList).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.adm-attn__what')!.textContent)).toEqual([
      'Refund at Razorpay not in the ledger',
      'Amounts differ',
      'Not found at the provider',
    ]);
    expect(within(items[0]!).getByText('Booking 61 · Meera Pillai · Tue, Nov 24, 2026 at 10:00 AM')).toBeTruthy();
    expect(within(items[0]!).getByText(/Booking 61 is still confirmed/)).toBeTruthy();
    // Found 09:40 and last seen 10:40 at the centre (04:10 and 05:10 UTC).
    expect(within(items[0]!).getByText('Mon, Nov 23, 2026 at 9:40 AM')).toBeTruthy();
    expect(within(items[0]!).getByText('Mon, Nov 23, 2026 at 10:40 AM')).toBeTruthy();
    expect(within(items[1]!).getByText('In the ledger').nextElementSibling!.textContent).toBe('₹1,500.00');
    expect(within(items[1]!).getByText('At Razorpay').nextElementSibling!.textContent).toBe('₹1,200.00');
    expect(within(items[2]!).queryByText('At Razorpay')).toBeNull();
    expect(within(s).getByText('3 open')).toBeTruthy();
    for (const id of [7, 8, 9]) expect(within(s).getByRole('button', { name: `Mark payment issue ${id} reviewed` })).toBeTruthy();
    const resolved = within(s).getByRole('list', { name: 'Payment issues resolved in the last 7 days' });
    expect(within(resolved).getByText('Payment taken but not recorded')).toBeTruthy();
    expect(within(resolved).getByText(/Recorded from the provider by reconciliation/)).toBeTruthy();
    expect(within(resolved).getByText(/resolved automatically$/)).toBeTruthy();
    expect(within(resolved).queryByRole('button')).toBeNull();
  });

  it('Mark reviewed asks for a note in a dialog, sends it trimmed, says so beside the list in green and reloads it', async () => {
    signIn(true);
    const { calls } = routes(() => ({
      item: { ...open[0], resolved_at: '2026-11-23T06:00:00.000Z', resolution: 'Refunded by phone; booking kept.', resolved_by: 'owner' },
      message: 'Payment issue 7 marked reviewed successfully.',
    }));
    render(<Dashboard onLogout={() => {}} />);
    const s = await section();
    fireEvent.click(await within(s).findByRole('button', { name: 'Mark payment issue 7 reviewed' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark payment issue 7 reviewed' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(within(dialog).getByText('Refund at Razorpay not in the ledger')).toBeTruthy();
    const note = within(dialog).getByLabelText('What did you check or do?') as HTMLTextAreaElement;
    expect(note.maxLength).toBe(500);
    // An empty note is caught before anything is sent.
    fireEvent.change(note, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark reviewed' }));
    expect(within(dialog).getByText('Please write what you checked or did.')).toBeTruthy();
    expect(note.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(note);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(note, { target: { value: '  Refunded by phone; booking kept.  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark reviewed' }));
    const msg = await within(s).findByText('Payment issue 7 marked reviewed successfully.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    expect(msg.closest('[role="status"]')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/admin/payments/attention/7/resolve');
    expect(JSON.parse(String(post.init!.body))).toEqual({ note: 'Refunded by phone; booking kept.' });
    // Reloaded: 7 has moved under the resolved ones, with who reviewed it.
    await waitFor(() => expect(within(s).queryByRole('button', { name: 'Mark payment issue 7 reviewed' })).toBeNull());
    expect(within(s).getByText('2 open')).toBeTruthy();
    expect(within(s).getByText(/reviewed by owner/)).toBeTruthy();
  });

  it('a refusal (resolved meanwhile) is shown in red; Cancel sends nothing', async () => {
    signIn(true);
    const { calls } = routes(() => [409, { detail: 'Payment issue 7 is already resolved; nothing was changed.' }]);
    render(<Dashboard onLogout={() => {}} />);
    const s = await section();
    fireEvent.click(await within(s).findByRole('button', { name: 'Mark payment issue 7 reviewed' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(s).getByRole('button', { name: 'Mark payment issue 7 reviewed' }));
    fireEvent.change(within(screen.getByRole('dialog')).getByLabelText('What did you check or do?'), { target: { value: 'Checked.' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Mark reviewed' }));
    const msg = await within(s).findByText('Payment issue 7 is already resolved; nothing was changed.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--error');
    expect(calls.filter((c) => c.url.pathname === '/api/admin/payments/attention').length).toBeGreaterThanOrEqual(2);
  });

  it('says "Nothing needs attention." when there is nothing open', async () => {
    signIn(true);
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer([]),
      'GET /api/admin/payments/attention': { open: [], recently_resolved: [], refund_requests: { open: [], recently_decided: [] } },
    });
    render(<Dashboard onLogout={() => {}} />);
    const s = await section();
    expect(await within(s).findByText('Nothing needs attention.')).toBeTruthy();
    expect(within(s).queryByRole('list')).toBeNull();
    expect(within(s).queryByText(/open$/)).toBeNull();
  });

  it('shows nothing to a plain admin, and does not ask the server', async () => {
    signIn(false);
    const { calls } = mockFetch({ 'GET /api/admin/therapists': therapists, 'GET /api/admin/bookings': bookingsServer([]) });
    render(<Dashboard onLogout={() => {}} />);
    await screen.findByRole('button', { name: 'View availability of Dr. Asha Mehta' });
    expect(screen.queryByRole('heading', { name: 'Payments needing attention' })).toBeNull();
    expect(calls.some((c) => c.url.pathname.startsWith('/api/admin/payments'))).toBe(false);
  });
});

describe('Attendance', () => {
  // Today at midnight has always started at the centre; tomorrow's session has not.
  const started = booking({ id: 61, payment_status: 'COMPLETED', booking_date: today, booking_time_slot_start: '00:00:00' });
  const ahead = booking({ id: 62, payment_status: 'COMPLETED', booking_date: tomorrow, booking_time_slot_start: '10:00:00' });

  it('is offered once a session has started: marking it posts the choice, says so in green and shows it beside the status', async () => {
    signIn();
    let attendance: string | null = null;
    const { calls } = mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer(() => [{ ...started, attendance }, ahead]),
      'POST /api/admin/bookings/61/attendance': () => {
        attendance = 'NO_SHOW';
        return { booking_id: 61, attendance, message: 'Booking 61 marked no-show.' };
      },
    });
    render(<Dashboard onLogout={() => {}} />);
    // Today's session is in Today (where the desk marks it) and in All Booked Slots.
    const day = within(await screen.findByRole('region', { name: 'Today' }));
    const noShow = await day.findByRole('button', { name: 'Mark booking 61 no-show' });
    expect(day.getByRole('button', { name: 'Mark booking 61 attended' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getAllByRole('button', { name: 'Mark booking 61 no-show' })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /Mark booking 62/ })).toBeNull();
    fireEvent.click(noShow);
    const msg = await findNotice('Booking 61 marked no-show successfully.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/admin/bookings/61/attendance');
    expect(JSON.parse(String(post.init!.body))).toEqual({ status: 'NO_SHOW' });
    await waitFor(() => expect(day.getByRole('button', { name: 'Mark booking 61 no-show' }).getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getAllByText(/No-show/).length).toBeGreaterThan(1);
  });
});
