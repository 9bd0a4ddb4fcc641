import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import { auditLog, bookings, outbox, paymentsLedger } from '../../shared/core/db/schema.ts';
import { webhookSignature } from '../../shared/core/providers/payments/payments.provider.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { handlePaymentWebhook, reconcileBooking, refundStrayPayment, type PaymentDeps } from '../../shared/core/services/payment.service.ts';
import { bearer, tokenFor, type Admins } from '../support/admin.ts';
import type { TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';
import { configFor } from '../support/jobs.ts';
import { bookWithLink, paymentsTestAppPerFile } from '../support/payments-app.ts';
import type { Mailer, MailMessage } from '../../shared/core/providers/mail/mail.provider.ts';
import { jitsiProvider } from '../../shared/core/providers/meetings/jitsi.provider.ts';
import { sendMoneyUpdate } from '../../shared/core/services/notification.service.ts';

let database: TestDatabase, config: Config, payments: SandboxPayments, admins: Admins, app: Express, deps: PaymentDeps;
const clock = paymentsTestAppPerFile(MONDAY_MORNING_IST, (made) => ({ database, config, payments, admins, app, deps } = made));

const row = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const ledgerOf = (id: number) => database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id)).orderBy(paymentsLedger.id);
const desk = () => bearer(tokenFor(admins.admin, clock.now()));

let n = 0;
/** An online booking of Dr. Asha Mehta with its payment link, for a client of its own. */
async function bookedWithLink(): Promise<{ id: number; linkId: string }> {
  n++;
  const hours = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
  return bookWithLink(
    app,
    onlineBooking({
      booking_date: `2026-11-${25 + Math.floor(n / hours.length)}`,
      booking_time_slot_start: hours[n % hours.length],
      client_email: `ledger${n}@example.com`,
    }),
  );
}

/** The sandbox's webhook for a paid link, signed as the worker would deliver it. */
async function paidWebhook(linkId: string, bookingId: number, paymentId: string, eventId: string) {
  const body = Buffer.from(
    JSON.stringify({
      event: 'payment_link.paid',
      payload: {
        payment_link: { entity: { id: linkId, reference_id: String(bookingId), status: 'paid' } },
        payment: { entity: { id: paymentId, amount: 150_000, method: 'upi' } },
      },
    }),
  );
  return handlePaymentWebhook(deps, body, webhookSignature((config.payments as { secret: string }).secret, body), eventId);
}

describe('the payments ledger', () => {
  it('records a payment once, whatever order and however often the callback, webhooks and reconciliation report it', async () => {
    const { id, linkId } = await bookedWithLink();
    const paid = await request(app).post(`/sandbox/checkout/${linkId}/pay`).expect(303);
    const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
    // The webhook twice (a redelivery with a new event id), then the reconciliation, then the client's return.
    await paidWebhook(linkId, id, q.razorpay_payment_id!, `evt_${randomUUID()}`);
    await paidWebhook(linkId, id, q.razorpay_payment_id!, `evt_${randomUUID()}`);
    expect(await reconcileBooking(deps, id)).toBe('noop');
    await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ payment_status: 'paid', ...q })
      .expect(200);

    const ledger = await ledgerOf(id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ kind: 'capture', provider: 'sandbox', paymentId: q.razorpay_payment_id, linkId, amountPaise: 150_000, method: 'UPI' });
    expect(await row(id)).toMatchObject({ paymentStatus: 'COMPLETED', razorpayPaymentId: q.razorpay_payment_id });
  });

  it('cancelling an unpaid booking closes its link: nobody can pay for a session that will not happen', async () => {
    const { id, linkId } = await bookedWithLink();
    await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk()).expect(200);
    expect((await payments.fetchPaymentLink(linkId)).status).toBe('cancelled');
    await request(app).post(`/sandbox/checkout/${linkId}/pay`).expect(409);
    expect(await ledgerOf(id)).toEqual([]);
  });

  it('a payment that slips in before the cancel reaches the provider is recorded, and the booking stays cancelled, never confirmed', async () => {
    const { id, linkId } = await bookedWithLink();
    // Paid at the provider; its webhook not delivered yet.
    const paid = await request(app).post(`/sandbox/checkout/${linkId}/pay`).expect(303);
    const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
    await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk()).expect(200);
    // The late webhook changes nothing more.
    await paidWebhook(linkId, id, q.razorpay_payment_id!, `evt_${randomUUID()}`);
    // The client's return page is not told "confirmed".
    const status = await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ payment_status: 'paid', ...q });
    expect(status.status).toBe(409);
    expect(await row(id)).toMatchObject({ cancelled: true, paymentStatus: 'INITIATED' });
    expect(await ledgerOf(id)).toEqual([expect.objectContaining({ kind: 'capture', paymentId: q.razorpay_payment_id, amountPaise: 150_000 })]);
  });

  it('a new link closes the one before: the first can no longer be paid, the second completes the booking once', async () => {
    const { id, linkId: first } = await bookedWithLink();
    const txn = (await row(id)).paymentTransactionId!;
    const made = await request(app)
      .post('/api/create-shareable-payment-link')
      .set(desk())
      .send({ amount: 1500, booking_id: id, merchant_transaction_id: txn })
      .expect(200);
    const second = new URL(made.body.payment_link_url).pathname.split('/').pop()!;
    expect(second).not.toBe(first);
    expect((await payments.fetchPaymentLink(first)).status).toBe('cancelled');
    await request(app).post(`/sandbox/checkout/${first}/pay`).expect(409);
    const paid = await request(app).post(`/sandbox/checkout/${second}/pay`).expect(303);
    const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
    await request(app)
      .get(`/api/get-razorpay-details/${second}`)
      .query({ payment_status: 'paid', ...q })
      .expect(200);
    expect(await row(id)).toMatchObject({ paymentStatus: 'COMPLETED', razorpayPaymentLinkId: second });
    expect(await ledgerOf(id)).toEqual([expect.objectContaining({ linkId: second, amountPaise: 150_000 })]);
  });

  it('a first link paid before the second is asked for is the booking’s payment: no second link', async () => {
    const { id, linkId: first } = await bookedWithLink();
    const txn = (await row(id)).paymentTransactionId!;
    await request(app).post(`/sandbox/checkout/${first}/pay`).expect(303);
    const refused = await request(app)
      .post('/api/create-shareable-payment-link')
      .set(desk())
      .send({ amount: 1500, booking_id: id, merchant_transaction_id: txn })
      .expect(409);
    expect(refused.body.detail).toMatch(/already paid/);
    expect(await row(id)).toMatchObject({ paymentStatus: 'COMPLETED', razorpayPaymentLinkId: first });
    expect(await ledgerOf(id)).toHaveLength(1);
  });

  it('a shareable link paid for an in-person booking completes it, with its payment id, in the ledger', async () => {
    const res = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ client_email: 'counter.link@example.com' }))
      .expect(200);
    const id = res.body.booking_id as number;
    const txn = (await row(id)).paymentTransactionId!;
    const made = await request(app)
      .post('/api/create-shareable-payment-link')
      .set(desk())
      .send({ amount: 1800, booking_id: id, merchant_transaction_id: txn })
      .expect(200);
    const linkId = new URL(made.body.payment_link_url).pathname.split('/').pop()!;
    const paid = await request(app).post(`/sandbox/checkout/${linkId}/pay`).expect(303);
    const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
    const details = await request(app)
      .get(`/api/get-razorpay-details/${linkId}`)
      .query({ payment_status: 'paid', ...q })
      .expect(200);
    expect(details.body.data).toMatchObject({ id, payment_status: 'COMPLETED', razorpay_payment_id: q.razorpay_payment_id });
    expect(await ledgerOf(id)).toEqual([
      expect.objectContaining({ kind: 'capture', provider: 'sandbox', paymentId: q.razorpay_payment_id, amountPaise: 180_000 }),
    ]);
  });
});

describe('POST /api/admin/bookings/{id}/record-payment', () => {
  it('records a fee paid at the centre: the booking COMPLETED, one capture, an audit entry; a second recording is 409', async () => {
    const res = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_time_slot_start: '11:00', client_email: 'cash@example.com' }))
      .expect(200);
    const id = res.body.booking_id as number;
    const done = await request(app).post(`/api/admin/bookings/${id}/record-payment`).set(desk()).send({ method: 'CASH' }).expect(200);
    expect(done.body).toEqual({ booking_id: id, payment_status: 'COMPLETED', message: `Payment of ₹1,800.00 recorded for booking ${id} successfully.` });
    expect(await row(id)).toMatchObject({ paymentStatus: 'COMPLETED', paidAt: clock.now() });
    const ledger = await ledgerOf(id);
    expect(ledger).toEqual([
      expect.objectContaining({ kind: 'capture', provider: 'counter', method: 'CASH', amountPaise: 180_000, recordedByAdminId: admins.admin.id }),
    ]);
    const [audit] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'booking.record_payment'));
    expect(audit).toMatchObject({
      adminId: admins.admin.id,
      entityId: String(id),
      after: expect.objectContaining({ payment: { method: 'CASH', amount: 1800 } }),
    });

    const again = await request(app).post(`/api/admin/bookings/${id}/record-payment`).set(desk()).send({ method: 'UPI', amount: 1800 }).expect(409);
    expect(again.body.detail).toBe(`Booking ${id} is already paid.`);
    // Two at once: one capture.
    const other = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_time_slot_start: '12:00', client_email: 'card@example.com' }))
      .expect(200);
    const both = await Promise.all(
      [1, 2].map(() => request(app).post(`/api/admin/bookings/${other.body.booking_id}/record-payment`).set(desk()).send({ method: 'CARD', amount: 1500.5 })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await ledgerOf(other.body.booking_id)).toEqual([expect.objectContaining({ method: 'CARD', amountPaise: 150_050 })]);
  });

  it('refuses online, cancelled and unknown bookings, bad input and callers who are not admins, writing nothing', async () => {
    const { id } = await bookedWithLink();
    const offline = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_time_slot_start: '14:00', client_email: 'cancelled@example.com' }))
      .expect(200);
    await request(app).post(`/api/admin/bookings/${offline.body.booking_id}/cancel`).set(desk()).expect(200);
    const before = await database.db.$count(paymentsLedger);
    expect((await request(app).post(`/api/admin/bookings/${id}/record-payment`).set(desk()).send({ method: 'CASH' }).expect(409)).body.detail).toMatch(
      /online/,
    );
    expect(
      (await request(app).post(`/api/admin/bookings/${offline.body.booking_id}/record-payment`).set(desk()).send({ method: 'CASH' }).expect(409)).body.detail,
    ).toMatch(/cancelled/);
    await request(app).post('/api/admin/bookings/999999/record-payment').set(desk()).send({ method: 'CASH' }).expect(404);
    for (const [body, field, detail] of [
      [{}, 'method', 'Method must be CASH, CARD, UPI or BANK_TRANSFER'],
      [{ method: 'CHEQUE' }, 'method', 'Method must be CASH, CARD, UPI or BANK_TRANSFER'],
      [{ method: 'CASH', amount: -5 }, 'amount', 'Amount must be more than zero'],
      [{ method: 'CASH', amount: 0 }, 'amount', 'Amount must be more than zero'],
      [{ method: 'CASH', amount: 10.005 }, 'amount', 'Amount may have at most two decimals'],
      [{ method: 'CASH', amount: '100' }, 'amount', 'Amount must be a number'],
      [{ method: 'CASH', extra: 1 }, 'extra', 'Unknown field: extra'],
    ] as const) {
      const bad = await request(app).post(`/api/admin/bookings/${offline.body.booking_id}/record-payment`).set(desk()).send(body).expect(400);
      expect(bad.body, JSON.stringify(body)).toEqual({ detail, errors: { [field]: detail } });
    }
    await request(app).post(`/api/admin/bookings/${offline.body.booking_id}/record-payment`).send({ method: 'CASH' }).expect(401);
    expect(await database.db.$count(paymentsLedger)).toBe(before);
  });

  it('a manual online booking paid now is in the ledger as taken at the counter with its method; the spec payload records nothing', async () => {
    const res = await request(app)
      .post('/confirm-booking')
      .set(desk())
      .send({
        therapist_id: 1,
        booking_date: '2026-12-01',
        booking_time_slot_start: '10:00',
        client_full_name: 'Walk In',
        client_email: 'walk.in@example.com',
        client_mobile: '9123456780',
        booking_type: 'ONLINE',
        location_id: 0,
        amount: 1234.5,
        payment_transaction_id: randomUUID(),
        admin_confirmed: true,
        payment_status: 'COMPLETED',
        payment_method: 'UPI',
      })
      .expect(200);
    expect(await ledgerOf(res.body.booking_id)).toEqual([
      expect.objectContaining({ provider: 'counter', method: 'UPI', amountPaise: 123_450, recordedByAdminId: admins.admin.id }),
    ]);
    // Issue 31: no money was taken, so none is recorded.
    const spec = await request(app)
      .post('/confirm-booking')
      .set(desk())
      .send({
        therapist_id: 1,
        booking_date: '2026-12-01',
        booking_time_slot_start: '11:00',
        client_full_name: 'Walk In',
        client_email: 'walk.in@example.com',
        client_mobile: '9123456780',
        booking_type: 'ONLINE',
        location_id: 0,
        amount: 1234.5,
        payment_transaction_id: randomUUID(),
        admin_confirmed: true,
        payment_status: 'COMPLETED',
      })
      .expect(200);
    expect(await ledgerOf(spec.body.booking_id)).toEqual([]);
  });
});

describe('refunds', () => {
  const superDesk = () => bearer(tokenFor(admins.superadmin, clock.now()));
  /** A paid online booking: its link paid in the sandbox and the return page's signed callback read. */
  async function paidBooking(): Promise<{ id: number; paymentId: string }> {
    const { id, linkId } = await bookedWithLink();
    const paid = await request(app).post(`/sandbox/checkout/${linkId}/pay`).expect(303);
    const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
    await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ payment_status: 'paid', ...q })
      .expect(200);
    expect((await row(id)).paymentStatus).toBe('COMPLETED');
    return { id, paymentId: q.razorpay_payment_id! };
  }
  const mailIntents = async (id: number) =>
    (await database.db.select().from(outbox).where(eq(outbox.jobName, 'mail.booking-money'))).filter(
      (o) => (o.payload as { bookingId: number }).bookingId === id,
    );

  it('a paid booking cannot be cancelled without a decision about its money; refunds are for super admins', async () => {
    const { id } = await paidBooking();
    const bare = await request(app).post(`/api/admin/bookings/${id}/cancel`).set(superDesk()).expect(409);
    expect(bare.body.detail).toBe(`Booking ${id} is paid: choose a full, partial or no refund to cancel it.`);
    const plain = await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk()).send({ refund: 'FULL' }).expect(403);
    expect(plain.body.detail).toBe('Only super admins may refund payments.');
    for (const [body, field, detail] of [
      [{ refund: 'ALL' }, 'refund', 'refund must be FULL, PARTIAL, NONE or REQUEST'],
      [{ refund: 'PARTIAL' }, 'amount', 'Amount must be a number'],
      [{ refund: 'PARTIAL', amount: -1 }, 'amount', 'Amount must be more than zero'],
      [{ refund: 'NONE' }, 'reason', 'Must be text'],
      [{ refund: 'NONE', reason: '' }, 'reason', 'Please give the reason for keeping the payment'],
      [{ refund: 'FULL', extra: 1 }, 'extra', 'Unknown field: extra'],
    ] as const) {
      const bad = await request(app).post(`/api/admin/bookings/${id}/cancel`).set(superDesk()).send(body).expect(400);
      expect(bad.body, JSON.stringify(body)).toEqual({ detail, errors: { [field]: detail } });
    }
    const tooMuch = await request(app).post(`/api/admin/bookings/${id}/cancel`).set(superDesk()).send({ refund: 'PARTIAL', amount: 1500.01 }).expect(400);
    expect(tooMuch.body.detail).toMatch(/at most ₹1,500.00/);
    expect(await row(id)).toMatchObject({ cancelled: false, paymentStatus: 'COMPLETED' });
    expect(await ledgerOf(id)).toHaveLength(1);
  });

  it('a full refund goes back through the provider, into the ledger, and the client is told', async () => {
    const { id, paymentId } = await paidBooking();
    const res = await request(app).post(`/api/admin/bookings/${id}/cancel`).set(superDesk()).send({ refund: 'FULL' }).expect(200);
    expect(res.body).toEqual({
      booking_id: id,
      cancelled: true,
      unblocked: false,
      message: `Booking ${id} cancelled successfully. ₹1,500.00 refunded.`,
      refund: { status: 'processed', amount: 1500 },
    });
    const ledger = await ledgerOf(id);
    expect(ledger).toEqual([
      expect.objectContaining({ kind: 'capture', amountPaise: 150_000 }),
      expect.objectContaining({
        kind: 'refund',
        provider: 'sandbox',
        paymentId,
        amountPaise: -150_000,
        refundId: expect.stringMatching(/^rfnd_/),
        recordedByAdminId: admins.superadmin.id,
      }),
    ]);
    expect((await payments.fetchPayment(paymentId)).amountRefundedPaise).toBe(150_000);
    expect(await mailIntents(id)).toHaveLength(1);
    const listed = (await request(app).get('/api/admin/bookings').set(desk()).expect(200)).body.find((b: { id: number }) => b.id === id);
    expect(listed).toMatchObject({ cancelled: true, amount_paid: 1500, amount_refunded: 1500, payment_note: 'Refunded ₹1,500.00' });

    // The e-mail the job sends says what happened to the booking and the money.
    const sent: MailMessage[] = [];
    const mailer: Mailer = { kind: 'outbox', send: async (m) => (sent.push(m), { messageId: 'x' }), close: () => {} };
    expect(await sendMoneyUpdate({ ...deps, mailer, meetings: jitsiProvider({ domain: 'meet.jit.si' }) }, id, undefined)).toBe('sent');
    expect(sent[0]!.subject).toMatch(/^Booking cancelled: your session on/);
    expect(sent[0]!.text).toContain('has been cancelled');
    expect(sent[0]!.text).toContain('We received ₹1,500. ₹1,500 has been refunded to your original payment method');
  });

  it('a partial refund, and no refund for the reason given', async () => {
    const partly = await paidBooking();
    await request(app)
      .post(`/api/admin/bookings/${partly.id}/cancel`)
      .set(superDesk())
      .send({ refund: 'PARTIAL', amount: 500, reason: 'Late cancellation: half the fee' })
      .expect(200);
    expect((await ledgerOf(partly.id)).map((r) => r.amountPaise)).toEqual([150_000, -50_000]);
    const kept = await paidBooking();
    // A session days away: keeping its money is a super admin's decision (desk-refunds.test.ts has the plain admin's rule).
    const res = await request(app)
      .post(`/api/admin/bookings/${kept.id}/cancel`)
      .set(superDesk())
      .send({ refund: 'NONE', reason: 'Cancelled with less than 24 hours notice' })
      .expect(200);
    expect(res.body.message).toBe(`Booking ${kept.id} cancelled successfully. No refund.`);
    expect(await ledgerOf(kept.id)).toHaveLength(1);
    expect((await mailIntents(kept.id))[0]!.payload).toEqual({ bookingId: kept.id, reason: 'Cancelled with less than 24 hours notice' });
  });

  it('a fee paid at the centre goes back at the counter: due when refunded, in the ledger when handed back', async () => {
    const res = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '15:00', client_email: 'counter.refund@example.com' }))
      .expect(200);
    const id = res.body.booking_id as number;
    await request(app).post(`/api/admin/bookings/${id}/record-payment`).set(desk()).send({ method: 'CASH' }).expect(200);
    const cancelled = await request(app).post(`/api/admin/bookings/${id}/cancel`).set(superDesk()).send({ refund: 'FULL' }).expect(200);
    expect(cancelled.body.refund).toEqual({ status: 'at_counter', amount: 1800, at_counter: 1800 });
    // Still in the till: no refund row until the desk hands it back.
    expect(await ledgerOf(id)).toEqual([expect.objectContaining({ kind: 'capture', provider: 'counter', amountPaise: 180_000 })]);
    await request(app).post(`/api/admin/bookings/${id}/record-refund`).set(desk()).send({ method: 'CASH' }).expect(200);
    expect(await ledgerOf(id)).toEqual([
      expect.objectContaining({ kind: 'capture', provider: 'counter', amountPaise: 180_000 }),
      expect.objectContaining({ kind: 'refund', provider: 'counter', method: 'CASH', amountPaise: -180_000, recordedByAdminId: admins.admin.id }),
    ]);
  });

  it('a payment that arrived for a cancelled booking goes back in full, once, and the panel says so', async () => {
    const { id, linkId } = await bookedWithLink();
    const paid = await request(app).post(`/sandbox/checkout/${linkId}/pay`).expect(303);
    const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
    await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk()).expect(200);
    const [job] = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.jobId, `refund-stray.${q.razorpay_payment_id}`));
    expect(job).toMatchObject({ jobName: 'payments.refund-stray', payload: { bookingId: id, paymentId: q.razorpay_payment_id } });
    const listedBefore = (await request(app).get('/api/admin/bookings').set(desk()).expect(200)).body.find((b: { id: number }) => b.id === id);
    expect(listedBefore.payment_note).toBe('Paid after cancellation — refund due');
    // The client's return page says what happened.
    const page = await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ payment_status: 'paid', ...q })
      .expect(409);
    expect(page.body.detail).toMatch(/cancelled before your payment reached us.*refunded in full/);

    expect(await refundStrayPayment(deps, id, q.razorpay_payment_id!)).toBe('refunded');
    expect(await refundStrayPayment(deps, id, q.razorpay_payment_id!)).toBe('noop');
    expect((await ledgerOf(id)).map((r) => [r.kind, r.amountPaise])).toEqual([
      ['capture', 150_000],
      ['refund', -150_000],
    ]);
    const listed = (await request(app).get('/api/admin/bookings').set(desk()).expect(200)).body.find((b: { id: number }) => b.id === id);
    expect(listed.payment_note).toBe('Paid after cancellation — refunded');
    expect(await mailIntents(id)).toHaveLength(2);
  });

  it('with automatic refunds off, a stray payment stays a refund due', async () => {
    const off = { ...deps, config: configFor({ PUBLIC_BASE_URL: 'http://127.0.0.1:9', AUTO_REFUND_STRAY_PAYMENTS: 'false' }) };
    const { id, linkId } = await bookedWithLink();
    const paid = await request(app).post(`/sandbox/checkout/${linkId}/pay`).expect(303);
    const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
    await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk()).expect(200);
    expect(await refundStrayPayment(off, id, q.razorpay_payment_id!)).toBe('refund-due');
    expect(await ledgerOf(id)).toHaveLength(1);
  });
});
