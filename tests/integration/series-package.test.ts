import { eq, inArray } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_MESSAGES as PM } from '../../shared/contract/packages.ts';
import { SERIES_MESSAGES as SM } from '../../shared/contract/series.ts';
import { bookings, packageCredits, paymentsLedger, series } from '../../shared/core/db/schema.ts';
import type { Config } from '../../shared/core/config.ts';
import { createLogger } from '../../shared/core/logger.ts';
import type { MailMessage, Mailer } from '../../shared/core/providers/mail/mail.provider.ts';
import { jitsiProvider } from '../../shared/core/providers/meetings/jitsi.provider.ts';
import { sendSeriesConfirmation } from '../../shared/core/services/notification.service.ts';
import { bearer, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { mondayDesk, seededWithAdmins } from '../support/desk.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';
import { configFor, inProcessPayments } from '../support/jobs.ts';

/**
 * A series paid from a package (issue 34: "how it is paid: ... or from a package"). Each session uses
 * one credit of the client's sale, in the transaction that writes the sessions, by the rule any booking
 * paid by credit follows (spendCredits): the sale must be the client's, paid, in date, with a credit for
 * every session, or nothing is written. A session cancelled with the policy's notice gets its credit
 * back; a late cancel or a no-show keeps it used.
 *
 * Monday 23 November 2026, 09:30 at the centre; Dr. Asha Mehta (1, online) works 10 to 17:00 every day.
 */
const clock = fixedClock(MONDAY_MORNING_IST);
let database: TestDatabase, admins: Admins, app: Express, config: Config;
let desk: Record<string, string>, boss: Record<string, string>;
let packageId = 0;

beforeAll(async () => {
  ({ database, admins } = await seededWithAdmins());
  config = configFor({ PUBLIC_BASE_URL: 'https://booking.example.in' });
  const { payments, jobs } = inProcessPayments(database, config, clock.now);
  app = testApp(database, { config, now: clock.now, payments, jobs });
  ({ desk, boss } = mondayDesk(clock, admins));
  const res = await request(app).post('/api/admin/packages').set(boss).send({ name: 'Six sessions', sessions_count: 6, price: 6000, validity_days: 365 });
  expect(res.status).toBe(201);
  packageId = res.body.package.id;
});
beforeEach(() => {
  ({ desk, boss } = mondayDesk(clock, admins));
});
afterAll(() => database.drop());

let n = 0;
const client = () => {
  n += 1;
  return { client_full_name: `Course Client ${n}`, client_email: `course${n}@example.com`, client_mobile: `98300${String(n).padStart(5, '0')}` };
};
/** A package sold at the desk to `who`; answers the sale's id. */
async function sell(who: ReturnType<typeof client>, as = desk): Promise<number> {
  const res = await request(app)
    .post('/api/admin/package-sales')
    .set(as)
    .send({ package_id: packageId, ...who, payment_method: 'UPI' });
  expect([res.status, res.body.detail]).toEqual([201, undefined]);
  return res.body.sale.id as number;
}
/** Each test its own hour, so the series never meet. */
let hour = 0;
const HOURS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
const fromPackage = (who: ReturnType<typeof client>, saleId: number, over: Record<string, unknown> = {}) => ({
  therapist_id: 1,
  booking_type: 'ONLINE',
  booking_time_slot_start: HOURS[hour++ % HOURS.length],
  first_date: '2026-11-24',
  interval_weeks: 1,
  count: 4,
  payment: 'PACKAGE',
  package_sale_id: saleId,
  ...who,
  ...over,
});
const book = (body: object) => request(app).post('/api/admin/series').set(desk).send(body);
/** The sale as the panel shows it, asked with a token of the clock's time. */
const sale = async (id: number) =>
  (
    await request(app)
      .get(`/api/admin/package-sales/${id}`)
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .expect(200)
  ).body;
const creditsOf = (saleId: number) => database.db.select().from(packageCredits).where(eq(packageCredits.saleId, saleId)).orderBy(packageCredits.id);
const rowsOf = (email: string) => database.db.select().from(bookings).where(eq(bookings.clientEmail, email)).orderBy(bookings.bookingDate);

describe('a series paid from a package', () => {
  it('uses one credit per session with the sessions: confirmed, no fee and no ledger row of their own; the series names its sale', async () => {
    const who = client();
    const saleId = await sell(who);
    const res = await book(fromPackage(who, saleId));
    expect([res.status, res.body.detail]).toEqual([201, undefined]);
    const rows = await rowsOf(who.client_email);
    expect(rows.map((r) => [r.paymentStatus, r.amountPaise, r.seriesId])).toEqual(rows.map(() => ['COMPLETED', 0, res.body.series_id]));
    const used = (await creditsOf(saleId)).filter((c) => c.kind === 'used');
    expect(used.map((c) => [c.sessions, c.bookingId]).sort()).toEqual(rows.map((r) => [-1, r.id]).sort());
    expect(
      await database.db
        .select()
        .from(paymentsLedger)
        .where(
          inArray(
            paymentsLedger.bookingId,
            rows.map((r) => r.id),
          ),
        ),
    ).toEqual([]);
    expect(await sale(saleId)).toMatchObject({ sessions_total: 6, sessions_used: 4, sessions_left: 2 });
    const detail = (await request(app).get(`/api/admin/series/${res.body.series_id}`).set(desk).expect(200)).body;
    expect([detail.payment, detail.package_sale_id]).toEqual(['PACKAGE', saleId]);
    // The series' one e-mail says so, and asks for no money.
    const sent: MailMessage[] = [];
    const mailer: Mailer = { kind: 'outbox', send: async (m) => (sent.push(m), { messageId: 'm1' }), close: () => {} };
    const deps = {
      db: database.db,
      mailer,
      meetings: jitsiProvider({ domain: 'meet.jit.si' }),
      config,
      logger: createLogger({ level: 'silent' }),
      now: clock.now,
    };
    expect(await sendSeriesConfirmation(deps, res.body.series_id, 'client')).toBe('sent');
    expect(sent[0]!.text).toContain('Paid from your package: each of the 4 sessions uses one session of it, and nothing more is due.');
    expect(sent[0]!.text).not.toContain('Session fee');
  });

  it('refuses with 409 when the sale has fewer credits left than sessions, and writes nothing', async () => {
    const who = client();
    const saleId = await sell(who);
    await book(fromPackage(who, saleId, { count: 5 })).expect(201);
    const res = await book(fromPackage(who, saleId, { count: 2, first_date: '2026-11-25' }));
    expect([res.status, res.body.detail]).toEqual([409, PM.tooFewCredits(saleId, 1, 2)]);
    expect(await rowsOf(who.client_email)).toHaveLength(5);
    expect((await creditsOf(saleId)).filter((c) => c.kind === 'used')).toHaveLength(5);
  });

  it("refuses another client's sale (400 on package_sale_id), an unpaid one and an expired one (409); nothing is written", async () => {
    const owner = client();
    const saleId = await sell(owner);
    const other = client();
    const res = await book(fromPackage(other, saleId));
    expect([res.status, res.body.detail, res.body.errors]).toEqual([400, PM.otherClient(saleId), { package_sale_id: PM.otherClient(saleId) }]);

    const buyer = client();
    const bought = await request(app)
      .post('/api/packages/purchase')
      .send({ package_id: packageId, ...buyer, request_key: crypto.randomUUID() });
    expect(bought.status).toBe(201);
    const unpaid = await book(fromPackage(buyer, bought.body.sale_id));
    expect([unpaid.status, unpaid.body.detail]).toEqual([409, PM.saleNotPaid(bought.body.sale_id)]);

    // Sold a year and more ago: its last day has passed.
    const late = client();
    clock.set('2025-10-01T10:00:00+05:30');
    const oldId = await sell(late, bearer(tokenFor(admins.admin, clock.now())));
    clock.set(MONDAY_MORNING_IST);
    const expiresOn = (await sale(oldId)).expires_on as string;
    const expired = await book(fromPackage(late, oldId));
    expect([expired.status, expired.body.detail]).toEqual([409, PM.saleExpired(oldId, expiresOn)]);

    for (const w of [other, buyer, late]) expect(await rowsOf(w.client_email)).toEqual([]);
    expect(
      await database.db
        .select()
        .from(series)
        .where(inArray(series.clientEmail, [other.client_email, buyer.client_email, late.client_email])),
    ).toEqual([]);
    expect((await creditsOf(saleId)).map((c) => c.kind)).toEqual(['sold']);
  });

  it('a series of sessions past the sale\u2019s last day is refused on count', async () => {
    const who = client();
    clock.set('2025-12-01T10:00:00+05:30');
    const saleId = await sell(who, bearer(tokenFor(admins.admin, clock.now())));
    clock.set(MONDAY_MORNING_IST);
    const expiresOn = (await sale(saleId)).expires_on as string;
    const res = await book(fromPackage(who, saleId, { count: 3 }));
    expect([res.status, res.body.errors]).toEqual([400, { count: PM.afterExpiry(expiresOn) }]);
  });

  it('the form: PACKAGE needs package_sale_id, takes no amount; package_sale_id is only for PACKAGE', async () => {
    const who = client();
    const saleId = await sell(who);
    const { package_sale_id: _, ...noSale } = fromPackage(who, saleId);
    expect((await book(noSale)).body.errors).toEqual({ package_sale_id: SM.saleRequired });
    expect((await book(fromPackage(who, saleId, { amount: 1500 }))).body.errors).toEqual({ amount: SM.noAmountWithPackage });
    expect((await book(fromPackage(who, saleId, { payment: 'PAID_NOW', payment_method: 'CASH' }))).body.errors).toEqual({
      package_sale_id: SM.saleOnlyWithPackage,
    });
  });

  it('cancelled with notice a session gets its credit back; a late cancel and a no-show keep it used', async () => {
    const who = client();
    const saleId = await sell(who);
    const res = await book(fromPackage(who, saleId, { count: 4 })).expect(201);
    const id = res.body.series_id as number;
    // With notice: the third session (8 December).
    await request(app).post(`/api/admin/series/${id}/cancel`).set(desk).send({ from_date: '2026-12-08', scope: 'this' }).expect(200);
    expect(await sale(saleId)).toMatchObject({ sessions_used: 3, sessions_left: 3 });
    // Late: the first (24 November), cancelled that morning.
    clock.set('2026-11-24T08:00:00+05:30');
    const early = bearer(tokenFor(admins.admin, clock.now()));
    await request(app).post(`/api/admin/series/${id}/cancel`).set(early).send({ from_date: '2026-11-24', scope: 'this' }).expect(200);
    expect(await sale(saleId)).toMatchObject({ sessions_used: 3, sessions_left: 3 });
    // A no-show: the second (1 December), marked after it.
    clock.set('2026-12-01T19:00:00+05:30');
    const second = (await rowsOf(who.client_email)).find((r) => r.bookingDate === '2026-12-01')!;
    await request(app)
      .post(`/api/admin/bookings/${second.id}/attendance`)
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .send({ status: 'NO_SHOW' })
      .expect(200);
    expect(await sale(saleId)).toMatchObject({ sessions_used: 3, sessions_left: 3 });
    const kinds = (await creditsOf(saleId)).map((c) => c.kind);
    expect(kinds.filter((k) => k === 'returned')).toHaveLength(1);
  });
});
