import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type pg from 'pg';
import { bookingCreateSchema } from '../../shared/contract/booking.ts';
import { connectDatabase, type Db } from '../../shared/core/db/client.ts';
import { bookings, outbox } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { AppError } from '../../shared/core/errors.ts';
import { insertBookingWithIntents } from '../../shared/core/repositories/booking-batch/booking-batch.ts';
import { createBooking } from '../../shared/core/services/booking.service.ts';
import { slotWindow } from '../../shared/domain/slots.ts';
import { testConfig } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, newOnlineHold, offlineBooking, onlineBooking, type Overrides } from '../support/factories.ts';

let database: TestDatabase;
const now = new Date(MONDAY_MORNING_IST);
const window = slotWindow('client', now);

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
});
afterAll(async () => {
  await database.drop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The booking statements sent to the pool, each with the number of bookings it carried; `hold` delays every query. */
function watchStatements(hold?: Promise<void>): number[] {
  const sizes: number[] = [];
  const query = database.pool.query.bind(database.pool) as (...args: unknown[]) => unknown;
  vi.spyOn(database.pool, 'query').mockImplementation(((config: pg.QueryConfig, ...rest: unknown[]) => {
    if (config?.name === 'book_batch') sizes.push((JSON.parse(config.values![0] as string) as unknown[]).length);
    return hold ? hold.then(() => query(config, ...rest)) : query(config, ...rest);
  }) as typeof database.pool.query);
  return sizes;
}

const OPTIONS = { paymentHoldMinutes: 20, tokenSecret: testConfig.jwtSecret };
const book = (o: Overrides) => createBooking(database.db, bookingCreateSchema.parse(o), { kind: 'public' }, now, OPTIONS);
const refusal = (result: PromiseSettledResult<unknown>) => {
  if (result.status !== 'rejected' || !(result.reason instanceof AppError)) return result;
  return { code: result.reason.code, message: result.reason.message, fields: result.reason.fields };
};

/** A public online hold for one client, as the booking service hands it to the batcher. */
const ONLINE_HOLD = newOnlineHold(now, {
  bookingDate: '2026-12-01',
  clientFullName: 'Kavya Rao',
  clientEmail: 'racer@example.com',
  clientMobile: '9123456780',
  clientAge: 27,
  clientState: 'Karnataka',
  clientCity: 'Bengaluru',
});

describe('bookings asked for together', () => {
  it('are written by one statement, each with its own answer', async () => {
    const statements = watchStatements();
    const results = await Promise.allSettled([
      book(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '10:00', client_full_name: 'First Asker' })),
      book(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '11:00' })),
      book(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '12:00', service_id: 999 })),
      book(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '13:00' })),
      book(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '10:00', client_full_name: 'Second Asker' })),
      book(offlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '10:00' })),
    ]);
    expect(statements).toEqual([6]);

    const [first, second, service, slot, taken, offline] = results;
    expect(first).toMatchObject({ status: 'fulfilled', value: { booking_id: expect.any(Number) } });
    expect(second).toMatchObject({ status: 'fulfilled', value: { booking_id: expect.any(Number) } });
    expect(refusal(service!)).toEqual({
      code: 'validation',
      message: 'The selected service does not exist.',
      fields: { service_id: 'The selected service does not exist.' },
    });
    expect(refusal(slot!)).toEqual({
      code: 'validation',
      message: 'This time slot is not available. Please choose another.',
      fields: { booking_time_slot_start: 'This time slot is not available. Please choose another.' },
    });
    expect(refusal(taken!)).toMatchObject({ code: 'conflict', message: 'This time slot has just been booked. Please choose another.' });

    // Of the two asking for 10:00, the first asked has it; nothing was written for the refusals.
    const tenOClock = await database.db
      .select({ name: bookings.clientFullName })
      .from(bookings)
      .where(and(eq(bookings.therapistId, 1), eq(bookings.bookingDate, '2026-11-24'), eq(bookings.bookingTimeSlotStart, '10:00')));
    expect(tenOClock).toEqual([{ name: 'First Asker' }]);
    expect(await database.db.$count(bookings, eq(bookings.bookingDate, '2026-11-24'))).toBe(3);

    // The in-person booking's jobs carry its own id, not another's of the batch.
    const offlineId = (offline as PromiseFulfilledResult<{ booking_id: number }>).value.booking_id;
    const jobs = await database.db
      .select()
      .from(outbox)
      .where(sql`${outbox.payload}->>'bookingId' = ${String(offlineId)}`);
    expect(jobs.map((j) => j.jobName).sort()).toEqual(['mail.booking-confirmation', 'mail.booking-confirmation', 'mail.booking-reminder']);
    for (const j of jobs) expect(j.jobId).toContain(`.${offlineId}`);
    const unpaidIds = [first, second].map((r) => (r as PromiseFulfilledResult<{ booking_id: number }>).value.booking_id);
    expect(await database.db.$count(outbox, sql`(${outbox.payload}->>'bookingId')::int in (${sql.join(unpaidIds, sql`, `)})`)).toBe(0);
  });

  it('one statement at a time, a second only when the first is held up: bookings asked meanwhile go together in the next', async () => {
    let release!: () => void;
    const statements = watchStatements(new Promise<void>((resolve) => (release = resolve)));

    const asked = [book(onlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '10:00' }))];
    try {
      await nextTurn();
      asked.push(book(onlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '11:00' })));
      await nextTurn();
      // The first is on its way: the second waits for it, until it has been held up a while.
      expect(statements).toEqual([1]);
      await vi.waitFor(() => expect(statements).toEqual([1, 1]), { timeout: 2000, interval: 5 });
      // Both statements are held; these five, asked in turns of their own, wait for one of them.
      for (const start of ['12:00', '14:00', '15:00', '16:00', '17:00']) {
        asked.push(book(onlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: start })));
        await nextTurn();
      }
      expect(statements).toEqual([1, 1]);
    } finally {
      release();
    }
    const ids = (await Promise.all(asked)).map((r) => r.booking_id);
    expect(new Set(ids).size).toBe(7);
    expect(statements).toEqual([1, 1, 5]);
  });

  it('a booking the server refuses fails alone: the others of its statement are written', async () => {
    const statements = watchStatements();
    const values = (start: string, clientAge: number) =>
      newOnlineHold(now, { bookingDate: '2026-11-26', bookingTimeSlotStart: start, clientAge, paymentTransactionId: `txn-${start}` });
    // An age past smallint's range gets by no validation here: the server refuses the whole statement.
    const results = await Promise.allSettled([
      insertBookingWithIntents(database.db, values('10:00', 30), [], now, window),
      insertBookingWithIntents(database.db, values('11:00', 40_000), [], now, window),
      insertBookingWithIntents(database.db, values('12:00', 31), [], now, window),
    ]);
    expect(statements).toEqual([3, 1, 1, 1]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { id: expect.any(Number) } });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: '22003' } });
    expect(results[2]).toMatchObject({ status: 'fulfilled', value: { id: expect.any(Number) } });
    const written = await database.db.select({ age: bookings.clientAge }).from(bookings).where(eq(bookings.bookingDate, '2026-11-26'));
    expect(written.map((r) => r.age).sort()).toEqual([30, 31]);
  });

  it('holds the hold limits when two processes book for one client at the same moment', async () => {
    // Two API processes (two pools), each with a batch of three holds for the same client at the same
    // moment. Each call locks the client first and only then counts, with a fresh snapshot: whichever
    // goes second sees the first's holds, so the client ends with the two the limit allows.
    const other = connectDatabase(database.url, { max: 2, applicationName: 'booking-test-other' });
    try {
      const hold = (db: Db, hour: number) =>
        insertBookingWithIntents(
          db,
          {
            ...ONLINE_HOLD,
            bookingTimeSlotStart: `${hour}:00`,
            paymentTransactionId: `race-${hour}`,
          },
          [],
          now,
          window,
          { perClient: 2, perAddress: 0 },
        );
      for (let round = 0; round < 5; round++) {
        await database.pool.query(`delete from bookings where client_email = 'racer@example.com'`);
        const results = await Promise.all([...[10, 11, 12].map((h) => hold(database.db, h)), ...[14, 15, 16].map((h) => hold(other.db, h))]);
        expect(results.filter((r) => 'id' in r)).toHaveLength(2);
        expect(results.filter((r) => 'refusal' in r && r.refusal === 'holds_client')).toHaveLength(4);
      }
    } finally {
      await other.close();
    }
  });

  it('a lost connection fails its statement without a second try: it may have committed', async () => {
    const lost = new Error('Connection terminated unexpectedly');
    const query = vi.fn(() => Promise.reject(lost));
    const db = { $client: { query } } as unknown as Db;
    const input = bookingCreateSchema.parse(onlineBooking({ booking_date: '2026-11-27' }));
    const results = await Promise.allSettled([
      createBooking(db, input, { kind: 'public' }, now, OPTIONS),
      createBooking(db, { ...input, booking_time_slot_start: '11:00' }, { kind: 'public' }, now, OPTIONS),
    ]);
    expect(query).toHaveBeenCalledTimes(1);
    expect(results).toEqual([
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
    ]);
  });
});
