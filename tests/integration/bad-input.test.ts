import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, onlineBooking } from '../support/factories.ts';

let database: TestDatabase;
let app: ReturnType<typeof testApp>;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
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
    const res = await expectRejected(
      request(app).post('/confirm-booking').set('content-type', 'application/json').send('{"therapist_id": 1,'),
      400,
    );
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
    await expectRejected(request(app).post('/confirm-booking').send(onlineBooking({ client_note: 'x'.repeat(100_000) })), 413);
  });

  it('unknown fields are refused by name', async () => {
    const res = await expectRejected(request(app).post('/confirm-booking').send({ ...onlineBooking(), is_admin: true, __proto__x: 1 }), 400);
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

  it.each(["1; drop table bookings", "1' or '1'='1", '1 union select 1', '%00', '../../etc'])(
    'SQL-looking or odd query values: therapist_id=%s',
    async (value) => {
      const res = await request(app).get(`/booked-slots?therapist_id=${encodeURIComponent(value)}`).expect(400);
      expect(res.body.detail).toMatch(/therapist_id/);
    },
  );

  it('repeated query parameters are refused, not merged', async () => {
    await request(app).get('/api/slots?therapist_id=1&therapist_id=2').expect(400);
  });

  it('unknown query parameters are refused', async () => {
    await request(app).get('/api/slots?therapist_id=1&debug=1').expect(400);
  });
});
