/**
 * The site's one API client (site/src/lib/api.ts): what it sends, how it reads the server's answers
 * and refusals, and that its types are the route table's (the @ts-expect-error lines fail the
 * typecheck if a call the table does not allow compiles).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_MESSAGES } from '../../shared/contract/messages.ts';
import { ApiError, apiClient, NO_TOKEN_MESSAGE } from '../../site/src/lib/api.ts';

type Sent = { url: string; init: RequestInit };

function answering(res: () => Response): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return res();
    }),
  );
  return sent;
}
const json =
  (body: unknown, status = 200) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the API client', () => {
  it('fills the path, writes the query (lists comma-separated, unset and empty ones left out) and answers the JSON', async () => {
    const sent = answering(json({ page: 1, page_size: 10, total: 0, items: [] }));
    const api = apiClient();
    const answer = await api.call('get', '/api/admin/bookings', {
      query: { from: '2026-11-01', status: ['COMPLETED', 'PENDING'], therapist_id: undefined, page: 1 },
    });
    expect(answer).toEqual({ page: 1, page_size: 10, total: 0, items: [] });
    expect(sent[0]!.url).toBe('/api/admin/bookings?from=2026-11-01&status=COMPLETED%2CPENDING&page=1');
    await api.call('get', '/api/admin/bookings', { query: { status: [] } });
    expect(sent[1]!.url).toBe('/api/admin/bookings');
    await api.call('post', '/api/manage/{token}/cancel', { params: { token: 'a/b' } });
    expect(sent[2]).toMatchObject({ url: '/api/manage/a%2Fb/cancel', init: { method: 'POST', body: undefined } });
  });

  it('sends a JSON body, a form, or a file as it is', async () => {
    const sent = answering(json({}));
    const api = apiClient();
    await api.call('post', '/api/admin/holidays', { body: { date: '2026-12-25', reason: 'Christmas' } });
    await api.call('post', '/api/admin/login', { body: { username: 'owner', password: 'p w' }, form: true });
    await api.call('put', '/api/admin/locations/{id}/photo', { params: { id: 2 }, body: new Blob(['x'], { type: 'image/png' }) });
    expect(sent.map((s) => (s.init.headers as Record<string, string>)['Content-Type'])).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'image/png',
    ]);
    expect(sent[0]!.init.body).toBe('{"date":"2026-12-25","reason":"Christmas"}');
    expect(sent[1]!.init.body).toBe('username=owner&password=p+w');
  });

  it("throws one ApiError: the server's detail and field messages, else the status", async () => {
    answering(json({ detail: 'Please fix the form.', errors: { date: 'date must be a real date' } }, 400));
    const refused = await apiClient()
      .call('post', '/api/admin/holidays', { body: { date: 'x' } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, message: 'Please fix the form.', fields: { date: 'date must be a real date' } });
    answering(() => new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    await expect(apiClient().call('get', '/locations')).rejects.toMatchObject({ status: 502, message: 'HTTP error! status: 502' });
  });

  it("as a session: the bearer token on every call, none without one, and a 401 ends the session with the spec's words", async () => {
    const sent = answering(json([]));
    const end = vi.fn();
    let token: string | null = 'tok';
    const admin = apiClient({ token: () => token, end, refusedMessage: API_MESSAGES.unauthorized });
    await admin.call('get', '/api/admin/therapists');
    expect((sent[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    answering(json({ detail: 'Token expired' }, 401));
    await expect(admin.call('get', '/api/admin/therapists')).rejects.toMatchObject({ status: 401, message: API_MESSAGES.unauthorized });
    expect(end).toHaveBeenCalledTimes(1);
    token = null;
    await expect(admin.call('get', '/api/admin/therapists')).rejects.toMatchObject({ status: 401, message: NO_TOKEN_MESSAGE });
    // Without a session a 401 is an answer like any other (a wrong password at the login).
    answering(json({ detail: 'Incorrect username or password' }, 401));
    await expect(apiClient().call('post', '/api/admin/login', { body: { username: 'a', password: 'b' } })).rejects.toMatchObject({
      message: 'Incorrect username or password',
    });
  });

  it('downloads a file with the name the server gave it', async () => {
    answering(() => new Response(new Blob(['PK']), { headers: { 'Content-Disposition': 'attachment; filename="EOD_Report_2026-11-24.xlsx"' } }));
    const file = await apiClient().download('/api/admin/reports/eod.xlsx', { query: { report_date: '2026-11-24' } });
    expect(file.fileName).toBe('EOD_Report_2026-11-24.xlsx');
    expect(await file.blob.text()).toBe('PK');
  });

  it('takes its types from the route table, never its code (no zod in the browser)', () => {
    const api = apiClient();
    const typeOnly = (call: () => unknown) => expect(typeof call).toBe('function');
    // @ts-expect-error a call the route table does not list
    typeOnly(() => api.call('get', '/api/nothing-here'));
    // @ts-expect-error a body the route's schema refuses (date is a string)
    typeOnly(() => api.call('post', '/api/admin/holidays', { body: { date: 5 } }));
    // @ts-expect-error a path parameter left out
    typeOnly(() => api.call('get', '/api/manage/{token}'));
    // @ts-expect-error a body on a call that takes none
    typeOnly(() => api.call('post', '/api/admin/bookings/{id}/send-payment-link', { params: { id: 1 }, body: {} }));
    for (const file of ['site/src/lib/api.ts', 'site/src/lib/admin-api.ts']) {
      const source = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      const imports = [...source.matchAll(/^import (type )?[^;]*? from '([^']+)';$/gms)];
      expect(imports.length).toBeGreaterThan(0);
      for (const [, type, from] of imports) if (from === 'zod' || from!.endsWith('/routes.ts')) expect(type, `${file} imports ${from}`).toBe('type ');
    }
  });
});
