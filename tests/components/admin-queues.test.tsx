/**
 * /admin/queues typed or bookmarked (issue 19, item 19): the server sends a browser without the
 * board's cookie to /admin/open-queues, where the panel makes the cookie and goes back to the board.
 * "Access denied" has a heading.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AdminApp from '../../site/src/islands/admin/AdminApp.tsx';
import Login from '../../site/src/islands/admin/Login.tsx';
import { adminNav, afterSignIn } from '../../site/src/lib/admin-nav.ts';
import { mockFetch, signIn } from './admin-helpers.tsx';

beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(adminNav, 'replace').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('opening the job queues by address', () => {
  it('a signed-in super admin gets the board’s cookie and is taken back to the board once the board takes it', async () => {
    signIn(true);
    const { calls } = mockFetch({ 'POST /api/admin/queues-session': { url: '/admin/queues' }, 'GET /admin/queues/api/queues': { queues: [] } });
    render(<AdminApp route="queues" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Job Queues' })).toBeTruthy();
    await waitFor(() => expect(adminNav.replace).toHaveBeenCalledWith('/admin/queues'));
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(['POST /api/admin/queues-session', 'GET /admin/queues/api/queues']);
    expect((calls[0]!.init!.headers as Record<string, string>).Authorization).toBe('Bearer test-token');
    // The check goes as the board's page will: with the cookie, not the token.
    expect((calls[1]!.init!.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('a browser that did not keep the cookie is told so instead of going round', async () => {
    signIn(true);
    mockFetch({
      'POST /api/admin/queues-session': { url: '/admin/queues' },
      'GET /admin/queues/api/queues': [401, { detail: 'Unauthorized. Please log in again.' }],
    });
    render(<AdminApp route="queues" />);
    expect(await screen.findByText(/did not accept the sign-in/)).toBeTruthy();
    expect(adminNav.replace).not.toHaveBeenCalled();
  });

  it('signed out, it asks to sign in and comes back afterwards', async () => {
    render(<AdminApp route="queues" />);
    expect(adminNav.replace).toHaveBeenCalledWith('/admin/login?next=%2Fadmin%2Fopen-queues');
    cleanup();
    window.history.replaceState(null, '', '/admin/login?next=%2Fadmin%2Fopen-queues');
    mockFetch({
      'POST /api/admin/login': { access_token: 't', token_type: 'bearer', username: 'owner', is_superadmin: true, is_admin: true, is_active: true },
    });
    render(<Login />);
    fireEvent.change(screen.getByLabelText('Email / Username'), { target: { value: 'owner' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(adminNav.replace).toHaveBeenCalledWith('/admin/open-queues'));
  });

  it('only the panel’s own pages are followed after signing in', () => {
    expect(afterSignIn('?next=%2Fadmin%2Fopen-queues')).toBe('/admin/open-queues');
    expect(afterSignIn('?next=%2Fadmin%2Fcalendar')).toBe('/admin/calendar');
    for (const bad of ['?next=https%3A%2F%2Fevil.example', '?next=%2F%2Fevil.example', '?next=%2Fadmin%2Flogin', '?next=javascript%3Aalert(1)', '']) {
      expect(afterSignIn(bad)).toBe('/admin/dashboard');
    }
  });

  it('a plain admin gets "Access denied" as the page’s heading, and no cookie', async () => {
    signIn(false);
    const { fn } = mockFetch({});
    render(<AdminApp route="queues" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Access denied' })).toBeTruthy();
    expect(screen.getByText('Only super admins may view this page.')).toBeTruthy();
    expect(fn).not.toHaveBeenCalled();
  });

  it('every refused page has "Access denied" as its first-level heading', async () => {
    signIn(false);
    render(<AdminApp route="income" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Access denied' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' }).getAttribute('href')).toBe('/admin/dashboard');
  });
});
