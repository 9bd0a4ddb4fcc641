import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import { auditLog, bookings, outbox, paymentsLedger, sandboxPaymentLinks, whatsappMessages } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { webhookSignature } from '../../shared/core/providers/payments/payments.provider.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { sendLinkOfNewBooking } from '../../shared/core/services/payment-link-send.service.ts';
import { expireEndedHolds, handlePaymentWebhook, reconcileAll } from '../../shared/core/services/payment.service.ts';
import { centreInstant } from '../../shared/domain/time.ts';
import { capturingMailer } from '../support/mailing.ts';
import type { WorkerDeps } from '../../worker/src/handlers/handler.ts';
import { bearer, createAdmins, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';
import { configFor, inProcessPayments } from '../support/jobs.ts';
import { inProcessWorker, runDueJobs } from '../support/run-jobs.ts';
import { startWhatsAppStandIn, type WhatsAppStandIn } from '../support/whatsapp-standin.ts';

/**
 * Issue 31, items 1 and 2: a manual booking's settlement, and payment links sent to the client. The
 * ledger records a payment only when money was taken: paid now (a desk method), not paid yet (a
 * payment link sent to the client, completed as a wizard payment is), or the spec's own payload
 * (confirmed, nothing recorded, "Payment not recorded"). The jobs the outbox holds run in this process
 * (tests/support/run-jobs.ts); e-mails are recorded, WhatsApp goes to the Graph API stand-in.
 */
const clock = fixedClock(MONDAY_MORNING_IST);
const WA = {
  token: 'EAAtest-token-for-the-stand-in',
  phoneNumberId: '106540352242922',
  appSecret: 'app-secret-for-tests',
  verifyToken: 'verify-token-for-tests',
};
let database: TestDatabase, admins: Admins, app: Express, config: Config, payments: SandboxPayments, standIn: WhatsAppStandIn;
let desk: Record<string, string>;
let worker: WorkerDeps;
const { sent, mailer } = capturingMailer();

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  standIn = await startWhatsAppStandIn({
    ...WA,
    graphVersion: 'v26.0',
    templateName: 'session_reminder',
    language: 'en',
    bodyParams: 4,
    paymentLink: { templateName: 'payment_link', language: 'en', bodyParams: 6 },
  });
  config = configFor({
    PUBLIC_BASE_URL: 'https://booking.example.in',
    WHATSAPP_TOKEN: WA.token,
    WHATSAPP_PHONE_NUMBER_ID: WA.phoneNumberId,
    WHATSAPP_APP_SECRET: WA.appSecret,
    WHATSAPP_VERIFY_TOKEN: WA.verifyToken,
    WHATSAPP_GRAPH_URL: standIn.url,
  });
  let jobs;
  ({ payments, jobs } = inProcessPayments(database, config, clock.now));
  admins = await createAdmins(database.db);
  app = testApp(database, { config, now: clock.now, payments, jobs });
  worker = inProcessWorker(database, payments, config, clock.now, mailer);
});
/** The clock at `iso`, and the desk signed in then. */
const at = (iso: string) => {
  clock.set(iso);
  desk = bearer(tokenFor(admins.admin, clock.now()));
};
beforeEach(() => {
  at(MONDAY_MORNING_IST);
  sent.length = 0;
});
afterEach(() => {
  // Every request made to the Graph API was exactly one Meta takes.
  expect(standIn.problems).toEqual([]);
});
afterAll(async () => {
  await standIn?.close();
  await database?.drop();
});

let onlineSlots = 0;
let offlineSlots = 0;
const HOURS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
const DAYS = ['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03'];
const slot = (n: number) => ({ booking_date: DAYS[Math.floor(n / HOURS.length)]!, booking_time_slot_start: HOURS[n % HOURS.length]! });

/** The spec's manual booking payload for Dr. Asha Mehta (online, ₹1,500), on a slot of its own; ₹1,100 agreed. */
function manualOnline(o: Record<string, unknown> = {}): Record<string, unknown> {
  const n = onlineSlots++;
  return {
    therapist_id: 1,
    ...slot(n),
    client_full_name: 'Rahul Verma',
    client_email: `rahul.verma${n}@example.com`,
    client_mobile: '9123456780',
    client_note: '',
    booking_type: 'ONLINE',
    location_id: 0,
    amount: 1100,
    payment_transaction_id: randomUUID(),
    admin_confirmed: true,
    payment_status: 'COMPLETED',
    therapist_email: 'asha.mehta@wellbeingcentre.in',
    ...o,
  };
}
/** The panel's in-person manual booking for Dr. Rohan Kapoor (West Branch, ₹1,800). */
function manualOffline(o: Record<string, unknown> = {}): Record<string, unknown> {
  const n = offlineSlots++;
  return {
    therapist_id: 5,
    ...slot(n),
    client_full_name: 'Kavya Rao',
    client_email: `kavya.rao${n}@example.com`,
    client_mobile: '9876500000',
    booking_type: 'OFFLINE',
    location_id: 1,
    amount: 1800,
    payment_transaction_id: randomUUID(),
    admin_confirmed: true,
    payment_status: 'PENDING',
    ...o,
  };
}

const create = async (payload: Record<string, unknown>) =>
  (await request(app).post('/confirm-booking').set(desk).send(payload).expect(200)).body.booking_id as number;
const rowOf = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const ledgerOf = (id: number) => database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id));
const intentsOf = async (id: number) =>
  (await database.db.select().from(outbox)).filter((o) => (o.payload as { bookingId?: number }).bookingId === id).map((o) => o.jobName);
const auditOf = async (id: number) =>
  (
    await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'booking'), eq(auditLog.entityId, String(id))))
      .orderBy(auditLog.id)
  ).map((a) => a.action);
const listed = async (id: number) => {
  const b = await rowOf(id);
  const res = await request(app).get('/api/admin/bookings').query({ from: b.bookingDate, to: b.bookingDate }).set(desk).expect(200);
  return res.body.find((x: { id: number }) => x.id === id);
};
const mailsTo = (email: string) => sent.filter((m) => m.to === email);
const linkIdOf = (url: string) => new URL(url).pathname.split('/').pop()!;
/** The client pays the link at the sandbox checkout; answers the provider's signed callback query. */
const payAtCheckout = async (url: string) => {
  const paid = await request(app)
    .post(`/sandbox/checkout/${linkIdOf(url)}/pay`)
    .expect(303);
  return Object.fromEntries(new URL(paid.headers.location!).searchParams);
};
const sendLink = (id: number) => request(app).post(`/api/admin/bookings/${id}/send-payment-link`).set(desk).send({});

describe('the reproduction (issue 31, item 1)', () => {
  it('the spec payload for an online therapist confirms the booking but records no money', async () => {
    const id = await create(manualOnline());
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'COMPLETED', adminConfirmed: true });
    expect(await ledgerOf(id)).toEqual([]);
  });

  it('payment_status PENDING records no money, and the booking can be sent a payment link', async () => {
    const id = await create(manualOnline({ payment_status: 'PENDING' }));
    const row = await rowOf(id);
    expect(row).toMatchObject({ paymentStatus: 'PENDING', adminConfirmed: true, paymentHoldExpiresAt: null });
    expect(await ledgerOf(id)).toEqual([]);
    const link = await request(app)
      .post('/api/create-shareable-payment-link')
      .set(desk)
      .send({ amount: 1100, booking_id: id, merchant_transaction_id: row.paymentTransactionId });
    expect([link.status, link.body.detail]).toEqual([200, undefined]);
  });
});

describe('paid now', () => {
  it('online by UPI: COMPLETED and admin-confirmed, one counter capture by the admin, the confirmations saying the payment was received', async () => {
    const payload = manualOnline({ payment_method: 'UPI' });
    const id = await create(payload);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'COMPLETED', adminConfirmed: true, paidAt: clock.now(), createdByAdminId: admins.admin.id });
    expect(await ledgerOf(id)).toEqual([
      expect.objectContaining({ kind: 'capture', provider: 'counter', method: 'UPI', amountPaise: 110_000, recordedByAdminId: admins.admin.id }),
    ]);
    expect(await intentsOf(id)).toEqual(['meetings.create']);
    await runDueJobs(worker);
    const [client] = mailsTo(payload.client_email as string);
    expect(client!.text).toContain('Payment received: ₹1,100.');
    expect(mailsTo('asha.mehta@wellbeingcentre.in').at(-1)!.text).toContain('A paid online session has been booked with you.');
    expect(await listed(id)).toMatchObject({ payment_status: 'COMPLETED', payment_state: 'PAID', amount_paid: 1100 });
    // Paid: no second recording, no payment link.
    expect((await request(app).post(`/api/admin/bookings/${id}/record-payment`).set(desk).send({ method: 'CASH' }).expect(409)).body.detail).toBe(
      `Booking ${id} is already paid.`,
    );
    expect((await sendLink(id).expect(409)).body.detail).toBe(`Booking ${id} is already paid.`);
    expect(await ledgerOf(id)).toHaveLength(1);
  });

  it('in person by card: COMPLETED, one capture, and the confirmation says it was received, not that it is due at the visit', async () => {
    const payload = manualOffline({ payment_status: 'COMPLETED', payment_method: 'CARD' });
    const id = await create(payload);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'COMPLETED', adminConfirmed: true });
    expect(await ledgerOf(id)).toEqual([expect.objectContaining({ provider: 'counter', method: 'CARD', amountPaise: 180_000 })]);
    await runDueJobs(worker);
    const [client] = mailsTo(payload.client_email as string);
    expect(client!.text).toContain('Payment received: ₹1,800.');
    expect(client!.text).not.toContain('paid at the centre on the day of your visit');
    expect(await listed(id)).toMatchObject({ payment_state: 'PAID' });
  });

  it('in person without a method stays to be paid at the centre, as the spec says', async () => {
    const payload = manualOffline();
    const id = await create(payload);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'PENDING', paidAt: null });
    expect(await ledgerOf(id)).toEqual([]);
    await runDueJobs(worker);
    expect(mailsTo(payload.client_email as string)[0]!.text).toContain('is paid at the centre on the day of your visit');
    expect(await listed(id)).toMatchObject({ payment_state: 'PAY_AT_CENTRE' });
  });

  it('refuses a method that is not the desk’s, and a method with payment_status PENDING, writing nothing', async () => {
    const before = await database.db.$count(bookings);
    for (const [o, detail] of [
      [{ payment_method: 'OTHER' }, 'Method must be CASH, CARD, UPI or BANK_TRANSFER'],
      [{ payment_method: 'cash' }, 'Method must be CASH, CARD, UPI or BANK_TRANSFER'],
      [
        { payment_method: 'UPI', payment_status: 'PENDING' },
        'A session paid now is not awaiting payment: send payment_method or payment_status PENDING, not both.',
      ],
    ] as const) {
      const res = await request(app).post('/confirm-booking').set(desk).send(manualOnline(o)).expect(400);
      expect(res.body.detail).toBe(detail);
    }
    expect(await database.db.$count(bookings)).toBe(before);
  });
});

describe('the spec payload: confirmed, no payment recorded', () => {
  it('writes no ledger row and claims no payment; listed "Payment not recorded"; Record payment (now for online bookings too) records it once', async () => {
    const payload = manualOnline();
    const id = await create(payload);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'COMPLETED', adminConfirmed: true, paidAt: null });
    expect(await ledgerOf(id)).toEqual([]);
    await runDueJobs(worker);
    const client = mailsTo(payload.client_email as string);
    expect(client).toHaveLength(1);
    expect(client[0]!.subject).toMatch(/^Booking confirmed/);
    expect(client[0]!.text).not.toContain('Payment received');
    expect(client[0]!.text).toContain('Session fee: ₹1,100, as arranged with the centre.');
    expect(mailsTo('asha.mehta@wellbeingcentre.in').at(-1)!.text).toContain('An online session has been booked with you.');
    expect(await listed(id)).toMatchObject({ payment_status: 'COMPLETED', payment_state: 'PAYMENT_NOT_RECORDED', amount_paid: 0 });

    const done = await request(app).post(`/api/admin/bookings/${id}/record-payment`).set(desk).send({ method: 'BANK_TRANSFER' }).expect(200);
    expect(done.body).toEqual({ booking_id: id, payment_status: 'COMPLETED', message: `Payment of ₹1,100.00 recorded for booking ${id} successfully.` });
    expect(await ledgerOf(id)).toEqual([
      expect.objectContaining({ provider: 'counter', method: 'BANK_TRANSFER', amountPaise: 110_000, recordedByAdminId: admins.admin.id }),
    ]);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'COMPLETED', paidAt: clock.now() });
    expect(await listed(id)).toMatchObject({ payment_state: 'PAID' });
    // Confirmed already: nothing more is sent.
    expect(await runDueJobs(worker)).toEqual([]);
    expect((await request(app).post(`/api/admin/bookings/${id}/record-payment`).set(desk).send({ method: 'CASH' }).expect(409)).body.detail).toBe(
      `Booking ${id} is already paid.`,
    );
    expect(await ledgerOf(id)).toHaveLength(1);
    expect(await auditOf(id)).toEqual(['booking.manual_create', 'booking.record_payment']);
  });

  it('the wizard’s unpaid hold is paid online, never at the desk', async () => {
    const made = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ ...slot(onlineSlots++) }))
      .expect(200);
    const res = await request(app).post(`/api/admin/bookings/${made.body.booking_id}/record-payment`).set(desk).send({ method: 'CASH' }).expect(409);
    expect(res.body.detail).toBe(`Booking ${made.body.booking_id} is waiting for its online payment: it is paid online, not at the centre.`);
  });
});

describe('not paid yet: a payment link sent to the client', () => {
  /** A manual online booking awaiting its link, the creation's job run: its id and the link sent. */
  async function awaitingLink(o: Record<string, unknown> = {}) {
    const payload = manualOnline({ payment_status: 'PENDING', ...o });
    const id = await create(payload);
    const ran = (await runDueJobs(worker)).filter((r) => (r.payload as { bookingId?: number }).bookingId === id);
    expect(ran.map((r) => [r.name, r.result])).toEqual([
      ['payments.send-link', { result: 'sent' }],
      ['mail.payment-link', { result: 'sent' }],
    ]);
    const row = await rowOf(id);
    return { id, email: payload.client_email as string, url: row.paymentLinkUrl!, row, payload };
  }

  it('is PENDING and admin-confirmed with no hold; the link (until the session starts) is made and e-mailed by the job written with the booking', async () => {
    const payload = manualOnline({ payment_status: 'PENDING' });
    const id = await create(payload);
    // Committed with the booking: only the job that makes and sends the link, no confirmation yet.
    expect(await intentsOf(id)).toEqual(['payments.send-link']);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'PENDING', adminConfirmed: true, paymentHoldExpiresAt: null, paidAt: null, paymentLinkUrl: null });
    expect(await listed(id)).toMatchObject({ payment_state: 'AWAITING_PAYMENT', payment_hold_expires_at: null, payment_link_sent_at: null });

    await runDueJobs(worker);
    const row = await rowOf(id);
    expect(row.paymentLinkUrl).toMatch(/^https:\/\/booking\.example\.in\/sandbox\/checkout\/plink_/);
    expect(row).toMatchObject({ paymentLinkSentAt: clock.now(), paymentLinkSentTo: ['email'] });
    const [link] = await database.db.select().from(sandboxPaymentLinks).where(eq(sandboxPaymentLinks.id, row.razorpayPaymentLinkId!));
    expect(link).toMatchObject({ amountPaise: 110_000, expireBy: centreInstant(row.bookingDate, row.bookingTimeSlotStart) });
    const mails = mailsTo(payload.client_email as string);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Payment link for your session on /)]);
    expect(mails[0]!.text).toContain(
      `please pay the session fee of ₹1,100 through this secure payment link:\n${row.paymentLinkUrl}`.replace('please', 'Please'),
    );
    expect(mails[0]!.html).toContain(`href="${row.paymentLinkUrl}"`);
    expect(await listed(id)).toMatchObject({ payment_link_sent_at: clock.now().toISOString(), payment_link_sent_to: ['email'] });
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(id)), eq(auditLog.action, 'booking.payment_link_send')));
    expect(audit).toEqual([expect.objectContaining({ adminId: admins.admin.id, actor: 'worker:payments.send-link' })]);
    expect(await ledgerOf(id)).toEqual([]);
  });

  it('the job sends once: run again it finds the link sent; a booking the desk sent meanwhile is not sent again', async () => {
    const { id } = await awaitingLink();
    expect(await sendLinkOfNewBooking(worker, id)).toBe('already-sent');
    expect(await runDueJobs(worker)).toEqual([]);
    expect(await database.db.$count(sandboxPaymentLinks, eq(sandboxPaymentLinks.amountPaise, 110_000))).toBeGreaterThan(0);
    // The desk's Send before the job ran: the job then sends nothing more.
    const other = await create(manualOnline({ payment_status: 'PENDING' }));
    await sendLink(other).expect(200);
    expect(await sendLinkOfNewBooking(worker, other)).toBe('already-sent');
    // Paid (at the desk) before the job ran: nothing is sent.
    const third = await create(manualOnline({ payment_status: 'PENDING' }));
    await request(app).post(`/api/admin/bookings/${third}/record-payment`).set(desk).send({ method: 'CASH' }).expect(200);
    expect(await sendLinkOfNewBooking(worker, third)).toBe('skipped');
    expect((await rowOf(third)).paymentLinkUrl).toBeNull();
  });

  it('is not released by the hold expiry or the reconciliation, whatever the clock says', async () => {
    const { id } = await awaitingLink();
    at('2026-11-23T12:00:00+05:30');
    await expireEndedHolds(worker);
    await reconcileAll(worker);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'PENDING', cancelled: false });
    // Even once its link expired (the session began), it stays until the staff cancel it.
    const row = await rowOf(id);
    at(new Date(centreInstant(row.bookingDate, row.bookingTimeSlotStart).getTime() + 60_000).toISOString());
    await reconcileAll(worker);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'PENDING', cancelled: false });
  });

  it('paid through the link (the callback), it completes exactly as a wizard payment: one capture, meeting link, confirmations', async () => {
    const { id, email, url } = await awaitingLink();
    sent.length = 0;
    const q = await payAtCheckout(url);
    const details = await request(app)
      .get(`/api/get-razorpay-details/${linkIdOf(url)}`)
      .query({ payment_status: 'paid', ...q })
      .expect(200);
    expect(details.body.data).toMatchObject({ id, payment_status: 'COMPLETED', razorpay_payment_id: q.razorpay_payment_id });
    expect(await ledgerOf(id)).toEqual([
      expect.objectContaining({ kind: 'capture', provider: 'sandbox', paymentId: q.razorpay_payment_id, amountPaise: 110_000 }),
    ]);
    const ran = await runDueJobs(worker);
    expect(ran.map((r) => r.name)).toEqual(expect.arrayContaining(['meetings.create', 'mail.booking-confirmation', 'mail.booking-confirmation']));
    const row = await rowOf(id);
    expect(row.googleMeetLink).toMatch(/^https:\/\/meet\.jit\.si\//);
    expect(mailsTo(email).map((m) => m.subject)).toEqual([expect.stringMatching(/^Booking confirmed/)]);
    expect(mailsTo(email)[0]!.text).toContain('Payment received: ₹1,100');
    expect(await listed(id)).toMatchObject({ payment_status: 'COMPLETED', payment_state: 'PAID' });
    // The same report again, and a Send: nothing changes.
    await request(app)
      .get(`/api/get-razorpay-details/${linkIdOf(url)}`)
      .query({ payment_status: 'paid', ...q })
      .expect(200);
    expect((await sendLink(id).expect(409)).body.detail).toBe(`Booking ${id} is already paid.`);
    expect(await ledgerOf(id)).toHaveLength(1);
  });

  it('paid, and reported only by the webhook, or only found by the reconciliation: completed all the same', async () => {
    const byHook = await awaitingLink();
    await payAtCheckout(byHook.url);
    const hooks = (await database.db.select().from(outbox).where(eq(outbox.jobName, 'payments.sandbox-webhook'))).filter((h) =>
      (h.payload as { body: string }).body.includes(`"id":"${linkIdOf(byHook.url)}"`),
    );
    for (const h of hooks) {
      const { body, eventId } = h.payload as { body: string; eventId: string };
      await handlePaymentWebhook(worker, Buffer.from(body), webhookSignature((config.payments as { secret: string }).secret, body), eventId);
    }
    expect(await rowOf(byHook.id)).toMatchObject({ paymentStatus: 'COMPLETED' });
    expect(await ledgerOf(byHook.id)).toHaveLength(1);

    const byCheck = await awaitingLink();
    await payAtCheckout(byCheck.url);
    await reconcileAll(worker);
    expect(await rowOf(byCheck.id)).toMatchObject({ paymentStatus: 'COMPLETED' });
    expect(await ledgerOf(byCheck.id)).toHaveLength(1);
    expect((await runDueJobs(worker)).map((r) => r.name)).toEqual(expect.arrayContaining(['meetings.create']));
  });

  it('paid at the desk instead: the link is closed at the provider, the booking confirmed with its follow-ups, once', async () => {
    const { id, url, email } = await awaitingLink();
    sent.length = 0;
    const done = await request(app).post(`/api/admin/bookings/${id}/record-payment`).set(desk).send({ method: 'CASH' }).expect(200);
    expect(done.body.payment_status).toBe('COMPLETED');
    expect(await ledgerOf(id)).toEqual([expect.objectContaining({ provider: 'counter', method: 'CASH', amountPaise: 110_000 })]);
    expect((await payments.fetchPaymentLink(linkIdOf(url))).status).toBe('cancelled');
    expect((await request(app).post(`/sandbox/checkout/${linkIdOf(url)}/pay`)).status).not.toBe(303);
    await runDueJobs(worker);
    expect(mailsTo(email).map((m) => m.subject)).toEqual([expect.stringMatching(/^Booking confirmed/)]);
    expect(mailsTo(email)[0]!.text).toContain('Payment received: ₹1,100.');
    await request(app).post(`/api/admin/bookings/${id}/record-payment`).set(desk).send({ method: 'CASH' }).expect(409);
    expect(await ledgerOf(id)).toHaveLength(1);
  });

  it('a link paid before the desk records its payment wins: the desk gets 409 "already paid", and nothing is taken twice', async () => {
    const { id, url } = await awaitingLink();
    const q = await payAtCheckout(url);
    const res = await request(app).post(`/api/admin/bookings/${id}/record-payment`).set(desk).send({ method: 'CASH' }).expect(409);
    expect(res.body.detail).toBe(`Booking ${id} is already paid.`);
    expect(await ledgerOf(id)).toEqual([expect.objectContaining({ provider: 'sandbox', paymentId: q.razorpay_payment_id })]);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'COMPLETED', razorpayPaymentId: q.razorpay_payment_id });
  });

  it('cancelled by the staff: its link is closed, nothing is sent', async () => {
    const { id, url } = await awaitingLink();
    await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk).expect(200);
    expect((await payments.fetchPaymentLink(linkIdOf(url))).status).toBe('cancelled');
    expect((await sendLink(id).expect(409)).body.detail).toBe(`Booking ${id} is cancelled or blocked; no payment link can be generated.`);
    expect(await ledgerOf(id)).toEqual([]);
  });
});

describe('POST /api/admin/bookings/{id}/send-payment-link', () => {
  it('an in-person booking: makes the link, e-mails it, and stores and audits when and how; Send again reuses the open link', async () => {
    const payload = manualOffline();
    const id = await create(payload);
    await runDueJobs(worker);
    sent.length = 0;
    const first = await sendLink(id).expect(200);
    expect(first.body).toEqual({
      payment_link_url: expect.stringMatching(/\/sandbox\/checkout\/plink_/),
      sent_to: ['email'],
      sent_at: clock.now().toISOString(),
    });
    expect(await rowOf(id)).toMatchObject({ paymentLinkUrl: first.body.payment_link_url, paymentLinkSentAt: clock.now(), paymentLinkSentTo: ['email'] });
    expect(await auditOf(id)).toEqual(['booking.manual_create', 'booking.payment_link_create', 'booking.payment_link_send']);
    await runDueJobs(worker);
    expect(mailsTo(payload.client_email as string).map((m) => m.text)).toEqual([
      expect.stringContaining(`through this secure payment link:\n${first.body.payment_link_url}`),
    ]);
    // A minute later: the same open link, sent again (a second e-mail), not a new one.
    at('2026-11-23T09:31:00+05:30');
    const again = await sendLink(id).expect(200);
    expect(again.body).toMatchObject({ payment_link_url: first.body.payment_link_url, sent_at: clock.now().toISOString() });
    await runDueJobs(worker);
    expect(mailsTo(payload.client_email as string)).toHaveLength(2);
    expect(await database.db.$count(sandboxPaymentLinks, eq(sandboxPaymentLinks.id, linkIdOf(first.body.payment_link_url)))).toBe(1);
    // A day later the link has expired: a new one is made and sent.
    at('2026-11-24T10:00:00+05:30');
    const later = await sendLink(id).expect(200);
    expect(later.body.payment_link_url).not.toBe(first.body.payment_link_url);
    expect((await rowOf(id)).paymentLinkUrl).toBe(later.body.payment_link_url);
  });

  it('a link paid meanwhile is the booking’s payment: 409 "already paid", and no new link', async () => {
    const id = await create(manualOffline());
    const made = await sendLink(id).expect(200);
    await payAtCheckout(made.body.payment_link_url);
    expect((await sendLink(id).expect(409)).body.detail).toBe(`Booking ${id} is already paid.`);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'COMPLETED', paymentLinkUrl: made.body.payment_link_url });
    expect(await ledgerOf(id)).toHaveLength(1);
  });

  it('WhatsApp too, where the client opted in: the payment link template with first name, therapist, date, time, amount and link', async () => {
    const made = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ ...slot(offlineSlots++), client_full_name: 'Meera Pillai', client_email: 'meera.wa@example.com', whatsapp_reminders: true }))
      .expect(200);
    const id = made.body.booking_id as number;
    await runDueJobs(worker);
    sent.length = 0;
    const res = await sendLink(id).expect(200);
    expect(res.body.sent_to).toEqual(['email', 'whatsapp']);
    const before = standIn.accepted.length;
    const ran = await runDueJobs(worker);
    expect(ran.map((r) => [r.name, r.result])).toEqual([
      ['mail.payment-link', { result: 'sent' }],
      ['whatsapp.payment-link', { result: 'sent' }],
    ]);
    const message = standIn.accepted.slice(before);
    expect(message).toHaveLength(1);
    const row = await rowOf(id);
    expect(message[0]).toMatchObject({
      to: '919876543210',
      body: {
        template: {
          name: 'payment_link',
          language: { code: 'en' },
          components: [
            {
              type: 'body',
              parameters: ['Meera', 'Rohan Kapoor', expect.stringMatching(/, 2026$/), expect.stringMatching(/ IST$/), '₹1,800', res.body.payment_link_url].map(
                (text) => ({ type: 'text', text }),
              ),
            },
          ],
        },
      },
    });
    expect(row.paymentLinkSentTo).toEqual(['email', 'whatsapp']);
    const [wa] = await database.db.select().from(whatsappMessages).where(eq(whatsappMessages.bookingId, id));
    expect(wa).toMatchObject({ kind: `PAYMENT_LINK.${clock.now().getTime()}`, status: 'SENT' });
    // The job run again sends nothing more.
    expect(await runDueJobs(worker)).toEqual([]);
    expect(standIn.accepted.length).toBe(before + 1);

    // Meta refuses the template (not approved): the e-mail of the sending stands, nothing more is sent.
    at('2026-11-23T09:40:00+05:30');
    standIn.failNext(1, { status: 400, code: 132001, title: 'Template name does not exist in the translation' });
    await sendLink(id).expect(200);
    sent.length = 0;
    const ran2 = await runDueJobs(worker);
    expect(ran2.map((r) => [r.name, r.result])).toEqual([
      ['mail.payment-link', { result: 'sent' }],
      ['whatsapp.payment-link', { result: 'fell-back' }],
    ]);
    expect(sent).toHaveLength(1);
    const rows = await database.db.select().from(whatsappMessages).where(eq(whatsappMessages.bookingId, id)).orderBy(whatsappMessages.id);
    expect(rows.map((r) => r.status)).toEqual(['SENT', 'FELL_BACK_TO_EMAIL']);
  });

  it('refuses a booking paid, cancelled, failed or a block with the reason, and unknown ids, bad input and callers who are not admins', async () => {
    const paid = await create(manualOnline({ payment_method: 'CASH' }));
    const cancelled = await create(manualOffline());
    await request(app).post(`/api/admin/bookings/${cancelled}/cancel`).set(desk).expect(200);
    const failed = await create(manualOnline({ payment_status: 'PENDING' }));
    await database.db.update(bookings).set({ paymentStatus: 'FAILED' }).where(eq(bookings.id, failed));
    const block = await request(app)
      .post('/api/admin/availability/block')
      .set(desk)
      .send({ therapist_id: 2, start_time: '10:00', date: '2026-11-27' })
      .expect(200);
    const cases: [number | string, number, string][] = [
      [paid, 409, `Booking ${paid} is already paid.`],
      [cancelled, 409, `Booking ${cancelled} is cancelled or blocked; no payment link can be generated.`],
      [failed, 409, `Booking ${failed} was not paid in time and its slot was released; no payment link can be sent.`],
      [block.body.booking_id, 409, `Booking ${block.body.booking_id} is cancelled or blocked; no payment link can be generated.`],
      [999_999, 404, 'Booking 999999 was not found.'],
      ['abc', 400, 'Booking ID must be a positive whole number'],
    ];
    const links = await database.db.$count(sandboxPaymentLinks);
    for (const [id, status, detail] of cases) {
      const res = await request(app).post(`/api/admin/bookings/${id}/send-payment-link`).set(desk).send({});
      expect([res.status, res.body.detail]).toEqual([status, detail]);
    }
    expect((await request(app).post(`/api/admin/bookings/${cancelled}/send-payment-link`).set(desk).send({ to: 'x' }).expect(400)).body.detail).toBeTruthy();
    await request(app).post(`/api/admin/bookings/${paid}/send-payment-link`).send({}).expect(401);
    expect(await database.db.$count(sandboxPaymentLinks)).toBe(links);
    const sentRows = await database.db
      .select()
      .from(bookings)
      .where(inArray(bookings.id, [paid, cancelled, failed]));
    expect(sentRows.map((b) => b.paymentLinkSentAt)).toEqual([null, null, null]);
  });
});
