import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Dashboard from '../../site/src/islands/admin/Dashboard.tsx';
import JobFailures from '../../site/src/islands/admin/JobFailures.tsx';
import { bookingsServer, mockFetch, signIn } from './admin-helpers.tsx';

/** "Jobs that failed" on the dashboard: every admin sees what failed for good, and marks it resolved. */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const failure = (over: Record<string, unknown> = {}) => ({
  id: 3,
  queue: 'meetings',
  job_name: 'meetings.create',
  job_id: 'meeting.123',
  booking_id: 123,
  summary: 'Meeting link failed for booking 123',
  failed_at: '2026-11-23T04:10:00.000Z',
  attempts: 8,
  resolved_at: null,
  resolved_by: null,
  ...over,
});
const open = [
  failure(),
  failure({
    id: 4,
    queue: 'mail',
    job_name: 'mail.booking-confirmation',
    job_id: 'mail-confirmation.124.client',
    booking_id: 124,
    summary: 'Confirmation e-mail to the client failed for booking 124',
    attempts: 1,
  }),
];
const resolvedByRetry = failure({
  id: 2,
  job_id: 'meeting.99',
  booking_id: 99,
  summary: 'Meeting link failed for booking 99',
  resolved_at: '2026-11-23T05:00:00.000Z',
});

function routes(answer: () => unknown) {
  let resolved = false;
  return mockFetch({
    'GET /api/admin/job-failures': () =>
      resolved
        ? {
            page: 1,
            page_size: 10,
            total: 3,
            open: 1,
            items: [open[1], { ...open[0], resolved_at: '2026-11-23T06:00:00.000Z', resolved_by: 'staff' }, resolvedByRetry],
          }
        : { page: 1, page_size: 10, total: 3, open: 2, items: [...open, resolvedByRetry] },
    'POST /api/admin/job-failures/3/resolve': () => {
      const out = answer();
      if (!Array.isArray(out)) resolved = true;
      return out;
    },
  });
}
const section = async () => (await screen.findByRole('heading', { name: 'Jobs that failed' })).closest('section') as HTMLElement;

describe('Jobs that failed', () => {
  it('says what failed for which booking, when, after how many tries, open ones first', async () => {
    signIn(false);
    routes(() => ({}));
    render(<JobFailures />);
    const s = await section();
    const list = await within(s).findByRole('list', { name: 'Open failed jobs' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.adm-attn__what')!.textContent)).toEqual([
      'Meeting link failed for booking 123',
      'Confirmation e-mail to the client failed for booking 124',
    ]);
    // 04:10 UTC is 9:40 at the centre.
    expect(within(items[0]!).getByText('Mon, Nov 23, 2026 at 9:40 AM')).toBeTruthy();
    expect(within(items[0]!).getByText('8 attempts')).toBeTruthy();
    expect(within(items[1]!).getByText('1 attempt')).toBeTruthy();
    expect(within(items[0]!).getByText('meetings · meeting.123')).toBeTruthy();
    expect(within(s).getByText('2 open')).toBeTruthy();
    // A plain admin is told who can retry; the queues are a super admin's.
    expect(within(s).getByText(/A super admin can retry a failed job in Job Queues/)).toBeTruthy();
    expect(within(s).queryByRole('link', { name: 'Job Queues' })).toBeNull();
    const resolved = within(s).getByRole('list', { name: 'Failed jobs resolved' });
    expect(within(resolved).getByText('Meeting link failed for booking 99')).toBeTruthy();
    expect(within(resolved).getByText(/a later retry succeeded/)).toBeTruthy();
    expect(within(resolved).queryByRole('button')).toBeNull();
  });

  it('a super admin is pointed to Job Queues to retry', async () => {
    signIn(true);
    routes(() => ({}));
    render(<JobFailures />);
    const s = await section();
    const link = await within(s).findByRole('link', { name: 'Job Queues' });
    expect(link.getAttribute('href')).toBe('/admin/open-queues');
  });

  it('Mark resolved says so beside the list and reloads it; a refusal is shown in red', async () => {
    signIn(false);
    const { calls } = routes(() => ({
      item: { ...open[0], resolved_at: '2026-11-23T06:00:00.000Z', resolved_by: 'staff' },
      message: 'Failed job 3 marked resolved successfully.',
    }));
    render(<JobFailures />);
    const s = await section();
    fireEvent.click(await within(s).findByRole('button', { name: 'Mark failed job 3 resolved' }));
    const msg = await within(s).findByText('Failed job 3 marked resolved successfully.');
    expect(msg.closest('.adm-notice')!.className).toContain('adm-notice--success');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/admin/job-failures/3/resolve');
    await waitFor(() => expect(within(s).queryByRole('button', { name: 'Mark failed job 3 resolved' })).toBeNull());
    expect(within(s).getByText('1 open')).toBeTruthy();
    expect(within(s).getByText(/by staff/)).toBeTruthy();
    cleanup();

    routes(() => [409, { detail: 'Failed job 3 is already resolved.' }]);
    render(<JobFailures />);
    const again = await section();
    fireEvent.click(await within(again).findByRole('button', { name: 'Mark failed job 3 resolved' }));
    const refused = await within(again).findByText('Failed job 3 is already resolved.');
    expect(refused.closest('.adm-notice')!.className).toContain('adm-notice--error');
  });

  it('says when no job has failed, and offers Retry when the list cannot load', async () => {
    signIn(false);
    mockFetch({ 'GET /api/admin/job-failures': { page: 1, page_size: 10, total: 0, open: 0, items: [] } });
    render(<JobFailures />);
    expect(await within(await section()).findByText('No job has failed.')).toBeTruthy();
    cleanup();

    let up = false;
    mockFetch({
      'GET /api/admin/job-failures': () => (up ? { page: 1, page_size: 10, total: 1, open: 1, items: [open[0]] } : [503, { detail: 'Service unavailable.' }]),
    });
    render(<JobFailures />);
    const s = await section();
    expect((await within(s).findByRole('alert')).textContent).toContain('Service unavailable.');
    up = true;
    fireEvent.click(within(s).getByRole('button', { name: 'Retry' }));
    expect(await within(s).findByText('Meeting link failed for booking 123')).toBeTruthy();
  });

  it('pages through the list', async () => {
    signIn(false);
    const { calls } = mockFetch({
      'GET /api/admin/job-failures': (url: URL) =>
        url.searchParams.get('page') === '2'
          ? { page: 2, page_size: 10, total: 11, open: 1, items: [resolvedByRetry] }
          : {
              page: 1,
              page_size: 10,
              total: 11,
              open: 1,
              items: [
                open[0],
                ...Array.from({ length: 9 }, (_, i) => failure({ id: 10 + i, job_id: `meeting.${i}`, resolved_at: '2026-11-23T05:00:00.000Z' })),
              ],
            },
    });
    render(<JobFailures />);
    const s = await section();
    fireEvent.click(await within(s).findByRole('button', { name: 'Next' }));
    expect(await within(s).findByText('Meeting link failed for booking 99')).toBeTruthy();
    expect(within(s).getByText('Page 2 of 2')).toBeTruthy();
    expect(calls.at(-1)!.url.search).toBe('?page=2&page_size=10');
  });

  it('is on the dashboard for a plain admin too', async () => {
    signIn(false);
    mockFetch({
      'GET /api/admin/therapists': [],
      'GET /api/admin/bookings': bookingsServer([]),
      'GET /api/admin/job-failures': { page: 1, page_size: 10, total: 1, open: 1, items: [open[0]] },
    });
    render(<Dashboard onLogout={() => {}} />);
    expect(await within(await section()).findByText('Meeting link failed for booking 123')).toBeTruthy();
  });
});
