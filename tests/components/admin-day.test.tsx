/**
 * The receptionist's day (issue 19): the lists ask the server for what they show (item 15), an
 * action's message appears next to the action and in a live region (item 14), and confirmations are
 * the panel's own dialogs stating what will happen (item 17).
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import Calendar from '../../site/src/islands/admin/Calendar.tsx';
import Dashboard from '../../site/src/islands/admin/Dashboard.tsx';
import Reports from '../../site/src/islands/admin/Reports.tsx';
import { booking, bookingsServer, findNotice, mockFetch, signIn, addDays, resetPanelAroundEachTest, statesFor, today, ASHA, PRIYA } from './admin-helpers.tsx';

const tomorrow = addDays(today, 1);
const ACTIVE = 'COMPLETED,PENDING,INITIATED,BLOCKED';

const therapists = [ASHA, PRIYA];
// A hold that ends at 15:20 at the centre (09:50 UTC) on the day of the test.
const holdEnd = `${today}T09:50:00.000Z`;
const rows = [
  booking({ id: 1, therapist_id: 1, booking_date: addDays(today, -1), booking_time_slot_start: '10:00:00', client_full_name: 'Yesterday Client' }),
  booking({ id: 2, therapist_id: 1, booking_date: today, booking_time_slot_start: '16:00:00', client_full_name: 'Meera Pillai' }),
  booking({
    id: 3,
    therapist_id: 2,
    therapist_name: 'Ms. Priya Nair',
    booking_date: today,
    booking_time_slot_start: '17:00:00',
    client_full_name: 'Kabir Shah',
    payment_status: 'INITIATED',
    payment_hold_expires_at: holdEnd,
    amount_paid: 0,
  }),
  booking({
    id: 4,
    therapist_id: 2,
    therapist_name: 'Ms. Priya Nair',
    booking_date: tomorrow,
    booking_time_slot_start: '10:00:00',
    client_full_name: 'Ravi Kumar',
    payment_status: 'PENDING',
    booking_type: 'OFFLINE',
    amount_paid: 0,
  }),
  booking({ id: 5, therapist_id: 1, booking_date: tomorrow, booking_time_slot_start: '11:00:00', client_full_name: 'Gone Client', cancelled: true }),
];

resetPanelAroundEachTest();
beforeEach(() => {
  // The browser's own pop-ups are never used: a call fails the test.
  vi.stubGlobal('confirm', () => {
    throw new Error('window.confirm was called');
  });
});

const bookingCalls = (calls: ReturnType<typeof mockFetch>['calls']) =>
  calls.filter((c) => c.url.pathname === '/api/admin/bookings').map((c) => Object.fromEntries(c.url.searchParams));
/** Today's own request (issue 31): the day's sessions that will happen, all of them, earliest first. */
const TODAY_CALL = { from: today, to: today, status: 'COMPLETED,PENDING,INITIATED', order: 'asc' };
/** The requests of the paged lists (All Booked Slots, a therapist's sessions): every one but Today's. */
const listCalls = (calls: ReturnType<typeof mockFetch>['calls']) => bookingCalls(calls).filter((q) => !(q.from === today && q.to === today && !('page' in q)));

describe('All Booked Slots asks the server for what it shows (item 15)', () => {
  it('today first, then upcoming: one page of the active bookings from today, and nothing more', async () => {
    signIn();
    const { calls } = mockFetch({ 'GET /api/admin/therapists': therapists, 'GET /api/admin/bookings': bookingsServer(rows) });
    render(<Dashboard onLogout={() => {}} />);
    const table = await screen.findByRole('region', { name: 'All Booked Slots table' });
    await within(table).findByText('Meera Pillai');
    // One page of All Booked Slots, and Today's sessions (the dashboard opens on them): nothing more.
    await waitFor(() => expect(bookingCalls(calls)).toHaveLength(2));
    expect(bookingCalls(calls)).toEqual(expect.arrayContaining([TODAY_CALL, { from: today, status: ACTIVE, order: 'asc', page: '1', page_size: '10' }]));
    // Today's sessions first, in time order, then tomorrow's; yesterday's and the cancelled one are not asked for.
    const clients = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.querySelectorAll('td')[2]!.textContent);
    expect(clients).toEqual(['Meera Pillai', 'Kabir Shah', 'Ravi Kumar']);
    expect(screen.getByText("Today's sessions first, then upcoming, earliest first.")).toBeTruthy();
  });

  it('marks an unpaid hold with the time its hold ends', async () => {
    signIn();
    mockFetch({ 'GET /api/admin/therapists': therapists, 'GET /api/admin/bookings': bookingsServer(rows) });
    render(<Dashboard onLogout={() => {}} />);
    const table = await screen.findByRole('region', { name: 'All Booked Slots table' });
    const row = (await within(table).findByText('Kabir Shah')).closest('tr')!;
    const note = within(row).getByText(/^Unpaid hold · (expires|expired) 3:20 PM$/);
    expect(note.closest('.adm-pay')!.querySelector('.adm-badge')!.textContent).toBe('INITIATED');
    // A paid session carries no such note.
    expect(within(within(table).getByText('Meera Pillai').closest('tr')!).queryByText(/Unpaid hold/)).toBeNull();
  });

  it('filters by therapist, status and date on the server, back to page 1', async () => {
    signIn();
    const many = Array.from({ length: 23 }, (_, i) =>
      booking({
        id: 100 + i,
        therapist_id: 1,
        booking_date: tomorrow,
        booking_time_slot_start: `${String(8 + (i % 12)).padStart(2, '0')}:00:00`,
        client_full_name: `Client ${i}`,
      }),
    );
    const { calls } = mockFetch({ 'GET /api/admin/therapists': therapists, 'GET /api/admin/bookings': bookingsServer([...rows, ...many]) });
    render(<Dashboard onLogout={() => {}} />);
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    expect(listCalls(calls).at(-1)).toMatchObject({ page: '2', page_size: '10' });
    // Today's sessions are listed in Today as well: what the filters leave is read in All Booked Slots.
    const all = () => within(screen.getByRole('region', { name: 'All Booked Slots' }));

    fireEvent.change(screen.getByLabelText('Therapist'), { target: { value: '2' } });
    await all().findByText('Kabir Shah');
    expect(listCalls(calls).at(-1)).toEqual({ from: today, therapist_id: '2', status: ACTIVE, order: 'asc', page: '1', page_size: '10' });
    expect(all().queryByText('Meera Pillai')).toBeNull();

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'INITIATED' } });
    await waitFor(() => expect(all().queryByText('Ravi Kumar')).toBeNull());
    expect(listCalls(calls).at(-1)).toMatchObject({ therapist_id: '2', status: 'INITIATED', page: '1' });
    expect(all().getByText('Kabir Shah')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'all' } });
    fireEvent.change(screen.getByLabelText('Therapist'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: addDays(today, -1) } });
    await all().findByText('Yesterday Client');
    expect(listCalls(calls).at(-1)).toEqual({ from: addDays(today, -1), to: addDays(today, -1), order: 'asc', page: '1', page_size: '10' });
    fireEvent.click(screen.getByRole('button', { name: 'From today' }));
    await waitFor(() => expect(all().queryByText('Yesterday Client')).toBeNull());
    expect(listCalls(calls).at(-1)).toEqual({ from: today, order: 'asc', page: '1', page_size: '10' });
    // Today asked once, for today, whatever the filters.
    expect(bookingCalls(calls).filter((q) => q.to === today && !('page' in q))).toEqual([TODAY_CALL]);
  });

  it('a therapist’s View asks for that therapist’s sessions and the grid only, not every booking again', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer(rows),
      'GET /api/admin/therapists/2/slot-states': statesFor(2),
      'GET /api/admin/therapists/1/slot-states': statesFor(1),
    });
    render(<Dashboard onLogout={() => {}} />);
    await within(await screen.findByRole('region', { name: 'All Booked Slots table' })).findByText('Meera Pillai');
    fireEvent.click(screen.getByRole('button', { name: 'View availability of Ms. Priya Nair' }));
    const mine = await screen.findByRole('region', { name: 'Booked Sessions: Priya Nair table' });
    await within(mine).findByText('Kabir Shah');
    // Today's own request was made once, when the dashboard opened.
    expect(bookingCalls(calls).filter((q) => q.to === today && !('page' in q))).toEqual([TODAY_CALL]);
    expect(listCalls(calls)).toEqual([
      { from: today, status: ACTIVE, order: 'asc', page: '1', page_size: '10' },
      { therapist_id: '2', from: today, order: 'asc', page: '1', page_size: '10' },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'View availability of Dr. Asha Mehta' }));
    await screen.findByRole('region', { name: 'Booked Sessions: Asha Mehta table' });
    await waitFor(() => expect(listCalls(calls)).toHaveLength(3));
    expect(listCalls(calls)[2]).toEqual({ therapist_id: '1', from: today, order: 'asc', page: '1', page_size: '10' });
  });
});

describe('messages next to the action (item 14)', () => {
  it('a cancel’s message is drawn under the booking’s row, where the booking was once it leaves the list, and is announced', async () => {
    signIn();
    let cancelled = false;
    const list = () => rows.map((b) => (b.id === 4 && cancelled ? { ...b, cancelled: true } : b));
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer(list),
      'POST /api/admin/bookings/4/cancel': () => {
        cancelled = true;
        return { booking_id: 4, cancelled: true, unblocked: false, message: 'Booking 4 cancelled successfully.' };
      },
    });
    render(<Dashboard onLogout={() => {}} />);
    const table = await screen.findByRole('region', { name: 'All Booked Slots table' });
    fireEvent.click(await within(table).findByRole('button', { name: 'Cancel booking 4' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel booking 4' }));
    const msg = await findNotice('Booking 4 cancelled successfully.');
    // In the table, in the row that took the cancelled booking's place (its row left the active list).
    const noticeRow = msg.closest('tr')!;
    expect(noticeRow.className).toBe('adm-row-notice');
    expect(table.contains(noticeRow)).toBe(true);
    await waitFor(() => expect(within(table).queryByText('Ravi Kumar')).toBeNull());
    const bodyRows = within(table).getAllByRole('row').slice(1);
    expect(bodyRows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Meera Pillai'),
      expect.stringContaining('Kabir Shah'),
      expect.stringContaining('Booking 4 cancelled successfully.'),
    ]);
    // Nothing at the top of the page; the live region says it.
    expect(document.querySelector('.adm-page > .adm-notice')).toBeNull();
    const live = document.querySelector('[aria-live="polite"]')!;
    expect(live.textContent).toBe('Booking 4 cancelled successfully.');
    // Its Cancel button went with the row: focus is on the message, not lost.
    await waitFor(() => expect(document.activeElement).toBe(document.getElementById('dashboard-notice')));
    expect(document.activeElement!.textContent).toContain('Booking 4 cancelled successfully.');
  });

  it('a booking sent its payment link says when on its row ("Link sent", the centre’s time)', async () => {
    signIn();
    const sentAt = new Date(`${today}T09:30:00+05:30`).toISOString();
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer(rows.map((b) => (b.id === 3 ? { ...b, payment_link_sent_at: sentAt, payment_link_sent_to: ['email'] } : b))),
    });
    render(<Dashboard onLogout={() => {}} />);
    const table = await screen.findByRole('region', { name: 'All Booked Slots table' });
    const kabir = (await within(table).findByText('Kabir Shah')).closest('tr')!;
    expect(kabir.textContent).toContain('Link sent 9:30 AM');
    expect(within(kabir).getByRole('button', { name: 'Payment link for booking 3' })).toBeTruthy();
  });

  it('a block’s message is drawn right after its slot in the grid', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer(rows),
      'GET /api/admin/therapists/1/slot-states': statesFor(1),
      'POST /api/admin/availability/block': [409, { detail: 'This slot is already booked by a client and cannot be blocked.' }],
    });
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'View availability of Dr. Asha Mehta' }));
    const strip = await screen.findByRole('group', { name: 'Choose a date' });
    fireEvent.click(within(strip).getAllByRole('button')[2]!);
    const grid = await waitFor(() => document.querySelector('.adm-slots') as HTMLElement);
    fireEvent.click(within(grid).getByRole('button', { name: 'Block 11:00 AM' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Block slot' }));
    const msg = await findNotice(/^Failed to block slot 11:00 AM on .+: This slot is already booked by a client and cannot be blocked\.$/);
    const item = msg.closest('li')!;
    expect(item.className).toBe('adm-slots__notice');
    expect(item.previousElementSibling!.textContent).toContain('11:00 AM');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--error');
  });
});

describe('the panel’s own confirmations (item 17)', () => {
  it('cancelling an unpaid hold says what will happen; Escape and Keep send nothing; focus starts on the safe choice', async () => {
    signIn();
    const { calls } = mockFetch({ 'GET /api/admin/therapists': therapists, 'GET /api/admin/bookings': bookingsServer(rows) });
    render(<Dashboard onLogout={() => {}} />);
    // Booking 3 is today's: its Cancel is in Today and in All Booked Slots; this one is All Booked Slots'.
    const table = await screen.findByRole('region', { name: 'All Booked Slots table' });
    const opener = await within(table).findByRole('button', { name: 'Cancel booking 3' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure you want to cancel booking 3? This cannot be undone.' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep booking' }));
    const described = document.getElementById(dialog.getAttribute('aria-describedby')!)!;
    expect(described.textContent).toContain('Kabir Shah with Priya Nair');
    expect(described.textContent).toMatch(
      /This is an unpaid hold \(it (expires|expired) at 3:20 PM\): nothing has been paid, and its payment link stops taking payment\./,
    );
    expect(described.textContent).toContain('The slot becomes free for other clients.');
    expect(described.textContent).toContain('The client is told by e-mail that the session is cancelled.');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    fireEvent.click(opener);
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Keep booking' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('an in-person booking to be paid at the visit, and a booking paid already, say so', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer([
        ...rows,
        // Paid, but without a capture on record at the time the list was drawn (no refund choice to make).
        booking({
          id: 6,
          therapist_id: 2,
          therapist_name: 'Ms. Priya Nair',
          booking_date: tomorrow,
          booking_time_slot_start: '12:00:00',
          client_full_name: 'Old Paid',
          amount_paid: 0,
          amount: 1200,
        }),
      ]),
    });
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel booking 4' }));
    let dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByText('Nothing has been paid yet: the fee of ₹1,500.00 was to be collected at the visit.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep booking' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel booking 6' }));
    dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByText('No payment has been recorded for this booking (price ₹1,200.00).')).toBeTruthy();
  });

  it('blocking a slot says clients can no longer book it, naming the time, date and therapist', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer(rows),
      'GET /api/admin/therapists/1/slot-states': statesFor(1),
    });
    render(<Dashboard onLogout={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'View availability of Dr. Asha Mehta' }));
    const strip = await screen.findByRole('group', { name: 'Choose a date' });
    fireEvent.click(within(strip).getAllByRole('button')[2]!);
    const grid = await waitFor(() => document.querySelector('.adm-slots') as HTMLElement);
    fireEvent.click(within(grid).getByRole('button', { name: 'Block 10:00 AM' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure you want to block this time slot?' });
    expect(
      within(dialog).getByText(/^Clients can no longer book 10:00 AM on \w{3}, \w{3} \d{1,2}, \d{4} with Dr\. Asha Mehta\. You can unblock it later\.$/),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: "Don't block" }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

describe('the calendar asks for its month (item 15)', () => {
  it('asks for the month shown and what the calendar shows; another month asks again; each entry names its therapist', async () => {
    signIn();
    const { calls } = mockFetch({ 'GET /api/admin/bookings': bookingsServer(rows) });
    const { container } = render(<Calendar onLogout={() => {}} />);
    const cell = await waitFor(() => {
      const td = container.querySelector(`td[data-date="${today}"]`) as HTMLElement;
      expect(within(td).getByText('Meera Pillai')).toBeTruthy();
      return td;
    });
    const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    expect(bookingCalls(calls)).toEqual([
      { from: `${today.slice(0, 7)}-01`, to: `${today.slice(0, 7)}-${last}`, status: 'COMPLETED,PENDING,INITIATED', order: 'asc' },
    ]);
    expect(within(cell).getByText('Asha Mehta')).toBeTruthy();
    expect(within(cell).getByText('Priya Nair')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(bookingCalls(calls)).toHaveLength(2));
    const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    expect(bookingCalls(calls)[1]!.from).toBe(`${next}-01`);
  });

  it('on a phone the grid holds counts and the agenda below gives every name in full, with time, type and therapist', async () => {
    signIn();
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    mockFetch({ 'GET /api/admin/bookings': bookingsServer(rows) });
    const { container } = render(<Calendar onLogout={() => {}} />);
    const agenda = await screen.findByRole('region', { name: /^Sessions in / });
    const cell = container.querySelector(`td[data-date="${today}"]`) as HTMLElement;
    expect(cell.querySelector('.adm-cal__count')!.textContent).toBe('2');
    expect(within(cell).queryByText('Meera Pillai')).toBeNull();
    const meera = within(agenda).getByText('Meera Pillai').closest('li')!;
    expect(meera.textContent).toBe('4:00 PMMeera PillaiOnline · Dr. Asha Mehta');
    expect(within(agenda).getByText('Kabir Shah')).toBeTruthy();
    // The cancelled booking is not on the calendar.
    expect(within(agenda).queryByText('Gone Client')).toBeNull();
  });
});

describe('end of day (item 15)', () => {
  it('shows booked sessions and unpaid holds apart, and marks a hold in the list', async () => {
    signIn(true);
    mockFetch({
      'GET /api/admin/reports/inventory': { total_amount: 0, total_collected: 0, total_refunded: 0, payments: [] },
      'GET /api/admin/reports/eod': {
        report_date: today,
        total_bookings_today: 3,
        completed_bookings_today: 1,
        cancelled_bookings_today: 0,
        booked_sessions_today: 2,
        unpaid_holds_today: 1,
        total_income_today: 1500,
        total_refunded_today: 0,
        details: [
          {
            booking_id: 2,
            client_name: 'Meera Pillai',
            therapist_id: 1,
            therapist_name: 'Dr. Asha Mehta',
            service_id: 1,
            payment_status: 'COMPLETED',
            cancelled: false,
            amount: 1500,
            amount_paid: 1500,
            amount_refunded: 0,
            session_time: '10:00',
            payment_methods: ['ONLINE'],
            attendance: 'ATTENDED',
          },
          {
            booking_id: 3,
            client_name: 'Kabir Shah',
            therapist_id: 2,
            therapist_name: 'Ms. Priya Nair',
            service_id: 1,
            payment_status: 'INITIATED',
            cancelled: false,
            amount: 1200,
            amount_paid: 0,
            amount_refunded: 0,
            session_time: '14:00',
            payment_methods: [],
            attendance: null,
          },
        ],
      },
    });
    render(<Reports />);
    fireEvent.click(await screen.findByRole('tab', { name: 'End of Day' }));
    const kabir = (await screen.findByText('Kabir Shah')).closest('tr')!;
    expect(within(kabir).getByText('Unpaid hold')).toBeTruthy();
    // Each session's time, how it was paid and whether the client came (issue 31).
    const meera = screen.getByText('Meera Pillai').closest('tr')!;
    expect(
      within(meera)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(expect.arrayContaining(['10:00 AM', 'Online', 'Attended']));
    expect(
      within(kabir)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(expect.arrayContaining(['2:00 PM']));
    const summary = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(summary('Booked Sessions')).toBe('2');
    expect(summary('Unpaid Holds')).toBe('1');
    expect(summary('Total Bookings')).toBe('3');
  });

  it('a slow answer for today does not replace the report of the date picked meanwhile', async () => {
    signIn(true);
    let releaseToday!: () => void;
    const todayHeld = new Promise<void>((r) => (releaseToday = r));
    const eod = (date: string, total: number) => ({
      report_date: date,
      total_bookings_today: total,
      completed_bookings_today: 0,
      cancelled_bookings_today: 0,
      booked_sessions_today: total,
      unpaid_holds_today: 0,
      total_income_today: 0,
      total_refunded_today: 0,
      details: [],
    });
    mockFetch({
      'GET /api/admin/reports/inventory': { total_amount: 0, total_collected: 0, total_refunded: 0, payments: [] },
      'GET /api/admin/reports/eod': (url: URL) => (url.searchParams.get('report_date') === today ? eod(today, 1) : eod(tomorrow, 7)),
    });
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      if (String(args[0]).includes(`report_date=${today}`)) await todayHeld;
      return realFetch(...args);
    });
    render(<Reports />);
    fireEvent.click(await screen.findByRole('tab', { name: 'End of Day' }));
    fireEvent.change(await screen.findByLabelText('Report date'), { target: { value: tomorrow } });
    const summary = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
    await waitFor(() => expect(summary('Total Bookings')).toBe('7'));
    releaseToday();
    await new Promise((r) => setTimeout(r, 20));
    expect(summary('Total Bookings')).toBe('7');
  });
});
