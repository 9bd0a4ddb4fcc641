import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearerAdminActor } from '../../api/src/middleware/auth.ts';
import { errorHandler } from '../../api/src/middleware/errors.ts';
import { earlyBookingErrors, earlyPublicBooking } from '../../api/src/routes/public-booking.ts';
import type { AppDeps } from '../../api/src/deps.ts';
import { parseConfig } from '../../shared/core/config.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { ReadCache } from '../../shared/core/services/read-cache.service.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';

/**
 * POST /confirm-booking answered ahead of the routers (earlyPublicBooking) against the same request
 * answered by the routes. The routes' answer is had by sending the body chunked, which the early
 * answer leaves to express.json; the early answer's by an app holding it alone, with a marker behind it
 * for whatever it passes on and the app's error handler.
 */

let database: TestDatabase;
let server: http.Server;
let base: string;
let fastOnly: http.RequestListener;
let lines: Record<string, any>[];
const clock = fixedClock(MONDAY_MORNING_IST);
// The hold limits on, as a centre runs: their refusals must read the same both ways.
const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', HOLDS_PER_CLIENT: '1', HOLDS_PER_IP: '0' });

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  const full = testApp(database, { now: clock.now, config });
  server = http.createServer(full).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  lines = [];
  const logger = createLogger({ level: 'info', name: 'api' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const deps = { config, db: database.db, logger, now: clock.now, readCache: new ReadCache(database.url, logger) } as unknown as AppDeps;
  deps.authenticateAdmin = bearerAdminActor(deps);
  // What the early answer hands on reaches an app holding only the marker and the error handler.
  const rest = express();
  rest.disable('x-powered-by'); // as buildApp does
  rest.use(earlyBookingErrors);
  rest.use((_req, res) => void res.status(299).send('passed on'));
  rest.use(errorHandler);
  const early = earlyPublicBooking(deps, (req) => req.socket.remoteAddress ?? 'unknown');
  fastOnly = (req, res) => early(req, res, () => rest(req, res));
});
afterAll(async () => {
  server.close();
  await database.drop();
});

type Answer = { status: number; headers: Record<string, unknown>; text: string };

/** The routes' answer: the body sent chunked (no Content-Length), as only express.json reads it. */
function viaRoutes(body: string, headers: Record<string, string> = {}, to = base): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${to}/confirm-booking`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
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

async function early(body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await request(fastOnly)
    .post('/confirm-booking')
    .set({ 'content-type': 'application/json', ...headers })
    .send(body);
  return { status: res.status, headers: res.headers, text: res.text };
}

/** The headers that differ between any two answers (and, for two bookings, the ETag of their bodies). */
const headersBut = ({ headers }: Answer) => {
  const { date: _date, 'x-request-id': _id, etag: _etag, connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...rest } = headers;
  return rest;
};
const json = (o: unknown) => JSON.stringify(o);

describe('a public booking answered ahead of the routers', () => {
  it('books as the route does: the same status, headers and answer', async () => {
    const a = await viaRoutes(json(offlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '10:00' })));
    const b = await early(json(offlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '11:00' })));
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(headersBut(b)).toEqual({ ...headersBut(a), 'content-length': String(Buffer.byteLength(b.text)) });
    // The answer carries the client's booking token: no cache may keep it, on either path (issue 32).
    expect([a.headers['cache-control'], b.headers['cache-control']]).toEqual(['no-store', 'no-store']);
    const [ra, rb] = [JSON.parse(a.text), JSON.parse(b.text)];
    expect(Object.keys(rb)).toEqual(Object.keys(ra));
    expect(rb.message).toBe(ra.message);
    expect(rb.booking_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rb.booking_id).toBe(ra.booking_id + 1);
  });

  it('refuses as the routes do, word for word', async () => {
    await viaRoutes(
      json(
        onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '10:00', client_email: 'first.hold@example.com', client_mobile: '9811111111' }),
      ),
    );
    const cases: [string, string, Record<string, string>?][] = [
      [
        'slot taken',
        json(onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '10:00', client_email: 'other@example.com', client_mobile: '9822222222' })),
      ],
      [
        'hold limit',
        json(
          onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '11:00', client_email: 'first.hold@example.com', client_mobile: '9811111111' }),
        ),
      ],
      ['missing field', json({ ...onlineBooking(), client_full_name: undefined })],
      ['bad value', json(onlineBooking({ client_age: 'old' as never }))],
      ['unknown therapist', json(onlineBooking({ therapist_id: 999 }))],
      ['malformed JSON', '{"therapist_id": 1,'],
      ['not strict JSON', '"a string"'],
      ['an array', '[1, 2]'],
      ['a NUL', json(onlineBooking({ client_note: 'a\u0000b' }))],
      ['a lone surrogate', '{"client_note": "\\ud800"}'],
      ['charset given', json(onlineBooking({ therapist_id: 999 })), { 'content-type': 'application/json; charset=UTF-8' }],
    ];
    for (const [label, body, headers] of cases) {
      const [a, b] = [await viaRoutes(body, headers), await early(body, headers)];
      expect({ label, status: b.status, text: b.text }).toEqual({ label, status: a.status, text: a.text });
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(a.status).toBeLessThan(500);
      expect(headersBut(b)).toEqual(headersBut(a));
    }
  });

  it('passes on what it does not read as the routes would, and a manual booking to the admin routes', async () => {
    const body = json(onlineBooking({ therapist_id: 999 }));
    const passedOn: [string, request.Test][] = [
      ['gzip', request(fastOnly).post('/confirm-booking').set({ 'content-type': 'application/json', 'content-encoding': 'gzip' }).send(body)],
      ['a form', request(fastOnly).post('/confirm-booking').type('form').send({ therapist_id: '1' })],
      ['another charset', request(fastOnly).post('/confirm-booking').set('content-type', 'application/json; charset=latin1').send(body)],
      [
        'too large',
        request(fastOnly)
          .post('/confirm-booking')
          .set('content-type', 'application/json')
          .send(json({ client_note: 'x'.repeat(40_000) })),
      ],
      ['a query', request(fastOnly).post('/confirm-booking?x=1').set('content-type', 'application/json').send(body)],
      ['another path', request(fastOnly).post('/confirm-booking/').set('content-type', 'application/json').send(body)],
      ['a GET', request(fastOnly).get('/confirm-booking')],
      [
        'a manual booking',
        request(fastOnly)
          .post('/confirm-booking')
          .set('content-type', 'application/json')
          .send(json({ ...offlineBooking(), admin_confirmed: true })),
      ],
    ];
    const statuses = await Promise.all(passedOn.map(async ([label, req]) => [label, (await req).status]));
    expect(statuses).toEqual(passedOn.map(([label]) => [label, 299]));
    // A chunked body (how the other tests have the routes' answers) is the routes' too.
    const alone = http.createServer(fastOnly).listen(0, '127.0.0.1');
    await new Promise((resolve) => alone.once('listening', resolve));
    try {
      expect((await viaRoutes(body, {}, `http://127.0.0.1:${(alone.address() as AddressInfo).port}`)).status).toBe(299);
    } finally {
      alone.close();
    }
  });

  it('tags its answer with the request id and logs it like any other request, without the body', async () => {
    lines.length = 0;
    const res = await request(fastOnly)
      .post('/confirm-booking')
      .set({ 'content-type': 'application/json', 'x-request-id': 'trace-0003-xyz' })
      .send(json(onlineBooking({ therapist_id: 999, client_email: 'private.person@example.com' })));
    expect(res.headers['x-request-id']).toBe('trace-0003-xyz');
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect([lines[0]!.level, lines[0]!.msg, lines[0]!.req, lines[0]!.res]).toEqual([
      40,
      'request completed',
      { id: 'trace-0003-xyz', method: 'POST', url: '/confirm-booking' },
      { statusCode: res.status },
    ]);
    expect(JSON.stringify(lines)).not.toContain('private.person');
  });
});
