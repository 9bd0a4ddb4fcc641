import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { and, eq } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import { auditLog, bookings, outbox, packageCredits, packageSales, paymentsLedger, refundIntents } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { webhookSignature } from '../../shared/core/providers/payments/payments.provider.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { PACKAGE_MESSAGES as PM } from '../../shared/contract/packages.ts';
import { saleLinkReference } from '../../shared/domain/payment-link-reference.ts';
import { hashBookingToken, manageTokenFor, packageTokenFor } from '../../shared/core/services/booking-token.ts';
import { expirePackages } from '../../shared/core/services/package-expiry.service.ts';
import { reconcileSales } from '../../shared/core/services/package-payment.service.ts';
import { handlePaymentWebhook } from '../../shared/core/services/payment.service.ts';
import { finishAbandonedRefunds } from '../../shared/core/services/refund-recovery.service.ts';
import { insertSaleRefundIntent } from '../../shared/core/repositories/refund-intent.repository.ts';
import { capturingMailer } from '../support/mailing.ts';
import type { WorkerDeps } from '../../worker/src/handlers/handler.ts';
import { bearer, createAdmins, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';
import { configFor, inProcessPayments } from '../support/jobs.ts';
import { propertySeed } from '../support/property-seed.ts';
import { inProcessWorker, runDueJobs } from '../support/run-jobs.ts';

/**
 * Issue 34, section 3: packages of sessions and their credits. A super admin defines packages; the desk
 * sells one (one capture in the payments ledger) or the client buys one through a payment link (paid,
 * and its sessions credited, once, whatever order the callback, webhook and reconciliation come in).
 * A booking from a package uses one credit and no money; a cancel within the policy returns it, a late
 * cancel and a no-show keep it used; credits expire after the last day (a reminder a week before);
 * unused ones are refunded pro rata at the counter or through the provider. The jobs run in this
 * process (tests/support/run-jobs.ts), e-mails are recorded.
 */
const clock = fixedClock(MONDAY_MORNING_IST);
let database: TestDatabase, admins: Admins, app: Express, config: Config, payments: SandboxPayments, worker: WorkerDeps;
let owner: Record<string, string>, desk: Record<string, string>;
const { sent, mailer } = capturingMailer();

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  config = configFor({ PUBLIC_BASE_URL: 'https://booking.example.in' });
  let jobs;
  ({ payments, jobs } = inProcessPayments(database, config, clock.now));
  admins = await createAdmins(database.db);
  app = testApp(database, { config, now: clock.now, payments, jobs });
  worker = inProcessWorker(database, payments, config, clock.now, mailer);
});
const at = (iso: string) => {
  clock.set(iso);
  owner = bearer(tokenFor(admins.superadmin, clock.now()));
  desk = bearer(tokenFor(admins.admin, clock.now()));
};
beforeEach(() => {
  at(MONDAY_MORNING_IST);
  sent.length = 0;
});
afterAll(async () => {
  await database?.drop();
});

let packages = 0;
/** A package of `sessions` for ₹`price`, defined by the super admin; answers its id. */
async function definePackage(o: Record<string, unknown> = {}): Promise<number> {
  const res = await request(app)
    .post('/api/admin/packages')
    .set(owner)
    .send({ name: `Course ${++packages}`, sessions_count: 4, price: 4000, validity_days: 30, ...o });
  expect([res.status, res.body.detail]).toEqual([201, undefined]);
  return res.body.package.id as number;
}

let clients = 0;
function client() {
  const n = ++clients;
  return { client_full_name: `Meera Client ${n}`, client_email: `meera${n}@example.com`, client_mobile: '9123456780' };
}

/** A package sold at the desk; answers the sale's id and the client's token. */
async function sell(packageId: number, o: Record<string, unknown> = {}): Promise<{ id: number; token: string; email: string }> {
  const who = client();
  const res = await request(app)
    .post('/api/admin/package-sales')
    .set(desk)
    .send({ package_id: packageId, ...who, payment_method: 'CASH', ...o });
  expect([res.status, res.body.detail]).toEqual([201, undefined]);
  const id = res.body.sale.id as number;
  return { id, token: packageTokenFor(config.jwtSecret, id).token, email: who.client_email };
}

const HOURS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
const DAYS = ['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03'];
let slots = 0;
const nextSlot = () => {
  const n = slots++;
  return { booking_date: DAYS[Math.floor(n / HOURS.length) % DAYS.length]!, booking_time_slot_start: HOURS[n % HOURS.length]! };
};

/** The panel's manual booking "From a package" for Dr. Asha Mehta (online). */
function fromPackage(saleId: number, o: Record<string, unknown> = {}) {
  return {
    therapist_id: 1,
    ...nextSlot(),
    ...client(),
    booking_type: 'ONLINE',
    location_id: 0,
    payment_transaction_id: randomUUID(),
    admin_confirmed: true,
    package_sale_id: saleId,
    ...o,
  };
}
const book = (payload: Record<string, unknown>) => request(app).post('/confirm-booking').set(desk).send(payload);
const detail = async (id: number) => (await request(app).get(`/api/admin/package-sales/${id}`).set(desk).expect(200)).body;
const saleLedger = (id: number) => database.db.select().from(paymentsLedger).where(eq(paymentsLedger.packageSaleId, id)).orderBy(paymentsLedger.id);
const credits = (id: number) => database.db.select().from(packageCredits).where(eq(packageCredits.saleId, id)).orderBy(packageCredits.id);
const bookingRow = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;

describe('defining packages', () => {
  it('a super admin defines and edits a package; audited; sales keep their terms', async () => {
    const id = await definePackage({
      name: 'Eight weeks',
      sessions_count: 8,
      price: 9600,
      validity_days: 90,
      session_types: ['ONLINE'],
      therapist_ids: [1, 2],
    });
    const sale = await sell(id);
    const patched = await request(app).patch(`/api/admin/packages/${id}`).set(owner).send({ price: 9000, sessions_count: 6 }).expect(200);
    expect(patched.body.package).toMatchObject({ name: 'Eight weeks', sessions_count: 6, price: 9000, session_types: ['ONLINE'], therapist_ids: [1, 2] });
    expect(await detail(sale.id)).toMatchObject({ sessions_total: 8, price: 9600 });
    const actions = (
      await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityType, 'package'), eq(auditLog.entityId, String(id))))
    ).map((a) => a.action);
    expect(actions).toEqual(['package.create', 'package.update']);
  });

  it('only a super admin defines or edits; any admin lists', async () => {
    const id = await definePackage();
    const refused = await request(app).post('/api/admin/packages').set(desk).send({ name: 'Nope', sessions_count: 2, price: 100, validity_days: 10 });
    expect([refused.status, refused.body.detail]).toEqual([403, 'Only super admins may define packages, extend them or refund them.']);
    await request(app).patch(`/api/admin/packages/${id}`).set(desk).send({ is_active: false }).expect(403);
    const listed = await request(app).get('/api/admin/packages').set(desk).expect(200);
    expect(listed.body.map((p: { id: number }) => p.id)).toContain(id);
  });

  it('a name already used, an unknown therapist or a bad figure is a 400 naming the field', async () => {
    await definePackage({ name: 'Unique name' });
    const dup = await request(app).post('/api/admin/packages').set(owner).send({ name: 'UNIQUE NAME', sessions_count: 2, price: 100, validity_days: 10 });
    expect([dup.status, dup.body.errors]).toEqual([400, { name: 'A package with this name already exists.' }]);
    const unknown = await request(app)
      .post('/api/admin/packages')
      .set(owner)
      .send({ name: 'X1', sessions_count: 2, price: 100, validity_days: 10, therapist_ids: [999] });
    expect([unknown.status, unknown.body.errors]).toEqual([400, { therapist_ids: 'One of the chosen therapists does not exist.' }]);
    const zero = await request(app).post('/api/admin/packages').set(owner).send({ name: 'X2', sessions_count: 0, price: 100, validity_days: 10 });
    expect(zero.status).toBe(400);
  });

  it('an inactive package is not offered and not sold', async () => {
    const id = await definePackage();
    await request(app).patch(`/api/admin/packages/${id}`).set(owner).send({ is_active: false }).expect(200);
    const offered = await request(app).get('/api/packages').expect(200);
    expect(offered.body.map((p: { id: number }) => p.id)).not.toContain(id);
    const res = await request(app)
      .post('/api/admin/package-sales')
      .set(desk)
      .send({ package_id: id, ...client(), payment_method: 'UPI' });
    expect(res.status).toBe(409);
  });
});

describe('a sale at the desk', () => {
  it('is one capture in the payments ledger, its credits sold, and the client e-mailed their private link', async () => {
    const id = await definePackage({ price: 4999.5 });
    const { id: saleId, token, email } = await sell(id, { payment_method: 'UPI' });
    expect(await saleLedger(saleId)).toEqual([
      expect.objectContaining({
        kind: 'capture',
        provider: 'counter',
        method: 'UPI',
        amountPaise: 499950,
        bookingId: null,
        recordedByAdminId: admins.admin.id,
      }),
    ]);
    expect((await credits(saleId)).map((c) => [c.kind, c.sessions])).toEqual([['sold', 4]]);
    const [sale] = await database.db.select().from(packageSales).where(eq(packageSales.id, saleId));
    // Only the token's hash is kept.
    expect(sale!.tokenHash).toBe(hashBookingToken(token));
    expect(JSON.stringify(sale)).not.toContain(token);
    expect(await detail(saleId)).toMatchObject({
      sessions_total: 4,
      sessions_used: 0,
      sessions_left: 4,
      expires_on: '2026-12-22',
      paid: 4999.5,
      status: 'PAID',
      channel: 'DESK',
      bookings: [],
    });
    await runDueJobs(worker);
    const mails = sent.filter((m) => m.to === email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`https://booking.example.in/my-package?token=${token}`);
    const mine = await request(app).get(`/api/packages/${token}`).expect(200);
    expect(mine.body).toMatchObject({ sessions_total: 4, sessions_left: 4, expires_on: '2026-12-22', status: 'PAID' });
  });

  it("is in the day's cash-up, under its method, as a package sale's money", async () => {
    const { id } = await sell(await definePackage({ price: 1234 }), { payment_method: 'CARD' });
    const res = await request(app).get('/api/admin/reports/cash-up').query({ date: '2026-11-23' }).set(desk).expect(200);
    expect(res.body.movements.filter((m: { package_sale_id: number | null }) => m.package_sale_id === id)).toEqual([
      expect.objectContaining({ kind: 'PAYMENT', booking_id: null, method: 'CARD', amount: 1234, session_date: null, recorded_by: 'desk' }),
    ]);
    const ledger = (await database.db.select().from(paymentsLedger)).filter((l) => l.provider === 'counter' && l.method === 'CARD');
    expect(res.body.methods.find((m: { method: string }) => m.method === 'CARD').taken * 100).toBe(ledger.reduce((n, l) => n + l.amountPaise, 0));
  });

  it('an unknown or malformed token is a 404, the same either way', async () => {
    const a = await request(app).get(`/api/packages/${'A'.repeat(43)}`);
    const b = await request(app).get('/api/packages/short');
    expect([a.status, b.status, a.body.detail]).toEqual([404, 404, b.body.detail]);
  });
});

describe('a manual booking from a package', () => {
  it('uses one credit, writes no money, and is confirmed', async () => {
    const sale = await sell(await definePackage());
    const res = await book(fromPackage(sale.id));
    expect([res.status, res.body.detail]).toEqual([200, undefined]);
    const id = res.body.booking_id as number;
    expect(await bookingRow(id)).toMatchObject({ paymentStatus: 'COMPLETED', amountPaise: 0, adminConfirmed: true });
    expect(await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id))).toEqual([]);
    expect(await detail(sale.id)).toMatchObject({ sessions_used: 1, sessions_left: 3, bookings: [expect.objectContaining({ id, credit: 'USED' })] });
    // Its follow-ups, as a paid one's: the meeting link first (the confirmation e-mails follow it).
    const jobs = (await database.db.select().from(outbox)).filter((o) => (o.payload as { bookingId?: number }).bookingId === id).map((o) => o.jobName);
    expect(jobs).toContain('meetings.create');
  });

  it('refuses once no credit is left, writing no booking', async () => {
    const sale = await sell(await definePackage({ sessions_count: 1 }));
    await book(fromPackage(sale.id)).expect(200);
    const payload = fromPackage(sale.id);
    const res = await book(payload);
    expect([res.status, res.body.detail]).toEqual([409, `Package sale ${sale.id} has no session left.`]);
    expect(
      await database.db
        .select()
        .from(bookings)
        .where(eq(bookings.paymentTransactionId, payload.payment_transaction_id as string)),
    ).toEqual([]);
  });

  it('refuses a therapist or format the package does not cover, and a session after its last day', async () => {
    const sale = await sell(await definePackage({ therapist_ids: [2], validity_days: 3 }));
    const other = await book(fromPackage(sale.id));
    expect([other.status, other.body.detail]).toEqual([409, 'This package does not cover this therapist or session type.']);
    const late = await book(fromPackage(sale.id, { therapist_id: 2, booking_date: '2026-11-27', booking_time_slot_start: '10:00' }));
    expect([late.status, late.body.errors]).toEqual([
      400,
      { booking_date: "This package's sessions must be used by 2026-11-25: please choose an earlier date." },
    ]);
    expect((await detail(sale.id)).sessions_left).toBe(4);
  });

  it('takes no payment as well: package_sale_id with payment_method is a 400', async () => {
    const sale = await sell(await definePackage());
    const res = await book(fromPackage(sale.id, { payment_method: 'CASH' }));
    expect(res.status).toBe(400);
  });

  it('a form sent twice is one booking and one credit', async () => {
    const sale = await sell(await definePackage());
    const payload = fromPackage(sale.id);
    const [a, b] = [await book(payload), await book(payload)];
    // The second is answered with the booking it made, or refused: never a second booking or credit.
    expect(a.status).toBe(200);
    expect(b.status === 409 || b.body.booking_id === a.body.booking_id).toBe(true);
    expect(await database.db.select().from(bookings).where(eq(bookings.paymentTransactionId, payload.payment_transaction_id))).toHaveLength(1);
    expect((await detail(sale.id)).sessions_used).toBe(1);
  });

  it('two bookings racing for the last credit: one wins, the other is refused and written nowhere', async () => {
    const sale = await sell(await definePackage({ sessions_count: 1 }));
    const [a, b] = await Promise.all([book(fromPackage(sale.id)), book(fromPackage(sale.id))]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await detail(sale.id)).toMatchObject({ sessions_used: 1, sessions_left: 0 });
    expect((await database.db.select().from(bookings).where(eq(bookings.clientFullName, 'x'))).length).toBe(0);
  });

  it('the last credit raced by a cancel returning one: never below zero', async () => {
    const sale = await sell(await definePackage({ sessions_count: 2 }));
    const first = (await book(fromPackage(sale.id)).expect(200)).body.booking_id;
    await Promise.all([book(fromPackage(sale.id)), book(fromPackage(sale.id)), request(app).post(`/api/admin/bookings/${first}/cancel`).set(desk).send()]);
    const d = await detail(sale.id);
    expect(d.sessions_left).toBeGreaterThanOrEqual(0);
    expect(d.sessions_left).toBe(d.sessions_total - d.sessions_used);
  });
});

describe('cancels and no-shows', () => {
  it("a cancel with the policy's notice returns the credit, once", async () => {
    const sale = await sell(await definePackage());
    const id = (await book(fromPackage(sale.id, { therapist_id: 3, booking_date: '2026-11-30', booking_time_slot_start: '16:00' })).expect(200)).body
      .booking_id;
    const res = await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk).send();
    expect([res.status, res.body.detail]).toEqual([200, undefined]);
    expect(await detail(sale.id)).toMatchObject({
      sessions_used: 0,
      sessions_left: 4,
      bookings: [expect.objectContaining({ id, credit: 'RETURNED', cancelled: true })],
    });
    await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk).send().expect(409);
    expect((await credits(sale.id)).map((c) => c.kind)).toEqual(['sold', 'used', 'returned']);
  });

  it('a late cancel keeps the credit used, as the terms charge the fee', async () => {
    const sale = await sell(await definePackage());
    // Tomorrow at 10:00: less than 24 hours away once the clock reaches the evening.
    const id = (await book(fromPackage(sale.id, { therapist_id: 4, booking_date: '2026-11-24', booking_time_slot_start: '10:00' })).expect(200)).body
      .booking_id;
    at('2026-11-23T18:00:00+05:30');
    await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk).send().expect(200);
    expect(await detail(sale.id)).toMatchObject({ sessions_used: 1, sessions_left: 3 });
  });

  it("the client's own cancel from Manage booking returns the credit", async () => {
    const sale = await sell(await definePackage());
    const id = (await book(fromPackage(sale.id, { therapist_id: 3, booking_date: '2026-12-01', booking_time_slot_start: '11:00' })).expect(200)).body
      .booking_id;
    const token = manageTokenFor(config.jwtSecret, id).token;
    const res = await request(app).post(`/api/manage/${token}/cancel`).send();
    expect([res.status, res.body.detail]).toEqual([200, undefined]);
    expect(await detail(sale.id)).toMatchObject({ sessions_used: 0, sessions_left: 4 });
    expect((await credits(sale.id)).at(-1)).toMatchObject({ kind: 'returned', actor: 'client', bookingId: id });
  });

  it('a no-show keeps the credit used', async () => {
    const sale = await sell(await definePackage());
    const id = (await book(fromPackage(sale.id, { therapist_id: 4, booking_date: '2026-11-24', booking_time_slot_start: '11:00' })).expect(200)).body
      .booking_id;
    at('2026-11-24T13:00:00+05:30');
    await request(app).post(`/api/admin/bookings/${id}/attendance`).set(desk).send({ status: 'NO_SHOW' }).expect(200);
    expect(await detail(sale.id)).toMatchObject({
      sessions_used: 1,
      sessions_left: 3,
      bookings: [expect.objectContaining({ attendance: 'NO_SHOW', credit: 'USED' })],
    });
  });
});

describe('expiry', () => {
  it('credits left after the last day expire once, whatever how often the job runs; the reminder comes once, a week before', async () => {
    const sale = await sell(await definePackage({ validity_days: 10 }));
    await book(fromPackage(sale.id)).expect(200);
    const reminders = async () => (await database.db.select().from(outbox)).filter((o) => o.jobId.startsWith(`mail-package-expiring.${sale.id}.`));
    // Last day 2 December: the reminder is due from 25 November.
    at('2026-11-24T23:00:00+05:30');
    await expirePackages(worker);
    expect(await reminders()).toEqual([]);
    at('2026-11-25T00:45:00+05:30');
    await expirePackages(worker);
    await expirePackages(worker);
    expect((await reminders()).map((o) => o.jobId)).toEqual([`mail-package-expiring.${sale.id}.2026-12-02`]);
    await runDueJobs(worker);
    const reminder = sent.filter((m) => m.to === sale.email && m.subject.startsWith('Your package expires'));
    expect(reminder).toHaveLength(1);
    expect(reminder[0]!.text).toContain('3 sessions left');
    at('2026-12-03T00:45:00+05:30');
    await expirePackages(worker);
    await expirePackages(worker);
    expect((await credits(sale.id)).map((c) => [c.kind, c.sessions])).toEqual([
      ['sold', 4],
      ['used', -1],
      ['expired', -3],
    ]);
    expect(await detail(sale.id)).toMatchObject({ sessions_left: 0, sessions_expired: 3 });
    const late = await book(fromPackage(sale.id, { booking_date: '2026-12-04' }));
    expect(late.status).toBe(409);
  });

  it('a super admin extends a sale (audited, reminded again before the new date); not once expired; not a plain admin', async () => {
    const sale = await sell(await definePackage({ validity_days: 5 }));
    at('2026-11-24T09:00:00+05:30');
    await expirePackages(worker);
    await request(app).post(`/api/admin/package-sales/${sale.id}/extend`).set(desk).send({ expires_on: '2026-12-31' }).expect(403);
    const earlier = await request(app).post(`/api/admin/package-sales/${sale.id}/extend`).set(owner).send({ expires_on: '2026-11-26' });
    expect([earlier.status, earlier.body.errors]).toEqual([400, { expires_on: 'The new expiry date must be after 2026-11-27.' }]);
    const res = await request(app).post(`/api/admin/package-sales/${sale.id}/extend`).set(owner).send({ expires_on: '2026-12-31', reason: 'Client was ill' });
    expect([res.status, res.body.sale.expires_on]).toEqual([200, '2026-12-31']);
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'package_sale.extend'), eq(auditLog.entityId, String(sale.id))));
    expect(audit[0]!.after).toMatchObject({ expires_on: '2026-12-31', reason: 'Client was ill' });
    const [row] = await database.db.select().from(packageSales).where(eq(packageSales.id, sale.id));
    expect(row!.expiryReminderSentAt).toBeNull();
    at('2027-01-01T01:00:00+05:30');
    await expirePackages(worker);
    const gone = await request(app)
      .post(`/api/admin/package-sales/${sale.id}/extend`)
      .set(bearer(tokenFor(admins.superadmin, clock.now())))
      .send({ expires_on: '2027-02-01' });
    expect(gone.status).toBe(409);
  });
});

describe('refunds of unused sessions', () => {
  it('at the counter: pro rata, one refund row in the ledger, the sessions refunded', async () => {
    const sale = await sell(await definePackage({ sessions_count: 3, price: 1000 }));
    await book(fromPackage(sale.id)).expect(200);
    await request(app).post(`/api/admin/package-sales/${sale.id}/refund`).set(desk).send({ method: 'CASH' }).expect(403);
    const needsMethod = await request(app).post(`/api/admin/package-sales/${sale.id}/refund`).set(owner).send({});
    expect(needsMethod.status).toBe(400);
    const res = await request(app).post(`/api/admin/package-sales/${sale.id}/refund`).set(owner).send({ method: 'CASH', reason: 'Moving away' });
    expect([res.status, res.body.refund]).toEqual([200, { amount: 666.66, sessions: 2, status: 'at_counter' }]);
    expect(res.body.sale).toMatchObject({ sessions_left: 0, sessions_refunded: 2, sessions_used: 1, paid: 333.34, refunded: 666.66, refundable: 0 });
    const ledger = await saleLedger(sale.id);
    expect(ledger.map((l) => [l.kind, l.amountPaise, l.method])).toEqual([
      ['capture', 100000, 'CASH'],
      ['refund', -66666, 'CASH'],
    ]);
    await request(app).post(`/api/admin/package-sales/${sale.id}/refund`).set(owner).send({ method: 'CASH' }).expect(409);
  });
});

describe('bought online', () => {
  async function purchase(packageId: number) {
    const who = client();
    const res = await request(app)
      .post('/api/packages/purchase')
      .send({ package_id: packageId, ...who, request_key: randomUUID() });
    expect([res.status, res.body.detail]).toEqual([201, undefined]);
    return { ...res.body, email: who.client_email } as { sale_id: number; payment_link_url: string; token: string; email: string };
  }
  const linkIdOf = (url: string) => new URL(url).pathname.split('/').pop()!;
  const payAtCheckout = async (url: string) => {
    const paid = await request(app)
      .post(`/sandbox/checkout/${linkIdOf(url)}/pay`)
      .expect(303);
    return Object.fromEntries(new URL(paid.headers.location!).searchParams);
  };
  async function deliverWebhooks(saleId: number) {
    const hooks = (await database.db.select().from(outbox).where(eq(outbox.jobName, 'payments.sandbox-webhook'))).filter((h) =>
      (h.payload as { body: string }).body.includes(`pkg-${saleId}-`),
    );
    for (const h of hooks) {
      const { body, eventId } = h.payload as { body: string; eventId: string };
      await handlePaymentWebhook(worker, Buffer.from(body), webhookSignature((config.payments as { secret: string }).secret, body), eventId);
    }
    return hooks.length;
  }

  it('waits for its payment: nothing sold, nothing in the ledger, no session usable', async () => {
    const p = await purchase(await definePackage());
    expect(await saleLedger(p.sale_id)).toEqual([]);
    expect(await credits(p.sale_id)).toEqual([]);
    const mine = await request(app).get(`/api/packages/${p.token}`).expect(200);
    expect(mine.body).toMatchObject({ status: 'AWAITING_PAYMENT', sessions_left: 0 });
    const res = await book(fromPackage(p.sale_id));
    expect(res.status).toBe(409);
  });

  it('the callback then the webhook then the reconciliation: paid, credited and in the ledger once', async () => {
    const p = await purchase(await definePackage({ price: 2500 }));
    const query = await payAtCheckout(p.payment_link_url);
    const mine = await request(app).get(`/api/packages/${p.token}`).query(query).expect(200);
    expect(mine.body).toMatchObject({ status: 'PAID', sessions_left: 4, sessions_total: 4 });
    expect(await deliverWebhooks(p.sale_id)).toBe(1);
    await reconcileSales(worker);
    await request(app).get(`/api/packages/${p.token}`).query(query).expect(200);
    expect((await saleLedger(p.sale_id)).map((l) => [l.kind, l.provider, l.amountPaise])).toEqual([['capture', 'sandbox', 250000]]);
    expect((await credits(p.sale_id)).map((c) => c.kind)).toEqual(['sold']);
    await runDueJobs(worker);
    expect(sent.filter((m) => m.to === p.email)).toHaveLength(1);
  });

  it('the webhook first, then the callback: the same one sale', async () => {
    const p = await purchase(await definePackage());
    const query = await payAtCheckout(p.payment_link_url);
    await deliverWebhooks(p.sale_id);
    expect((await detail(p.sale_id)).status).toBe('PAID');
    await request(app).get(`/api/packages/${p.token}`).query(query).expect(200);
    expect(await saleLedger(p.sale_id)).toHaveLength(1);
    expect(await credits(p.sale_id)).toHaveLength(1);
  });

  it('only the reconciliation hears of it: paid; a link unpaid after a day lapses', async () => {
    const paid = await purchase(await definePackage());
    const unpaid = await purchase(await definePackage());
    await payments.pay(linkIdOf(paid.payment_link_url));
    await reconcileSales(worker);
    expect([(await detail(paid.sale_id)).status, (await detail(unpaid.sale_id)).status]).toEqual(['PAID', 'AWAITING_PAYMENT']);
    at('2026-11-24T10:00:00+05:30');
    await reconcileSales(worker);
    expect((await detail(unpaid.sale_id)).status).toBe('LAPSED');
    expect((await detail(paid.sale_id)).status).toBe('PAID');
  });

  it('a retried purchase (same request key) answers the same sale and link', async () => {
    const id = await definePackage();
    const body = { package_id: id, ...client(), request_key: randomUUID() };
    const a = await request(app).post('/api/packages/purchase').send(body).expect(201);
    const b = await request(app).post('/api/packages/purchase').send(body).expect(201);
    expect([b.body.sale_id, b.body.payment_link_url]).toEqual([a.body.sale_id, a.body.payment_link_url]);
    const other = await request(app)
      .post('/api/packages/purchase')
      .send({ ...body, client_email: 'someone.else@example.com' });
    expect(other.status).toBe(409);
  });

  it('keeps to the hold limits: purchases waiting for payment per e-mail and per mobile, purchases per address (429, Retry-After)', async () => {
    const limited = testApp(database, {
      config: configFor({ PUBLIC_BASE_URL: 'https://booking.example.in', HOLDS_PER_CLIENT: '1', HOLDS_PER_IP: '2' }),
      now: clock.now,
      payments,
    });
    // An hour of its own, so no other test's purchases from this address count.
    at('2026-11-23T12:00:00+05:30');
    const id = await definePackage();
    const buy = (who: Record<string, string>, key = randomUUID()) =>
      request(limited)
        .post('/api/packages/purchase')
        .send({ package_id: id, client_full_name: 'Asha Limit', ...who, request_key: key });
    const first = { client_email: 'asha.limit@example.com', client_mobile: '9000000001' };
    const key = randomUUID();
    const made = await buy(first, key).expect(201);
    // The same request sent again is the same purchase, not a second one.
    expect((await buy(first, key).expect(201)).body.sale_id).toBe(made.body.sale_id);
    const sameEmail = await buy({ ...first, client_mobile: '9000000002' }).expect(429);
    expect(sameEmail.body.detail).toBe(PM.purchasesPerClient(1));
    // Its link is open for a day from now: that is when to try again.
    expect(Number(sameEmail.headers['retry-after'])).toBe(24 * 3600);
    const sameMobile = await buy({ client_email: 'other.limit@example.com', client_mobile: '9000000001' }).expect(429);
    expect(sameMobile.body.detail).toBe(PM.purchasesPerClient(1));
    // Paid, the purchase no longer waits: the client may buy another.
    await payments.pay(linkIdOf(made.body.payment_link_url));
    await reconcileSales(worker);
    await buy({ ...first, client_mobile: '9000000003' }).expect(201);
    // Two from this address in ten minutes (the limit); a third is refused until the first leaves the window.
    const third = await buy({ client_email: 'third.limit@example.com', client_mobile: '9000000004' }).expect(429);
    expect(third.body.detail).toBe(PM.purchasesPerAddress(10));
    expect(Number(third.headers['retry-after'])).toBe(600);
    at('2026-11-23T12:10:00+05:30');
    await buy({ client_email: 'third.limit@example.com', client_mobile: '9000000004' }).expect(201);
    const sales = await database.db.select().from(packageSales).where(eq(packageSales.packageId, id));
    expect(sales).toHaveLength(3);
    expect(sales.every((s) => typeof s.clientAddressHash === 'string')).toBe(true);
  });

  it('a second payment for a sale already paid: in the ledger once and given back once through the provider, whatever order the reports come in', async () => {
    const event = fc.constantFrom('callback', 'webhook-first', 'webhook-second', 'reconcile', 'jobs', 'recover');
    await fc.assert(
      fc.asyncProperty(fc.array(event, { minLength: 1, maxLength: 10 }), async (plan) => {
        const p = await purchase(await definePackage({ price: 1500 }));
        const query = await payAtCheckout(p.payment_link_url);
        // A second link for the same sale (a retried purchase's, which raced the first), paid as well.
        const second = await payments.createPaymentLink({
          referenceId: saleLinkReference(p.sale_id, 'again'),
          amountPaise: 150000,
          description: 'the same package again',
          customer: { name: 'Meera', email: p.email, contact: '+919123456780' },
          callbackUrl: 'https://booking.example.in/my-package',
          expireBy: new Date(clock.now().getTime() + 86_400_000),
        });
        await payments.pay(second.id);
        const firstLink = linkIdOf(p.payment_link_url);
        const hooks = (await database.db.select().from(outbox).where(eq(outbox.jobName, 'payments.sandbox-webhook'))).filter((h) =>
          (h.payload as { body: string }).body.includes(`pkg-${p.sale_id}-`),
        );
        const deliver = async (linkId: string) => {
          for (const h of hooks.filter((x) => (x.payload as { body: string }).body.includes(linkId))) {
            const { body, eventId } = h.payload as { body: string; eventId: string };
            await handlePaymentWebhook(worker, Buffer.from(body), webhookSignature((config.payments as { secret: string }).secret, body), eventId);
          }
        };
        const run: Record<string, () => Promise<unknown>> = {
          callback: () => request(app).get(`/api/packages/${p.token}`).query(query).expect(200),
          'webhook-first': () => deliver(firstLink),
          'webhook-second': () => deliver(second.id),
          reconcile: () => reconcileSales(worker),
          jobs: () => runDueJobs(worker),
          recover: () => finishAbandonedRefunds(worker, { olderThanMs: 0 }),
        };
        for (const e of plan) await run[e]!();
        // In the end every report has come in and every job has run.
        for (const e of ['webhook-first', 'webhook-second', 'jobs', 'recover', 'callback', 'reconcile', 'jobs']) await run[e]!();

        expect((await detail(p.sale_id)).status).toBe('PAID');
        expect((await credits(p.sale_id)).map((c) => c.kind)).toEqual(['sold']);
        const ledger = await saleLedger(p.sale_id);
        const captures = ledger.filter((l) => l.kind === 'capture');
        const refunds = ledger.filter((l) => l.kind === 'refund');
        expect(captures.map((c) => c.amountPaise)).toEqual([150000, 150000]);
        expect(new Set(captures.map((c) => c.paymentId)).size).toBe(2);
        // The one that came second goes back, whole, once.
        expect(refunds.map((r) => [r.paymentId, r.amountPaise])).toEqual([[captures[1]!.paymentId, -150000]]);
        const atProvider = await Promise.all(captures.map((c) => payments.listPaymentRefunds(c.paymentId)));
        expect(atProvider.map((r) => r.map((x) => x.amountPaise))).toEqual([[], [150000]]);
        expect(refunds[0]!.refundId).toBe(atProvider[1]![0]!.id);
        const intents = await database.db.select().from(refundIntents).where(eq(refundIntents.packageSaleId, p.sale_id));
        expect(intents.map((i) => [i.status, (i.action as { kind: string }).kind])).toEqual([['DONE', 'package-stray-refund']]);
      }),
      { seed: propertySeed('second package payment'), numRuns: 12 },
    );
  });

  it('a second payment’s refund left halfway is finished by the reconciliation, once', async () => {
    const p = await purchase(await definePackage({ price: 1200 }));
    await request(app)
      .get(`/api/packages/${p.token}`)
      .query(await payAtCheckout(p.payment_link_url))
      .expect(200);
    const second = await payments.createPaymentLink({
      referenceId: saleLinkReference(p.sale_id, 'again'),
      amountPaise: 120000,
      description: 'the same package again',
      customer: { name: 'Meera', email: p.email, contact: '+919123456780' },
      callbackUrl: 'https://booking.example.in/my-package',
      expireBy: new Date(clock.now().getTime() + 86_400_000),
    });
    await payments.pay(second.id);
    await deliverWebhooks(p.sale_id);
    // The provider cannot be reached: the job fails and leaves its intent open, nothing recorded.
    const down = { ...worker, payments: { ...payments, refundPayment: async () => Promise.reject(new Error('provider unreachable')) } };
    await expect(runDueJobs(down)).rejects.toThrow('provider unreachable');
    const open = await database.db.select().from(refundIntents).where(eq(refundIntents.packageSaleId, p.sale_id));
    expect(open.map((i) => i.status)).toEqual(['OPEN']);
    expect((await saleLedger(p.sale_id)).filter((l) => l.kind === 'refund')).toEqual([]);
    // The reconciliation, a few minutes later.
    at('2026-11-23T09:35:00+05:30');
    expect(await finishAbandonedRefunds(worker)).toMatchObject({ done: 1 });
    expect(await finishAbandonedRefunds(worker)).toMatchObject({ done: 0 });
    expect(await runDueJobs(worker)).not.toContainEqual(expect.objectContaining({ name: 'payments.refund-stray', result: 'refunded' }));
    const refunds = (await saleLedger(p.sale_id)).filter((l) => l.kind === 'refund');
    expect(refunds.map((r) => r.amountPaise)).toEqual([-120000]);
    expect((await credits(p.sale_id)).map((c) => c.kind)).toEqual(['sold']);
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(p.sale_id)), eq(auditLog.action, 'package_sale.stray_refund')));
    expect(audit).toHaveLength(1);
    // The client is told, once; the unused sessions' refund later says its own amount only.
    await runDueJobs(worker);
    await runDueJobs(worker);
    const told = sent.filter((m) => m.to === p.email && m.subject.startsWith('Refund of a second payment'));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('a second payment of ₹1,200');
    await request(app).post(`/api/admin/package-sales/${p.sale_id}/refund`).set(owner).send({}).expect(200);
    await runDueJobs(worker);
    const unused = sent.filter((m) => m.to === p.email && m.subject.startsWith('Refund for your package'));
    expect(unused).toHaveLength(1);
    expect(unused[0]!.text).toContain('We have refunded ₹1,200 for the 4 sessions');
  });

  it('the client books with a credit by their private link: confirmed, no payment, one credit used', async () => {
    const p = await purchase(await definePackage());
    await request(app)
      .get(`/api/packages/${p.token}`)
      .query(await payAtCheckout(p.payment_link_url))
      .expect(200);
    const res = await request(app)
      .post(`/api/packages/${p.token}/book`)
      .send({ therapist_id: 2, booking_type: 'ONLINE', ...nextSlot(), session_type: 'individual' });
    expect([res.status, res.body.detail]).toEqual([200, undefined]);
    expect(res.body.manage_url).toContain('/manage-booking?token=');
    expect(res.body.package).toMatchObject({ sessions_used: 1, sessions_left: 3 });
    expect(await bookingRow(res.body.booking_id)).toMatchObject({ paymentStatus: 'COMPLETED', amountPaise: 0, clientEmail: p.email });
    const wrong = await request(app)
      .post(`/api/packages/${'B'.repeat(43)}/book`)
      .send({ therapist_id: 2, booking_type: 'ONLINE', ...nextSlot() });
    expect(wrong.status).toBe(404);
  });

  it('its unused sessions refunded through the provider: the refund in the ledger, the intent closed', async () => {
    const p = await purchase(await definePackage({ sessions_count: 4, price: 4000 }));
    await request(app)
      .get(`/api/packages/${p.token}`)
      .query(await payAtCheckout(p.payment_link_url))
      .expect(200);
    await book(fromPackage(p.sale_id)).expect(200);
    const res = await request(app).post(`/api/admin/package-sales/${p.sale_id}/refund`).set(owner).send({});
    expect([res.status, res.body.refund]).toEqual([200, { amount: 3000, sessions: 3, status: 'processed' }]);
    expect((await saleLedger(p.sale_id)).map((l) => [l.kind, l.provider, l.amountPaise])).toEqual([
      ['capture', 'sandbox', 400000],
      ['refund', 'sandbox', -300000],
    ]);
    const intents = await database.db.select().from(refundIntents).where(eq(refundIntents.packageSaleId, p.sale_id));
    expect(intents.map((i) => i.status)).toEqual(['DONE']);
    expect(await finishAbandonedRefunds(worker, { olderThanMs: 0 })).toMatchObject({ done: 0 });
  });
});

describe('a package refund left halfway', () => {
  it('is finished by the reconciliation: the provider asked again under the same key, the refund recorded once, the sessions refunded', async () => {
    const id = await definePackage({ sessions_count: 2, price: 2000 });
    const res = await request(app)
      .post('/api/packages/purchase')
      .send({ package_id: id, ...client(), request_key: randomUUID() })
      .expect(201);
    const linkId = new URL(res.body.payment_link_url).pathname.split('/').pop()!;
    await request(app)
      .get(`/api/packages/${res.body.token}`)
      .query(Object.fromEntries(new URL(await payments.pay(linkId)).searchParams))
      .expect(200);
    const [capture] = await saleLedger(res.body.sale_id);
    // The process stopped after phase 1: the intent written, the provider never asked.
    await insertSaleRefundIntent(database.db, {
      packageSaleId: res.body.sale_id,
      amountPaise: 200000,
      counterPaise: 0,
      parts: [
        { provider: 'sandbox', paymentId: capture!.paymentId, amountPaise: 200000, idempotencyKey: `pkg-refund-${res.body.sale_id}-${capture!.paymentId}` },
      ],
      reason: 'Unused package sessions refunded',
      requestedBy: `admin:${admins.superadmin.id}`,
      byAdminId: admins.superadmin.id,
      action: { kind: 'package-refund', adminId: admins.superadmin.id, sessions: 2 },
      createdAt: new Date(clock.now().getTime() - 120_000),
    });
    // Meanwhile no session can be used.
    expect((await book(fromPackage(res.body.sale_id))).status).toBe(409);
    expect(await finishAbandonedRefunds(worker)).toMatchObject({ done: 1 });
    expect(await finishAbandonedRefunds(worker)).toMatchObject({ done: 0 });
    expect((await saleLedger(res.body.sale_id)).map((l) => [l.kind, l.amountPaise])).toEqual([
      ['capture', 200000],
      ['refund', -200000],
    ]);
    expect(await detail(res.body.sale_id)).toMatchObject({ sessions_left: 0, sessions_refunded: 2, refunded: 2000 });
  });
});

describe('the report', () => {
  it('equals the ledgers: sold, credits used and left, expiring, deferred; and as a workbook', async () => {
    const res = await request(app).get('/api/admin/reports/packages').set(owner).query({ from: '2026-11-01', to: '2026-11-30' }).expect(200);
    const sales = await database.db.select().from(packageSales).where(eq(packageSales.status, 'PAID'));
    const all = await database.db.select().from(packageCredits);
    const sum = (kind: string) => all.filter((c) => c.kind === kind).reduce((n, c) => n + c.sessions, 0);
    expect(res.body.credits).toEqual({
      used: -sum('used') - sum('returned'),
      left: all.reduce((n, c) => n + c.sessions, 0),
      expired: -sum('expired'),
      refunded: -sum('refunded'),
    });
    expect(res.body.totals.sales).toBe(sales.filter((s) => s.soldAt! < new Date('2026-12-01T00:00:00+05:30')).length);
    const ledger = (await database.db.select().from(paymentsLedger)).filter((l) => l.packageSaleId !== null);
    const held = ledger.reduce((n, l) => n + l.amountPaise, 0);
    expect(res.body.deferred * 100).toBeLessThanOrEqual(held);
    await request(app).get('/api/admin/reports/packages').set(desk).expect(403);
    const xlsx = await request(app).get('/api/admin/reports/packages.xlsx').set(owner).expect(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
  });
});
