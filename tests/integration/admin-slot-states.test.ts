import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { PAYMENT_STATUSES } from '../../shared/contract/booking.ts';
import { availabilitySlots, bookings } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { isUniqueViolation } from '../../shared/core/errors.ts';
import { LIVE_BOOKING_SQL, liveBooking } from '../../shared/core/repositories/live-booking.ts';
import { isLiveBooking } from '../../shared/domain/slot-states.ts';
import { bearer, createAdmins, insertBooking, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';

/**
 * The admin availability grid (issue "Money and bookings always agree", item 5): slot states per
 * therapist from the server, block/unblock that does what it says, and one rule for a live booking.
 * Today is Monday 2026-11-23, 09:30 in Asia/Kolkata. Therapists 1 and 2 both work at 10:00.
 */

let database: TestDatabase;
let admins: Admins;
let app: ReturnType<typeof testApp>;
const clock = fixedClock(MONDAY_MORNING_IST);
let desk: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  app = testApp(database, { now: clock.now });
});
beforeEach(() => {
  clock.set(MONDAY_MORNING_IST);
  desk = bearer(tokenFor(admins.admin, clock.now()));
});
afterAll(async () => {
  await database.drop();
});

type Slot = { start_time: string; end_time: string; state: string; booking_id: number | null };
type Day = { date: string; slots: Slot[] };

const states = async (therapistId: number, query = '') =>
  (await request(app).get(`/api/admin/therapists/${therapistId}/slot-states${query}`).set(desk).expect(200)).body as {
    therapist_id: number;
    today: string;
    days: Day[];
  };
const slotOn = (body: { days: Day[] }, date: string, start: string) => body.days.find((d) => d.date === date)!.slots.find((s) => s.start_time === start)!;
const rowsAt = (therapistId: number, date: string, start: string) =>
  database.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.therapistId, therapistId), eq(bookings.bookingDate, date), eq(bookings.bookingTimeSlotStart, start)));
const block = (body: Record<string, unknown>) => request(app).post('/api/admin/availability/block').set(desk).send(body);

describe('the reproduction: one therapist’s booking never shows, or changes, another’s slot', () => {
  it('B’s 10:00 is free while A holds 10:00, and an unblock for B there is refused and creates nothing', async () => {
    const a = await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-11-24', bookingTimeSlotStart: '10:00' });
    expect(slotOn(await states(1), '2026-11-24', '10:00')).toEqual({ start_time: '10:00', end_time: '11:00', state: 'booked', booking_id: a.id });
    expect(slotOn(await states(2), '2026-11-24', '10:00')).toEqual({ start_time: '10:00', end_time: '11:00', state: 'free', booking_id: null });

    // The old panel drew B's 10:00 as taken and offered Unblock; the server then toggled a block on.
    const res = await block({ therapist_id: 2, start_time: '10:00', date: '2026-11-24', action: 'unblock' }).expect(409);
    expect(res.body.detail).toBe('Slot 10:00 on 2026-11-24 is not blocked, so there is nothing to unblock; nothing was changed.');
    expect(await rowsAt(2, '2026-11-24', '10:00')).toEqual([]);
    expect(slotOn(await states(2), '2026-11-24', '10:00').state).toBe('free');
    // A's booking is untouched too.
    expect((await rowsAt(1, '2026-11-24', '10:00')).map((r) => [r.id, r.cancelled])).toEqual([[a.id, false]]);
  });
});

describe('GET /api/admin/therapists/{id}/slot-states', () => {
  it('answers the 15-day admin window from today (IST), template slots in order, past slots today as past', async () => {
    const body = await states(2);
    expect(body.therapist_id).toBe(2);
    expect(body.today).toBe('2026-11-23');
    expect(body.days.map((d) => d.date)).toEqual(Array.from({ length: 15 }, (_, i) => new Date(Date.UTC(2026, 10, 23 + i)).toISOString().slice(0, 10)));
    // Sundays are in the admin window (29 November).
    expect(body.days[6]!.date).toBe('2026-11-29');
    const today = body.days[0]!.slots;
    expect(today.map((s) => s.start_time)).toEqual(['09:00', '10:00', '11:00', '12:00', '15:00', '16:00', '17:00', '18:00']);
    // 09:00 started before 09:30; 10:00 has not.
    expect(today.slice(0, 2).map((s) => s.state)).toEqual(['past', 'free']);
    // A slot starting this very minute has passed.
    clock.set('2026-11-23T10:00:00+05:30');
    desk = bearer(tokenFor(admins.admin, clock.now()));
    expect(slotOn(await states(2), '2026-11-23', '10:00').state).toBe('past');
    // After midnight in India, though UTC still says 23 November, "today" is the 24th.
    clock.set('2026-11-23T18:45:00Z');
    desk = bearer(tokenFor(admins.admin, clock.now()));
    const late = await states(2);
    expect([late.today, late.days[0]!.date, late.days.length]).toEqual(['2026-11-24', '2026-11-24', 15]);
  });

  it('from and days pick part of the window', async () => {
    const body = await states(2, '?from=2026-11-30&days=3');
    expect(body.days.map((d) => d.date)).toEqual(['2026-11-30', '2026-12-01', '2026-12-02']);
    expect((await states(2, '?from=2026-12-05')).days.map((d) => d.date)).toEqual(['2026-12-05', '2026-12-06', '2026-12-07']);
    expect((await states(2, '?days=1')).days.map((d) => d.date)).toEqual(['2026-11-23']);
  });

  it('a FAILED hold or a cancelled booking leaves the slot free; INITIATED, PENDING and blocks hold it', async () => {
    const failed = await insertBooking(database.db, { therapistId: 3, bookingDate: '2026-11-25', bookingTimeSlotStart: '11:00', paymentStatus: 'FAILED' });
    await insertBooking(database.db, { therapistId: 3, bookingDate: '2026-11-25', bookingTimeSlotStart: '12:00', cancelled: true });
    await insertBooking(database.db, { therapistId: 3, bookingDate: '2026-11-25', bookingTimeSlotStart: '14:00', paymentStatus: 'CANCELLED' });
    const held = await insertBooking(database.db, { therapistId: 3, bookingDate: '2026-11-25', bookingTimeSlotStart: '15:00', paymentStatus: 'INITIATED' });
    const pending = await insertBooking(database.db, { therapistId: 3, bookingDate: '2026-11-25', bookingTimeSlotStart: '16:00', paymentStatus: 'PENDING' });
    const blocked = await block({ therapist_id: 3, start_time: '17:00', date: '2026-11-25', action: 'block' }).expect(200);
    const body = await states(3);
    const day = Object.fromEntries(body.days.find((d) => d.date === '2026-11-25')!.slots.map((s) => [s.start_time, [s.state, s.booking_id]]));
    expect(day).toEqual({
      '11:00': ['free', null],
      '12:00': ['free', null],
      '14:00': ['free', null],
      '15:00': ['booked', held.id],
      '16:00': ['booked', pending.id],
      '17:00': ['blocked', blocked.body.booking_id],
      '18:00': ['free', null],
      '19:00': ['free', null],
    });
    // The expired hold's slot can be blocked, and the hold itself is left as it was.
    await block({ therapist_id: 3, start_time: '11:00', date: '2026-11-25', action: 'block' }).expect(200);
    expect((await rowsAt(3, '2026-11-25', '11:00')).find((r) => r.id === failed.id)).toMatchObject({ paymentStatus: 'FAILED', cancelled: false });
  });

  it('a slot the schedule blocks shows blocked with no booking to unblock; a slot off the schedule is not listed', async () => {
    await database.db
      .update(availabilitySlots)
      .set({ adminBlocked: true })
      .where(and(eq(availabilitySlots.therapistId, 6), eq(availabilitySlots.startTime, '12:00')));
    await database.db
      .update(availabilitySlots)
      .set({ isAvailable: false })
      .where(and(eq(availabilitySlots.therapistId, 6), eq(availabilitySlots.startTime, '11:00')));
    try {
      const day = (await states(6)).days[2]!;
      expect(day.slots.find((s) => s.start_time === '12:00')).toMatchObject({ state: 'blocked', booking_id: null });
      expect(day.slots.some((s) => s.start_time === '11:00')).toBe(false);
      const res = await block({ therapist_id: 6, start_time: '12:00', date: day.date, action: 'block' }).expect(409);
      expect(res.body.detail).toMatch(/already blocked; nothing was changed/);
      expect(await rowsAt(6, day.date, '12:00')).toEqual([]);
    } finally {
      await database.db.update(availabilitySlots).set({ adminBlocked: false, isAvailable: true }).where(eq(availabilitySlots.therapistId, 6));
    }
  });

  it('is for any active admin; 401 without a valid token', async () => {
    await request(app)
      .get('/api/admin/therapists/2/slot-states')
      .set(bearer(tokenFor(admins.superadmin, clock.now())))
      .expect(200);
    for (const headers of [{}, bearer('garbage.token.here'), bearer(tokenFor(admins.inactive, clock.now()))]) {
      const res = await request(app).get('/api/admin/therapists/2/slot-states').set(headers).expect(401);
      expect(res.body.detail).toBe('Unauthorized. Please log in again.');
    }
    const ok = await request(app).get('/api/admin/therapists/2/slot-states').set(desk).expect(200);
    expect(ok.headers['cache-control']).toBe('no-store');
  });

  it('refuses bad input with a 4xx and a detail', async () => {
    const cases: [string, number, string | RegExp][] = [
      ['/api/admin/therapists/999/slot-states', 404, 'The selected therapist does not exist.'],
      ['/api/admin/therapists/abc/slot-states', 400, 'Therapist ID must be a positive whole number'],
      ['/api/admin/therapists/0/slot-states', 400, 'Therapist ID must be a positive whole number'],
      ['/api/admin/therapists/99999999999/slot-states', 400, 'Therapist ID must be a positive whole number'],
      ['/api/admin/therapists/2/slot-states?from=2026-02-30', 400, 'from must be a real date written YYYY-MM-DD'],
      ['/api/admin/therapists/2/slot-states?from=23-11-2026', 400, 'from must be a real date written YYYY-MM-DD'],
      ['/api/admin/therapists/2/slot-states?from=2026-11-22', 400, 'from and days must stay within the admin window, 2026-11-23 to 2026-12-07.'],
      ['/api/admin/therapists/2/slot-states?from=2026-12-08', 400, /within the admin window/],
      ['/api/admin/therapists/2/slot-states?days=0', 400, 'days must be a whole number from 1 to 15'],
      ['/api/admin/therapists/2/slot-states?days=16', 400, 'days must be a whole number from 1 to 15'],
      ['/api/admin/therapists/2/slot-states?days=-1', 400, 'days must be a whole number from 1 to 15'],
      ['/api/admin/therapists/2/slot-states?days=1.5', 400, 'days must be a whole number from 1 to 15'],
      ['/api/admin/therapists/2/slot-states?days=1&days=2', 400, 'days must be a whole number from 1 to 15'],
      ['/api/admin/therapists/2/slot-states?from=2026-12-06&days=3', 400, /within the admin window/],
      ['/api/admin/therapists/2/slot-states?other=1', 400, /./],
    ];
    for (const [path, status, detail] of cases) {
      const res = await request(app).get(path).set(desk);
      expect([path, res.status, res.body.detail], path).toEqual([path, status, typeof detail === 'string' ? detail : expect.stringMatching(detail)]);
    }
  });
});

describe('POST /api/admin/availability/block with an action', () => {
  const at = { therapist_id: 4, start_time: '16:00', date: '2026-11-26' };

  it('"block" only adds, "unblock" only removes, each message saying what happened', async () => {
    const made = await block({ ...at, action: 'block' }).expect(200);
    expect(made.body).toEqual({ blocked: true, booking_id: expect.any(Number), message: 'Slot 16:00 on 2026-11-26 blocked successfully.' });
    const again = await block({ ...at, action: 'block' }).expect(409);
    expect(again.body.detail).toBe('Slot 16:00 on 2026-11-26 is already blocked; nothing was changed.');
    expect((await rowsAt(4, '2026-11-26', '16:00')).map((r) => [r.id, r.cancelled])).toEqual([[made.body.booking_id, false]]);

    const removed = await block({ ...at, action: 'unblock' }).expect(200);
    expect(removed.body).toEqual({ blocked: false, booking_id: made.body.booking_id, message: 'Slot 16:00 on 2026-11-26 unblocked successfully.' });
    const twice = await block({ ...at, action: 'unblock' }).expect(409);
    expect(twice.body.detail).toBe('Slot 16:00 on 2026-11-26 is not blocked, so there is nothing to unblock; nothing was changed.');
    expect((await rowsAt(4, '2026-11-26', '16:00')).map((r) => r.cancelled)).toEqual([true]);
    expect(slotOn(await states(4), '2026-11-26', '16:00').state).toBe('free');
  });

  it('a slot a client holds is refused either way and left alone', async () => {
    const client = await insertBooking(database.db, { therapistId: 4, bookingDate: '2026-11-27', bookingTimeSlotStart: '16:00', paymentStatus: 'INITIATED' });
    const b = await block({ ...at, date: '2026-11-27', action: 'block' }).expect(409);
    expect(b.body.detail).toBe('This slot is already booked by a client and cannot be blocked.');
    const u = await block({ ...at, date: '2026-11-27', action: 'unblock' }).expect(409);
    expect(u.body.detail).toBe('Slot 16:00 on 2026-11-27 is booked by a client, not blocked; nothing was changed.');
    expect((await rowsAt(4, '2026-11-27', '16:00')).map((r) => [r.id, r.cancelled, r.paymentStatus])).toEqual([[client.id, false, 'INITIATED']]);
  });

  it('without an action the spec’s toggle still works, and a bad action is a 400', async () => {
    const on = await block({ ...at, date: '2026-11-28' }).expect(200);
    expect(on.body.blocked).toBe(true);
    const off = await block({ ...at, date: '2026-11-28' }).expect(200);
    expect(off.body).toMatchObject({ blocked: false, booking_id: on.body.booking_id });
    for (const action of ['toggle', '', 1, null]) {
      const res = await block({ ...at, date: '2026-11-28', action }).expect(400);
      expect(res.body.detail).toBe('action must be "block" or "unblock"');
    }
    expect((await rowsAt(4, '2026-11-28', '16:00')).every((r) => r.cancelled)).toBe(true);
  });
});

describe('one rule for a live booking', () => {
  const combos = PAYMENT_STATUSES.flatMap((status) => [false, true].map((cancelled) => ({ status, cancelled })));

  it('the pure rule, the SQL fragment and the Drizzle helper agree on every status and cancelled flag', async () => {
    const { rows } = await database.pool.query<{ i: number; live: boolean }>(
      `select i, ${LIVE_BOOKING_SQL} as live from (values ${combos.map((c, i) => `(${i}, ${c.cancelled}, '${c.status}'::payment_status)`).join(', ')}) as t(i, cancelled, payment_status) order by i`,
    );
    expect(rows).toHaveLength(12);
    expect(rows.map((r) => r.live)).toEqual(combos.map((c) => isLiveBooking(c.cancelled, c.status)));
    // Only these four are live: the panel's old rule also counted FAILED.
    expect(combos.filter((c) => isLiveBooking(c.cancelled, c.status)).map((c) => c.status)).toEqual(['COMPLETED', 'PENDING', 'INITIATED', 'BLOCKED']);

    const day = '2026-12-01';
    for (const [i, c] of combos.entries()) {
      await insertBooking(database.db, {
        therapistId: 8,
        bookingDate: day,
        bookingTimeSlotStart: `${String(i).padStart(2, '0')}:00`,
        paymentStatus: c.status,
        cancelled: c.cancelled,
      });
    }
    const live = await database.db
      .select({ start: bookings.bookingTimeSlotStart })
      .from(bookings)
      .where(and(eq(bookings.therapistId, 8), eq(bookings.bookingDate, day), liveBooking))
      .orderBy(bookings.bookingTimeSlotStart);
    expect(live.map((r) => Number(r.start.slice(0, 2)))).toEqual(combos.flatMap((c, i) => (isLiveBooking(c.cancelled, c.status) ? [i] : [])));
  });

  it('the unique index bookings_live_slot_uq guards exactly the live bookings', async () => {
    for (const [i, c] of combos.entries()) {
      const date = `2026-12-${String(10 + i).padStart(2, '0')}`;
      await insertBooking(database.db, { therapistId: 7, bookingDate: date, bookingTimeSlotStart: '10:00', paymentStatus: c.status, cancelled: c.cancelled });
      let clash = false;
      try {
        await insertBooking(database.db, { therapistId: 7, bookingDate: date, bookingTimeSlotStart: '10:00' });
      } catch (err) {
        if (!isUniqueViolation(err, 'bookings_live_slot_uq')) throw err;
        clash = true;
      }
      expect([c, clash]).toEqual([c, isLiveBooking(c.cancelled, c.status)]);
    }
  });
});
