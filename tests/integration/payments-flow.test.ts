import { createAdminUser } from '../../shared/core/services/admin-user.service.ts';
import { bearer, PASSWORD, tokenFor } from '../support/admin.ts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import type { Express } from 'express';
import type { Config } from '../../shared/core/config.ts';
import { bookings, outbox, webhookEvents } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { sandboxProvider, type SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { jobIds } from '../../shared/core/jobs/jobs.ts';
import { expireHoldsJob } from '../../worker/src/handlers/expire-holds.job.ts';
import { armHoldExpiry } from '../../worker/src/hold-expiry.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';
import { configFor, dropQueues, startHttp, startSmtpServer, startTestWorker, testPrefix, waitFor, type TestWorker } from '../support/jobs.ts';

let database: TestDatabase;
let http: Awaited<ReturnType<typeof startHttp>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let config: Config;
let payments: SandboxPayments;
let worker: TestWorker;
let app: Express;
const clock = fixedClock(MONDAY_MORNING_IST);

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  http = await startHttp();
  smtp = await startSmtpServer();
  config = configFor({ PUBLIC_BASE_URL: http.url, QUEUE_PREFIX: testPrefix(), SMTP_URL: smtp.url, MAIL_FROM: 'Centre <care@wellbeingcentre.in>' });
  payments = sandboxProvider({ db: database.db, secret: (config.payments as { secret: string }).secret, publicBaseUrl: config.publicBaseUrl, now: clock.now });
  worker = await startTestWorker({ database, config, now: clock.now, payments });
  app = testApp(database, { config, now: clock.now, payments, jobs: worker.jobs });
  http.use(app);
});
afterAll(async () => {
  await dropQueues(worker.jobs);
  await worker.stop();
  await http.close();
  await smtp.close();
  await database.drop();
});

const bookingRow = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));

describe('online booking paid through the sandbox checkout', () => {
  it('books, links, pays, confirms once, gets a meeting link and both e-mails', async () => {
    const created = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-25' }))
      .expect(200);
    const id = created.body.booking_id as number;
    expect((await bookingRow(id)).paymentStatus).toBe('INITIATED');

    const token = created.body.booking_token as string;
    // The booking's token is the client's proof; without it no link (the trust tests cover the refusals).
    await request(app).post('/api/payment/generate-link').send({ booking_id: id }).expect(403);
    const link = await request(app)
      .post('/api/payment/generate-link')
      .set('X-Booking-Token', token)
      .send({
        amount: 1,
        currency: 'INR',
        description: 'x',
        customer_name: 'Meera Pillai',
        customer_email: 'meera.pillai@example.com',
        customer_phone: '9876543210',
        booking_id: id,
      })
      .expect(200);
    expect(link.body).toEqual({
      short_url: `${http.url}/sandbox/checkout/${link.body.payment_link_id}`,
      payment_link_id: expect.stringMatching(/^plink_[A-Za-z0-9]{14}$/),
    });
    const stored = await bookingRow(id);
    expect(stored).toMatchObject({ paymentLinkUrl: link.body.short_url, razorpayPaymentLinkId: link.body.payment_link_id });
    // Asking again answers the same link.
    const again = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', token).send({ booking_id: id }).expect(200);
    expect(again.body).toEqual(link.body);

    // The wizard may confirm the stored link, never replace it without an admin token.
    await request(app)
      .post(`/api/admin/bookings/${id}/update-payment-link`)
      .set('X-Booking-Token', token)
      .send({ payment_link_url: link.body.short_url })
      .expect(200);
    await request(app)
      .post(`/api/admin/bookings/${id}/update-payment-link`)
      .set('X-Booking-Token', token)
      .send({ payment_link_url: 'https://evil.example/pay' })
      .expect(403);
    await request(app)
      .post(`/api/admin/bookings/${id}/update-payment-link`)
      .set('authorization', 'Bearer not-an-admin')
      .send({ payment_link_url: link.body.short_url, razorpay_payment_link_id: 'plink_Other000000001' })
      .expect(401);
    expect(await bookingRow(id)).toMatchObject({ paymentLinkUrl: link.body.short_url, razorpayPaymentLinkId: link.body.payment_link_id });

    const page = await request(app).get(new URL(link.body.short_url).pathname).expect(200);
    expect(page.text).toContain('₹1,500.00'); // the therapist's price, not the client's figure
    // The therapist as the wizard names them (one name everywhere), not the stored "Dr. Asha Mehta".
    expect(page.text).toContain('session with Asha Mehta on');
    expect(page.text).not.toContain('Dr. Asha Mehta');
    expect(page.text).toMatch(/<button class="pay"/);

    const paid = await request(app)
      .post(`${new URL(link.body.short_url).pathname}/pay`)
      .expect(303);
    const back = new URL(paid.headers.location!);
    expect(`${back.origin}${back.pathname}`).toBe(`${http.url}/payment-status`);
    const q = Object.fromEntries(back.searchParams);
    expect(Object.keys(q).sort()).toEqual(
      ['razorpay_payment_id', 'razorpay_payment_link_id', 'razorpay_payment_link_reference_id', 'razorpay_payment_link_status', 'razorpay_signature'].sort(),
    );
    expect(q).toMatchObject({
      razorpay_payment_link_id: link.body.payment_link_id,
      razorpay_payment_link_reference_id: String(id),
      razorpay_payment_link_status: 'paid',
    });

    // A forged callback is not believed (the link is paid, so the provider is asked and confirms it).
    const details = await request(app)
      .get(`/api/get-razorpay-details/${q.razorpay_payment_link_id}`)
      .query({ payment_status: 'paid', ...q })
      .expect(200);
    expect(details.body.data).toMatchObject({
      id,
      booking_date: '2026-11-25',
      booking_time_slot_start: '10:00',
      client_full_name: 'Meera Pillai',
      therapist_name: 'Dr. Asha Mehta',
      booking_type: 'ONLINE',
      payment_status: 'COMPLETED',
      amount: 1500,
      razorpay_payment_link_id: q.razorpay_payment_link_id,
      razorpay_payment_id: q.razorpay_payment_id,
    });
    const paidAt = (await bookingRow(id)).paidAt;
    expect(paidAt).toBeTruthy();

    // The signed webhook arrives too, and changes nothing.
    await waitFor(async () => (await database.db.select().from(webhookEvents)).length === 1, 'sandbox webhook delivery');
    const meet = await waitFor(async () => (await bookingRow(id)).googleMeetLink, 'meeting link');
    expect(meet).toMatch(/^https:\/\/meet\.jit\.si\/WellbeingSession-[0-9a-f]{32}$/);
    expect((await bookingRow(id)).paidAt).toEqual(paidAt);

    await waitFor(() => mailsTo('meera.pillai@example.com').length >= 1 && mailsTo('asha.mehta@wellbeingcentre.in').length >= 1, 'both confirmation e-mails');
    const client = mailsTo('meera.pillai@example.com');
    const therapist = mailsTo('asha.mehta@wellbeingcentre.in');
    expect(client).toHaveLength(1);
    expect(therapist).toHaveLength(1);
    const c = client[0]!.raw;
    expect(c).toMatch(/^Subject: Booking confirmed: your session on Wednesday, November 25, 2026 at\s+10:00 AM IST/m);
    expect(c).toContain('Content-Type: text/calendar; charset=utf-8; method=REQUEST; name=invite.ics');
    expect(c).toMatch(/Content-Disposition: attachment; filename=invite.ics/);
    const ics = Buffer.from(
      c
        .split('filename=invite.ics')[1]!
        .split(/\r?\n\r?\n/)[1]!
        .replace(/\s+/g, ''),
      'base64',
    ).toString('utf8');
    expect(ics).toContain('METHOD:REQUEST');
    // 10:00 at the centre (UTC+05:30) is 04:30 UTC.
    expect(ics).toContain('DTSTART:20261125T043000Z');
    expect(ics).toContain('DTEND:20261125T053000Z');
    expect(ics.replace(/\r\n /g, '')).toContain(meet);
    expect(c).toContain('24 hours');
    expect(therapist[0]!.raw).toMatch(/^Subject: New booking: Meera Pillai/m);

    // One completion: one meeting intent, one set of mail intents, the reminder waiting 24 hours before the session.
    const intents = await database.db.select().from(outbox);
    const forBooking = (name: string) => intents.filter((i) => i.jobName === name && (i.payload as { bookingId?: number }).bookingId === id);
    expect(forBooking('meetings.create')).toHaveLength(1);
    expect(forBooking('mail.booking-confirmation')).toHaveLength(2);
    expect(forBooking('mail.booking-reminder')[0]!.availableAt.toISOString()).toBe('2026-11-24T04:30:00.000Z');
    const reminder = await worker.jobs.queues.mail.getJob(`mail-reminder.${id}.${Date.parse('2026-11-25T04:30:00Z')}`);
    expect(await reminder!.getState()).toBe('delayed');
  });

  it('an admin token may set a booking’s payment link', async () => {
    const created = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-28' }))
      .expect(200);
    const id = created.body.booking_id as number;
    const admin = await createAdminUser(database.db, { username: 'desk', email: 'desk@wellbeingcentre.in', password: PASSWORD });
    await request(app)
      .post(`/api/admin/bookings/${id}/update-payment-link`)
      .set(bearer(tokenFor(admin, clock.now())))
      .send({ payment_link_url: 'https://rzp.io/i/manual1' })
      .expect(200);
    expect((await bookingRow(id)).paymentLinkUrl).toBe('https://rzp.io/i/manual1');
  });

  it('a fail on the checkout page leaves the booking unpaid and is not believed as paid', async () => {
    const created = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '11:00' }))
      .expect(200);
    const id = created.body.booking_id as number;
    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', created.body.booking_token).send({ booking_id: id }).expect(200);
    const failed = await request(app).post(`/sandbox/checkout/${link.body.payment_link_id}/fail`).expect(303);
    const q = Object.fromEntries(new URL(failed.headers.location!).searchParams);
    expect(q.razorpay_payment_link_status).toBe('failed');
    const details = await request(app)
      .get(`/api/get-razorpay-details/${link.body.payment_link_id}`)
      .query({ payment_status: 'failed', ...q })
      .expect(200);
    expect(details.body.data.payment_status).toBe('INITIATED');
    // The client's details on the payment-status page: no cache may keep them.
    expect(details.headers['cache-control']).toBe('no-store');
    // Claiming "paid" with a forged signature is refused.
    const forged = { ...q, razorpay_payment_link_status: 'paid', razorpay_signature: 'f'.repeat(64) };
    const res = await request(app)
      .get(`/api/get-razorpay-details/${link.body.payment_link_id}`)
      .query({ payment_status: 'paid', ...forged })
      .expect(409);
    expect(res.body.detail).toBeTruthy();
    expect((await bookingRow(id)).paymentStatus).toBe('INITIATED');
  });

  it('an unpaid booking frees its slot when the hold ends', async () => {
    const payload = onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '12:00' });
    const created = await request(app).post('/confirm-booking').send(payload).expect(200);
    const id = created.body.booking_id as number;
    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', created.body.booking_token).send({ booking_id: id }).expect(200);
    expect((await bookingRow(id)).paymentHoldExpiresAt!.toISOString()).toBe(new Date(Date.parse(MONDAY_MORNING_IST) + 20 * 60_000).toISOString());
    await request(app)
      .post('/confirm-booking')
      .send({ ...payload, client_full_name: 'Someone Else' })
      .expect(409);

    clock.set('2026-11-23T09:51:00+05:30');
    const job = await worker.jobs.queues.payments.add('payments.reconcile', {}, { jobId: 'reconcile-now' });
    await waitFor(async () => (await job.getState()) === 'completed', 'reconciliation');
    expect((await bookingRow(id)).paymentStatus).toBe('FAILED');
    // The link expired with the hold (expire_by = hold end), so nobody can pay it any more.
    expect((await payments.fetchPaymentLink(link.body.payment_link_id)).status).toBe('expired');
    await request(app).post(`/sandbox/checkout/${link.body.payment_link_id}/pay`).expect(409);
    // The slot is free for someone else.
    await request(app)
      .post('/confirm-booking')
      .send({ ...payload, client_full_name: 'Someone Else' })
      .expect(200);
    clock.set(MONDAY_MORNING_IST);
  });

  it('ends each unpaid hold on time with one delayed job, which then waits for the next hold', async () => {
    const slot = (time: string, client = 'Meera Pillai') =>
      onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: time, client_full_name: client });
    const first = await request(app).post('/confirm-booking').send(slot('15:00')).expect(200);
    clock.set('2026-11-23T09:40:00+05:30');
    const second = await request(app).post('/confirm-booking').send(slot('16:00')).expect(200);
    clock.set(MONDAY_MORNING_IST);
    const deps = { db: database.db, queues: worker.jobs.queues, now: clock.now };

    const firstEnd = new Date('2026-11-23T09:50:00+05:30');
    expect(await armHoldExpiry(deps)).toEqual(firstEnd);
    const job = (await worker.jobs.queues.payments.getJob(jobIds.holdExpiry(firstEnd)))!;
    expect(job).toMatchObject({ name: 'payments.expire-holds', data: { endsAt: firstEnd.toISOString() } });
    expect(job.opts.delay).toBe(20 * 60_000);
    expect(await job.getState()).toBe('delayed');
    // Arming again (the next check, or another worker) adds nothing.
    await armHoldExpiry(deps);
    expect((await worker.jobs.queues.payments.getDelayed()).filter((j) => j.name === 'payments.expire-holds')).toHaveLength(1);
    // Run before its instant, it settles nothing and is retried.
    await expect(expireHoldsJob(job.data, { now: clock.now } as never, job)).rejects.toThrow(/ran early/);

    clock.set('2026-11-23T09:50:00+05:30');
    await job.promote();
    await waitFor(async () => (await job.getState()) === 'completed', 'hold expiry');
    expect((await bookingRow(first.body.booking_id)).paymentStatus).toBe('FAILED');
    expect((await bookingRow(second.body.booking_id)).paymentStatus).toBe('INITIATED');
    const secondEnd = new Date('2026-11-23T10:00:00+05:30');
    expect((await worker.jobs.queues.payments.getJob(job.id!))!.returnvalue).toEqual({
      outcomes: { completed: 0, failed: 1, pending: 0, noop: 0 },
      next: secondEnd.toISOString(),
    });
    const next = (await worker.jobs.queues.payments.getJob(jobIds.holdExpiry(secondEnd)))!;
    expect(next.opts.delay).toBe(10 * 60_000);
    // The first slot is free for someone else; the second is still held.
    await request(app).post('/confirm-booking').send(slot('15:00', 'Someone Else')).expect(200);
    await request(app).post('/confirm-booking').send(slot('16:00', 'Someone Else')).expect(409);
    clock.set(MONDAY_MORNING_IST);
  });

  it('an offline booking gets its confirmation e-mails when created, with the centre address', async () => {
    const created = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-27', client_email: 'ravi.offline@example.com' }))
      .expect(200);
    const id = created.body.booking_id as number;
    await waitFor(() => mailsTo('ravi.offline@example.com').length === 1 && mailsTo('rohan.kapoor@wellbeingcentre.in').length === 1, 'offline confirmations');
    const raw = mailsTo('ravi.offline@example.com')[0]!.raw.replace(/=\r?\n/g, '');
    expect(raw).toContain('arrive 10 minutes early');
    expect(raw).toContain('West Branch');
    const ref = (await bookingRow(id)).paymentTransactionId;
    // Without the booking's token the status only; with it, the record for the in-person page.
    const bare = await request(app).get(`/api/get-razorpay-details/${ref}`).query({ payment_status: 'pending' }).expect(200);
    expect(bare.body).toEqual({ data: { payment_status: 'PENDING' } });
    const details = await request(app)
      .get(`/api/get-razorpay-details/${ref}`)
      .set('X-Booking-Token', created.body.booking_token)
      .query({ payment_status: 'pending' })
      .expect(200);
    expect(details.body.data).toMatchObject({ id, payment_status: 'PENDING', booking_type: 'OFFLINE', location_name: 'West Branch', amount: 1800 });
    expect(details.body.data.location_address).toBeTruthy();
    const stillPending = await database.db
      .select()
      .from(outbox)
      .where(and(isNull(outbox.dispatchedAt)));
    expect(stillPending).toHaveLength(0);
  });
});
