/**
 * The desk's day (issue 31, items 3 and 7) on the server: a session marked attended is not cancelled
 * afterwards, today's sessions come from the admin bookings list, and a mobile number written any
 * common Indian way is saved, and found, as its 10 digits.
 */
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditLog, bookings } from '../../shared/core/db/schema.ts';
import { insertBooking, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { mondayDesk, seededWithAdmins } from '../support/desk.ts';
import { MONDAY_MORNING_IST, manualOfflineBooking } from '../support/factories.ts';

const clock = fixedClock(MONDAY_MORNING_IST);
const TODAY = '2026-11-23';
let database: TestDatabase, admins: Admins, app: ReturnType<typeof testApp>;
let desk: Record<string, string>, boss: Record<string, string>;

beforeAll(async () => {
  ({ database, admins } = await seededWithAdmins());
  app = testApp(database, { now: clock.now });
});
beforeEach(() => ({ desk, boss } = mondayDesk(clock, admins)));
afterAll(() => database.drop());

const rowOf = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const cancelAudits = async (id: number) =>
  database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'booking'), eq(auditLog.entityId, String(id)), eq(auditLog.action, 'booking.cancel')));

describe('POST /api/admin/bookings/{id}/cancel on a session marked attended', () => {
  it('is refused with a 409 and its reason, for any admin, and changes nothing', async () => {
    // This morning's 09:00 session (the clock says 09:30): it has started, so attendance can be marked.
    const b = await insertBooking(database.db, {
      therapistId: 5,
      bookingDate: TODAY,
      bookingTimeSlotStart: '09:00',
      bookingType: 'OFFLINE',
      locationId: 1,
      paymentStatus: 'PENDING',
    });
    await request(app).post(`/api/admin/bookings/${b.id}/attendance`).set(desk).send({ status: 'ATTENDED' }).expect(200);
    const before = await rowOf(b.id);
    for (const who of [desk, boss]) {
      const res = await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(who).expect(409);
      expect(res.body.detail).toBe(`Booking ${b.id} is marked attended: the session took place, so it can no longer be cancelled.`);
    }
    // A refund choice does not get round it either.
    const withRefund = await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(boss).send({ refund: 'NONE', reason: 'Client asked' }).expect(409);
    expect(withRefund.body.detail).toMatch(/is marked attended/);
    expect(await rowOf(b.id)).toEqual(before);
    expect((await cancelAudits(b.id))[0]!.n).toBe(0);
  });

  it('a no-show, or an attendance corrected away from attended, may still be cancelled that day', async () => {
    const b = await insertBooking(database.db, { therapistId: 1, bookingDate: TODAY, bookingTimeSlotStart: '09:00', paymentStatus: 'PENDING' });
    await request(app).post(`/api/admin/bookings/${b.id}/attendance`).set(desk).send({ status: 'ATTENDED' }).expect(200);
    await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk).expect(409);
    // Marked by mistake: the desk corrects it to a no-show, and the cancel goes through.
    await request(app).post(`/api/admin/bookings/${b.id}/attendance`).set(desk).send({ status: 'NO_SHOW' }).expect(200);
    const res = await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk).expect(200);
    expect(res.body).toMatchObject({ booking_id: b.id, cancelled: true });
    expect((await rowOf(b.id)).cancelled).toBe(true);
  });
});

describe("today's sessions through GET /api/admin/bookings", () => {
  it('from=to=today answers that day only, each with its phone and its payment in words', async () => {
    const later = await insertBooking(database.db, {
      therapistId: 2,
      bookingDate: TODAY,
      bookingTimeSlotStart: '15:00',
      clientFullName: 'Later Today',
      clientMobile: '9811100002',
    });
    const earlier = await insertBooking(database.db, {
      therapistId: 6,
      bookingDate: TODAY,
      bookingTimeSlotStart: '11:00',
      bookingType: 'OFFLINE',
      locationId: 1,
      paymentStatus: 'PENDING',
      clientFullName: 'Earlier Today',
      clientMobile: '9811100001',
    });
    await insertBooking(database.db, { therapistId: 2, bookingDate: '2026-11-24', bookingTimeSlotStart: '10:00', clientFullName: 'Tomorrow' });
    const res = await request(app)
      .get('/api/admin/bookings')
      .query({ from: TODAY, to: TODAY, status: 'COMPLETED,PENDING,INITIATED', order: 'asc' })
      .set(desk)
      .expect(200);
    const mine = (res.body as { id: number; booking_date: string; client_mobile: string; payment_state: string }[]).filter((r) =>
      [earlier.id, later.id].includes(r.id),
    );
    expect(mine.map((r) => [r.id, r.client_mobile, r.payment_state])).toEqual([
      [earlier.id, '9811100001', 'PAY_AT_CENTRE'],
      [later.id, '9811100002', 'PAYMENT_NOT_RECORDED'],
    ]);
    expect(res.body.every((r: { booking_date: string }) => r.booking_date === TODAY)).toBe(true);
  });
});

describe('a mobile written the common Indian ways (item 3)', () => {
  it.each([
    ['919920033333', '12:00'],
    ['+91 99200 33333', '16:00'],
    ['099200-33333', '14:00'],
  ])('a manual booking given %s saves 9920033333', async (written, start) => {
    const res = await request(app)
      .post('/confirm-booking')
      .set(desk)
      .send(manualOfflineBooking({ booking_time_slot_start: start, client_mobile: written, client_full_name: 'Farah Desai' }))
      .expect(200);
    expect((await rowOf(res.body.booking_id)).clientMobile).toBe('9920033333');
  });

  it('refuses what is not an Indian mobile instead of saving part of it', async () => {
    for (const written of ['+44 7700 900123', '9199200333333', '99200 3333']) {
      const res = await request(app)
        .post('/confirm-booking')
        .set(desk)
        .send(manualOfflineBooking({ booking_time_slot_start: '15:00', client_mobile: written }))
        .expect(400);
      expect(JSON.stringify(res.body)).toContain('Valid 10-digit mobile is required');
    }
  });

  it('Search Clients finds the client by the number written any of those ways', async () => {
    await insertBooking(database.db, {
      therapistId: 3,
      bookingDate: '2026-11-25',
      bookingTimeSlotStart: '10:00',
      clientFullName: 'Zoya Qureshi',
      clientMobile: '9920044444',
    });
    for (const term of ['9920044444', '+91 99200 44444', '919920044444', '099200-44444', '99200 444']) {
      const res = await request(app).get('/api/admin/search-clients').query({ name: term }).set(desk).expect(200);
      expect(
        res.body.map((c: { name: string }) => c.name),
        term,
      ).toEqual(['Zoya Qureshi']);
    }
    // A name is still a name.
    const byName = await request(app).get('/api/admin/search-clients').query({ name: 'zoya' }).set(desk).expect(200);
    expect(byName.body).toEqual([{ name: 'Zoya Qureshi', email: 'client@example.com', phone: '9920044444' }]);
  });
});
