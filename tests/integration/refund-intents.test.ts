/**
 * Issue 32, section 1: no transaction is held open across a call to the payments provider. A refund
 * is an intent written first (the booking locked, its rules checked, committed), then the provider's
 * call with nothing held, then the result recorded and the caller's change applied in a second short
 * transaction; a process that stops in between leaves the intent open and the payments.reconcile job
 * finishes it, once.
 *
 * Every caller of a refund is checked: an admin's cancel, the client's cancel (Manage booking), the
 * owner approving a refund request, and the worker's refund of a stray payment.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import {
  auditLog,
  bookings,
  outbox,
  paymentDiscrepancies,
  paymentsLedger,
  refundIntents,
  refundRequests,
  sandboxRefunds,
} from '../../shared/core/db/schema.ts';
import { AppError } from '../../shared/core/errors.ts';
import type { JobsClient } from '../../shared/core/jobs/queues.ts';
import { createLogger } from '../../shared/core/logger.ts';
import type { PaymentsProvider, ProviderRefund, RefundInput } from '../../shared/core/providers/payments/payments.provider.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { recordCapture, recordRefund } from '../../shared/core/repositories/ledger.repository.ts';
import { setManageHashIfMissing } from '../../shared/core/repositories/manage.repository.ts';
import { cancelBooking } from '../../shared/core/services/admin-booking.service.ts';
import { manageTokenFor } from '../../shared/core/services/booking-token.ts';
import { reconcileLedger } from '../../shared/core/services/ledger-reconcile.service.ts';
import { cancelManagedBooking } from '../../shared/core/services/manage.service.ts';
import { refundStrayPayment, type PaymentDeps } from '../../shared/core/services/payment.service.ts';
import { finishAbandonedRefunds } from '../../shared/core/services/refund-recovery.service.ts';
import { approveRefundRequest } from '../../shared/core/services/refund-request.service.ts';
import { reconcilePaymentsJob } from '../../worker/src/handlers/reconcile-payments.job.ts';
import type { WorkerDeps } from '../../worker/src/handlers/handler.ts';
import { bearer, tokenFor, type Admins } from '../support/admin.ts';
import { testApp } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, onlineBooking } from '../support/factories.ts';
import { paymentsTestAppPerFile } from '../support/payments-app.ts';

let database: TestDatabase, config: Config, sandbox: SandboxPayments, admins: Admins, app: Express, deps: PaymentDeps, jobs: JobsClient;
const clock = paymentsTestAppPerFile(MONDAY_MORNING_IST, (made) => ({ database, config, payments: sandbox, admins, app, deps, jobs } = made));
beforeEach(() => clock.set(MONDAY_MORNING_IST));

const logger = createLogger({ level: 'silent' });
const desk = () => bearer(tokenFor(admins.admin, clock.now()));
const boss = () => bearer(tokenFor(admins.superadmin, clock.now()));
const row = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const ledgerOf = (id: number) => database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id)).orderBy(paymentsLedger.id);
const refundsOf = async (id: number) => (await ledgerOf(id)).filter((l) => l.kind === 'refund');
const intentsOf = (id: number) => database.db.select().from(refundIntents).where(eq(refundIntents.bookingId, id)).orderBy(refundIntents.id);
const providerRefunds = (paymentId: string) => database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, paymentId));
const auditsOf = (id: number, action: string) =>
  database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, String(id)), eq(auditLog.action, action)));
/** The outbox's jobs of this name for the booking: each is one e-mail (or calendar update) the worker sends. */
const jobsOf = async (id: number, jobName: string) =>
  (await database.db.select().from(outbox).where(eq(outbox.jobName, jobName))).filter((o) => (o.payload as { bookingId?: number }).bookingId === id);
/** The payments.reconcile job's run, a few minutes after the request (the job takes intents open for over a minute). */
const reconcileLater = () => finishAbandonedRefunds({ ...deps, now: () => new Date(clock.now().getTime() + 5 * 60_000) });

let n = 0;
const HOURS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
const DAYS = ['2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-30', '2026-12-01', '2026-12-02'];

/** A booking of Dr. Asha Mehta paid online through the sandbox, confirmed, with its client's Manage booking token. */
async function paidOnline(): Promise<{ id: number; paymentId: string; token: string }> {
  const i = n++;
  const made = await request(app)
    .post('/confirm-booking')
    .send(
      onlineBooking({
        booking_date: DAYS[Math.floor(i / HOURS.length)],
        booking_time_slot_start: HOURS[i % HOURS.length],
        client_email: `intent${i}@example.com`,
      }),
    )
    .expect(200);
  const id = made.body.booking_id as number;
  const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', made.body.booking_token).send({ booking_id: id }).expect(200);
  const paid = await request(app).post(`/sandbox/checkout/${link.body.payment_link_id}/pay`).expect(303);
  const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
  await request(app)
    .get(`/api/get-razorpay-details/${id}`)
    .query({ payment_status: 'paid', ...q })
    .expect(200);
  expect((await row(id)).paymentStatus).toBe('COMPLETED');
  const { token, hash } = manageTokenFor(config.jwtSecret, id);
  await setManageHashIfMissing(database.db, id, hash);
  return { id, paymentId: q.razorpay_payment_id!, token };
}

/** A paid booking a receptionist cancelled with a refund request for the owner: answers the request's id. */
async function awaitingReview(): Promise<{ id: number; paymentId: string; requestId: number }> {
  const b = await paidOnline();
  await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk()).send({ refund: 'REQUEST', reason: 'Client is unwell' }).expect(200);
  const [review] = await database.db
    .select()
    .from(refundRequests)
    .where(and(eq(refundRequests.bookingId, b.id), eq(refundRequests.kind, 'REVIEW')));
  return { ...b, requestId: review!.id };
}

/** A paid booking whose slot was cancelled by the centre first, then paid again: its second payment is stray. */
async function strayPayment(): Promise<{ id: number; paymentId: string }> {
  const b = await paidOnline();
  // The booking's payment goes back with its cancel; a second payment then arrives for it (a stale link, say).
  await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(boss()).send({ refund: 'FULL' }).expect(200);
  const link = await sandbox.createPaymentLink({
    referenceId: `${b.id}-again`,
    amountPaise: 150_000,
    description: 'stale link',
    customer: { name: 'Client', email: 'c@example.com', contact: '+919000000000' },
    callbackUrl: 'http://127.0.0.1:9/payment-status',
    expireBy: new Date(clock.now().getTime() + 20 * 60_000),
  });
  await sandbox.pay(link.id);
  const paymentId = (await sandbox.getLink(link.id))!.paymentId!;
  await recordCapture(database.db, {
    bookingId: b.id,
    provider: 'sandbox',
    paymentId,
    linkId: link.id,
    amountPaise: 150_000,
    method: 'CARD',
    occurredAt: clock.now(),
  });
  return { id: b.id, paymentId };
}

/** What another session sees of the database while the provider is being asked. */
type Seen = { idleInTransaction: number; bookingLockFree: boolean };

/**
 * The sandbox, watched: while each refund call runs, another connection looks for a session of this
 * database sitting idle inside a transaction, and tries to lock the booking's row without waiting.
 */
function watchedProvider(bookingId: () => number): { payments: PaymentsProvider; seen: Seen[] } {
  const seen: Seen[] = [];
  const payments: PaymentsProvider = {
    ...sandbox,
    async refundPayment(input: RefundInput): Promise<ProviderRefund> {
      const idle = await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%' and pid <> pg_backend_pid()`,
      );
      let bookingLockFree = true;
      try {
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`select id from bookings where id = ${bookingId()} for update nowait`);
        });
      } catch {
        bookingLockFree = false;
      }
      seen.push({ idleInTransaction: idle.rows[0]!.n, bookingLockFree });
      return sandbox.refundPayment(input);
    },
  };
  return { payments, seen };
}

/**
 * The sandbox, for a process that dies during the refund: its call never returns, either before the
 * provider is reached ('before') or after the provider made the refund ('after'). `reached` resolves
 * once the call is under way (and, 'after', the refund made).
 */
function dyingProvider(crash: 'before' | 'after'): { payments: PaymentsProvider; reached: Promise<void> } {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const payments: PaymentsProvider = {
    ...sandbox,
    async refundPayment(input: RefundInput): Promise<ProviderRefund> {
      if (crash === 'after') await sandbox.refundPayment(input);
      reach();
      return new Promise<ProviderRefund>(() => {});
    },
  };
  return { payments, reached };
}

/** The sandbox behind a gate: the refund is made, and its answer held back until `open()`. */
function slowProvider(): { payments: PaymentsProvider; reached: Promise<void>; open: () => void } {
  let reach!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const gate = new Promise<void>((resolve) => (open = resolve));
  const payments: PaymentsProvider = {
    ...sandbox,
    async refundPayment(input: RefundInput): Promise<ProviderRefund> {
      const refund = await sandbox.refundPayment(input);
      reach();
      await gate;
      return refund;
    },
  };
  return { payments, reached, open };
}

/** A provider that answers every refund with `answer` (a failed refund, or an error). */
function refusingProvider(answer: 'failed' | Error): PaymentsProvider & { calls: RefundInput[] } {
  const calls: RefundInput[] = [];
  return {
    ...sandbox,
    calls,
    async refundPayment(input: RefundInput): Promise<ProviderRefund> {
      calls.push(input);
      if (answer instanceof Error) throw answer;
      return { id: 'rfnd_Failed000000001', paymentId: input.paymentId, amountPaise: input.amountPaise, status: 'failed' };
    },
  };
}

const superAdmin = () => ({ adminId: admins.superadmin.id, isSuperadmin: true });
const noticeHours = () => config.changeNoticeHours;
const manageDeps = (payments: PaymentsProvider) => ({ db: database.db, config, payments, logger, now: clock.now });

describe('no transaction is open while the provider refunds', () => {
  it("an admin's cancel: the booking's row is free and no session waits inside a transaction", async () => {
    const b = await paidOnline();
    const watched = watchedProvider(() => b.id);
    const watchedApp = testApp(database, { config, now: clock.now, payments: watched.payments, jobs });
    const res = await request(watchedApp).post(`/api/admin/bookings/${b.id}/cancel`).set(boss()).send({ refund: 'FULL' }).expect(200);
    expect(res.body.refund).toEqual({ status: 'processed', amount: 1500 });
    expect(watched.seen).toEqual([{ idleInTransaction: 0, bookingLockFree: true }]);
    expect(await refundsOf(b.id)).toHaveLength(1);
    expect((await row(b.id)).cancelled).toBe(true);
  });

  it("the client's cancel on Manage booking", async () => {
    const b = await paidOnline();
    const watched = watchedProvider(() => b.id);
    const watchedApp = testApp(database, { config, now: clock.now, payments: watched.payments, jobs });
    await request(watchedApp).post(`/api/manage/${b.token}/cancel`).expect(200);
    expect(watched.seen).toEqual([{ idleInTransaction: 0, bookingLockFree: true }]);
    expect(await refundsOf(b.id)).toHaveLength(1);
    expect((await row(b.id)).cancelled).toBe(true);
  });

  it("the owner's approval of a refund request", async () => {
    const b = await awaitingReview();
    const watched = watchedProvider(() => b.id);
    const watchedApp = testApp(database, { config, now: clock.now, payments: watched.payments, jobs });
    await request(watchedApp).post(`/api/admin/refund-requests/${b.requestId}/approve`).set(boss()).send({ refund: 'FULL' }).expect(200);
    expect(watched.seen).toEqual([{ idleInTransaction: 0, bookingLockFree: true }]);
    expect(await refundsOf(b.id)).toHaveLength(1);
  });

  it("the worker's refund of a stray payment", async () => {
    const s = await strayPayment();
    const watched = watchedProvider(() => s.id);
    expect(await refundStrayPayment({ ...deps, payments: watched.payments }, s.id, s.paymentId)).toBe('refunded');
    expect(watched.seen).toEqual([{ idleInTransaction: 0, bookingLockFree: true }]);
    expect((await refundsOf(s.id)).filter((r) => r.paymentId === s.paymentId)).toHaveLength(1);
  });
});

describe('a process that stops between the provider and the record: the payments.reconcile job finishes it once', () => {
  it("an admin's cancel: the refund recorded once, the booking cancelled as asked, one e-mail, one audit entry", async () => {
    const b = await paidOnline();
    const dying = dyingProvider('after');
    void cancelBooking(database.db, b.id, superAdmin(), clock.now(), {
      payments: dying.payments,
      logger,
      refund: { refund: 'FULL' },
      noticeHours: noticeHours(),
    });
    await dying.reached;
    // The provider refunded; nothing else happened: the booking stands, the ledger has no refund, the intent is open.
    expect(await providerRefunds(b.paymentId)).toEqual([expect.objectContaining({ amountPaise: 150_000, idempotencyKey: `cancel-${b.id}-${b.paymentId}` })]);
    expect((await row(b.id)).cancelled).toBe(false);
    expect(await refundsOf(b.id)).toEqual([]);
    expect(await intentsOf(b.id)).toEqual([
      expect.objectContaining({
        status: 'OPEN',
        amountPaise: 150_000,
        requestedBy: `admin:${admins.superadmin.id}`,
        action: expect.objectContaining({ kind: 'admin-cancel' }),
      }),
    ]);
    // Another cancel meanwhile (the admin presses again): one cancel is under way.
    const again = await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(boss()).send({ refund: 'FULL' }).expect(409);
    expect(again.body.detail).toBe(`Booking ${b.id} is already cancelled.`);
    // The hourly reconciliation leaves it to the intent: nothing recorded, nothing reported.
    const recon = await reconcileLedger(deps);
    expect(recon.recordedRefunds).toBe(0);
    expect(await database.db.select().from(paymentDiscrepancies).where(eq(paymentDiscrepancies.bookingId, b.id))).toEqual([]);
    // Within the minute the job leaves it (the request may still be waiting for the provider).
    expect(await finishAbandonedRefunds(deps)).toEqual({ done: 0, failed: 0, open: 0, noop: 0 });

    expect(await reconcileLater()).toEqual({ done: 1, failed: 0, open: 0, noop: 0 });
    expect(await row(b.id)).toMatchObject({ cancelled: true, paymentStatus: 'COMPLETED' });
    const [provider] = await providerRefunds(b.paymentId);
    expect(await refundsOf(b.id)).toEqual([
      expect.objectContaining({
        provider: 'sandbox',
        paymentId: b.paymentId,
        refundId: provider!.id,
        amountPaise: -150_000,
        recordedByAdminId: admins.superadmin.id,
      }),
    ]);
    expect(await intentsOf(b.id)).toEqual([
      expect.objectContaining({ status: 'DONE', parts: [expect.objectContaining({ refundId: provider!.id, status: 'processed' })] }),
    ]);
    expect(await jobsOf(b.id, 'mail.booking-money')).toHaveLength(1);
    const audits = await auditsOf(b.id, 'booking.cancel');
    expect(audits).toHaveLength(1);
    expect(audits[0]!.after).toMatchObject({ cancelled: true, refund: { choice: 'FULL', amount: 1500 } });
    // Once: the job again, and the reconciliation, change nothing.
    expect(await reconcileLater()).toEqual({ done: 0, failed: 0, open: 0, noop: 0 });
    expect((await reconcileLedger(deps)).recordedRefunds).toBe(0);
    expect(await refundsOf(b.id)).toHaveLength(1);
    expect(await providerRefunds(b.paymentId)).toHaveLength(1);
  });

  it("the client's cancel, stopped before the provider was reached: the job makes the refund and cancels, once", async () => {
    const b = await paidOnline();
    const dying = dyingProvider('before');
    void cancelManagedBooking(manageDeps(dying.payments), b.token);
    await dying.reached;
    expect(await providerRefunds(b.paymentId)).toEqual([]);
    expect((await row(b.id)).cancelled).toBe(false);
    // Pressing Cancel again meanwhile is answered as for a cancelled booking.
    const again = await request(app).post(`/api/manage/${b.token}/cancel`).expect(409);
    expect(again.body.detail).toContain('This booking has been cancelled.');

    // Through the worker's job handler, as the scheduler runs it.
    const later = { ...deps, now: () => new Date(clock.now().getTime() + 5 * 60_000) } as unknown as WorkerDeps;
    const result = (await reconcilePaymentsJob({}, later, undefined as never)) as { refunds: unknown };
    expect(result.refunds).toEqual({ done: 1, failed: 0, open: 0, noop: 0 });
    expect(await providerRefunds(b.paymentId)).toEqual([expect.objectContaining({ idempotencyKey: `client-cancel-${b.id}-${b.paymentId}` })]);
    expect(await refundsOf(b.id)).toEqual([expect.objectContaining({ amountPaise: -150_000, reason: 'Cancelled by the client' })]);
    expect((await row(b.id)).cancelled).toBe(true);
    expect(await auditsOf(b.id, 'booking.client_cancel')).toHaveLength(1);
    expect((await jobsOf(b.id, 'mail.booking-changed')).map((j) => (j.payload as { recipient: string }).recipient).sort()).toEqual(['client', 'therapist']);
  });

  it("the owner's approval: the request approved once, the client told once", async () => {
    const b = await awaitingReview();
    const dying = dyingProvider('after');
    void approveRefundRequest(database.db, b.requestId, { refund: 'PARTIAL', amount: 500 }, { adminId: admins.superadmin.id }, clock.now(), {
      payments: dying.payments,
      logger,
    });
    await dying.reached;
    expect((await database.db.select().from(refundRequests).where(eq(refundRequests.id, b.requestId)))[0]!.status).toBe('OPEN');
    // A second decision waits for the first.
    const again = await request(app).post(`/api/admin/refund-requests/${b.requestId}/decline`).set(boss()).send({ reason: 'No' }).expect(409);
    expect(again.body.detail).toBe(`Refund request ${b.requestId} has already been approved; nothing was changed.`);

    expect(await reconcileLater()).toMatchObject({ done: 1 });
    expect((await database.db.select().from(refundRequests).where(eq(refundRequests.id, b.requestId)))[0]).toMatchObject({
      status: 'APPROVED',
      resolvedByAdminId: admins.superadmin.id,
      resolutionNote: 'Partial refund. ₹500.00 refunded.',
    });
    expect(await refundsOf(b.id)).toEqual([expect.objectContaining({ amountPaise: -50_000, reason: 'Client is unwell' })]);
    expect((await jobsOf(b.id, 'mail.booking-money')).filter((j) => j.jobId === `mail-refund-review.${b.requestId}`)).toHaveLength(1);
  });

  it("the worker's stray refund: recorded once, the client told once; the job's retry meanwhile waits", async () => {
    const s = await strayPayment();
    const dying = dyingProvider('after');
    void refundStrayPayment({ ...deps, payments: dying.payments }, s.id, s.paymentId);
    await dying.reached;
    // BullMQ retries the stray job: the refund under way makes it wait (a 503, retried), not refund again.
    await expect(refundStrayPayment(deps, s.id, s.paymentId)).rejects.toMatchObject({ code: 'unavailable' });
    expect(await reconcileLater()).toMatchObject({ done: 1 });
    expect(await refundStrayPayment(deps, s.id, s.paymentId)).toBe('noop');
    expect((await refundsOf(s.id)).filter((r) => r.paymentId === s.paymentId)).toHaveLength(1);
    expect(await providerRefunds(s.paymentId)).toHaveLength(1);
    expect((await jobsOf(s.id, 'mail.booking-money')).filter((j) => j.jobId === `mail-refund.${s.paymentId}`)).toHaveLength(1);
  });

  it('a refund already in the ledger when the job comes (recorded by another path): the unique index keeps one row; the intent is closed and the cancel applied', async () => {
    const b = await paidOnline();
    const dying = dyingProvider('after');
    void cancelBooking(database.db, b.id, superAdmin(), clock.now(), {
      payments: dying.payments,
      logger,
      refund: { refund: 'FULL' },
      noticeHours: noticeHours(),
    });
    await dying.reached;
    const [provider] = await providerRefunds(b.paymentId);
    await recordRefund(database.db, {
      bookingId: b.id,
      provider: 'sandbox',
      paymentId: b.paymentId,
      refundId: provider!.id,
      amountPaise: 150_000,
      reason: 'Recorded elsewhere',
      occurredAt: clock.now(),
    });
    expect(await reconcileLater()).toMatchObject({ done: 1 });
    expect(await refundsOf(b.id)).toEqual([expect.objectContaining({ refundId: provider!.id, reason: 'Recorded elsewhere' })]);
    expect((await intentsOf(b.id))[0]!.status).toBe('DONE');
    expect((await row(b.id)).cancelled).toBe(true);
    expect(await auditsOf(b.id, 'booking.cancel')).toHaveLength(1);
  });

  it('the job and a request that was only slow both finish it: one refund, one cancel, and the request answers the same', async () => {
    const b = await paidOnline();
    const slow = slowProvider();
    const pending = cancelBooking(database.db, b.id, superAdmin(), clock.now(), {
      payments: slow.payments,
      logger,
      refund: { refund: 'FULL' },
      noticeHours: noticeHours(),
    });
    await slow.reached;
    expect(await reconcileLater()).toMatchObject({ done: 1 });
    slow.open();
    expect(await pending).toEqual({
      booking_id: b.id,
      cancelled: true,
      unblocked: false,
      message: `Booking ${b.id} cancelled successfully. ₹1,500.00 refunded.`,
      refund: { status: 'processed', amount: 1500 },
    });
    expect(await refundsOf(b.id)).toHaveLength(1);
    expect(await auditsOf(b.id, 'booking.cancel')).toHaveLength(1);
    expect(await jobsOf(b.id, 'mail.booking-money')).toHaveLength(1);
  });
});

describe('a refused refund changes nothing; a retry is the same refund', () => {
  it("an admin's cancel the provider refuses: 502, the booking stands, the intent failed; the retry refunds once", async () => {
    const b = await paidOnline();
    const refusing = refusingProvider('failed');
    const refusingApp = testApp(database, { config, now: clock.now, payments: refusing, jobs });
    const res = await request(refusingApp).post(`/api/admin/bookings/${b.id}/cancel`).set(boss()).send({ refund: 'FULL' }).expect(502);
    expect(res.body.detail).toBe(`The payment provider could not refund payment ${b.paymentId}. Please try again.`);
    expect(await row(b.id)).toMatchObject({ cancelled: false, paymentStatus: 'COMPLETED' });
    expect(await refundsOf(b.id)).toEqual([]);
    expect(await auditsOf(b.id, 'booking.cancel')).toEqual([]);
    expect(await jobsOf(b.id, 'mail.booking-money')).toEqual([]);
    expect(await intentsOf(b.id)).toEqual([expect.objectContaining({ status: 'FAILED', failure: res.body.detail })]);

    // A provider that cannot be reached: the same (its error is the answer), and nothing changes.
    const down = refusingProvider(new AppError('bad_gateway', 'Razorpay: socket hang up (no status)'));
    await request(testApp(database, { config, now: clock.now, payments: down, jobs }))
      .post(`/api/admin/bookings/${b.id}/cancel`)
      .set(boss())
      .send({ refund: 'FULL' })
      .expect(502);
    expect((await row(b.id)).cancelled).toBe(false);
    expect((await intentsOf(b.id)).map((i) => i.status)).toEqual(['FAILED', 'FAILED']);

    // The retry, under the same key as the attempts before it.
    await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(boss()).send({ refund: 'FULL' }).expect(200);
    expect(refusing.calls.map((c) => c.idempotencyKey)).toEqual([`cancel-${b.id}-${b.paymentId}`]);
    expect(down.calls.map((c) => c.idempotencyKey)).toEqual([`cancel-${b.id}-${b.paymentId}`]);
    expect(await providerRefunds(b.paymentId)).toEqual([expect.objectContaining({ idempotencyKey: `cancel-${b.id}-${b.paymentId}` })]);
    expect(await refundsOf(b.id)).toHaveLength(1);
    expect((await intentsOf(b.id)).map((i) => i.status)).toEqual(['FAILED', 'FAILED', 'DONE']);
    expect(await reconcileLater()).toEqual({ done: 0, failed: 0, open: 0, noop: 0 });
  });

  it('an intent left open that the provider then refuses: closed as failed by the job, nothing applied; one it cannot reach stays open for the next run', async () => {
    const b = await paidOnline();
    const dying = dyingProvider('before');
    void cancelManagedBooking(manageDeps(dying.payments), b.token);
    await dying.reached;
    const later = (payments: PaymentsProvider) => ({ ...deps, payments, now: () => new Date(clock.now().getTime() + 5 * 60_000) });

    const down = refusingProvider(new AppError('bad_gateway', 'Razorpay: upstream timeout (504)'));
    expect(await finishAbandonedRefunds(later(down))).toEqual({ done: 0, failed: 0, open: 1, noop: 0 });
    expect((await intentsOf(b.id))[0]!.status).toBe('OPEN');

    const refusing = refusingProvider('failed');
    expect(await finishAbandonedRefunds(later(refusing))).toEqual({ done: 0, failed: 1, open: 0, noop: 0 });
    expect(await intentsOf(b.id)).toEqual([
      expect.objectContaining({ status: 'FAILED', failure: `The payment provider could not refund payment ${b.paymentId}. Please try again.` }),
    ]);
    expect((await row(b.id)).cancelled).toBe(false);
    expect(await refundsOf(b.id)).toEqual([]);
    expect(await jobsOf(b.id, 'mail.booking-changed')).toEqual([]);
    expect(await auditsOf(b.id, 'booking.client_cancel')).toEqual([]);
    // The client may cancel again, and it goes through.
    await request(app).post(`/api/manage/${b.token}/cancel`).expect(200);
    expect(await refundsOf(b.id)).toHaveLength(1);
  });
});

describe('two requests at once', () => {
  it('a double click on cancel: the first refunds and cancels, the second is 409 while the provider still answers', async () => {
    const b = await paidOnline();
    const slow = slowProvider();
    const slowApp = testApp(database, { config, now: clock.now, payments: slow.payments, jobs });
    const first = request(slowApp)
      .post(`/api/admin/bookings/${b.id}/cancel`)
      .set(boss())
      .send({ refund: 'FULL' })
      .then((r) => r);
    await slow.reached;
    const second = await request(slowApp).post(`/api/admin/bookings/${b.id}/cancel`).set(boss()).send({ refund: 'FULL' }).expect(409);
    expect(second.body.detail).toBe(`Booking ${b.id} is already cancelled.`);
    // The client's cancel and a move of the session wait too.
    const client = await request(slowApp).post(`/api/manage/${b.token}/cancel`).expect(409);
    expect(client.body.detail).toContain('This booking has been cancelled.');
    slow.open();
    expect((await first).status).toBe(200);
    expect(await refundsOf(b.id)).toHaveLength(1);
    expect(await providerRefunds(b.paymentId)).toHaveLength(1);
    expect(await auditsOf(b.id, 'booking.cancel')).toHaveLength(1);
  });
});
