/**
 * GET /metrics (issue 32): Prometheus text, only with METRICS_TOKEN as the bearer token (404 when it is
 * unset); routes as templates, never raw paths; the database's and queues' counts; the worker's own.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { createJobsClient, type JobsClient } from '../../shared/core/jobs/queues.ts';
import { recordCapture, recordRefund } from '../../shared/core/repositories/ledger.repository.ts';
import { bearer, createAdmins, insertBooking, tokenFor, type Admins } from '../support/admin.ts';
import { testApp, testConfig } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { offlineBooking } from '../support/factories.ts';
import { freePort, startStack, type Stack } from '../support/stack.ts';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
let database: TestDatabase;
let admins: Admins;
let jobs: JobsClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  jobs = createJobsClient('redis://127.0.0.1:6379', `metrics-${randomBytes(4).toString('hex')}`);
  const paid = await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-12-01', bookingTimeSlotStart: '10:00' });
  await recordCapture(database.db, {
    bookingId: paid.id,
    provider: 'sandbox',
    paymentId: 'pay_m1',
    amountPaise: 150_000,
    method: 'UPI',
    occurredAt: new Date(),
  });
  await recordRefund(database.db, {
    bookingId: paid.id,
    provider: 'sandbox',
    paymentId: 'pay_m1',
    refundId: 'rfnd_m1',
    amountPaise: 10_000,
    reason: 'Goodwill',
    occurredAt: new Date(),
  });
  const desk = await insertBooking(database.db, {
    therapistId: 5,
    bookingType: 'OFFLINE',
    locationId: 1,
    bookingDate: '2026-12-01',
    bookingTimeSlotStart: '11:00',
  });
  await recordCapture(database.db, {
    bookingId: desk.id,
    provider: 'counter',
    paymentId: 'cash_m2',
    amountPaise: 180_000,
    method: 'CASH',
    occurredAt: new Date(),
  });
});
afterAll(async () => {
  await jobs.close();
  await database.drop();
});

/** The sample `name{labels}` of the exposition, whatever order its labels are written in. */
const value = (text: string, sample: string) => {
  const parse = (s: string) => {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\}$/.exec(s);
    return m ? `${m[1]}{${m[2]!.split(',').sort().join(',')}}` : s;
  };
  const wanted = parse(sample);
  for (const line of text.split('\n')) {
    const at = line.lastIndexOf(' ');
    if (line.startsWith('#') || !line.includes('{') || at < 0) continue;
    if (parse(line.slice(0, at)) === wanted) return Number(line.slice(at + 1));
  }
  return undefined;
};

describe('GET /metrics on the API', () => {
  it('is not there at all without METRICS_TOKEN', async () => {
    const app = testApp(database, { jobs });
    const res = await request(app).get('/metrics').expect(404);
    expect(res.body.detail).toBeTruthy();
  });

  it('answers only the metrics token, and says what the database and the queues hold', async () => {
    const app = testApp(database, { jobs, config: { ...testConfig, metricsToken: TOKEN } });
    await request(app).get('/metrics').expect(401);
    await request(app).get('/metrics').set('authorization', 'Bearer not-the-token-at-all-0123456789').expect(401);
    await request(app)
      .get('/metrics')
      .set(bearer(tokenFor(admins.superadmin, new Date())))
      .expect(401);

    // Some traffic: a cached public read, a booking, an admin call with an id in its path.
    await request(app).get('/therapists').expect(200);
    const booked = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-12-02' }))
      .expect(200);
    await request(app)
      .post(`/api/admin/bookings/${booked.body.booking_id}/attendance`)
      .set(bearer(tokenFor(admins.admin, new Date())))
      .send({ status: 'ATTENDED' });
    await request(app).get('/no/such/page/k3J9_xQ-7bZr2LmN8pVt4YwA1cDe6FgH0iJkLmNoPqR').expect(404);

    const res = await request(app).get('/metrics').set('authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.text;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(value(text, 'http_request_duration_seconds_count{process="api",method="GET",route="/therapists",status_class="2xx"}')).toBe(1);
    expect(value(text, 'http_request_duration_seconds_count{process="api",method="POST",route="/confirm-booking",status_class="2xx"}')).toBe(1);
    expect(text).toMatch(/route="\/api\/admin\/bookings\/:id\/attendance"/);
    expect(text).toMatch(/route="\(no route\)",status_class="4xx"/);
    // Never a raw path: no booking id, no token.
    expect(text).not.toContain(`/bookings/${booked.body.booking_id}/`);
    expect(text).not.toContain('k3J9_xQ');

    // Counts from the database: every booking row by type, every ledger row by method.
    expect(value(text, 'bookings_created_total{process="api",type="OFFLINE"}')).toBe(2);
    expect(value(text, 'bookings_created_total{process="api",type="ONLINE"}')).toBe(1);
    expect(value(text, 'payments_recorded_total{process="api",method="UPI"}')).toBe(1);
    expect(value(text, 'payments_recorded_total{process="api",method="CASH"}')).toBe(1);
    expect(value(text, 'refunds_recorded_total{process="api",method="OTHER"}') ?? value(text, 'refunds_recorded_total{process="api",method="UPI"}')).toBe(1);
    expect(value(text, 'job_failures_open{process="api"}')).toBe(0);
    // The booking's mails wait in the outbox (no relay here); the queues are counted as they stand.
    expect(value(text, 'queue_jobs{process="api",queue="mail",state="waiting"}')).toBe(0);
    expect(text).toMatch(/^process_resident_memory_bytes\{process="api"\} \d+/m);
  });
});

describe("the worker's own metrics on WORKER_METRICS_PORT", () => {
  let stack: Stack;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    stack = await startStack({ METRICS_TOKEN: TOKEN, WORKER_METRICS_PORT: String(port) });
  }, 120_000);
  afterAll(() => stack?.stop());

  it('counts the jobs it ran, behind the same token', async () => {
    const res = await fetch(`${stack.baseUrl}/confirm-booking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(offlineBooking({ booking_date: '2026-12-02' })),
    });
    expect(res.status).toBe(200);
    const url = `http://127.0.0.1:${port}/metrics`;
    // The worker listens once it has started, which the API's readiness does not wait for.
    let first: Response | undefined;
    for (let i = 0; i < 100 && !first; i++) first = await fetch(url).catch(() => sleep(100).then(() => undefined));
    expect(first?.status).toBe(401);
    let text = '';
    for (let i = 0; i < 100 && !text.includes('job="mail.booking-confirmation",outcome="completed"'); i++) {
      text = await (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      await sleep(100);
    }
    expect(value(text, 'worker_jobs_total{process="worker",queue="mail",job="mail.booking-confirmation",outcome="completed"}')).toBe(2);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{process="worker"\}/m);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });
});
