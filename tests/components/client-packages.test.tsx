import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetCatalogCache } from '../../site/src/islands/booking/data.ts';
import { MyPackage } from '../../site/src/islands/packages/MyPackage.tsx';
import { PackageShop, SHOP_TEXT } from '../../site/src/islands/packages/PackageShop.tsx';
import { LOCATIONS, mockFetch, OFFER, setViewport, THERAPISTS } from './booking-fixtures.ts';

/**
 * Issue 34, the client's side: the Packages choice (buying one through a payment link) and the
 * package's private page (its sessions, and booking one with a session of the package).
 */

const TOKEN = 'P'.repeat(43);
const PACKAGE = { id: 3, name: 'Eight weeks', sessions_count: 8, price: 9600, validity_days: 90, session_types: ['ONLINE'], therapist_ids: [] };
const MINE = {
  package_name: 'Eight weeks',
  client_full_name: 'Meera Pillai',
  status: 'PAID',
  sessions_total: 8,
  sessions_used: 1,
  sessions_left: 7,
  sessions_expired: 0,
  sessions_refunded: 0,
  expires_on: '2030-03-01',
  session_types: ['ONLINE'],
  therapist_ids: [],
  bookings: [
    {
      id: 9,
      booking_date: '2030-01-06',
      booking_time_slot_start: '10:00',
      booking_type: 'ONLINE',
      therapist_name: 'Dr. Asha Mehta',
      cancelled: true,
      attendance: null,
      credit: 'RETURNED',
    },
  ],
};

beforeEach(() => {
  resetCatalogCache();
  setViewport(false);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the Packages choice', () => {
  it('shows what each package covers, asks for the details and the terms, then goes to the payment link', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const { calls } = mockFetch({
      'GET /api/packages': { body: [PACKAGE] },
      'POST /api/packages/purchase': { status: 201, body: { sale_id: 4, payment_link_url: 'https://pay.example/p1', token: TOKEN, message: 'ok' } },
    });
    render(<PackageShop />);
    fireEvent.click(await screen.findByRole('radio', { name: /Eight weeks/ }));
    expect(screen.getByText('online sessions with any of our therapists')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay ₹9,600' }));
    expect((await screen.findByRole('alert')).textContent).toBe(SHOP_TEXT.formIncomplete);
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Meera Pillai' } });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'meera@example.com' } });
    fireEvent.change(screen.getByLabelText('Mobile number'), { target: { value: '+91 98765 43210' } });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay ₹9,600' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.example/p1'));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({ package_id: 3, client_full_name: 'Meera Pillai', client_email: 'meera@example.com', client_mobile: '9876543210' });
    expect((post.body as { request_key: string }).request_key).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('the package page', () => {
  it('passes the provider’s return on, shows the sessions, and books one with the package', async () => {
    const { calls } = mockFetch({
      [`GET /api/packages/${TOKEN}`]: { body: MINE },
      'GET /therapists': { body: THERAPISTS },
      'GET /locations': { body: LOCATIONS },
      'GET /api/slots': { body: OFFER },
      [`POST /api/packages/${TOKEN}/book`]: {
        body: { booking_id: 10, message: 'Booking 10 confirmed with one session of your package.', manage_url: '/manage-booking?token=x', package: MINE },
      },
    });
    render(<MyPackage search={`?token=${TOKEN}&razorpay_payment_id=pay_1`} />);
    expect(await screen.findByText('7 left')).toBeTruthy();
    expect(screen.getByText(/the session went back to your package/)).toBeTruthy();
    expect(calls[0]!.url).toBe(`/api/packages/${TOKEN}?razorpay_payment_id=pay_1`);
    const select = await screen.findByLabelText('Therapist');
    // Online only: the in-person therapists are not offered.
    expect(screen.queryByRole('option', { name: /Rohan Kapoor/ })).toBeNull();
    fireEvent.change(select, { target: { value: '1' } });
    fireEvent.click(await screen.findByRole('button', { name: /January 8, 2030/ }));
    fireEvent.click(await screen.findByRole('radio', { name: '10:00 AM' }));
    fireEvent.click(screen.getByRole('button', { name: 'Book with one session of my package' }));
    expect(await screen.findByText(/Booking 10 confirmed/)).toBeTruthy();
    // The package is read again: the confirmation and its Manage link stay once it is back.
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith(`/api/packages/${TOKEN}`) && c.method === 'GET')).toHaveLength(2));
    expect(await screen.findByText('7 left')).toBeTruthy();
    expect(screen.getByText(/Booking 10 confirmed/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Manage this booking' }).getAttribute('href')).toBe('/manage-booking?token=x');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      therapist_id: 1,
      booking_type: 'ONLINE',
      booking_date: '2030-01-08',
      booking_time_slot_start: '10:00',
    });
  });

  it('a link that opens nothing says so', async () => {
    mockFetch({});
    render(<MyPackage search={`?token=${TOKEN}`} />);
    expect(await screen.findByText('We could not find this package')).toBeTruthy();
  });
});
