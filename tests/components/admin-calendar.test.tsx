import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Calendar, { CalendarGrid, EventCard } from '../../site/src/islands/admin/Calendar.tsx';
import { calendarBadge, eventsByDate, meetingCode, monthGrid } from '../../site/src/lib/admin-format.ts';
import type { AdminBooking } from '../../site/src/lib/admin-api.ts';
import { booking, mockFetch, signIn } from './admin-helpers.tsx';

const b = (over: Record<string, unknown>) => booking(over) as unknown as AdminBooking;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('month grid', () => {
  it('runs Sunday to Saturday: November 2026 starts on a Sunday, February 2026 fills four weeks', () => {
    const nov = monthGrid(2026, 11);
    expect(nov[0]![0]).toBe('2026-11-01');
    expect(nov).toHaveLength(5);
    expect(nov[4]!.slice(0, 2)).toEqual(['2026-11-29', '2026-11-30']);
    expect(nov[4]![2]).toBeNull();
    const feb = monthGrid(2026, 2);
    expect(feb).toHaveLength(4);
    const aug = monthGrid(2026, 8);
    expect(aug[0]!.slice(0, 6)).toEqual([null, null, null, null, null, null]);
    expect(aug[0]![6]).toBe('2026-08-01');
  });

  it('shows at most 2 events per day and +N more', () => {
    const list = [
      b({ id: 1, booking_time_slot_start: '12:00:00', client_full_name: 'Third' }),
      b({ id: 2, booking_time_slot_start: '10:00:00', client_full_name: 'First', booking_type: 'OFFLINE' }),
      b({ id: 3, booking_time_slot_start: '11:00:00', client_full_name: 'Second' }),
      b({ id: 4, booking_time_slot_start: '13:00:00', client_full_name: 'Fourth' }),
    ];
    const onOpen = vi.fn();
    const { container } = render(<CalendarGrid year={2026} month={11} today="2026-11-23" events={eventsByDate(list)} onOpenDay={onOpen} />);
    const cell = container.querySelector('td[data-date="2026-11-24"]') as HTMLElement;
    expect(within(cell).getByText('First')).toBeTruthy();
    expect(within(cell).getByText('10:00 AM · In-Person')).toBeTruthy();
    expect(within(cell).getByText('11:00 AM · Online')).toBeTruthy();
    expect(within(cell).queryByText('Third')).toBeNull();
    expect(within(cell).getByText('+2 more')).toBeTruthy();
    fireEvent.click(within(cell).getByRole('button'));
    expect(onOpen).toHaveBeenCalledWith('2026-11-24');
    // Days without events are not buttons.
    expect(within(container.querySelector('td[data-date="2026-11-25"]') as HTMLElement).queryByRole('button')).toBeNull();
  });

  it('leaves out cancelled bookings and those FAILED or BLOCKED', () => {
    const map = eventsByDate([
      b({ id: 1 }),
      b({ id: 2, cancelled: true }),
      b({ id: 3, payment_status: 'FAILED' }),
      b({ id: 4, payment_status: 'BLOCKED', booking_type: 'ADMIN_BLOCK' }),
      b({ id: 5, payment_status: 'PENDING' }),
      b({ id: 6, payment_status: 'CANCELLED' }),
    ]);
    expect(map.get('2026-11-24')!.map((x) => x.id)).toEqual([1, 5, 6]);
  });
});

describe('badges and event fields', () => {
  it('maps status to the badge of spec section 4', () => {
    expect(calendarBadge({ cancelled: true, payment_status: 'COMPLETED' })).toEqual({ label: 'Cancelled', tone: 'red' });
    expect(calendarBadge({ cancelled: false, payment_status: 'COMPLETED' })).toEqual({ label: 'Completed', tone: 'green' });
    expect(calendarBadge({ cancelled: false, payment_status: 'PENDING' })).toEqual({ label: 'Pending', tone: 'yellow' });
    expect(calendarBadge({ cancelled: false, payment_status: 'INITIATED' })).toEqual({ label: 'Initiated', tone: 'yellow' });
    expect(calendarBadge({ cancelled: false, payment_status: 'CANCELLED' })).toEqual({ label: 'Scheduled', tone: 'blue' });
  });

  it('meeting code is the part after the meet prefix, or N/A', () => {
    expect(meetingCode('https://meet.google.com/abc-defg-hij')).toBe('abc-defg-hij');
    expect(meetingCode(null)).toBe('N/A');
    expect(meetingCode('')).toBe('N/A');
  });

  it('online event: time range, session type, client, Dr. therapist, meeting code, notes', () => {
    render(<EventCard b={b({ booking_time_slot_start: '14:00:00' })} />);
    expect(screen.getByText('Completed')).toBeTruthy();
    expect(screen.getByText('2:00 PM - 3:00 PM')).toBeTruthy();
    expect(screen.getByText('Online')).toBeTruthy();
    expect(screen.getByText('Dr. Asha Mehta')).toBeTruthy();
    expect(screen.getByText('abc-defg-hij')).toBeTruthy();
    expect(screen.getByText('First session')).toBeTruthy();
    expect(screen.queryByText('Location')).toBeNull();
  });

  it('shows the server’s payment note beside the badge, and nothing when there is none', () => {
    render(<EventCard b={b({ id: 3, amount_paid: 1500, amount_refunded: 500, payment_note: 'Partly refunded ₹500.00' })} />);
    const note = screen.getByText('Partly refunded ₹500.00');
    expect(note.closest('.adm-pay')!.querySelector('.adm-badge')!.textContent).toBe('Completed');
    cleanup();
    render(<EventCard b={b({ id: 4, payment_note: null })} />);
    expect(document.querySelector('.adm-pay-note')).toBeNull();
  });

  it('offline event shows the location instead of a meeting code', () => {
    render(
      <EventCard
        b={b({
          booking_type: 'OFFLINE',
          payment_status: 'PENDING',
          therapist_name: 'Dr. Rohan Kapoor',
          location_name: 'West Branch',
          location_address: 'Borivali West',
          google_meet_link: null,
        })}
      />,
    );
    expect(screen.getByText('Pending')).toBeTruthy();
    expect(screen.getByText('In-Person')).toBeTruthy();
    expect(screen.getByText('Dr. Rohan Kapoor')).toBeTruthy();
    expect(screen.getByText('West Branch, Borivali West')).toBeTruthy();
    expect(screen.queryByText('Meeting Code')).toBeNull();
  });
});

describe('Calendar screen', () => {
  it('opens the day modal titled with the long date, closes and returns focus', async () => {
    signIn();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
    mockFetch({ 'GET /api/admin/bookings': [booking({ booking_date: today })] });
    const { container } = render(<Calendar onLogout={() => {}} />);
    expect(screen.getByText('View all confirmed and pending bookings.')).toBeTruthy();
    await screen.findByText('Meera Pillai');
    const opener = within(container.querySelector(`td[data-date="${today}"]`) as HTMLElement).getByRole('button');
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByRole('heading', { level: 2 }).textContent).toMatch(/^Events on \w+day, \w+ \d{1,2}, \d{4}$/);
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('error view with Retry and Logout', async () => {
    signIn();
    mockFetch({ 'GET /api/admin/bookings': [500, { detail: 'Boom.' }] });
    const onLogout = vi.fn();
    render(<Calendar onLogout={onLogout} />);
    expect(await screen.findByText('Error Loading Calendar')).toBeTruthy();
    expect(screen.getByText('Boom.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalled();
  });
});
