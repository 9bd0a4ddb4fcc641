import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';
import request from 'supertest';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import * as schema from '../../shared/core/db/schema.ts';
import { availabilitySlots, bookings, therapists } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { announceBooking } from '../../shared/core/db/announce.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { ReadCache } from '../../shared/core/services/read-cache.service.ts';
import { cachedPublicReads } from '../../api/src/routes/public-reads.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';

let database: TestDatabase;
let cache: ReadCache;
let app: ReturnType<typeof testApp>;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  cache = new ReadCache(database.url, createLogger({ level: 'silent' }));
  await cache.start();
  app = testApp(database, { now: fixedClock(MONDAY_MORNING_IST).now, readCache: cache });
});
afterAll(async () => {
  await cache.stop();
  await database.drop();
});

/** Polls until `check` passes: notifications arrive asynchronously. */
async function eventually(check: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await check();
    } catch (err) {
      if (i > 100) throw err;
      await sleep(50);
    }
  }
}

/** Every public read call, in the canonical form the early answer serves. */
const READ_PATHS = [
  '/locations',
  '/services',
  '/therapists',
  '/availability-slots',
  '/availability-slots?therapist_id=3',
  '/booked-slots?therapist_id=1',
  '/api/slots?therapist_id=3',
];

/** A response's headers but those that differ between any two answers. */
const headersBut = (res: request.Response) => {
  const { date: _date, 'x-request-id': _id, ...rest } = res.headers;
  return rest;
};

/** A TCP proxy to PostgreSQL whose open connections can be made to stop passing the client's bytes on. */
async function stallableProxy(target: string): Promise<{ url: string; stall: () => void; connections: () => number; close: () => void }> {
  const { hostname, port } = new URL(target);
  const pairs: [net.Socket, net.Socket][] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port || 5432), hostname);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) socket.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
    pairs.push([client, upstream]);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: url.toString(),
    stall: () => pairs.forEach(([client, upstream]) => client.unpipe(upstream)),
    connections: () => pairs.length,
    close: () => {
      for (const pair of pairs) pair.forEach((socket) => socket.destroy());
      server.close();
    },
  };
}

const startsOn = async (date: string, therapist = 1) => {
  const res = await request(app).get(`/api/slots?therapist_id=${therapist}`).expect(200);
  return res.body.days.find((d: { date: string }) => d.date === date).slots.map((s: { start_time: string }) => s.start_time) as string[];
};

/** A connection listening on the announcement channels, and what it has heard as "channel payload". */
async function listenToAnnouncements(): Promise<{ listener: pg.Client; heard: string[] }> {
  const listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (n) => heard.push(`${n.channel} ${n.payload}`));
  await listener.query('listen catalog_changed; listen outbox');
  return { listener, heard };
}

describe('read cache', () => {
  it('is listening', () => {
    expect(cache.active).toBe(true);
  });

  it('drops a therapist’s offer when a booking is made through the API, at once in the process that made it', async () => {
    expect(await startsOn('2026-11-24')).toContain('12:00');
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '12:00' }))
      .expect(200);
    expect(await startsOn('2026-11-24')).not.toContain('12:00');
    const booked = await request(app).get('/booked-slots?therapist_id=1').expect(200);
    expect(booked.body).toContainEqual({ booking_date: '2026-11-24', booking_time_slot_start: '12:00' });
  });

  it('tells every other process about a public booking once, after commit, and wakes the relay only for jobs due now', async () => {
    const other = new ReadCache(database.url, createLogger({ level: 'silent' }));
    await other.start();
    const otherApp = testApp(database, { now: fixedClock(MONDAY_MORNING_IST).now, readCache: other });
    const { listener, heard } = await listenToAnnouncements();
    try {
      const offer = async () =>
        (await request(otherApp).get('/api/slots?therapist_id=1').expect(200)).body.days.find((d: { date: string }) => d.date === '2026-11-25').slots;
      expect((await offer()).map((s: { start_time: string }) => s.start_time)).toContain('15:00');
      // An online booking's only job (the end of its payment hold) is 20 minutes away: the relay's poll takes it.
      await request(app)
        .post('/confirm-booking')
        .send(onlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '15:00' }))
        .expect(200);
      await eventually(async () => expect((await offer()).map((s: { start_time: string }) => s.start_time)).not.toContain('15:00'));
      // An in-person booking's confirmation e-mails are due now.
      await request(app)
        .post('/confirm-booking')
        .send(offlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '15:00' }))
        .expect(200);
      await eventually(async () => expect(heard).toContain('outbox '));
      await sleep(200);
      // The insert's own trigger stayed silent: one announcement per booking, not two.
      expect(heard.sort()).toEqual(['catalog_changed therapist:1', 'catalog_changed therapist:5', 'outbox ']);
    } finally {
      await listener.end();
      await other.stop();
    }
  });

  it('announces bookings answered in the same turn together: one transaction, each therapist once', async () => {
    const { listener, heard } = await listenToAnnouncements();
    const query = vi.spyOn(database.db.$client, 'query');
    const announcements = () => query.mock.calls.filter(([q]) => (q as { name?: string }).name === 'booking_announce').length;
    try {
      await Promise.all([
        announceBooking(database.db, 1, false),
        announceBooking(database.db, 2, false),
        announceBooking(database.db, 1, true),
        announceBooking(database.db, 3, false),
      ]);
      expect(announcements()).toBe(1);
      await eventually(async () => expect(heard).toHaveLength(4));
      expect(heard.sort()).toEqual(['catalog_changed therapist:1', 'catalog_changed therapist:2', 'catalog_changed therapist:3', 'outbox ']);

      // The next turn's booking is a new announcement, and wakes nobody it need not.
      await announceBooking(database.db, 2, false);
      expect(announcements()).toBe(2);
      await eventually(async () => expect(heard).toHaveLength(5));
      expect(heard[4]).toBe('catalog_changed therapist:2');
    } finally {
      query.mockRestore();
      await listener.end();
    }
  });

  it('gathers announcements made while one is on its way into the next, sent once it is answered', async () => {
    const { listener, heard } = await listenToAnnouncements();
    const pool = database.db.$client;
    const send = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const query = vi.spyOn(pool, 'query').mockImplementationOnce((async (...args: unknown[]) => {
      await held;
      return send(...args);
    }) as never);
    const announcements = () => query.mock.calls.filter(([q]) => (q as { name?: string }).name === 'booking_announce').length;
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    try {
      const first = announceBooking(database.db, 1, false);
      await nextTurn();
      expect(announcements()).toBe(1);
      // Three more turns while the first is unanswered: they wait, together.
      const later = [announceBooking(database.db, 2, false)];
      await nextTurn();
      later.push(announceBooking(database.db, 3, true));
      await nextTurn();
      later.push(announceBooking(database.db, 2, false));
      await nextTurn();
      expect(announcements()).toBe(1);
      answer();
      await Promise.all([first, ...later]);
      expect(announcements()).toBe(2);
      await eventually(async () => expect(heard).toHaveLength(4));
      expect(heard.sort()).toEqual(['catalog_changed therapist:1', 'catalog_changed therapist:2', 'catalog_changed therapist:3', 'outbox ']);
    } finally {
      query.mockRestore();
      await listener.end();
    }
  });

  it('gives up an announcement whose connection stalls, and sends the ones gathered behind it on a fresh one', async () => {
    const { listener, heard } = await listenToAnnouncements();
    const proxy = await stallableProxy(database.url);
    const pool = new pg.Pool({ connectionString: proxy.url, max: 1 });
    const db = drizzle(pool, { schema });
    try {
      await announceBooking(db, 7, false);
      proxy.stall();
      const sent = vi.spyOn(pool, 'query');
      const stalled = announceBooking(db, 8, false).then(
        () => 'sent',
        (err: Error) => err.message,
      );
      await vi.waitFor(() => expect(sent).toHaveBeenCalledTimes(1));
      const behind = announceBooking(db, 9, false);
      expect(await stalled).toBe('Query read timeout');
      await behind;
      await eventually(async () => expect(heard).toEqual(['catalog_changed therapist:7', 'catalog_changed therapist:9']));
      expect(proxy.connections()).toBe(2);
    } finally {
      await pool.end();
      proxy.close();
      await listener.end();
    }
  });

  it('computes a missing entry once for the requests that ask for it together, never for one asked after a change', async () => {
    let computed = 0;
    const releases: (() => void)[] = [];
    const compute = () => {
      const n = ++computed;
      return new Promise<unknown>((resolve) => releases.push(() => resolve({ n })));
    };
    const together = [1, 2, 3].map(() => cache.json('test:together', 'therapist:4', 'stamp-1', compute));
    await vi.waitFor(() => expect(releases).toHaveLength(1));
    // A change to the therapist while the first computation runs: the next request computes afresh.
    cache.changed('therapist:4');
    const afterChange = cache.json('test:together', 'therapist:4', 'stamp-1', compute);
    await vi.waitFor(() => expect(releases).toHaveLength(2));
    // So does one asking for another stamp (the next minute's offer).
    const nextStamp = cache.json('test:together', 'therapist:4', 'stamp-2', compute);
    await vi.waitFor(() => expect(releases).toHaveLength(3));
    releases.forEach((release) => release());
    const bodies = (await Promise.all([...together, afterChange, nextStamp])).map((b) => b.body.toString());
    expect(bodies).toEqual(['{"n":1}', '{"n":1}', '{"n":1}', '{"n":2}', '{"n":3}']);
    expect(computed).toBe(3);
  });

  it('hears a booking written by any other writer from the table’s trigger', async () => {
    expect(await startsOn('2026-11-26')).toContain('16:00');
    await database.db.insert(bookings).values({
      therapistId: 1,
      bookingDate: '2026-11-26',
      bookingTimeSlotStart: '16:00',
      bookingType: 'ONLINE',
      paymentStatus: 'COMPLETED',
    });
    await eventually(async () => expect(await startsOn('2026-11-26')).not.toContain('16:00'));
  });

  it('drops entries when another process changes the database directly', async () => {
    expect(await startsOn('2026-11-25', 2)).toContain('09:00');
    await database.db
      .update(availabilitySlots)
      .set({ isAvailable: false })
      .where(and(eq(availabilitySlots.therapistId, 2), eq(availabilitySlots.startTime, '09:00')));
    await eventually(async () => expect(await startsOn('2026-11-25', 2)).not.toContain('09:00'));

    const before = await request(app).get('/therapists').expect(200);
    expect(before.body[0].name).toBe('Dr. Asha Mehta');
    await database.db.update(therapists).set({ name: 'Dr. Asha M. Mehta' }).where(eq(therapists.id, 1));
    await eventually(async () => expect((await request(app).get('/therapists')).body[0].name).toBe('Dr. Asha M. Mehta'));
  });

  it('serves the same bytes and headers as the uncached route, whether the entry was cached or not', async () => {
    const uncached = testApp(database, { now: fixedClock(MONDAY_MORNING_IST).now });
    for (const path of READ_PATHS) {
      cache.changed('all');
      const computed = await request(app).get(path).expect(200);
      const cached = await request(app).get(path).expect(200);
      const reference = await request(uncached).get(path).expect(200);
      for (const res of [computed, cached]) {
        expect(res.text).toBe(reference.text);
        expect(headersBut(res)).toEqual(headersBut(reference));
      }
      expect(reference.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reference.headers.etag).toMatch(/^W\/"/);
      expect(reference.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('answers a repeated request with 304 from its cached ETag, and a changed offer with a new one', async () => {
    const first = await request(app).get('/api/slots?therapist_id=3').expect(200);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    await request(app).get('/api/slots?therapist_id=3').set('if-none-match', etag).expect(304);
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ therapist_id: 3, booking_date: '2026-11-24', booking_time_slot_start: '14:00' }))
      .expect(200);
    await eventually(async () => {
      const next = await request(app).get('/api/slots?therapist_id=3').set('if-none-match', etag);
      expect(next.status).toBe(200);
      expect(next.headers.etag).not.toBe(etag);
    });
  });

  it('serves uncached, never stale, once stopped', async () => {
    const local = new ReadCache(database.url, createLogger({ level: 'silent' }));
    await local.start();
    const localApp = testApp(database, { now: fixedClock(MONDAY_MORNING_IST).now, readCache: local });
    await request(localApp).get('/api/slots?therapist_id=4').expect(200);
    await local.stop();
    expect(local.active).toBe(false);
    await database.db
      .update(availabilitySlots)
      .set({ isAvailable: false })
      .where(and(eq(availabilitySlots.therapistId, 4), eq(availabilitySlots.startTime, '10:00')));
    const res = await request(localApp).get('/api/slots?therapist_id=4').expect(200);
    expect(res.body.days[1].slots.map((s: { start_time: string }) => s.start_time)).not.toContain('10:00');
  });
});

describe('cached public reads, answered ahead of the routers', () => {
  const clock = fixedClock(MONDAY_MORNING_IST);
  let lines: Record<string, any>[];
  let full: ReturnType<typeof testApp>;
  let fastOnly: express.Express;

  beforeAll(() => {
    full = testApp(database, { now: clock.now, readCache: cache });
    // Only the early answer, and behind it a marker for whatever it passes on.
    lines = [];
    const logger = createLogger({ level: 'info', name: 'api' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    fastOnly = express();
    fastOnly.use(cachedPublicReads(cache, { logger, now: clock.now }));
    fastOnly.use((_req, res) => void res.status(299).send('passed on'));
  });

  const primed = async (path: string) => {
    await request(full).get(path).expect(200);
    return path;
  };

  it('answers each read whose entry is cached and current, with the full route’s bytes and headers', async () => {
    for (const path of READ_PATHS) {
      const reference = await request(full)
        .get(await primed(path))
        .expect(200);
      const early = await request(fastOnly).get(path).expect(200);
      expect(early.text).toBe(reference.text);
      expect(headersBut(early)).toEqual(headersBut(reference));
    }
  });

  it('passes on every request it cannot answer from the cache as it stands', async () => {
    await primed('/api/slots?therapist_id=3');
    await primed('/locations');
    const passedOn: [string, request.Test][] = [
      ['HEAD', request(fastOnly).head('/api/slots?therapist_id=3')],
      ['POST', request(fastOnly).post('/api/slots?therapist_id=3')],
      ['If-None-Match', request(fastOnly).get('/api/slots?therapist_id=3').set('if-none-match', 'W/"1-x"')],
      ['leading zero', request(fastOnly).get('/api/slots?therapist_id=03')],
      ['id twice', request(fastOnly).get('/api/slots?therapist_id=3&therapist_id=4')],
      ['another parameter', request(fastOnly).get('/api/slots?therapist_id=3&page=2')],
      ['not a number', request(fastOnly).get('/api/slots?therapist_id=abc')],
      ['no id', request(fastOnly).get('/api/slots')],
      ['trailing slash', request(fastOnly).get('/api/slots/?therapist_id=3')],
      ['other case', request(fastOnly).get('/API/slots?therapist_id=3')],
      ['query on a list', request(fastOnly).get('/locations?lang=en')],
      ['not cached', request(fastOnly).get('/api/slots?therapist_id=999999')],
    ];
    const statuses = await Promise.all(passedOn.map(async ([label, req]) => [label, (await req).status]));
    expect(statuses).toEqual(passedOn.map(([label]) => [label, 299]));
  });

  it('passes on an entry dropped by a change, and one whose minute has passed', async () => {
    await primed('/api/slots?therapist_id=3');
    await request(fastOnly).get('/api/slots?therapist_id=3').expect(200);
    cache.changed('therapist:3');
    await request(fastOnly).get('/api/slots?therapist_id=3').expect(299);

    await primed('/api/slots?therapist_id=3');
    await primed('/locations');
    clock.set('2026-11-23T09:31:00+05:30');
    try {
      await request(fastOnly).get('/api/slots?therapist_id=3').expect(299);
      await request(fastOnly).get('/locations').expect(200);
    } finally {
      clock.set(MONDAY_MORNING_IST);
    }
  });

  it('tags its answer with the caller’s request id, or a new one, and logs it like any other request', async () => {
    await primed('/api/slots?therapist_id=3');
    lines.length = 0;
    const traced = await request(fastOnly).get('/api/slots?therapist_id=3').set('x-request-id', 'trace-0002-xyz').expect(200);
    expect(traced.headers['x-request-id']).toBe('trace-0002-xyz');
    const fresh = await request(fastOnly).get('/api/slots?therapist_id=3').set('x-request-id', 'no spaces allowed').expect(200);
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(lines.map((l) => [l.level, l.msg, l.req.id, l.req.method, l.req.url, l.res.statusCode])).toEqual([
      [30, 'request completed', 'trace-0002-xyz', 'GET', '/api/slots', 200],
      [30, 'request completed', fresh.headers['x-request-id'], 'GET', '/api/slots', 200],
    ]);
  });
});

describe('a bounded cache', () => {
  it('keeps at most its limit of answers, the least recently computed going first', async () => {
    const small = new ReadCache(database.url, createLogger({ level: 'silent' }), { maxEntries: 3 });
    await small.start();
    try {
      let computed = 0;
      const get = (key: string) => small.json(key, 'all', '', async () => ({ key, n: ++computed }));
      for (const key of ['a', 'b', 'c', 'd']) await get(key);
      expect(small.size).toBe(3);
      // 'a' went first; 'b' to 'd' are still answered from memory.
      expect(small.peek('a', '')).toBeUndefined();
      for (const key of ['b', 'c', 'd']) expect(small.peek(key, '')).toBeDefined();
      await get('a'); // computed again, and now 'b' is the oldest
      expect(computed).toBe(5);
      expect(small.peek('b', '')).toBeUndefined();
      expect(small.size).toBe(3);
    } finally {
      await small.stop();
    }
  });
});
