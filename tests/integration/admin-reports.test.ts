import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { bookings, reportDaily, reportDailyTherapist } from '../../shared/core/db/schema.ts';
import { recordCapture, recordRefund } from '../../shared/core/repositories/ledger.repository.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { aggregateDay, aggregatePreviousDay, dayToAggregate, incomeReport } from '../../shared/core/services/report.service.ts';
import { bearer, createAdmins, insertBooking, tokenFor, type Admins } from '../support/admin.ts';
import { binary, fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';
import { EOD_WORKBOOK_HEADER } from '../support/reports.ts';

let database: TestDatabase;
let admins: Admins;
let app: ReturnType<typeof testApp>;
const clock = fixedClock(MONDAY_MORNING_IST); // today is 2026-11-23 at the centre
let boss: Record<string, string>;
const ids: Record<string, number> = {};

/** Money is what the ledger says: a capture of the booking's price, or of `paise`. */
async function paid(key: string, method: 'UPI' | 'CASH' = 'UPI', paise?: number): Promise<void> {
  const [b] = await database.db.select().from(bookings).where(eq(bookings.id, ids[key]!));
  await recordCapture(database.db, {
    bookingId: b!.id,
    provider: method === 'CASH' ? 'counter' : 'razorpay',
    paymentId: `pay_${key}`,
    amountPaise: paise ?? b!.amountPaise,
    method,
    occurredAt: new Date(`${b!.bookingDate}T03:00:00Z`),
  });
}
async function refunded(key: string, paise: number, reason: string): Promise<void> {
  await recordRefund(database.db, {
    bookingId: ids[key]!,
    provider: 'razorpay',
    paymentId: `pay_${key}`,
    refundId: `rfnd_${key}`,
    amountPaise: paise,
    reason,
    occurredAt: clock.now(),
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  app = testApp(database, { now: clock.now });
  boss = bearer(tokenFor(admins.superadmin, clock.now()));
  const add = async (key: string, v: Parameters<typeof insertBooking>[1]) => (ids[key] = (await insertBooking(database.db, v)).id);
  // 2026-11-10 (a past day): 7 bookings, 3 completed, 2 cancelled, 1 failed, 1 pending. Money: a, b and f
  // paid (₹4,800); c paid ₹1,500 and was cancelled with a full refund, so it adds nothing but its refund.
  await add('a', {
    therapistId: 1,
    bookingDate: '2026-11-10',
    bookingTimeSlotStart: '10:00',
    amountPaise: 150_000,
    clientFullName: 'Aarav Shah',
    clientMobile: '9000000001',
    paymentTransactionId: 'txn-a',
  });
  await add('b', { therapistId: 1, bookingDate: '2026-11-10', bookingTimeSlotStart: '11:00', amountPaise: 150_000 });
  await add('c', { therapistId: 1, bookingDate: '2026-11-10', bookingTimeSlotStart: '12:00', amountPaise: 150_000, cancelled: true });
  await add('d', { therapistId: 1, bookingDate: '2026-11-10', bookingTimeSlotStart: '14:00', amountPaise: 150_000, paymentStatus: 'FAILED' });
  await add('e', {
    therapistId: 5,
    bookingDate: '2026-11-10',
    bookingTimeSlotStart: '10:00',
    bookingType: 'OFFLINE',
    locationId: 1,
    amountPaise: 180_000,
    paymentStatus: 'PENDING',
  });
  await add('f', { therapistId: 5, bookingDate: '2026-11-10', bookingTimeSlotStart: '11:00', bookingType: 'OFFLINE', locationId: 1, amountPaise: 180_000 });
  await add('g', {
    therapistId: 5,
    bookingDate: '2026-11-10',
    bookingTimeSlotStart: '12:00',
    bookingType: 'OFFLINE',
    locationId: 1,
    amountPaise: 180_000,
    paymentStatus: 'CANCELLED',
  });
  // An admin block is not a booking.
  await add('block', {
    therapistId: 1,
    bookingDate: '2026-11-10',
    bookingTimeSlotStart: '15:00',
    bookingType: 'ADMIN_BLOCK',
    paymentStatus: 'BLOCKED',
    amountPaise: 0,
    clientFullName: '',
  });
  // Today: 2 bookings, 1 completed, ₹1,200.
  await add('h', { therapistId: 2, bookingDate: '2026-11-23', bookingTimeSlotStart: '15:00', amountPaise: 120_000 });
  await add('i', { therapistId: 2, bookingDate: '2026-11-23', bookingTimeSlotStart: '16:00', amountPaise: 120_000, paymentStatus: 'INITIATED' });
  // Later this month (j partly refunded: ₹500 of ₹1,500 back), and the months either side.
  await add('j', { therapistId: 1, bookingDate: '2026-11-25', bookingTimeSlotStart: '10:00', amountPaise: 150_000 });
  await add('k', {
    therapistId: 5,
    bookingDate: '2026-11-25',
    bookingTimeSlotStart: '10:00',
    bookingType: 'OFFLINE',
    locationId: 1,
    amountPaise: 180_000,
    paymentStatus: 'PENDING',
  });
  await add('l', { therapistId: 1, bookingDate: '2026-10-31', bookingTimeSlotStart: '10:00', amountPaise: 150_000 });
  await add('m', { therapistId: 1, bookingDate: '2026-12-01', bookingTimeSlotStart: '10:00', amountPaise: 150_050 });
  for (const key of ['a', 'b', 'c', 'h', 'j', 'l', 'm']) await paid(key);
  await paid('f', 'CASH');
  await refunded('c', 150_000, 'Cancelled by the centre');
  await refunded('j', 50_000, 'Goodwill');
  // The desk marked two of Asha's past sessions: a attended, b a no-show.
  await database.db.update(bookings).set({ attendance: 'ATTENDED' }).where(eq(bookings.id, ids.a!));
  await database.db.update(bookings).set({ attendance: 'NO_SHOW' }).where(eq(bookings.id, ids.b!));
});
afterAll(async () => {
  await database.drop();
});

const EOD_NOV_10 = {
  report_date: '2026-11-10',
  total_bookings_today: 7,
  completed_bookings_today: 3,
  cancelled_bookings_today: 2,
  // a, b, e (to pay at the centre) and f will or did take place; no hold is left on a past day.
  booked_sessions_today: 4,
  unpaid_holds_today: 0,
  total_income_today: 4800,
  total_refunded_today: 1500,
};
const MONTHLY_NOV = {
  year: 2026,
  month: 11,
  therapist_performance: [
    {
      therapist_id: 1,
      therapist_name: 'Dr. Asha Mehta',
      total_sessions: 5,
      completed_sessions: 3,
      missed_or_cancelled_sessions: 2,
      total_income: 4000,
      total_refunded: 2000,
      attended_sessions: 1,
      no_show_sessions: 1,
    },
    {
      therapist_id: 2,
      therapist_name: 'Ms. Priya Nair',
      total_sessions: 2,
      completed_sessions: 1,
      missed_or_cancelled_sessions: 0,
      total_income: 1200,
      total_refunded: 0,
      attended_sessions: 0,
      no_show_sessions: 0,
    },
    {
      therapist_id: 5,
      therapist_name: 'Dr. Rohan Kapoor',
      total_sessions: 4,
      completed_sessions: 1,
      missed_or_cancelled_sessions: 1,
      total_income: 1800,
      total_refunded: 0,
      attended_sessions: 0,
      no_show_sessions: 0,
    },
  ],
};

describe('income and inventory', () => {
  it('lists the ledger, newest booking date first, each payment before its refund, with net and gross totals', async () => {
    for (const path of ['/api/admin/income', '/api/admin/reports/inventory']) {
      const res = await request(app).get(path).set(boss).expect(200);
      expect(res.body).toMatchObject({ total_amount: 10000.5, total_collected: 12000.5, total_refunded: 2000 });
      const list = res.body.payments as { booking_date: string; booking_id: number; kind: string; amount: number }[];
      expect(list.map((p) => [p.booking_date, p.kind, p.amount])).toEqual([
        ['2026-12-01', 'PAYMENT', 1500.5],
        ['2026-11-25', 'PAYMENT', 1500],
        ['2026-11-25', 'REFUND', -500],
        ['2026-11-23', 'PAYMENT', 1200],
        ['2026-11-10', 'PAYMENT', 1500], // c, 12:00
        ['2026-11-10', 'REFUND', -1500],
        ['2026-11-10', 'PAYMENT', 1800], // f, 11:00, booked after b
        ['2026-11-10', 'PAYMENT', 1500],
        ['2026-11-10', 'PAYMENT', 1500], // a, 10:00
        ['2026-10-31', 'PAYMENT', 1500],
      ]);
      expect(list.reduce((s, p) => s + p.amount, 0)).toBeCloseTo(10000.5, 2);
      expect(list.find((p) => p.booking_id === ids.a)).toEqual({
        amount: 1500,
        payment_transaction_id: 'txn-a',
        client_name: 'Aarav Shah',
        client_phone: '9000000001',
        booking_date: '2026-11-10',
        booking_id: ids.a,
        package_sale_id: null,
        kind: 'PAYMENT',
        method: 'UPI',
        provider_reference: 'pay_a',
        recorded_at: '2026-11-10T03:00:00.000Z',
        reason: null,
      });
      expect(list.find((p) => p.booking_id === ids.c && p.kind === 'REFUND')).toMatchObject({
        amount: -1500,
        method: 'OTHER',
        provider_reference: 'rfnd_c',
        reason: 'Cancelled by the centre',
      });
      expect(list.find((p) => p.booking_id === ids.f)).toMatchObject({ kind: 'PAYMENT', method: 'CASH', provider_reference: 'pay_f' });
      // Client names and phones: no cache may keep it.
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual(await incomeReport(database.db));
    }
  });

  it('sends a list of many chunks, and an empty one, as whole JSON; an empty inventory has no workbook', async () => {
    const big = await createTestDatabase();
    try {
      await seedDemoData(big.db);
      const bigApp = testApp(big, { now: clock.now });
      const admin = await createAdmins(big.db);
      const auth = bearer(tokenFor(admin.superadmin, clock.now()));
      const empty = await request(bigApp).get('/api/admin/income').set(auth).expect(200);
      expect(empty.text).toBe('{"total_amount":0,"total_collected":0,"total_refunded":0,"payments":[]}');
      expect((await request(bigApp).get('/api/admin/reports/inventory.xlsx').set(auth).expect(404)).body).toEqual({ detail: 'No data to export.' });
      // 2,000 payments, names with quotes and non-ASCII letters: about 600 KB, several 64 KB chunks.
      await big.db.execute(sql`
        with b as (
          insert into bookings (therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, client_full_name,
                                client_email, client_mobile, payment_status, payment_transaction_id, amount_paise)
          select 1, 1, date '2025-01-01' + (n / 12), make_time(8 + n % 12, 0, 0), 'ONLINE', 'Client "' || n || '" Ānanya',
                 'c' || n || '@example.com', (9000000000 + n)::text, 'COMPLETED', 'txn-' || n, 100000 + n
          from generate_series(0, 1999) n
          returning id, amount_paise, payment_transaction_id)
        insert into payments_ledger (booking_id, kind, provider, payment_id, amount_paise, method, occurred_at)
        select id, 'capture', 'razorpay', 'pay_' || payment_transaction_id, amount_paise, 'CARD', timestamptz '2025-01-01 10:00+05:30' from b`);
      const res = await request(bigApp).get('/api/admin/reports/inventory').set(auth).expect(200);
      expect(res.text.length).toBeGreaterThan(3 * 64 * 1024);
      const expected = await incomeReport(big.db);
      expect(res.body).toEqual(expected);
      expect(res.body.payments).toHaveLength(2000);
      expect(res.body.total_amount).toBe((2000 * 100000 + (1999 * 2000) / 2) / 100);
      expect(res.body.payments[0]).toMatchObject({
        amount: 1000 + 1999 / 100,
        payment_transaction_id: 'txn-1999',
        client_name: 'Client "1999" Ānanya',
        client_phone: '9000001999',
        booking_date: '2025-06-16',
        kind: 'PAYMENT',
        method: 'CARD',
      });
    } finally {
      await big.drop();
    }
  });
});

describe('the reports add up to the ledger', () => {
  it("every day's end-of-day income, every month's therapist income and the income total are the ledger's sum", async () => {
    const ledger = await database.db.execute<{ net: number }>(sql`select sum(amount_paise)::int8 as net from payments_ledger`);
    const income = (await request(app).get('/api/admin/income').set(boss).expect(200)).body;
    expect(Math.round(income.total_amount * 100)).toBe(ledger.rows[0]!.net);
    const days = await database.db.execute<{ d: string }>(sql`select distinct booking_date::text as d from bookings order by 1`);
    let eodSum = 0;
    for (const { d } of days.rows)
      eodSum += Math.round((await request(app).get(`/api/admin/reports/eod?report_date=${d}`).set(boss).expect(200)).body.total_income_today * 100);
    expect(eodSum).toBe(ledger.rows[0]!.net);
    let monthlySum = 0;
    for (const month of [10, 11, 12]) {
      const m = (await request(app).get(`/api/admin/reports/therapist-monthly?year=2026&month=${month}`).set(boss).expect(200)).body;
      for (const t of m.therapist_performance) monthlySum += Math.round(t.total_income * 100);
    }
    expect(monthlySum).toBe(ledger.rows[0]!.net);
  });
});

describe('end of day', () => {
  it('adds up by hand for a past day, blocks excluded', async () => {
    const res = await request(app).get('/api/admin/reports/eod?report_date=2026-11-10').set(boss).expect(200);
    expect(res.body).toMatchObject(EOD_NOV_10);
    expect(res.body.details).toHaveLength(7);
    expect(res.body.details.map((d: { booking_id: number }) => d.booking_id)).not.toContain(ids.block);
    expect(res.body.details.find((d: { booking_id: number }) => d.booking_id === ids.c)).toEqual({
      booking_id: ids.c,
      client_name: 'Test Client',
      therapist_id: 1,
      therapist_name: 'Dr. Asha Mehta',
      service_id: 1,
      payment_status: 'COMPLETED',
      cancelled: true,
      amount: 1500,
      amount_paid: 1500,
      amount_refunded: 1500,
      session_time: '12:00',
      payment_methods: ['ONLINE'],
      attendance: null,
    });
    expect(res.body.details.find((d: { booking_id: number }) => d.booking_id === ids.f)).toMatchObject({
      amount: 1800,
      amount_paid: 1800,
      amount_refunded: 0,
      payment_methods: ['CASH'],
    });
    expect(res.body.details.find((d: { booking_id: number }) => d.booking_id === ids.a)).toMatchObject({ session_time: '10:00', attendance: 'ATTENDED' });
    expect(res.body.details.find((d: { booking_id: number }) => d.booking_id === ids.e)).toMatchObject({ payment_methods: [], attendance: null });
  });

  it('defaults to today at the centre, and counts the unpaid hold apart from the booked session', async () => {
    const res = await request(app).get('/api/admin/reports/eod').set(boss).expect(200);
    expect(res.body).toMatchObject({
      report_date: '2026-11-23',
      total_bookings_today: 2,
      completed_bookings_today: 1,
      cancelled_bookings_today: 0,
      booked_sessions_today: 1,
      unpaid_holds_today: 1,
      total_income_today: 1200,
      total_refunded_today: 0,
    });
  });
});

describe('therapist monthly', () => {
  it('adds up by hand, months either side excluded', async () => {
    const res = await request(app).get('/api/admin/reports/therapist-monthly?year=2026&month=11').set(boss).expect(200);
    expect(res.body).toEqual(MONTHLY_NOV);
    const dec = await request(app).get('/api/admin/reports/therapist-monthly?year=2026&month=12').set(boss).expect(200);
    expect(dec.body.therapist_performance).toEqual([
      {
        therapist_id: 1,
        therapist_name: 'Dr. Asha Mehta',
        total_sessions: 1,
        completed_sessions: 1,
        missed_or_cancelled_sessions: 0,
        total_income: 1500.5,
        total_refunded: 0,
        attended_sessions: 0,
        no_show_sessions: 0,
      },
    ]);
    const current = await request(app).get('/api/admin/reports/therapist-monthly').set(boss).expect(200);
    expect(current.body).toEqual(MONTHLY_NOV);
  });

  it('refuses years outside 2020..current+5 and months outside 1..12 with 400', async () => {
    for (const q of [
      'year=2019&month=1',
      'year=2032&month=1',
      'year=20x6&month=1',
      'year=2026&month=0',
      'year=2026&month=13',
      'year=2026&month=x',
      'year=2026&month=1&x=1',
    ]) {
      const res = await request(app).get(`/api/admin/reports/therapist-monthly?${q}`).set(boss).expect(400);
      expect(res.body.detail).toMatch(/year|month|Unknown/);
      await request(app).get(`/api/admin/reports/therapist-monthly.xlsx?${q}`).set(boss).expect(400);
    }
    await request(app).get('/api/admin/reports/therapist-monthly?year=2031&month=12').set(boss).expect(200);
    for (const q of ['report_date=2026-02-30', 'report_date=yesterday', 'report_date=2019-12-31', 'other=1']) {
      expect((await request(app).get(`/api/admin/reports/eod?${q}`).set(boss).expect(400)).body.detail).toBeTruthy();
      await request(app).get(`/api/admin/reports/eod.xlsx?${q}`).set(boss).expect(400);
    }
    await request(app).get('/api/admin/income?x=1').set(boss).expect(400);
  });
});

describe('nightly aggregates', () => {
  const eod = async (date: string) => (await request(app).get(`/api/admin/reports/eod?report_date=${date}`).set(boss).expect(200)).body;
  const monthly = async (m: number) => (await request(app).get(`/api/admin/reports/therapist-monthly?year=2026&month=${m}`).set(boss).expect(200)).body;

  it('give identical numbers to live data, and aggregateDay is idempotent', async () => {
    const live = { eod: await eod('2026-11-10'), nov: await monthly(11), oct: await monthly(10), empty: await eod('2026-11-15') };
    for (const d of ['2026-11-10', '2026-11-10', '2026-10-31', '2026-11-15', '2026-11-09']) await aggregateDay(database.db, d);
    expect(await database.db.select().from(reportDaily).where(eq(reportDaily.reportDate, '2026-11-10'))).toEqual([
      expect.objectContaining({
        totalBookings: 7,
        completedBookings: 3,
        cancelledBookings: 2,
        failedBookings: 1,
        incomePaise: 480_000,
        refundedPaise: 150_000,
        attendedBookings: 1,
        noShowBookings: 1,
      }),
    ]);
    expect(await database.db.select().from(reportDailyTherapist).where(eq(reportDailyTherapist.reportDate, '2026-11-10'))).toHaveLength(2);
    expect({ eod: await eod('2026-11-10'), nov: await monthly(11), oct: await monthly(10), empty: await eod('2026-11-15') }).toEqual(live);
  });

  it('are what past-day reports read; today always reads live', async () => {
    await aggregateDay(database.db, '2026-11-10');
    await aggregateDay(database.db, '2026-11-23');
    // Skew the stored totals to see which source a report uses.
    await database.db.update(reportDaily).set({ totalBookings: 70 }).where(eq(reportDaily.reportDate, '2026-11-10'));
    await database.db.update(reportDaily).set({ totalBookings: 20 }).where(eq(reportDaily.reportDate, '2026-11-23'));
    await database.db
      .update(reportDailyTherapist)
      .set({ totalBookings: 40 })
      .where(sql`${reportDailyTherapist.reportDate} = '2026-11-10' and ${reportDailyTherapist.therapistId} = 1`);
    expect((await eod('2026-11-10')).total_bookings_today).toBe(70);
    expect((await eod('2026-11-23')).total_bookings_today).toBe(2);
    expect((await monthly(11)).therapist_performance[0].total_sessions).toBe(41);
    await aggregateDay(database.db, '2026-11-10');
    expect(await eod('2026-11-10')).toMatchObject(EOD_NOV_10);
    expect(await monthly(11)).toEqual(MONTHLY_NOV);
  });

  it('the nightly entry point closes yesterday at the centre', async () => {
    // 00:30 in India is still the previous evening in UTC.
    expect(dayToAggregate(new Date('2026-11-10T19:00:00Z'))).toBe('2026-11-10');
    expect(dayToAggregate(new Date('2026-11-11T18:29:00Z'))).toBe('2026-11-10');
    const res = await aggregatePreviousDay(database.db, new Date('2026-11-10T19:00:00Z'));
    expect(res).toEqual({
      date: '2026-11-10',
      totals: { total: 7, completed: 3, cancelled: 2, failed: 1, income: 480_000, refunded: 150_000, attended: 1, no_show: 1 },
    });
  });

  it('are dropped when a booking of that day changes, whoever changes it', async () => {
    await aggregateDay(database.db, '2026-11-10');
    await database.db.update(bookings).set({ paymentStatus: 'COMPLETED' }).where(eq(bookings.id, ids.e!));
    expect(await database.db.select().from(reportDaily).where(eq(reportDaily.reportDate, '2026-11-10'))).toEqual([]);
    // A status is not money: income follows the ledger alone.
    expect(await eod('2026-11-10')).toMatchObject({ completed_bookings_today: 4, total_income_today: 4800 });
    await aggregateDay(database.db, '2026-11-10');
    expect(await eod('2026-11-10')).toMatchObject({ completed_bookings_today: 4, total_income_today: 4800 });
    await database.db.update(bookings).set({ paymentStatus: 'PENDING' }).where(eq(bookings.id, ids.e!));
    expect(await eod('2026-11-10')).toMatchObject(EOD_NOV_10);
  });

  it('are dropped when money is recorded for a booking of that day, and read it', async () => {
    await aggregateDay(database.db, '2026-11-10');
    await aggregateDay(database.db, '2026-11-09');
    await refunded('b', 20_000, 'Late start');
    // Only the booking's own day is dropped.
    expect(await database.db.select().from(reportDaily).where(eq(reportDaily.reportDate, '2026-11-10'))).toEqual([]);
    expect(await database.db.select().from(reportDaily).where(eq(reportDaily.reportDate, '2026-11-09'))).toHaveLength(1);
    expect(await eod('2026-11-10')).toMatchObject({ total_income_today: 4600, total_refunded_today: 1700 });
    await aggregateDay(database.db, '2026-11-10');
    expect(await eod('2026-11-10')).toMatchObject({ total_income_today: 4600, total_refunded_today: 1700 });
    expect((await monthly(11)).therapist_performance[0]).toMatchObject({ total_income: 3800, total_refunded: 2200 });
  });

  it('the ledger is append-only: a recorded row cannot be changed or deleted', async () => {
    const appendOnly = { cause: { message: expect.stringMatching(/append-only/) } };
    await expect(database.db.execute(sql`update payments_ledger set amount_paise = 1 where payment_id = 'pay_a'`)).rejects.toMatchObject(appendOnly);
    await expect(database.db.execute(sql`delete from payments_ledger where payment_id = 'pay_a'`)).rejects.toMatchObject(appendOnly);
  });
});

async function workbook(path: string) {
  const res = await request(app).get(path).set(boss).buffer(true).parse(binary).expect(200);
  expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.body as ArrayBuffer);
  const rows: unknown[][] = [];
  const sheet = wb.worksheets[0]!;
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { disposition: res.headers['content-disposition'], sheets: wb.worksheets.map((w) => w.name), sheet, rows };
}

describe('Excel exports', () => {
  it('inventory: file name, sheet, header, one row per payment, rupee amounts as numbers', async () => {
    const x = await workbook('/api/admin/reports/inventory.xlsx');
    expect(x.disposition).toBe('attachment; filename="Inventory_Report_2026-11-23.xlsx"');
    expect(x.sheets).toEqual(['Inventory']);
    expect(x.rows[0]).toEqual([
      'Booking Date',
      'Booking ID',
      'Transaction ID',
      'Client Name',
      'Client Phone',
      'Type',
      'Method',
      'Reference',
      'Reason',
      'Amount',
    ]);
    expect(x.rows).toHaveLength(1 + (await incomeReport(database.db)).payments.length);
    expect(x.rows).toContainEqual(['2026-11-10', ids.a, 'txn-a', 'Aarav Shah', '9000000001', 'Payment', 'UPI', 'pay_a', undefined, 1500]);
    expect(x.rows).toContainEqual([
      '2026-11-10',
      ids.c,
      expect.any(String),
      'Test Client',
      '9000000000',
      'Refund',
      'OTHER',
      'rfnd_c',
      'Cancelled by the centre',
      -1500,
    ]);
    expect(x.rows[1]).toEqual(['2026-12-01', ids.m, expect.any(String), 'Test Client', '9000000000', 'Payment', 'UPI', 'pay_m', undefined, 1500.5]);
    expect(x.sheet.getCell('J2').numFmt).toBe('"₹"#,##0.00');
  });

  it('end of day: file name, sheet, header and rows', async () => {
    const x = await workbook('/api/admin/reports/eod.xlsx?report_date=2026-11-10');
    expect(x.disposition).toBe('attachment; filename="EOD_Report_2026-11-10.xlsx"');
    expect(x.sheets).toEqual(['End_of_Day']);
    expect(x.rows[0]).toEqual(EOD_WORKBOOK_HEADER);
    expect(x.rows).toHaveLength(8);
    expect(x.rows).toContainEqual([ids.a, '10:00', 'Aarav Shah', 1, 'Dr. Asha Mehta', 1, 'COMPLETED', 'No', 1500, 1500, 0, 'Online', 'Attended']);
    // Nothing paid, no attendance: the last cells are empty.
    expect(x.rows).toContainEqual([ids.e, '10:00', 'Test Client', 5, 'Dr. Rohan Kapoor', 1, 'PENDING', 'No', 1800, 0, 0]);
    expect(x.rows).toContainEqual([ids.c, '12:00', 'Test Client', 1, 'Dr. Asha Mehta', 1, 'COMPLETED', 'Yes', 1500, 1500, 1500, 'Online']);
    expect(x.sheet.getCell('I2').numFmt).toBe('"₹"#,##0.00');
  });

  it('therapist monthly: file name, sheet, header and rows', async () => {
    const x = await workbook('/api/admin/reports/therapist-monthly.xlsx?year=2026&month=11');
    expect(x.disposition).toBe('attachment; filename="Therapist_Monthly_Report_2026-11.xlsx"');
    expect(x.sheets).toEqual(['Therapist_Monthly']);
    expect(x.rows).toEqual([
      [
        'Therapist ID',
        'Therapist Name',
        'Total Sessions',
        'Completed Sessions',
        'Missed/Cancelled Sessions',
        'Attended',
        'No-show',
        'Total Income',
        'Total Refunded',
      ],
      [1, 'Dr. Asha Mehta', 5, 3, 2, 1, 1, 3800, 2200],
      [2, 'Ms. Priya Nair', 2, 1, 0, 0, 0, 1200, 0],
      [5, 'Dr. Rohan Kapoor', 4, 1, 1, 0, 0, 1800, 0],
    ]);
    expect(x.sheet.getCell('H2').numFmt).toBe('"₹"#,##0.00');
  });

  it('answers 404 "No data to export." when there is nothing', async () => {
    for (const path of ['/api/admin/reports/eod.xlsx?report_date=2026-11-15', '/api/admin/reports/therapist-monthly.xlsx?year=2025&month=3']) {
      const res = await request(app).get(path).set(boss).expect(404);
      expect(res.body).toEqual({ detail: 'No data to export.' });
    }
  });
});
