/**
 * The cash-up (issue 31, item 6): a day's money by when it moved, not by its sessions' dates. A day
 * with an online payment, desk payments in each method, desk and online refunds, an older counter
 * entry with no desk method, a payment the reconciliation recorded, and payments either side of
 * midnight at the centre, whatever the server's zone. Any admin reads it; the other reports stay the
 * super admin's.
 */
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, paymentsLedger } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { recordCapture, recordRefund } from '../../shared/core/repositories/ledger.repository.ts';
import { insertResolvedDiscrepancy } from '../../shared/core/repositories/reconciliation.repository.ts';
import { bearer, createAdmins, insertBooking, tokenFor, type Admins } from '../support/admin.ts';
import { binary, fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';
import { EOD_WORKBOOK_HEADER } from '../support/reports.ts';

let database: TestDatabase;
let admins: Admins;
const clock = fixedClock(MONDAY_MORNING_IST); // today is 2026-11-23 at the centre, 09:30
let app: ReturnType<typeof testApp>;
let boss: Record<string, string>;
let desk: Record<string, string>;
const ids: Record<string, number> = {};

/** An in-person booking to be paid at the centre. */
const inPerson = (key: string, date: string, start: string, amountPaise: number, name: string) =>
  insertBooking(database.db, {
    therapistId: 5,
    bookingDate: date,
    bookingTimeSlotStart: start,
    bookingType: 'OFFLINE',
    locationId: 1,
    amountPaise,
    paymentStatus: 'PENDING',
    clientFullName: name,
  }).then((b) => (ids[key] = b.id));

/** The desk records a payment through the API, at `instant`. */
async function deskPays(key: string, method: string, instant: string, amount?: number): Promise<void> {
  const at = fixedClock(instant);
  await request(testApp(database, { now: at.now }))
    .post(`/api/admin/bookings/${ids[key]}/record-payment`)
    .set(bearer(tokenFor(admins.admin, at.now())))
    .send(amount === undefined ? { method } : { method, amount })
    .expect(200);
}

/** Money handed back at the desk, as the refund-at-the-counter endpoint records it: a counter refund by its method. */
async function deskRefund(key: string, method: 'CASH' | 'OTHER', paise: number, instant: string, adminId: number | null): Promise<void> {
  const [capture] = await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, ids[key]!));
  await database.db.insert(paymentsLedger).values({
    bookingId: ids[key]!,
    kind: 'refund',
    provider: 'counter',
    paymentId: capture!.paymentId,
    refundId: `counter_refund_${key}`,
    amountPaise: -paise,
    method,
    reason: 'Cancelled at the desk',
    recordedByAdminId: adminId,
    occurredAt: new Date(instant),
  });
}

/** A booking and its payment's capture in the ledger at `instant`. */
async function paidBooking(
  key: string,
  booking: Parameters<typeof insertBooking>[1],
  capture: Omit<Extract<Parameters<typeof recordCapture>[1], { bookingId: number }>, 'bookingId' | 'packageSaleId' | 'occurredAt'>,
  instant: string,
): Promise<void> {
  const { id } = await insertBooking(database.db, booking);
  ids[key] = id;
  await recordCapture(database.db, { ...capture, bookingId: id, occurredAt: new Date(instant) });
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  app = testApp(database, { now: clock.now });
  boss = bearer(tokenFor(admins.superadmin, clock.now()));
  desk = bearer(tokenFor(admins.admin, clock.now()));

  // Online: paid through the provider by UPI this morning for a session on Wednesday.
  await paidBooking(
    'online',
    { therapistId: 1, bookingDate: '2026-11-25', bookingTimeSlotStart: '10:00', clientFullName: 'Aarav Shah' },
    { provider: 'razorpay', paymentId: 'pay_online', amountPaise: 150_000, method: 'UPI' },
    '2026-11-23T10:15:00+05:30',
  );
  // Online, by card, for last week's session, and ₹500 of it refunded by the owner this evening.
  await paidBooking(
    'late',
    { therapistId: 1, bookingDate: '2026-11-20', bookingTimeSlotStart: '11:00', clientFullName: 'Diya Menon' },
    { provider: 'sandbox', paymentId: 'pay_late', amountPaise: 110_000, method: 'CARD' },
    '2026-11-23T18:00:00+05:30',
  );
  await recordRefund(database.db, {
    bookingId: ids.late!,
    provider: 'sandbox',
    paymentId: 'pay_late',
    refundId: 'rfnd_late',
    amountPaise: 50_000,
    reason: 'Goodwill',
    recordedByAdminId: admins.superadmin.id,
    occurredAt: new Date('2026-11-23T19:00:00+05:30'),
  });
  // Paid at the provider and recorded by the reconciliation (its MISSING_CAPTURE with it).
  await paidBooking(
    'found',
    { therapistId: 2, bookingDate: '2026-11-24', bookingTimeSlotStart: '15:00', clientFullName: 'Kavya Iyer', amountPaise: 90_000 },
    { provider: 'sandbox', paymentId: 'pay_found', amountPaise: 90_000, method: 'UPI' },
    '2026-11-23T14:00:00+05:30',
  );
  await insertResolvedDiscrepancy(
    database.db,
    {
      kind: 'MISSING_CAPTURE',
      provider: 'sandbox',
      bookingId: ids.found!,
      paymentId: 'pay_found',
      refundId: '',
      ledgerPaise: null,
      providerPaise: 90_000,
      detail: 'The sandbox took ₹900.00 and the ledger did not have it.',
    },
    new Date('2026-11-23T14:00:00+05:30'),
    'Recorded in the ledger',
  );

  // At the desk, today, one payment in each method (through the API: recorded by "desk").
  await inPerson('cash', '2026-11-23', '11:00', 180_000, 'Meera Pillai');
  await inPerson('card', '2026-11-23', '12:00', 180_000, 'Arjun Rao');
  await inPerson('upi', '2026-11-23', '14:00', 120_000, 'Ishaan Gupta');
  await inPerson('bank', '2026-11-26', '10:00', 200_000, 'Nisha Verma');
  await deskPays('cash', 'CASH', '2026-11-23T09:30:00+05:30');
  await deskPays('card', 'CARD', '2026-11-23T12:40:00+05:30');
  await deskPays('upi', 'UPI', '2026-11-23T14:45:00+05:30');
  await deskPays('bank', 'BANK_TRANSFER', '2026-11-23T16:05:00+05:30');
  // ₹300 of the cash handed back at the desk this afternoon.
  await deskRefund('cash', 'CASH', 30_000, '2026-11-23T17:00:00+05:30', admins.admin.id);
  // An older counter entry with no desk method (an online manual booking's), and its refund written by
  // a cancel with no admin: both OTHER.
  await paidBooking(
    'old',
    { therapistId: 2, bookingDate: '2026-11-23', bookingTimeSlotStart: '16:00', clientFullName: 'Rohit Das', amountPaise: 100_000 },
    { provider: 'counter', paymentId: 'counter_old', amountPaise: 100_000, method: 'OTHER', recordedByAdminId: admins.superadmin.id },
    '2026-11-23T08:00:00+05:30',
  );
  await deskRefund('old', 'OTHER', 100_000, '2026-11-23T12:00:00+05:30', null);

  // Either side of midnight at the centre: 23:59:30 on the 22nd, 00:00:30 and 23:59:59.999 on the
  // 23rd, 00:00:00 on the 24th.
  await inPerson('before', '2026-11-23', '10:00', 50_000, 'Before Midnight');
  await inPerson('after', '2026-11-23', '15:00', 100_000, 'After Midnight');
  await inPerson('last', '2026-11-24', '10:00', 70_000, 'Last Second');
  await inPerson('next', '2026-11-24', '11:00', 40_000, 'Next Day');
  await deskPays('before', 'CASH', '2026-11-22T23:59:30+05:30');
  await deskPays('after', 'CASH', '2026-11-23T00:00:30+05:30');
  await deskPays('last', 'CASH', '2026-11-23T23:59:59.999+05:30');
  await deskPays('next', 'CASH', '2026-11-24T00:00:00+05:30');

  // The desk marked the 11:00 session attended.
  await database.db.update(bookings).set({ attendance: 'ATTENDED' }).where(eq(bookings.id, ids.cash!));
});
afterAll(async () => {
  await database.drop();
});

const line = (method: string, label: string, taken: number, refunded: number) => ({ method, label, taken, refunded, net: taken - refunded });

const NOV_23 = {
  date: '2026-11-23',
  methods: [
    line('CASH', 'Cash', 1800 + 1000 + 700, 300),
    line('CARD', 'Card', 1800, 0),
    line('UPI', 'UPI', 1200, 0),
    line('BANK_TRANSFER', 'Bank transfer', 2000, 0),
    line('ONLINE', 'Online', 1500 + 1100 + 900, 500),
    line('OTHER', 'Other', 1000, 1000),
  ],
  at_desk: { taken: 9500, refunded: 1300, net: 8200 },
  total: { taken: 13000, refunded: 1800, net: 11200 },
};

describe('cash-up', () => {
  it("adds up a day's money by method, by when it moved, with each movement and who recorded it", async () => {
    const res = await request(app).get('/api/admin/reports/cash-up?date=2026-11-23').set(desk).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject(NOV_23);
    const moves = res.body.movements as { time: string; booking_id: number; method: string; amount: number; recorded_by: string }[];
    // Oldest first, in the centre's time.
    expect(moves.map((m) => [m.time, m.booking_id, m.method, m.amount, m.recorded_by])).toEqual([
      ['00:00', ids.after, 'CASH', 1000, 'desk'],
      ['08:00', ids.old, 'OTHER', 1000, 'super'],
      ['09:30', ids.cash, 'CASH', 1800, 'desk'],
      ['10:15', ids.online, 'ONLINE', 1500, 'Online'],
      ['12:00', ids.old, 'OTHER', -1000, 'System'],
      ['12:40', ids.card, 'CARD', 1800, 'desk'],
      ['14:00', ids.found, 'ONLINE', 900, 'Reconciliation'],
      ['14:45', ids.upi, 'UPI', 1200, 'desk'],
      ['16:05', ids.bank, 'BANK_TRANSFER', 2000, 'desk'],
      ['17:00', ids.cash, 'CASH', -300, 'desk'],
      ['18:00', ids.late, 'ONLINE', 1100, 'Online'],
      ['19:00', ids.late, 'ONLINE', -500, 'super'],
      ['23:59', ids.last, 'CASH', 700, 'desk'],
    ]);
    expect(moves.find((m) => m.booking_id === ids.late && m.amount > 0)).toEqual({
      id: expect.any(Number),
      kind: 'PAYMENT',
      occurred_at: '2026-11-23T12:30:00.000Z',
      time: '18:00',
      booking_id: ids.late,
      package_sale_id: null,
      client_name: 'Diya Menon',
      session_date: '2026-11-20',
      session_time: '11:00',
      method: 'ONLINE',
      paid_with: 'CARD',
      amount: 1100,
      recorded_by: 'Online',
    });
    expect(moves.find((m) => m.amount === -300)).toMatchObject({ kind: 'REFUND', client_name: 'Meera Pillai', paid_with: 'CASH' });
    // The lines add up to the totals, and the movements to the net.
    const sum = (k: 'taken' | 'refunded' | 'net') => res.body.methods.reduce((n: number, l: Record<string, number>) => n + l[k]!, 0);
    expect([sum('taken'), sum('refunded'), sum('net')]).toEqual([13000, 1800, 11200]);
    expect(moves.reduce((n, m) => n + m.amount, 0)).toBe(11200);
  });

  it('takes the day at the centre: midnight IST is the boundary, whatever the server time zone', async () => {
    const originalTz = process.env.TZ;
    try {
      const answers = new Set<string>();
      for (const tz of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Asia/Kolkata']) {
        process.env.TZ = tz;
        const days = await Promise.all(
          ['2026-11-22', '2026-11-23', '2026-11-24'].map(
            async (d) => (await request(app).get(`/api/admin/reports/cash-up?date=${d}`).set(desk).expect(200)).body,
          ),
        );
        answers.add(JSON.stringify(days));
      }
      expect(answers.size).toBe(1);
      const [nov22, nov23, nov24] = JSON.parse([...answers][0]!);
      expect(nov22.movements.map((m: { booking_id: number; time: string }) => [m.booking_id, m.time])).toEqual([[ids.before, '23:59']]);
      expect(nov22.methods[0]).toEqual(line('CASH', 'Cash', 500, 0));
      expect(nov23.movements.map((m: { booking_id: number }) => m.booking_id)).toEqual(expect.arrayContaining([ids.after, ids.last]));
      expect(nov23.movements.map((m: { booking_id: number }) => m.booking_id)).not.toContain(ids.before);
      expect(nov23.movements.map((m: { booking_id: number }) => m.booking_id)).not.toContain(ids.next);
      expect(nov24.movements.map((m: { booking_id: number; time: string }) => [m.booking_id, m.time])).toEqual([[ids.next, '00:00']]);
    } finally {
      process.env.TZ = originalTz;
    }
  });

  it('defaults to today at the centre; a day without money has every line at zero and no Other line', async () => {
    expect((await request(app).get('/api/admin/reports/cash-up').set(desk).expect(200)).body).toMatchObject(NOV_23);
    const empty = (await request(app).get('/api/admin/reports/cash-up?date=2026-11-15').set(desk).expect(200)).body;
    expect(empty).toEqual({
      date: '2026-11-15',
      methods: [
        line('CASH', 'Cash', 0, 0),
        line('CARD', 'Card', 0, 0),
        line('UPI', 'UPI', 0, 0),
        line('BANK_TRANSFER', 'Bank transfer', 0, 0),
        line('ONLINE', 'Online', 0, 0),
      ],
      at_desk: { taken: 0, refunded: 0, net: 0 },
      total: { taken: 0, refunded: 0, net: 0 },
      movements: [],
    });
    expect((await request(app).get('/api/admin/reports/cash-up.xlsx?date=2026-11-15').set(desk).expect(404)).body).toEqual({ detail: 'No data to export.' });
  });

  it('refuses a date that is not a real day, outside 2020..this year + 5, or an unknown field, with 400 and detail', async () => {
    for (const q of ['date=2026-02-30', 'date=yesterday', 'date=2019-12-31', 'date=2032-01-01', 'report_date=2026-11-23', 'date=2026-11-23&x=1']) {
      for (const path of ['/api/admin/reports/cash-up', '/api/admin/reports/cash-up.xlsx']) {
        const res = await request(app).get(`${path}?${q}`).set(desk).expect(400);
        expect(res.body.detail).toMatch(/date|Unrecognized|Unknown/i);
      }
    }
    expect((await request(app).get('/api/admin/reports/cash-up?date=2026-02-30').set(desk).expect(400)).body.detail).toMatch(
      /date must be a real date written YYYY-MM-DD/,
    );
  });

  it('any admin may read it (the desk does the cash-up); the other reports stay the super admin’s', async () => {
    for (const who of [desk, boss]) {
      await request(app).get('/api/admin/reports/cash-up?date=2026-11-23').set(who).expect(200);
      await request(app).get('/api/admin/reports/cash-up.xlsx?date=2026-11-23').set(who).buffer(true).parse(binary).expect(200);
    }
    for (const path of [
      '/api/admin/reports/inventory',
      '/api/admin/reports/inventory.xlsx',
      '/api/admin/reports/eod?report_date=2026-11-23',
      '/api/admin/reports/eod.xlsx?report_date=2026-11-23',
      '/api/admin/reports/therapist-monthly?year=2026&month=11',
      '/api/admin/income',
    ]) {
      await request(app).get(path).set(desk).expect(403);
    }
    await request(app).get('/api/admin/reports/cash-up').expect(401);
    await request(app)
      .get('/api/admin/reports/cash-up')
      .set(bearer(tokenFor(admins.inactive, clock.now())))
      .expect(401);
  });

  it('the workbook holds the same totals and movements', async () => {
    const res = await request(app).get('/api/admin/reports/cash-up.xlsx?date=2026-11-23').set(desk).buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Cash_Up_2026-11-23.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Cash_Up', 'Movements']);
    const rowsOf = (ws: ExcelJS.Worksheet) => {
      const rows: unknown[][] = [];
      ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return rows;
    };
    expect(rowsOf(wb.worksheets[0]!)).toEqual([
      ['Method', 'Taken', 'Refunded', 'Net'],
      ...NOV_23.methods.map((l) => [l.label, l.taken, l.refunded, l.net]),
      ['At the desk', 9500, 1300, 8200],
      ['Total', 13000, 1800, 11200],
    ]);
    expect(wb.worksheets[0]!.getCell('B2').numFmt).toBe('"₹"#,##0.00');
    const json = (await request(app).get('/api/admin/reports/cash-up?date=2026-11-23').set(desk).expect(200)).body;
    const moves = rowsOf(wb.worksheets[1]!);
    expect(moves[0]).toEqual([
      'Time (IST)',
      'Booking ID',
      'Client Name',
      'Session Date',
      'Session Time',
      'Type',
      'Method',
      'Paid With',
      'Amount',
      'Recorded By',
    ]);
    expect(moves).toHaveLength(1 + json.movements.length);
    expect(moves).toContainEqual(['17:00', ids.cash, 'Meera Pillai', '2026-11-23', '11:00', 'Refund', 'Cash', 'CASH', -300, 'desk']);
    expect(moves).toContainEqual(['18:00', ids.late, 'Diya Menon', '2026-11-20', '11:00', 'Payment', 'Online', 'CARD', 1100, 'Online']);
    expect(moves.slice(1).reduce((n, r) => n + (r[8] as number), 0)).toBe(11200);
  });
});

describe('end of day, with what the desk needs', () => {
  it('adds each booking’s session time, payment methods from the ledger and attendance', async () => {
    const res = await request(app).get('/api/admin/reports/eod?report_date=2026-11-23').set(boss).expect(200);
    const detail = (key: string) => res.body.details.find((d: { booking_id: number }) => d.booking_id === ids[key]);
    expect(detail('cash')).toMatchObject({ session_time: '11:00', payment_methods: ['CASH'], attendance: 'ATTENDED', amount_paid: 1800, amount_refunded: 300 });
    expect(detail('card')).toMatchObject({ session_time: '12:00', payment_methods: ['CARD'], attendance: null });
    expect(detail('old')).toMatchObject({ session_time: '16:00', payment_methods: ['OTHER'] });
    // Sessions by their start time.
    expect(res.body.details.map((d: { session_time: string }) => d.session_time)).toEqual(['10:00', '11:00', '12:00', '14:00', '15:00', '16:00']);
    const online = (await request(app).get('/api/admin/reports/eod?report_date=2026-11-20').set(boss).expect(200)).body.details;
    expect(online).toEqual([expect.objectContaining({ booking_id: ids.late, session_time: '11:00', payment_methods: ['ONLINE'], attendance: null })]);
    const paidByBank = (await request(app).get('/api/admin/reports/eod?report_date=2026-11-26').set(boss).expect(200)).body.details;
    expect(paidByBank[0]).toMatchObject({ payment_methods: ['BANK_TRANSFER'] });
  });

  it('its workbook has the same columns', async () => {
    const res = await request(app).get('/api/admin/reports/eod.xlsx?report_date=2026-11-23').set(boss).buffer(true).parse(binary).expect(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(EOD_WORKBOOK_HEADER);
    expect(rows).toContainEqual([ids.cash, '11:00', 'Meera Pillai', 5, 'Dr. Rohan Kapoor', 1, 'COMPLETED', 'No', 1800, 1800, 300, 'Cash', 'Attended']);
    expect(rows).toContainEqual([ids.before, '10:00', 'Before Midnight', 5, 'Dr. Rohan Kapoor', 1, 'COMPLETED', 'No', 500, 500, 0, 'Cash']); // no attendance: an empty last cell
  });
});
