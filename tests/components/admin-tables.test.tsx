import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DataTable } from '../../site/src/islands/admin/DataTable.tsx';
import Income from '../../site/src/islands/admin/Income.tsx';
import Clients from '../../site/src/islands/admin/Clients.tsx';
import Patients from '../../site/src/islands/admin/Patients.tsx';
import { adminNav } from '../../site/src/lib/admin-nav.ts';
import { contractFetch, jsonResponse } from '../support/mock-contract.ts';
import { clientBooking, ledgerServer, mockFetch, signIn } from './admin-helpers.tsx';

const rows = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `Row ${i + 1}` }));

function Table(props: { rows?: typeof rows }) {
  return (
    <DataTable
      title="Things"
      rows={props.rows ?? rows}
      rowKey={(r) => r.id}
      empty="Nothing here."
      columns={[
        { key: 'id', header: 'ID', cell: (r) => r.id },
        { key: 'name', header: 'Name', cell: (r) => r.name },
      ]}
    />
  );
}

const bodyRows = () => screen.getAllByRole('row').length - 1;

beforeEach(() => {
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('DataTable', () => {
  it('shows 10 rows by default with Previous/Next and Page X of Y', () => {
    render(<Table />);
    expect(bodyRows()).toBe(10);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    expect(screen.getByText('Row 11')).toBeTruthy();
  });

  it('offers page sizes 10, 20 and 50; changing the size returns to page 1', () => {
    render(<Table />);
    const select = screen.getByLabelText('Rows per page') as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => o.value)).toEqual(['10', '20', '50']);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Page 3 of 3')).toBeTruthy();
    fireEvent.change(select, { target: { value: '20' } });
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    expect(bodyRows()).toBe(20);
    fireEvent.change(select, { target: { value: '50' } });
    expect(bodyRows()).toBe(25);
    expect(screen.queryByText(/Page \d+ of/)).toBeNull();
  });

  it('shows the empty text without rows', () => {
    render(<Table rows={[]} />);
    expect(screen.getByText('Nothing here.')).toBeTruthy();
  });

  it('renders cards instead of a table on phones', () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('max-width'), media: q, addEventListener() {}, removeEventListener() {} }));
    render(<Table />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Things' })).getAllByRole('listitem')).toHaveLength(10);
  });
});

describe('Income', () => {
  const payments = Array.from({ length: 12 }, (_, i) => ({
    amount: 1000 + i,
    payment_transaction_id: `tx-${i}`,
    client_name: `Client ${i}`,
    client_phone: '9876543210',
    booking_date: `2026-11-${String(10 + i).padStart(2, '0')}`,
    booking_id: 100 + i,
    package_sale_id: null,
    kind: 'PAYMENT' as const,
    method: 'UPI' as const,
    provider_reference: `pay_${i}`,
    recorded_at: '2026-11-01T10:00:00.000Z',
    reason: null,
  }));

  // The server's order: newest booking date first.
  const newestFirst = payments.slice().reverse();

  it("shows the whole ledger's total and asks the server for one page at a time", async () => {
    signIn();
    const { calls } = mockFetch({ 'GET /api/admin/income': ledgerServer(newestFirst) });
    render(<Income />);
    expect(await screen.findByText('Total Income: ₹12,066.00')).toBeTruthy();
    expect(calls.at(-1)!.url.search).toBe('?page=1&page_size=10');
    const first = screen.getAllByRole('row')[1]!;
    expect(within(first).getByText('Sat, Nov 21, 2026')).toBeTruthy();
    expect(within(first).getByText('₹1,011.00')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 2')).toBeTruthy();
    expect(calls.at(-1)!.url.search).toBe('?page=2&page_size=10');
    // Page 2: the two oldest, and still the whole ledger's total.
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    expect(within(screen.getAllByRole('row')[2]!).getByText('Tue, Nov 10, 2026')).toBeTruthy();
    expect(screen.getByText('Total Income: ₹12,066.00')).toBeTruthy();
    // A new page size starts again at page 1.
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '20' } });
    await waitFor(() => expect(calls.at(-1)!.url.search).toBe('?page=1&page_size=20'));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(13));
    expect(screen.queryByText(/Page \d+ of/)).toBeNull();
  });

  it('draws only the page asked for last, whatever order the answers arrive in', async () => {
    signIn();
    const server = ledgerServer(newestFirst);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let heldAnswer: Promise<Response> | undefined;
    let asked = 0;
    const fetch = contractFetch((input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const answer = async () => jsonResponse(server(url));
      // The second request (page 2 of 10) answers only after the third (page 1 of 50) was drawn.
      return ++asked === 2 ? held.then(answer) : answer();
    });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const res = fetch(input, init);
      if (asked === 2) heldAnswer ??= res;
      return res;
    });
    render(<Income />);
    await screen.findByText('Page 1 of 2');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '50' } });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(13));
    release();
    await act(async () => {
      await heldAnswer;
    });
    // The late page 2 of 10 is not drawn over the 50-row page asked for after it.
    expect(screen.getAllByRole('row')).toHaveLength(13);
    expect(screen.queryByText(/Page \d+ of/)).toBeNull();
  });

  it('shows a refund as its own negative row, marked Refund with its reason, and the net total with its parts', async () => {
    signIn();
    const refund = {
      ...payments[11]!,
      amount: -500,
      kind: 'REFUND' as const,
      method: 'OTHER' as const,
      provider_reference: 'rfnd_11',
      reason: 'Cancelled by the centre',
    };
    mockFetch({ 'GET /api/admin/income': ledgerServer([payments[11]!, refund, ...payments.slice(0, 11).reverse()]) });
    render(<Income />);
    expect(await screen.findByText('Total Income: ₹11,566.00')).toBeTruthy();
    expect(screen.getByText('Collected ₹12,066.00 · Refunded ₹500.00')).toBeTruthy();
    const [, paid, returned] = screen.getAllByRole('row');
    expect(within(paid!).getByText('Payment')).toBeTruthy();
    expect(within(paid!).getByText('₹1,011.00')).toBeTruthy();
    expect(within(returned!).getByText('Refund')).toBeTruthy();
    expect(within(returned!).getByText('Cancelled by the centre')).toBeTruthy();
    expect(within(returned!).getByText('-₹500.00')).toBeTruthy();
  });

  it('empty state', async () => {
    signIn();
    mockFetch({ 'GET /api/admin/income': ledgerServer([]) });
    render(<Income />);
    expect(await screen.findByText('No income data available.')).toBeTruthy();
    expect(screen.getByText('Total Income: ₹0.00')).toBeTruthy();
  });

  it('error state with Retry that reloads', async () => {
    signIn();
    const { fn } = mockFetch({ 'GET /api/admin/income': [403, { detail: 'Only super admins may view income and reports.' }] });
    render(<Income />);
    expect(await screen.findByText('Error Loading Income')).toBeTruthy();
    expect(screen.getByText('Only super admins may view income and reports.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('Error Loading Income');
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('falls back to the generic message', async () => {
    signIn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new Error(''))),
    );
    render(<Income />);
    expect(await screen.findByText('Failed to load income data.')).toBeTruthy();
  });
});

describe('Clients & Bookings', () => {
  it('asks the server for one page filtered by name; the columns fit a desk screen; rows open the client', async () => {
    signIn();
    window.history.replaceState(null, '', '/admin/clients?search=MEERA');
    const go = vi.spyOn(adminNav, 'go').mockImplementation(() => {});
    const meera = clientBooking({ id: 7, session_type: 'couple', data: { booking_time_slot_start: '14:00' } });
    const { calls } = mockFetch({
      'GET /api/admin/clients-with-therapists': (url: URL) => {
        const name = url.searchParams.get('name')?.toLowerCase();
        const all = [meera, clientBooking({ id: 8, client_full_name: 'Rahul Verma', cancelled: true })];
        const items = all.filter((b) => !name || String(b.client_full_name).toLowerCase().includes(name));
        return { page: Number(url.searchParams.get('page')), page_size: Number(url.searchParams.get('page_size')), total: name ? items.length : 23, items };
      },
    });
    render(<Clients onLogout={() => {}} />);
    await screen.findByText('7');
    expect(calls[0]!.url.search).toBe('?name=MEERA&page=1&page_size=10');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Booking ID', 'Client', 'Therapist', 'Date', 'Time', 'Type', 'Payment Status', 'Status', 'Notes']);
    expect(screen.queryByText('Rahul Verma')).toBeNull();
    const row = screen.getAllByRole('row')[1]!;
    expect(within(row).getByText('Meera Pillai')).toBeTruthy();
    expect(within(row).getByText('meera@example.com')).toBeTruthy();
    expect(within(row).getByText('9876543210')).toBeTruthy();
    expect(within(row).getByText('Couple')).toBeTruthy();
    expect(within(row).getByText('2:00 PM')).toBeTruthy();
    expect(within(row).getByText('Tue, Nov 24, 2026')).toBeTruthy();
    expect(within(row).getByText('Asha Mehta')).toBeTruthy();
    expect(within(row).getByText('First session')).toBeTruthy();
    fireEvent.click(row);
    expect(go).toHaveBeenCalledWith('/admin/clients?search=Meera%20Pillai');
    // Typing asks the server again (once typing pauses), from page 1.
    fireEvent.change(screen.getByLabelText('Filter by name'), { target: { value: 'nobody' } });
    expect(await screen.findByText('No client booking data available.')).toBeTruthy();
    expect(calls.at(-1)!.url.search).toBe('?name=nobody&page=1&page_size=10');
    // Without a name: the whole list, paged by the server.
    fireEvent.change(screen.getByLabelText('Filter by name'), { target: { value: '' } });
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(calls.at(-1)!.url.search).toBe('?page=2&page_size=10'));
    window.history.replaceState(null, '', '/');
  });

  it('on a phone each booking is a card with every field, nothing to scroll sideways', async () => {
    signIn();
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    mockFetch({
      'GET /api/admin/clients-with-therapists': {
        page: 1,
        page_size: 10,
        total: 1,
        items: [clientBooking({ id: 7, session_type: 'couple', therapist_name: 'Ms. Priya Nair' })],
      },
    });
    render(<Clients onLogout={() => {}} />);
    const cards = await screen.findByRole('list', { name: 'Client bookings' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(cards).getByRole('listitem');
    const field = (label: string) => within(card).getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(within(card).getByRole('link', { name: 'Meera Pillai' }).getAttribute('href')).toBe('/admin/clients?search=Meera%20Pillai');
    expect(field('Therapist')).toBe('Priya Nair');
    expect(field('Date')).toBe('Tue, Nov 24, 2026');
    expect(field('Time')).toBe('10:00 AM');
    expect(field('Type')).toBe('Online · Couple');
    expect(field('Status')).toBe('✓ Active');
  });

  it('shows the server’s payment note beside the payment status', async () => {
    signIn();
    mockFetch({
      'GET /api/admin/clients-with-therapists': {
        page: 1,
        page_size: 10,
        total: 2,
        items: [
          clientBooking({ id: 9, cancelled: true, amount_paid: 1500, amount_refunded: 1500, payment_note: 'Refunded ₹1,500.00' }),
          clientBooking({ id: 10, payment_note: null }),
        ],
      },
    });
    render(<Clients onLogout={() => {}} />);
    const note = await screen.findByText('Refunded ₹1,500.00');
    expect(note.closest('tr')!.firstElementChild!.textContent).toBe('9');
    expect(note.closest('.adm-pay')!.querySelector('.adm-badge')!.textContent).toBe('COMPLETED');
    expect(screen.getAllByText('COMPLETED')).toHaveLength(2);
    expect(document.querySelectorAll('.adm-pay-note')).toHaveLength(1);
  });

  it('error title', async () => {
    signIn();
    mockFetch({ 'GET /api/admin/clients-with-therapists': [500, { detail: 'Database unavailable.' }] });
    render(<Clients onLogout={() => {}} />);
    expect(await screen.findByText('Error Loading Data')).toBeTruthy();
    expect(screen.getByText('Database unavailable.')).toBeTruthy();
  });
});

describe('Search Clients', () => {
  it('searches with an empty term on load, then by name; rows go to the client list', async () => {
    signIn();
    const go = vi.spyOn(adminNav, 'go').mockImplementation(() => {});
    const { calls } = mockFetch({
      'GET /api/admin/search-clients': (url: URL) =>
        url.searchParams.get('name') === 'zzz' ? [] : [{ name: 'Meera Pillai', email: 'meera@example.com', phone: '9876543210' }],
    });
    render(<Patients />);
    await screen.findByText('Meera Pillai');
    expect(calls[0]!.url.search).toBe('?name=');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Sr No.', 'Patient Name', 'Email', 'Mobile']);
    fireEvent.click(screen.getAllByRole('row')[1]!);
    expect(go).toHaveBeenCalledWith('/admin/clients?search=Meera%20Pillai');
    fireEvent.change(screen.getByLabelText('Client name'), { target: { value: 'zzz' } });
    fireEvent.submit(screen.getByRole('search'));
    expect(screen.getByRole('button', { name: 'Searching...' })).toBeTruthy();
    expect(await screen.findByText('No clients found. Try searching by name, email, or mobile number.')).toBeTruthy();
  });
});
