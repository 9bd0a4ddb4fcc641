import { createHmac, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import nock from 'nock';
import Razorpay from 'razorpay';
import rzpUtils from 'razorpay/dist/utils/razorpay-utils.js';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Express } from 'express';
import { bookings, outbox, therapists } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { AppError } from '../../shared/core/errors.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { googleMeetProvider } from '../../shared/core/providers/meetings/google.provider.ts';
import { razorpayProvider } from '../../shared/core/providers/payments/razorpay.provider.ts';
import { createLinkForBooking, reconcileBooking, type PaymentDeps } from '../../shared/core/services/payment.service.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, onlineBooking } from '../support/factories.ts';
import { configFor, testPrefix } from '../support/jobs.ts';

const KEY_ID = 'rzp_test_1DP5mmOlF5G5ag';
const KEY_SECRET = 'thisisthekeysecretfortests';
const WEBHOOK_SECRET = 'webhook-secret-for-tests';
const API = 'https://api.razorpay.com';

let database: TestDatabase;
let app: Express;
let deps: PaymentDeps;
const clock = fixedClock(MONDAY_MORNING_IST);
const config = configFor({
  RAZORPAY_KEY_ID: KEY_ID,
  RAZORPAY_KEY_SECRET: KEY_SECRET,
  RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
  PUBLIC_BASE_URL: 'https://booking.example.in',
  QUEUE_PREFIX: testPrefix(),
});

beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
  database = await createTestDatabase();
  await seedDemoData(database.db);
  const payments = razorpayProvider({ keyId: KEY_ID, keySecret: KEY_SECRET, webhookSecret: WEBHOOK_SECRET });
  deps = { db: database.db, payments, config, logger: createLogger({ level: 'silent' }), now: clock.now };
  app = testApp(database, { config, now: clock.now, payments });
});
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
});
afterAll(async () => {
  nock.enableNetConnect();
  await database.drop();
});

const row = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const hmac = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('hex');
let slot = 0;
const HOURS = [10, 11, 12, 14, 15, 16];
/** Each booking on its own slot of the seeded working day, from 25 November (17:00 on the 24th is left for one test). */
async function newBooking(overrides: Record<string, unknown> = {}): Promise<number> {
  const n = slot++;
  const res = await request(app)
    .post('/confirm-booking')
    .send(
      onlineBooking({ booking_date: `2026-11-${25 + Math.floor(n / HOURS.length)}`, booking_time_slot_start: `${HOURS[n % HOURS.length]}:00`, ...overrides }),
    )
    .expect(200);
  return res.body.booking_id;
}

function linkEntity(id: string, bookingId: number, status: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    entity: 'payment_link',
    amount: 150000,
    currency: 'INR',
    reference_id: String(bookingId),
    status,
    short_url: `https://rzp.io/i/${id.slice(6, 12)}`,
    ...extra,
  };
}

/** A link made through the real SDK against nock, stored on the booking. */
async function withLink(bookingId: number, linkId: string): Promise<void> {
  nock(API)
    .get('/v1/payment_links')
    .query((q) => q.reference_id === String(bookingId))
    .reply(200, { payment_links: [], count: 0 });
  nock(API)
    .post('/v1/payment_links')
    .reply(200, linkEntity(linkId, bookingId, 'created'));
  await createLinkForBooking(deps, bookingId);
}

describe('Razorpay Payment Links through the official SDK', () => {
  it('creates the link with exactly the Payment Links API fields, basic auth, and stores it on the booking', async () => {
    const id = await newBooking();
    let body: Record<string, unknown> = {};
    nock(API)
      .get('/v1/payment_links')
      .query((q) => q.reference_id === String(id))
      .basicAuth({ user: KEY_ID, pass: KEY_SECRET })
      .reply(200, { entity: 'collection', count: 0, payment_links: [] });
    nock(API)
      .post('/v1/payment_links', (b) => {
        body = b;
        return true;
      })
      .matchHeader('authorization', `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`)
      .matchHeader('content-type', /^application\/json/)
      .reply(200, linkEntity('plink_ExjpAUN3gVHrPJ', id, 'created', { short_url: 'https://rzp.io/i/nxrHnLJ' }));
    const result = await createLinkForBooking(deps, id);
    expect(result).toEqual({ short_url: 'https://rzp.io/i/nxrHnLJ', payment_link_id: 'plink_ExjpAUN3gVHrPJ' });
    expect(Object.keys(body).sort()).toEqual(
      [
        'accept_partial',
        'amount',
        'callback_method',
        'callback_url',
        'currency',
        'customer',
        'description',
        'expire_by',
        'notify',
        'reference_id',
        'reminder_enable',
      ].sort(),
    );
    expect(body.amount).toBe(150000);
    expect(body.currency).toBe('INR');
    expect(body.accept_partial).toBe(false);
    expect(body.reference_id).toBe(String(id));
    expect(body.description).toContain('session with Asha Mehta on');
    expect(body.customer).toEqual({ name: 'Meera Pillai', email: 'meera.pillai@example.com', contact: '+919876543210' });
    expect(body.notify).toEqual({ sms: false, email: false });
    expect(body.reminder_enable).toBe(false);
    expect(body.callback_url).toBe('https://booking.example.in/payment-status');
    expect(body.callback_method).toBe('get');
    // The hold ends 20 minutes after booking: 09:50 IST on 23 November 2026, in unix seconds.
    expect(body.expire_by).toBe(Date.parse('2026-11-23T09:50:00+05:30') / 1000);
    expect(await row(id)).toMatchObject({ paymentLinkUrl: 'https://rzp.io/i/nxrHnLJ', razorpayPaymentLinkId: 'plink_ExjpAUN3gVHrPJ' });
  });

  it('charges ₹1 for a therapist without a price, and finds an earlier link instead of making a second one', async () => {
    await database.db.update(therapists).set({ pricePaise: null }).where(eq(therapists.id, 2));
    const id = await newBooking({ therapist_id: 2 });
    expect((await row(id)).amountPaise).toBe(0);
    let amount = 0;
    nock(API).get('/v1/payment_links').query(true).reply(200, { payment_links: [] });
    nock(API)
      .post('/v1/payment_links', (b) => ((amount = b.amount), true))
      .reply(200, linkEntity('plink_Zero00000000001', id, 'created', { amount: 100 }));
    await createLinkForBooking(deps, id);
    expect(amount).toBe(100);

    const other = await newBooking();
    nock(API)
      .get('/v1/payment_links')
      .query((q) => q.reference_id === String(other))
      .reply(200, { payment_links: [linkEntity('plink_Earlier0000001', other, 'created')] });
    expect((await createLinkForBooking(deps, other)).payment_link_id).toBe('plink_Earlier0000001');
  });
});

describe('callback signature', () => {
  it('verifies against vectors computed with node:crypto and agrees with the SDK', () => {
    const p = {
      razorpay_payment_link_id: 'plink_KdgTQnGNgERRRN',
      razorpay_payment_link_reference_id: '42',
      razorpay_payment_link_status: 'paid',
      razorpay_payment_id: 'pay_KdgUa8I0C8eW5x',
    };
    const signature = hmac(KEY_SECRET, 'plink_KdgTQnGNgERRRN|42|paid|pay_KdgUa8I0C8eW5x');
    expect(deps.payments.verifyCallback({ ...p, razorpay_signature: signature })).toBe(true);
    expect(
      rzpUtils.validatePaymentVerification(
        { payment_link_id: p.razorpay_payment_link_id, payment_id: p.razorpay_payment_id, payment_link_reference_id: '42', payment_link_status: 'paid' },
        signature,
        KEY_SECRET,
      ),
    ).toBe(true);
    expect(deps.payments.verifyCallback({ ...p, razorpay_payment_link_reference_id: '43', razorpay_signature: signature })).toBe(false);
    expect(deps.payments.verifyCallback({ ...p, razorpay_signature: hmac('wrong-secret', 'plink_KdgTQnGNgERRRN|42|paid|pay_KdgUa8I0C8eW5x') })).toBe(false);
    expect(deps.payments.verifyCallback({ ...p, razorpay_signature: 'not-hex' })).toBe(false);
  });

  it('GET /api/get-razorpay-details trusts a signed callback without asking Razorpay, and asks Razorpay about an unsigned one', async () => {
    const id = await newBooking();
    await withLink(id, 'plink_Signed00000001');
    const q = {
      razorpay_payment_link_id: 'plink_Signed00000001',
      razorpay_payment_link_reference_id: String(id),
      razorpay_payment_link_status: 'paid',
      razorpay_payment_id: 'pay_Signed00000001',
    };
    // Forged: Razorpay is asked and says the link is still unpaid.
    nock(API)
      .get('/v1/payment_links/plink_Signed00000001')
      .reply(200, linkEntity('plink_Signed00000001', id, 'created'));
    await request(app)
      .get('/api/get-razorpay-details/plink_Signed00000001')
      .query({ payment_status: 'paid', ...q, razorpay_signature: hmac('guess', 'x') })
      .expect(409);
    expect((await row(id)).paymentStatus).toBe('INITIATED');

    // A bare booking number with an unsigned query reveals nothing.
    await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ ...q, razorpay_signature: 'a'.repeat(64) })
      .expect(404);

    const signed = { ...q, razorpay_signature: hmac(KEY_SECRET, `plink_Signed00000001|${id}|paid|pay_Signed00000001`) };
    const res = await request(app)
      .get('/api/get-razorpay-details/plink_Signed00000001')
      .query({ payment_status: 'paid', ...signed })
      .expect(200);
    expect(res.body.data).toMatchObject({ id, payment_status: 'COMPLETED', razorpay_payment_id: 'pay_Signed00000001', amount: 1500 });
    // Coming back again (here by booking number, with the signed query) changes nothing.
    const byNumber = await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ payment_status: 'paid', ...signed })
      .expect(200);
    expect(byNumber.body.data).toMatchObject({ id, payment_status: 'COMPLETED' });
    const meetings = (await database.db.select().from(outbox)).filter(
      (o) => o.jobName === 'meetings.create' && (o.payload as { bookingId: number }).bookingId === id,
    );
    expect(meetings).toHaveLength(1);
  });
});

describe('webhooks', () => {
  const send = (body: string, signature: string, eventId: string) =>
    request(app)
      .post('/api/payment/webhook')
      .set('content-type', 'application/json')
      .set('x-razorpay-signature', signature)
      .set('x-razorpay-event-id', eventId)
      .send(body);
  const event = (name: string, linkId: string, bookingId: number, status: string, paymentId?: string) =>
    JSON.stringify({
      entity: 'event',
      account_id: 'acc_BFQ7uQEaa7j2z7',
      event: name,
      contains: paymentId ? ['payment_link', 'payment'] : ['payment_link'],
      payload: {
        payment_link: { entity: linkEntity(linkId, bookingId, status) },
        ...(paymentId ? { payment: { entity: { id: paymentId, entity: 'payment', amount: 150000, status: 'captured' } } } : {}),
      },
      created_at: 1795400000,
    });

  it('refuses forged signatures and tampered bodies', async () => {
    const id = await newBooking();
    await withLink(id, 'plink_Forged00000001');
    const body = event('payment_link.paid', 'plink_Forged00000001', id, 'paid', 'pay_Forged00000001');
    await send(body, hmac('not-the-secret', body), 'evt_forged_1').expect(400);
    await send(body, hmac(KEY_SECRET, body), 'evt_forged_2').expect(400); // the key secret is not the webhook secret
    await send(body.replace('"paid"', '"paid" '), hmac(WEBHOOK_SECRET, body), 'evt_forged_3').expect(400);
    await request(app).post('/api/payment/webhook').set('content-type', 'application/json').send(body).expect(400);
    expect((await row(id)).paymentStatus).toBe('INITIATED');
    expect(Razorpay.validateWebhookSignature(body, hmac(WEBHOOK_SECRET, body), WEBHOOK_SECRET)).toBe(true);
  });

  it('processes a paid event once, ignores its replay and a later "expired"', async () => {
    const id = await newBooking();
    await withLink(id, 'plink_Replay00000001');
    const paid = event('payment_link.paid', 'plink_Replay00000001', id, 'paid', 'pay_Replay00000001');
    expect((await send(paid, hmac(WEBHOOK_SECRET, paid), 'evt_replay_1').expect(200)).body.status).toBe('processed');
    const paidAt = (await row(id)).paidAt;
    expect((await send(paid, hmac(WEBHOOK_SECRET, paid), 'evt_replay_1').expect(200)).body.status).toBe('duplicate');
    // Razorpay may also re-deliver under a new event id: still one completion.
    await send(paid, hmac(WEBHOOK_SECRET, paid), 'evt_replay_2').expect(200);
    const expired = event('payment_link.expired', 'plink_Replay00000001', id, 'expired');
    await send(expired, hmac(WEBHOOK_SECRET, expired), 'evt_replay_3').expect(200);
    expect(await row(id)).toMatchObject({ paymentStatus: 'COMPLETED', razorpayPaymentId: 'pay_Replay00000001', paidAt });
    const meetings = (await database.db.select().from(outbox)).filter(
      (o) => o.jobName === 'meetings.create' && (o.payload as { bookingId: number }).bookingId === id,
    );
    expect(meetings).toHaveLength(1);
  });

  it('takes events out of order: "expired" frees the slot, a late "paid" still completes while the slot is free', async () => {
    const id = await newBooking();
    await withLink(id, 'plink_Order000000001');
    const expired = event('payment_link.expired', 'plink_Order000000001', id, 'expired');
    await send(expired, hmac(WEBHOOK_SECRET, expired), 'evt_order_1').expect(200);
    expect((await row(id)).paymentStatus).toBe('FAILED');
    const paid = event('payment_link.paid', 'plink_Order000000001', id, 'paid', 'pay_Order000000001');
    await send(paid, hmac(WEBHOOK_SECRET, paid), 'evt_order_2').expect(200);
    expect((await row(id)).paymentStatus).toBe('COMPLETED');
  });

  it('a late "paid" for a slot that was re-booked meanwhile leaves the new booking alone', async () => {
    const payload = { booking_date: '2026-11-24', booking_time_slot_start: '17:00' };
    const first = (await request(app).post('/confirm-booking').send(onlineBooking(payload)).expect(200)).body.booking_id;
    await withLink(first, 'plink_Late0000000001');
    const expired = event('payment_link.expired', 'plink_Late0000000001', first, 'expired');
    await send(expired, hmac(WEBHOOK_SECRET, expired), 'evt_late_1').expect(200);
    const second = (
      await request(app)
        .post('/confirm-booking')
        .send(onlineBooking({ ...payload, client_full_name: 'Other Client' }))
        .expect(200)
    ).body.booking_id;
    const paid = event('payment_link.paid', 'plink_Late0000000001', first, 'paid', 'pay_Late0000000001');
    await send(paid, hmac(WEBHOOK_SECRET, paid), 'evt_late_2').expect(200);
    expect((await row(first)).paymentStatus).toBe('FAILED');
    expect((await row(second)).paymentStatus).toBe('INITIATED');
  });
});

describe('reconciliation with Razorpay', () => {
  it('completes a paid booking whose client never came back and whose webhook was lost', async () => {
    const id = await newBooking();
    await withLink(id, 'plink_Lost0000000001');
    nock(API)
      .get('/v1/payment_links/plink_Lost0000000001')
      .reply(200, linkEntity('plink_Lost0000000001', id, 'paid', { payments: [{ payment_id: 'pay_Lost0000000001', status: 'captured', amount: 150000 }] }));
    expect(await reconcileBooking(deps, id)).toBe('completed');
    expect(await row(id)).toMatchObject({ paymentStatus: 'COMPLETED', razorpayPaymentId: 'pay_Lost0000000001' });
  });

  it('cancels the link and frees the slot when the hold is over', async () => {
    const id = await newBooking();
    await withLink(id, 'plink_Hold0000000001');
    clock.set('2026-11-23T09:50:00+05:30');
    nock(API)
      .get('/v1/payment_links/plink_Hold0000000001')
      .reply(200, linkEntity('plink_Hold0000000001', id, 'created'));
    nock(API)
      .post('/v1/payment_links/plink_Hold0000000001/cancel')
      .reply(200, linkEntity('plink_Hold0000000001', id, 'cancelled'));
    expect(await reconcileBooking(deps, id)).toBe('failed');
    expect((await row(id)).paymentStatus).toBe('FAILED');
    clock.set(MONDAY_MORNING_IST);
  });
});

describe('Razorpay refunds and payments through the official SDK', () => {
  const BASIC = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`;
  const refundEntity = (extra: Record<string, unknown> = {}) => ({
    id: 'rfnd_FP8QHiV938haTz',
    entity: 'refund',
    amount: 50000,
    currency: 'INR',
    payment_id: 'pay_29QQoUBi66xm2f',
    notes: { booking_id: '42', reason: 'cancelled by the centre' },
    receipt: null,
    acquirer_data: { arn: null },
    created_at: 1795400000,
    batch_id: null,
    status: 'processed',
    speed_processed: 'normal',
    speed_requested: 'normal',
    ...extra,
  });
  const input = {
    paymentId: 'pay_29QQoUBi66xm2f',
    amountPaise: 50000,
    idempotencyKey: 'refund-42-550e8400-e29b',
    notes: { booking_id: '42', reason: 'cancelled by the centre' },
  };
  const refused = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  };

  it('POSTs /v1/payments/:id/refund with basic auth, the X-Refund-Idempotency header and exactly amount, speed and notes', async () => {
    // The interceptor matches only this exact JSON body (nock compares an object body by deep equality)
    // and these exact headers; anything else finds no interceptor and fails the request.
    // Razorpay answers a retry under the same key with the same refund: the retry must be the same request.
    nock(API)
      .post('/v1/payments/pay_29QQoUBi66xm2f/refund', { amount: 50000, speed: 'normal', notes: { booking_id: '42', reason: 'cancelled by the centre' } })
      .times(2)
      .matchHeader('authorization', BASIC)
      .matchHeader('content-type', /^application\/json/)
      .matchHeader('x-refund-idempotency', 'refund-42-550e8400-e29b')
      .matchHeader('user-agent', /^razorpay-node@/)
      .reply(200, refundEntity());
    const first = await deps.payments.refundPayment(input);
    const retry = await deps.payments.refundPayment(input);
    expect(first).toEqual({ id: 'rfnd_FP8QHiV938haTz', paymentId: 'pay_29QQoUBi66xm2f', amountPaise: 50000, status: 'processed' });
    expect(retry).toEqual(first);
  });

  it('a refund without its key or with another body is not what the interceptor accepts (the matchers above bite)', async () => {
    nock(API)
      .post('/v1/payments/pay_29QQoUBi66xm2f/refund', { amount: 50000, speed: 'normal', notes: { booking_id: '42', reason: 'cancelled by the centre' } })
      .matchHeader('x-refund-idempotency', 'refund-42-550e8400-e29b')
      .reply(200, refundEntity());
    // Another key, then another amount: nock finds no interceptor, the SDK's client fails, and it is bad_gateway.
    expect((await refused(deps.payments.refundPayment({ ...input, idempotencyKey: 'refund-42-something-else' }))).code).toBe('bad_gateway');
    expect((await refused(deps.payments.refundPayment({ ...input, amountPaise: 50001 }))).code).toBe('bad_gateway');
    await deps.payments.refundPayment(input);
  });

  it('sends empty notes when none are given, and reads a pending refund as pending', async () => {
    let body: Record<string, unknown> = {};
    nock(API)
      .post('/v1/payments/pay_29QQoUBi66xm2f/refund', (b) => ((body = b), true))
      .matchHeader('x-refund-idempotency', 'refund-43-0000000000')
      .reply(200, refundEntity({ id: 'rfnd_Pending0000001', amount: 150000, status: 'pending', notes: [] }));
    const refund = await deps.payments.refundPayment({ paymentId: 'pay_29QQoUBi66xm2f', amountPaise: 150000, idempotencyKey: 'refund-43-0000000000' });
    expect(body).toEqual({ amount: 150000, speed: 'normal', notes: {} });
    expect(refund).toEqual({ id: 'rfnd_Pending0000001', paymentId: 'pay_29QQoUBi66xm2f', amountPaise: 150000, status: 'pending' });
  });

  it('a 400 (more than is left of the payment) is a conflict; 409, 5xx and a lost connection are bad_gateway', async () => {
    // Razorpay's wording varies; the mapping keys on the status, and the message keeps Razorpay's words.
    nock(API)
      .post('/v1/payments/pay_29QQoUBi66xm2f/refund')
      .reply(400, {
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: 'The refund amount provided is greater than amount captured',
          source: 'business',
          step: 'payment_initiation',
          reason: 'input_validation_failed',
          metadata: {},
        },
      });
    const excessive = await refused(deps.payments.refundPayment({ ...input, amountPaise: 150001 }));
    expect(excessive.code).toBe('conflict');
    expect(excessive.status).toBe(409);
    expect(excessive.message).toContain('150001 paise of pay_29QQoUBi66xm2f');
    expect(excessive.message).toContain('greater than amount captured');

    nock(API)
      .post('/v1/payments/pay_29QQoUBi66xm2f/refund')
      .reply(409, {
        error: { code: 'BAD_REQUEST_ERROR', description: 'Request is still being processed', source: 'NA', step: 'NA', reason: 'NA', metadata: {} },
      });
    expect((await refused(deps.payments.refundPayment(input))).code).toBe('bad_gateway');

    nock(API)
      .post('/v1/payments/pay_29QQoUBi66xm2f/refund')
      .reply(502, { error: { code: 'SERVER_ERROR', description: 'The server encountered an error. The incident has been reported to admins.' } });
    const down = await refused(deps.payments.refundPayment(input));
    expect(down.code).toBe('bad_gateway');
    expect(down.message).toBe('Razorpay: The server encountered an error. The incident has been reported to admins. (502)');

    nock(API)
      .post('/v1/payments/pay_29QQoUBi66xm2f/refund')
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const lost = await refused(deps.payments.refundPayment(input));
    expect(lost.code).toBe('bad_gateway');
    expect(lost.message).toBe('Razorpay: socket hang up (no status)');
  });

  it('refuses a bad amount or key before asking Razorpay', async () => {
    // No interceptor: a request would fail with nock's NetConnectNotAllowedError (bad_gateway), not validation.
    for (const bad of [
      { amountPaise: 0 },
      { amountPaise: -100 },
      { amountPaise: 100.5 },
      { idempotencyKey: 'short' },
      { idempotencyKey: 'has spaces in it' },
    ]) {
      expect((await refused(deps.payments.refundPayment({ ...input, ...bad }))).code).toBe('validation');
    }
  });

  it('GET /v1/payments/:id: amount, status, method mapped for the ledger, amount refunded, capture time', async () => {
    const payment = (id: string, extra: Record<string, unknown>) => ({
      id,
      entity: 'payment',
      amount: 150000,
      currency: 'INR',
      status: 'captured',
      method: 'upi',
      amount_refunded: 50000,
      refund_status: 'partial',
      captured: true,
      vpa: 'meera@okaxis',
      created_at: 1795400000,
      ...extra,
    });
    nock(API).get('/v1/payments/pay_Upi00000000001').basicAuth({ user: KEY_ID, pass: KEY_SECRET }).reply(200, payment('pay_Upi00000000001', {}));
    expect(await deps.payments.fetchPayment('pay_Upi00000000001')).toEqual({
      id: 'pay_Upi00000000001',
      amountPaise: 150000,
      status: 'captured',
      method: 'UPI',
      amountRefundedPaise: 50000,
      capturedAt: new Date(1795400000 * 1000),
    });
    const methods = { card: 'CARD', netbanking: 'NETBANKING', wallet: 'WALLET', emi: 'OTHER', paylater: 'OTHER' } as const;
    for (const [method, expected] of Object.entries(methods)) {
      nock(API)
        .get(`/v1/payments/pay_Method${method}`)
        .reply(200, payment(`pay_Method${method}`, { method }));
      expect((await deps.payments.fetchPayment(`pay_Method${method}`)).method).toBe(expected);
    }
    nock(API)
      .get('/v1/payments/pay_Failed00000001')
      .reply(200, payment('pay_Failed00000001', { status: 'failed', captured: false, amount_refunded: 0 }));
    expect(await deps.payments.fetchPayment('pay_Failed00000001')).toMatchObject({ status: 'failed', amountRefundedPaise: 0, capturedAt: undefined });
    // A payment Razorpay does not know is not_found (reconciliation shows it); an outage stays bad_gateway.
    nock(API)
      .get('/v1/payments/pay_Gone0000000001')
      .reply(400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } });
    expect((await refused(deps.payments.fetchPayment('pay_Gone0000000001'))).code).toBe('not_found');
    nock(API)
      .get('/v1/payments/pay_Down0000000001')
      .reply(503, { error: { code: 'SERVER_ERROR', description: 'Service unavailable' } });
    expect((await refused(deps.payments.fetchPayment('pay_Down0000000001'))).code).toBe('bad_gateway');
  });

  it('GET /v1/payments/:id/refunds with basic auth, 100 a page until a short page; each refund mapped', async () => {
    const many = Array.from({ length: 100 }, (_, i) => refundEntity({ id: `rfnd_Page${String(i).padStart(10, '0')}`, amount: 100, status: 'processed' }));
    const queries: Record<string, string>[] = [];
    const query = (q: Record<string, string>) => (queries.push(q), true);
    nock(API)
      .get('/v1/payments/pay_29QQoUBi66xm2f/refunds')
      .query(query)
      .matchHeader('authorization', BASIC)
      .matchHeader('user-agent', /^razorpay-node@/)
      .reply(200, { entity: 'collection', count: 100, items: many });
    nock(API)
      .get('/v1/payments/pay_29QQoUBi66xm2f/refunds')
      .query(query)
      .matchHeader('authorization', BASIC)
      .reply(200, { entity: 'collection', count: 2, items: [refundEntity(), refundEntity({ id: 'rfnd_Failed00000001', amount: 2500, status: 'failed' })] });
    const refunds = await deps.payments.listPaymentRefunds('pay_29QQoUBi66xm2f');
    // Exactly count and skip: no from/to, nothing else.
    expect(queries).toEqual([
      { count: '100', skip: '0' },
      { count: '100', skip: '100' },
    ]);
    expect(refunds).toHaveLength(102);
    expect(refunds[0]).toEqual({ id: 'rfnd_Page0000000000', paymentId: 'pay_29QQoUBi66xm2f', amountPaise: 100, status: 'processed' });
    expect(refunds.slice(100)).toEqual([
      { id: 'rfnd_FP8QHiV938haTz', paymentId: 'pay_29QQoUBi66xm2f', amountPaise: 50000, status: 'processed' },
      { id: 'rfnd_Failed00000001', paymentId: 'pay_29QQoUBi66xm2f', amountPaise: 2500, status: 'failed' },
    ]);
  });

  it('a payment without refunds is an empty list; an unknown payment is not_found; an outage is bad_gateway', async () => {
    nock(API).get('/v1/payments/pay_NoRefunds000001/refunds').query({ count: '100', skip: '0' }).reply(200, { entity: 'collection', count: 0, items: [] });
    expect(await deps.payments.listPaymentRefunds('pay_NoRefunds000001')).toEqual([]);
    nock(API)
      .get('/v1/payments/pay_Gone0000000001/refunds')
      .query(true)
      .reply(400, { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } });
    expect((await refused(deps.payments.listPaymentRefunds('pay_Gone0000000001'))).code).toBe('not_found');
    nock(API)
      .get('/v1/payments/pay_Down0000000001/refunds')
      .query(true)
      .reply(502, { error: { code: 'SERVER_ERROR', description: 'Bad gateway' } });
    const down = await refused(deps.payments.listPaymentRefunds('pay_Down0000000001'));
    expect(down.code).toBe('bad_gateway');
    expect(down.message).toBe('Razorpay: Bad gateway (502)');
  });

  it('cancels a link with POST /v1/payment_links/:id/cancel, and answers the paid link when it was paid meanwhile', async () => {
    let body: unknown = 'not sent';
    nock(API)
      .post('/v1/payment_links/plink_Cancel00000001/cancel', (b) => ((body = b), true))
      .matchHeader('authorization', BASIC)
      .reply(200, linkEntity('plink_Cancel00000001', 7, 'cancelled'));
    expect(await deps.payments.cancelPaymentLink('plink_Cancel00000001')).toEqual({
      id: 'plink_Cancel00000001',
      shortUrl: 'https://rzp.io/i/Cancel',
      status: 'cancelled',
      amountPaise: 150000,
      referenceId: '7',
    });
    // The SDK sends no fields with a cancel.
    expect(body === '' || body === undefined || (typeof body === 'object' && body !== null && Object.keys(body).length === 0)).toBe(true);

    nock(API)
      .post('/v1/payment_links/plink_Paid0000000001/cancel')
      .reply(400, { error: { code: 'BAD_REQUEST_ERROR', description: 'Payment Link cannot be cancelled as it is already paid' } });
    nock(API)
      .get('/v1/payment_links/plink_Paid0000000001')
      .reply(200, linkEntity('plink_Paid0000000001', 8, 'paid', { payments: [{ payment_id: 'pay_Paid0000000001', status: 'captured', amount: 150000 }] }));
    expect(await deps.payments.cancelPaymentLink('plink_Paid0000000001')).toMatchObject({ status: 'paid', paymentId: 'pay_Paid0000000001' });

    nock(API)
      .post('/v1/payment_links/plink_Down0000000001/cancel')
      .reply(503, { error: { code: 'SERVER_ERROR', description: 'Service unavailable' } });
    nock(API)
      .get('/v1/payment_links/plink_Down0000000001')
      .reply(200, linkEntity('plink_Down0000000001', 9, 'created'));
    expect((await refused(deps.payments.cancelPaymentLink('plink_Down0000000001'))).code).toBe('bad_gateway');
  });
});

describe('Google Meet provider', () => {
  it('signs an RS256 JWT-bearer grant for the impersonated user and inserts an event with a Meet conference', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    let grant: URLSearchParams | undefined;
    let event: Record<string, unknown> = {};
    nock('https://oauth2.googleapis.com')
      .post('/token', (b) => ((grant = new URLSearchParams(b)), true))
      .reply(200, { access_token: 'ya29.test', expires_in: 3600, token_type: 'Bearer' });
    nock('https://www.googleapis.com')
      .post('/calendar/v3/calendars/primary/events', (b) => ((event = b), true))
      .query({ conferenceDataVersion: '1', sendUpdates: 'none' })
      .matchHeader('authorization', 'Bearer ya29.test')
      .reply(200, { id: 'booking000042', hangoutLink: 'https://meet.google.com/abc-defg-hij' });
    const provider = googleMeetProvider({
      serviceAccountEmail: 'booking@project.iam.gserviceaccount.com',
      privateKey: pem,
      impersonateUser: 'care@wellbeingcentre.in',
      calendarId: 'primary',
    });
    const start = new Date('2026-11-25T04:30:00Z');
    const made = await provider.createMeeting({
      bookingId: 42,
      summary: 'Therapy session',
      description: 'x',
      start,
      end: new Date(start.getTime() + 3600_000),
    });
    expect(made.url).toBe('https://meet.google.com/abc-defg-hij');
    expect(grant!.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const claims = jwt.verify(grant!.get('assertion')!, publicKey.export({ type: 'spki', format: 'pem' }), { algorithms: ['RS256'] }) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({
      iss: 'booking@project.iam.gserviceaccount.com',
      sub: 'care@wellbeingcentre.in',
      aud: 'https://oauth2.googleapis.com/token',
      scope: 'https://www.googleapis.com/auth/calendar.events',
    });
    expect(event.conferenceData).toEqual({ createRequest: { requestId: 'booking-42', conferenceSolutionKey: { type: 'hangoutsMeet' } } });
    expect(event.start).toEqual({ dateTime: '2026-11-25T04:30:00.000Z', timeZone: 'Asia/Kolkata' });
  });
});
