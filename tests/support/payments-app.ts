/**
 * What a money test file starts from: a seeded database, the sandbox payments provider and the payment
 * service's dependencies in this process, the desk's admins, and the app on a fixed clock.
 */
import { and, eq } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import { bookings } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import type { JobsClient } from '../../shared/core/jobs/queues.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import type { PaymentDeps } from '../../shared/core/services/payment.service.ts';
import { createAdmins, type Admins } from './admin.ts';
import { fixedClock, testApp } from './app.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { configFor, inProcessPayments } from './jobs.ts';

export type PaymentsTestApp = {
  database: TestDatabase;
  config: Config;
  payments: SandboxPayments;
  deps: PaymentDeps;
  jobs: JobsClient;
  admins: Admins;
  app: Express;
};

/** The caller drops `database` when its tests are done. */
export async function paymentsTestApp(now: () => Date): Promise<PaymentsTestApp> {
  const database = await createTestDatabase();
  await seedDemoData(database.db);
  const config = configFor({ PUBLIC_BASE_URL: 'http://127.0.0.1:9' });
  const { payments, deps, jobs } = inProcessPayments(database, config, now);
  const admins = await createAdmins(database.db);
  const app = testApp(database, { config, now, payments, jobs });
  return { database, config, payments, deps, jobs, admins, app };
}

/**
 * A test file's payments app on a clock that starts at `start`: made before its tests (handed to
 * `assign`), its database dropped after them. Answers the clock.
 */
export function paymentsTestAppPerFile(start: string, assign: (made: PaymentsTestApp) => void): ReturnType<typeof fixedClock> {
  const clock = fixedClock(start);
  let made: PaymentsTestApp | undefined;
  beforeAll(async () => {
    made = await paymentsTestApp(clock.now);
    assign(made);
  });
  afterAll(() => made?.database.drop());
  return clock;
}

/** The property tests' n-th run's slot: each of `hours` on each of `days` in turn, then round again. */
export function nthSlot(n: number, days: readonly string[], hours: readonly string[]): { booking_date: string; booking_time_slot_start: string } {
  return { booking_date: days[Math.floor(n / hours.length) % days.length]!, booking_time_slot_start: hours[n % hours.length]! };
}

/**
 * The wizard's booking of `payload`'s slot (200 expected), the slot freed first: a slot an earlier run
 * left live is cancelled. Answers the booking's id and the response's body.
 */
export async function bookFreedSlot(
  database: TestDatabase,
  app: Express,
  payload: { booking_date: string; booking_time_slot_start: string },
): Promise<{ id: number; body: Record<string, unknown> }> {
  await database.db
    .update(bookings)
    .set({ cancelled: true })
    .where(and(eq(bookings.bookingDate, payload.booking_date), eq(bookings.bookingTimeSlotStart, payload.booking_time_slot_start)));
  const made = await request(app).post('/confirm-booking').send(payload).expect(200);
  return { id: made.body.booking_id as number, body: made.body };
}

/** The wizard's booking of `payload` (200 expected) and its payment link, made as the wizard asks for it. */
export async function bookWithLink(app: Express, payload: object): Promise<{ id: number; linkId: string }> {
  const res = await request(app).post('/confirm-booking').send(payload).expect(200);
  const link = await request(app)
    .post('/api/payment/generate-link')
    .set('X-Booking-Token', res.body.booking_token)
    .send({ booking_id: res.body.booking_id })
    .expect(200);
  return { id: res.body.booking_id, linkId: link.body.payment_link_id };
}
