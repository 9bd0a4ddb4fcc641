import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import PaymentsAttention from '../../site/src/islands/admin/PaymentsAttention.tsx';
import RefundsDue from '../../site/src/islands/admin/RefundsDue.tsx';
import { mockFetch, signIn } from './admin-helpers.tsx';

/**
 * Issue 31, items 4 and 5 in the panel: "Refunds due at the counter" (every admin) with Record refund,
 * and the refund requests on the owner's "Payments needing attention" with Approve and Decline.
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const dueItem = (over: Record<string, unknown> = {}) => ({
  id: 11,
  booking_id: 61,
  client_full_name: 'Arjun Rao',
  client_mobile: '9876543210',
  therapist_name: 'Dr. Rohan Kapoor',
  booking_date: '2026-11-26',
  booking_time_slot_start: '10:00',
  amount: 1800,
  paid_by: ['UPI'],
  reason: 'Cancelled by the client',
  requested_by: 'CLIENT',
  requested_by_username: null,
  requested_at: '2026-11-23T04:10:00.000Z',
  ...over,
});
const bodyOf = (c: { init: RequestInit | undefined }) => JSON.parse(String(c.init!.body));
const posts = (calls: ReturnType<typeof mockFetch>['calls']) => calls.filter((c) => c.method === 'POST');

describe('Refunds due at the counter', () => {
  function routes(answer: (body: unknown) => unknown) {
    let items = [
      dueItem(),
      dueItem({
        id: 12,
        booking_id: 62,
        client_full_name: 'Kavya Iyer',
        amount: 500,
        paid_by: ['CASH'],
        requested_by: 'ADMIN',
        requested_by_username: 'owner',
        reason: 'Late: part refunded',
      }),
    ];
    return mockFetch({
      'GET /api/admin/refunds/due': () => ({ items, total_due: items.reduce((n, i) => n + i.amount, 0) }),
      'POST /api/admin/bookings/61/record-refund': (_url: URL, init: RequestInit | undefined) => {
        const out = answer(JSON.parse(String(init!.body)));
        if (!Array.isArray(out)) items = items.slice(1);
        return out;
      },
    });
  }
  const section = () => screen.findByRole('region', { name: 'Refunds due at the counter' });

  it('lists each refund with the booking, the client to call, the session, the amount and who asked when', async () => {
    signIn(false);
    routes(() => ({}));
    render(<RefundsDue />);
    const s = await section();
    const list = await within(s).findByRole('list', { name: 'Refunds due at the counter' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('₹1,800.00 to Arjun Rao')).toBeTruthy();
    expect(within(items[0]!).getByText(/Booking 61 · Dr. Rohan Kapoor/)).toBeTruthy();
    expect(within(items[0]!).getByRole('link', { name: '9876543210' }).getAttribute('href')).toBe('tel:9876543210');
    expect(within(items[0]!).getByText(/Paid by UPI/)).toBeTruthy();
    expect(within(items[0]!).getByText('the client (Manage booking)')).toBeTruthy();
    expect(within(items[0]!).getByText('Mon, Nov 23, 2026 at 9:40 AM')).toBeTruthy();
    expect(within(items[1]!).getByText('owner')).toBeTruthy();
    expect(within(items[1]!).getByText('Late: part refunded')).toBeTruthy();
    expect(within(s).getByText('2 open')).toBeTruthy();
  });

  it('Record refund asks how and how much (the way it was paid, all that is due), sends it, says so in green and reloads', async () => {
    signIn(false);
    const { calls } = routes(() => ({
      booking_id: 61,
      amount: 1800,
      method: 'UPI',
      still_due: 0,
      message: 'Refund of ₹1,800.00 handed back for booking 61 recorded successfully.',
    }));
    render(<RefundsDue />);
    const s = await section();
    fireEvent.click(await within(s).findByRole('button', { name: 'Record refund for booking 61' }));
    const dialog = screen.getByRole('dialog', { name: 'Record refund for booking 61' });
    const method = within(dialog).getByLabelText('Handed back by') as HTMLSelectElement;
    expect(method.value).toBe('UPI');
    expect([...method.options].map((o) => o.textContent)).toEqual(['Cash', 'Card', 'UPI', 'Bank transfer']);
    const amount = within(dialog).getByLabelText('Amount handed back (₹)') as HTMLInputElement;
    expect(amount.value).toBe('1800');
    // Never more than is due, nor a bad amount: nothing is sent.
    for (const bad of ['', '0', '1800.01', 'abc']) {
      fireEvent.change(amount, { target: { value: bad } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Record refund' }));
      expect(within(dialog).getByText('Enter an amount more than ₹0 and at most ₹1,800.00, with at most two decimals.')).toBeTruthy();
      expect(amount.getAttribute('aria-invalid')).toBe('true');
    }
    expect(posts(calls)).toHaveLength(0);
    fireEvent.change(amount, { target: { value: '1800' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record refund' }));
    const msg = await within(s).findByText('Refund of ₹1,800.00 handed back for booking 61 recorded successfully.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    // All that is due: the amount is left to the server.
    expect(bodyOf(posts(calls)[0]!)).toEqual({ method: 'UPI' });
    await waitFor(() => expect(within(s).queryByRole('button', { name: 'Record refund for booking 61' })).toBeNull());
    expect(within(s).getByText('1 open')).toBeTruthy();
  });

  it('a part, by another method, is sent as typed; a refusal is shown in red; Cancel sends nothing', async () => {
    signIn(false);
    const { calls } = routes(() => [409, { detail: 'Nothing is due to be handed back at the counter for booking 61.' }]);
    render(<RefundsDue />);
    const s = await section();
    fireEvent.click(await within(s).findByRole('button', { name: 'Record refund for booking 61' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posts(calls)).toHaveLength(0);
    fireEvent.click(within(s).getByRole('button', { name: 'Record refund for booking 61' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Handed back by'), { target: { value: 'CASH' } });
    fireEvent.change(within(dialog).getByLabelText('Amount handed back (₹)'), { target: { value: '800.50' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record refund' }));
    const msg = await within(s).findByText('Failed to record the refund for booking 61: Nothing is due to be handed back at the counter for booking 61.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--error');
    expect(bodyOf(posts(calls)[0]!)).toEqual({ method: 'CASH', amount: 800.5 });
  });

  it('says when nothing is due', async () => {
    signIn(false);
    mockFetch({ 'GET /api/admin/refunds/due': { items: [], total_due: 0 } });
    render(<RefundsDue />);
    const s = await section();
    expect(await within(s).findByText('No refunds are due at the counter.')).toBeTruthy();
  });
});

describe('refund requests on Payments needing attention', () => {
  const request = (over: Record<string, unknown> = {}) => ({
    id: 21,
    booking_id: 71,
    client_full_name: 'Meera Pillai',
    therapist_name: 'Dr. Rohan Kapoor',
    booking_date: '2026-11-27',
    booking_time_slot_start: '10:00',
    amount: 1800,
    held: 1800,
    held_at_counter: 1800,
    reason: 'Client is unwell',
    requested_by_username: 'desk',
    requested_at: '2026-11-23T04:10:00.000Z',
    status: 'OPEN',
    resolved_at: null,
    resolved_by: null,
    resolution: null,
    ...over,
  });
  function routes(answers: { approve?: () => unknown; decline?: () => unknown }) {
    let decided: Record<string, unknown> | null = null;
    return mockFetch({
      'GET /api/admin/payments/attention': () => ({
        open: [],
        recently_resolved: [],
        refund_requests: decided ? { open: [], recently_decided: [decided] } : { open: [request()], recently_decided: [] },
      }),
      'POST /api/admin/refund-requests/21/approve': () => {
        const out = answers.approve!();
        if (!Array.isArray(out))
          decided = request({
            status: 'APPROVED',
            resolved_by: 'owner',
            resolved_at: '2026-11-23T06:00:00.000Z',
            resolution: 'Full refund. ₹1,800.00 to hand back at the counter.',
          });
        return out;
      },
      'POST /api/admin/refund-requests/21/decline': () => {
        const out = answers.decline!();
        if (!Array.isArray(out))
          decided = request({ status: 'DECLINED', resolved_by: 'owner', resolved_at: '2026-11-23T06:00:00.000Z', resolution: 'As the terms say' });
        return out;
      },
    });
  }
  const section = () => screen.findByRole('region', { name: 'Payments needing attention' });

  it('shows the request in words: the booking, the reason, who asked, and what is held (at the counter)', async () => {
    signIn(true);
    routes({});
    render(<PaymentsAttention />);
    const s = await section();
    const list = await within(s).findByRole('list', { name: 'Refund requests' });
    const [item] = within(list).getAllByRole('listitem');
    expect(within(item!).getByText('Refund of ₹1,800.00 asked for Meera Pillai')).toBeTruthy();
    expect(within(item!).getByText('Reason: Client is unwell')).toBeTruthy();
    expect(within(item!).getByText('desk')).toBeTruthy();
    expect(within(item!).getByText('₹1,800.00 (₹1,800.00 paid at the counter, handed back at the desk)')).toBeTruthy();
    expect(within(s).getByText('1 open')).toBeTruthy();
  });

  it('Approve: full or partial (at most what is held), sent as chosen, said in green; the decided request listed beneath', async () => {
    signIn(true);
    const { calls } = routes({
      approve: () => ({
        item: request({ status: 'APPROVED', resolved_by: 'owner', resolved_at: '2026-11-23T06:00:00.000Z', resolution: 'Partial refund of ₹600.50.' }),
        refund: { status: 'processed', amount: 600.5 },
        message: 'Refund request 21 approved successfully: ₹600.50 refunded.',
      }),
    });
    render(<PaymentsAttention />);
    const s = await section();
    fireEvent.click(await within(s).findByRole('button', { name: 'Approve refund request 21' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve refund request 21' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve refund' }));
    expect(within(dialog).getByText('Choose a full or a partial refund.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Partial refund' }));
    const amount = within(dialog).getByLabelText('Refund amount (₹)') as HTMLInputElement;
    fireEvent.change(amount, { target: { value: '1800.01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve refund' }));
    expect(within(dialog).getByText('Enter an amount more than ₹0 and at most ₹1,800.00, with at most two decimals.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
    fireEvent.change(amount, { target: { value: '600.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve refund of ₹600.50' }));
    const msg = await within(s).findByText('Refund request 21 approved successfully: ₹600.50 refunded.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    expect(bodyOf(posts(calls)[0]!)).toEqual({ refund: 'PARTIAL', amount: 600.5 });
    const decided = await within(s).findByRole('list', { name: 'Refund requests decided in the last 7 days' });
    expect(within(decided).getByText('Approved')).toBeTruthy();
    expect(within(decided).getByText(/Full refund. ₹1,800.00 to hand back at the counter./)).toBeTruthy();
    expect(within(s).queryByRole('button', { name: 'Approve refund request 21' })).toBeNull();
  });

  it('Decline needs the reason (told to the client), sends it trimmed; a refusal (decided meanwhile) is red', async () => {
    signIn(true);
    const { calls } = routes({ decline: () => [409, { detail: 'Refund request 21 has already been approved; nothing was changed.' }] });
    render(<PaymentsAttention />);
    const s = await section();
    fireEvent.click(await within(s).findByRole('button', { name: 'Decline refund request 21' }));
    const dialog = screen.getByRole('dialog', { name: 'Decline refund request 21' });
    const reason = within(dialog).getByLabelText('Why is the refund declined?') as HTMLTextAreaElement;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline refund' }));
    expect(within(dialog).getByText('Please give the reason: the client is told it.')).toBeTruthy();
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(reason);
    expect(posts(calls)).toHaveLength(0);
    fireEvent.change(reason, { target: { value: '  As the terms say  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline refund' }));
    const msg = await within(s).findByText('Failed to decline refund request 21: Refund request 21 has already been approved; nothing was changed.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--error');
    expect(bodyOf(posts(calls)[0]!)).toEqual({ reason: 'As the terms say' });
  });
});
