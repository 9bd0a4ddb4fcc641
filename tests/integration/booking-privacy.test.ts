import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '../../shared/contract/admin.ts';
import { API_MESSAGES } from '../../shared/contract/messages.ts';
import type { Config } from '../../shared/core/config.ts';
import { bookings } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import type { JobsClient } from '../../shared/core/jobs/queues.ts';
import { callbackSignature } from '../../shared/core/providers/payments/payments.provider.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { bearer, createAdmins, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking, ASHA_HOURS, OFFER_DAYS } from '../support/factories.ts';
import { configFor, inProcessPayments } from '../support/jobs.ts';

let database: TestDatabase;
let config: Config;
let payments: SandboxPayments;
let jobs: JobsClient;
let admins: Admins;
let app: Express;
const clock = fixedClock(MONDAY_MORNING_IST);

function appWith(env: Record<string, string> = {}): Express {
  const cfg = configFor({ PUBLIC_BASE_URL: 'http://127.0.0.1:9', ...env });
  return testApp(database, { config: cfg, now: clock.now, payments, jobs });
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  config = configFor({ PUBLIC_BASE_URL: 'http://127.0.0.1:9' });
  ({ payments, jobs } = inProcessPayments(database, config, clock.now));
  admins = await createAdmins(database.db);
  app = appWith();
});
afterAll(async () => {
  await database.drop();
});

const row = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
let slot = 0;
/** A slot of Dr. Asha Mehta no other test of this file has asked for. */
function nextSlot(): { booking_date: string; booking_time_slot_start: string } {
  const n = slot++;
  return { booking_date: OFFER_DAYS[Math.floor(n / ASHA_HOURS.length)]!, booking_time_slot_start: ASHA_HOURS[n % ASHA_HOURS.length]! };
}
/** Forgets which addresses earlier holds came from, so an address limit starts from nothing. */
const forgetAddresses = () => database.db.update(bookings).set({ clientAddressHash: null });
/** A distinct client per booking, so the hold limits of other tests never interfere. */
let clientNo = 0;
function client(): { client_email: string; client_mobile: string } {
  clientNo++;
  return { client_email: `client${clientNo}@example.com`, client_mobile: `90000${String(clientNo).padStart(5, '0')}` };
}

function book(target: Express = app, overrides: Record<string, unknown> = {}) {
  return request(target)
    .post('/confirm-booking')
    .send(onlineBooking({ ...nextSlot(), ...client(), ...overrides }));
}

const PERSONAL = ['client_full_name', 'client_email', 'client_mobile', 'client_note', 'google_meet_link'];

describe('a booking is private to the client who made it', () => {
  it('answers the booking token once, and keeps only its hash', async () => {
    const res = await book().expect(200);
    expect(res.body).toEqual({
      booking_id: expect.any(Number),
      message: 'Booking created successfully.',
      booking_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const stored = await row(res.body.booking_id);
    expect(stored.bookingTokenHash).toBe(createHash('sha256').update(res.body.booking_token).digest('hex'));
    // The token itself is in no column of the row.
    expect(JSON.stringify(stored)).not.toContain(res.body.booking_token);
    // Two bookings never share a token.
    const other = await book().expect(200);
    expect(other.body.booking_token).not.toBe(res.body.booking_token);
  });

  it('gives a payment link only for the booking token or an admin token: a loop over booking ids gets nothing', async () => {
    const mine = await book().expect(200);
    const id = mine.body.booking_id as number;
    for (const n of [1, 2, 3, id, id + 1, 2_000_000_000]) {
      const res = await request(app).post('/api/payment/generate-link').send({ booking_id: n }).expect(403);
      expect(res.body.detail).toMatch(/token/);
      expect(res.body.payment_link_id).toBeUndefined();
    }
    await request(app).post('/api/payment/generate-link').set('X-Booking-Token', 'A'.repeat(43)).send({ booking_id: id }).expect(403);
    // Another booking's token does not open this one.
    const theirs = await book().expect(200);
    await request(app).post('/api/payment/generate-link').set('X-Booking-Token', theirs.body.booking_token).send({ booking_id: id }).expect(403);
    expect((await row(id)).razorpayPaymentLinkId).toBeNull();

    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', mine.body.booking_token).send({ booking_id: id }).expect(200);
    expect(link.body.payment_link_id).toMatch(/^plink_/);
    // The token may also come in the body; the same link is answered.
    const again = await request(app).post('/api/payment/generate-link').send({ booking_id: id, booking_token: mine.body.booking_token }).expect(200);
    expect(again.body).toEqual(link.body);
    const admin = await request(app)
      .post('/api/payment/generate-link')
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .send({ booking_id: theirs.body.booking_id })
      .expect(200);
    expect(admin.body.payment_link_id).toMatch(/^plink_/);
  });

  it('refuses a link (409) for a booking already paid, cancelled or failed, even with its token', async () => {
    for (const change of [{ paymentStatus: 'COMPLETED' as const }, { cancelled: true }, { paymentStatus: 'FAILED' as const }]) {
      const res = await book().expect(200);
      await database.db.update(bookings).set(change).where(eq(bookings.id, res.body.booking_id));
      const refused = await request(app)
        .post('/api/payment/generate-link')
        .set('X-Booking-Token', res.body.booking_token)
        .send({ booking_id: res.body.booking_id })
        .expect(409);
      expect(refused.body.detail).toMatch(/not awaiting an online payment/);
      expect(refused.body.payment_link_id).toBeUndefined();
    }
    // In person: nothing to pay online.
    const offline = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ ...client(), booking_time_slot_start: '11:00' }))
      .expect(200);
    await request(app)
      .post('/api/payment/generate-link')
      .set('X-Booking-Token', offline.body.booking_token)
      .send({ booking_id: offline.body.booking_id })
      .expect(409);
  });

  it('answers the details of a booking without proof with its payment status only, and by booking number not at all', async () => {
    const mine = await book(app, { client_full_name: 'Zarina Qadri', client_note: 'Sleep has been hard since June' }).expect(200);
    const id = mine.body.booking_id as number;
    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', mine.body.booking_token).send({ booking_id: id }).expect(200);
    const linkId = link.body.payment_link_id as string;

    const bare = await request(app).get(`/api/get-razorpay-details/${linkId}`).expect(200);
    expect(bare.body).toEqual({ data: { payment_status: 'INITIATED' } });
    expect(JSON.stringify(bare.body)).not.toMatch(/Zarina|Sleep|example\.com/);
    await request(app).get(`/api/get-razorpay-details/${id}`).expect(404);
    await request(app).get(`/api/get-razorpay-details/${id}`).set('X-Booking-Token', 'A'.repeat(43)).expect(404);

    const withToken = await request(app).get(`/api/get-razorpay-details/${linkId}`).set('X-Booking-Token', mine.body.booking_token).expect(200);
    expect(withToken.body.data).toMatchObject({
      id,
      client_full_name: 'Zarina Qadri',
      client_note: 'Sleep has been hard since June',
      payment_status: 'INITIATED',
    });
    const byNumber = await request(app).get(`/api/get-razorpay-details/${id}`).set('X-Booking-Token', mine.body.booking_token).expect(200);
    expect(byNumber.body.data.client_full_name).toBe('Zarina Qadri');
    expect(withToken.headers['cache-control']).toBe('no-store');
  });

  it('answers the client record to the provider’s signed callback for that booking, and not to a forged one', async () => {
    const mine = await book(app, { client_full_name: 'Ishaan Verma' }).expect(200);
    const id = mine.body.booking_id as number;
    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', mine.body.booking_token).send({ booking_id: id }).expect(200);
    const params = {
      razorpay_payment_link_id: link.body.payment_link_id as string,
      razorpay_payment_link_reference_id: String(id),
      razorpay_payment_link_status: 'paid',
      razorpay_payment_id: 'pay_Forged00000001',
    };
    const forged = await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ ...params, razorpay_signature: 'f'.repeat(64) });
    expect(forged.status).toBe(404);
    const secret = (config.payments as { secret: string }).secret;
    const signed = await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ ...params, razorpay_signature: callbackSignature(secret, params) })
      .expect(200);
    expect(signed.body.data).toMatchObject({ id, client_full_name: 'Ishaan Verma' });
    // A signed callback of a failed attempt proves nothing: whoever holds the link can make one.
    const failedParams = { ...params, razorpay_payment_link_status: 'failed' };
    await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ ...failedParams, razorpay_signature: callbackSignature(secret, failedParams) })
      .expect(404);
    // A signature for one booking proves nothing about another, either way round.
    const other = await book().expect(200);
    await request(app)
      .get(`/api/get-razorpay-details/${other.body.booking_id}`)
      .query({ ...params, razorpay_signature: callbackSignature(secret, params) })
      .expect(404);
    const otherParams = { ...params, razorpay_payment_link_reference_id: String(other.body.booking_id) };
    await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ ...otherParams, razorpay_signature: callbackSignature(secret, otherParams) })
      .expect(404);
  });

  it('lets a stranger looping over booking ids read no personal field anywhere', async () => {
    for (let i = 0; i < 3; i++) await book().expect(200);
    const { max } = (await database.db.execute<{ max: number }>(sql`select max(id)::int as max from bookings`)).rows[0]!;
    for (let n = 1; n <= max; n++) {
      // The same refusal whether or not booking n exists: the answers tell the ids apart by nothing.
      const NOT_FOUND = 'Failed to retrieve booking details. Please contact support.';
      const answers = [
        [await request(app).post('/api/payment/generate-link').send({ booking_id: n }), 403, API_MESSAGES.bookingTokenRequired],
        [await request(app).get(`/api/get-razorpay-details/${n}`).query({ payment_status: 'paid' }), 404, NOT_FOUND],
        [
          await request(app).post(`/api/admin/bookings/${n}/update-payment-link`).send({ payment_link_url: 'https://pay.example.test/x' }),
          401,
          ADMIN_MESSAGES.unauthorized,
        ],
      ] as const;
      for (const [res, status, detail] of answers) {
        expect([n, res.status, res.body]).toEqual([n, status, { detail }]);
        for (const field of [...PERSONAL, 'payment_link_id', 'short_url']) expect(JSON.stringify(res.body)).not.toContain(`"${field}"`);
      }
    }
  });

  it('shows the amount and the centre’s name on the sandbox checkout, not the client’s', async () => {
    const mine = await book(app, { client_full_name: 'Tanvi Rao' }).expect(200);
    const link = await request(app)
      .post('/api/payment/generate-link')
      .set('X-Booking-Token', mine.body.booking_token)
      .send({ booking_id: mine.body.booking_id })
      .expect(200);
    const page = await request(app).get(`/sandbox/checkout/${link.body.payment_link_id}`).expect(200);
    expect(page.text).toContain('₹1,500.00');
    expect(page.text).toContain(config.centreName);
    expect(page.text).not.toContain('Tanvi');
  });

  it('lets the wizard confirm its stored link only with the booking token', async () => {
    const mine = await book().expect(200);
    const id = mine.body.booking_id as number;
    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', mine.body.booking_token).send({ booking_id: id }).expect(200);
    const path = `/api/admin/bookings/${id}/update-payment-link`;
    // Without any token it is an admin call: 401.
    await request(app).post(path).send({ payment_link_url: link.body.short_url }).expect(401);
    await request(app).post(path).set('X-Booking-Token', 'A'.repeat(43)).send({ payment_link_url: link.body.short_url }).expect(403);
    await request(app).post(path).set('X-Booking-Token', mine.body.booking_token).send({ payment_link_url: link.body.short_url }).expect(200);
    await request(app).post(path).set('X-Booking-Token', mine.body.booking_token).send({ payment_link_url: 'https://evil.example/pay' }).expect(403);
    expect((await row(id)).paymentLinkUrl).toBe(link.body.short_url);
  });
});

describe('payment_transaction_id is an idempotency key', () => {
  it('a retry with the same key and payload answers the same booking and the same token', async () => {
    const payload = onlineBooking({ ...nextSlot(), ...client(), payment_transaction_id: 'retry-key-0001' });
    const first = await request(app).post('/confirm-booking').send(payload).expect(200);
    const retry = await request(app).post('/confirm-booking').send(payload).expect(200);
    expect(retry.body).toEqual(first.body);
    expect(await database.db.$count(bookings, eq(bookings.paymentTransactionId, 'retry-key-0001'))).toBe(1);
    // Whichever answer got through, its token works: a retry cannot lock the client out of their booking.
    await request(app)
      .post('/api/payment/generate-link')
      .set('X-Booking-Token', first.body.booking_token)
      .send({ booking_id: first.body.booking_id })
      .expect(200);
  });

  it('a key is no way to a booking once it was paid, cancelled or is older than a hold', async () => {
    for (const change of [{ paymentStatus: 'COMPLETED' as const }, { cancelled: true }, { createdAt: new Date(Date.now() - 21 * 60_000) }]) {
      const payload = onlineBooking({ ...nextSlot(), ...client() });
      const made = await request(app).post('/confirm-booking').send(payload).expect(200);
      const key = (await row(made.body.booking_id)).paymentTransactionId!;
      await database.db.update(bookings).set(change).where(eq(bookings.id, made.body.booking_id));
      const again = await request(app)
        .post('/confirm-booking')
        .send({ ...payload, payment_transaction_id: key })
        .expect(409);
      expect(again.body.detail).toMatch(/already made/);
      expect(again.body.booking_token).toBeUndefined();
    }
  });

  it('a retry of a client at the hold limit still finds its own booking', async () => {
    const limited = appWith({ HOLDS_PER_CLIENT: '2', HOLDS_PER_IP: '0' });
    const who = client();
    await book(limited, who).expect(200);
    const payload = onlineBooking({ ...nextSlot(), ...who, payment_transaction_id: 'retry-key-limit' });
    const first = await request(limited).post('/confirm-booking').send(payload).expect(200);
    const retry = await request(limited).post('/confirm-booking').send(payload).expect(200);
    expect(retry.body).toEqual(first.body);
  });

  it('the same key with a different payload is 409 and writes nothing', async () => {
    const payload = onlineBooking({ ...nextSlot(), ...client(), payment_transaction_id: 'retry-key-0002' });
    await request(app).post('/confirm-booking').send(payload).expect(200);
    const before = await database.db.$count(bookings);
    for (const change of [nextSlot(), { client_full_name: 'Somebody Else' }, { client_email: 'other@example.com' }]) {
      const res = await request(app)
        .post('/confirm-booking')
        .send({ ...payload, ...change })
        .expect(409);
      expect(res.body.detail).toMatch(/already used for a different booking/);
    }
    expect(await database.db.$count(bookings)).toBe(before);
  });

  it('the same request sent ten times at once makes one booking, and every answer names it', async () => {
    const payload = onlineBooking({ ...nextSlot(), ...client(), payment_transaction_id: 'retry-key-0003' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(app).post('/confirm-booking').send(payload)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.booking_id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.booking_token)).size).toBe(1);
    expect(await database.db.$count(bookings, eq(bookings.paymentTransactionId, 'retry-key-0003'))).toBe(1);
  });

  it('two bookings never share a key in the database', async () => {
    const one = await book().expect(200);
    const two = await book().expect(200);
    await expect(
      database.db
        .update(bookings)
        .set({ paymentTransactionId: (await row(one.body.booking_id)).paymentTransactionId })
        .where(eq(bookings.id, two.body.booking_id)),
    ).rejects.toThrow(/bookings_payment_txn_uq|Failed query/);
  });
});

describe('hold limits', () => {
  it('allows HOLDS_PER_CLIENT live unpaid holds per e-mail and per mobile, then 429 with Retry-After', async () => {
    const limited = appWith({ HOLDS_PER_CLIENT: '2', HOLDS_PER_IP: '0' });
    const who = client();
    await book(limited, who).expect(200);
    await book(limited, who).expect(200);
    const before = await database.db.$count(bookings);
    const third = await book(limited, who).expect(429);
    expect(third.body.detail).toMatch(/You already have 2 bookings waiting for payment/);
    // A hold's whole length, whenever the client's holds end: the answer must not tell a stranger
    // probing with someone's e-mail or mobile when that person booked.
    expect(third.headers['retry-after']).toBe(String(20 * 60));
    // The same mobile under another e-mail is the same client.
    await book(limited, { ...client(), client_mobile: who.client_mobile }).expect(429);
    await book(limited, { ...client(), client_email: who.client_email }).expect(429);
    expect(await database.db.$count(bookings)).toBe(before);
    // In person is no hold; another client is not limited.
    await request(limited)
      .post('/confirm-booking')
      .send(offlineBooking({ ...who, booking_time_slot_start: '12:00' }))
      .expect(200);
    await book(limited).expect(200);
  });

  it('counts neither paid nor expired holds, and exempts admins', async () => {
    const limited = appWith({ HOLDS_PER_CLIENT: '1', HOLDS_PER_IP: '0' });
    const who = client();
    const paid = await book(limited, who).expect(200);
    await book(limited, who).expect(429);
    await database.db.update(bookings).set({ paymentStatus: 'COMPLETED', paymentHoldExpiresAt: null }).where(eq(bookings.id, paid.body.booking_id));
    const second = await book(limited, who).expect(200);
    // A hold whose time is over is no longer live, even before the worker marks it FAILED.
    await database.db
      .update(bookings)
      .set({ paymentHoldExpiresAt: new Date(clock.now().getTime() - 1000) })
      .where(eq(bookings.id, second.body.booking_id));
    await book(limited, who).expect(200);
    const manual = await request(limited)
      .post('/confirm-booking')
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .send({
        therapist_id: 1,
        ...nextSlot(),
        client_full_name: 'Meera Pillai',
        ...who,
        booking_type: 'ONLINE',
        location_id: 0,
        amount: 1500,
        admin_confirmed: true,
        payment_status: 'COMPLETED',
        payment_transaction_id: 'manual-hold-exempt',
      });
    expect(manual.status).toBe(200);
  });

  it('allows HOLDS_PER_IP new unpaid holds per address in 10 minutes, then 429 with Retry-After', async () => {
    await forgetAddresses();
    const limited = appWith({ HOLDS_PER_CLIENT: '0', HOLDS_PER_IP: '3' });
    // Without TRUST_PROXY a rotating X-Forwarded-For is no way round it: the socket's address counts.
    for (let i = 0; i < 3; i++) await book(limited).set('X-Forwarded-For', `203.0.113.${i}`).expect(200);
    const fourth = await book(limited).set('X-Forwarded-For', '203.0.113.99').expect(429);
    expect(fourth.body.detail).toMatch(/Too many unpaid bookings/);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(600);
    // Behind a proxy named in TRUST_PROXY each client address has its own count.
    const proxied = appWith({ HOLDS_PER_CLIENT: '0', HOLDS_PER_IP: '3', TRUST_PROXY: 'loopback' });
    for (let i = 0; i < 3; i++) await book(proxied).set('X-Forwarded-For', '198.51.100.7').expect(200);
    await book(proxied).set('X-Forwarded-For', '198.51.100.7').expect(429);
    await book(proxied).set('X-Forwarded-For', '198.51.100.8').expect(200);
    // 0 turns both limits off.
    await book(appWith({ HOLDS_PER_CLIENT: '0', HOLDS_PER_IP: '0' })).expect(200);
  });

  it('holds asked for at the same moment cannot slip past the limit', async () => {
    const limited = appWith({ HOLDS_PER_CLIENT: '2', HOLDS_PER_IP: '0' });
    const who = client();
    const answers = await Promise.all(Array.from({ length: 12 }, () => book(limited, who)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(10);
    expect(await database.db.$count(bookings, eq(bookings.clientEmail, who.client_email))).toBe(2);
  });

  it('one script can no longer take every slot of a therapist', async () => {
    await forgetAddresses();
    // The defaults of npm start: 2 holds per client, 10 per address.
    const limited = appWith({ HOLDS_PER_CLIENT: '2', HOLDS_PER_IP: '10' });
    const same = client();
    expect([(await book(limited, same)).status, (await book(limited, same)).status, (await book(limited, same)).status]).toEqual([200, 200, 429]);
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push((await book(limited, client())).status);
    // Two of the address's ten went to the same client above.
    expect(answers.filter((s) => s === 200)).toHaveLength(8);
    expect(answers.slice(8).every((s) => s === 429)).toBe(true);
  });
});

describe('the client’s own booking across a failed or abandoned payment (issue 19)', () => {
  const linkRequest = (id: number) => ({
    amount: 1500,
    currency: 'INR',
    description: 'x',
    customer_name: 'Meera Pillai',
    customer_email: 'meera.pillai@example.com',
    customer_phone: '9876543210',
    booking_id: id,
  });

  it('Pay again after Back from the checkout: the same key answers the same booking, and the same link', async () => {
    const payload = onlineBooking({ ...nextSlot(), ...client(), payment_transaction_id: 'back-from-checkout-1' });
    const first = await request(app).post('/confirm-booking').send(payload).expect(200);
    const token = first.body.booking_token as string;
    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', token).send(linkRequest(first.body.booking_id)).expect(200);
    // The client comes back from the checkout and presses Pay: never "This time slot has just been booked".
    const again = await request(app).post('/confirm-booking').send(payload).expect(200);
    expect(again.body).toEqual(first.body);
    const sameLink = await request(app)
      .post('/api/payment/generate-link')
      .set('X-Booking-Token', again.body.booking_token)
      .send(linkRequest(again.body.booking_id))
      .expect(200);
    expect(sameLink.body).toEqual(link.body);
  });

  it('after a failed attempt the booking’s client gets its link and the time its hold has left; others only the status', async () => {
    const made = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ ...nextSlot(), ...client() }))
      .expect(200);
    const id = made.body.booking_id as number;
    const token = made.body.booking_token as string;
    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', token).send(linkRequest(id)).expect(200);
    const failed = new URL(await payments.fail(link.body.payment_link_id));
    const query = Object.fromEntries(failed.searchParams);
    expect(query).toMatchObject({ razorpay_payment_link_status: 'failed', razorpay_payment_link_reference_id: String(id) });
    const lookup = () =>
      request(app)
        .get(`/api/get-razorpay-details/${link.body.payment_link_id}`)
        .query({ payment_status: 'failed', ...query });
    const mine = await lookup().set('X-Booking-Token', token).expect(200);
    expect(mine.body.data).toMatchObject({
      id,
      payment_status: 'INITIATED',
      payment_link_url: link.body.short_url,
      // Made at the clock's instant: the whole 20-minute hold is left.
      payment_hold_seconds_left: 20 * 60,
      payment_hold_expires_at: new Date(clock.now().getTime() + 20 * 60_000).toISOString(),
    });
    const theirs = await lookup().expect(200);
    expect(theirs.body).toEqual({ data: { payment_status: 'INITIATED' } });
  });
});

describe('client details as people write them (issue 19)', () => {
  it('a mobile written +91 98765 43210, 91-…, 0… or with spaces is stored as its 10 digits', async () => {
    for (const [written, n] of [
      ['+91 98765 43210', 1],
      ['09876543210', 2],
      ['91-98765-43210', 3],
      ['098765 43210', 4],
    ] as const) {
      const who = client();
      const made = await request(app)
        .post('/confirm-booking')
        .send(onlineBooking({ ...nextSlot(), client_email: who.client_email, client_mobile: written }))
        .expect(200);
      expect((await row(made.body.booking_id)).clientMobile, `form ${n}`).toBe('9876543210');
    }
    // Ten digits are ten digits (the spec's rule); only longer forms lose a prefix.
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ ...nextSlot(), client_email: client().client_email, client_mobile: '0987654321' }))
      .expect(200);
    for (const bad of ['+91 98765 4321', '98765-432101', '+44 7700 900123']) {
      // Refused before any slot is looked at: the factory's own slot will do.
      const res = await request(app)
        .post('/confirm-booking')
        .send(onlineBooking({ client_mobile: bad }));
      expect(res.status, bad).toBe(400);
      expect(res.body.errors.client_mobile).toBe('Mobile number must be 10 digits');
    }
  });

  it('refuses an e-mail with an empty part between dots', async () => {
    for (const email of ['user@example..com', '.user@example.com', 'user.@example.com', 'user@-example.com', 'user@example.c']) {
      const res = await request(app)
        .post('/confirm-booking')
        .send(onlineBooking({ client_email: email }))
        .expect(400);
      expect(res.body.errors.client_email, email).toBe('Please enter a valid email address');
    }
  });

  it('under 18 a booking needs a parent’s or guardian’s consent; the server refuses it without', async () => {
    const res = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ client_age: 12 }))
      .expect(400);
    expect(res.body.errors).toEqual({ guardian_consent: 'A parent or guardian must agree to this booking for a client under 18' });
    expect(res.body.detail).toBeTruthy();
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ client_age: 12, guardian_consent: false }))
      .expect(400);
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ ...nextSlot(), ...client(), client_age: 12, guardian_consent: true }))
      .expect(200);
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ ...nextSlot(), ...client(), client_age: 18 }))
      .expect(200);
  });
});
