/** The panel's Waitlist screen (issue 34): a therapist's waitlist, first in line first, with the time held now. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AdminApp from '../../site/src/islands/admin/AdminApp.tsx';
import { adminNav } from '../../site/src/lib/admin-nav.ts';
import { adminTherapist, mockFetch, signIn } from './admin-helpers.tsx';

const THERAPISTS = [adminTherapist({ id: 1, name: 'Dr. Asha Mehta', type: 1 }), adminTherapist({ id: 5, name: 'Dr. Rohan Kapoor', type: 2 })];
const ENTRY = {
  id: 7,
  position: 1,
  client_full_name: 'Meera Pillai',
  client_email: 'meera@example.com',
  client_mobile: '9876543210',
  from_date: '2030-01-07',
  to_date: '2030-01-10',
  times: ['afternoon', 'evening'],
  status: 'offered',
  joined_at: '2030-01-06T04:30:00.000Z',
  offer: { booking_id: 91, booking_date: '2030-01-08', booking_time_slot_start: '14:00', expires_at: '2030-01-07T05:30:00.000Z' },
};

beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(adminNav, 'replace').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Waitlist', () => {
  it('lists the first therapist’s waitlist, the time held and until when; another therapist is asked for when chosen', async () => {
    signIn(false);
    const { calls } = mockFetch({
      'GET /api/admin/therapists': THERAPISTS,
      'GET /api/admin/waitlist': (url: URL) =>
        url.searchParams.get('therapist_id') === '1'
          ? { entries: [ENTRY, { ...ENTRY, id: 8, position: 2, status: 'waiting', offer: null, times: [] }] }
          : { entries: [] },
    });
    render(<AdminApp route="waitlist" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Waitlist' })).toBeTruthy();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['1', '2']);
    expect(rows[0]!.textContent).toContain('Held: Tuesday, January 8, 2030 at 2:00 PM IST, until 11:00 AM IST');
    expect(rows[0]!.textContent).toContain('Afternoon (12 noon to 5 PM), Evening (from 5 PM)');
    expect(rows[1]!.textContent).toContain('Any time');
    expect(rows[1]!.textContent).toContain('Waiting');
    fireEvent.change(screen.getByLabelText('Therapist'), { target: { value: '5' } });
    expect(await screen.findByText('Nobody is waiting for this therapist.')).toBeTruthy();
    expect(calls.filter((c) => c.url.pathname === '/api/admin/waitlist').map((c) => c.url.searchParams.get('therapist_id'))).toEqual(['1', '5']);
  });

  it('is in every admin’s menu', async () => {
    signIn(false);
    mockFetch({ 'GET /api/admin/therapists': THERAPISTS, 'GET /api/admin/waitlist': { entries: [] } });
    render(<AdminApp route="waitlist" />);
    expect((await screen.findByRole('link', { name: 'Waitlist' })).getAttribute('href')).toBe('/admin/waitlist');
  });
});
