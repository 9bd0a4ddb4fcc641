import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Express } from 'express';
import { outbox, sandboxPaymentLinks, sandboxRefunds } from '../../shared/core/db/schema.ts';
import { AppError } from '../../shared/core/errors.ts';
import { sandboxProvider, type SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';
import { configFor, testPrefix } from '../support/jobs.ts';

let database: TestDatabase;
let payments: SandboxPayments;
let app: Express;
const clock = fixedClock(MONDAY_MORNING_IST);
const config = configFor({ PUBLIC_BASE_URL: 'https://booking.example.in', QUEUE_PREFIX: testPrefix() });

beforeAll(async () => {
  database = await createTestDatabase();
  payments = sandboxProvider({ db: database.db, secret: 'sandbox-secret-for-tests', publicBaseUrl: config.publicBaseUrl, now: clock.now });
  app = testApp(database, { config, now: clock.now, payments });
});
afterAll(async () => {
  await database.drop();
});

let reference = 1000;
/** A fresh ₹1,500 link, live for 20 minutes on the test clock. */
async function newLink(amountPaise = 150_000) {
  return payments.createPaymentLink({
    referenceId: String(reference++),
    amountPaise,
    description: 'Therapy session',
    customer: { name: 'Meera Pillai', email: 'meera.pillai@example.com', contact: '+919876543210' },
    callbackUrl: 'https://booking.example.in/payment-status',
    expireBy: new Date(clock.now().getTime() + 20 * 60_000),
  });
}
/** A link paid through the sandbox checkout's Pay; answers its captured payment id. */
async function paidPayment(amountPaise = 150_000): Promise<string> {
  const link = await newLink(amountPaise);
  await payments.pay(link.id);
  return (await payments.getLink(link.id))!.paymentId!;
}
const refundRows = async (paymentId: string) => database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, paymentId));
const webhooksFor = async (linkId: string) =>
  (await database.db.select().from(outbox))
    .filter((o) => o.jobName === 'payments.sandbox-webhook')
    .map((o) => JSON.parse((o.payload as { body: string }).body) as { event: string; payload: { payment_link: { entity: { id: string } } } })
    .filter((e) => e.payload.payment_link.entity.id === linkId)
    .map((e) => e.event);
async function refused(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}
let keys = 0;
const key = () => `refund-test-${String(keys++).padStart(6, '0')}`;

describe('sandbox refunds behave like Razorpay', () => {
  it('refunds a captured payment in full; the payment then reads refunded and nothing is left', async () => {
    const paymentId = await paidPayment();
    const refund = await payments.refundPayment({
      paymentId,
      amountPaise: 150_000,
      idempotencyKey: key(),
      notes: { booking_id: '1000', reason: 'cancelled by the centre' },
    });
    expect(refund).toEqual({ id: expect.stringMatching(/^rfnd_[A-Za-z0-9]{14}$/), paymentId, amountPaise: 150_000, status: 'processed' });
    const rows = await refundRows(paymentId);
    expect(rows).toEqual([
      expect.objectContaining({
        id: refund.id,
        amountPaise: 150_000,
        status: 'processed',
        notes: { booking_id: '1000', reason: 'cancelled by the centre' },
        createdAt: clock.now(),
      }),
    ]);
    expect(await payments.fetchPayment(paymentId)).toEqual({
      id: paymentId,
      amountPaise: 150_000,
      status: 'refunded',
      method: 'CARD',
      amountRefundedPaise: 150_000,
      capturedAt: clock.now(),
    });
    const more = await refused(payments.refundPayment({ paymentId, amountPaise: 1, idempotencyKey: key() }));
    expect(more.code).toBe('conflict');
    expect(more.message).toBe(`A refund of 1 paise is more than the 0 paise left of payment ${paymentId}.`);
    expect(await refundRows(paymentId)).toHaveLength(1);
  });

  it('refunds part, then the rest; the payment stays captured in between, as at Razorpay', async () => {
    const paymentId = await paidPayment();
    const part = await payments.refundPayment({ paymentId, amountPaise: 50_000, idempotencyKey: key() });
    expect(part).toMatchObject({ paymentId, amountPaise: 50_000, status: 'processed' });
    expect(await payments.fetchPayment(paymentId)).toMatchObject({ status: 'captured', amountRefundedPaise: 50_000 });
    const rest = await payments.refundPayment({ paymentId, amountPaise: 100_000, idempotencyKey: key() });
    expect(rest).toMatchObject({ paymentId, amountPaise: 100_000, status: 'processed' });
    expect(rest.id).not.toBe(part.id);
    expect(await payments.fetchPayment(paymentId)).toMatchObject({ status: 'refunded', amountRefundedPaise: 150_000 });
    expect((await refundRows(paymentId)).map((r) => r.amountPaise).sort()).toEqual([100_000, 50_000]);
  });

  it('refuses more than was captured (409) and records nothing', async () => {
    const paymentId = await paidPayment();
    const err = await refused(payments.refundPayment({ paymentId, amountPaise: 150_001, idempotencyKey: key() }));
    expect(err.code).toBe('conflict');
    expect(err.status).toBe(409);
    expect(err.message).toBe(`A refund of 150001 paise is more than the 150000 paise left of payment ${paymentId}.`);
    expect(await refundRows(paymentId)).toEqual([]);
    expect(await payments.fetchPayment(paymentId)).toMatchObject({ status: 'captured', amountRefundedPaise: 0 });
  });

  it('the same key twice makes one refund and answers it both times, even after the payment is used up', async () => {
    const paymentId = await paidPayment();
    const input = { paymentId, amountPaise: 150_000, idempotencyKey: key(), notes: { reason: 'duplicate booking', booking_id: '7' } };
    const first = await payments.refundPayment(input);
    // Notes given in another key order are the same notes.
    const again = await payments.refundPayment({ ...input, notes: { booking_id: '7', reason: 'duplicate booking' } });
    expect(again).toEqual(first);
    expect(await refundRows(paymentId)).toHaveLength(1);
    // Another request under a used key is refused, as Razorpay refuses it.
    for (const other of [{ amountPaise: 100 }, { notes: { reason: 'something else' } }]) {
      const err = await refused(payments.refundPayment({ ...input, ...other }));
      expect(err.code).toBe('conflict');
      expect(err.message).toBe('A different refund was already made with this idempotency key.');
    }
    const elsewhere = await paidPayment();
    expect((await refused(payments.refundPayment({ ...input, paymentId: elsewhere }))).code).toBe('conflict');
    expect(await refundRows(paymentId)).toHaveLength(1);
    expect(await refundRows(elsewhere)).toEqual([]);
  });

  // Races: several rounds, since two requests only sometimes overlap inside the database.
  it('three tries under one key at once still make one refund, and all get it', async () => {
    for (let round = 0; round < 10; round++) {
      const paymentId = await paidPayment();
      const input = { paymentId, amountPaise: 150_000, idempotencyKey: key() };
      const [a, b, c] = await Promise.all([payments.refundPayment(input), payments.refundPayment(input), payments.refundPayment(input)]);
      expect(b).toEqual(a);
      expect(c).toEqual(a);
      expect(await refundRows(paymentId)).toHaveLength(1);
    }
  });

  it('two refunds at once that together exceed the payment: one is made, the other refused', async () => {
    for (let round = 0; round < 10; round++) {
      const paymentId = await paidPayment();
      const results = await Promise.allSettled([
        payments.refundPayment({ paymentId, amountPaise: 100_000, idempotencyKey: key() }),
        payments.refundPayment({ paymentId, amountPaise: 100_000, idempotencyKey: key() }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(rejected).toHaveLength(1);
      expect((rejected[0]!.reason as AppError).code).toBe('conflict');
      expect(await payments.fetchPayment(paymentId)).toMatchObject({ amountRefundedPaise: 100_000 });
    }
  });

  it('refuses to refund an unpaid link: its failed attempt, or a payment id it never had', async () => {
    const link = await newLink();
    const failedAttempt = new URL(await payments.fail(link.id)).searchParams.get('razorpay_payment_id')!;
    for (const paymentId of [failedAttempt, 'pay_Never000000001']) {
      const err = await refused(payments.refundPayment({ paymentId, amountPaise: 100, idempotencyKey: key() }));
      expect(err.code).toBe('conflict');
      expect(err.message).toBe(`Payment ${paymentId} was not captured, so there is nothing to refund.`);
      expect(await refundRows(paymentId)).toEqual([]);
      expect((await refused(payments.fetchPayment(paymentId))).code).toBe('not_found');
    }
  });

  it('lists a payment’s refunds, as Razorpay’s GET /v1/payments/{id}/refunds does; an unknown or unpaid payment is not found', async () => {
    const paymentId = await paidPayment();
    expect(await payments.listPaymentRefunds(paymentId)).toEqual([]);
    const first = await payments.refundPayment({ paymentId, amountPaise: 50_000, idempotencyKey: key() });
    const second = await payments.refundPayment({ paymentId, amountPaise: 25_000, idempotencyKey: key() });
    // Another payment's refund is not this payment's.
    const other = await paidPayment();
    await payments.refundPayment({ paymentId: other, amountPaise: 100, idempotencyKey: key() });
    expect((await payments.listPaymentRefunds(paymentId)).sort((a, b) => b.amountPaise - a.amountPaise)).toEqual([first, second]);
    const link = await newLink();
    const failedAttempt = new URL(await payments.fail(link.id)).searchParams.get('razorpay_payment_id')!;
    for (const unknown of [failedAttempt, 'pay_Never000000001']) expect((await refused(payments.listPaymentRefunds(unknown))).code).toBe('not_found');
  });

  it('refuses what Razorpay refuses before looking: a non-positive or fractional amount, a short key', async () => {
    const paymentId = await paidPayment();
    for (const bad of [{ amountPaise: 0 }, { amountPaise: -1 }, { amountPaise: 0.5 }, { idempotencyKey: 'short' }, { idempotencyKey: 'not allowed/!' }]) {
      expect((await refused(payments.refundPayment({ paymentId, amountPaise: 100, idempotencyKey: key(), ...bad }))).code).toBe('validation');
    }
    expect(await refundRows(paymentId)).toEqual([]);
  });
});

describe('one live link: the sandbox checkout takes no money on a dead link', () => {
  it('refuses to pay (or fail) a cancelled link, through the provider and through the checkout page', async () => {
    const link = await newLink();
    expect((await payments.cancelPaymentLink(link.id)).status).toBe('cancelled');
    const err = await refused(payments.pay(link.id));
    expect(err.code).toBe('conflict');
    expect((await refused(payments.fail(link.id))).code).toBe('conflict');
    const res = await request(app).post(`/sandbox/checkout/${link.id}/pay`).expect(409);
    expect(res.headers.location).toBeUndefined();
    expect(await payments.getLink(link.id)).toMatchObject({ status: 'cancelled', paymentId: null });
    expect(await webhooksFor(link.id)).toEqual(['payment_link.cancelled']);
  });

  it('refuses to pay an expired link, and cancelling it answers it expired (Razorpay cannot cancel an expired link)', async () => {
    const link = await newLink();
    clock.set(new Date(clock.now().getTime() + 20 * 60_000).toISOString());
    try {
      expect((await refused(payments.pay(link.id))).code).toBe('conflict');
      await request(app).post(`/sandbox/checkout/${link.id}/pay`).expect(409);
      expect(await payments.cancelPaymentLink(link.id)).toMatchObject({ status: 'expired' });
      expect(await payments.getLink(link.id)).toMatchObject({ paymentId: null });
      expect(await webhooksFor(link.id)).toEqual([]);
    } finally {
      clock.set(MONDAY_MORNING_IST);
    }
  });

  it('cancelling a link that was paid meanwhile answers the paid link and changes nothing', async () => {
    const link = await newLink();
    await request(app).post(`/sandbox/checkout/${link.id}/pay`).expect(303);
    const paymentId = (await payments.getLink(link.id))!.paymentId!;
    expect(await payments.cancelPaymentLink(link.id)).toEqual({ ...link, status: 'paid', paymentId });
    expect(await payments.getLink(link.id)).toMatchObject({ status: 'paid', paymentId });
    expect(await webhooksFor(link.id)).toEqual(['payment_link.paid']);
  });

  it('Pay and cancel at once: whichever wins, the link and both answers agree', async () => {
    for (let i = 0; i < 5; i++) {
      const link = await newLink();
      const [paid, cancelled] = await Promise.allSettled([payments.pay(link.id), payments.cancelPaymentLink(link.id)]);
      expect(cancelled.status).toBe('fulfilled');
      const answer = (cancelled as PromiseFulfilledResult<Awaited<ReturnType<SandboxPayments['cancelPaymentLink']>>>).value;
      const [row] = await database.db.select().from(sandboxPaymentLinks).where(eq(sandboxPaymentLinks.id, link.id));
      expect(answer.status).toBe(row!.status);
      if (row!.status === 'paid') {
        expect(paid.status).toBe('fulfilled');
        expect(answer.paymentId).toBe(row!.paymentId);
        expect(await webhooksFor(link.id)).toEqual(['payment_link.paid']);
      } else {
        expect(row!.status).toBe('cancelled');
        expect(paid.status).toBe('rejected');
        expect(row!.paymentId).toBeNull();
        expect(await webhooksFor(link.id)).toEqual(['payment_link.cancelled']);
      }
    }
  });
});
