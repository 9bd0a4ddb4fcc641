import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toPayload, validateManualBooking, EMPTY } from '../../site/src/islands/admin/manual-booking/form.ts';
import Packages from '../../site/src/islands/admin/Packages.tsx';
import { adminTherapist, mockFetch, packageSaleItem, signIn } from './admin-helpers.tsx';

/**
 * Issue 34 in the panel: the Packages screen (every admin sells and views; a super admin defines,
 * edits, extends and refunds) and Manual Booking's "From a package".
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const pkg = (over: Record<string, unknown> = {}) => ({
  id: 3,
  name: 'Eight weeks',
  sessions_count: 8,
  price: 9600,
  validity_days: 90,
  session_types: ['ONLINE'],
  therapist_ids: [1],
  is_active: true,
  ...over,
});
const saleItem = packageSaleItem;
const saleDetail = (over: Record<string, unknown> = {}) => ({
  ...saleItem(),
  bookings: [
    {
      id: 71,
      booking_date: '2026-11-24',
      booking_time_slot_start: '10:00',
      booking_type: 'ONLINE',
      therapist_name: 'Dr. Asha Mehta',
      cancelled: false,
      attendance: 'NO_SHOW',
      credit: 'USED',
    },
    {
      id: 72,
      booking_date: '2026-11-30',
      booking_time_slot_start: '11:00',
      booking_type: 'ONLINE',
      therapist_name: 'Dr. Asha Mehta',
      cancelled: true,
      attendance: null,
      credit: 'RETURNED',
    },
  ],
  credits: [{ kind: 'sold', sessions: 8, booking_id: null, occurred_at: '2026-11-23T04:00:00.000Z', actor: 'admin:2' }],
  ...over,
});
const bodyOf = (c: { init: RequestInit | undefined }) => JSON.parse(String(c.init!.body));

function routes(extra: Record<string, unknown> = {}) {
  return mockFetch({
    'GET /api/admin/packages': [pkg(), pkg({ id: 4, name: 'Old course', is_active: false, session_types: [], therapist_ids: [] })],
    'GET /api/admin/therapists': [adminTherapist({ id: 1, name: 'Dr. Asha Mehta', type: 1 })],
    'GET /api/admin/package-sales': [saleItem()],
    'GET /api/admin/package-sales/21': saleDetail(),
    ...extra,
  });
}

describe('the Packages screen', () => {
  it('lists the packages with what they cover, and the sales with what is left', async () => {
    signIn(false);
    routes();
    render(<Packages />);
    const table = await screen.findByRole('region', { name: 'Packages table' });
    expect(within(table).getByText('Online; Dr. Asha Mehta')).toBeTruthy();
    expect(within(table).getByText('Online and in person; every therapist')).toBeTruthy();
    expect(within(table).getByText('Not on sale')).toBeTruthy();
    // A plain admin sees no Edit and no New package.
    expect(screen.queryByRole('button', { name: 'New package' })).toBeNull();
    const sales = await screen.findByRole('region', { name: 'Package sales table' });
    expect(within(sales).getByText('6 of 8')).toBeTruthy();
  });

  it('sells a package at the desk: only active packages offered, every field sent, the sale shown', async () => {
    signIn(false);
    const { calls } = routes({
      'POST /api/admin/package-sales': [201, { sale: saleDetail(), message: 'Package sale 21 recorded; the client has been sent their package’s link.' }],
    });
    render(<Packages />);
    const select = await screen.findByLabelText('Package');
    expect(within(select).queryByText(/Old course/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sell' }));
    expect(await screen.findByText(/Please choose the package and the payment method/)).toBeTruthy();
    fireEvent.change(select, { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Client name'), { target: { value: 'Meera Pillai' } });
    fireEvent.change(screen.getByLabelText('Client e-mail'), { target: { value: 'meera@example.com' } });
    fireEvent.change(screen.getByLabelText('Client mobile'), { target: { value: '98765 43210' } });
    fireEvent.change(screen.getByLabelText('Paid by'), { target: { value: 'UPI' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sell for ₹9,600.00' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(bodyOf(calls.find((c) => c.method === 'POST')!)).toEqual({
      package_id: 3,
      client_full_name: 'Meera Pillai',
      client_email: 'meera@example.com',
      client_mobile: '98765 43210',
      payment_method: 'UPI',
    });
    expect(await screen.findByText(/Package sale 21 recorded/)).toBeTruthy();
    const dialog = await screen.findByRole('dialog', { name: 'Package sale 21' });
    expect(await within(dialog).findByText(/no-show, session used/)).toBeTruthy();
    expect(within(dialog).getByText(/cancelled in time, session returned/)).toBeTruthy();
  });

  it('a super admin defines a package, and extends and refunds a sale', async () => {
    signIn(true);
    const { calls } = routes({
      'POST /api/admin/packages': [201, { package: pkg({ id: 5, name: 'Ten sessions' }), message: 'Package "Ten sessions" created.' }],
      'POST /api/admin/package-sales/21/extend': { sale: saleDetail({ expires_on: '2027-03-31' }), message: 'Package sale 21 now expires on 2027-03-31.' },
      'POST /api/admin/package-sales/21/refund': {
        sale: saleDetail({ sessions_left: 0, sessions_refunded: 6, refundable: 0 }),
        refund: { amount: 7200, sessions: 6, status: 'at_counter' },
        message: 'Refund of ₹7,200.00 for the unused sessions of package sale 21 recorded.',
      },
    });
    render(<Packages />);
    fireEvent.click(await screen.findByRole('button', { name: 'New package' }));
    const form = await screen.findByRole('dialog', { name: 'New package' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Ten sessions' } });
    fireEvent.change(within(form).getByLabelText('Number of sessions'), { target: { value: '10' } });
    fireEvent.change(within(form).getByLabelText('Price (₹)'), { target: { value: '0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create package' }));
    expect(await within(form).findByText(/Please fill in every field/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Price (₹)'), { target: { value: '11000' } });
    fireEvent.click(within(form).getByLabelText('In person'));
    fireEvent.click(within(form).getByRole('button', { name: 'Create package' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/admin/packages')).toBe(true));
    expect(bodyOf(calls.find((c) => c.url.pathname === '/api/admin/packages' && c.method === 'POST')!)).toEqual({
      name: 'Ten sessions',
      sessions_count: 10,
      price: 11000,
      validity_days: 90,
      session_types: ['OFFLINE'],
      therapist_ids: [],
      is_active: true,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'View sale 21' }));
    const dialog = await screen.findByRole('dialog', { name: 'Package sale 21' });
    fireEvent.change(await within(dialog).findByLabelText('New last day'), { target: { value: '2027-03-31' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Ill' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(await within(dialog).findByText('Package sale 21 now expires on 2027-03-31.')).toBeTruthy();
    const refund = within(dialog).getByRole('button', { name: 'Refund ₹7,200.00' }) as HTMLButtonElement;
    expect(refund.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Handed back by'), { target: { value: 'CASH' } });
    fireEvent.click(refund);
    expect(await within(dialog).findByText(/Refund of ₹7,200.00/)).toBeTruthy();
    expect(bodyOf(calls.find((c) => c.url.pathname.endsWith('/refund'))!)).toEqual({ method: 'CASH' });
    expect(bodyOf(calls.find((c) => c.url.pathname.endsWith('/extend'))!)).toEqual({ expires_on: '2027-03-31', reason: 'Ill' });
  });
});

describe('Manual Booking: From a package', () => {
  const form = {
    ...EMPTY,
    therapistId: '1',
    bookingDate: '2026-11-24',
    slot: '10:00',
    clientName: 'Meera Pillai',
    clientEmail: 'meera@example.com',
    clientMobile: '9876543210',
    bookingType: 'ONLINE' as const,
    amount: '1500',
    settlement: 'FROM_PACKAGE' as const,
  };
  it('asks for the sale, then sends it with no payment method, confirmed', () => {
    expect(validateManualBooking(form)).toEqual({ packageSaleId: 'Choose the package the session is taken from.' });
    const chosen = { ...form, packageSaleId: '21' };
    expect(validateManualBooking(chosen)).toEqual({});
    const payload = toPayload(chosen, null, 'tx-1');
    expect(payload).toMatchObject({ package_sale_id: 21, payment_status: 'COMPLETED' });
    expect(payload.payment_method).toBeUndefined();
  });
});
