/**
 * The Inventory report and the audit log ask the server for one page at a time with the bookings
 * list's pager (issue 22); the inventory's totals are the whole ledger's, and Download Excel fetches
 * every row whatever page is shown.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AuditLog from '../../site/src/islands/admin/AuditLog.tsx';
import Reports from '../../site/src/islands/admin/Reports.tsx';
import { ledgerServer, mockFetch, signIn, XLSX } from './admin-helpers.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const ledger = Array.from({ length: 25 }, (_, i) => ({
  amount: 1000 + i,
  payment_transaction_id: `tx-${i}`,
  client_name: `Client ${i}`,
  client_phone: '9876543210',
  booking_date: `2026-10-${String(31 - i).padStart(2, '0')}`,
  booking_id: 200 + i,
  package_sale_id: null,
  kind: 'PAYMENT' as const,
  method: 'UPI' as const,
  provider_reference: `pay_${i}`,
  recorded_at: '2026-11-01T10:00:00.000Z',
  reason: null,
}));

describe('Inventory report', () => {
  it('shows the ledger’s totals and one page of it, asks for the next, and exports every row', async () => {
    signIn(true);
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const { calls } = mockFetch({
      'GET /api/admin/reports/inventory': ledgerServer(ledger),
      'GET /api/admin/reports/inventory.xlsx': (url: URL) =>
        url.search ? [400, { detail: 'Unknown parameter' }] : new Response(new Blob(['PK']), { headers: { 'Content-Type': XLSX } }),
    });
    render(<Reports />);
    const table = await screen.findByRole('region', { name: 'Inventory payments' });
    expect(calls.at(-1)!.url.search).toBe('?page=1&page_size=10');
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    // The summary is the whole ledger's: 25 entries, their total, whichever page is drawn.
    const summary = screen.getByText('Entries').closest('dl')!;
    expect(within(summary).getByText('25')).toBeTruthy();
    expect(within(summary).getByText('₹25,300.00')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    expect(calls.at(-1)!.url.search).toBe('?page=2&page_size=10');
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Inventory payments' })).getByText('Client 10')).toBeTruthy());
    expect(within(summary).getByText('₹25,300.00')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '50' } });
    await waitFor(() => expect(calls.at(-1)!.url.search).toBe('?page=1&page_size=50'));
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Inventory payments' })).getAllByRole('row')).toHaveLength(26));
    expect(screen.queryByText(/Page \d+ of/)).toBeNull();
    // Download Excel: the whole ledger, no page in the request.
    fireEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(clicks[0]).toMatch(/^Inventory_Report_\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(created).toHaveBeenCalledTimes(1);
    expect(calls.find((c) => c.url.pathname === '/api/admin/reports/inventory.xlsx')!.url.search).toBe('');
  });

  it('an empty ledger: no rows, no pager, and Download Excel says there is nothing to export', async () => {
    signIn(true);
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    mockFetch({ 'GET /api/admin/reports/inventory': ledgerServer([]) });
    render(<Reports />);
    expect(await screen.findByText('No inventory data available.')).toBeTruthy();
    expect(screen.queryByText(/Page \d+ of/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    expect(alert).toHaveBeenCalledWith('No data to export.');
  });
});

describe('Audit log pager', () => {
  it('asks the server for each page and page size', async () => {
    signIn(true);
    const entries = Array.from({ length: 23 }, (_, i) => ({
      id: 23 - i,
      at: '2026-11-23T09:15:00.000Z',
      admin_id: 2,
      admin_username: 'desk',
      actor: 'admin:2',
      by: 'desk',
      action: 'booking.cancel',
      entity_type: 'booking',
      entity_id: String(100 + i),
      changes: [{ field: 'cancelled', before: false, after: true }],
    }));
    const { calls } = mockFetch({
      'GET /api/admin/audit-log': (url: URL) => {
        const page = Number(url.searchParams.get('page'));
        const size = Number(url.searchParams.get('page_size'));
        return { page, page_size: size, total: entries.length, items: entries.slice((page - 1) * size, page * size) };
      },
    });
    render(<AuditLog />);
    await screen.findByText('Page 1 of 3');
    expect(calls.at(-1)!.url.search).toBe('?page=1&page_size=10');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    expect(calls.at(-1)!.url.search).toBe('?page=2&page_size=10');
    expect(await screen.findByText('Booking 110')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '20' } });
    await screen.findByText('Page 1 of 2');
    expect(calls.at(-1)!.url.search).toBe('?page=1&page_size=20');
  });
});
