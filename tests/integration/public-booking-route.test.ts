import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECURITY_POLICY, securityHeaderList } from '../../api/src/middleware/security-headers.ts';
import { parseConfig } from '../../shared/core/config.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';

/**
 * POST /confirm-booking through the app's one front door: Express's routers, express.json (the app's
 * one JSON body limit) and the error handler, as every route. Until issue 33 a second reader answered
 * plain JSON bookings ahead of Express; these are the answers, statuses, words and headers it was held
 * to, now held by the route alone. Each body goes both with its length and chunked (no Content-Length),
 * which must not change the answer.
 */

let database: TestDatabase;
let server: http.Server;
let base: string;
let lines: Record<string, any>[];
const clock = fixedClock(MONDAY_MORNING_IST);
// The hold limits on, as a centre runs: their refusal is one of the answers below.
const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', HOLDS_PER_CLIENT: '1', HOLDS_PER_IP: '0' });

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  lines = [];
  const logger = createLogger({ level: 'info', name: 'api' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  server = http.createServer(testApp(database, { now: clock.now, config, logger })).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await database.drop();
});

type Answer = { status: number; headers: Record<string, unknown>; text: string };

/** The body sent chunked (no Content-Length). */
function chunked(body: string, headers: Record<string, string> = {}, path = '/confirm-booking'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.write(body);
    req.end();
  });
}

/** The body sent with its Content-Length. */
async function withLength(body: string, headers: Record<string, string> = {}, path = '/confirm-booking'): Promise<Answer> {
  const res = await request(base)
    .post(path)
    .set({ 'content-type': 'application/json', ...headers })
    .send(body);
  return { status: res.status, headers: res.headers, text: res.text };
}

/** The headers that differ between any two answers (and, for two bookings, the length and ETag of their bodies). */
const headersBut = ({ headers }: Answer) => {
  const {
    date: _date,
    'x-request-id': _id,
    etag: _etag,
    'content-length': _length,
    connection: _c,
    'keep-alive': _k,
    'transfer-encoding': _t,
    ...rest
  } = headers;
  return rest;
};
const json = (o: unknown) => JSON.stringify(o);

/** Every answer's security headers, as the securityHeaders middleware sets them (lower-cased, as Node reads them). */
const SECURITY = Object.fromEntries(securityHeaderList(SECURITY_POLICY).headers.map(([name, value]) => [name.toLowerCase(), value]));
/** The headers of every JSON answer of the route, a booking or a refusal. */
const JSON_ANSWER = { ...SECURITY, 'content-type': 'application/json; charset=utf-8', vary: 'Accept-Encoding' };

describe('a public booking through the routes', () => {
  it('books with a 200, the booking token and no-store, whichever way the body comes', async () => {
    const a = await withLength(json(offlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '10:00' })));
    const b = await chunked(json(offlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '11:00' })));
    expect([a.status, b.status]).toEqual([200, 200]);
    // The answer carries the client's booking token: no cache may keep it (issue 32).
    expect(headersBut(a)).toEqual({ ...JSON_ANSWER, 'cache-control': 'no-store' });
    expect(headersBut(b)).toEqual(headersBut(a));
    expect(a.headers['content-length']).toBe(String(Buffer.byteLength(a.text)));
    const [ra, rb] = [JSON.parse(a.text), JSON.parse(b.text)];
    expect(Object.keys(ra)).toEqual(['booking_id', 'message', 'booking_token']);
    expect(Object.keys(rb)).toEqual(Object.keys(ra));
    expect([ra.message, rb.message]).toEqual(['Booking created successfully.', 'Booking created successfully.']);
    expect(ra.booking_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rb.booking_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rb.booking_id).toBe(ra.booking_id + 1);
  });

  it('refuses in the spec’s words, with the same status and headers either way', async () => {
    await withLength(
      json(
        onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '10:00', client_email: 'first.hold@example.com', client_mobile: '9811111111' }),
      ),
    );
    const NOT_JSON = { detail: 'The request body is not valid JSON.' };
    const NOT_AN_OBJECT = { detail: 'Send the booking as a JSON object (Content-Type: application/json).' };
    const NUL = { detail: 'The request contains a character that is not allowed (NUL or a broken UTF-16 surrogate).' };
    const NO_THERAPIST = { detail: 'The selected therapist does not exist.', errors: { therapist_id: 'The selected therapist does not exist.' } };
    const cases: [string, string, Record<string, string>, number, unknown, Record<string, string>?][] = [
      [
        'slot taken',
        json(onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '10:00', client_email: 'other@example.com', client_mobile: '9822222222' })),
        {},
        409,
        { detail: 'This time slot has just been booked. Please choose another.' },
      ],
      [
        'hold limit',
        json(
          onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '11:00', client_email: 'first.hold@example.com', client_mobile: '9811111111' }),
        ),
        {},
        429,
        {
          detail: 'You already have 1 booking waiting for payment. Please complete that payment, or try again within 20 minutes, when a hold has ended.',
        },
        // When the hold ends: the client's one hold was asked for at the same (fixed) instant.
        { 'retry-after': '1200' },
      ],
      [
        'missing field',
        json({ ...onlineBooking(), client_full_name: undefined }),
        {},
        400,
        { detail: 'Full name is required', errors: { client_full_name: 'Full name is required' } },
      ],
      ['bad value', json(onlineBooking({ client_age: 'old' as never })), {}, 400, { detail: 'Age is required', errors: { client_age: 'Age is required' } }],
      ['unknown therapist', json(onlineBooking({ therapist_id: 999 })), {}, 400, NO_THERAPIST],
      ['malformed JSON', '{"therapist_id": 1,', {}, 400, NOT_JSON],
      ['not strict JSON', '"a string"', {}, 400, NOT_JSON],
      ['an array', '[1, 2]', {}, 400, NOT_AN_OBJECT],
      ['a NUL', json(onlineBooking({ client_note: 'a\u0000b' })), {}, 400, NUL],
      ['a lone surrogate', '{"client_note": "\\ud800"}', {}, 400, NUL],
      ['charset given', json(onlineBooking({ therapist_id: 999 })), { 'content-type': 'application/json; charset=UTF-8' }, 400, NO_THERAPIST],
      ['a byte order mark', `\ufeff${json(onlineBooking({ therapist_id: 999 }))}`, {}, 400, NO_THERAPIST],
      [
        'another charset',
        json(onlineBooking({ therapist_id: 999 })),
        { 'content-type': 'application/json; charset=latin1' },
        415,
        { detail: 'Unsupported request encoding.' },
      ],
      ['not JSON at all', json(onlineBooking({ therapist_id: 999 })), { 'content-type': 'text/plain' }, 400, NOT_AN_OBJECT],
      ['too large', json({ client_note: 'x'.repeat(40_000) }), {}, 413, { detail: 'The request body is too large.' }],
    ];
    for (const [label, body, headers, status, answer, extra] of cases) {
      const [a, b] = [await withLength(body, headers), await chunked(body, headers)];
      expect({ label, status: a.status, answer: JSON.parse(a.text) }).toEqual({ label, status, answer });
      expect({ label, status: b.status, text: b.text }).toEqual({ label, status: a.status, text: a.text });
      expect({ label, headers: headersBut(a) }).toEqual({ label, headers: { ...JSON_ANSWER, ...extra } });
      expect({ label, headers: headersBut(b) }).toEqual({ label, headers: headersBut(a) });
    }
  });

  it('reads its body within the app’s one JSON limit, 32 KiB', async () => {
    const within = json({ client_note: 'x'.repeat(32 * 1024 - 18) });
    const over = json({ client_note: 'x'.repeat(32 * 1024 - 17) });
    expect([Buffer.byteLength(within), Buffer.byteLength(over)]).toEqual([32 * 1024, 32 * 1024 + 1]);
    expect((await withLength(within)).status).toBe(400);
    expect(JSON.parse((await withLength(over)).text)).toEqual({ detail: 'The request body is too large.' });
    expect((await chunked(over)).status).toBe(413);
  });

  it('answers a form, a query, a trailing slash, a GET and a manual booking as the routes always have', async () => {
    const body = json(onlineBooking({ therapist_id: 999 }));
    const form = await request(base).post('/confirm-booking').type('form').send({ therapist_id: '1' });
    expect([form.status, form.body.detail]).toEqual([400, 'Therapist is required']);
    // Express's routing: a query and a trailing slash are the same route.
    for (const path of ['/confirm-booking?x=1', '/confirm-booking/']) {
      const a = await withLength(body, {}, path);
      expect([path, a.status, JSON.parse(a.text).detail]).toEqual([path, 400, 'The selected therapist does not exist.']);
    }
    const get = await request(base).get('/confirm-booking');
    expect([get.status, get.body]).toEqual([404, { detail: 'Not found.' }]);
    // A manual booking (admin fields) is the admin router's, which asks for a session.
    const manual = await withLength(json({ ...offlineBooking(), admin_confirmed: true }));
    expect([manual.status, JSON.parse(manual.text)]).toEqual([401, { detail: 'Unauthorized. Please log in again.' }]);
  });

  it('tags its answer with the request id and logs it like any other request, without the body', async () => {
    lines.length = 0;
    const res = await request(base)
      .post('/confirm-booking')
      .set({ 'content-type': 'application/json', 'x-request-id': 'trace-0003-xyz' })
      .send(json(onlineBooking({ therapist_id: 999, client_email: 'private.person@example.com' })));
    expect(res.headers['x-request-id']).toBe('trace-0003-xyz');
    await vi.waitFor(() => expect(lines.filter((l) => l.msg === 'request completed')).toHaveLength(1));
    const line = lines.find((l) => l.msg === 'request completed')!;
    expect([line.level, line.req, line.res]).toEqual([40, { id: 'trace-0003-xyz', method: 'POST', url: '/confirm-booking' }, { statusCode: res.status }]);
    expect(JSON.stringify(lines)).not.toContain('private.person');
  });
});
