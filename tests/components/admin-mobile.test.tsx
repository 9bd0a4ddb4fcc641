/**
 * The panel's mobile fields (issue 31, item 3): a number pasted in any common Indian form is kept
 * whole while typed and becomes the wizard's 10 digits (shared/domain/contact.ts), never a cut-off
 * prefix of what was pasted.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ManualBooking from '../../site/src/islands/admin/ManualBooking.tsx';
import Patients from '../../site/src/islands/admin/Patients.tsx';
import { adminNav } from '../../site/src/lib/admin-nav.ts';
import { adminTherapist, mockFetch, signIn } from './admin-helpers.tsx';

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
const tomorrow = (() => {
  const x = new Date(`${today}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + 1);
  return x.toISOString().slice(0, 10);
})();

function routes() {
  return mockFetch({
    'GET /api/admin/therapists': [adminTherapist({ id: 1, name: 'Dr. Asha Mehta', type: 1, price: 1500, locations: null, email: ['asha@example.in'] })],
    'GET /locations': [{ id: 1, name: 'West Branch', description: '', address: 'Borivali West', phone: '+91 98200 11111' }],
    'GET /api/admin/therapists/1/slot-states': {
      therapist_id: 1,
      today,
      days: [today, tomorrow].map((date) => ({ date, slots: [{ start_time: '12:00', end_time: '12:59', state: 'free', booking_id: null }] })),
    },
    'POST /confirm-booking': { booking_id: 321, message: 'ok' },
    'GET /api/admin/search-clients': [],
  });
}

beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(adminNav, 'replace').mockImplementation(() => {});
  vi.spyOn(adminNav, 'go').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Manual Booking: Client Mobile', () => {
  it.each([
    ['919920033333', '9920033333'],
    ['+91 99200 33333', '9920033333'],
    ['099200-33333', '9920033333'],
    ['0091 99200 33333', '9920033333'],
  ])('pasting %s keeps all of it, shows %s once left, and sends those 10 digits', async (pasted, digits) => {
    signIn();
    const { calls } = routes();
    const onCreated = vi.fn();
    render(<ManualBooking onClose={() => {}} onCreated={onCreated} />);
    fireEvent.change(await screen.findByLabelText('Therapist'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('Booking Date'), { target: { value: tomorrow } });
    await waitFor(() => expect((screen.getByLabelText('Time Slot') as HTMLSelectElement).options.length).toBe(2));
    fireEvent.change(screen.getByLabelText('Time Slot'), { target: { value: '12:00' } });
    fireEvent.change(screen.getByLabelText('Client Name'), { target: { value: 'Meera Pillai' } });
    fireEvent.change(screen.getByLabelText('Client Email'), { target: { value: 'meera@example.com' } });
    const mobile = screen.getByLabelText('Client Mobile') as HTMLInputElement;
    // No length limit cuts a paste short (a maxLength of 10 made 919920033333 into 9199200333).
    expect(mobile.maxLength).toBe(-1);
    fireEvent.change(mobile, { target: { value: pasted } });
    expect(mobile.value).toBe(pasted);
    fireEvent.blur(mobile);
    expect(mobile.value).toBe(digits);
    // An online session asks how it was settled (item 1): a link to pay.
    fireEvent.click(screen.getByRole('radio', { name: 'Not paid yet: send a payment link' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(String(post.init!.body)).client_mobile).toBe(digits);
  });

  it('a number that is not an Indian mobile stays as typed and is refused with the form’s message', async () => {
    signIn();
    const { calls } = routes();
    render(<ManualBooking onClose={() => {}} onCreated={() => {}} />);
    const mobile = (await screen.findByLabelText('Client Mobile')) as HTMLInputElement;
    fireEvent.change(mobile, { target: { value: '+44 7700 900123' } });
    fireEvent.blur(mobile);
    expect(mobile.value).toBe('+44 7700 900123');
    fireEvent.click(screen.getByRole('button', { name: 'Create Booking' }));
    expect(screen.getByText('Valid 10-digit mobile is required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says which forms are fine, in the wizard’s words, tied to the field', async () => {
    signIn();
    routes();
    render(<ManualBooking onClose={() => {}} onCreated={() => {}} />);
    const mobile = await screen.findByLabelText('Client Mobile');
    const hint = screen.getByText('10-digit mobile number; +91 or a leading 0 is fine');
    expect(mobile.getAttribute('aria-describedby')?.split(' ')).toContain(hint.id);
    expect(mobile.getAttribute('type')).toBe('tel');
  });
});

describe('Search Clients', () => {
  it('the search box takes a pasted number whole (the server reads it with the same rule)', async () => {
    signIn();
    const { calls } = routes();
    render(<Patients />);
    const box = screen.getByRole('searchbox') as HTMLInputElement;
    expect(box.maxLength).toBe(-1);
    fireEvent.change(box, { target: { value: '+91 99200 33333' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('name') === '+91 99200 33333')).toBe(true));
  });
});
