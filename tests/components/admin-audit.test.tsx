/** The audit log says who changed what, field by field, at both widths (issue 19, item 18). */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AuditLog from '../../site/src/islands/admin/AuditLog.tsx';
import { mockFetch, signIn } from './admin-helpers.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const page = {
  page: 1,
  page_size: 10,
  total: 3,
  items: [
    {
      id: 3,
      at: '2026-11-23T09:15:00.000Z',
      admin_id: 2,
      admin_username: 'desk',
      actor: 'admin:2',
      by: 'desk',
      action: 'booking.record_payment',
      entity_type: 'booking',
      entity_id: '51',
      changes: [
        { field: 'payment_status', before: 'PENDING', after: 'COMPLETED' },
        { field: 'payment.method', before: null, after: 'CASH' },
        { field: 'payment.amount', before: null, after: 1800 },
      ],
    },
    {
      id: 2,
      at: '2026-11-23T09:10:00.000Z',
      admin_id: 1,
      admin_username: 'owner',
      actor: 'admin:1',
      by: 'owner',
      action: 'slot.block',
      entity_type: 'booking',
      entity_id: '50',
      changes: [
        { field: 'therapist_id', before: null, after: 2 },
        { field: 'booking_date', before: null, after: '2026-11-24' },
        { field: 'booking_time_slot_start', before: null, after: '10:00' },
        { field: 'payment_status', before: null, after: 'BLOCKED' },
      ],
    },
    {
      id: 1,
      at: '2026-11-22T12:00:00.000Z',
      admin_id: null,
      admin_username: null,
      actor: 'cli',
      by: 'Command line',
      action: 'admin_user.password_change',
      entity_type: 'admin_user',
      entity_id: '2',
      changes: [],
    },
  ],
};

describe('Audit Log', () => {
  it('shows who did it and each changed field as before → after, a creation by its values, at 1280 px', async () => {
    signIn(true);
    mockFetch({ 'GET /api/admin/audit-log': page });
    render(<AuditLog />);
    const table = await screen.findByRole('region', { name: 'Audit entries table' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['When', 'Who', 'Action', 'Record', 'What changed']);
    const [, pay, block, cli] = within(table).getAllByRole('row');
    expect(within(pay!).getByText('desk')).toBeTruthy();
    expect(within(pay!).getByText('Recorded a payment')).toBeTruthy();
    expect(within(pay!).getByText('Booking 51')).toBeTruthy();
    const items = within(pay!)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual(['Payment status: PENDING → changed to COMPLETED', 'Paid by: CASH', 'Paid: ₹1,800.00']);
    expect(
      within(block!)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Therapist: 2', 'Date: Tue, Nov 24, 2026', 'Time: 10:00 AM', 'Payment status: BLOCKED']);
    expect(within(cli!).getByText('Command line')).toBeTruthy();
    expect(within(cli!).getByText('Password changed (never recorded)')).toBeTruthy();
    // No raw database rows.
    expect(table.textContent).not.toMatch(/payment_status|\{|amount_paise/);
  });

  it('on a phone each entry is a card: action, record, who and when, then what changed', async () => {
    signIn(true);
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
    mockFetch({ 'GET /api/admin/audit-log': page });
    render(<AuditLog />);
    const cards = await screen.findByRole('list', { name: 'Audit entries' });
    const first = within(cards).getAllByRole('listitem')[0]!;
    expect(first.querySelector('.adm-audit-card__head')!.textContent).toBe('Recorded a payment · Booking 51');
    expect(first.querySelector('.adm-audit-card__who')!.textContent).toMatch(/^desk, /);
    expect(within(first).getByText('PENDING')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
