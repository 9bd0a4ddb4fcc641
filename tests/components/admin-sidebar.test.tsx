import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Sidebar } from '../../site/src/islands/admin/Sidebar.tsx';
import AdminApp from '../../site/src/islands/admin/AdminApp.tsx';
import { adminNav } from '../../site/src/lib/admin-nav.ts';
import { ADMIN_TOKEN_KEY, ADMIN_USER_KEY } from '../../site/src/stores/admin-session.ts';
import { contractFetch } from '../support/mock-contract.ts';
import { ledgerServer, mockFetch, signIn, XLSX } from './admin-helpers.tsx';
import { ADMIN_SIDEBAR, SUPERADMIN_SIDEBAR } from '../support/sidebar.ts';

const user = (superadmin: boolean) => ({ username: superadmin ? 'owner' : 'staff', is_superadmin: superadmin, is_admin: true, is_active: true });

beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(adminNav, 'replace').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Sidebar', () => {
  it('super admins see Reports, Income, Audit Log and Job Queues', () => {
    render(<Sidebar route="dashboard" user={user(true)} onLogout={() => {}} />);
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(SUPERADMIN_SIDEBAR);
    expect(within(nav).getByRole('link', { name: 'Reports' }).getAttribute('href')).toBe('/admin/Reports');
    expect(within(nav).getByRole('link', { name: 'Income' }).getAttribute('href')).toBe('/admin/Income');
    expect(within(nav).getByRole('link', { name: 'Job Queues' }).getAttribute('href')).toBe('/admin/queues');
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('other admins do not see Reports or Income, and do see Cash-up', () => {
    render(<Sidebar route="calendar" user={user(false)} onLogout={() => {}} />);
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(ADMIN_SIDEBAR);
    expect(within(nav).getByRole('link', { name: 'Cash-up' }).getAttribute('href')).toBe('/admin/cash-up');
  });

  it('the phone menu toggle reports its state', () => {
    render(<Sidebar route="dashboard" user={user(false)} onLogout={() => {}} />);
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
  });
});

describe('AdminApp access rules', () => {
  it('signed out: admin pages go to /admin/login', async () => {
    render(<AdminApp route="dashboard" />);
    expect(adminNav.replace).toHaveBeenCalledWith('/admin/login');
  });

  it('signed in: /admin/login goes to the dashboard', () => {
    signIn(false);
    render(<AdminApp route="login" />);
    expect(adminNav.replace).toHaveBeenCalledWith('/admin/dashboard');
  });

  it('a plain admin typing /admin/income is refused and nothing is fetched', async () => {
    signIn(false);
    const { fn } = mockFetch({});
    render(<AdminApp route="income" />);
    expect(await screen.findByText('Only super admins may view this page.')).toBeTruthy();
    expect(fn).not.toHaveBeenCalled();
    expect(screen.queryByRole('link', { name: 'Income' })).toBeNull();
  });

  it('a super admin gets the Reports screen with its four tabs', async () => {
    signIn(true);
    mockFetch({ 'GET /api/admin/reports/inventory': ledgerServer([]) });
    render(<AdminApp route="reports" />);
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Inventory', 'End of Day', 'Therapist Monthly', 'Packages']);
    expect(await screen.findByText('No inventory data available.')).toBeTruthy();
  });

  it('Logout clears both keys, calls the parent callback and goes to /admin/login', async () => {
    signIn(true);
    mockFetch({ 'GET /api/admin/search-clients': [] });
    const parent = vi.fn();
    render(<AdminApp route="patients" onLogout={parent} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(ADMIN_USER_KEY)).toBeNull();
    expect(parent).toHaveBeenCalled();
    expect(adminNav.replace).toHaveBeenCalledWith('/admin/login');
  });
});

describe('Cash-up', () => {
  const totals = (taken: number, refunded: number) => ({ taken, refunded, net: taken - refunded });
  it("a plain admin gets the day's totals per method and its movements, the day chosen with a date picker", async () => {
    signIn(false);
    const { calls } = mockFetch({
      'GET /api/admin/reports/cash-up': (url: URL) => ({
        date: url.searchParams.get('date'),
        methods: [
          { method: 'CASH', label: 'Cash', ...totals(1800, 300) },
          { method: 'CARD', label: 'Card', ...totals(0, 0) },
          { method: 'UPI', label: 'UPI', ...totals(1200, 0) },
          { method: 'BANK_TRANSFER', label: 'Bank transfer', ...totals(0, 0) },
          { method: 'ONLINE', label: 'Online', ...totals(1500, 0) },
        ],
        at_desk: totals(3000, 300),
        total: totals(4500, 300),
        movements: [
          {
            id: 1,
            kind: 'PAYMENT',
            occurred_at: '2026-11-23T04:00:00.000Z',
            time: '09:30',
            booking_id: 7,
            package_sale_id: null,
            client_name: 'Meera Pillai',
            session_date: '2026-11-23',
            session_time: '11:00',
            method: 'CASH',
            paid_with: 'CASH',
            amount: 1800,
            recorded_by: 'staff',
          },
          {
            id: 2,
            kind: 'REFUND',
            occurred_at: '2026-11-23T11:30:00.000Z',
            time: '17:00',
            booking_id: 7,
            package_sale_id: null,
            client_name: 'Meera Pillai',
            session_date: '2026-11-23',
            session_time: '11:00',
            method: 'CASH',
            paid_with: 'CASH',
            amount: -300,
            recorded_by: 'staff',
          },
          {
            id: 3,
            kind: 'PAYMENT',
            occurred_at: '2026-11-23T12:30:00.000Z',
            time: '18:00',
            booking_id: 9,
            package_sale_id: null,
            client_name: 'Diya Menon',
            session_date: '2026-11-20',
            session_time: '11:00',
            method: 'ONLINE',
            paid_with: 'UPI',
            amount: 1500,
            recorded_by: 'Online',
          },
        ],
      }),
    });
    render(<AdminApp route="cash-up" />);
    const methods = await screen.findByRole('region', { name: 'Totals by method' });
    const cash = within(methods).getByRole('row', { name: /^Cash/ });
    expect(
      within(cash)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['₹1,800.00', '-₹300.00', '₹1,500.00']);
    expect(within(methods).getByRole('row', { name: /^Total/ }).textContent).toContain('₹4,200.00');
    const moves = screen.getByRole('region', { name: 'Movements table' });
    expect(within(moves).getAllByRole('row')).toHaveLength(4);
    expect(within(moves).getByText('Online (UPI)')).toBeTruthy();
    const day = screen.getByLabelText('Day') as HTMLInputElement;
    expect(calls[0]!.url.searchParams.get('date')).toBe(day.value);
    fireEvent.change(day, { target: { value: '2026-11-20' } });
    expect(await screen.findByRole('heading', { name: 'Friday, November 20, 2026' })).toBeTruthy();
    expect(calls.at(-1)!.url.searchParams.get('date')).toBe('2026-11-20');
    expect(screen.getByRole('button', { name: 'Download Excel' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Print' })).toBeTruthy();
  });
});

describe('Reports', () => {
  it('Download Excel with no data alerts; with data saves the server file', async () => {
    signIn(true);
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    mockFetch({ 'GET /api/admin/reports/inventory': ledgerServer([]) });
    render(<AdminApp route="reports" />);
    await screen.findByText('No inventory data available.');
    fireEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    expect(alert).toHaveBeenCalledWith('No data to export.');
    cleanup();

    const year = Number(new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric' }).format(new Date()));
    const { calls } = mockFetch({
      'GET /api/admin/reports/inventory': ledgerServer([]),
      'GET /api/admin/reports/therapist-monthly': {
        year,
        month: 1,
        therapist_performance: [
          {
            therapist_id: 1,
            therapist_name: 'Dr. Asha Mehta',
            total_sessions: 3,
            completed_sessions: 2,
            missed_or_cancelled_sessions: 1,
            total_income: 3000,
            total_refunded: 0,
            attended_sessions: 2,
            no_show_sessions: 0,
          },
        ],
      },
    });
    const xlsx = new Blob(['PK'], { type: XLSX });
    const realFetch = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      contractFetch(async (input: RequestInfo | URL, init?: RequestInit) =>
        String(input).includes('.xlsx')
          ? new Response(xlsx, {
              status: 200,
              headers: { 'Content-Type': XLSX, 'Content-Disposition': `attachment; filename="Therapist_Monthly_Report_${year}-1.xlsx"` },
            })
          : realFetch(input, init),
      ),
    );
    const created = vi.fn(() => 'blob:x');
    URL.createObjectURL = created;
    URL.revokeObjectURL = () => {};
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    render(<AdminApp route="reports" />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Therapist Monthly' }));
    const yearInput = screen.getByLabelText('Year') as HTMLInputElement;
    expect(yearInput.min).toBe('2020');
    expect(yearInput.max).toBe(String(year + 5));
    expect((screen.getByLabelText('Month') as HTMLSelectElement).options).toHaveLength(12);
    expect(await screen.findByText('₹3,000.00', { selector: 'td' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    await vi.waitFor(() => expect(clicks).toEqual([`Therapist_Monthly_Report_${year}-1.xlsx`]));
    expect(calls.some((c) => c.url.pathname === '/api/admin/reports/therapist-monthly')).toBe(true);
  });
});
