import { and, eq } from 'drizzle-orm';
import type { Express } from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { paymentsLedger, refundRequests } from '../../shared/core/db/schema.ts';
import { manageTokenFor } from '../../shared/core/services/booking-token.ts';
import { setManageHashIfMissing } from '../../shared/core/repositories/manage.repository.ts';
import { bearer, tokenFor, type Admins } from '../support/admin.ts';
import type { TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking } from '../support/factories.ts';
import { bookFreedSlot, nthSlot, paymentsTestAppPerFile } from '../support/payments-app.ts';
import { propertySeed } from '../support/property-seed.ts';
import type { Config } from '../../shared/core/config.ts';

/**
 * The payments ledger's property (as tests/integration/payment-interleavings.test.ts for money taken
 * online), for money taken at the counter (issue 31, item 4): for one in-person booking at a time, a
 * random sequence of what the desk, the owner and the client can do (record a payment at the desk,
 * the client's cancel through Manage booking, an admin's cancel with a full, partial, no refund or a
 * request for the owner, the owner approving in full or in part or declining, the desk handing money
 * back in full or in part), each sent whatever state the booking is in. The model is built from the
 * answers only (what the desk took, what each refund decided at the counter, what was handed back),
 * and after every step:
 * - the ledger's sum is what was captured less what was actually handed back, and never negative;
 * - the ledger's refunds are exactly the hand-overs (a ledger row only when money moved);
 * - the open AT_COUNTER request holds exactly the counter money owed (decided, not yet handed back);
 * - nothing was ever refunded or owed beyond what was taken.
 */

let database: TestDatabase, config: Config, admins: Admins, app: Express;
const clock = paymentsTestAppPerFile(MONDAY_MORNING_IST, (made) => ({ database, config, admins, app } = made));

type Step =
  | { kind: 'record-payment'; amount: number | null }
  | { kind: 'client-cancel' }
  | { kind: 'cancel'; refund: 'FULL' | 'NONE' | 'REQUEST' }
  | { kind: 'cancel-partial'; amount: number }
  | { kind: 'approve'; amount: number | null }
  | { kind: 'decline' }
  | { kind: 'record-refund'; amount: number | null };

const rupees = fc.constantFrom(1, 250, 999.5, 1800, 2000);
// Weighted so that most runs get as far as a payment, a refund decided and money handed back.
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.option(rupees, { nil: null }).map((amount) => ({ kind: 'record-payment' as const, amount })), weight: 1 },
  { arbitrary: fc.constant({ kind: 'client-cancel' as const }), weight: 1 },
  {
    arbitrary: fc.constantFrom('FULL' as const, 'NONE' as const, 'REQUEST' as const, 'REQUEST' as const).map((refund) => ({ kind: 'cancel' as const, refund })),
    weight: 2,
  },
  { arbitrary: rupees.map((amount) => ({ kind: 'cancel-partial' as const, amount })), weight: 1 },
  { arbitrary: fc.option(rupees, { nil: null }).map((amount) => ({ kind: 'approve' as const, amount })), weight: 3 },
  { arbitrary: fc.constant({ kind: 'decline' as const }), weight: 1 },
  { arbitrary: fc.option(rupees, { nil: null }).map((amount) => ({ kind: 'record-refund' as const, amount })), weight: 4 },
);
/** Usually paid at the desk first (then anything), sometimes not at all. */
const steps = fc
  .tuple(fc.boolean(), fc.option(rupees, { nil: null }), fc.array(step, { minLength: 2, maxLength: 10 }))
  .map(([paidFirst, amount, rest]): Step[] => (paidFirst || amount !== null ? [{ kind: 'record-payment', amount }, ...rest] : rest));

const HOURS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
const DAYS = ['2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05'];
let run = 0;

const desk = () => bearer(tokenFor(admins.admin, clock.now()));
const boss = () => bearer(tokenFor(admins.superadmin, clock.now()));
const paise = (r: number) => Math.round(r * 100);

/** What the answers say happened to the money, in paise. */
type Model = { captured: number; decidedAtCounter: number; handedBack: number };

async function perform(id: number, token: string, s: Step, m: Model): Promise<void> {
  const base = `/api/admin/bookings/${id}`;
  let res: request.Response;
  switch (s.kind) {
    case 'record-payment':
      res = await request(app)
        .post(`${base}/record-payment`)
        .set(desk())
        .send(s.amount === null ? { method: 'CASH' } : { method: 'UPI', amount: s.amount });
      if (res.status === 200) m.captured += s.amount === null ? 180_000 : paise(s.amount);
      break;
    case 'client-cancel':
      res = await request(app).post(`/api/manage/${token}/cancel`);
      // The client's cancel returns everything still held: here all of it was taken at the counter.
      if (res.status === 200) m.decidedAtCounter += m.captured - m.decidedAtCounter;
      break;
    case 'cancel':
    case 'cancel-partial': {
      const body =
        s.kind === 'cancel-partial'
          ? { refund: 'PARTIAL', amount: s.amount }
          : s.refund === 'FULL'
            ? { refund: 'FULL' }
            : { refund: s.refund, reason: 'Property test' };
      res = await request(app)
        .post(`${base}/cancel`)
        .set(s.kind === 'cancel' && s.refund === 'REQUEST' ? desk() : boss())
        .send(m.captured > 0 ? body : {});
      if (res.status === 200 && res.body.refund) m.decidedAtCounter += paise(res.body.refund.at_counter ?? 0);
      break;
    }
    case 'approve':
    case 'decline': {
      const [review] = await database.db
        .select()
        .from(refundRequests)
        .where(and(eq(refundRequests.bookingId, id), eq(refundRequests.kind, 'REVIEW')));
      if (!review) return;
      res =
        s.kind === 'approve'
          ? await request(app)
              .post(`/api/admin/refund-requests/${review.id}/approve`)
              .set(boss())
              .send(s.amount === null ? { refund: 'FULL' } : { refund: 'PARTIAL', amount: s.amount })
          : await request(app).post(`/api/admin/refund-requests/${review.id}/decline`).set(boss()).send({ reason: 'Property test' });
      if (res.status === 200 && res.body.refund) m.decidedAtCounter += paise(res.body.refund.at_counter ?? 0);
      break;
    }
    case 'record-refund':
      res = await request(app)
        .post(`${base}/record-refund`)
        .set(desk())
        .send(s.amount === null ? { method: 'CASH' } : { method: 'CARD', amount: s.amount });
      if (res.status === 200) m.handedBack += paise(res.body.amount);
      break;
  }
  // Refusals are fine (a second payment, a cancel of a cancelled booking, more than is due); failures are not.
  expect([200, 400, 403, 404, 409]).toContain(res.status);
}

async function checkInvariants(id: number, m: Model): Promise<void> {
  const ledger = await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id));
  const sum = ledger.reduce((n, r) => n + r.amountPaise, 0);
  const refunds = ledger.filter((r) => r.kind === 'refund');
  expect(sum).toBe(m.captured - m.handedBack);
  expect(sum).toBeGreaterThanOrEqual(0);
  expect(ledger.filter((r) => r.kind === 'capture').reduce((n, r) => n + r.amountPaise, 0)).toBe(m.captured);
  expect(refunds.reduce((n, r) => n - r.amountPaise, 0)).toBe(m.handedBack);
  expect(refunds.every((r) => r.provider === 'counter' && r.method !== 'OTHER')).toBe(true);
  const open = await database.db
    .select()
    .from(refundRequests)
    .where(and(eq(refundRequests.bookingId, id), eq(refundRequests.kind, 'AT_COUNTER'), eq(refundRequests.status, 'OPEN')));
  expect(open.reduce((n, r) => n + r.amountPaise, 0)).toBe(m.decidedAtCounter - m.handedBack);
  expect(m.decidedAtCounter).toBeLessThanOrEqual(m.captured);
  expect(m.handedBack).toBeLessThanOrEqual(m.decidedAtCounter);
}

describe('counter money in any order', () => {
  it('keeps the ledger to the money that moved, and the refunds due to the money owed', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (sequence) => {
        const n = run++;
        const { id } = await bookFreedSlot(database, app, offlineBooking({ ...nthSlot(n, DAYS, HOURS), client_email: `counter${n}@example.com` }));
        const { token, hash } = manageTokenFor(config.jwtSecret, id);
        await setManageHashIfMissing(database.db, id, hash);
        const model: Model = { captured: 0, decidedAtCounter: 0, handedBack: 0 };
        for (const s of sequence) {
          await perform(id, token, s, model);
          await checkInvariants(id, model);
        }
      }),
      { numRuns: 60, seed: propertySeed('counter money in any order') },
    );
  }, 120_000);
});
