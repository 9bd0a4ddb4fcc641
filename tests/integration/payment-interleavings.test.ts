import { and, eq, inArray, like, or, sql } from 'drizzle-orm';
import type { Express } from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import { bookings, outbox, paymentsLedger, refundIntents, sandboxPaymentLinks, sandboxRefunds } from '../../shared/core/db/schema.ts';
import type { AppError } from '../../shared/core/errors.ts';
import { webhookSignature, type PaymentsProvider } from '../../shared/core/providers/payments/payments.provider.ts';
import { cancelBooking } from '../../shared/core/services/admin-booking.service.ts';
import { sendLinkOfNewBooking } from '../../shared/core/services/payment-link-send.service.ts';
import { finishAbandonedRefunds } from '../../shared/core/services/refund-recovery.service.ts';
import {
  expireEndedHolds,
  handlePaymentWebhook,
  reconcileAll,
  reconcileBooking,
  refundStrayPayment,
  type PaymentDeps,
} from '../../shared/core/services/payment.service.ts';
import { bearer, tokenFor, type Admins } from '../support/admin.ts';
import type { TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, onlineBooking, ASHA_HOURS, OFFER_DAYS } from '../support/factories.ts';
import { bookFreedSlot, nthSlot, paymentsTestAppPerFile } from '../support/payments-app.ts';
import { propertySeed } from '../support/property-seed.ts';

/**
 * Money and bookings agree whatever order things happen in, and when they happen at once. For one
 * online booking at a time, a random sequence of moments, each one thing or several at the same time,
 * of what the world can do (the client's link, a link the centre shares, a payment at the provider,
 * its callback, its webhooks delivered late, twice or never, the reconciliation, the hold running
 * out, an admin's cancel with a full refund, the worker's stray refunds, and either of those two
 * refunds dying halfway, before or after the provider refunded, then finished by the
 * payments.reconcile job). Often a moment is the three reports of one payment racing each other: the
 * client's return (the callback), the provider's webhook and the reconciliation job. Then the invariants:
 * - the ledger's captures are the provider's captured payments, each exactly once (none unrecorded);
 * - the ledger's refunds are the provider's refunds, each exactly once, and never more than was captured;
 * - a booking shown confirmed (COMPLETED, not cancelled) holds its slot and is paid;
 * - a booking that will not take place keeps no money once the worker's stray refunds have run;
 * - no refund is left halfway once the job has run, and a cancel it finished cancelled its booking.
 */

let database: TestDatabase, config: Config, admins: Admins, app: Express, deps: PaymentDeps;
const clock = paymentsTestAppPerFile(MONDAY_MORNING_IST, (made) => ({ database, config, admins, app, deps } = made));

type Step =
  | { kind: 'client-link' }
  | { kind: 'shared-link' }
  | { kind: 'pay'; which: 'first' | 'last' }
  | { kind: 'callback'; which: 'first' | 'last' }
  | { kind: 'webhook'; which: 'first' | 'last' }
  | { kind: 'reconcile' }
  | { kind: 'hold-over' }
  | { kind: 'cancel' }
  | { kind: 'stray-refunds' }
  /** The cancel or the stray refunds in a process that dies in the provider's call, before or after the refund is made. */
  | { kind: 'cancel-dies'; at: 'before' | 'after' }
  | { kind: 'stray-refunds-die'; at: 'before' | 'after' }
  /** The payments.reconcile job, minutes later: refunds left halfway are finished. */
  | { kind: 'finish-refunds' };

const which = fc.constantFrom('first' as const, 'last' as const);
const crashAt = fc.constantFrom('before' as const, 'after' as const);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ kind: 'client-link' as const }),
  fc.constant({ kind: 'shared-link' as const }),
  which.map((w) => ({ kind: 'pay' as const, which: w })),
  which.map((w) => ({ kind: 'callback' as const, which: w })),
  which.map((w) => ({ kind: 'webhook' as const, which: w })),
  fc.constant({ kind: 'reconcile' as const }),
  fc.constant({ kind: 'hold-over' as const }),
  fc.constant({ kind: 'cancel' as const }),
  fc.constant({ kind: 'stray-refunds' as const }),
  crashAt.map((at) => ({ kind: 'cancel-dies' as const, at })),
  crashAt.map((at) => ({ kind: 'stray-refunds-die' as const, at })),
  fc.constant({ kind: 'finish-refunds' as const }),
);
/** One moment: one thing, the three reports of a payment racing (with up to two more things), or a few things at once. */
const moment = <S>(one: fc.Arbitrary<S>, reports: fc.Arbitrary<S[]>): fc.Arbitrary<S[]> =>
  fc.oneof(
    { arbitrary: one.map((s) => [s]), weight: 4 },
    { arbitrary: fc.tuple(reports, fc.array(one, { maxLength: 2 })).map(([r, more]) => [...r, ...more]), weight: 2 },
    { arbitrary: fc.array(one, { minLength: 2, maxLength: 4 }), weight: 1 },
  );
/** The client back from the provider's page, the provider's webhook and the reconciliation job, for the same link. */
const reportsOf = which.map((w): Step[] => [{ kind: 'callback', which: w }, { kind: 'webhook', which: w }, { kind: 'reconcile' }]);
/** Usually the client's link paid first (then anything: money must be in play for refunds to matter), sometimes not. */
const steps = fc
  .tuple(fc.boolean(), fc.array(moment(step, reportsOf), { minLength: 3, maxLength: 10 }))
  .map(([paidFirst, rest]): Step[][] => (paidFirst ? [[{ kind: 'client-link' }], [{ kind: 'pay', which: 'last' }], ...rest] : rest));

let run = 0;

/** The booking's sandbox links, oldest first: the client's (reference `{id}`) and those the centre shared (`{id}-…`). */
const linksOf = (id: number) =>
  database.db
    .select()
    .from(sandboxPaymentLinks)
    .where(or(eq(sandboxPaymentLinks.referenceId, String(id)), like(sandboxPaymentLinks.referenceId, `${id}-%`)))
    .orderBy(sandboxPaymentLinks.createdAt, sandboxPaymentLinks.id);
const pick = <T>(list: T[], w: 'first' | 'last'): T | undefined => (w === 'first' ? list[0] : list[list.length - 1]);
const superDesk = () => bearer(tokenFor(admins.superadmin, clock.now()));

/** What one step will do, once every step of its moment has looked at the state it acts on. */
type Act = () => Promise<unknown>;

/**
 * One moment: each step first reads what it needs (which link, which webhook, whether the booking is
 * paid), then all of them act at the same time, so that their database work really overlaps.
 */
async function atOnce<S>(moment: S[], prepare: (s: S) => Promise<Act | undefined>): Promise<void> {
  const acts = await Promise.all(moment.map(prepare));
  const answers = await Promise.all(acts.map((act) => act?.()));
  // Refusals are the API's to give (409, 502 for a link no longer wanted…); an error it did not expect is not.
  for (const [i, answer] of answers.entries()) {
    if (answer instanceof Object && 'status' in answer && answer.status === 500) {
      expect.fail(
        `${JSON.stringify(moment[i])}, at the same time as ${JSON.stringify(moment)}, answered 500 ${JSON.stringify((answer as request.Response).body)}`,
      );
    }
  }
}

/** The sandbox's signed webhooks about the booking's links (reference `{id}` or `{id}-…`), in the order they were queued. */
async function webhooksOf(id: number): Promise<{ body: string; eventId: string }[]> {
  const body = sql`${outbox.payload}->>'body'`;
  const hooks = await database.db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(
      and(eq(outbox.jobName, 'payments.sandbox-webhook'), or(sql`${body} like ${`%"reference_id":"${id}"%`}`, sql`${body} like ${`%"reference_id":"${id}-%`}`)),
    )
    .orderBy(outbox.id);
  return hooks.map((h) => h.payload as { body: string; eventId: string });
}

/** The client back from the checkout: the signed query the provider's redirect carried, as the status page sends it. */
const callbackAct = (ref: string | number, query: Record<string, string> | undefined): Act | undefined =>
  query &&
  (() =>
    request(app)
      .get(`/api/get-razorpay-details/${ref}`)
      .query({ payment_status: 'paid', ...query }));

/** Pressing Pay on the link's checkout, keeping the signed callback the provider redirects to. */
const payAct = (linkId: string | undefined, callbacks: Map<string, Record<string, string>>): Act | undefined =>
  linkId === undefined
    ? undefined
    : async () => {
        const res = await request(app).post(`/sandbox/checkout/${linkId}/pay`);
        if (res.status === 303) callbacks.set(linkId, Object.fromEntries(new URL(res.headers.location!).searchParams));
      };

async function prepare(id: number, token: string, txn: string, s: Step, callbacks: Map<string, Record<string, string>>): Promise<Act | undefined> {
  switch (s.kind) {
    case 'client-link':
      return () => request(app).post('/api/payment/generate-link').set('X-Booking-Token', token).send({ booking_id: id });
    case 'shared-link':
      return () =>
        request(app).post('/api/create-shareable-payment-link').set(superDesk()).send({ amount: 1500, booking_id: id, merchant_transaction_id: txn });
    case 'pay':
      return payAct(pick(await linksOf(id), s.which)?.id, callbacks);
    case 'callback': {
      const link = pick(await linksOf(id), s.which);
      return callbackAct(id, link && callbacks.get(link.id));
    }
    case 'webhook': {
      // As the worker would deliver it (a redelivery is the same event).
      const hook = pick(await webhooksOf(id), s.which);
      return hook && (() => deliver(hook.body, hook.eventId));
    }
    case 'reconcile':
      return () => reconcileBooking(deps, id);
    case 'hold-over':
      return async () => {
        await database.db
          .update(bookings)
          .set({ paymentHoldExpiresAt: new Date(clock.now().getTime() - 1000) })
          .where(and(eq(bookings.id, id), eq(bookings.paymentStatus, 'INITIATED')));
        await reconcileBooking(deps, id);
      };
    case 'cancel': {
      // The admin's choice follows what the panel showed: a paid booking is cancelled with a full refund.
      const b = (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
      const body = b.paymentStatus === 'COMPLETED' ? { refund: 'FULL' } : {};
      return () => request(app).post(`/api/admin/bookings/${id}/cancel`).set(superDesk()).send(body);
    }
    case 'stray-refunds':
      return () => runStrayRefunds(id);
    case 'cancel-dies': {
      const b = (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
      return () => {
        const dying = dyingProvider(s.at);
        const cancel = cancelBooking(database.db, id, { adminId: admins.superadmin.id, isSuperadmin: true }, clock.now(), {
          payments: dying.payments,
          refund: b.paymentStatus === 'COMPLETED' ? { refund: 'FULL' } : undefined,
          noticeHours: config.changeNoticeHours,
        });
        // Dead in the provider's call, or done (or refused) without reaching it.
        return Promise.race([dying.reached, cancel.then(ignore, ignore)]);
      };
    }
    case 'stray-refunds-die':
      return () => runStrayRefunds(id, dyingProvider(s.at));
    case 'finish-refunds':
      return finishRefunds;
  }
}

const ignore = () => {};

/** The sandbox in a process that dies during a refund: the call never returns, before or after the provider made the refund. */
function dyingProvider(at: 'before' | 'after'): { payments: PaymentsProvider; reached: Promise<void> } {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const payments: PaymentsProvider = {
    ...deps.payments,
    async refundPayment(input) {
      if (at === 'after') await deps.payments.refundPayment(input);
      reach();
      return new Promise<never>(() => {});
    },
  };
  return { payments, reached };
}

/** The payments.reconcile job's part for refunds left halfway, a few minutes on. */
const finishRefunds = () => finishAbandonedRefunds({ ...deps, now: () => new Date(clock.now().getTime() + 5 * 60_000) });

/** A sandbox webhook, signed, as the worker delivers it. */
const deliver = (body: string, eventId: string) =>
  handlePaymentWebhook(deps, Buffer.from(body), webhookSignature((config.payments as { secret: string }).secret, body), eventId);

/** Every webhook the sandbox queued for the booking's links, in the end: the worker delivers them all, late or not. */
async function deliverAllWebhooks(id: number): Promise<void> {
  for (const h of await webhooksOf(id)) await deliver(h.body, h.eventId);
}

/**
 * The worker's payments.refund-stray jobs for this booking. One that finds another refund of the booking
 * under way fails with a 503, which the worker retries later: here, the next time they run. With a
 * dying process, its first refund never returns.
 */
async function runStrayRefunds(id: number, dying?: { payments: PaymentsProvider; reached: Promise<void> }): Promise<void> {
  const jobs = await database.db.select().from(outbox).where(eq(outbox.jobName, 'payments.refund-stray'));
  for (const j of jobs) {
    const p = j.payload as { bookingId: number; paymentId: string };
    if (p.bookingId !== id) continue;
    const run = refundStrayPayment(dying ? { ...deps, payments: dying.payments } : deps, p.bookingId, p.paymentId).then(ignore, (err: AppError) => {
      if (err.code !== 'unavailable') throw err;
    });
    if (!dying) {
      await run;
      continue;
    }
    await Promise.race([dying.reached, run]);
    return;
  }
}

const byId = <T extends { id: string }>(rows: T[]): T[] => rows.toSorted((a, b) => a.id.localeCompare(b.id));

/**
 * Each paisa the provider moved is in the ledger exactly once: its captures are the provider's captured
 * payments (one row each, for the amount captured), its refunds are the provider's refunds of them (one
 * row each, same payment, same amount). The desk's own rows (provider counter) are not the provider's.
 */
async function expectLedgerIsProvider(ledger: (typeof paymentsLedger.$inferSelect)[], paidLinks: (typeof sandboxPaymentLinks.$inferSelect)[]): Promise<void> {
  const sandbox = ledger.filter((r) => r.provider === 'sandbox');
  expect(byId(sandbox.filter((r) => r.kind === 'capture').map((r) => ({ id: r.paymentId, amountPaise: r.amountPaise })))).toEqual(
    byId(paidLinks.map((l) => ({ id: l.paymentId!, amountPaise: l.amountPaise }))),
  );
  const providerRefunds = await database.db
    .select()
    .from(sandboxRefunds)
    .where(
      inArray(
        sandboxRefunds.paymentId,
        paidLinks.map((l) => l.paymentId!),
      ),
    );
  expect(byId(sandbox.filter((r) => r.kind === 'refund').map((r) => ({ id: r.refundId!, paymentId: r.paymentId, amountPaise: -r.amountPaise })))).toEqual(
    byId(providerRefunds.map((r) => ({ id: r.id, paymentId: r.paymentId, amountPaise: r.amountPaise }))),
  );
}

async function checkInvariants(id: number): Promise<void> {
  // The job runs, in the end: no refund stays halfway, and each cancel it finished is a cancelled booking.
  await finishRefunds();
  const intents = await database.db.select().from(refundIntents).where(eq(refundIntents.bookingId, id));
  expect(intents.filter((i) => i.status === 'OPEN')).toEqual([]);
  const b = (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
  const ledger = await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id));
  const captures = ledger.filter((r) => r.kind === 'capture');
  const refunds = ledger.filter((r) => r.kind === 'refund');
  const paidLinks = (await linksOf(id)).filter((l) => l.status === 'paid');
  if (intents.some((i) => i.status === 'DONE' && i.action.kind === 'admin-cancel')) expect(b.cancelled).toBe(true);

  await expectLedgerIsProvider(ledger, paidLinks);
  const refunded = refunds.reduce((n, r) => n - r.amountPaise, 0);
  const captured = captures.reduce((n, r) => n + r.amountPaise, 0);
  expect(refunded).toBeLessThanOrEqual(captured);
  for (const c of captures) {
    expect(refunds.filter((r) => r.paymentId === c.paymentId).reduce((n, r) => n - r.amountPaise, 0)).toBeLessThanOrEqual(c.amountPaise);
  }
  if (b.paymentStatus === 'COMPLETED' && !b.cancelled) {
    // Shown confirmed: it holds its slot, and its payment is in the ledger, not returned.
    const holders = await database.db.$count(
      bookings,
      and(
        eq(bookings.therapistId, b.therapistId),
        eq(bookings.bookingDate, b.bookingDate),
        eq(bookings.bookingTimeSlotStart, b.bookingTimeSlotStart),
        sql`not cancelled and payment_status not in ('FAILED', 'CANCELLED')`,
      ),
    );
    expect(holders).toBe(1);
    expect(captures.some((c) => c.paymentId === b.razorpayPaymentId)).toBe(true);
    expect(captured - refunded).toBeGreaterThanOrEqual(b.amountPaise);
  } else {
    // Not taking place: once the worker's stray refunds have run, no money is kept.
    await runStrayRefunds(id);
    const after = await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id));
    expect(after.reduce((n, r) => n + r.amountPaise, 0)).toBe(0);
  }
}

describe('payments in any order', () => {
  it('keep money and bookings in agreement', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (moments) => {
        const n = run++;
        const made = await bookFreedSlot(database, app, onlineBooking({ ...nthSlot(n, OFFER_DAYS, ASHA_HOURS), client_email: `interleave${n}@example.com` }));
        const id = made.id;
        const txn = (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!.paymentTransactionId!;
        const callbacks = new Map<string, Record<string, string>>();
        for (const m of moments) await atOnce(m, (s) => prepare(id, made.body.booking_token as string, txn, s, callbacks));
        // The webhooks that were never delivered arrive in the end.
        await deliverAllWebhooks(id);
        await checkInvariants(id);
      }),
      { numRuns: 60, seed: propertySeed('payments in any order') },
    );
  }, 180_000);
});

/**
 * Manual bookings (issue 31) in any order. A manual online booking paid now (a desk method), made
 * unpaid with a payment link sent to the client, or made with the spec's own payload; then a random
 * sequence of moments (one thing or several at once, as above) of what can happen to it: the desk's
 * Send, the creation's send job run (again), a new shareable link closing the older one, payments at
 * the provider, their callbacks and webhooks, the reconciliation, the hold expiry, the staff's cancel,
 * the desk recording a payment, the stray refunds. Then, beside the invariants above:
 * - a booking paid now has its one counter capture, and nothing else is ever taken;
 * - the spec's payload never has a ledger row;
 * - one awaiting its link holds its slot unpaid until it is paid (exactly one payment kept) or cancelled
 *   (nothing kept), never released by a hold running out.
 */
type ManualKind = 'paid-now' | 'link' | 'spec';
type ManualStep =
  | { kind: 'send' }
  | { kind: 'send-job' }
  | { kind: 'shared-link' }
  | { kind: 'pay'; which: 'first' | 'last' }
  | { kind: 'callback'; which: 'first' | 'last' }
  | { kind: 'webhook'; which: 'first' | 'last' }
  | { kind: 'reconcile' }
  | { kind: 'hold-over' }
  | { kind: 'cancel' }
  | { kind: 'desk-pay' }
  | { kind: 'stray-refunds' };

const manualStep = (kind: ManualKind): fc.Arbitrary<ManualStep> =>
  fc.oneof(
    { arbitrary: fc.constant({ kind: 'send' as const }), weight: 2 },
    { arbitrary: fc.constant({ kind: 'send-job' as const }), weight: 2 },
    { arbitrary: fc.constant({ kind: 'shared-link' as const }), weight: 2 },
    { arbitrary: which.map((w) => ({ kind: 'pay' as const, which: w })), weight: 3 },
    { arbitrary: which.map((w) => ({ kind: 'callback' as const, which: w })), weight: 2 },
    { arbitrary: which.map((w) => ({ kind: 'webhook' as const, which: w })), weight: 2 },
    { arbitrary: fc.constant({ kind: 'reconcile' as const }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'hold-over' as const }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'cancel' as const }), weight: 1 },
    // The spec's payload is never paid in these runs: what is checked is that nothing captures it.
    { arbitrary: fc.constant({ kind: 'desk-pay' as const }), weight: kind === 'spec' ? 0 : 1 },
    { arbitrary: fc.constant({ kind: 'stray-refunds' as const }), weight: 1 },
  );

/** A link's three reports at once; the reconciliation is the scheduled job's, over every booking to reconcile. */
const manualReports = which.map((w): ManualStep[] => [{ kind: 'callback', which: w }, { kind: 'webhook', which: w }, { kind: 'reconcile' }]);

/** Ms. Priya Nair (online, 09:00–18:00), inside the admin's 15-day window. */
const MANUAL_HOURS = ['09:00', '10:00', '11:00', '12:00', '15:00', '16:00', '17:00', '18:00'];
const MANUAL_DAYS = OFFER_DAYS.filter((d) => d <= '2026-12-07');
let manualRun = 0;

async function prepareManual(id: number, txn: string, s: ManualStep, callbacks: Map<string, Record<string, string>>): Promise<Act | undefined> {
  switch (s.kind) {
    case 'send':
      return () => request(app).post(`/api/admin/bookings/${id}/send-payment-link`).set(superDesk()).send({});
    case 'send-job':
      return () => sendLinkOfNewBooking(deps, id);
    case 'shared-link':
      return () =>
        request(app).post('/api/create-shareable-payment-link').set(superDesk()).send({ amount: 1200, booking_id: id, merchant_transaction_id: txn });
    case 'pay':
      return payAct(pick(await linksOf(id), s.which)?.id, callbacks);
    case 'callback': {
      const link = pick(await linksOf(id), s.which);
      return link && callbackAct(link.id, callbacks.get(link.id));
    }
    case 'webhook': {
      const hook = pick(await webhooksOf(id), s.which);
      return hook && (() => deliver(hook.body, hook.eventId));
    }
    case 'reconcile':
      return () => reconcileAll(deps);
    case 'hold-over':
      return async () => {
        await expireEndedHolds(deps);
        await reconcileBooking(deps, id);
      };
    case 'cancel':
      // The staff's cancel of an unpaid booking (a paid one needs a refund decision: 409, nothing changes).
      return () => request(app).post(`/api/admin/bookings/${id}/cancel`).set(superDesk()).send({});
    case 'desk-pay':
      return () => request(app).post(`/api/admin/bookings/${id}/record-payment`).set(superDesk()).send({ method: 'CASH' });
    case 'stray-refunds':
      return () => runStrayRefunds(id);
  }
}

async function checkManualInvariants(id: number, kind: ManualKind): Promise<void> {
  const b = (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
  const ledger = await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id));
  const captures = ledger.filter((r) => r.kind === 'capture');
  const paidLinks = (await linksOf(id)).filter((l) => l.status === 'paid');
  // Every payment the provider took or returned is recorded, once; the desk's are its own.
  await expectLedgerIsProvider(ledger, paidLinks);
  const counter = captures.filter((c) => c.provider === 'counter');
  if (kind === 'spec') {
    // Confirmed with nothing recorded (the staff may cancel it; nothing is owed either way).
    expect(ledger).toEqual([]);
    expect(b.paymentStatus).toBe('COMPLETED');
    return;
  }
  if (kind === 'paid-now') {
    expect(counter).toHaveLength(1);
    expect(paidLinks).toEqual([]);
    expect(b).toMatchObject({ paymentStatus: 'COMPLETED', cancelled: false });
  }
  expect(counter.length).toBeLessThanOrEqual(1);
  expect(b.paymentHoldExpiresAt).toBeNull();
  const holders = await database.db.$count(
    bookings,
    and(
      eq(bookings.therapistId, b.therapistId),
      eq(bookings.bookingDate, b.bookingDate),
      eq(bookings.bookingTimeSlotStart, b.bookingTimeSlotStart),
      sql`not cancelled and payment_status not in ('FAILED', 'CANCELLED')`,
    ),
  );
  await runStrayRefunds(id);
  const after = await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id));
  const kept = after.reduce((n, r) => n + r.amountPaise, 0);
  if (b.cancelled) {
    // Staff cancelled it unpaid: whatever was paid after comes back.
    expect(kept).toBe(0);
    expect(holders).toBe(0);
    return;
  }
  // Never released: it holds its slot, paid or not.
  expect(holders).toBe(1);
  if (b.paymentStatus === 'PENDING') {
    expect(captures).toEqual([]);
    return;
  }
  expect(b.paymentStatus).toBe('COMPLETED');
  // Paid exactly once: one payment kept in full, any other returned.
  expect(kept).toBe(b.amountPaise);
  const keptPayments = after.filter((r) => r.kind === 'capture' && after.filter((x) => x.paymentId === r.paymentId).reduce((n, x) => n + x.amountPaise, 0) > 0);
  expect(keptPayments).toHaveLength(1);
}

describe('manual bookings in any order', () => {
  it('a payment recorded exactly once when money was taken, never for the spec payload', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .oneof(
            { arbitrary: fc.constant<ManualKind>('link'), weight: 4 },
            { arbitrary: fc.constant<ManualKind>('paid-now'), weight: 1 },
            { arbitrary: fc.constant<ManualKind>('spec'), weight: 1 },
          )
          .chain((kind) => fc.record({ kind: fc.constant(kind), moments: fc.array(moment(manualStep(kind), manualReports), { minLength: 3, maxLength: 12 }) })),
        async ({ kind, moments }) => {
          const n = manualRun++;
          const date = MANUAL_DAYS[Math.floor(n / MANUAL_HOURS.length) % MANUAL_DAYS.length]!;
          const time = MANUAL_HOURS[n % MANUAL_HOURS.length]!;
          await database.db
            .update(bookings)
            .set({ cancelled: true })
            .where(and(eq(bookings.therapistId, 2), eq(bookings.bookingDate, date), eq(bookings.bookingTimeSlotStart, time)));
          const made = await request(app)
            .post('/confirm-booking')
            .set(superDesk())
            .send({
              therapist_id: 2,
              booking_date: date,
              booking_time_slot_start: time,
              client_full_name: 'Desk Client',
              client_email: `desk${n}@example.com`,
              client_mobile: '9123456780',
              booking_type: 'ONLINE',
              location_id: 0,
              amount: 1200,
              admin_confirmed: true,
              ...(kind === 'link' ? { payment_status: 'PENDING' } : { payment_status: 'COMPLETED' }),
              ...(kind === 'paid-now' ? { payment_method: 'UPI' } : {}),
            })
            .expect(200);
          const id = made.body.booking_id as number;
          const txn = (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!.paymentTransactionId!;
          const callbacks = new Map<string, Record<string, string>>();
          for (const m of moments) await atOnce(m, (s) => prepareManual(id, txn, s, callbacks));
          await deliverAllWebhooks(id);
          await checkManualInvariants(id, kind);
        },
      ),
      { numRuns: 60, seed: propertySeed('manual bookings in any order') },
    );
  }, 180_000);
});
