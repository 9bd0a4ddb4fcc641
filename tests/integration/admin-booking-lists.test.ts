/**
 * The admin's booking lists are narrowed and paged by the server (issue 19, item 15): GET
 * /api/admin/bookings takes a date range, a therapist, statuses, an order and a page, and the client
 * list takes a page; without parameters both answer the spec's whole list as before.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { bearer, createAdmins, insertBooking, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';

let database: TestDatabase;
let admins: Admins;
let app: ReturnType<typeof testApp>;
const clock = fixedClock(MONDAY_MORNING_IST); // today is 2026-11-23 at the centre
let desk: Record<string, string>;
const ids: Record<string, number> = {};
const HOLD_END = new Date('2026-11-23T04:20:00Z'); // 09:50 at the centre

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  app = testApp(database, { now: clock.now });
  desk = bearer(tokenFor(admins.admin, clock.now()));
  const add = async (key: string, v: Parameters<typeof insertBooking>[1]) => (ids[key] = (await insertBooking(database.db, v)).id);
  // Yesterday, today and the days after, for Asha (1), Priya (2) and Rohan (5, in person).
  await add('past', { therapistId: 1, bookingDate: '2026-11-22', bookingTimeSlotStart: '10:00', clientFullName: 'Rahul Past' });
  await add('today11', { therapistId: 1, bookingDate: '2026-11-23', bookingTimeSlotStart: '11:00', clientFullName: 'Asha Client' });
  await add('today10', { therapistId: 2, bookingDate: '2026-11-23', bookingTimeSlotStart: '10:00', clientFullName: 'Priya Client' });
  await add('hold', {
    therapistId: 2,
    bookingDate: '2026-11-23',
    bookingTimeSlotStart: '12:00',
    paymentStatus: 'INITIATED',
    paymentHoldExpiresAt: HOLD_END,
    clientFullName: 'Holding Client',
  });
  await add('expired', { therapistId: 2, bookingDate: '2026-11-23', bookingTimeSlotStart: '12:00', paymentStatus: 'FAILED', clientFullName: 'Expired Hold' });
  await add('cancelledHold', {
    therapistId: 1,
    bookingDate: '2026-11-24',
    bookingTimeSlotStart: '12:00',
    paymentStatus: 'INITIATED',
    cancelled: true,
    paymentHoldExpiresAt: HOLD_END,
    clientFullName: 'Gave Up',
  });
  await add('inPerson', {
    therapistId: 5,
    bookingDate: '2026-11-24',
    bookingTimeSlotStart: '10:00',
    bookingType: 'OFFLINE',
    locationId: 1,
    paymentStatus: 'PENDING',
    clientFullName: 'Walk In Client',
  });
  await add('cancelled', { therapistId: 1, bookingDate: '2026-11-25', bookingTimeSlotStart: '10:00', cancelled: true, clientFullName: 'Cancelled Client' });
  await add('block', {
    therapistId: 1,
    bookingDate: '2026-11-25',
    bookingTimeSlotStart: '11:00',
    bookingType: 'ADMIN_BLOCK',
    paymentStatus: 'BLOCKED',
    amountPaise: 0,
    clientFullName: '',
  });
  await add('later', { therapistId: 2, bookingDate: '2026-12-02', bookingTimeSlotStart: '15:00', clientFullName: 'Later Client' });
});
afterAll(async () => {
  await database.drop();
});

const get = (path: string) => request(app).get(path).set(desk);
const idsOf = (list: { id: number }[]) => list.map((b) => b.id);

describe('GET /api/admin/bookings', () => {
  it('without parameters answers the spec’s list: every booking, newest first', async () => {
    const res = await get('/api/admin/bookings').expect(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(idsOf(res.body)).toEqual([
      ids.later,
      ids.block,
      ids.cancelled,
      ids.cancelledHold,
      ids.inPerson,
      ids.expired,
      ids.hold,
      ids.today11,
      ids.today10,
      ids.past,
    ]);
  });

  it('today first, then upcoming: from=today in ascending order, one page with the total', async () => {
    const res = await get('/api/admin/bookings?from=2026-11-23&order=asc&page=1&page_size=4').expect(200);
    expect(res.body).toMatchObject({ page: 1, page_size: 4, total: 9 });
    expect(idsOf(res.body.items)).toEqual([ids.today10, ids.today11, ids.hold, ids.expired]);
    const next = await get('/api/admin/bookings?from=2026-11-23&order=asc&page=3&page_size=4').expect(200);
    expect(next.body).toMatchObject({ page: 3, page_size: 4, total: 9 });
    expect(idsOf(next.body.items)).toEqual([ids.later]);
    // page_size alone is page 1; page alone has the default 10 rows.
    expect((await get('/api/admin/bookings?page_size=2').expect(200)).body).toMatchObject({ page: 1, page_size: 2, total: 10 });
    expect((await get('/api/admin/bookings?page=1').expect(200)).body).toMatchObject({ page: 1, page_size: 10, total: 10 });
    // Past the last page: no rows, the same total.
    expect((await get('/api/admin/bookings?page=9&page_size=50').expect(200)).body).toEqual({ page: 9, page_size: 50, total: 10, items: [] });
  });

  it('narrows by date range, therapist and statuses (CANCELLED is every cancelled booking; the others exclude them)', async () => {
    const day = await get('/api/admin/bookings?from=2026-11-23&to=2026-11-23&order=asc').expect(200);
    expect(idsOf(day.body)).toEqual([ids.today10, ids.today11, ids.hold, ids.expired]);
    const priya = await get('/api/admin/bookings?therapist_id=2&from=2026-11-23&to=2026-11-30&order=asc').expect(200);
    expect(idsOf(priya.body)).toEqual([ids.today10, ids.hold, ids.expired]);
    const holds = await get('/api/admin/bookings?status=INITIATED').expect(200);
    expect(idsOf(holds.body)).toEqual([ids.hold]);
    const cancelled = await get('/api/admin/bookings?status=CANCELLED').expect(200);
    expect(idsOf(cancelled.body)).toEqual([ids.cancelled, ids.cancelledHold]);
    const active = await get('/api/admin/bookings?status=COMPLETED,PENDING,INITIATED,BLOCKED&from=2026-11-23&order=asc').expect(200);
    expect(idsOf(active.body)).toEqual([ids.today10, ids.today11, ids.hold, ids.inPerson, ids.block, ids.later]);
    const paged = await get('/api/admin/bookings?therapist_id=1&status=COMPLETED&page=1&page_size=1').expect(200);
    expect(paged.body).toMatchObject({ total: 2, items: [{ id: ids.today11 }] });
  });

  it('an unpaid hold carries the instant its hold ends; nothing else does', async () => {
    const res = await get('/api/admin/bookings?from=2026-11-23&to=2026-11-24').expect(200);
    const byId = new Map(res.body.map((b: { id: number; payment_hold_expires_at: string | null }) => [b.id, b.payment_hold_expires_at]));
    expect(byId.get(ids.hold)).toBe(HOLD_END.toISOString());
    for (const key of ['today10', 'today11', 'expired', 'cancelledHold', 'inPerson']) expect(byId.get(ids[key]!), key).toBeNull();
  });

  it.each([
    ['from=2026-02-30', 'from must be a real date written YYYY-MM-DD'],
    ['to=23-11-2026', 'to must be a real date written YYYY-MM-DD'],
    ['from=2026-11-25&to=2026-11-23', 'from must not be after to'],
    ['therapist_id=abc', 'therapist_id must be a positive whole number'],
    ['therapist_id=0', 'therapist_id must be a positive whole number'],
    ['status=PAID', 'status must be one or more of COMPLETED, PENDING, INITIATED, FAILED, BLOCKED, CANCELLED, separated by commas'],
    ['status=', 'status must be one or more of COMPLETED, PENDING, INITIATED, FAILED, BLOCKED, CANCELLED, separated by commas'],
    ['status=COMPLETED,', 'status must be one or more of COMPLETED, PENDING, INITIATED, FAILED, BLOCKED, CANCELLED, separated by commas'],
    ['order=up', 'order must be asc or desc'],
    ['page=0', 'page must be a positive whole number'],
    ['page=-1', 'page must be a positive whole number'],
    ['page_size=101', 'page_size must be a whole number from 1 to 100'],
    ['page_size=1e2', 'page_size must be a whole number from 1 to 100'],
    ['page=1&page=2', 'page must be a positive whole number'],
  ])('refuses %s with 400 and a detail', async (query, detail) => {
    const res = await get(`/api/admin/bookings?${query}`).expect(400);
    expect(res.body.detail).toBe(detail);
  });

  it('refuses an unknown parameter with 400, naming it', async () => {
    const res = await get('/api/admin/bookings?date=2026-11-23').expect(400);
    expect(res.body).toEqual({ detail: 'Unknown field: date', errors: { date: 'Unknown field: date' } });
  });
});

describe('GET /api/admin/clients-with-therapists', () => {
  it('pages on the server with the name filter, and answers the whole list without page parameters', async () => {
    const all = await get('/api/admin/clients-with-therapists').expect(200);
    expect(all.body).toHaveLength(9); // the block is no client's booking
    const page = await get('/api/admin/clients-with-therapists?name=client&page=2&page_size=3').expect(200);
    expect(page.body).toMatchObject({ page: 2, page_size: 3, total: 6 });
    // Newest first, as the whole list: Later, Cancelled, Walk In on page 1.
    expect(page.body.items.map((b: { client_full_name: string }) => b.client_full_name)).toEqual(['Holding Client', 'Asha Client', 'Priya Client']);
    expect(page.body.items[0]).toHaveProperty('data.therapist_details.name');
    for (const [q, detail] of [
      ['page=0', 'page must be a positive whole number'],
      ['page_size=500', 'page_size must be a whole number from 1 to 100'],
      ['name=a&page=x', 'page must be a positive whole number'],
    ]) {
      expect((await get(`/api/admin/clients-with-therapists?${q}`).expect(400)).body.detail, q).toBe(detail);
    }
  });
});
