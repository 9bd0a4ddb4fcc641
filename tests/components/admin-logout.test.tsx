import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AdminApp from '../../site/src/islands/admin/AdminApp.tsx';
import { adminApi } from '../../site/src/lib/admin-api.ts';
import { adminNav } from '../../site/src/lib/admin-nav.ts';
import { ADMIN_FLASH_KEY, ADMIN_TOKEN_KEY, ADMIN_USER_KEY } from '../../site/src/stores/admin-session.ts';
import { contractFetch, jsonResponse } from '../support/mock-contract.ts';
import { mockFetch, signIn } from './admin-helpers.tsx';

beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(adminNav, 'replace').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function expectSignedOutLocally() {
  expect(sessionStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull();
  expect(sessionStorage.getItem(ADMIN_USER_KEY)).toBeNull();
  expect(adminNav.replace).toHaveBeenCalledWith('/admin/login');
}

describe('Logout', () => {
  it('revokes the token on the server: POST /api/admin/logout with the bearer token', async () => {
    signIn(true);
    const { calls } = mockFetch({ 'GET /api/admin/search-clients': [], 'POST /api/admin/logout': { message: 'Signed out.' } });
    render(<AdminApp route="patients" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    const logout = calls.filter((c) => c.url.pathname === '/api/admin/logout');
    expect(logout).toHaveLength(1);
    expect(logout[0]!.method).toBe('POST');
    expect(new Headers(logout[0]!.init?.headers).get('Authorization')).toBe('Bearer test-token');
    // The request must outlive the page change to the login screen.
    expect(logout[0]!.init?.keepalive).toBe(true);
    expectSignedOutLocally();
  });

  it('signs out here even when the server cannot be reached', async () => {
    signIn(false);
    const logout = vi.spyOn(adminApi, 'logout');
    const fetch = vi.fn(
      contractFetch(async (input: RequestInfo | URL) => {
        if (String(input) === '/api/admin/logout') throw new TypeError('Failed to fetch');
        return jsonResponse([]);
      }),
    );
    vi.stubGlobal('fetch', fetch);
    render(<AdminApp route="patients" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(fetch).toHaveBeenCalledWith('/api/admin/logout', expect.objectContaining({ method: 'POST' }));
    expectSignedOutLocally();
    // The failed call is swallowed: the sign-out itself resolves.
    await expect(logout.mock.results[0]!.value).resolves.toBeUndefined();
  });

  it('a refused sign-out (token already dead) is not shown as "please log in again"', async () => {
    signIn(true);
    const logout = vi.spyOn(adminApi, 'logout');
    const { calls } = mockFetch({ 'GET /api/admin/search-clients': [], 'POST /api/admin/logout': [401, { detail: 'Unauthorized. Please log in again.' }] });
    render(<AdminApp route="patients" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(logout).toHaveBeenCalledWith('test-token');
    await expect(logout.mock.results[0]!.value).resolves.toBeUndefined();
    expect(calls.filter((c) => c.url.pathname === '/api/admin/logout')).toHaveLength(1);
    expectSignedOutLocally();
    expect(sessionStorage.getItem(ADMIN_FLASH_KEY)).toBeNull();
  });
});
