import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SeriesBooking from '../../site/src/islands/admin/SeriesBooking.tsx';
import SeriesSessions from '../../site/src/islands/admin/SeriesSessions.tsx';
import { adminNav } from '../../site/src/lib/admin-nav.ts';
import type { AdminBooking } from '../../site/src/lib/admin-api.ts';
import { ASHA, booking, mockFetch, packageSaleItem, ROHAN, signIn } from './admin-helpers.tsx';
import { LOCATIONS } from './booking-fixtures.ts';

const therapists = [ASHA, ROHAN];
const locations = LOCATIONS;

beforeEach(() => {
  sessionStorage.clear();
  signIn();
  vi.spyOn(adminNav, 'replace').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Fills the form for eight weekly sessions with Dr. Rohan Kapoor at 14:00, paid at the centre. */
async function fillForm() {
  const form = await screen.findByRole('form', { name: 'Book a series' });
  fireEvent.change(within(form).getByLabelText('Therapist'), { target: { value: '5' } });
  fireEvent.change(within(form).getByLabelText('Time'), { target: { value: '14:00' } });
  fireEvent.change(within(form).getByLabelText('First date'), { target: { value: '2026-11-25' } });
  fireEvent.change(within(form).getByLabelText('Number of sessions'), { target: { value: '8' } });
  fireEvent.change(within(form).getByLabelText('Client name'), { target: { value: 'Kavya Rao' } });
  fireEvent.change(within(form).getByLabelText('Client email'), { target: { value: 'kavya@example.com' } });
  fireEvent.change(within(form).getByLabelText('Client mobile'), { target: { value: '9820012345' } });
  return form;
}

describe('Book a series', () => {
  it('sends the series; a 409 lists each date with its reason and the nearest free time, and "book the rest" skips them', async () => {
    const sent: unknown[] = [];
    const conflicts = [
      { booking_date: '2026-12-09', reason: 'Already booked by another client.', nearest_free_time: '15:00' },
      { booking_date: '2026-12-23', reason: 'The centre is closed or the therapist is away on this date (holiday or time off).', nearest_free_time: null },
    ];
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /locations': locations,
      'POST /api/admin/series': (_url: URL, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as { on_conflict?: string };
        sent.push(body);
        if (body.on_conflict !== 'skip') {
          return [
            409,
            { detail: '2 of the 8 dates cannot be booked; nothing was booked. Choose other times for them, or book the rest and skip them.', conflicts },
          ];
        }
        return [201, { series_id: 7, bookings: [], conflicts, message: 'Series 7 created: 6 sessions booked.' }];
      },
    });
    const onCreated = vi.fn();
    render(<SeriesBooking onClose={() => {}} onCreated={onCreated} />);
    const form = await fillForm();
    // An in-person therapist: paid per session at the centre, at their own centre.
    expect((within(form).getByLabelText('Per session, at the centre') as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByLabelText('Centre') as HTMLSelectElement).value).toBe('1');
    fireEvent.click(within(form).getByRole('button', { name: 'Book series' }));

    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('2 of the 8 dates cannot be booked; nothing was booked.');
    const items = within(alert).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringContaining('Already booked by another client. Nearest free time that day:'),
      expect.stringContaining('No free time that day.'),
    ]);
    expect(sent[0]).toEqual({
      therapist_id: 5,
      booking_type: 'OFFLINE',
      location_id: 1,
      booking_time_slot_start: '14:00',
      first_date: '2026-11-25',
      interval_weeks: 1,
      count: 8,
      client_full_name: 'Kavya Rao',
      client_email: 'kavya@example.com',
      client_mobile: '9820012345',
      payment: 'PAY_AT_CENTRE',
    });
    expect(onCreated).not.toHaveBeenCalled();

    fireEvent.click(within(alert).getByRole('button', { name: 'Book the other 6 sessions, skip these' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith('Series 7 created: 6 sessions booked. 2 dates were skipped.'));
    expect(sent[1]).toMatchObject({ on_conflict: 'skip' });
  });

  it('asks for what is missing before sending, and how a series paid now was paid', async () => {
    const { calls } = mockFetch({ 'GET /api/admin/therapists': therapists, 'GET /locations': locations });
    render(<SeriesBooking onClose={() => {}} onCreated={() => {}} />);
    const form = await screen.findByRole('form', { name: 'Book a series' });
    fireEvent.click(within(form).getByRole('button', { name: 'Book series' }));
    expect(within(form).getByLabelText('Therapist').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(within(form).getByLabelText('Therapist'));
    await fillForm();
    fireEvent.click(within(form).getByLabelText('All paid now'));
    fireEvent.click(within(form).getByRole('button', { name: 'Book series' }));
    expect(within(form).getByLabelText('Paid by').getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("is paid from one of the client's live packages: only theirs with sessions left are offered, and the sale is sent", async () => {
    const sent: unknown[] = [];
    mockFetch({
      'GET /api/admin/therapists': therapists,
      'GET /locations': locations,
      'GET /api/admin/package-sales': [
        packageSaleItem({ id: 21, client_email: 'kavya@example.com', client_full_name: 'Kavya Rao' }),
        packageSaleItem({ id: 22, client_email: 'kavya@example.com', client_full_name: 'Kavya Rao', sessions_left: 0 }),
        packageSaleItem({ id: 23, client_email: 'kavya@example.com', client_full_name: 'Kavya Rao', expires_on: '2020-01-31' }),
        packageSaleItem({ id: 24, client_email: 'someone@example.com' }),
      ],
      'POST /api/admin/series': (_url: URL, init?: RequestInit) => {
        sent.push(JSON.parse(String(init?.body)));
        return [201, { series_id: 8, bookings: [], conflicts: [], message: 'Series 8 created: 8 sessions booked.' }];
      },
    });
    const onCreated = vi.fn();
    render(<SeriesBooking onClose={() => {}} onCreated={onCreated} />);
    const form = await fillForm();
    fireEvent.click(within(form).getByLabelText("From the client's package (one session of it each)"));
    // Without a sale chosen nothing is sent.
    fireEvent.click(within(form).getByRole('button', { name: 'Book series' }));
    const picker = within(form).getByLabelText('Package') as HTMLSelectElement;
    expect(picker.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(2));
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => (o as HTMLOptionElement).value),
    ).toEqual(['', '21']);
    fireEvent.change(picker, { target: { value: '21' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Book series' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith('Series 8 created: 8 sessions booked.'));
    expect(sent).toEqual([expect.objectContaining({ payment: 'PACKAGE', package_sale_id: 21, booking_type: 'OFFLINE' })]);
    expect(sent[0]).not.toHaveProperty('payment_method');
  });
});

describe('a series’ sessions from one of its bookings', () => {
  const session = (id: number, date: string, over: Record<string, unknown> = {}) =>
    booking({ id, booking_date: date, booking_time_slot_start: '10:00', series_id: 3, payment_status: 'PENDING', ...over }) as unknown as AdminBooking;
  const detail = {
    series_id: 3,
    therapist_id: 1,
    booking_type: 'ONLINE',
    location_id: null,
    booking_time_slot_start: '10:00',
    first_date: '2026-12-01',
    interval_weeks: 1,
    sessions_asked: 3,
    client_full_name: 'Meera Pillai',
    client_email: 'meera@example.com',
    client_mobile: '9876543210',
    payment: 'SEND_LINK',
    package_sale_id: null,
    created_at: '2026-11-23T04:00:00.000Z',
    sessions: [session(11, '2026-12-01'), session(12, '2026-12-08'), session(13, '2026-12-15')],
  };

  it('lists the sessions together and moves this and following; a conflict is listed and nothing moves', async () => {
    const moves: unknown[] = [];
    mockFetch({
      'GET /api/admin/series/3': detail,
      'POST /api/admin/series/3/move': (_url: URL, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as { booking_time_slot_start: string };
        moves.push(body);
        if (body.booking_time_slot_start === '14:00') {
          return [
            409,
            {
              detail: '1 session cannot be moved there; nothing was moved.',
              conflicts: [{ booking_date: '2026-12-15', reason: 'Blocked by the centre.', nearest_free_time: '15:00' }],
            },
          ];
        }
        return { series_id: 3, bookings: [], message: '2 sessions moved.' };
      },
    });
    const onChanged = vi.fn();
    render(<SeriesSessions booking={detail.sessions[1]!} onClose={() => {}} onChanged={onChanged} />);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText(/Meera Pillai, every week: 3 sessions/);
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(3);
    expect((within(dialog).getByLabelText('This and following (2)') as HTMLInputElement).checked).toBe(true);

    fireEvent.change(within(dialog).getByLabelText('Move to (same dates)'), { target: { value: '14:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move this and following' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('1 session cannot be moved there; nothing was moved.');
    expect(alert.textContent).toContain('Blocked by the centre.');
    expect(onChanged).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText('Move to (same dates)'), { target: { value: '12:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move this and following' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith('2 sessions moved.'));
    expect(moves).toEqual([
      { from_date: '2026-12-08', scope: 'following', booking_time_slot_start: '14:00' },
      { from_date: '2026-12-08', scope: 'following', booking_time_slot_start: '12:00' },
    ]);
  });

  it('cancels this session only', async () => {
    const cancels: unknown[] = [];
    mockFetch({
      'GET /api/admin/series/3': detail,
      'POST /api/admin/series/3/cancel': (_url: URL, init?: RequestInit) => {
        cancels.push(JSON.parse(String(init?.body)));
        return { series_id: 3, cancelled: [], message: '1 session of series 3 cancelled.' };
      },
    });
    const onChanged = vi.fn();
    render(<SeriesSessions booking={detail.sessions[1]!} onClose={() => {}} onChanged={onChanged} />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByLabelText('This session only'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel this session' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith('1 session of series 3 cancelled.'));
    expect(cancels).toEqual([{ from_date: '2026-12-08', scope: 'this' }]);
  });
});
