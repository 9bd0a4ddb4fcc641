import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, paymentsLedger } from '../../shared/core/db/schema.ts';
import { bearer, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';
import { paymentsTestApp } from '../support/payments-app.ts';

/**
 * Issue 31, item 1: a manual booking's settlement. The ledger records a payment only when money was
 * taken: paid now (a desk method), not paid yet (a payment link sent to the client), or the spec's own
 * payload (confirmed, nothing recorded, "Payment not recorded").
 */
const clock = fixedClock(MONDAY_MORNING_IST);
let database: TestDatabase, admins: Admins, app: Express;
let desk: Record<string, string>;

beforeAll(async () => {
  ({ database, admins, app } = await paymentsTestApp(clock.now));
});
beforeEach(() => {
  clock.set(MONDAY_MORNING_IST);
  desk = bearer(tokenFor(admins.admin, clock.now()));
});
afterAll(() => database.drop());

let slots = 0;
const HOURS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
const DAYS = ['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-30', '2026-12-01'];
/** The spec's manual booking payload for Dr. Asha Mehta (online), on a slot of its own. */
function manualOnline(o: Record<string, unknown> = {}): Record<string, unknown> {
  const n = slots++;
  return {
    therapist_id: 1,
    booking_date: DAYS[Math.floor(n / HOURS.length)],
    booking_time_slot_start: HOURS[n % HOURS.length],
    client_full_name: 'Rahul Verma',
    client_email: `rahul.verma${n}@example.com`,
    client_mobile: '9123456780',
    client_note: '',
    booking_type: 'ONLINE',
    location_id: 0,
    amount: 1100,
    payment_transaction_id: randomUUID(),
    admin_confirmed: true,
    payment_status: 'COMPLETED',
    therapist_email: 'asha.mehta@wellbeingcentre.in',
    ...o,
  };
}

const rowOf = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const ledgerOf = (id: number) => database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id));

describe('the reproduction (issue 31, item 1)', () => {
  it('the spec payload for an online therapist confirms the booking but records no money', async () => {
    const made = await request(app).post('/confirm-booking').set(desk).send(manualOnline()).expect(200);
    const id = made.body.booking_id as number;
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'COMPLETED', adminConfirmed: true });
    expect(await ledgerOf(id)).toEqual([]);
  });

  it('payment_status PENDING records no money, and the booking can be sent a payment link', async () => {
    const made = await request(app).post('/confirm-booking').set(desk).send(manualOnline({ payment_status: 'PENDING' })).expect(200);
    const id = made.body.booking_id as number;
    const row = await rowOf(id);
    expect(row).toMatchObject({ paymentStatus: 'PENDING', adminConfirmed: true, paymentHoldExpiresAt: null });
    expect(await ledgerOf(id)).toEqual([]);
    const link = await request(app)
      .post('/api/create-shareable-payment-link')
      .set(desk)
      .send({ amount: 1100, booking_id: id, merchant_transaction_id: row.paymentTransactionId });
    expect([link.status, link.body.detail]).toEqual([200, undefined]);
  });
});
