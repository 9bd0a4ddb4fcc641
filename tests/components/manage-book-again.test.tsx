import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ManageBookingDto } from '../../shared/contract/manage.ts';
import { API_MESSAGES } from '../../shared/contract/messages.ts';
import { BOOK_AGAIN_TEXT } from '../../site/src/islands/manage/BookAgain.tsx';
import { ManageBooking } from '../../site/src/islands/manage/ManageBooking.tsx';
import { mockFetch, setViewport, type Routes } from './booking-fixtures.ts';

const TOKEN = 'mT0k3n_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ';
const PATH = `/api/manage/${TOKEN}`;
const SUPPORT = {
  supportPhone: '+91 98200 00000',
  supportPhoneHref: 'tel:+919820000000',
  supportEmail: 'care@wellbeingcentre.in',
  supportEmailHref: 'mailto:care@wellbeingcentre.in',
};

const BOOKING: ManageBookingDto = {
  booking_reference: '1042',
  therapist: { id: 1, name: 'Dr. Asha Mehta', title: 'Clinical Psychologist' },
  session_type: 'Individual therapy',
  booking_type: 'ONLINE',
  centre: null,
  booking_date: '2030-01-10',
  booking_time_slot_start: '11:00',
  booking_time_slot_end: '12:00',
  amount: 1800,
  payment_status: 'COMPLETED',
  payment_state: 'PAID',
  cancelled: false,
  meeting_link: null,
  can_reschedule: true,
  can_cancel: true,
  closed_reason: null,
  policy: 'Changes and cancellations can be made online up to 24 hours before the session.',
  changes_close_at: '2030-01-09T05:30:00.000Z',
  reschedules_left: 2,
  refund_on_cancel: 1800,
  refund_on_cancel_at_centre: 0,
  support: { phone: '+91 98200 00000', email: 'care@wellbeingcentre.in' },
};

function renderPage(routes: Routes, booking: ManageBookingDto = BOOKING) {
  const navigate = vi.fn();
  const mock = mockFetch({ [`GET ${PATH}`]: { body: booking }, ...routes });
  render(<ManageBooking search={`?token=${TOKEN}`} {...SUPPORT} navigate={navigate} />);
  return { ...mock, navigate };
}

beforeEach(() => setViewport(false));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('Book the same time next week', () => {
  it('offers next week and in two weeks, with their dates', async () => {
    renderPage({});
    expect(await screen.findByRole('heading', { name: BOOK_AGAIN_TEXT.title })).toBeTruthy();
    expect(screen.getByText(/11:00 AM IST on Thursday, January 17, 2030 or Thursday, January 24, 2030/)).toBeTruthy();
    expect(screen.getByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek })).toBeTruthy();
    expect(screen.getByRole('button', { name: BOOK_AGAIN_TEXT.inTwoWeeks })).toBeTruthy();
  });

  it('online: books a week later, then goes to the new booking’s payment link with its token', async () => {
    const { calls, navigate } = renderPage({
      [`POST ${PATH}/book-again`]: { body: { booking_id: 77, message: API_MESSAGES.bookingCreated, booking_token: 'new-token' } },
      'POST /api/payment/generate-link': { body: { short_url: 'https://pay.example/abc', payment_link_id: 'plink_1' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://pay.example/abc'));
    const again = calls.find((c) => c.url === `${PATH}/book-again`)!;
    expect(again.body).toMatchObject({ weeks_ahead: 1 });
    expect((again.body as { payment_transaction_id: string }).payment_transaction_id).toMatch(/^[0-9a-f-]{36}$/);
    const link = calls.find((c) => c.url === '/api/payment/generate-link')!;
    expect(link.body).toMatchObject({ booking_id: 77 });
    expect(link.headers['x-booking-token']).toBe('new-token');
  });

  it('in person: books in two weeks and goes to the in-person confirmation', async () => {
    const { navigate } = renderPage(
      { [`POST ${PATH}/book-again`]: { body: { booking_id: 78, message: API_MESSAGES.bookingCreated, booking_token: 't' } } },
      { ...BOOKING, booking_type: 'OFFLINE', centre: { name: 'West Branch', address: 'Bandra' } },
    );
    fireEvent.click(await screen.findByRole('button', { name: BOOK_AGAIN_TEXT.inTwoWeeks }));
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    expect(navigate.mock.calls[0]![0]).toMatch(/^\/payment-status\?.*booking_id=78/);
  });

  it('a refusal is shown in the server’s words beside the buttons, and nothing is navigated', async () => {
    const { navigate } = renderPage({ [`POST ${PATH}/book-again`]: { status: 409, body: { detail: API_MESSAGES.slotTaken } } });
    fireEvent.click(await screen.findByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek }));
    expect((await screen.findByRole('alert')).textContent).toBe(API_MESSAGES.slotTaken);
    expect(navigate).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('is not offered for a cancelled session', async () => {
    renderPage({}, { ...BOOKING, cancelled: true, payment_state: 'CANCELLED', can_cancel: false, can_reschedule: false, closed_reason: 'CANCELLED' });
    expect(await screen.findByRole('heading', { name: 'Session cancelled' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek })).toBeNull();
  });
});
