import { generateKeyPairSync } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Express } from 'express';
import nock from 'nock';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_MESSAGES as M } from '../../shared/contract/messages.ts';
import type { Config } from '../../shared/core/config.ts';
import { auditLog, bookings, centreHolidays, outbox, paymentsLedger, reportDaily, sandboxPaymentLinks, sandboxRefunds } from '../../shared/core/db/schema.ts';
import { JOBS, type JobName, type JobPayload } from '../../shared/core/jobs/jobs.ts';
import { googleMeetProvider } from '../../shared/core/providers/meetings/google.provider.ts';
import { hashBookingToken, manageTokenFor } from '../../shared/core/services/booking-token.ts';
import {
  createMeetingForBooking,
  sendChangeMail,
  sendConfirmation,
  sendReminder,
  updateMeetingForBooking,
  type NotificationDeps,
} from '../../shared/core/services/notification.service.ts';
import { centreInstant } from '../../shared/domain/time.ts';
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

const row = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const ist = (date: string, time: string) => centreInstant(date, time).toISOString();
const manage = (token: string) => `/api/manage/${token}`;
const tokenOfUrl = (url: string) => new URL(url).searchParams.get('token')!;

let clients = 0;
const nextEmail = () => `manage.client${++clients}@example.com`;

/** A paid online session with Dr. Asha Mehta, paid through the sandbox checkout; its Manage token from the payment-status answer. */
async function paidOnline(date: string, time: string, name = 'Meera Pillai'): Promise<{ id: number; token: string; paymentId: string; bookingToken: string }> {
  const made = await request(app)
    .post('/confirm-booking')
    .send(onlineBooking({ booking_date: date, booking_time_slot_start: time, client_email: nextEmail(), client_full_name: name }))
    .expect(200);
  const id = made.body.booking_id as number;
  const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', made.body.booking_token).send({ booking_id: id }).expect(200);
  const paid = await request(app).post(`/sandbox/checkout/${link.body.payment_link_id}/pay`).expect(303);
  const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
  const status = await request(app)
    .get(`/api/get-razorpay-details/${id}`)
    .query({ payment_status: 'paid', ...q })
    .expect(200);
  expect(status.body.data.payment_status).toBe('COMPLETED');
  return { id, token: tokenOfUrl(status.body.data.manage_url), paymentId: q.razorpay_payment_id!, bookingToken: made.body.booking_token };
}

/** An in-person session with Dr. Rohan Kapoor (confirmed as it is made, paid at the visit). */
async function inPerson(date: string, time: string, name = 'Arjun Rao'): Promise<{ id: number; token: string }> {
  const made = await request(app)
    .post('/confirm-booking')
    .send(offlineBooking({ booking_date: date, booking_time_slot_start: time, client_email: nextEmail(), client_full_name: name }))
    .expect(200);
  const id = made.body.booking_id as number;
  // The client's confirmation, as the worker sends it: the link in it is what the client holds.
  expect(await sendConfirmation(notify, id, 'client')).toBe('sent');
  return { id, token: tokenOfUrl(/https:\/\/booking\.example\.in\/manage-booking\?token=[\w-]+/.exec(sent.at(-1)!.text)![0]) };
}

const intentsOf = async (id: number, jobName: string) =>
  (await database.db.select().from(outbox).where(eq(outbox.jobName, jobName))).filter((o) => (o.payload as { bookingId: number }).bookingId === id);

/** A minimal RFC 5545 reader: unfolds lines and answers the calendar's and the event's properties by name. */
function parseIcs(text: string): { calendar: Record<string, string>; event: Record<string, string>; hasAlarm: boolean } {
  const lines = text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean);
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  expect(lines.at(-1)).toBe('END:VCALENDAR');
  const calendar: Record<string, string> = {};
  const event: Record<string, string> = {};
  let where: 'calendar' | 'event' | 'alarm' = 'calendar';
  let hasAlarm = false;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') where = 'event';
    else if (line === 'END:VEVENT') where = 'calendar';
    else if (line === 'BEGIN:VALARM') (where = 'alarm'), (hasAlarm = true);
    else if (line === 'END:VALARM') where = 'event';
    else if (where !== 'alarm') {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).split(';')[0]!;
      (where === 'event' ? event : calendar)[name] = line.slice(colon + 1);
    }
  }
  return { calendar, event, hasAlarm };
}
const icsStamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

describe('the Manage booking token', () => {
  it('is derived from the id, its hash written before the confirmation e-mail carries the link (text and HTML)', async () => {
    const made = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '10:00', client_email: nextEmail() }))
      .expect(200);
    // The public insert does not know the key: no hash, so no link works, until the confirmation goes out.
    expect((await row(made.body.booking_id)).manageTokenHash).toBeNull();
    await request(app)
      .get(manage(manageTokenFor(config.jwtSecret, made.body.booking_id).token))
      .expect(404);
    sent.length = 0;
    expect(await sendConfirmation(notify, made.body.booking_id, 'client')).toBe('sent');
    const b = { id: made.body.booking_id as number, token: manageTokenFor(config.jwtSecret, made.body.booking_id).token };
    const stored = await row(b.id);
    expect(stored.manageTokenHash).toBe(hashBookingToken(b.token));
    expect(b.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Its own derivation: never the booking token, never another booking's.
    expect(stored.manageTokenHash).not.toBe(stored.bookingTokenHash);
    expect(manageTokenFor(config.jwtSecret, b.id + 1).token).not.toBe(b.token);

    expect(await sendConfirmation(notify, b.id, 'client')).toBe('sent');
    const mail = sent.at(-1)!;
    const url = `https://booking.example.in/manage-booking?token=${b.token}`;
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(`<a href="${url}"`);
    expect(mail.html).toContain('Manage booking</a>');
    // The therapist's copy never carries the client's link.
    await sendConfirmation(notify, b.id, 'therapist');
    expect(sent.at(-1)!.text).not.toContain('manage-booking');
  });

  it('a manual booking by the centre gets its hash in the same transaction', async () => {
    const res = await request(app)
      .post('/confirm-booking')
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .send({
        therapist_id: 5,
        booking_date: '2026-11-24',
        booking_time_slot_start: '16:00',
        client_full_name: 'Walk In',
        client_email: 'walk.in.manage@example.com',
        client_mobile: '9876500011',
        booking_type: 'OFFLINE',
        location_id: 1,
        amount: 1800,
        admin_confirmed: true,
      })
      .expect(200);
    expect((await row(res.body.booking_id)).manageTokenHash).toBe(manageTokenFor(config.jwtSecret, res.body.booking_id).hash);
  });

  it('a booking from before the feature gets its hash when its confirmation is sent, and the link then works', async () => {
    const b = await inPerson('2026-11-24', '11:00');
    await database.db.update(bookings).set({ manageTokenHash: null }).where(eq(bookings.id, b.id));
    await request(app).get(manage(b.token)).expect(404);
    await sendConfirmation(notify, b.id, 'client');
    await request(app).get(manage(b.token)).expect(200);
  });

  it('the payment-status success answer carries manage_url once paid, only to the client who proved it is theirs', async () => {
    const made = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '12:00', client_email: nextEmail() }))
      .expect(200);
    const id = made.body.booking_id as number;
    // Unpaid: the client's own record, no link to manage it yet.
    const unpaid = await request(app).get(`/api/get-razorpay-details/${id}`).set('X-Booking-Token', made.body.booking_token).expect(200);
    expect(unpaid.body.data.manage_url).toBeNull();
    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', made.body.booking_token).send({ booking_id: id }).expect(200);
    const paid = await request(app).post(`/sandbox/checkout/${link.body.payment_link_id}/pay`).expect(303);
    const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
    const status = await request(app)
      .get(`/api/get-razorpay-details/${id}`)
      .query({ payment_status: 'paid', ...q })
      .expect(200);
    expect(status.body.data.manage_url).toBe(`https://booking.example.in/manage-booking?token=${manageTokenFor(config.jwtSecret, id).token}`);
    // Whoever holds only the link id learns the status, not the link.
    const stranger = await request(app).get(`/api/get-razorpay-details/${link.body.payment_link_id}`).expect(200);
    expect(stranger.body).toEqual({ data: { payment_status: 'COMPLETED' } });
  });
});

describe('GET /api/manage/{token}', () => {
  it("answers the booking's summary and what the client may do, privately", async () => {
    const b = await paidOnline('2026-11-26', '10:00');
    const res = await request(app).get(manage(b.token)).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.body).toEqual({
      booking_reference: String(b.id),
      therapist: { id: 1, name: 'Dr. Asha Mehta', title: 'Clinical Psychologist' },
      session_type: 'Individual therapy',
      booking_type: 'ONLINE',
      centre: null,
      booking_date: '2026-11-26',
      booking_time_slot_start: '10:00',
      booking_time_slot_end: '11:00',
      amount: 1500,
      payment_status: 'COMPLETED',
      payment_state: 'PAID',
      cancelled: false,
      // The meeting is made by its job after payment: none yet.
      meeting_link: null,
      can_reschedule: true,
      can_cancel: true,
      can_book_again: true,
      closed_reason: null,
      policy: expect.stringContaining('until 24 hours before it starts'),
      changes_close_at: ist('2026-11-25', '10:00'),
      reschedules_left: 2,
      refund_on_cancel: 1500,
      refund_on_cancel_at_centre: 0,
      support: { phone: '+91 22 4000 1234', email: 'care@wellbeingcentre.in' },
    });
    // Nothing about the client themselves: a forwarded link shows no contact details.
    expect(JSON.stringify(res.body)).not.toMatch(/manage\.client|9876543210|Meera/);
    await createMeetingForBooking(notify, b.id);
    const withLink = await request(app).get(manage(b.token)).expect(200);
    expect(withLink.body.meeting_link).toMatch(/^https:\/\/meet\.jit\.si\/WellbeingSession-[0-9a-f]{32}$/);
  });

  it('an in-person session shows its centre', async () => {
    const b = await inPerson('2026-11-25', '10:00');
    const res = await request(app).get(manage(b.token)).expect(200);
    expect(res.body).toMatchObject({
      booking_type: 'OFFLINE',
      centre: { name: expect.any(String), address: expect.any(String) },
      payment_status: 'PENDING',
      meeting_link: null,
      refund_on_cancel: 0,
    });
  });

  it('a malformed, unknown or booking token is 404, all with one answer', async () => {
    const b = await inPerson('2026-11-25', '11:00');
    const made = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '12:00', client_email: nextEmail() }))
      .expect(200);
    const flipped = b.token.slice(0, -1) + (b.token.endsWith('A') ? 'B' : 'A');
    const answers = await Promise.all(
      ['x', 'a'.repeat(44), 'a'.repeat(43), flipped, made.body.booking_token, `${b.token}x`, `${b.token.slice(0, 42)}%2F`].map((t) =>
        request(app).get(manage(t)),
      ),
    );
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.body).toEqual({ detail: 'Not found.' });
      expect(a.headers['cache-control']).toBe('no-store');
    }
    for (const path of [`${manage(flipped)}/cancel`, `${manage('x')}/reschedule`]) {
      const res = await request(app).post(path).send({ booking_date: '2026-11-27', booking_time_slot_start: '10:00' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
    }
  });

  it("one client's token never reveals or changes another's booking", async () => {
    const a = await paidOnline('2026-11-27', '10:00', 'Kavya Iyer');
    const b = await paidOnline('2026-11-27', '11:00', 'Rahul Verma');
    const seenByA = await request(app).get(manage(a.token)).expect(200);
    const seenByB = await request(app).get(manage(b.token)).expect(200);
    expect(seenByA.body.booking_reference).toBe(String(a.id));
    expect(seenByB.body.booking_reference).toBe(String(b.id));
    expect(seenByA.body.booking_time_slot_start).toBe('10:00');
    expect(JSON.stringify(seenByA.body)).not.toMatch(/Rahul|Kavya|manage\.client/);
    // A's token cancels A only.
    await request(app)
      .post(`${manage(a.token)}/cancel`)
      .expect(200);
    expect((await row(a.id)).cancelled).toBe(true);
    expect((await row(b.id)).cancelled).toBe(false);
    // The booking token the wizard holds is no Manage token.
    await request(app).get(manage(b.bookingToken)).expect(404);
  });

  it('works until the session ends, then is 404', async () => {
    const b = await inPerson('2026-11-24', '14:00');
    clock.set('2026-11-24T14:59:00+05:30');
    const during = await request(app).get(manage(b.token)).expect(200);
    expect(during.body).toMatchObject({ can_reschedule: false, can_cancel: false, closed_reason: 'PAST' });
    clock.set('2026-11-24T15:00:00+05:30');
    expect((await request(app).get(manage(b.token)).expect(404)).body).toEqual({ detail: 'Not found.' });
    await request(app)
      .post(`${manage(b.token)}/cancel`)
      .expect(404);
  });
});

describe('the notice window, in Asia/Kolkata whatever the server time zone', () => {
  const originalTz = process.env.TZ;
  afterAll(() => {
    process.env.TZ = originalTz;
  });

  it.each([
    ['America/New_York', '2026-11-26'],
    ['Asia/Kolkata', '2026-11-27'],
    ['UTC', '2026-11-28'],
  ])('server in %s: 24 h 00 min of notice is enough, 23 h 59 min is not, for both calls', async (tz, day) => {
    process.env.TZ = tz;
    const x = await inPerson(day, '10:00');
    const y = await inPerson(day, '11:00');
    const dayBefore = new Date(centreInstant(day, '10:00').getTime() - 24 * 3600_000);
    const at = (hhmm: string) => clock.set(new Date(centreInstant(day, hhmm).getTime() - 24 * 3600_000).toISOString());

    at('10:01'); // 23 h 59 min before x
    const closed = await request(app).get(manage(x.token)).expect(200);
    expect(closed.body).toMatchObject({ can_reschedule: false, can_cancel: false, closed_reason: 'NOTICE_WINDOW', changes_close_at: dayBefore.toISOString() });
    for (const call of [
      request(app)
        .post(`${manage(x.token)}/reschedule`)
        .send({ booking_date: day, booking_time_slot_start: '15:00' }),
      request(app).post(`${manage(x.token)}/cancel`),
    ]) {
      const res = await call;
      expect(res.status).toBe(409);
      expect(res.body.detail).toContain('less than 24 hours');
      expect(res.body.detail).toContain('+91 22 4000 1234');
      expect(res.body.detail).toContain('care@wellbeingcentre.in');
      expect(res.body.detail).toContain('100% of the session fee');
    }
    expect(await row(x.id)).toMatchObject({ bookingDate: day, bookingTimeSlotStart: '10:00:00', cancelled: false, rescheduleCount: 0 });

    at('10:00'); // exactly 24 h before x
    expect((await request(app).get(manage(x.token)).expect(200)).body).toMatchObject({ can_reschedule: true, can_cancel: true, closed_reason: null });
    await request(app)
      .post(`${manage(x.token)}/reschedule`)
      .send({ booking_date: day, booking_time_slot_start: '15:00' })
      .expect(200);

    at('11:01');
    expect((await request(app).post(`${manage(y.token)}/cancel`)).status).toBe(409);
    at('11:00');
    await request(app)
      .post(`${manage(y.token)}/cancel`)
      .expect(200);
    expect((await row(y.id)).cancelled).toBe(true);
  });
});

describe('POST /api/manage/{token}/reschedule', () => {
  it('refuses a new time inside the notice window: the session could not be changed again (issue 32)', async () => {
    // Monday 09:30 at the centre; the session is on Saturday.
    const b = await paidOnline('2026-11-28', '11:00');
    for (const [date, time] of [
      ['2026-11-23', '17:00'],
      ['2026-11-24', '09:00'],
    ]) {
      const res = await request(app)
        .post(`${manage(b.token)}/reschedule`)
        .send({ booking_date: date, booking_time_slot_start: time });
      expect(res.status, `${date} ${time}`).toBe(400);
      if (time === '17:00')
        expect(res.body.detail).toBe(
          'Please choose a time at least 24 hours from now: a session can be moved online only to a time that can itself still be changed.',
        );
    }
    expect(await row(b.id)).toMatchObject({ bookingDate: '2026-11-28', bookingTimeSlotStart: '11:00:00', rescheduleCount: 0 });
    // A day and more away is enough.
    const moved = await request(app)
      .post(`${manage(b.token)}/reschedule`)
      .send({ booking_date: '2026-11-24', booking_time_slot_start: '16:00' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  });

  it('moves the session in one transaction: slot, counts, payment and meeting link kept, e-mails, meeting move, new reminder, audit as the client, stale reports dropped', async () => {
    const b = await paidOnline('2026-11-30', '10:00');
    await createMeetingForBooking(notify, b.id);
    const before = await row(b.id);
    for (const date of ['2026-11-30', '2026-12-01']) {
      await database.db
        .insert(reportDaily)
        .values({ reportDate: date, totalBookings: 1, completedBookings: 1, cancelledBookings: 0, failedBookings: 0, incomePaise: 150_000 })
        .onConflictDoNothing();
    }
    const res = await request(app)
      .post(`${manage(b.token)}/reschedule`)
      .send({ booking_date: '2026-12-01', booking_time_slot_start: '14:00' })
      .expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.message).toBe(
      'Your session has been moved to Tuesday, December 1, 2026 at 2:00 PM IST. We have sent you an e-mail with the updated calendar invitation.',
    );
    expect(res.body.booking).toMatchObject({
      booking_date: '2026-12-01',
      booking_time_slot_start: '14:00',
      booking_time_slot_end: '15:00',
      reschedules_left: 1,
      payment_status: 'COMPLETED',
      meeting_link: before.googleMeetLink,
    });

    const after = await row(b.id);
    expect(after).toMatchObject({
      bookingDate: '2026-12-01',
      bookingTimeSlotStart: '14:00:00',
      rescheduleCount: 1,
      calendarSequence: 1,
      paymentStatus: 'COMPLETED',
      razorpayPaymentId: before.razorpayPaymentId,
      amountPaise: before.amountPaise,
      googleMeetLink: before.googleMeetLink,
      manageTokenHash: before.manageTokenHash,
    });
    expect(await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, b.id))).toHaveLength(1);
    // The old slot is free, the new one taken.
    const offer = await request(app).get('/api/slots?therapist_id=1').expect(200);
    const slots = (date: string) => offer.body.days.find((d: { date: string }) => d.date === date).slots.map((s: { start_time: string }) => s.start_time);
    expect(slots('2026-11-30')).toContain('10:00');
    expect(slots('2026-12-01')).not.toContain('14:00');
    // Both days' nightly aggregates were stale and are gone.
    expect(await database.db.select().from(reportDaily)).toEqual([]);

    const changed = (await intentsOf(b.id, 'mail.booking-changed')).map((o) => o.payload);
    expect(changed).toEqual(
      expect.arrayContaining([
        { bookingId: b.id, recipient: 'client', change: 'moved', sequence: 1, from: { date: '2026-11-30', time: '10:00' } },
        { bookingId: b.id, recipient: 'therapist', change: 'moved', sequence: 1, from: { date: '2026-11-30', time: '10:00' } },
      ]),
    );
    expect((await intentsOf(b.id, 'meetings.update')).map((o) => o.jobId)).toEqual([`meeting-update.${b.id}.1`]);
    const reminders = await intentsOf(b.id, 'mail.booking-reminder');
    expect(reminders.map((o) => [o.payload, o.availableAt.toISOString()])).toEqual(
      expect.arrayContaining([
        [{ bookingId: b.id, sessionStartsAt: ist('2026-11-30', '10:00') }, ist('2026-11-29', '10:00')],
        [{ bookingId: b.id, sessionStartsAt: ist('2026-12-01', '14:00') }, ist('2026-11-30', '14:00')],
      ]),
    );

    // Every intent is one the worker accepts (it validates each payload against JOBS before its handler runs).
    for (const o of await database.db.select().from(outbox)) {
      if ((o.payload as { bookingId?: number }).bookingId === b.id) expect(JOBS[o.jobName as JobName].payload.safeParse(o.payload).success).toBe(true);
    }

    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(b.id)), eq(auditLog.action, 'booking.client_reschedule')));
    expect(audit).toMatchObject({ adminId: null, actor: 'client', entityType: 'booking' });
    expect(audit!.before).toMatchObject({ booking_date: '2026-11-30', booking_time_slot_start: '10:00', reschedule_count: 0 });
    expect(audit!.after).toMatchObject({ booking_date: '2026-12-01', booking_time_slot_start: '14:00', reschedule_count: 1 });

    // The admin side reads the booking live: the list, the calendar's month, the audit log "by Client".
    const boss = bearer(tokenFor(admins.superadmin, clock.now()));
    const list = await request(app).get('/api/admin/bookings').query({ from: '2026-11-30', to: '2026-12-01' }).set(boss).expect(200);
    expect(list.body.find((x: { id: number }) => x.id === b.id)).toMatchObject({
      booking_date: '2026-12-01',
      booking_time_slot_start: '14:00',
      cancelled: false,
      // Made by the client: the panel says so beside the status.
      client_change: { kind: 'MOVED', at: clock.now().toISOString() },
    });
    const log = await request(app).get('/api/admin/audit-log').query({ page: 1, page_size: 50 }).set(boss).expect(200);
    const entry = log.body.items.find((i: { action: string; entity_id: string }) => i.action === 'booking.client_reschedule' && i.entity_id === String(b.id));
    expect(entry).toMatchObject({ by: 'Client', actor: 'client', admin_id: null });
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        { field: 'booking_date', before: '2026-11-30', after: '2026-12-01' },
        { field: 'reschedule_count', before: 0, after: 1 },
      ]),
    );
  });

  it('the new slot must be on the public offer: Sunday, outside the window, off the hours, a holiday, a blocked slot, a passed time, the same time', async () => {
    const b = await inPerson('2026-12-02', '10:00');
    const boss = bearer(tokenFor(admins.superadmin, clock.now()));
    await database.db.insert(centreHolidays).values({ holidayDate: '2026-12-03', reason: 'Centre closed' });
    await request(app)
      .post('/api/admin/availability/block')
      .set(boss)
      .send({ therapist_id: 5, start_time: '15:00', date: '2026-12-02', action: 'block' })
      .expect(200);
    const cases: [Record<string, string>, string][] = [
      [{ booking_date: '2026-11-29', booking_time_slot_start: '10:00' }, M.sundayClosed],
      [{ booking_date: '2027-01-05', booking_time_slot_start: '10:00' }, M.dateOutsideWindow],
      [{ booking_date: '2026-12-02', booking_time_slot_start: '13:00' }, M.slotNotOffered],
      [{ booking_date: '2026-12-03', booking_time_slot_start: '10:00' }, M.slotNotOffered],
      [{ booking_date: '2026-12-02', booking_time_slot_start: '15:00' }, M.slotNotOffered],
      [{ booking_date: '2026-11-23', booking_time_slot_start: '09:00' }, M.slotPassed],
      [{ booking_date: '2026-12-02', booking_time_slot_start: '10:00' }, 'Your session is already at this time. Please choose another.'],
    ];
    for (const [body, detail] of cases) {
      const res = await request(app)
        .post(`${manage(b.token)}/reschedule`)
        .send(body);
      expect([res.status, res.body.detail]).toEqual([400, detail]);
    }
    for (const body of [{}, { booking_date: '2026-12-04' }, { booking_date: '2026-12-04', booking_time_slot_start: '10:00', therapist_id: 2 }, []]) {
      expect(
        (
          await request(app)
            .post(`${manage(b.token)}/reschedule`)
            .send(body)
        ).status,
      ).toBe(400);
    }
    expect(await row(b.id)).toMatchObject({ bookingDate: '2026-12-02', bookingTimeSlotStart: '10:00:00', rescheduleCount: 0, calendarSequence: 0 });
  });

  it("a slot another client holds is 409 with the wizard's message", async () => {
    const b = await inPerson('2026-12-04', '10:00');
    await inPerson('2026-12-04', '11:00');
    const res = await request(app)
      .post(`${manage(b.token)}/reschedule`)
      .send({ booking_date: '2026-12-04', booking_time_slot_start: '11:00' });
    expect([res.status, res.body.detail]).toEqual([409, M.slotTaken]);
  });

  it('two clients racing for one new slot: one 200, one 409, and the loser keeps their session', async () => {
    const a = await inPerson('2026-12-05', '10:00');
    const b = await inPerson('2026-12-05', '11:00');
    const move = (token: string) =>
      request(app)
        .post(`${manage(token)}/reschedule`)
        .send({ booking_date: '2026-12-05', booking_time_slot_start: '12:00' });
    const answers = await Promise.all([move(a.token), move(b.token)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)!.body.detail).toBe(M.slotTaken);
    const rows = [await row(a.id), await row(b.id)];
    expect(rows.filter((r) => r.bookingTimeSlotStart === '12:00:00')).toHaveLength(1);
    const loser = rows.find((r) => r.bookingTimeSlotStart !== '12:00:00')!;
    expect(loser).toMatchObject({ rescheduleCount: 0, calendarSequence: 0 });
    expect(await intentsOf(loser.id, 'mail.booking-changed')).toEqual([]);
  });

  it('is allowed MAX_RESCHEDULES (2) times; then only cancelling is offered', async () => {
    const b = await inPerson('2026-12-07', '10:00');
    await request(app)
      .post(`${manage(b.token)}/reschedule`)
      .send({ booking_date: '2026-12-07', booking_time_slot_start: '11:00' })
      .expect(200);
    await request(app)
      .post(`${manage(b.token)}/reschedule`)
      .send({ booking_date: '2026-12-07', booking_time_slot_start: '12:00' })
      .expect(200);
    const third = await request(app)
      .post(`${manage(b.token)}/reschedule`)
      .send({ booking_date: '2026-12-07', booking_time_slot_start: '14:00' });
    expect(third.status).toBe(409);
    expect(third.body.detail).toContain('already been moved twice');
    expect(third.body.detail).toContain('+91 22 4000 1234');
    const now = await request(app).get(manage(b.token)).expect(200);
    expect(now.body).toMatchObject({
      booking_time_slot_start: '12:00',
      can_reschedule: false,
      can_cancel: true,
      closed_reason: 'RESCHEDULE_LIMIT',
      reschedules_left: 0,
    });
    expect(await row(b.id)).toMatchObject({ rescheduleCount: 2, calendarSequence: 2 });
    await request(app)
      .post(`${manage(b.token)}/cancel`)
      .expect(200);
  });
});

describe('POST /api/manage/{token}/cancel', () => {
  it('a paid booking is refunded in full through the provider (ledger, idempotency key) and cancelled', async () => {
    const b = await paidOnline('2026-12-08', '10:00');
    const res = await request(app)
      .post(`${manage(b.token)}/cancel`)
      .expect(200);
    expect(res.body.message).toBe(
      'Your booking has been cancelled. ₹1,500 has been refunded in full to your original payment method; it usually reaches you within 5–7 working days. We have sent you an e-mail to confirm it.',
    );
    expect(res.body.booking).toMatchObject({
      cancelled: true,
      can_reschedule: false,
      can_cancel: false,
      closed_reason: 'CANCELLED',
      meeting_link: null,
      refund_on_cancel: 0,
    });
    expect(await row(b.id)).toMatchObject({ cancelled: true, paymentStatus: 'COMPLETED', calendarSequence: 1 });
    const refunds = await database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, b.paymentId));
    expect(refunds).toEqual([expect.objectContaining({ amountPaise: 150_000, status: 'processed', idempotencyKey: `client-cancel-${b.id}-${b.paymentId}` })]);
    const ledger = await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, b.id)).orderBy(paymentsLedger.id);
    expect(ledger.map((l) => [l.kind, l.amountPaise, l.reason])).toEqual([
      ['capture', 150_000, null],
      ['refund', -150_000, 'Cancelled by the client'],
    ]);
    // The slot is free again; a second cancel changes nothing.
    const again = await request(app).post(`${manage(b.token)}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('has been cancelled');
    expect(await database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, b.paymentId))).toHaveLength(1);
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(b.id)), eq(auditLog.action, 'booking.client_cancel')));
    expect(audit).toMatchObject({ adminId: null, actor: 'client' });
    expect(audit!.after).toMatchObject({ cancelled: true, refund: { choice: 'FULL', amount: 1500 } });
    expect((await intentsOf(b.id, 'mail.booking-changed')).map((o) => o.payload)).toEqual(
      expect.arrayContaining([
        { bookingId: b.id, recipient: 'client', change: 'cancelled', sequence: 1 },
        { bookingId: b.id, recipient: 'therapist', change: 'cancelled', sequence: 1 },
      ]),
    );
    // The admin list shows it cancelled and refunded.
    const list = await request(app)
      .get('/api/admin/bookings')
      .query({ from: '2026-12-08', to: '2026-12-08' })
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .expect(200);
    expect(list.body.find((x: { id: number }) => x.id === b.id)).toMatchObject({
      cancelled: true,
      amount_refunded: 1500,
      payment_note: 'Refunded ₹1,500.00',
      client_change: { kind: 'CANCELLED', at: clock.now().toISOString() },
    });
  });

  it('an unpaid in-person booking is released, and its open payment link closed', async () => {
    const b = await inPerson('2026-12-08', '11:00');
    const txn = (await row(b.id)).paymentTransactionId!;
    const made = await request(app)
      .post('/api/create-shareable-payment-link')
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .send({ amount: 1800, booking_id: b.id, merchant_transaction_id: txn })
      .expect(200);
    const linkId = new URL(made.body.payment_link_url).pathname.split('/').pop()!;
    const res = await request(app)
      .post(`${manage(b.token)}/cancel`)
      .expect(200);
    expect(res.body.message).toBe('Your booking has been cancelled. We have sent you an e-mail to confirm it.');
    expect(await row(b.id)).toMatchObject({ cancelled: true, paymentStatus: 'PENDING' });
    expect((await database.db.select().from(sandboxPaymentLinks).where(eq(sandboxPaymentLinks.id, linkId)))[0]!.status).toBe('cancelled');
    expect(await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, b.id))).toEqual([]);
  });
});

describe('after a change: e-mails with the calendar update, the reminder, the meeting', () => {
  const changePayloads = async (id: number) =>
    (await intentsOf(id, 'mail.booking-changed'))
      .map((o) => o.payload as JobPayload<'mail.booking-changed'>)
      .sort((x, y) => x.sequence - y.sequence || x.recipient.localeCompare(y.recipient));

  it('the .ics files keep the UID, raise SEQUENCE, and a cancellation is METHOD:CANCEL', async () => {
    const b = await paidOnline('2026-12-09', '10:00');
    await createMeetingForBooking(notify, b.id);
    await sendConfirmation(notify, b.id, 'client');
    const first = parseIcs(sent.at(-1)!.ics!);
    expect(first.calendar.METHOD).toBe('REQUEST');
    expect(first.event).toMatchObject({ SEQUENCE: '0', STATUS: 'CONFIRMED', DTSTART: icsStamp(ist('2026-12-09', '10:00')) });

    await request(app)
      .post(`${manage(b.token)}/reschedule`)
      .send({ booking_date: '2026-12-09', booking_time_slot_start: '15:00' })
      .expect(200);
    sent.length = 0;
    for (const p of await changePayloads(b.id)) expect(await sendChangeMail(notify, p)).toBe('sent');
    const clientEmail = (await row(b.id)).clientEmail;
    const [toClient, toTherapist] = [sent.find((m) => m.to === clientEmail)!, sent.find((m) => m.to === 'asha.mehta@wellbeingcentre.in')!];
    expect(toClient.subject).toBe('Session moved: now Wednesday, December 9, 2026 at 3:00 PM IST');
    expect(toClient.text).toContain('from Wednesday, December 9, 2026 at 10:00 AM IST to Wednesday, December 9, 2026 at 3:00 PM IST');
    expect(toClient.text).toContain(`manage-booking?token=${b.token}`);
    expect(toTherapist.text).toContain('has moved their session with you');
    for (const m of [toClient, toTherapist]) {
      const moved = parseIcs(m.ics!);
      expect(moved.calendar.METHOD).toBe('REQUEST');
      expect(moved.event).toMatchObject({
        UID: first.event.UID,
        SEQUENCE: '1',
        STATUS: 'CONFIRMED',
        DTSTART: icsStamp(ist('2026-12-09', '15:00')),
        DTEND: icsStamp(ist('2026-12-09', '16:00')),
      });
      // The same meeting link as before.
      expect(moved.event.URL).toBe(first.event.URL);
    }

    await request(app)
      .post(`${manage(b.token)}/cancel`)
      .expect(200);
    sent.length = 0;
    const payloads = await changePayloads(b.id);
    // The move's messages, sent again by a retry, are now overtaken by the cancellation: not sent.
    for (const p of payloads.filter((x) => x.sequence === 1)) expect(await sendChangeMail(notify, p)).toBe('skipped');
    for (const p of payloads.filter((x) => x.sequence === 2)) expect(await sendChangeMail(notify, p)).toBe('sent');
    expect(sent).toHaveLength(2);
    for (const m of sent) {
      const cancel = parseIcs(m.ics!);
      expect(cancel.calendar.METHOD).toBe('CANCEL');
      expect(cancel.event).toMatchObject({ UID: first.event.UID, SEQUENCE: '2', STATUS: 'CANCELLED' });
      expect(cancel.hasAlarm).toBe(false);
    }
    const clientMail = sent.find((m) => m.to !== 'asha.mehta@wellbeingcentre.in')!;
    expect(clientMail.subject).toBe('Booking cancelled: your session on Wednesday, December 9, 2026 at 3:00 PM IST');
    expect(clientMail.text).toContain('₹1,500 has been refunded in full to your original payment method');
  });

  it('the reminder of the old time is skipped, the new time gets its own', async () => {
    const b = await inPerson('2026-12-09', '10:00');
    const [old] = await intentsOf(b.id, 'mail.booking-reminder');
    expect(old!.jobId).toBe(`mail-reminder.${b.id}.${centreInstant('2026-12-09', '10:00').getTime()}`);
    await request(app)
      .post(`${manage(b.token)}/reschedule`)
      .send({ booking_date: '2026-12-09', booking_time_slot_start: '14:00' })
      .expect(200);
    const reminders = await intentsOf(b.id, 'mail.booking-reminder');
    const fresh = reminders.find((r) => r.jobId !== old!.jobId)!;
    expect(fresh.jobId).toBe(`mail-reminder.${b.id}.${centreInstant('2026-12-09', '14:00').getTime()}`);
    clock.set('2026-12-08T10:00:00+05:30');
    const oldPayload = old!.payload as JobPayload<'mail.booking-reminder'>;
    const freshPayload = fresh.payload as JobPayload<'mail.booking-reminder'>;
    expect(await sendReminder(notify, b.id, oldPayload.sessionStartsAt)).toBe('skipped');
    expect(await sendReminder(notify, b.id, freshPayload.sessionStartsAt)).toBe('sent');
    expect(sent.at(-1)!.subject).toBe('Reminder: your session on Wednesday, December 9, 2026 at 2:00 PM IST');
    // A cancelled session gets none.
    clock.set(MONDAY_MORNING_IST);
    await request(app)
      .post(`${manage(b.token)}/cancel`)
      .expect(200);
    clock.set('2026-12-08T14:00:00+05:30');
    expect(await sendReminder(notify, b.id, freshPayload.sessionStartsAt)).toBe('skipped');
  });

  it('the meeting is moved, not re-created: Google patches its event (keeping the link) and deletes it on cancel; Jitsi keeps its room', async () => {
    const b = await paidOnline('2026-12-07', '10:00');
    await createMeetingForBooking(notify, b.id);
    const link = (await row(b.id)).googleMeetLink;
    await request(app)
      .post(`${manage(b.token)}/reschedule`)
      .send({ booking_date: '2026-12-07', booking_time_slot_start: '16:00' })
      .expect(200);
    expect(await updateMeetingForBooking(notify, b.id, 1)).toBe('unchanged');
    expect((await row(b.id)).googleMeetLink).toBe(link);

    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const google = googleMeetProvider({
      serviceAccountEmail: 'booking@project.iam.gserviceaccount.com',
      privateKey: pem,
      impersonateUser: 'care@wellbeingcentre.in',
      calendarId: 'primary',
    });
    const eventPath = `/calendar/v3/calendars/primary/events/booking${String(b.id).padStart(6, '0')}`;
    let patched: Record<string, unknown> = {};
    nock('https://oauth2.googleapis.com').post('/token').reply(200, { access_token: 'ya29.test', expires_in: 3600 });
    nock('https://www.googleapis.com')
      .patch(eventPath, (body) => ((patched = body), true))
      .query({ sendUpdates: 'none' })
      .matchHeader('authorization', 'Bearer ya29.test')
      .reply(200, { id: 'x', hangoutLink: link });
    const withGoogle = { ...notify, meetings: google };
    expect(await updateMeetingForBooking(withGoogle, b.id, 1)).toBe('moved');
    expect(patched).toEqual({
      start: { dateTime: ist('2026-12-07', '16:00'), timeZone: 'Asia/Kolkata' },
      end: { dateTime: ist('2026-12-07', '17:00'), timeZone: 'Asia/Kolkata' },
    });
    // A job overtaken by a later change does nothing.
    await request(app)
      .post(`${manage(b.token)}/cancel`)
      .expect(200);
    expect(await updateMeetingForBooking(withGoogle, b.id, 1)).toBe('skipped');
    nock('https://www.googleapis.com').delete(eventPath).query({ sendUpdates: 'none' }).reply(204);
    expect(await updateMeetingForBooking(withGoogle, b.id, 2)).toBe('cancelled');
    // Already gone (a retry): still done.
    nock('https://www.googleapis.com').delete(eventPath).query({ sendUpdates: 'none' }).reply(410, { error: 'gone' });
    expect(await updateMeetingForBooking(withGoogle, b.id, 2)).toBe('cancelled');
    expect(nock.isDone()).toBe(true);
  });
});
