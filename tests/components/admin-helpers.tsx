import { vi } from 'vitest';
import { saveSession } from '../../site/src/stores/admin-session.ts';

type Handler = (url: URL, init: RequestInit | undefined) => unknown;

/** Mocks fetch with a table of 'METHOD /path' → JSON body (or [status, body]). */
export function mockFetch(routes: Record<string, Handler | unknown>) {
  const calls: { method: string; url: URL; init: RequestInit | undefined }[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    calls.push({ method, url, init });
    const route = routes[`${method} ${url.pathname}`];
    if (route === undefined) return new Response(JSON.stringify({ detail: 'Not found.' }), { status: 404 });
    let out = typeof route === 'function' ? (route as Handler)(url, init) : route;
    let status = 200;
    if (Array.isArray(out) && out.length === 2 && typeof out[0] === 'number') [status, out] = out as [number, unknown];
    return new Response(JSON.stringify(out), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, calls };
}

export function signIn(superadmin = true) {
  saveSession('test-token', { username: superadmin ? 'owner' : 'staff', is_superadmin: superadmin, is_admin: true, is_active: true });
}

export function booking(over: Record<string, unknown> = {}) {
  return {
    id: 1,
    booking_date: '2026-11-24',
    booking_time_slot_start: '10:00:00',
    client_full_name: 'Meera Pillai',
    client_email: 'meera@example.com',
    client_mobile: '9876543210',
    therapist_id: 1,
    therapist_name: 'Dr. Asha Mehta',
    booking_type: 'ONLINE',
    payment_status: 'COMPLETED',
    payment_link_url: null,
    payment_transaction_id: 'tx-1',
    amount: 1500,
    cancelled: false,
    google_meet_link: 'https://meet.google.com/abc-defg-hij',
    location_id: null,
    location_name: null,
    location_address: null,
    client_note: 'First session',
    ...over,
  };
}
