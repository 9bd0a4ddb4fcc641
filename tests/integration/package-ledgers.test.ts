import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Express } from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import { bookings, packageCredits, packageSales, paymentsLedger, series } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { manageTokenFor } from '../../shared/core/services/booking-token.ts';
import { deferredPaise } from '../../shared/domain/packages.ts';
import { addDays, centreNow } from '../../shared/domain/time.ts';
import { bearer, createAdmins, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { configFor, inProcessPayments } from '../support/jobs.ts';
import { propertySeed } from '../support/property-seed.ts';

/**
 * The package credits ledger and the payments ledger agree (issue 34, "Done when"): a random sequence
 * of what the desk, the owner and the client can do with packages, each sent whatever state things are
 * in: a package sold at the desk or bought online, a session booked from a sale (with the policy's
 * notice, or inside it), an admin's cancel, the client's cancel through Manage booking, a no-show, a
 * refund of the unused sessions, a series of sessions paid from a sale or paid now at the desk (each
 * session's own ledger row), a booking's refund (a paid session cancelled with its money given back).
 * The model is built from the answers only, and after every step:
 * - no sale's credits are ever below zero;
 * - each sale's sessions left = sold - used + returned - expired - refunded, from its credit rows, as
 *   the API says it and as the model counts it;
 * - the payments ledger's money for the sales = what they were sold for less what was refunded, and
 *   no booking paid from a package has a ledger row (a session paid by credit is not a second receipt),
 *   and each session paid now holds its fee less what was refunded of it.
 * After every run the reports equal the ledgers, over everything written so far: the packages report
 * (sold, credits used, left, expired and refunded, deferred money) the credit rows and the ledger's
 * package money; income's totals and its whole list (inventory) the whole ledger's, package money
 * included, each row once; the day's cash-up the day's ledger rows, package money apart as well.
 * Each run has days of its own (its clock moves four days on), so runs never share a slot; a series
 * runs weekly past them, on a therapist of its own, and dates another run took are skipped.
 */

const clock = fixedClock('2027-01-04T08:00:00+05:30');
let database: TestDatabase, admins: Admins, app: Express, config: Config, payments: SandboxPayments;
let packageId = 0;
const PRICE = 1000.01;
const SESSIONS = 3;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  config = configFor({ PUBLIC_BASE_URL: 'https://booking.example.in' });
  let jobs;
  ({ payments, jobs } = inProcessPayments(database, config, clock.now));
  admins = await createAdmins(database.db);
  app = testApp(database, { config, now: clock.now, payments, jobs });
  const res = await request(app)
    .post('/api/admin/packages')
    .set(bearer(tokenFor(admins.superadmin, clock.now())))
    .send({ name: 'Three sessions', sessions_count: SESSIONS, price: PRICE, validity_days: 365 });
  packageId = res.body.package.id;
});
afterAll(() => database?.drop());

type Step =
  | { kind: 'sell'; method: 'CASH' | 'UPI' }
  | { kind: 'buy-online'; webhookToo: boolean }
  | { kind: 'book'; sale: number; late: boolean }
  | { kind: 'cancel'; booking: number }
  | { kind: 'client-cancel'; booking: number }
  | { kind: 'no-show'; booking: number }
  | { kind: 'refund'; sale: number }
  | { kind: 'series'; sale: number; fromPackage: boolean; count: 2 | 3; offset: 2 | 3 };

const index = fc.nat({ max: 5 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constantFrom('CASH' as const, 'UPI' as const).map((method) => ({ kind: 'sell' as const, method })), weight: 2 },
  { arbitrary: fc.boolean().map((webhookToo) => ({ kind: 'buy-online' as const, webhookToo })), weight: 2 },
  { arbitrary: fc.tuple(index, fc.boolean()).map(([sale, late]) => ({ kind: 'book' as const, sale, late })), weight: 5 },
  { arbitrary: index.map((booking) => ({ kind: 'cancel' as const, booking })), weight: 2 },
  { arbitrary: index.map((booking) => ({ kind: 'client-cancel' as const, booking })), weight: 1 },
  { arbitrary: index.map((booking) => ({ kind: 'no-show' as const, booking })), weight: 2 },
  { arbitrary: index.map((sale) => ({ kind: 'refund' as const, sale })), weight: 2 },
  {
    arbitrary: fc
      .tuple(index, fc.boolean(), fc.constantFrom(2 as const, 3 as const), fc.constantFrom(2 as const, 3 as const))
      .map(([sale, fromPackage, count, offset]) => ({ kind: 'series' as const, sale, fromPackage, count, offset })),
    weight: 3,
  },
);
const steps = fc.array(step, { minLength: 3, maxLength: 12 });

/** A plan with each kind of step (indexes into the model's sales and sessions as they then stand). */
const EVERY_KIND: Step[] = [
  { kind: 'sell', method: 'CASH' },
  { kind: 'buy-online', webhookToo: true },
  { kind: 'book', sale: 0, late: true },
  { kind: 'book', sale: 0, late: false },
  { kind: 'series', sale: 1, fromPackage: true, count: 2, offset: 3 },
  { kind: 'series', sale: 0, fromPackage: false, count: 2, offset: 2 },
  { kind: 'no-show', booking: 0 },
  { kind: 'cancel', booking: 1 },
  { kind: 'cancel', booking: 4 },
  { kind: 'client-cancel', booking: 2 },
  { kind: 'refund', sale: 0 },
  { kind: 'refund', sale: 1 },
];

const paise = (r: number) => Math.round(r * 100);
const owner = () => bearer(tokenFor(admins.superadmin, clock.now()));
const desk = () => bearer(tokenFor(admins.admin, clock.now()));

/** What the answers say, per sale: what it was sold for, sessions used, returned and refunded, money refunded (paise). */
type SaleModel = { id: number; email: string; paidPaise: number; used: number; returned: number; refunded: number; refundedPaise: number };
/** A session: paid by a credit of `sale`, or (sale null) paid now at the desk, `paidPaise`. */
type BookingModel = { id: number; sale: SaleModel | null; late: boolean; done: boolean; paidPaise: number; refundedPaise: number };
type Model = { sales: SaleModel[]; bookings: BookingModel[] };

let run = 0;
const START = '2027-01-04';
/** Series are with Ms. Priya Nair (online, ₹1,200), at an hour of the run's own. */
const SERIES_THERAPIST = 2;
const SERIES_FEE = 120_000;
const SERIES_HOURS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];

async function perform(s: Step, m: Model, day: string, free: { late: string[]; ahead: { date: string; time: string }[] }): Promise<void> {
  switch (s.kind) {
    case 'sell': {
      const res = await request(app)
        .post('/api/admin/package-sales')
        .set(desk())
        .send({
          package_id: packageId,
          client_full_name: 'Prop Client',
          client_email: `prop${run}@example.com`,
          client_mobile: '9123456780',
          payment_method: s.method,
        });
      expect(res.status).toBe(201);
      m.sales.push({ id: res.body.sale.id, email: `prop${run}@example.com`, paidPaise: paise(PRICE), used: 0, returned: 0, refunded: 0, refundedPaise: 0 });
      return;
    }
    case 'buy-online': {
      const res = await request(app)
        .post('/api/packages/purchase')
        .send({
          package_id: packageId,
          client_full_name: 'Prop Online',
          client_email: `online${run}@example.com`,
          client_mobile: '9123456780',
          request_key: randomUUID(),
        });
      expect(res.status).toBe(201);
      const linkId = new URL(res.body.payment_link_url).pathname.split('/').pop()!;
      const query = Object.fromEntries(new URL(await payments.pay(linkId)).searchParams);
      await request(app).get(`/api/packages/${res.body.token}`).query(query).expect(200);
      // The client's return again (a reload): still one payment, one sale.
      if (s.webhookToo) await request(app).get(`/api/packages/${res.body.token}`).query(query).expect(200);
      m.sales.push({ id: res.body.sale_id, email: `online${run}@example.com`, paidPaise: paise(PRICE), used: 0, returned: 0, refunded: 0, refundedPaise: 0 });
      return;
    }
    case 'book': {
      const sale = m.sales[s.sale % Math.max(1, m.sales.length)];
      if (!sale) return;
      const slot = s.late ? (free.late.length ? { date: day, time: free.late.shift()! } : undefined) : free.ahead.shift();
      if (!slot) return;
      const res = await request(app)
        .post('/confirm-booking')
        .set(desk())
        .send({
          therapist_id: 1,
          booking_date: slot.date,
          booking_time_slot_start: slot.time,
          client_full_name: 'Prop Client',
          client_email: `prop${run}@example.com`,
          client_mobile: '9123456780',
          booking_type: 'ONLINE',
          location_id: 0,
          payment_transaction_id: randomUUID(),
          admin_confirmed: true,
          package_sale_id: sale.id,
        });
      const left = SESSIONS - sale.used + sale.returned - sale.refunded;
      if (left > 0) {
        expect([res.status, res.body.detail]).toEqual([200, undefined]);
        sale.used++;
        m.bookings.push({ id: res.body.booking_id, sale, late: s.late, done: false, paidPaise: 0, refundedPaise: 0 });
      } else {
        expect(res.status).toBe(409);
      }
      return;
    }
    case 'cancel':
    case 'client-cancel': {
      const b = m.bookings[s.booking % Math.max(1, m.bookings.length)];
      if (!b || (b.sale === null && s.kind === 'client-cancel')) return;
      const res =
        s.kind === 'cancel'
          ? b.sale === null
            ? // A session paid now: cancelled with its money given back, at the counter (a booking refund).
              await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(owner()).send({ refund: 'FULL' })
            : await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk()).send()
          : await request(app)
              .post(`/api/manage/${manageTokenFor(config.jwtSecret, b.id).token}/cancel`)
              .send();
      if (b.done || (s.kind === 'client-cancel' && b.late)) {
        expect(res.status).toBe(409);
        return;
      }
      expect([res.status, res.body.detail]).toEqual([200, undefined]);
      b.done = true;
      if (b.sale === null) {
        // Decided at the cancel, due at the counter; in the ledger once handed back.
        const handed = await request(app).post(`/api/admin/bookings/${b.id}/record-refund`).set(desk()).send({ method: 'CASH' });
        expect([handed.status, handed.body.detail]).toEqual([200, undefined]);
        b.refundedPaise = b.paidPaise;
      } else if (!b.late) b.sale.returned++;
      return;
    }
    case 'no-show': {
      // Only a session inside the notice is today, and so over by the evening.
      const today = m.bookings.filter((x) => x.late);
      const b = today[s.booking % Math.max(1, today.length)];
      if (!b) return;
      // After the session (today, by 18:00), then back: the rest of the run keeps its notice.
      const was = clock.now().toISOString();
      clock.set(`${day}T18:30:00+05:30`);
      const res = await request(app).post(`/api/admin/bookings/${b.id}/attendance`).set(desk()).send({ status: 'NO_SHOW' });
      clock.set(was);
      expect(res.status).toBe(b.done ? 409 : 200);
      return;
    }
    case 'series': {
      const sale = s.fromPackage ? (m.sales[s.sale % Math.max(1, m.sales.length)] ?? null) : null;
      if (s.fromPackage && !sale) return;
      const res = await request(app)
        .post('/api/admin/series')
        .set(desk())
        .send({
          therapist_id: SERIES_THERAPIST,
          booking_type: 'ONLINE',
          booking_time_slot_start: SERIES_HOURS[run % SERIES_HOURS.length],
          first_date: addDays(day, s.offset),
          interval_weeks: 1,
          count: s.count,
          client_full_name: 'Prop Client',
          client_email: sale ? sale.email : `prop${run}@example.com`,
          client_mobile: '9123456780',
          on_conflict: 'skip',
          ...(sale ? { payment: 'PACKAGE', package_sale_id: sale.id } : { payment: 'PAID_NOW', payment_method: 'CASH' }),
        });
      const left = sale ? SESSIONS - sale.used + sale.returned - sale.refunded : Number.POSITIVE_INFINITY;
      if (res.status === 409) {
        // Every date taken (by this run or another), or (from a package) fewer credits than the dates left.
        if (!res.body.conflicts) expect([left < s.count, res.body.detail]).toEqual([true, expect.stringMatching(/^Package sale \d+ has /)]);
        return;
      }
      expect([res.status, res.body.detail]).toEqual([201, undefined]);
      const made: { id: number }[] = res.body.bookings;
      expect(made.length).toBeLessThanOrEqual(Math.min(s.count, left));
      for (const b of made) m.bookings.push({ id: b.id, sale, late: false, done: false, paidPaise: sale ? 0 : SERIES_FEE, refundedPaise: 0 });
      if (sale) sale.used += made.length;
      return;
    }
    case 'refund': {
      const sale = m.sales[s.sale % Math.max(1, m.sales.length)];
      if (!sale) return;
      const res = await request(app).post(`/api/admin/package-sales/${sale.id}/refund`).set(owner()).send({ method: 'CASH' });
      const left = SESSIONS - sale.used + sale.returned - sale.refunded;
      if (left > 0 && sale.refunded === 0) {
        expect([res.status, res.body.detail]).toEqual([200, undefined]);
        expect(res.body.refund.sessions).toBe(left);
        expect(paise(res.body.refund.amount)).toBe(Math.floor((paise(PRICE) * left) / SESSIONS));
        sale.refunded += left;
        sale.refundedPaise += paise(res.body.refund.amount);
      } else {
        expect(res.status).toBe(409);
      }
      return;
    }
  }
}

async function checkLedgers(m: Model): Promise<void> {
  if (m.sales.length === 0) return;
  const ids = m.sales.map((s) => s.id);
  const rows = await database.db.select().from(packageCredits).where(inArray(packageCredits.saleId, ids));
  for (const s of m.sales) {
    const mine = rows.filter((r) => r.saleId === s.id);
    const sum = (kind: string) => mine.filter((r) => r.kind === kind).reduce((n, r) => n + Math.abs(r.sessions), 0);
    const left = mine.reduce((n, r) => n + r.sessions, 0);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBe(sum('sold') - sum('used') + sum('returned') - sum('expired') - sum('refunded'));
    expect({ sold: sum('sold'), used: sum('used'), returned: sum('returned'), refunded: sum('refunded') }).toEqual({
      sold: SESSIONS,
      used: s.used,
      returned: s.returned,
      refunded: s.refunded,
    });
    const api = (await request(app).get(`/api/admin/package-sales/${s.id}`).set(desk()).expect(200)).body;
    expect([api.sessions_left, api.sessions_used]).toEqual([left, s.used - s.returned]);
  }
  const ledger = await database.db.select().from(paymentsLedger).where(inArray(paymentsLedger.packageSaleId, ids));
  expect(ledger.reduce((n, l) => n + l.amountPaise, 0)).toBe(m.sales.reduce((n, s) => n + s.paidPaise - s.refundedPaise, 0));
  if (m.bookings.length) {
    const booked = await database.db
      .select()
      .from(paymentsLedger)
      .where(
        inArray(
          paymentsLedger.bookingId,
          m.bookings.map((b) => b.id),
        ),
      );
    for (const b of m.bookings) {
      const mine = booked.filter((l) => l.bookingId === b.id);
      // Paid by a credit: no money of its own. Paid now: its fee, less what was given back.
      expect(mine.reduce((n, l) => n + l.amountPaise, 0)).toBe(b.paidPaise - b.refundedPaise);
      if (b.sale) expect(mine).toEqual([]);
    }
    const fromPackage = m.bookings.filter((b) => b.sale).map((b) => b.id);
    if (fromPackage.length) {
      const amounts = await database.db.select({ a: bookings.amountPaise }).from(bookings).where(inArray(bookings.id, fromPackage));
      expect(amounts.every((r) => r.a === 0)).toBe(true);
    }
  }
}

/**
 * The reports equal the ledgers, over everything written so far. The packages report: sales paid and
 * their money (the ledger's captures of sales), credits used, left, expired and refunded (the credit
 * rows of paid sales), and the money for sessions not yet given (each sale's net ledger money for its
 * credits left). Income (and inventory, the same ledger): its totals are the whole ledger's, package
 * money included. The cash-up of `day`: its total and its package movements are that day's ledger rows.
 */
async function checkReports(day: string): Promise<void> {
  const ledger = await database.db.select().from(paymentsLedger);
  const credits = await database.db.select().from(packageCredits);
  const paid = await database.db.select().from(packageSales).where(eq(packageSales.status, 'PAID'));
  const sum = (rows: { amountPaise: number }[]) => rows.reduce((n, r) => n + r.amountPaise, 0);
  const ofSales = ledger.filter((l) => l.packageSaleId !== null);
  const creditsOf = (id: number, kind?: string) =>
    credits.filter((c) => c.saleId === id && (kind === undefined || c.kind === kind)).reduce((n, c) => n + c.sessions, 0);
  // The credits ledger: for every sale, sold = used (net of returns) + expired + refunded + left.
  for (const sale of paid) {
    const sold = creditsOf(sale.id, 'sold');
    const used = -creditsOf(sale.id, 'used') - creditsOf(sale.id, 'returned');
    expect(sold).toBe(used - creditsOf(sale.id, 'expired') - creditsOf(sale.id, 'refunded') + creditsOf(sale.id));
  }
  const report = (await request(app).get('/api/admin/reports/packages').query({ from: '2026-01-01', to: '2029-12-31' }).set(owner()).expect(200)).body;
  expect(report.totals.sales).toBe(paid.length);
  expect(paise(report.totals.amount)).toBe(sum(ofSales.filter((l) => l.kind === 'capture')));
  expect(report.totals.sessions_sold).toBe(paid.reduce((n, p) => n + creditsOf(p.id, 'sold'), 0));
  expect(report.credits).toEqual({
    used: paid.reduce((n, p) => n - creditsOf(p.id, 'used') - creditsOf(p.id, 'returned'), 0),
    left: paid.reduce((n, p) => n + creditsOf(p.id), 0),
    expired: paid.reduce((n, p) => n - creditsOf(p.id, 'expired'), 0),
    refunded: paid.reduce((n, p) => n - creditsOf(p.id, 'refunded'), 0),
  });
  const deferred = paid.reduce(
    (n, p) =>
      n +
      deferredPaise({
        pricePaise: p.pricePaise,
        sessionsTotal: p.sessionsTotal,
        left: creditsOf(p.id),
        netPaise: sum(ofSales.filter((l) => l.packageSaleId === p.id)),
      }),
    0,
  );
  expect(paise(report.deferred)).toBe(deferred);

  const income = (await request(app).get('/api/admin/income').query({ page: 1, page_size: 1 }).set(owner()).expect(200)).body;
  expect([paise(income.total_collected), paise(income.total_refunded), paise(income.total_amount)]).toEqual([
    sum(ledger.filter((l) => l.kind === 'capture')),
    -sum(ledger.filter((l) => l.kind === 'refund')),
    sum(ledger),
  ]);

  // The whole list (income and inventory): every ledger row once, package sales' money among them.
  expect(income.total).toBe(ledger.length);
  const listed: { amount: number; package_sale_id: number | null; booking_id: number | null }[] = (
    await request(app).get('/api/admin/reports/inventory').set(owner()).expect(200)
  ).body.payments;
  expect(listed).toHaveLength(ledger.length);
  expect(listed.reduce((n, p) => n + paise(p.amount), 0)).toBe(sum(ledger));
  expect(listed.filter((p) => p.package_sale_id !== null).reduce((n, p) => n + paise(p.amount), 0)).toBe(sum(ofSales));
  expect(listed.every((p) => (p.booking_id === null) !== (p.package_sale_id === null))).toBe(true);

  const cashUp = (await request(app).get('/api/admin/reports/cash-up').query({ date: day }).set(desk()).expect(200)).body;
  const ofDay = ledger.filter((l) => centreNow(l.occurredAt).date === day);
  expect(paise(cashUp.total.net)).toBe(sum(ofDay));
  const packageMoves = cashUp.movements.filter((mv: { package_sale_id: number | null }) => mv.package_sale_id !== null);
  expect(packageMoves.reduce((n: number, mv: { amount: number }) => n + paise(mv.amount), 0)).toBe(sum(ofDay.filter((l) => l.packageSaleId !== null)));
}

describe('packages: the credits and money ledgers under any sequence', () => {
  it('never negative, sessions left = sold - used + returned - expired - refunded, money = sales - refunds; the reports equal the ledgers', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const day = addDays(START, 4 * run++);
        clock.set(`${day}T08:00:00+05:30`);
        const hours = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
        const free = {
          late: ['14:00', '15:00', '16:00', '17:00'],
          ahead: [addDays(day, 2), addDays(day, 3)].flatMap((date) => hours.map((time) => ({ date, time }))),
        };
        const m: Model = { sales: [], bookings: [] };
        for (const s of plan) {
          await perform(s, m, day, free);
          await checkLedgers(m);
        }
        await checkReports(day);
      }),
      // The example first: every kind of step at least once, whatever the seed.
      { seed: propertySeed('package ledgers'), numRuns: 30, examples: [[EVERY_KIND]] },
    );
    // The runs went through every kind of credit movement and both kinds of refund, not only sales.
    const kinds = new Set((await database.db.select({ kind: packageCredits.kind }).from(packageCredits)).map((c) => c.kind));
    expect([...kinds].sort()).toEqual(['refunded', 'returned', 'sold', 'used']);
    const refunds = await database.db.select({ provider: paymentsLedger.provider }).from(paymentsLedger).where(eq(paymentsLedger.kind, 'refund'));
    expect(new Set(refunds.map((r) => r.provider))).toEqual(new Set(['counter', 'sandbox']));
    const noShows = await database.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.attendance, 'NO_SHOW'));
    expect(noShows.length).toBeGreaterThan(0);
    // Series paid both ways, and a session's own money refunded.
    expect(new Set((await database.db.select({ s: series.settlement }).from(series)).map((r) => r.s))).toEqual(new Set(['PACKAGE', 'PAID_NOW']));
    const bookingRefunds = await database.db
      .select()
      .from(paymentsLedger)
      .where(and(eq(paymentsLedger.kind, 'refund'), isNotNull(paymentsLedger.bookingId)));
    expect(bookingRefunds.length).toBeGreaterThan(0);
  });
});
