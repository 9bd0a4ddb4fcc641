import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bookings } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, onlineBooking } from '../support/factories.ts';

let database: TestDatabase;
let server: Server;
let base: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  server = testApp(database, { now: fixedClock(MONDAY_MORNING_IST).now }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await database.drop();
});

describe('no double booking', () => {
  it('50 simultaneous bookings of one slot: exactly one 200, 49 409s, one row', async () => {
    const attempts = Array.from({ length: 50 }, (_, i) =>
      fetch(`${base}/confirm-booking`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '15:00', client_full_name: `Client ${i}` })),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { detail?: string } })),
    );
    const results = await Promise.all(attempts);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body.detail).toBe('This time slot has just been booked. Please choose another.');
    }
    const rows = await database.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.therapistId, 1), eq(bookings.bookingDate, '2026-11-24'), eq(bookings.bookingTimeSlotStart, '15:00')));
    expect(rows).toHaveLength(1);
  });

  it('a cancelled or failed booking frees its slot for the next client', async () => {
    const payload = onlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '16:00' });
    const first = await fetch(`${base}/confirm-booking`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    const { booking_id } = (await first.json()) as { booking_id: number };
    await database.db.update(bookings).set({ paymentStatus: 'FAILED' }).where(eq(bookings.id, booking_id));
    const second = await fetch(`${base}/confirm-booking`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    expect(second.status).toBe(200);
    const { booking_id: secondId } = (await second.json()) as { booking_id: number };
    await database.db.update(bookings).set({ cancelled: true }).where(eq(bookings.id, secondId));
    const third = await fetch(`${base}/confirm-booking`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    expect(third.status).toBe(200);
  });
});
