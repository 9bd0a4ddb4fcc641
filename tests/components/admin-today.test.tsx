/**
 * Today (issue 31, item 7): the dashboard opens on the desk's sessions of the day, in time order,
 * each with its client's number to tap and call, its therapist, its payment in words beside the
 * spec's badge, and the booking lists' own actions; the therapists and availability follow and fold.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Dashboard from '../../site/src/islands/admin/Dashboard.tsx';
import { adminNav } from '../../site/src/lib/admin-nav.ts';
import { booking, bookingsServer, findNotice, mockFetch, signIn, ASHA, ROHAN } from './admin-helpers.tsx';

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
const addDays = (d: string, n: number) => {
  const x = new Date(`${d}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + n);
  return x.toISOString().slice(0, 10);
};
const tomorrow = addDays(today, 1);
/** The centre works Monday to Saturday: the next working day skips a Sunday. */
const nextWorkingDay = new Date(`${tomorrow}T00:00:00Z`).getUTCDay() === 0 ? addDays(today, 2) : tomorrow;

const therapists = [ASHA, ROHAN];

// Today's bookings as the server holds them. 00:00 and 00:01 have started (attendance can be marked).
const ravi = booking({
  id: 81,
  booking_date: today,
  booking_time_slot_start: '00:00:00',
  therapist_id: 5,
  therapist_name: 'Dr. Rohan Kapoor',
  booking_type: 'OFFLINE',
  location_id: 1,
  location_name: 'West Branch',
  payment_status: 'PENDING',
  payment_state: 'PAY_AT_CENTRE',
  amount: 1800,
  amount_paid: 0,
  client_full_name: 'Ravi Kumar',
  client_mobile: '9811100001',
  attendance: null,
});
const meera = booking({
  id: 82,
  booking_date: today,
  booking_time_slot_start: '00:01:00',
  payment_status: 'COMPLETED',
  payment_state: 'PAID',
  amount_paid: 1500,
  attendance: 'ATTENDED',
});
const kabir = booking({
  id: 83,
  booking_date: today,
  booking_time_slot_start: '18:30:00',
  payment_status: 'INITIATED',
  payment_state: 'AWAITING_PAYMENT',
  amount_paid: 0,
  client_full_name: 'Kabir Shah',
  client_mobile: '9845000011',
  payment_hold_expires_at: null,
});
const tara = booking({
  id: 84,
  booking_date: today,
  booking_time_slot_start: '11:00:00',
  payment_status: 'COMPLETED',
  payment_state: 'PAYMENT_NOT_RECORDED',
  amount_paid: 0,
  client_full_name: 'Tara Iyer',
  client_mobile: '9820012345',
});
const block = booking({
  id: 85,
  booking_date: today,
  booking_time_slot_start: '12:00:00',
  booking_type: 'ADMIN_BLOCK',
  payment_status: 'BLOCKED',
  payment_state: 'BLOCKED',
});
const gone = booking({
  id: 86,
  booking_date: today,
  booking_time_slot_start: '13:00:00',
  cancelled: true,
  client_full_name: 'Gone Client',
  payment_state: 'CANCELLED',
});
const later = booking({ id: 87, booking_date: tomorrow, booking_time_slot_start: '10:00:00', client_full_name: 'Tomorrow Client', payment_state: 'PAID' });

/**
 * GET /api/admin/bookings: Today's request (from = to = today, no page) gets the day's bookings in
 * the order given (the block and the cancelled one too, as a careless answer would), others the
 * paged lists' answer.
 */
function bookingsRoute(day: () => Record<string, unknown>[], all: () => Record<string, unknown>[]) {
  const paged = bookingsServer(all);
  return (url: URL) => {
    const p = url.searchParams;
    if (p.get('from') === today && p.get('to') === today && !p.has('page')) return day();
    return paged(url);
  };
}

function routes(extra: Record<string, unknown> = {}, day = () => [kabir, block, meera, gone, tara, ravi] as Record<string, unknown>[]) {
  return mockFetch({
    'GET /api/admin/therapists': therapists,
    'GET /api/admin/bookings': bookingsRoute(day, () => [ravi, meera, kabir, tara, block, gone, later]),
    ...extra,
  });
}

const todayRegion = async () => within(await screen.findByRole('region', { name: 'Today' }));

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  vi.spyOn(adminNav, 'replace').mockImplementation(() => {});
  vi.spyOn(adminNav, 'go').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('Today on a wide screen', () => {
  it('asks the bookings list for today only, and lists the sessions in time order without blocks or cancelled ones', async () => {
    signIn();
    const { calls } = routes();
    render(<Dashboard onLogout={() => {}} />);
    const day = await todayRegion();
    const table = await day.findByRole('region', { name: "Today's sessions table" });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelectorAll('td')[0]!.textContent)).toEqual(['12:00 AM', '12:01 AM', '11:00 AM', '6:30 PM']);
    expect(rows.map((r) => r.querySelectorAll('td')[1]!.querySelector('.adm-day__client')!.textContent)).toEqual([
      'Ravi Kumar',
      'Meera Pillai',
      'Tara Iyer',
      'Kabir Shah',
    ]);
    expect(day.queryByText('Gone Client')).toBeNull();
    expect(day.queryByText('Tomorrow Client')).toBeNull();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Time (IST)', 'Client and phone', 'Therapist', 'Payment', 'Actions']);
    expect(day.getByText('4 sessions')).toBeTruthy();
    const asked = calls
      .filter((c) => c.url.pathname === '/api/admin/bookings' && c.url.searchParams.get('to') === today)
      .map((c) => Object.fromEntries(c.url.searchParams));
    expect(asked).toEqual([{ from: today, to: today, status: 'COMPLETED,PENDING,INITIATED', order: 'asc' }]);
  });

  it('each client’s number is a tel: link that says whom it calls; the therapist and where the session is', async () => {
    signIn();
    routes();
    render(<Dashboard onLogout={() => {}} />);
    const day = await todayRegion();
    const call = await day.findByRole('link', { name: 'Call Ravi Kumar on 98111 00001' });
    expect(call.getAttribute('href')).toBe('tel:+919811100001');
    expect(call.textContent).toBe('98111 00001');
    expect(day.getByRole('link', { name: 'Call Kabir Shah on 98450 00011' }).getAttribute('href')).toBe('tel:+919845000011');
    const row = call.closest('tr')!;
    expect(within(row).getByText('Rohan Kapoor')).toBeTruthy();
    expect(within(row).getByText('In-Person · West Branch')).toBeTruthy();
  });

  it('says each payment in words beside the spec’s status badge', async () => {
    signIn();
    routes();
    render(<Dashboard onLogout={() => {}} />);
    const day = await todayRegion();
    const rowOf = async (name: string) => (await day.findByText(name)).closest('tr')!;
    const payment = async (name: string) => {
      const cells = (await rowOf(name)).querySelectorAll('td');
      const cell = cells[3]!;
      return [cell.querySelector('.adm-day__words')!.textContent, cell.querySelector('.adm-badge')!.textContent];
    };
    expect(await payment('Ravi Kumar')).toEqual(['Pay at centre', 'PENDING']);
    expect(await payment('Meera Pillai')).toEqual(['Paid', 'COMPLETED']);
    expect(await payment('Tara Iyer')).toEqual(['Payment not recorded', 'COMPLETED']);
    expect(await payment('Kabir Shah')).toEqual(['Awaiting payment', 'INITIATED']);
  });

  it('a slot held for a waitlist client says so, and until when, in Today and in the lists (not "Awaiting payment", not an unpaid hold)', async () => {
    // Held until 15:20 at the centre (09:50 UTC).
    const asha = booking({
      id: 88,
      booking_date: today,
      booking_time_slot_start: '19:00:00',
      booking_type: 'OFFLINE',
      location_id: 1,
      payment_status: 'INITIATED',
      payment_state: 'HELD_FOR_WAITLIST',
      payment_hold_expires_at: `${today}T09:50:00.000Z`,
      amount_paid: 0,
      client_full_name: 'Asha Waiting',
    });
    signIn();
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsRoute(
        () => [ravi, asha],
        () => [ravi, asha],
      ),
    });
    render(<Dashboard onLogout={() => {}} />);
    const day = await todayRegion();
    const cell = (await day.findByText('Asha Waiting')).closest('tr')!.querySelectorAll('td')[3]!;
    expect([cell.querySelector('.adm-day__words')!.textContent, cell.querySelector('.adm-badge')!.textContent]).toEqual([
      'Held for waitlist until 3:20 PM',
      'INITIATED',
    ]);
    expect(cell.textContent).not.toMatch(/Unpaid hold|Awaiting payment/);
    const list = within(await screen.findByRole('region', { name: 'All Booked Slots table' }));
    const row = (await list.findByText('Asha Waiting')).closest('tr')!;
    expect(within(row).getByText(/Held for waitlist until 3:20 PM/)).toBeTruthy();
    expect(row.textContent).not.toMatch(/Unpaid hold|Awaiting payment/);
  });

  it('offers the booking lists’ own actions, and no Cancel on a session marked attended (in Today or anywhere)', async () => {
    signIn();
    routes();
    render(<Dashboard onLogout={() => {}} />);
    const day = await todayRegion();
    const all = within(await screen.findByRole('region', { name: 'All Booked Slots table' }));
    const buttonsIn = async (list: typeof day, name: string) =>
      within((await list.findByText(name)).closest('tr')!)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label'));
    // Started, unpaid at the centre: attendance, Record payment and Cancel among them.
    expect(await buttonsIn(day, 'Ravi Kumar')).toEqual(
      expect.arrayContaining(['Mark booking 81 attended', 'Mark booking 81 no-show', 'Record payment for booking 81', 'Cancel booking 81']),
    );
    // Marked attended: attendance (to correct it), and no Cancel.
    expect(await buttonsIn(day, 'Meera Pillai')).toEqual(expect.arrayContaining(['Mark booking 82 attended', 'Mark booking 82 no-show']));
    expect(day.getByRole('button', { name: 'Mark booking 82 attended' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Cancel booking 82' })).toBeNull();
    // Not started yet, waiting for its payment: Cancel, and no attendance yet.
    expect(await buttonsIn(day, 'Kabir Shah')).toContain('Cancel booking 83');
    expect(await buttonsIn(day, 'Kabir Shah')).not.toContain('Mark booking 83 attended');
    // The very same buttons as the session's row in All Booked Slots: one component draws both.
    for (const name of ['Ravi Kumar', 'Meera Pillai', 'Tara Iyer', 'Kabir Shah']) {
      expect(await buttonsIn(day, name), name).toEqual(await buttonsIn(all, name));
    }
  });

  it('Record payment from Today opens the desk’s dialog for that booking, and its message is drawn in Today', async () => {
    signIn();
    let paid = false;
    const { calls } = routes(
      {
        'POST /api/admin/bookings/81/record-payment': () => (
          (paid = true), { booking_id: 81, payment_status: 'COMPLETED', message: 'Payment for booking 81 recorded successfully.' }
        ),
      },
      () => [paid ? { ...ravi, payment_status: 'COMPLETED', payment_state: 'PAID', amount_paid: 1800 } : ravi, tara],
    );
    render(<Dashboard onLogout={() => {}} />);
    const day = await todayRegion();
    fireEvent.click(await day.findByRole('button', { name: 'Record payment for booking 81' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.getAttribute('aria-labelledby')).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Record payment for booking 81' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm payment' }));
    const msg = await findNotice('Payment for booking 81 recorded successfully.');
    expect((await screen.findByRole('region', { name: 'Today' })).contains(msg)).toBe(true);
    expect(msg.closest('tr')!.previousElementSibling!.textContent).toContain('Ravi Kumar');
    expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/admin/bookings/81/record-payment')).toBe(true);
    await waitFor(() => expect(day.getByText('Paid')).toBeTruthy());
  });

  it('cancelling from Today asks the panel’s question; the message stays where the session was', async () => {
    signIn();
    let cancelled = false;
    routes(
      {
        'POST /api/admin/bookings/83/cancel': () => {
          cancelled = true;
          return { booking_id: 83, cancelled: true, unblocked: false, message: 'Booking 83 cancelled successfully.' };
        },
      },
      () => (cancelled ? [ravi, tara] : [ravi, tara, kabir]),
    );
    render(<Dashboard onLogout={() => {}} />);
    const day = await todayRegion();
    fireEvent.click(await day.findByRole('button', { name: 'Cancel booking 83' }));
    fireEvent.click(within(screen.getByRole('alertdialog', { name: /cancel booking 83/ })).getByRole('button', { name: 'Cancel booking 83' }));
    await findNotice('Booking 83 cancelled successfully.');
    await waitFor(() => expect(day.queryByText('Kabir Shah')).toBeNull());
    // Where Kabir's row was: after the sessions left, in Today.
    const msg = await findNotice('Booking 83 cancelled successfully.');
    expect((await screen.findByRole('region', { name: 'Today' })).contains(msg)).toBe(true);
    expect(msg.closest('tr')!.previousElementSibling!.textContent).toContain('Tara Iyer');
    expect(day.getByText('2 sessions')).toBeTruthy();
  });
});

describe('Today on a phone', () => {
  it('is a list of cards, each with the time, the client, a number to tap, the therapist, the payment and the actions', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    signIn();
    routes();
    render(<Dashboard onLogout={() => {}} />);
    const day = await todayRegion();
    const list = await day.findByRole('list', { name: "Today's sessions" });
    const cards = within(list).getAllByRole('listitem');
    expect(cards.map((c) => c.querySelector('.adm-day__time')!.textContent)).toEqual(['12:00 AM', '12:01 AM', '11:00 AM', '6:30 PM']);
    const first = within(cards[0]!);
    expect(first.getByText('Ravi Kumar')).toBeTruthy();
    expect(first.getByRole('link', { name: 'Call Ravi Kumar on 98111 00001' }).getAttribute('href')).toBe('tel:+919811100001');
    expect(first.getByText('Rohan Kapoor')).toBeTruthy();
    expect(first.getByText('Pay at centre')).toBeTruthy();
    expect(first.getByRole('button', { name: 'Record payment for booking 81' })).toBeTruthy();
    expect(within(cards[1]!).queryByRole('button', { name: /^Cancel/ })).toBeNull();
    expect(day.queryByRole('table')).toBeNull();
  });
});

describe('a day without sessions', () => {
  it('says "No sessions today." and how many the next working day holds', async () => {
    signIn();
    const { calls } = mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /api/admin/bookings': bookingsServer([
        booking({ id: 91, booking_date: nextWorkingDay, booking_time_slot_start: '10:00:00' }),
        booking({ id: 92, booking_date: nextWorkingDay, booking_time_slot_start: '11:00:00', booking_type: 'OFFLINE', payment_status: 'PENDING' }),
        booking({ id: 93, booking_date: nextWorkingDay, booking_time_slot_start: '12:00:00', booking_type: 'ADMIN_BLOCK', payment_status: 'BLOCKED' }),
      ]),
    });
    render(<Dashboard onLogout={() => {}} />);
    const day = await todayRegion();
    expect(await day.findByText('No sessions today.')).toBeTruthy();
    expect(await day.findByText(/^Next working day, \w{3}, \w{3} \d{1,2}, \d{4}: 2 sessions\.$/)).toBeTruthy();
    const asked = calls.map((c) => Object.fromEntries(c.url.searchParams)).filter((q) => q.from === nextWorkingDay);
    expect(asked).toEqual([{ from: nextWorkingDay, to: nextWorkingDay, status: 'COMPLETED,PENDING,INITIATED', page: '1', page_size: '1' }]);
    expect(day.queryByText('0 sessions')).toBeTruthy();
  });
});

describe('the dashboard’s order, and the therapists folding away', () => {
  it('Today comes first; what needs attention, then the therapists and availability, then All Booked Slots follow', async () => {
    signIn();
    routes();
    render(<Dashboard onLogout={() => {}} />);
    const day = await screen.findByRole('region', { name: 'Today' });
    const fold = screen.getByRole('region', { name: 'Therapists and availability' });
    const jobs = screen.getByRole('region', { name: 'Jobs that failed' });
    const all = screen.getByRole('region', { name: 'All Booked Slots' });
    const follows = (a: Element, b: Element) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    expect(follows(day, jobs)).toBe(true);
    expect(follows(jobs, fold)).toBe(true);
    expect(follows(fold, all)).toBe(true);
    expect(within(fold).getByRole('region', { name: 'Therapists' })).toBeTruthy();
  });

  it('the fold is a button saying whether it is open; folded, the therapists are hidden, and this browser remembers it', async () => {
    signIn();
    routes();
    const { unmount } = render(<Dashboard onLogout={() => {}} />);
    const toggle = await screen.findByRole('button', { name: /^Therapists and availability/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.textContent).toContain('2 therapists');
    const body = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(within(body).getByRole('button', { name: 'View availability of Dr. Asha Mehta' })).toBeTruthy();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(body.hidden).toBe(true);
    expect(screen.queryByRole('button', { name: 'View availability of Dr. Asha Mehta' })).toBeNull();
    // Today is not folded with it.
    expect(screen.getByRole('region', { name: 'Today' })).toBeTruthy();
    unmount();

    render(<Dashboard onLogout={() => {}} />);
    const again = await screen.findByRole('button', { name: /^Therapists and availability/ });
    expect(again.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(again);
    expect(again.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'View availability of Dr. Asha Mehta' }));
    expect(again.textContent).toContain('2 therapists · Asha Mehta');
  });
});
