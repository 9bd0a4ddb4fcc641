/**
 * Issue 31, items 4 and 5: money taken at the counter goes back at the counter (a refund due, listed
 * for the desk, recorded when handed over), and a receptionist passes a refund to the owner instead
 * of keeping the client's money.
 */
import { and, eq } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import { auditLog, bookings, outbox, paymentsLedger, refundRequests, sandboxRefunds } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import type { JobPayload } from '../../shared/core/jobs/jobs.ts';
import { createLogger } from '../../shared/core/logger.ts';
import type { Mailer, MailMessage } from '../../shared/core/providers/mail/mail.provider.ts';
import { jitsiProvider } from '../../shared/core/providers/meetings/jitsi.provider.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { manageTokenFor } from '../../shared/core/services/booking-token.ts';
import { sendChangeMail, sendConfirmation, sendMoneyUpdate, type NotificationDeps } from '../../shared/core/services/notification.service.ts';
import { bearer, createAdmins, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';
import { configFor, inProcessPayments } from '../support/jobs.ts';

let database: TestDatabase;
let config: Config;
let payments: SandboxPayments;
let admins: Admins;
let app: Express;
const clock = fixedClock(MONDAY_MORNING_IST);
const sent: MailMessage[] = [];
const mailer: Mailer = {
  kind: 'outbox',
  send: async (m) => {
    sent.push(m);
    return { messageId: `m${sent.length}` };
  },
  close: () => {},
};
let notify: NotificationDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  config = configFor({ PUBLIC_BASE_URL: 'https://booking.example.in', SUPPORT_PHONE: '+91 22 4000 1234', SUPPORT_EMAIL: 'care@wellbeingcentre.in' });
  let jobs;
  ({ payments, jobs } = inProcessPayments(database, config, clock.now));
  admins = await createAdmins(database.db);
  app = testApp(database, { config, now: clock.now, payments, jobs });
  notify = { db: database.db, mailer, meetings: jitsiProvider({ domain: 'meet.jit.si' }), config, logger: createLogger({ level: 'silent' }), now: clock.now };
});
afterAll(async () => {
  await database.drop();
});
beforeEach(() => {
  clock.set(MONDAY_MORNING_IST);
  sent.length = 0;
});

const desk = () => bearer(tokenFor(admins.admin, clock.now()));
const boss = () => bearer(tokenFor(admins.superadmin, clock.now()));
const row = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const ledgerOf = (id: number) => database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id)).orderBy(paymentsLedger.id);
const requestsOf = (id: number) => database.db.select().from(refundRequests).where(eq(refundRequests.bookingId, id)).orderBy(refundRequests.id);
const auditsOf = (id: number, action: string) =>
  database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, String(id)), eq(auditLog.action, action)));

let clients = 0;
const nextEmail = () => `desk.refund${++clients}@example.com`;

/** An in-person session with Dr. Rohan Kapoor (₹1,800, paid at the visit), and its client's Manage booking token. */
async function inPerson(date: string, time: string): Promise<{ id: number; token: string }> {
  const made = await request(app)
    .post('/confirm-booking')
    .send(offlineBooking({ booking_date: date, booking_time_slot_start: time, client_email: nextEmail(), client_full_name: 'Arjun Rao' }))
    .expect(200);
  const id = made.body.booking_id as number;
  // The confirmation e-mail gives the booking its Manage booking link, as the worker does.
  expect(await sendConfirmation(notify, id, 'client')).toBe('sent');
  return { id, token: manageTokenFor(config.jwtSecret, id).token };
}

/** An in-person session paid at the desk in cash. */
async function paidInCash(date: string, time: string, amount?: number): Promise<{ id: number; token: string }> {
  const b = await inPerson(date, time);
  await request(app)
    .post(`/api/admin/bookings/${b.id}/record-payment`)
    .set(desk())
    .send(amount === undefined ? { method: 'CASH' } : { method: 'CASH', amount })
    .expect(200);
  return b;
}

/** A paid online session with Dr. Asha Mehta (₹1,500), paid through the sandbox checkout. */
async function paidOnline(date: string, time: string): Promise<{ id: number; paymentId: string }> {
  const made = await request(app)
    .post('/confirm-booking')
    .send(onlineBooking({ booking_date: date, booking_time_slot_start: time, client_email: nextEmail() }))
    .expect(200);
  const id = made.body.booking_id as number;
  const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', made.body.booking_token).send({ booking_id: id }).expect(200);
  const paid = await request(app).post(`/sandbox/checkout/${link.body.payment_link_id}/pay`).expect(303);
  const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
  await request(app)
    .get(`/api/get-razorpay-details/${id}`)
    .query({ payment_status: 'paid', ...q })
    .expect(200);
  expect((await row(id)).paymentStatus).toBe('COMPLETED');
  return { id, paymentId: q.razorpay_payment_id! };
}

/** The client's e-mails the worker would send now for this booking's outbox intents (money and client-change mails). */
async function clientMails(id: number): Promise<MailMessage[]> {
  const intents = await database.db.select().from(outbox).orderBy(outbox.id);
  const clientEmail = (await row(id)).clientEmail;
  sent.length = 0;
  for (const o of intents) {
    const p = o.payload as { bookingId?: number };
    if (p.bookingId !== id) continue;
    if (o.jobName === 'mail.booking-money') await sendMoneyUpdate(notify, id, (p as JobPayload<'mail.booking-money'>).reason);
    if (o.jobName === 'mail.booking-changed' && (p as JobPayload<'mail.booking-changed'>).recipient === 'client') {
      await sendChangeMail(notify, p as JobPayload<'mail.booking-changed'>);
    }
  }
  return sent.filter((m) => m.to === clientEmail);
}

describe('item 4: a client cancels a session paid in cash', () => {
  it('records a refund due at the counter, not a ledger row, and tells the client to collect it at the centre', async () => {
    const b = await paidInCash('2026-11-26', '10:00');
    const res = await request(app).post(`/api/manage/${b.token}/cancel`).expect(200);
    expect(res.body.message).toBe(
      'Your booking has been cancelled. Your refund of ₹1,800 will be handed back to you at the centre, where it was paid: please call +91 22 4000 1234 or write to care@wellbeingcentre.in to arrange when to collect it. We have sent you an e-mail to confirm it.',
    );
    expect(res.body.message).not.toContain('original payment method');
    // The money is still in the till: the ledger has the payment only.
    expect((await ledgerOf(b.id)).map((l) => [l.kind, l.provider, l.amountPaise])).toEqual([['capture', 'counter', 180_000]]);
    expect(await requestsOf(b.id)).toEqual([
      expect.objectContaining({ kind: 'AT_COUNTER', status: 'OPEN', amountPaise: 180_000, requestedBy: 'client', requestedByAdminId: null, reason: 'Cancelled by the client' }),
    ]);
    const [audit] = await auditsOf(b.id, 'booking.client_cancel');
    expect(audit!.after).toMatchObject({ cancelled: true, refund: { choice: 'FULL', amount: 1800, at_counter: 1800 } });
    const [mail] = await clientMails(b.id);
    expect(mail!.subject).toMatch(/^Booking cancelled: your session on/);
    expect(mail!.text).toContain(
      'Your refund of ₹1,800 will be handed back to you at the centre, where it was paid: please call +91 22 4000 1234 or write to care@wellbeingcentre.in to arrange when to collect it.',
    );
    expect(mail!.text).not.toContain('original payment method');
  });
});

describe('item 5: a receptionist cancels a paid booking', () => {
  it('may ask the owner to refund (REQUEST, with a reason): cancelled, a review request written, no money moved', async () => {
    const b = await paidInCash('2026-11-27', '10:00');
    const res = await request(app)
      .post(`/api/admin/bookings/${b.id}/cancel`)
      .set(desk())
      .send({ refund: 'REQUEST', reason: 'Client is unwell; asks for the fee back' })
      .expect(200);
    expect(res.body).toMatchObject({ booking_id: b.id, cancelled: true, refund: { status: 'requested', amount: 1800 } });
    expect((await row(b.id)).cancelled).toBe(true);
    expect(await ledgerOf(b.id)).toHaveLength(1);
    expect(await requestsOf(b.id)).toEqual([
      expect.objectContaining({ kind: 'REVIEW', status: 'OPEN', amountPaise: 180_000, requestedBy: `admin:${admins.admin.id}`, reason: 'Client is unwell; asks for the fee back' }),
    ]);
  });

  it('may not keep the money of a session outside the notice window (NONE is 403)', async () => {
    const b = await paidInCash('2026-11-27', '11:00');
    const res = await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk()).send({ refund: 'NONE', reason: 'Changed their mind' }).expect(403);
    expect(res.body.detail).toMatch(/ask the owner/i);
    expect((await row(b.id)).cancelled).toBe(false);
    expect(await requestsOf(b.id)).toEqual([]);
  });
});

void sandboxRefunds;
void payments;
void boss;
void paidOnline;
