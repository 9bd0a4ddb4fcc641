import { and, eq, inArray } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import {
  auditLog,
  bookings,
  outbox,
  paymentDiscrepancies,
  paymentLinks,
  paymentsLedger,
  sandboxPaymentLinks,
  sandboxRefunds,
} from '../../shared/core/db/schema.ts';
import { AppError } from '../../shared/core/errors.ts';
import type { JobsClient } from '../../shared/core/jobs/queues.ts';
import { createLogger } from '../../shared/core/logger.ts';
import type { PaymentsProvider } from '../../shared/core/providers/payments/payments.provider.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { recordCapture, recordRefund } from '../../shared/core/repositories/ledger.repository.ts';
import { PROVIDER_REFUND_REASON, reconcileLedger, RESOLVED_AGREE_AGAIN, RESOLVED_BY_RECORDING } from '../../shared/core/services/ledger-reconcile.service.ts';
import { reconcileAll, refundStrayPayment, type PaymentDeps } from '../../shared/core/services/payment.service.ts';
import { LEDGER_RECONCILE_PATTERN } from '../../worker/src/worker.ts';
import { bearer, tokenFor, type Admins } from '../support/admin.ts';
import { testApp } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, onlineBooking } from '../support/factories.ts';
import { configFor, dropQueues, startTestWorker, testPrefix, waitFor } from '../support/jobs.ts';
import { bookWithLink, paymentsTestAppPerFile } from '../support/payments-app.ts';

/**
 * Ledger reconciliation (issue 18): the ledger against the provider (the sandbox) for the last 7 days,
 * every disagreement on the super admin's "Payments needing attention" list and in the audit log.
 */
let database: TestDatabase, config: Config, payments: SandboxPayments, admins: Admins, app: Express, deps: PaymentDeps, jobs: JobsClient;
const clock = paymentsTestAppPerFile(MONDAY_MORNING_IST, (made) => ({ database, config, payments, admins, app, deps, jobs } = made));

const desk = () => bearer(tokenFor(admins.admin, clock.now()));
const superDesk = () => bearer(tokenFor(admins.superadmin, clock.now()));
const row = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const ledgerOf = (id: number) => database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id)).orderBy(paymentsLedger.id);
const issuesOf = (paymentIds: string[]) =>
  database.db.select().from(paymentDiscrepancies).where(inArray(paymentDiscrepancies.paymentId, paymentIds)).orderBy(paymentDiscrepancies.id);
const auditOf = (issueIds: number[]) =>
  database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'payment_discrepancy'), inArray(auditLog.entityId, issueIds.map(String))))
    .orderBy(auditLog.id);
const attention = async () => (await request(app).get('/api/admin/payments/attention').set(superDesk()).expect(200)).body;

let n = 0;
const HOURS = ['10:00', '11:00', '12:00', '14:00', '15:00', '16:00', '17:00'];
/** An online booking of Dr. Asha Mehta with its payment link, each on a slot of its own. */
async function bookedWithLink(): Promise<{ id: number; linkId: string }> {
  const i = n++;
  return bookWithLink(
    app,
    onlineBooking({
      booking_date: `2026-11-${24 + Math.floor(i / HOURS.length)}`,
      booking_time_slot_start: HOURS[i % HOURS.length],
      client_email: `recon${i}@example.com`,
    }),
  );
}

/** A booking paid through the sandbox checkout and confirmed by the client's signed return. */
async function paidBooking(): Promise<{ id: number; paymentId: string }> {
  const { id, linkId } = await bookedWithLink();
  const paid = await request(app).post(`/sandbox/checkout/${linkId}/pay`).expect(303);
  const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
  await request(app)
    .get(`/api/get-razorpay-details/${id}`)
    .query({ payment_status: 'paid', ...q })
    .expect(200);
  expect((await row(id)).paymentStatus).toBe('COMPLETED');
  return { id, paymentId: q.razorpay_payment_id! };
}

/** Paid at the provider and nothing more: the client never came back and the queued webhook is never delivered. */
async function paidSilently(linkId: string): Promise<string> {
  await payments.pay(linkId);
  return (await payments.getLink(linkId))!.paymentId!;
}

let refunds = 0;
/** A refund made straight at the provider (its dashboard), which the app never hears of. */
async function refundAtProvider(paymentId: string, amountPaise: number): Promise<string> {
  const id = `rfnd_Dashboard${String(refunds++).padStart(5, '0')}`;
  await database.db
    .insert(sandboxRefunds)
    .values({ id, paymentId, amountPaise, idempotencyKey: `dashboard-${id}`, status: 'processed', createdAt: clock.now() });
  return id;
}

describe('ledger reconciliation', () => {
  it('finds a payment on a superseded link whose return and webhook were lost, records it, and the cancelled booking gets its money back', async () => {
    const { id, linkId: first } = await bookedWithLink();
    // The provider cannot be reached when the new link is made, so the first link stays open.
    const unreachable: PaymentsProvider = { ...payments, cancelPaymentLink: async () => Promise.reject(new AppError('bad_gateway', 'Razorpay: down (503)')) };
    const flakyApp = testApp(database, { config, now: clock.now, payments: unreachable, jobs });
    const txn = (await row(id)).paymentTransactionId!;
    const made = await request(flakyApp)
      .post('/api/create-shareable-payment-link')
      .set(desk())
      .send({ amount: 1500, booking_id: id, merchant_transaction_id: txn })
      .expect(200);
    const second = new URL(made.body.payment_link_url).pathname.split('/').pop()!;
    expect((await row(id)).razorpayPaymentLinkId).toBe(second);
    // The client pays the first link; then the centre cancels the (as it believes) unpaid booking.
    const paymentId = await paidSilently(first);
    await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk()).expect(200);
    // The five-minute reconciliation asks only about the booking's current link: it cannot see this payment.
    await reconcileAll(deps);
    expect(await ledgerOf(id)).toEqual([]);

    const report = await reconcileLedger(deps);
    expect(report).toMatchObject({ recordedCaptures: 1, detected: 1, errors: 0 });
    expect(await ledgerOf(id)).toEqual([
      expect.objectContaining({ kind: 'capture', provider: 'sandbox', paymentId, linkId: first, amountPaise: 150_000, method: 'CARD' }),
    ]);
    // The booking stays cancelled, never confirmed, and its money goes back through the usual stray-payment job.
    expect(await row(id)).toMatchObject({ cancelled: true });
    expect((await row(id)).paymentStatus).not.toBe('COMPLETED');
    const [job] = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.jobId, `refund-stray.${paymentId}`));
    expect(job).toMatchObject({ jobName: 'payments.refund-stray', payload: { bookingId: id, paymentId } });
    expect(await refundStrayPayment(deps, id, paymentId)).toBe('refunded');
    expect((await ledgerOf(id)).map((r) => [r.kind, r.amountPaise])).toEqual([
      ['capture', 150_000],
      ['refund', -150_000],
    ]);
    const listed = (await request(app).get('/api/admin/bookings').set(desk()).expect(200)).body.find((b: { id: number }) => b.id === id);
    expect(listed.payment_note).toBe('Paid after cancellation — refunded');

    // On the list as resolved at once, with the booking it belongs to.
    const list = await attention();
    expect(list.open.find((i: { payment_id: string }) => i.payment_id === paymentId)).toBeUndefined();
    const item = list.recently_resolved.find((i: { payment_id: string }) => i.payment_id === paymentId);
    expect(item).toMatchObject({
      kind: 'MISSING_CAPTURE',
      headline: 'Payment taken but not recorded',
      provider: 'sandbox',
      booking_id: id,
      client_full_name: 'Meera Pillai',
      booking_date: '2026-11-24',
      booking_time_slot_start: '10:00',
      refund_id: null,
      ledger_amount: null,
      provider_amount: 1500,
      resolution: RESOLVED_BY_RECORDING,
      resolved_by: null,
      detected_at: clock.now().toISOString(),
      resolved_at: clock.now().toISOString(),
    });
    expect(item.detail).toContain(`on link ${first}`);
    expect(item.detail).toContain('goes back in full automatically');
    // One audit row, written by the worker, with no admin.
    expect(await auditOf([item.id])).toEqual([
      expect.objectContaining({ adminId: null, actor: 'worker:reconciliation', action: 'payment_discrepancy.detect', entityId: String(item.id), before: null }),
    ]);

    // Again: nothing new.
    expect(await reconcileLedger(deps)).toMatchObject({ recordedCaptures: 0, recordedRefunds: 0, detected: 0, resolved: 0, errors: 0 });
    expect(await issuesOf([paymentId])).toHaveLength(1);
    expect(await auditOf([item.id])).toHaveLength(1);
  });

  it('a refund made at the provider is recorded in the ledger and stays open until a super admin marks it reviewed', async () => {
    const { id, paymentId } = await paidBooking();
    const refundId = await refundAtProvider(paymentId, 50_000);

    expect(await reconcileLedger(deps)).toMatchObject({ recordedRefunds: 1, detected: 1, errors: 0 });
    expect(await ledgerOf(id)).toEqual([
      expect.objectContaining({ kind: 'capture', amountPaise: 150_000 }),
      expect.objectContaining({
        kind: 'refund',
        provider: 'sandbox',
        paymentId,
        refundId,
        amountPaise: -50_000,
        reason: PROVIDER_REFUND_REASON,
        recordedByAdminId: null,
      }),
    ]);
    // The booking is left as it was: a person decides.
    expect(await row(id)).toMatchObject({ paymentStatus: 'COMPLETED', cancelled: false });
    const item = (await attention()).open.find((i: { refund_id: string }) => i.refund_id === refundId);
    expect(item).toMatchObject({
      kind: 'MISSING_REFUND',
      headline: 'Refund at the sandbox not in the ledger',
      booking_id: id,
      payment_id: paymentId,
      ledger_amount: null,
      provider_amount: 500,
      resolved_at: null,
      resolution: null,
    });
    expect(item.detail).toContain(`Booking ${id} is still confirmed`);
    // The ledger and the provider agree now, yet it stays open: reconciliation does not close it itself.
    expect(await reconcileLedger(deps)).toMatchObject({ recordedRefunds: 0, detected: 0, resolved: 0 });
    expect((await attention()).open.map((i: { id: number }) => i.id)).toContain(item.id);

    // Super admins only, validated at the boundary, and nothing is written by a refusal.
    const path = `/api/admin/payments/attention/${item.id}/resolve`;
    await request(app).get('/api/admin/payments/attention').expect(401);
    await request(app).post(path).send({ note: 'Checked.' }).expect(401);
    const forbidden = await request(app).get('/api/admin/payments/attention').set(desk()).expect(403);
    expect(forbidden.body.detail).toBe('Only super admins may see and review payments needing attention.');
    expect((await request(app).post(path).set(desk()).send({ note: 'Checked.' }).expect(403)).body.detail).toBe(
      'Only super admins may see and review payments needing attention.',
    );
    for (const body of [{}, { note: '' }, { note: '   ' }, { note: 'x'.repeat(501) }, { note: 5 }, { note: 'Checked.', extra: 1 }, [], 'note']) {
      const bad = await request(app)
        .post(path)
        .set(superDesk())
        .send(body as object)
        .expect(400);
      expect(bad.body.detail).toBeTruthy();
    }
    for (const bad of ['abc', '0', '-1', '1.5', '9999999999']) {
      await request(app).post(`/api/admin/payments/attention/${bad}/resolve`).set(superDesk()).send({ note: 'Checked.' }).expect(400);
    }
    await request(app).get('/api/admin/payments/attention').query({ page: 1 }).set(superDesk()).expect(400);
    const unknown = await request(app).post('/api/admin/payments/attention/999999/resolve').set(superDesk()).send({ note: 'Checked.' }).expect(404);
    expect(unknown.body.detail).toBe('Payment issue 999999 was not found.');
    expect((await issuesOf([paymentId]))[0]).toMatchObject({ resolvedAt: null, resolution: null });
    expect((await auditOf([item.id])).map((a) => a.action)).toEqual(['payment_discrepancy.detect']);

    const note = '  Client cancelled by phone; refunded ₹500 from the Razorpay dashboard. Booking kept.  ';
    const done = await request(app).post(path).set(superDesk()).send({ note }).expect(200);
    expect(done.body.message).toBe(`Payment issue ${item.id} marked reviewed successfully.`);
    expect(done.body.item).toMatchObject({ id: item.id, resolution: note.trim(), resolved_by: 'super', resolved_at: clock.now().toISOString() });
    const audit = await auditOf([item.id]);
    expect(audit.map((a) => [a.action, a.adminId, a.actor])).toEqual([
      ['payment_discrepancy.detect', null, 'worker:reconciliation'],
      ['payment_discrepancy.review', admins.superadmin.id, `admin:${admins.superadmin.id}`],
    ]);
    expect(audit[1]!.after).toMatchObject({ resolution: note.trim(), resolved_by_admin_id: admins.superadmin.id });

    const again = await request(app).post(path).set(superDesk()).send({ note: 'Once more.' }).expect(409);
    expect(again.body.detail).toBe(`Payment issue ${item.id} is already resolved; nothing was changed.`);
    const list = await attention();
    expect(list.open.map((i: { id: number }) => i.id)).not.toContain(item.id);
    expect(list.recently_resolved.map((i: { id: number }) => i.id)).toContain(item.id);
    // Reviewed stays reviewed: later runs find the refund recorded and open nothing.
    expect(await reconcileLedger(deps)).toMatchObject({ detected: 0 });
    expect(await issuesOf([paymentId])).toHaveLength(1);
    // Seven days on, it leaves the list.
    clock.set('2026-11-30T09:31:00+05:30');
    try {
      expect((await attention()).recently_resolved.map((i: { id: number }) => i.id)).not.toContain(item.id);
    } finally {
      clock.set(MONDAY_MORNING_IST);
    }
  });

  it('amounts that differ are listed until they agree again, then closed by reconciliation itself', async () => {
    const { id, paymentId } = await paidBooking();
    // The provider has another amount for the payment than the ledger.
    await database.db.update(sandboxPaymentLinks).set({ amountPaise: 120_000 }).where(eq(sandboxPaymentLinks.paymentId, paymentId));
    expect(await reconcileLedger(deps)).toMatchObject({ detected: 1 });
    let [issue] = await issuesOf([paymentId]);
    expect(issue).toMatchObject({ kind: 'AMOUNT_MISMATCH', bookingId: id, refundId: '', ledgerPaise: 150_000, providerPaise: 120_000, resolvedAt: null });
    const item = (await attention()).open.find((i: { id: number }) => i.id === issue!.id);
    expect(item).toMatchObject({ headline: 'Amounts differ', ledger_amount: 1500, provider_amount: 1200 });
    expect(item.detail).toBe(`The ledger has payment ${paymentId} as ₹1,500.00; the sandbox has ₹1,200.00.`);

    // Seen again an hour later: the same row, its last sighting moved, no second audit row.
    clock.set('2026-11-23T10:30:00+05:30');
    try {
      expect(await reconcileLedger(deps)).toMatchObject({ detected: 0, resolved: 0 });
    } finally {
      clock.set(MONDAY_MORNING_IST);
    }
    [issue] = await issuesOf([paymentId]);
    expect(issue).toMatchObject({ detectedAt: clock.now(), lastSeenAt: new Date('2026-11-23T10:30:00+05:30'), resolvedAt: null });
    expect(await auditOf([issue!.id])).toHaveLength(1);

    await database.db.update(sandboxPaymentLinks).set({ amountPaise: 150_000 }).where(eq(sandboxPaymentLinks.paymentId, paymentId));
    expect(await reconcileLedger(deps)).toMatchObject({ detected: 0, resolved: 1 });
    expect((await issuesOf([paymentId]))[0]).toMatchObject({ resolution: RESOLVED_AGREE_AGAIN, resolvedByAdminId: null, resolvedAt: clock.now() });
    expect((await auditOf([issue!.id])).map((a) => [a.action, a.actor, a.adminId])).toEqual([
      ['payment_discrepancy.detect', 'worker:reconciliation', null],
      ['payment_discrepancy.resolve', 'worker:reconciliation', null],
    ]);
    expect((await attention()).recently_resolved.find((i: { id: number }) => i.id === issue!.id)).toMatchObject({
      resolution: 'The ledger and the provider agree again',
    });
  });

  it('refund by refund: an amount that differs, a refund that failed at the provider, a refund and a payment the provider does not know', async () => {
    // A refund through the app, whose amount the provider then has otherwise.
    const a = await paidBooking();
    await request(app).post(`/api/admin/bookings/${a.id}/cancel`).set(superDesk()).send({ refund: 'FULL' }).expect(200);
    const [refundA] = await database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, a.paymentId));
    await database.db.update(sandboxRefunds).set({ amountPaise: 100_000 }).where(eq(sandboxRefunds.id, refundA!.id));
    // A refund the provider reports failed.
    const b = await paidBooking();
    await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(superDesk()).send({ refund: 'PARTIAL', amount: 200 }).expect(200);
    await database.db.update(sandboxRefunds).set({ status: 'failed' }).where(eq(sandboxRefunds.paymentId, b.paymentId));
    // A refund in the ledger the provider never made, and a capture the provider never took.
    const c = await paidBooking();
    await recordRefund(database.db, {
      bookingId: c.id,
      provider: 'sandbox',
      paymentId: c.paymentId,
      refundId: 'rfnd_Ghost000000001',
      amountPaise: 10_000,
      reason: null,
      occurredAt: clock.now(),
    });
    await recordCapture(database.db, {
      bookingId: c.id,
      provider: 'sandbox',
      paymentId: 'pay_Ghost000000001',
      amountPaise: 30_000,
      method: 'UPI',
      occurredAt: clock.now(),
    });

    expect(await reconcileLedger(deps)).toMatchObject({ detected: 4, recordedRefunds: 0, errors: 0 });
    const found = (await issuesOf([a.paymentId, b.paymentId, c.paymentId, 'pay_Ghost000000001'])).map((d) => [
      d.kind,
      d.paymentId,
      d.refundId,
      d.ledgerPaise,
      d.providerPaise,
    ]);
    expect(found).toEqual([
      ['AMOUNT_MISMATCH', a.paymentId, refundA!.id, 150_000, 100_000],
      ['AMOUNT_MISMATCH', b.paymentId, expect.stringMatching(/^rfnd_/), 20_000, 0],
      ['NOT_AT_PROVIDER', c.paymentId, 'rfnd_Ghost000000001', 10_000, null],
      ['NOT_AT_PROVIDER', 'pay_Ghost000000001', '', 30_000, null],
    ]);
    const open = (await attention()).open;
    const words = (paymentId: string) => open.filter((i: { payment_id: string }) => i.payment_id === paymentId).map((i: { headline: string }) => i.headline);
    expect(words(a.paymentId)).toEqual(['Amounts differ']);
    expect(words('pay_Ghost000000001')).toEqual(['Not found at the provider']);
    expect(open.find((i: { payment_id: string }) => i.payment_id === b.paymentId).detail).toMatch(/says it failed, so the money did not go back/);

    // A super admin reviews the refund amounts of A; the same disagreement is not raised again.
    const reviewed = open.find((i: { payment_id: string }) => i.payment_id === a.paymentId);
    await request(app)
      .post(`/api/admin/payments/attention/${reviewed.id}/resolve`)
      .set(superDesk())
      .send({ note: 'Bank confirms ₹1,000 returned; ₹500 refunded in cash.' })
      .expect(200);
    expect(await reconcileLedger(deps)).toMatchObject({ detected: 0, resolved: 0 });
    expect(await issuesOf([a.paymentId])).toHaveLength(1);
    // Should the provider's amount change again, that is a new disagreement.
    await database.db.update(sandboxRefunds).set({ amountPaise: 90_000 }).where(eq(sandboxRefunds.id, refundA!.id));
    expect(await reconcileLedger(deps)).toMatchObject({ detected: 1 });
    expect((await issuesOf([a.paymentId])).map((d) => [d.providerPaise, d.resolvedAt === null])).toEqual([
      [100_000, false],
      [90_000, true],
    ]);
    // The provider's refund back as the ledger has it: the new one closes by itself, the reviewed one stays as reviewed.
    await database.db.update(sandboxRefunds).set({ amountPaise: 150_000 }).where(eq(sandboxRefunds.id, refundA!.id));
    expect(await reconcileLedger(deps)).toMatchObject({ detected: 0, resolved: 1 });
    expect((await issuesOf([a.paymentId])).map((d) => d.resolution)).toEqual(['Bank confirms ₹1,000 returned; ₹500 refunded in cash.', RESOLVED_AGREE_AGAIN]);
  });

  it('a payment the provider has as not captured: a recorded one is listed, an unrecorded one is not recorded', async () => {
    const recorded = await paidBooking();
    const lost = await bookedWithLink();
    const lostPayment = await paidSilently(lost.linkId);
    // The provider says neither payment took money (failed, or only authorized).
    const uncaptured: PaymentsProvider = {
      ...payments,
      fetchPayment: async (paymentId) => {
        const p = await payments.fetchPayment(paymentId);
        return [recorded.paymentId, lostPayment].includes(paymentId) ? { ...p, status: 'failed', capturedAt: undefined } : p;
      },
    };
    expect(await reconcileLedger({ ...deps, payments: uncaptured })).toMatchObject({ recordedCaptures: 0, detected: 1, errors: 0 });
    expect(await ledgerOf(lost.id)).toEqual([]);
    expect((await issuesOf([recorded.paymentId, lostPayment])).map((d) => [d.kind, d.paymentId, d.detail])).toEqual([
      [
        'NOT_AT_PROVIDER',
        recorded.paymentId,
        `The ledger has payment ${recorded.paymentId} of ₹1,500.00 as captured; the sandbox has it as failed, with no money taken.`,
      ],
    ]);
    // With the provider answering as it does, the lost payment is recorded and the other closes by itself.
    expect(await reconcileLedger(deps)).toMatchObject({ recordedCaptures: 1, detected: 1, resolved: 1 });
  });

  it('running twice, or two runs at once, records everything once', async () => {
    for (let round = 0; round < 3; round++) {
      // A payment the app never heard of, a refund made at the provider, and amounts that differ.
      const lost = await bookedWithLink();
      const lostPayment = await paidSilently(lost.linkId);
      const refunded = await paidBooking();
      const refundId = await refundAtProvider(refunded.paymentId, 150_000);
      const differs = await paidBooking();
      await database.db.update(sandboxPaymentLinks).set({ amountPaise: 99_900 }).where(eq(sandboxPaymentLinks.paymentId, differs.paymentId));

      const reports = await Promise.all([reconcileLedger(deps), reconcileLedger(deps)]);
      const sum = (k: 'recordedCaptures' | 'recordedRefunds' | 'detected') => reports.reduce((s, r) => s + r[k], 0);
      expect([sum('recordedCaptures'), sum('recordedRefunds'), sum('detected')]).toEqual([1, 1, 3]);
      expect(await ledgerOf(lost.id)).toEqual([expect.objectContaining({ kind: 'capture', paymentId: lostPayment })]);
      expect(await row(lost.id)).toMatchObject({ paymentStatus: 'COMPLETED', razorpayPaymentId: lostPayment });
      expect((await ledgerOf(refunded.id)).filter((r) => r.refundId === refundId)).toHaveLength(1);
      const issues = await issuesOf([lostPayment, refunded.paymentId, differs.paymentId]);
      expect(issues.map((d) => d.kind)).toEqual(['MISSING_CAPTURE', 'MISSING_REFUND', 'AMOUNT_MISMATCH']);
      expect(await auditOf(issues.map((d) => d.id))).toHaveLength(3);
      // A confirmed booking's follow-up jobs were queued once.
      expect(
        (await database.db.select().from(outbox).where(eq(outbox.jobName, 'meetings.create'))).filter(
          (o) => (o.payload as { bookingId: number }).bookingId === lost.id,
        ),
      ).toHaveLength(1);

      expect(await reconcileLedger(deps)).toMatchObject({ recordedCaptures: 0, recordedRefunds: 0, detected: 0, resolved: 0 });
      expect(await issuesOf([lostPayment, refunded.paymentId, differs.paymentId])).toHaveLength(3);
      // Settle this round's disagreements, so the next round counts only its own.
      await database.db.update(sandboxPaymentLinks).set({ amountPaise: 150_000 }).where(eq(sandboxPaymentLinks.paymentId, differs.paymentId));
      const refundIssue = issues.find((d) => d.kind === 'MISSING_REFUND')!;
      await request(app).post(`/api/admin/payments/attention/${refundIssue.id}/resolve`).set(superDesk()).send({ note: 'Seen.' }).expect(200);
      expect(await reconcileLedger(deps)).toMatchObject({ resolved: 1 });
    }
  });

  it('a provider error on one payment is logged without client data and the run goes on', async () => {
    const broken = await paidBooking();
    const fine = await paidBooking();
    const refundId = await refundAtProvider(fine.paymentId, 10_000);
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const flaky: PaymentsProvider = {
      ...payments,
      fetchPayment: (paymentId) =>
        paymentId === broken.paymentId ? Promise.reject(new AppError('bad_gateway', 'Razorpay: Service unavailable (503)')) : payments.fetchPayment(paymentId),
    };
    const report = await reconcileLedger({ ...deps, payments: flaky, logger });
    expect(report).toMatchObject({ errors: 1, recordedRefunds: 1, detected: 1 });
    expect((await ledgerOf(fine.id)).some((r) => r.refundId === refundId)).toBe(true);
    const warning = lines.find((l) => l.paymentId === broken.paymentId);
    expect(warning).toMatchObject({ level: 40, bookingId: broken.id, msg: 'ledger reconciliation: could not check a payment; next run tries again' });
    expect(lines.find((l) => l.msg === 'ledger reconciliation done')).toMatchObject({ errors: 1, provider: 'sandbox' });
    const all = JSON.stringify(lines);
    for (const secret of ['Meera', 'Pillai', '@example.com', '9876543210']) expect(all).not.toContain(secret);
    // Settled for the tests after this one.
    const issue = (await issuesOf([fine.paymentId]))[0]!;
    await request(app).post(`/api/admin/payments/attention/${issue.id}/resolve`).set(superDesk()).send({ note: 'Seen.' }).expect(200);
  });

  it('looks back 7 days by the app clock: older links and payments are not asked about', async () => {
    const lost = await bookedWithLink();
    await paidSilently(lost.linkId);
    const old = await paidBooking();
    await database.db.update(sandboxPaymentLinks).set({ amountPaise: 1_000 }).where(eq(sandboxPaymentLinks.paymentId, old.paymentId));
    // The trigger stamps a link with the database's clock; here every link was given at the test's "now".
    await database.db.update(paymentLinks).set({ firstSeenAt: clock.now() });
    // Eight days on, neither is in the window any more.
    clock.set('2026-12-01T09:30:00+05:30');
    try {
      expect(await reconcileLedger(deps)).toMatchObject({ links: 0, payments: 0, detected: 0 });
    } finally {
      clock.set(MONDAY_MORNING_IST);
    }
    // Back in the window: the lost payment is found, the amounts differ.
    expect(await reconcileLedger(deps)).toMatchObject({ recordedCaptures: 1, detected: 2 });
  });
});

describe('the worker runs it', () => {
  it('on its own hourly schedule beside payments.reconcile, and as a job returns its counts', async () => {
    const workerConfig = configFor({ PUBLIC_BASE_URL: 'http://127.0.0.1:9', QUEUE_PREFIX: testPrefix() });
    const worker = await startTestWorker({ database, config: workerConfig, now: clock.now, payments });
    try {
      const scheduler = await worker.jobs.queues.payments.getJobScheduler('payments.reconcile-ledger');
      expect(scheduler).toMatchObject({ name: 'payments.reconcile-ledger', pattern: LEDGER_RECONCILE_PATTERN, tz: 'Asia/Kolkata' });
      expect(await worker.jobs.queues.payments.getJobScheduler('payments.reconcile')).toBeTruthy();
      const job = await worker.jobs.queues.payments.add('payments.reconcile-ledger', {}, { jobId: 'reconcile-ledger-now' });
      await waitFor(async () => (await job.getState()) === 'completed', 'the ledger reconciliation job');
      const done = (await worker.jobs.queues.payments.getJob('reconcile-ledger-now'))!;
      expect(done.returnvalue).toMatchObject({ links: expect.any(Number), payments: expect.any(Number), detected: 0, errors: 0 });
    } finally {
      await dropQueues(worker.jobs);
      await worker.stop();
    }
  });
});
