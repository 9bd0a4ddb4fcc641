/**
 * Issue 31, items 4 and 5: money taken at the counter goes back at the counter (a refund due, listed
 * for the desk, recorded when handed over), and a receptionist passes a refund to the owner instead
 * of keeping the client's money.
 */
import { and, eq } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PaymentsAttentionResponse } from '../../shared/contract/admin.ts';
import type { RefundsDueResponse } from '../../shared/contract/refunds.ts';
import type { Config } from '../../shared/core/config.ts';
import { auditLog, bookings, outbox, paymentsLedger, refundRequests, sandboxRefunds } from '../../shared/core/db/schema.ts';
import type { JobPayload } from '../../shared/core/jobs/jobs.ts';
import type { MailMessage } from '../../shared/core/providers/mail/mail.provider.ts';
import { recordCapture } from '../../shared/core/repositories/ledger.repository.ts';
import { manageTokenFor } from '../../shared/core/services/booking-token.ts';
import { sendChangeMail, sendConfirmation, sendMoneyUpdate, type NotificationDeps } from '../../shared/core/services/notification.service.ts';
import { bearer, createAdmins, tokenFor, type Admins } from '../support/admin.ts';
import type { TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';
import { mailingStackPerFile } from '../support/mailing.ts';

let database: TestDatabase;
let config: Config;
let admins: Admins;
let app: Express;
let notify: NotificationDeps;
const { clock, sent } = mailingStackPerFile(MONDAY_MORNING_IST, (s) => ({ database, config, app, notify } = s));
beforeAll(async () => {
  admins = await createAdmins(database.db);
});

const desk = () => bearer(tokenFor(admins.admin, clock.now()));
const boss = () => bearer(tokenFor(admins.superadmin, clock.now()));
const row = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const ledgerOf = (id: number) => database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id)).orderBy(paymentsLedger.id);
const requestsOf = (id: number) => database.db.select().from(refundRequests).where(eq(refundRequests.bookingId, id)).orderBy(refundRequests.id);
const auditsOf = (id: number, action: string) =>
  database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, String(id)), eq(auditLog.action, action)));

let clients = 0;
const nextEmail = () => `desk.refund${++clients}@example.com`;

/** An in-person session with Dr. Rohan Kapoor (₹1,800, paid at the visit), and its client's Manage booking token. */
async function inPerson(date: string, time: string): Promise<{ id: number; token: string }> {
  const made = await request(app)
    .post('/confirm-booking')
    .send(offlineBooking({ booking_date: date, booking_time_slot_start: time, client_email: nextEmail(), client_full_name: 'Arjun Rao' }))
    .expect(200);
  const id = made.body.booking_id as number;
  // The confirmation e-mail gives the booking its Manage booking link, as the worker does.
  expect(await sendConfirmation(notify, id, 'client')).toBe('sent');
  return { id, token: manageTokenFor(config.jwtSecret, id).token };
}

/** An in-person session paid at the desk in cash. */
async function paidInCash(date: string, time: string, amount?: number): Promise<{ id: number; token: string }> {
  const b = await inPerson(date, time);
  await request(app)
    .post(`/api/admin/bookings/${b.id}/record-payment`)
    .set(desk())
    .send(amount === undefined ? { method: 'CASH' } : { method: 'CASH', amount })
    .expect(200);
  return b;
}

/** A paid online session with Dr. Asha Mehta (₹1,500), paid through the sandbox checkout. */
async function paidOnline(date: string, time: string): Promise<{ id: number; paymentId: string }> {
  const made = await request(app)
    .post('/confirm-booking')
    .send(onlineBooking({ booking_date: date, booking_time_slot_start: time, client_email: nextEmail() }))
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
  return { id, paymentId: q.razorpay_payment_id! };
}

/**
 * The client's e-mails the worker would send now for this booking's outbox intents (money and
 * client-change mails), or only for the intents whose job id starts with `jobId`.
 */
async function clientMails(id: number, jobId?: string): Promise<MailMessage[]> {
  const intents = await database.db.select().from(outbox).orderBy(outbox.id);
  const clientEmail = (await row(id)).clientEmail;
  sent.length = 0;
  for (const o of intents) {
    const p = o.payload as { bookingId?: number };
    if (p.bookingId !== id || (jobId && !o.jobId.startsWith(jobId))) continue;
    if (o.jobName === 'mail.booking-money') await sendMoneyUpdate(notify, id, (p as JobPayload<'mail.booking-money'>).reason);
    if (o.jobName === 'mail.booking-changed' && (p as JobPayload<'mail.booking-changed'>).recipient === 'client') {
      await sendChangeMail(notify, p as JobPayload<'mail.booking-changed'>);
    }
  }
  return sent.filter((m) => m.to === clientEmail);
}

const CENTRE_WORDS = (amount: string) =>
  `Your refund of ${amount} will be handed back to you at the centre, where it was paid: please call +91 22 4000 1234 or write to care@wellbeingcentre.in to arrange when to collect it.`;
const due = async () => (await request(app).get('/api/admin/refunds/due').set(desk()).expect(200)).body as RefundsDueResponse;
const dueOf = async (id: number) => (await due()).items.find((i) => i.booking_id === id);
const attention = async () => (await request(app).get('/api/admin/payments/attention').set(boss()).expect(200)).body as PaymentsAttentionResponse;
const reviewOf = async (id: number) => {
  const a = await attention();
  return [...a.refund_requests.open, ...a.refund_requests.recently_decided].find((i) => i.booking_id === id);
};

/** The booking's payment in words' key, as the admin lists answer it. */
async function paymentStateOf(id: number): Promise<string> {
  const list = await request(app).get('/api/admin/bookings').set(desk()).expect(200);
  return (list.body as { id: number; payment_state: string }[]).find((x) => x.id === id)!.payment_state;
}

describe('item 4: a client cancels a session paid in cash', () => {
  it('records a refund due at the counter, not a ledger row, and tells the client to collect it at the centre', async () => {
    const b = await paidInCash('2026-11-26', '10:00');
    // Before cancelling, the page knows the money goes back at the centre.
    const page = await request(app).get(`/api/manage/${b.token}`).expect(200);
    expect(page.body).toMatchObject({ refund_on_cancel: 1800, refund_on_cancel_at_centre: 1800 });
    const res = await request(app).post(`/api/manage/${b.token}/cancel`).expect(200);
    expect(res.body.message).toBe(`Your booking has been cancelled. ${CENTRE_WORDS('₹1,800')} We have sent you an e-mail to confirm it.`);
    expect(res.body.message).not.toContain('original payment method');
    // The money is still in the till: the ledger has the payment only.
    expect((await ledgerOf(b.id)).map((l) => [l.kind, l.provider, l.amountPaise])).toEqual([['capture', 'counter', 180_000]]);
    expect(await requestsOf(b.id)).toEqual([
      expect.objectContaining({
        kind: 'AT_COUNTER',
        status: 'OPEN',
        amountPaise: 180_000,
        requestedBy: 'client',
        requestedByAdminId: null,
        reason: 'Cancelled by the client',
      }),
    ]);
    const [audit] = await auditsOf(b.id, 'booking.client_cancel');
    expect(audit!.after).toMatchObject({ cancelled: true, refund: { choice: 'FULL', amount: 1800, at_counter: 1800 } });
    const [mail] = await clientMails(b.id);
    expect(mail!.subject).toMatch(/^Booking cancelled: your session on/);
    expect(mail!.text).toContain(CENTRE_WORDS('₹1,800'));
    expect(mail!.text).not.toContain('original payment method');
    // Every admin sees it under "Refunds due at the counter".
    expect(await dueOf(b.id)).toEqual({
      id: expect.any(Number),
      booking_id: b.id,
      client_full_name: 'Arjun Rao',
      client_mobile: '9876543210',
      therapist_name: 'Dr. Rohan Kapoor',
      booking_date: '2026-11-26',
      booking_time_slot_start: '10:00',
      amount: 1800,
      paid_by: ['CASH'],
      reason: 'Cancelled by the client',
      requested_by: 'CLIENT',
      requested_by_username: null,
      requested_at: clock.now().toISOString(),
    });
    // The booking lists say it: the money is owed back, not "Paid".
    expect(await paymentStateOf(b.id)).toBe('REFUND_DUE');
  });

  it('record-refund: handed back in parts, each a ledger row with its method and admin; closed when nothing is left; never more than is due', async () => {
    const b = await paidInCash('2026-11-26', '11:00');
    await request(app).post(`/api/manage/${b.token}/cancel`).expect(200);
    const url = `/api/admin/bookings/${b.id}/record-refund`;
    const tooMuch = await request(app).post(url).set(desk()).send({ method: 'CASH', amount: 1800.01 }).expect(400);
    expect(tooMuch.body.detail).toBe('At most ₹1,800.00 is due to be handed back.');
    for (const [body, field, detail] of [
      [{}, 'method', 'Method must be CASH, CARD, UPI or BANK_TRANSFER'],
      [{ method: 'CHEQUE' }, 'method', 'Method must be CASH, CARD, UPI or BANK_TRANSFER'],
      [{ method: 'CASH', amount: 0 }, 'amount', 'Amount must be more than zero'],
      [{ method: 'CASH', amount: 10.005 }, 'amount', 'Amount may have at most two decimals'],
      [{ method: 'CASH', extra: 1 }, 'extra', 'Unknown field: extra'],
    ] as const) {
      expect((await request(app).post(url).set(desk()).send(body).expect(400)).body, JSON.stringify(body)).toEqual({ detail, errors: { [field]: detail } });
    }
    expect(await ledgerOf(b.id)).toHaveLength(1);

    clock.set('2026-11-23T11:00:00+05:30');
    const part = await request(app).post(url).set(desk()).send({ method: 'UPI', amount: 800 }).expect(200);
    expect(part.body).toEqual({
      booking_id: b.id,
      amount: 800,
      method: 'UPI',
      still_due: 1000,
      message: `Refund of ₹800.00 handed back for booking ${b.id} recorded successfully.`,
    });
    expect((await dueOf(b.id))!.amount).toBe(1000);
    const rest = await request(app).post(url).set(boss()).send({ method: 'CASH' }).expect(200);
    expect(rest.body).toMatchObject({ amount: 1000, method: 'CASH', still_due: 0 });
    expect((await ledgerOf(b.id)).map((l) => [l.kind, l.provider, l.method, l.amountPaise, l.recordedByAdminId, l.reason])).toEqual([
      ['capture', 'counter', 'CASH', 180_000, admins.admin.id, null],
      ['refund', 'counter', 'UPI', -80_000, admins.admin.id, 'Cancelled by the client'],
      ['refund', 'counter', 'CASH', -100_000, admins.superadmin.id, 'Cancelled by the client'],
    ]);
    expect(await requestsOf(b.id)).toEqual([
      expect.objectContaining({ kind: 'AT_COUNTER', status: 'DONE', resolvedByAdminId: admins.superadmin.id, resolutionNote: 'Handed back ₹1,000.00 (cash)' }),
    ]);
    expect(await dueOf(b.id)).toBeUndefined();
    expect(await paymentStateOf(b.id)).toBe('REFUNDED');
    // Nothing is due any more: a second recording of the same hand-over changes nothing.
    const again = await request(app).post(url).set(desk()).send({ method: 'CASH' }).expect(409);
    expect(again.body.detail).toBe(`Nothing is due to be handed back at the counter for booking ${b.id}.`);
    expect(await ledgerOf(b.id)).toHaveLength(3);
    const audits = await auditsOf(b.id, 'booking.record_refund');
    expect(audits.map((a) => [a.adminId, a.before, a.after])).toEqual([
      [admins.admin.id, { refund_due: 1800 }, { refund_due: 1000, refund: { method: 'UPI', amount: 800 } }],
      [admins.superadmin.id, { refund_due: 1000 }, { refund_due: 0, refund: { method: 'CASH', amount: 1000 } }],
    ]);
    // The booking list says it was refunded.
    const listed = (await request(app).get('/api/admin/bookings').query({ from: '2026-11-26', to: '2026-11-26' }).set(desk()).expect(200)).body.find(
      (x: { id: number }) => x.id === b.id,
    );
    expect(listed).toMatchObject({ amount_paid: 1800, amount_refunded: 1800, payment_state: 'REFUNDED' });
    // A late e-mail tells the truth: handed back, not still due.
    const [mail] = await clientMails(b.id);
    expect(mail!.text).toContain('₹1,800 has been handed back to you at the centre.');
    expect(mail!.text).not.toContain('will be handed back');
    // Nothing due on a booking without counter money; an unknown booking is 404.
    const online = await paidOnline('2026-11-26', '12:00');
    expect((await request(app).post(`/api/admin/bookings/${online.id}/record-refund`).set(desk()).send({ method: 'CASH' }).expect(409)).body.detail).toMatch(
      /Nothing is due/,
    );
    await request(app).post('/api/admin/bookings/999999/record-refund').set(desk()).send({ method: 'CASH' }).expect(404);
  });

  it('a super admin refunding money taken at the counter makes it due there too: in full, or in part with the rest kept', async () => {
    const full = await paidInCash('2026-11-27', '12:00');
    const res = await request(app).post(`/api/admin/bookings/${full.id}/cancel`).set(boss()).send({ refund: 'FULL' }).expect(200);
    expect(res.body).toEqual({
      booking_id: full.id,
      cancelled: true,
      unblocked: false,
      message: `Booking ${full.id} cancelled successfully. ₹1,800.00 to hand back at the counter.`,
      refund: { status: 'at_counter', amount: 1800, at_counter: 1800 },
    });
    expect(await ledgerOf(full.id)).toHaveLength(1);
    expect(await dueOf(full.id)).toMatchObject({ amount: 1800, requested_by: 'ADMIN', requested_by_username: 'super', reason: 'Cancelled by the centre' });
    const [audit] = await auditsOf(full.id, 'booking.cancel');
    expect(audit!.after).toMatchObject({ refund: { choice: 'FULL', amount: 1800, at_counter: 1800, reason: null } });
    const [mail] = await clientMails(full.id);
    expect(mail!.text).toContain(`We received ₹1,800. ${CENTRE_WORDS('₹1,800')}`);

    const part = await paidInCash('2026-11-27', '14:00');
    await request(app)
      .post(`/api/admin/bookings/${part.id}/cancel`)
      .set(boss())
      .send({ refund: 'PARTIAL', amount: 500, reason: 'Late cancellation: part of the fee' })
      .expect(200);
    expect(await dueOf(part.id)).toMatchObject({ amount: 500, reason: 'Late cancellation: part of the fee' });
    const [partMail] = await clientMails(part.id);
    expect(partMail!.text).toContain(`We received ₹1,800. ${CENTRE_WORDS('₹500')} ₹1,300 is not refunded: Late cancellation: part of the fee`);
  });

  it('a booking paid partly online and partly at the desk: the provider part through the provider, the rest due at the counter', async () => {
    const b = await paidOnline('2026-11-30', '10:00');
    await recordCapture(database.db, {
      bookingId: b.id,
      provider: 'counter',
      paymentId: 'counter_extra_minutes',
      amountPaise: 30_000,
      method: 'CASH',
      recordedByAdminId: admins.admin.id,
      occurredAt: clock.now(),
    });
    const res = await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(boss()).send({ refund: 'FULL' }).expect(200);
    expect(res.body.refund).toEqual({ status: 'processed', amount: 1800, at_counter: 300 });
    expect(res.body.message).toBe(`Booking ${b.id} cancelled successfully. ₹1,500.00 refunded. ₹300.00 to hand back at the counter.`);
    expect((await ledgerOf(b.id)).map((l) => [l.kind, l.provider, l.amountPaise])).toEqual([
      ['capture', 'sandbox', 150_000],
      ['capture', 'counter', 30_000],
      ['refund', 'sandbox', -150_000],
    ]);
    expect(await database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, b.paymentId))).toEqual([
      expect.objectContaining({ amountPaise: 150_000, idempotencyKey: `cancel-${b.id}-${b.paymentId}` }),
    ]);
    expect(await dueOf(b.id)).toMatchObject({ amount: 300, paid_by: ['CASH'] });
    const [mail] = await clientMails(b.id);
    expect(mail!.text).toContain(
      `We received ₹1,800. ₹1,500 has been refunded to your original payment method; it usually reaches you within 5–7 working days. ${CENTRE_WORDS('₹300')}`,
    );
  });
});

describe('item 5: a receptionist cancels a paid booking', () => {
  it('refund-options: what each admin may choose, by the notice window', async () => {
    const b = await paidInCash('2026-11-24', '10:00');
    const options = async (who: Record<string, string>) => (await request(app).get(`/api/admin/bookings/${b.id}/refund-options`).set(who).expect(200)).body;
    expect(await options(desk())).toEqual({
      booking_id: b.id,
      held: 1800,
      held_at_counter: 1800,
      choices: ['REQUEST'],
      inside_notice_window: false,
      notice_hours: 24,
    });
    expect((await options(boss())).choices).toEqual(['FULL', 'PARTIAL', 'NONE', 'REQUEST']);
    // 22 hours before the session: inside the window, where the terms charge the full fee.
    clock.set('2026-11-23T12:00:00+05:30');
    expect(await options(desk())).toMatchObject({ choices: ['REQUEST', 'NONE'], inside_notice_window: true });
    const unpaid = await inPerson('2026-11-24', '11:00');
    expect((await request(app).get(`/api/admin/bookings/${unpaid.id}/refund-options`).set(desk()).expect(200)).body).toMatchObject({ held: 0, choices: [] });
    await request(app).get('/api/admin/bookings/999999/refund-options').set(desk()).expect(404);
  });

  it('may keep the money only within the notice window (NONE), otherwise 403 and nothing changes', async () => {
    const b = await paidInCash('2026-11-24', '12:00');
    const res = await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk()).send({ refund: 'NONE', reason: 'Changed their mind' }).expect(403);
    expect(res.body.detail).toBe(
      'No refund is only for a session starting within 24 hours, where the terms charge the full fee. Ask the owner to refund instead (refund "REQUEST", with the reason).',
    );
    expect((await row(b.id)).cancelled).toBe(false);
    expect(await requestsOf(b.id)).toEqual([]);
    expect((await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk()).send({ refund: 'FULL' }).expect(403)).body.detail).toBe(
      'Only super admins may refund payments.',
    );
    // 23 h 59 min before: within the window.
    clock.set('2026-11-23T12:01:00+05:30');
    const kept = await request(app)
      .post(`/api/admin/bookings/${b.id}/cancel`)
      .set(desk())
      .send({ refund: 'NONE', reason: "Cancelled with less than 24 hours' notice (Terms)" })
      .expect(200);
    expect(kept.body).toMatchObject({ refund: { status: 'none', amount: 0 }, message: `Booking ${b.id} cancelled successfully. No refund.` });
    expect(await ledgerOf(b.id)).toHaveLength(1);
    expect(await requestsOf(b.id)).toEqual([]);
    const [mail] = await clientMails(b.id);
    expect(mail!.text).toContain("₹1,800 is not refunded: Cancelled with less than 24 hours' notice (Terms)");
    // A super admin may keep it whenever (unchanged).
    clock.set(MONDAY_MORNING_IST);
    const far = await paidInCash('2026-11-30', '11:00');
    await request(app).post(`/api/admin/bookings/${far.id}/cancel`).set(boss()).send({ refund: 'NONE', reason: 'Agreed with the client' }).expect(200);
  });

  it('REQUEST: cancelled, a review request for the owner, the client told it is being reviewed; no money moves', async () => {
    const b = await paidInCash('2026-11-27', '10:00');
    const url = `/api/admin/bookings/${b.id}/cancel`;
    for (const body of [
      { refund: 'REQUEST' },
      { refund: 'REQUEST', reason: '   ' },
      { refund: 'REQUEST', reason: 'x'.repeat(301) },
      { refund: 'REQUEST', reason: 'ok', amount: 1 },
    ]) {
      expect((await request(app).post(url).set(desk()).send(body).expect(400)).body.detail).toBeTruthy();
    }
    const res = await request(app).post(url).set(desk()).send({ refund: 'REQUEST', reason: 'Client is unwell; asks for the fee back' }).expect(200);
    expect(res.body).toEqual({
      booking_id: b.id,
      cancelled: true,
      unblocked: false,
      message: `Booking ${b.id} cancelled successfully. Refund of ₹1,800.00 sent to the owner for review.`,
      refund: { status: 'requested', amount: 1800 },
    });
    expect((await row(b.id)).cancelled).toBe(true);
    expect(await ledgerOf(b.id)).toHaveLength(1);
    expect(await paymentStateOf(b.id)).toBe('REFUND_REVIEW');
    expect(await requestsOf(b.id)).toEqual([
      expect.objectContaining({
        kind: 'REVIEW',
        status: 'OPEN',
        amountPaise: 180_000,
        requestedBy: `admin:${admins.admin.id}`,
        requestedByAdminId: admins.admin.id,
        reason: 'Client is unwell; asks for the fee back',
      }),
    ]);
    const [audit] = await auditsOf(b.id, 'booking.cancel');
    expect(audit!.after).toMatchObject({ refund: { choice: 'REQUEST', requested_amount: 1800, reason: 'Client is unwell; asks for the fee back' } });
    // Nothing is due at the counter until the owner approves.
    expect(await dueOf(b.id)).toBeUndefined();
    const [mail] = await clientMails(b.id);
    expect(mail!.text).toContain(
      'We received ₹1,800. Your refund of ₹1,800 is being reviewed by the centre; we will write to you again as soon as it has been decided.',
    );
    // On the owner's list, not the receptionist's.
    expect(await reviewOf(b.id)).toEqual({
      id: expect.any(Number),
      booking_id: b.id,
      client_full_name: 'Arjun Rao',
      therapist_name: 'Dr. Rohan Kapoor',
      booking_date: '2026-11-27',
      booking_time_slot_start: '10:00',
      amount: 1800,
      held: 1800,
      held_at_counter: 1800,
      reason: 'Client is unwell; asks for the fee back',
      requested_by_username: 'desk',
      requested_at: clock.now().toISOString(),
      status: 'OPEN',
      resolved_at: null,
      resolved_by: null,
      resolution: null,
    });
    await request(app).get('/api/admin/payments/attention').set(desk()).expect(403);
    // An unpaid booking has nothing to ask about.
    const unpaid = await inPerson('2026-11-27', '11:00');
    expect(
      (await request(app).post(`/api/admin/bookings/${unpaid.id}/cancel`).set(desk()).send({ refund: 'REQUEST', reason: 'x' }).expect(409)).body.detail,
    ).toBe(`Booking ${unpaid.id} has no payment to refund.`);
  });

  it('approve: the refund runs as a super admin cancel refund does (counter money due at the counter), once; the client is told', async () => {
    const b = await paidInCash('2026-11-28', '10:00');
    await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk()).send({ refund: 'REQUEST', reason: 'Client is unwell' }).expect(200);
    const { id } = (await reviewOf(b.id))!;
    const url = `/api/admin/refund-requests/${id}/approve`;
    expect((await request(app).post(url).set(desk()).send({ refund: 'FULL' }).expect(403)).body.detail).toBe(
      'Only super admins may approve or decline refund requests.',
    );
    for (const [body, field, detail] of [
      [{}, 'refund', 'refund must be FULL or PARTIAL'],
      [{ refund: 'NONE' }, 'refund', 'refund must be FULL or PARTIAL'],
      [{ refund: 'REQUEST' }, 'refund', 'refund must be FULL or PARTIAL'],
      [{ refund: 'PARTIAL' }, 'amount', 'Amount must be a number'],
      [{ refund: 'PARTIAL', amount: -5 }, 'amount', 'Amount must be more than zero'],
    ] as const) {
      expect((await request(app).post(url).set(boss()).send(body).expect(400)).body, JSON.stringify(body)).toEqual({ detail, errors: { [field]: detail } });
    }
    expect((await request(app).post(url).set(boss()).send({ refund: 'PARTIAL', amount: 1800.5 }).expect(400)).body.detail).toMatch(/at most ₹1,800.00/);
    clock.set('2026-11-23T16:00:00+05:30');
    const res = await request(app).post(url).set(boss()).send({ refund: 'FULL' }).expect(200);
    expect(res.body).toEqual({
      item: expect.objectContaining({
        id,
        status: 'APPROVED',
        resolved_by: 'super',
        resolved_at: clock.now().toISOString(),
        resolution: 'Full refund. ₹1,800.00 to hand back at the counter.',
      }),
      refund: { status: 'at_counter', amount: 1800, at_counter: 1800 },
      message: `Refund request ${id} approved successfully: ₹1,800.00 refunded.`,
    });
    expect(await ledgerOf(b.id)).toHaveLength(1);
    expect(await dueOf(b.id)).toMatchObject({ amount: 1800, requested_by: 'ADMIN', requested_by_username: 'super', reason: 'Client is unwell' });
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'refund_request'), eq(auditLog.entityId, String(id))));
    expect(audit).toMatchObject({ adminId: admins.superadmin.id, action: 'refund_request.approve' });
    expect(audit!.after).toMatchObject({ status: 'APPROVED', refund: { choice: 'FULL', amount: 1800, at_counter: 1800 } });
    const [mail] = await clientMails(b.id, `mail-refund-review.${id}`);
    expect(mail!.text).toContain(`We received ₹1,800. Your refund has been approved. ${CENTRE_WORDS('₹1,800')}`);
    // Decided once: approving or declining again is 409 and changes nothing.
    expect((await request(app).post(url).set(boss()).send({ refund: 'FULL' }).expect(409)).body.detail).toBe(
      `Refund request ${id} has already been approved; nothing was changed.`,
    );
    await request(app).post(`/api/admin/refund-requests/${id}/decline`).set(boss()).send({ reason: 'No' }).expect(409);
    expect(await requestsOf(b.id)).toHaveLength(2);
    expect((await dueOf(b.id))!.amount).toBe(1800);
    await request(app).post('/api/admin/refund-requests/999999/approve').set(boss()).send({ refund: 'FULL' }).expect(404);
  });

  it('approve in part a booking paid online: through the provider under the request’s idempotency key; the rest kept', async () => {
    const b = await paidOnline('2026-11-28', '11:00');
    await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk()).send({ refund: 'REQUEST', reason: 'Therapist unwell' }).expect(200);
    const { id } = (await reviewOf(b.id))!;
    const res = await request(app).post(`/api/admin/refund-requests/${id}/approve`).set(boss()).send({ refund: 'PARTIAL', amount: 500 }).expect(200);
    expect(res.body.refund).toEqual({ status: 'processed', amount: 500 });
    expect(res.body.item.resolution).toBe('Partial refund. ₹500.00 refunded.');
    expect(await database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, b.paymentId))).toEqual([
      expect.objectContaining({ amountPaise: 50_000, idempotencyKey: `refund-request-${id}-${b.paymentId}` }),
    ]);
    expect((await ledgerOf(b.id)).map((l) => [l.kind, l.provider, l.amountPaise, l.reason, l.recordedByAdminId])).toEqual([
      ['capture', 'sandbox', 150_000, null, null],
      ['refund', 'sandbox', -50_000, 'Therapist unwell', admins.superadmin.id],
    ]);
    expect(await dueOf(b.id)).toBeUndefined();
    const [mail] = await clientMails(b.id, `mail-refund-review.${id}`);
    expect(mail!.text).toContain(
      'We received ₹1,500. Your refund has been approved. ₹500 has been refunded to your original payment method; it usually reaches you within 5–7 working days. ₹1,000 is not refunded.',
    );
  });

  it('decline: with a reason, nothing refunded, audited, the client told why; once', async () => {
    const b = await paidInCash('2026-11-28', '12:00');
    await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk()).send({ refund: 'REQUEST', reason: 'Client asks' }).expect(200);
    const { id } = (await reviewOf(b.id))!;
    const url = `/api/admin/refund-requests/${id}/decline`;
    await request(app).post(url).set(desk()).send({ reason: 'No' }).expect(403);
    for (const body of [{}, { reason: '' }, { reason: '  ' }, { reason: 'x'.repeat(301) }]) {
      expect((await request(app).post(url).set(boss()).send(body).expect(400)).body.detail).toBeTruthy();
    }
    const res = await request(app).post(url).set(boss()).send({ reason: 'Cancelled on the day, as the terms say' }).expect(200);
    expect(res.body).toEqual({
      item: expect.objectContaining({ id, status: 'DECLINED', resolved_by: 'super', resolution: 'Cancelled on the day, as the terms say' }),
      message: `Refund request ${id} declined successfully.`,
    });
    expect(await ledgerOf(b.id)).toHaveLength(1);
    expect(await dueOf(b.id)).toBeUndefined();
    expect(await requestsOf(b.id)).toEqual([expect.objectContaining({ kind: 'REVIEW', status: 'DECLINED', resolvedByAdminId: admins.superadmin.id })]);
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'refund_request'), eq(auditLog.entityId, String(id))));
    expect(audit).toMatchObject({
      action: 'refund_request.decline',
      before: expect.objectContaining({ status: 'OPEN' }),
      after: expect.objectContaining({ status: 'DECLINED' }),
    });
    const [mail] = await clientMails(b.id, `mail-refund-review.${id}`);
    expect(mail!.text).toContain('We received ₹1,800. After review, ₹1,800 is not refunded: Cancelled on the day, as the terms say');
    await request(app).post(url).set(boss()).send({ reason: 'Again' }).expect(409);
    await request(app).post(`/api/admin/refund-requests/${id}/approve`).set(boss()).send({ refund: 'FULL' }).expect(409);
    // Recently decided, on the owner's list.
    expect((await attention()).refund_requests.recently_decided.map((i) => i.id)).toContain(id);
  });
});

describe('at the same moment', () => {
  it('two desks recording the same hand-over: one ledger row, the other 409; two approvals of one request: one refund', async () => {
    const b = await paidInCash('2026-11-30', '14:00');
    await request(app).post(`/api/manage/${b.token}/cancel`).expect(200);
    const send = () => request(app).post(`/api/admin/bookings/${b.id}/record-refund`).set(desk()).send({ method: 'CASH' });
    const statuses = (await Promise.all([send(), send()])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    expect((await ledgerOf(b.id)).filter((l) => l.kind === 'refund')).toHaveLength(1);

    const o = await paidOnline('2026-11-30', '15:00');
    await request(app).post(`/api/admin/bookings/${o.id}/cancel`).set(desk()).send({ refund: 'REQUEST', reason: 'Client asks' }).expect(200);
    const { id } = (await reviewOf(o.id))!;
    const approve = () => request(app).post(`/api/admin/refund-requests/${id}/approve`).set(boss()).send({ refund: 'FULL' });
    expect((await Promise.all([approve(), approve()])).map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, o.paymentId))).toHaveLength(1);
    expect((await ledgerOf(o.id)).filter((l) => l.kind === 'refund')).toHaveLength(1);
  });
});
