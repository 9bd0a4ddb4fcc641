import request from 'supertest';
import { createLogger } from '../../shared/core/logger.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { availabilitySlots, bookings, outbox, therapists } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';

let database: TestDatabase;
let app: ReturnType<typeof testApp>;
const clock = fixedClock(MONDAY_MORNING_IST);

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  app = testApp(database, { now: clock.now });
});
afterAll(async () => {
  await database.drop();
});

const rowsOf = async (id: number) => database.db.select().from(bookings).where(eq(bookings.id, id));

describe('catalogue', () => {
  it('GET /locations lists the two centres with full addresses', async () => {
    const res = await request(app).get('/locations').expect(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toMatchObject({ id: 1, name: 'West Branch' });
    expect(res.body[1]).toMatchObject({ id: 2, name: 'East Branch' });
    expect(res.body[1].address).toContain('Kandivali East');
    for (const loc of res.body) expect(Object.keys(loc).sort()).toEqual(['address', 'description', 'id', 'name', 'phone']);
  });

  it('GET /services includes the default service id 1', async () => {
    const res = await request(app).get('/services').expect(200);
    expect(res.body.find((s: { id: number }) => s.id === 1)).toBeTruthy();
    expect(res.body.every((s: object) => Object.keys(s).sort().join() === 'id,name')).toBe(true);
  });

  it('GET /therapists lists online and offline therapists in the spec shape', async () => {
    const res = await request(app).get('/therapists').expect(200);
    const online = res.body.filter((t: { type: number }) => t.type === 1);
    const offline = res.body.filter((t: { type: number }) => t.type === 2);
    expect(online.length).toBeGreaterThanOrEqual(3);
    expect(offline.length).toBeGreaterThanOrEqual(3);
    for (const t of res.body) {
      expect(Object.keys(t).sort()).toEqual(
        ['bio', 'email', 'id', 'image_url', 'locations', 'name', 'offered_service_ids', 'price', 'specialization', 'title', 'type'].sort(),
      );
      expect(t.name).toMatch(/^(Dr|Ms|Mr)\. /);
      expect(t.bio.split('|')[2]).toMatch(/years of experience/);
      expect(typeof t.price).toBe('number');
    }
    for (const t of offline) expect([1, 2]).toContain(t.locations);
    expect(res.body.some((t: { offered_service_ids: number[] }) => t.offered_service_ids.length > 3)).toBe(true);
    expect(res.body[0].price).toBe(1500);
  });

  it('GET /availability-slots answers a therapist’s daily template', async () => {
    const res = await request(app).get('/availability-slots?therapist_id=1').expect(200);
    expect(res.body.length).toBeGreaterThan(3);
    expect(res.body[0]).toEqual({
      id: expect.any(Number),
      start_time: '10:00',
      end_time: '11:00',
      is_available: true,
      admin_blocked: false,
      therapist_id: 1,
      locationId: null,
      weekdays: [0, 1, 2, 3, 4, 5, 6],
    });
    const all = await request(app).get('/availability-slots').expect(200);
    expect(new Set(all.body.map((s: { therapist_id: number }) => s.therapist_id)).size).toBe(8);
  });

  it('rejects a malformed therapist_id with 400 and a message', async () => {
    for (const q of ['therapist_id=abc', 'therapist_id=-1', 'therapist_id=1.5', 'therapist_id=0']) {
      const res = await request(app).get(`/booked-slots?${q}`).expect(400);
      expect(res.body.detail).toMatch(/therapist_id/);
    }
    const missing = await request(app).get('/booked-slots').expect(400);
    expect(missing.body.detail).toBe('therapist_id is required');
  });

  it('GET /api/slots offers 15 non-Sunday days from today, without passed or booked slots', async () => {
    const res = await request(app).get('/api/slots?therapist_id=1').expect(200);
    expect(res.body.today).toBe('2026-11-23');
    expect(res.body.days).toHaveLength(15);
    expect(res.body.days[0].date).toBe('2026-11-23');
    // 09:30 on Monday: the 10:00 slot is still on offer today.
    expect(res.body.days[0].slots[0].start_time).toBe('10:00');
    for (const d of res.body.days) expect(new Date(`${d.date}T00:00:00Z`).getUTCDay()).not.toBe(0);
    const unknown = await request(app).get('/api/slots?therapist_id=999').expect(404);
    expect(unknown.body.detail).toBeTruthy();
  });
});

describe('POST /confirm-booking', () => {
  it('creates an online booking as INITIATED at the therapist’s price, whatever the client sends', async () => {
    const res = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-25', amount: 1 }))
      .expect(200);
    expect(res.body).toEqual({ booking_id: expect.any(Number), message: expect.any(String), booking_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const [row] = await rowsOf(res.body.booking_id);
    expect(row).toMatchObject({ paymentStatus: 'INITIATED', amountPaise: 150_000, bookingType: 'ONLINE', locationId: null, clientAge: 29 });
    expect(row!.paymentTransactionId).toBeTruthy();

    const booked = await request(app).get('/booked-slots?therapist_id=1').expect(200);
    expect(booked.body).toContainEqual({ booking_date: '2026-11-25', booking_time_slot_start: '10:00' });
    const offer = await request(app).get('/api/slots?therapist_id=1').expect(200);
    const day = offer.body.days.find((d: { date: string }) => d.date === '2026-11-25');
    expect(day.slots.map((s: { start_time: string }) => s.start_time)).not.toContain('10:00');
  });

  it('creates an offline booking as PENDING at the chosen centre', async () => {
    const res = await request(app).post('/confirm-booking').send(offlineBooking()).expect(200);
    const [row] = await rowsOf(res.body.booking_id);
    expect(row).toMatchObject({ paymentStatus: 'PENDING', bookingType: 'OFFLINE', locationId: 1, amountPaise: 180_000, clientState: null });
  });

  it('writes each booking’s job intents with it, under the booking’s own id; an unpaid hold needs none', async () => {
    const online = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-30', booking_time_slot_start: '14:00' }))
      .expect(200);
    const offline = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-30' }))
      .expect(200);
    const rows = await database.db.select().from(outbox);
    const of = (id: number) =>
      rows
        .filter((r) => (r.payload as { bookingId: number }).bookingId === id)
        .map((r) => [r.jobName, r.jobId])
        .sort();
    // The worker's payments.expire-holds job ends the hold (tests/integration/payments-flow.test.ts).
    expect(of(online.body.booking_id)).toEqual([]);
    expect(of(offline.body.booking_id)).toEqual([
      ['mail.booking-confirmation', `mail-confirmation.${offline.body.booking_id}.client`],
      ['mail.booking-confirmation', `mail-confirmation.${offline.body.booking_id}.therapist`],
      // Per session start, so a session moved later gets a reminder of its own.
      ['mail.booking-reminder', `mail-reminder.${offline.body.booking_id}.${Date.parse('2026-11-30T10:00:00+05:30')}`],
    ]);
    // The hold ends PAYMENT_HOLD_MINUTES (20) after the booking.
    const [held] = await rowsOf(online.body.booking_id);
    expect(held!.paymentHoldExpiresAt!.toISOString()).toBe(new Date(new Date(MONDAY_MORNING_IST).getTime() + 20 * 60_000).toISOString());
  });

  it('answers 409 with the spec words when the slot is already taken, and writes nothing', async () => {
    const payload = onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '11:00' });
    await request(app).post('/confirm-booking').send(payload).expect(200);
    const before = [await database.db.$count(bookings), await database.db.$count(outbox)];
    const res = await request(app)
      .post('/confirm-booking')
      .send({ ...payload, client_full_name: 'Someone Else' })
      .expect(409);
    expect(res.body).toEqual({ detail: 'This time slot has just been booked. Please choose another.' });
    expect([await database.db.$count(bookings), await database.db.$count(outbox)]).toEqual(before);
  });

  const rejections: [string, Record<string, unknown>, string, string][] = [
    ['missing name', { client_full_name: '' }, 'client_full_name', 'Full name is required'],
    ['blank name', { client_full_name: '   ' }, 'client_full_name', 'Full name is required'],
    ['missing email', { client_email: '' }, 'client_email', 'Email is required'],
    ['bad email', { client_email: 'meera@' }, 'client_email', 'Please enter a valid email address'],
    ['missing mobile', { client_mobile: '' }, 'client_mobile', 'Mobile number is required'],
    ['short mobile', { client_mobile: '98765' }, 'client_mobile', 'Mobile number must be 10 digits'],
    ['letters in mobile', { client_mobile: '98765abcde' }, 'client_mobile', 'Mobile number must be 10 digits'],
    ['missing age', { client_age: undefined }, 'client_age', 'Age is required'],
    ['age zero', { client_age: 0 }, 'client_age', 'Age is required'],
    ['age 121', { client_age: 121 }, 'client_age', 'Age must be between 1 and 120'],
    ['missing session type', { session_type: undefined }, 'session_type', 'Please select a session type'],
    ['unknown session type', { session_type: 'group' }, 'session_type', 'Please select a session type'],
    ['online without state', { client_state: '' }, 'client_state', 'State is required'],
    ['online without city', { client_city: '' }, 'client_city', 'City is required'],
    ['city outside state', { client_city: 'Chennai' }, 'client_city', 'Please choose a city in the selected state'],
    ['terms not accepted', { terms_accepted: false }, 'terms_accepted', 'You must accept the terms and conditions'],
  ];
  it.each(rejections)('rejects %s with its message', async (_label, change, field, message) => {
    const before = await database.db.$count(bookings);
    const res = await request(app).post('/confirm-booking').send(onlineBooking(change)).expect(400);
    expect(res.body.errors[field]).toBe(message);
    expect(res.body.detail).toBeTruthy();
    expect(await database.db.$count(bookings)).toBe(before);
  });

  it('returns every field error at once', async () => {
    const res = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ client_full_name: '', client_email: 'x', client_mobile: '1', terms_accepted: false }))
      .expect(400);
    expect(res.body.errors).toMatchObject({
      client_full_name: 'Full name is required',
      client_email: 'Please enter a valid email address',
      client_mobile: 'Mobile number must be 10 digits',
      terms_accepted: 'You must accept the terms and conditions',
    });
  });

  it('does not require state and city for an in-person session', async () => {
    await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-27' }))
      .expect(200);
  });

  const ruleRejections: [string, Record<string, unknown>, number, string][] = [
    ['an unknown therapist', { therapist_id: 999 }, 400, 'The selected therapist does not exist.'],
    ['an unknown service', { service_id: 999 }, 400, 'The selected service does not exist.'],
    ['an offline therapist for an online session', { therapist_id: 5 }, 400, 'The selected therapist does not offer this type of session.'],
    [
      'an online therapist for an in-person session',
      { booking_type: 'OFFLINE', location_id: 1 },
      400,
      'The selected therapist does not offer this type of session.',
    ],
    [
      'an in-person session without location',
      { therapist_id: 5, booking_type: 'OFFLINE', location_id: 0 },
      400,
      'Please select a location for an in-person session.',
    ],
    [
      'an in-person session at another centre',
      { therapist_id: 5, booking_type: 'OFFLINE', location_id: 2 },
      400,
      'The selected therapist does not work at this location.',
    ],
    ['a Sunday', { booking_date: '2026-11-29' }, 400, 'The centre is closed on Sundays. Please choose another date.'],
    ['a date in the past', { booking_date: '2026-11-20' }, 400, 'Please choose a date within the next 15 working days (Sundays excluded).'],
    ['a date beyond the window', { booking_date: '2026-12-10' }, 400, 'Please choose a date within the next 15 working days (Sundays excluded).'],
    ['a time the therapist does not work', { booking_time_slot_start: '13:00' }, 400, 'This time slot is not available. Please choose another.'],
    [
      'a slot that has passed today',
      { booking_date: '2026-11-23', booking_time_slot_start: '09:00', therapist_id: 2 },
      400,
      'This time slot has already passed. Please choose a later time.',
    ],
    [
      'a slot starting right now',
      { booking_date: '2026-11-23', booking_time_slot_start: '09:30' },
      400,
      'This time slot has already passed. Please choose a later time.',
    ],
  ];
  it.each(ruleRejections)('rejects %s', async (_label, change, status, detail) => {
    const before = await database.db.$count(bookings);
    const res = await request(app).post('/confirm-booking').send(onlineBooking(change)).expect(status);
    expect(res.body.detail).toBe(detail);
    expect(await database.db.$count(bookings)).toBe(before);
  });

  it('checks the therapist and template in the booking statement: deactivated, switched off, blocked; priced from the therapist', async () => {
    const slot = (start: string) => and(eq(availabilitySlots.therapistId, 2), eq(availabilitySlots.startTime, start));
    const book = (start: string) =>
      request(app)
        .post('/confirm-booking')
        .send(onlineBooking({ therapist_id: 2, booking_date: '2026-12-02', booking_time_slot_start: start }));
    const before = [await database.db.$count(bookings), await database.db.$count(outbox)];
    await database.db.update(availabilitySlots).set({ isAvailable: false }).where(slot('10:00'));
    await database.db.update(availabilitySlots).set({ adminBlocked: true }).where(slot('11:00'));
    await database.db.update(therapists).set({ isActive: false }).where(eq(therapists.id, 2));
    try {
      expect((await book('12:00').expect(400)).body.detail).toBe('The selected therapist does not exist.');
      await database.db.update(therapists).set({ isActive: true }).where(eq(therapists.id, 2));
      expect((await book('10:00').expect(400)).body.detail).toBe('This time slot is not available. Please choose another.');
      expect((await book('11:00').expect(400)).body.detail).toBe('This time slot is not available. Please choose another.');
      expect([await database.db.$count(bookings), await database.db.$count(outbox)]).toEqual(before);
    } finally {
      await database.db.update(therapists).set({ isActive: true }).where(eq(therapists.id, 2));
      await database.db.update(availabilitySlots).set({ isAvailable: true, adminBlocked: false }).where(eq(availabilitySlots.therapistId, 2));
    }
    const { booking_id } = (await book('12:00').expect(200)).body;
    const [row] = await database.db.select().from(bookings).where(eq(bookings.id, booking_id));
    expect(row).toMatchObject({ therapistId: 2, amountPaise: 120_000, bookingTimeSlotStart: '12:00:00', paymentStatus: 'INITIATED' });
  });

  it('accepts the last day of the window (15th non-Sunday day)', async () => {
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-12-09' }))
      .expect(200);
  });

  it('refuses admin-only fields without an admin token', async () => {
    for (const extra of [{ admin_confirmed: true }, { payment_status: 'COMPLETED' }]) {
      const res = await request(app)
        .post('/confirm-booking')
        .send(onlineBooking({ booking_date: '2026-12-01', ...extra }))
        .expect(401);
      expect(res.body.detail).toBe('Unauthorized. Please log in again.');
    }
  });
});

describe('images', () => {
  it('serves location images by id with a content type and cache headers', async () => {
    const res = await request(app).get('/get_location_image/1.png').expect(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(res.headers.etag).toBeTruthy();
  });

  it('serves therapist images by file name', async () => {
    const res = await request(app).get('/get_specific_image/dr-asha-mehta.png').expect(200);
    expect(res.headers['content-type']).toBe('image/png');
  });

  it.each([
    '/get_specific_image/../../package.json',
    '/get_specific_image/..%2f..%2fpackage.json',
    '/get_specific_image/%2e%2e%2f%2e%2e%2fpackage.json',
    '/get_specific_image/%2fetc%2fpasswd',
    '/get_specific_image//etc/passwd',
    '/get_specific_image/.hidden.png',
    '/get_specific_image/README.md',
    '/get_specific_image/sub/dir.png',
    '/get_specific_image/nope.png',
    '/get_location_image/..%2f1.png',
    '/get_location_image/3.png',
    '/get_location_image/1.jpg',
  ])('answers 404 for %s', async (path) => {
    const res = await request(app).get(path).expect(404);
    expect(res.body.detail).toBeTruthy();
  });
});

describe('plumbing', () => {
  it('answers unknown routes with 404 in the error shape', async () => {
    const res = await request(app).get('/no/such/route').expect(404);
    expect(res.body).toEqual({ detail: 'Not found.' });
  });

  it('reports health and readiness', async () => {
    await request(app).get('/healthz').expect(200, { status: 'ok' });
    const ready = await request(app).get('/readyz').expect(200);
    expect(ready.body.checks).toEqual({ postgres: 'ok', redis: 'ok' });
  });

  it('reports not ready when Redis does not answer', async () => {
    const broken = testApp(database, { redis: { ping: async () => Promise.reject(new Error('connection refused')) } });
    const res = await request(broken).get('/readyz').expect(503);
    expect(res.body.checks.redis).toBe('connection refused');
  });

  it('tags every response with a request id', async () => {
    const res = await request(app).get('/healthz');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs one line per request, without the query string, at a level that follows the status', async () => {
    const lines: Record<string, any>[] = [];
    const logger = createLogger({ level: 'info', name: 'api' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const logged = testApp(database, { logger });
    const ok = await request(logged).get('/api/slots?therapist_id=1').set('x-request-id', 'trace-0001-abc').expect(200);
    expect(ok.headers['x-request-id']).toBe('trace-0001-abc');
    await request(logged).post('/confirm-booking').set('content-type', 'application/json').send('{"client_email": "meera@example.com"').expect(400);
    const down = testApp(database, {
      logger,
      db: new Proxy(
        {},
        {
          get: () => () => {
            throw new Error('database is down');
          },
        },
      ) as never,
    });
    const failed = await request(down).get('/therapists').expect(500);

    expect(lines.map((l) => [l.level, l.msg, l.req?.method, l.req?.url, l.res?.statusCode])).toEqual([
      [30, 'request completed', 'GET', '/api/slots', 200],
      [40, 'request completed', 'POST', '/confirm-booking', 400],
      [50, 'unhandled error', 'GET', '/therapists', undefined],
      [50, 'request completed', 'GET', '/therapists', 500],
    ]);
    expect(lines[0]!.req.id).toBe('trace-0001-abc');
    expect(lines[2]!.req.id).toBe(failed.body.request_id);
    expect(lines[2]!.err.message).toBe('database is down');
    expect(JSON.stringify(lines)).not.toContain('meera@example.com');
    expect(lines.every((l) => typeof l.time === 'string')).toBe(true);
  });
});

describe('slot offer at edge times, whatever the server time zone', () => {
  const originalTz = process.env.TZ;
  afterAll(() => {
    process.env.TZ = originalTz;
  });

  it.each([
    ['Saturday 23:59 IST', '2026-11-21T23:59:00+05:30', '2026-11-21'],
    ['Sunday 10:00 IST', '2026-11-22T10:00:00+05:30', '2026-11-23'],
    ['Monday 10:00 IST exactly', '2026-11-23T10:00:00+05:30', '2026-11-23'],
  ])('%s', async (_label, instant, firstDate) => {
    const answers: string[] = [];
    for (const tz of ['UTC', 'America/Los_Angeles', 'Asia/Kolkata']) {
      process.env.TZ = tz;
      const res = await request(testApp(database, { now: fixedClock(instant).now }))
        .get('/api/slots?therapist_id=4')
        .expect(200);
      expect(res.body.days[0].date === firstDate || res.body.days[0].slots.length === 0).toBe(true);
      answers.push(JSON.stringify(res.body));
    }
    expect(new Set(answers).size).toBe(1);
    const body = JSON.parse(answers[0]!);
    expect(body.days).toHaveLength(15);
    if (instant.startsWith('2026-11-23T10:00')) {
      const monday = body.days.find((d: { date: string }) => d.date === '2026-11-23');
      // 10:00 exactly has passed; 11:00 has not.
      expect(monday.slots[0].start_time).toBe('11:00');
    }
  });
});
