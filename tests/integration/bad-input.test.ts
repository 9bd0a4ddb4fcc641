import { gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../api/src/middleware/errors.ts';
import { bookings } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { bearer, createAdmins, insertBooking, PASSWORD, tokenFor } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { manualOfflineBooking, MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';
import { writtenRows } from '../support/rows.ts';

let database: TestDatabase;
let app: ReturnType<typeof testApp>;
let superToken: string;
let bookingId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  const { superadmin } = await createAdmins(database.db);
  superToken = tokenFor(superadmin, new Date(MONDAY_MORNING_IST));
  bookingId = (await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-11-26', bookingTimeSlotStart: '11:00' })).id;
  app = testApp(database, { now: fixedClock(MONDAY_MORNING_IST).now });
});
afterAll(async () => {
  await database.drop();
});

async function expectRejected(req: request.Test, status?: number): Promise<request.Response> {
  const before = await database.db.$count(bookings);
  const res = await req;
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  if (status) expect(res.status).toBe(status);
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.detail.length).toBeGreaterThan(0);
  expect(await database.db.$count(bookings)).toBe(before);
  return res;
}

describe('bad input never reaches a 5xx or the database', () => {
  it('malformed JSON', async () => {
    const res = await expectRejected(request(app).post('/confirm-booking').set('content-type', 'application/json').send('{"therapist_id": 1,'), 400);
    expect(res.body.detail).toBe('The request body is not valid JSON.');
  });

  it.each([
    ['a JSON array', '[1,2,3]'],
    ['a JSON string', '"hello"'],
    ['null', 'null'],
  ])('%s as the body', async (_label, body) => {
    await expectRejected(request(app).post('/confirm-booking').set('content-type', 'application/json').send(body), 400);
  });

  it('a form-encoded or text body', async () => {
    await expectRejected(request(app).post('/confirm-booking').type('form').send('therapist_id=1'), 400);
    await expectRejected(request(app).post('/confirm-booking').set('content-type', 'text/plain').send('hello'), 400);
  });

  it('an empty body', async () => {
    await expectRejected(request(app).post('/confirm-booking'), 400);
  });

  it.each([
    ['therapist_id as text', { therapist_id: '1' }],
    ['therapist_id as float', { therapist_id: 1.5 }],
    ['therapist_id huge', { therapist_id: 1e20 }],
    ['age as text', { client_age: 'thirty' }],
    ['age as float', { client_age: 29.5 }],
    ['terms as string', { terms_accepted: 'true' }],
    ['date not a date', { booking_date: '2026-02-30' }],
    ['date in another format', { booking_date: '24/11/2026' }],
    ['time out of range', { booking_time_slot_start: '25:00' }],
    ['time as number', { booking_time_slot_start: 1000 }],
    ['booking type lower case', { booking_type: 'online' }],
    ['ADMIN_BLOCK from the public', { booking_type: 'ADMIN_BLOCK' }],
    ['location negative', { location_id: -1 }],
    ['amount negative', { amount: -5 }],
    ['nested object as name', { client_full_name: { $gt: '' } }],
    ['array as email', { client_email: ['a@b.co'] }],
    ['transaction id with quotes', { payment_transaction_id: "x' OR '1'='1" }],
  ])('wrong type: %s', async (_label, change) => {
    await expectRejected(request(app).post('/confirm-booking').send(onlineBooking(change)), 400);
  });

  it.each([
    ['name', { client_full_name: 'x'.repeat(10_000) }],
    ['note', { client_note: 'x'.repeat(5_000) }],
    ['email', { client_email: `${'a'.repeat(300)}@example.com` }],
    ['state', { client_state: 'M'.repeat(1_000) }],
  ])('huge string: %s', async (_label, change) => {
    await expectRejected(request(app).post('/confirm-booking').send(onlineBooking(change)), 400);
  });

  it('a body over the size limit', async () => {
    await expectRejected(
      request(app)
        .post('/confirm-booking')
        .send(onlineBooking({ client_note: 'x'.repeat(100_000) })),
      413,
    );
  });

  it('unknown fields are refused by name', async () => {
    const res = await expectRejected(
      request(app)
        .post('/confirm-booking')
        .send({ ...onlineBooking(), is_admin: true, __proto__x: 1 }),
      400,
    );
    expect(res.body.errors.is_admin).toBe('Unknown field: is_admin');
  });

  it('SQL-looking strings are stored as plain text, never executed', async () => {
    const sqlish = "Robert'); DROP TABLE bookings;--";
    const res = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ client_full_name: sqlish, client_note: "1' OR '1'='1", booking_date: '2026-11-24', booking_time_slot_start: '12:00' }))
      .expect(200);
    const rows = await database.db.select().from(bookings);
    expect(rows.find((r) => r.id === res.body.booking_id)?.clientFullName).toBe(sqlish);
  });

  it.each(['1; drop table bookings', "1' or '1'='1", '1 union select 1', '%00', '../../etc'])(
    'SQL-looking or odd query values: therapist_id=%s',
    async (value) => {
      const res = await request(app)
        .get(`/booked-slots?therapist_id=${encodeURIComponent(value)}`)
        .expect(400);
      expect(res.body.detail).toMatch(/therapist_id/);
    },
  );

  it('repeated query parameters are refused, not merged', async () => {
    const res = await request(app).get('/api/slots?therapist_id=1&therapist_id=2').expect(400);
    expect(Object.keys(res.body.errors)).toEqual(['therapist_id']);
  });

  it('unknown query parameters are refused by name', async () => {
    const res = await request(app).get('/api/slots?therapist_id=1&debug=1').expect(400);
    expect(res.body).toEqual({ detail: 'Unknown field: debug', errors: { debug: 'Unknown field: debug' } });
  });
});

/** A 4xx with a detail, and not a row written or changed anywhere. */
async function expectRefused(req: request.Test, status?: number): Promise<request.Response> {
  const before = await writtenRows(database.db);
  const res = await req;
  expect(res.status, `${res.status} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  if (status) expect(res.status).toBe(status);
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.detail.length).toBeGreaterThan(0);
  expect(await writtenRows(database.db)).toEqual(before);
  return res;
}

describe('a corrupt compressed body is a 400, on every JSON route', () => {
  const garbage = Buffer.from('this is not gzip at all');
  // superagent would send a Buffer under a JSON content type as JSON text; these bytes go as they are.
  const asIs = (b: unknown) => b as string;
  it.each([
    ['gzip', '/confirm-booking', {}],
    ['deflate', '/confirm-booking', {}],
    ['gzip', '/api/admin/login', {}],
    ['gzip', '/api/admin/availability/block', { admin: true }],
    ['deflate', '/api/create-shareable-payment-link', { admin: true }],
    ['gzip', '/api/payment/generate-link', {}],
  ])('%s on %s', async (encoding, path, { admin }: { admin?: boolean }) => {
    let req = request(app).post(path).set('content-type', 'application/json').set('content-encoding', encoding);
    if (admin) req = req.set(bearer(superToken));
    const res = await expectRefused(req.serialize(asIs).send(garbage), 400);
    // Our words, not zlib's.
    expect(res.body.detail).toBe('The request could not be read.');
  });

  it('a valid gzip body still works', async () => {
    const body = gzipSync(JSON.stringify({ username: 'super', password: PASSWORD }));
    const res = await request(app).post('/api/admin/login').set('content-type', 'application/json').set('content-encoding', 'gzip').serialize(asIs).send(body);
    expect(res.body).toMatchObject({ token_type: 'bearer', username: 'super' });
  });

  it('a gzip body truncated half way', async () => {
    const whole = gzipSync(JSON.stringify(onlineBooking()));
    await expectRefused(
      request(app)
        .post('/confirm-booking')
        .set('content-type', 'application/json')
        .set('content-encoding', 'gzip')
        .serialize(asIs)
        .send(whole.subarray(0, whole.length >> 1)),
      400,
    );
  });
});

describe('an undecodable path (%FF) is a 400, never a 500', () => {
  it.each(['/api/get-razorpay-details/%FF', '/get_location_image/%FF.png', '/get_specific_image/%FF', '/sandbox/checkout/%FF'])('%s', async (path) => {
    const res = await expectRefused(request(app).get(path), 400);
    expect(res.body.detail).toBe('The request address is not valid.');
  });

  it.each(['/api/admin/bookings/%FF/cancel', '/api/admin/bookings/%E0%A4%A/update-payment-link'])('admin %s', async (path) => {
    await expectRefused(request(app).post(path).set(bearer(superToken)).send({ payment_link_url: 'https://pay.example.test/x' }), 400);
  });
});

describe('integers beyond PostgreSQL int4 are refused by the schema', () => {
  const INT4_OVER = 2_147_483_648;
  it.each([
    ['therapist_id', { therapist_id: INT4_OVER }],
    ['service_id', { service_id: INT4_OVER }],
    ['location_id', { location_id: INT4_OVER }],
  ])('POST /confirm-booking %s', async (_label, change) => {
    await expectRefused(request(app).post('/confirm-booking').send(onlineBooking(change)), 400);
  });

  it('POST /confirm-booking in person, location_id', async () => {
    await expectRefused(
      request(app)
        .post('/confirm-booking')
        .send(offlineBooking({ location_id: INT4_OVER })),
      400,
    );
  });

  const manual = manualOfflineBooking();
  it.each([
    ['therapist_id', { therapist_id: INT4_OVER }],
    ['location_id', { location_id: INT4_OVER }],
    ['service_id', { service_id: INT4_OVER }],
  ])('manual booking %s', async (_label, change) => {
    await expectRefused(
      request(app)
        .post('/confirm-booking')
        .set(bearer(superToken))
        .send({ ...manual, ...change }),
      400,
    );
  });

  it.each([
    ['/api/admin/availability/block', { therapist_id: INT4_OVER, start_time: '10:00', date: '2026-11-24' }],
    ['/api/create-shareable-payment-link', { amount: 1500, booking_id: INT4_OVER, merchant_transaction_id: 'txn_1' }],
  ])('admin body %s', async (path, body) => {
    await expectRefused(request(app).post(path).set(bearer(superToken)).send(body), 400);
  });

  it.each([`/api/admin/bookings/${INT4_OVER}/cancel`, '/api/admin/bookings/99999999999/cancel', `/api/admin/bookings/${INT4_OVER}/update-payment-link`])(
    'admin path %s',
    async (path) => {
      await expectRefused(request(app).post(path).set(bearer(superToken)).send({ payment_link_url: 'https://pay.example.test/x' }), 400);
    },
  );

  it.each(['/api/slots', '/booked-slots', '/availability-slots'])('GET %s?therapist_id=2147483648', async (path) => {
    await expectRefused(request(app).get(`${path}?therapist_id=${INT4_OVER}`), 400);
  });
});

describe('a NUL character is refused at the boundary, on every route', () => {
  const NUL_DETAIL = 'The request contains a character that is not allowed (NUL or a broken UTF-16 surrogate).';
  it.each(['client_full_name', 'client_note', 'client_state', 'client_city', 'therapist_email', 'payment_transaction_id'])('JSON body: %s', async (field) => {
    const res = await expectRefused(
      request(app)
        .post('/confirm-booking')
        .send(onlineBooking({ [field]: 'Meera\u0000Pillai' })),
      400,
    );
    expect(res.body.detail).toBe(NUL_DETAIL);
  });

  it.each([
    ['a lone high surrogate', String.raw`Zyxwv \ud800 Qwerty`],
    ['a lone low surrogate', String.raw`\udc00`],
  ])('%s, which PostgreSQL cannot store either, written as a JSON escape', async (_label, escaped) => {
    for (const field of ['client_full_name', 'client_note']) {
      const body = JSON.stringify(offlineBooking({ [field]: 'PLACEHOLDER' })).replace('PLACEHOLDER', escaped);
      const res = await expectRefused(request(app).post('/confirm-booking').set('content-type', 'application/json').send(body), 400);
      expect(res.body.detail).toBe(NUL_DETAIL);
    }
  });

  it('a well-formed surrogate pair (an emoji) is text like any other', async () => {
    await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ client_note: 'Thank you 🙏', booking_time_slot_start: '17:00' }))
      .expect(200);
  });

  it('in a key of the JSON body, and deep inside it', async () => {
    await expectRefused(
      request(app)
        .post('/confirm-booking')
        .send({ ...onlineBooking(), 'x\u0000': 1 }),
      400,
    );
    await expectRefused(
      request(app)
        .post('/confirm-booking')
        .send(onlineBooking({ client_note: [[{ a: ['\u0000'] }]] })),
      400,
    );
  });

  it('in the sign-in form and the sign-in JSON', async () => {
    const form = await expectRefused(request(app).post('/api/admin/login').type('form').send('username=super%00&password=x'), 400);
    expect(form.body.detail).toBe(NUL_DETAIL);
    await expectRefused(request(app).post('/api/admin/login').send({ username: 'sup\u0000er', password: PASSWORD }), 400);
    await expectRefused(
      request(app)
        .post('/api/admin/login')
        .send({ username: 'super', password: `${PASSWORD}\u0000` }),
      400,
    );
  });

  it.each(['/api/admin/search-clients?name=%00', '/api/admin/clients-with-therapists?name=Meera%00', '/api/admin/audit-log?page=1%00'])(
    'admin query %s',
    async (path) => {
      const res = await expectRefused(request(app).get(path).set(bearer(superToken)), 400);
      expect(res.body.detail).toBe(NUL_DETAIL);
    },
  );

  it.each([
    ['/api/admin/availability/block', { therapist_id: 1, start_time: '10:00\u0000', date: '2026-11-24' }],
    ['/api/create-shareable-payment-link', { amount: 1500, booking_id: 1, merchant_transaction_id: 'txn\u0000' }],
    [
      '/confirm-booking',
      {
        therapist_id: 5,
        booking_date: '2026-11-24',
        booking_time_slot_start: '12:00',
        client_full_name: 'Walk\u0000In',
        client_email: 'w@example.com',
        client_mobile: '9876500000',
        booking_type: 'OFFLINE',
        location_id: 1,
        amount: 1800,
        admin_confirmed: true,
      },
    ],
  ])('admin body %s', async (path, body) => {
    await expectRefused(request(app).post(path).set(bearer(superToken)).send(body), 400);
  });

  it('in a public query and path', async () => {
    await expectRefused(request(app).get('/api/slots?therapist_id=1%00'), 400);
    await expectRefused(request(app).get('/api/get-razorpay-details/abc%00def'), 400);
    await expectRefused(
      request(app).post(`/api/admin/bookings/${bookingId}%00/update-payment-link`).send({ payment_link_url: 'https://pay.example.test/x' }),
      400,
    );
  });

  it('in the payment-link request', async () => {
    await expectRefused(request(app).post('/api/payment/generate-link').send({ booking_id: bookingId, customer_name: 'Meera\u0000' }), 400);
  });
});

describe("which errors with a status are the request's fault", () => {
  const throwing = (err: unknown) =>
    express()
      .get('/x', () => {
        throw err;
      })
      .use(errorHandler);

  it('an http-errors 4xx (expose) is answered with its status, in our words', async () => {
    const res = await request(throwing(Object.assign(new Error('unexpected end of file "secret"'), { status: 400, expose: true })))
      .get('/x')
      .expect(400);
    expect(res.body).toEqual({ detail: 'The request could not be read.' });
  });

  it('an error that only carries a status (a provider SDK refusing our own key) stays a 500', async () => {
    const res = await request(throwing(Object.assign(new Error('Authentication failed'), { statusCode: 401 })))
      .get('/x')
      .expect(500);
    expect(res.body.detail).toBe('Something went wrong on our side. Please try again.');
  });
});
