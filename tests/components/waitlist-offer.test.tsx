import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WaitlistEntryDto } from '../../shared/contract/waitlist.ts';
import { WAITLIST_MESSAGES } from '../../shared/contract/waitlist.ts';
import { WAITLIST_PAGE_TEXT, WaitlistOffer } from '../../site/src/islands/waitlist/WaitlistOffer.tsx';
import { mockFetch } from './booking-fixtures.ts';

const TOKEN = 'wT0k3n_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ';
const PATH = `/api/waitlist/${TOKEN}`;
const ENTRY: WaitlistEntryDto = {
  therapist: { id: 5, name: 'Rohan Kapoor' },
  booking_type: 'OFFLINE',
  centre: { name: 'West Branch', address: 'Bandra West' },
  from_date: '2030-01-07',
  to_date: '2030-01-10',
  times: ['afternoon'],
  status: 'offered',
  amount: 1500,
  offer: { booking_id: 91, booking_date: '2030-01-08', booking_time_slot_start: '14:00', expires_at: '2030-01-07T05:30:00.000Z' },
};

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const page = (entry: WaitlistEntryDto, routes = {}) => {
  const navigate = vi.fn();
  const mock = mockFetch({ [`GET ${PATH}`]: { body: entry }, ...routes });
  render(<WaitlistOffer search={`?token=${TOKEN}`} navigate={navigate} />);
  return { ...mock, navigate };
};

describe('the waitlist page', () => {
  it('shows the time held and until when; claims it in person with the wizard’s remaining details', async () => {
    const { calls } = page(ENTRY, { [`POST ${PATH}/claim`]: { body: { booking_id: 91, message: 'Booking created successfully.', booking_token: 't' } } });
    expect(await screen.findByRole('heading', { name: WAITLIST_PAGE_TEXT.heldTitle })).toBeTruthy();
    expect(screen.getByText(/Held for you until 11:00 AM IST on Monday, January 7, 2030/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: WAITLIST_PAGE_TEXT.claim }));
    expect(screen.getByText(WAITLIST_PAGE_TEXT.ageRequired)).toBeTruthy();
    expect(screen.getByText(WAITLIST_PAGE_TEXT.termsRequired)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Age'), { target: { value: '31' } });
    fireEvent.change(screen.getByLabelText('Type of session'), { target: { value: 'individual' } });
    fireEvent.click(screen.getByLabelText(/I accept the/));
    fireEvent.click(screen.getByRole('button', { name: WAITLIST_PAGE_TEXT.claim }));
    expect((await screen.findByRole('status')).textContent).toMatch(/Your session on Tuesday, January 8, 2030 at 2:00 PM IST is booked/);
    expect(calls.find((c) => c.url === `${PATH}/claim`)!.body).toEqual({ client_age: 31, session_type: 'individual', terms_accepted: true });
  });

  it('online: asks the state and city, then goes to the payment link', async () => {
    const { navigate } = page(
      { ...ENTRY, booking_type: 'ONLINE', centre: null },
      {
        [`POST ${PATH}/claim`]: { body: { booking_id: 91, message: 'Booking created successfully.', booking_token: 'bt' } },
        'POST /api/payment/generate-link': { body: { short_url: 'https://pay.example/x', payment_link_id: 'p' } },
      },
    );
    fireEvent.change(await screen.findByLabelText('Age'), { target: { value: '31' } });
    fireEvent.change(screen.getByLabelText('Type of session'), { target: { value: 'couple' } });
    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'Maharashtra' } });
    fireEvent.change(screen.getByLabelText('City'), { target: { value: 'Mumbai' } });
    fireEvent.click(screen.getByLabelText(/I accept the/));
    fireEvent.click(screen.getByRole('button', { name: WAITLIST_PAGE_TEXT.claim }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://pay.example/x'));
  });

  it('leave: off the list, in the server’s words', async () => {
    page({ ...ENTRY, status: 'waiting', offer: null }, { [`POST ${PATH}/leave`]: { body: { message: WAITLIST_MESSAGES.left } } });
    expect(await screen.findByText(WAITLIST_PAGE_TEXT.waiting)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: WAITLIST_PAGE_TEXT.leave }));
    expect((await screen.findByRole('status')).textContent).toBe(WAITLIST_MESSAGES.left);
    expect(screen.queryByRole('button', { name: WAITLIST_PAGE_TEXT.leave })).toBeNull();
  });

  it('an unknown link says so', async () => {
    mockFetch({});
    render(<WaitlistOffer search={`?token=${TOKEN}`} />);
    expect(await screen.findByText(WAITLIST_PAGE_TEXT.notFound)).toBeTruthy();
  });
});
