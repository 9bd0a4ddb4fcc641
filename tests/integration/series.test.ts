import { and, eq, inArray, like } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import { auditLog, bookings, centreHolidays, outbox, paymentsLedger, series, therapistTimeOff } from '../../shared/core/db/schema.ts';
import { manageTokenFor } from '../../shared/core/services/booking-token.ts';
import { capturingMailer } from '../support/mailing.ts';
import type { WorkerDeps } from '../../worker/src/handlers/handler.ts';
import { insertBooking, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { mondayDesk, seededWithAdmins } from '../support/desk.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';
import { configFor, inProcessPayments } from '../support/jobs.ts';
import { inProcessWorker, runDueJobs } from '../support/run-jobs.ts';

/**
 * Series (issue 34, section 1): staff book a course of sessions at once. Every date is asked of the one
 * checker and all are written in one transaction, or none (409 with each date's reason and the nearest
 * free time that day), or the rest with on_conflict "skip"; the live-slot index decides a race. Each
 * session is a booking like any other; the series has one confirmation e-mail with one calendar file.
 *
 * Monday 23 November 2026, 09:30 at the centre. Dr. Asha Mehta (1, online, 1500) and Dr. Rohan Kapoor
 * (5, in person at the West Branch (1), 1800) work 10, 11, 12, 14, 15, 16 and 17:00 every day.
 */
const clock = fixedClock(MONDAY_MORNING_IST);
let database: TestDatabase, admins: Admins, app: Express, config: Config, worker: WorkerDeps;
let desk: Record<string, string>, boss: Record<string, string>;
const { sent, mailer } = capturingMailer();
/** Each test books its own client, so its rows are told apart from the others'. */
let n = 0;
const client = () => {
  n += 1;
  return { client_full_name: `Series Client ${n}`, client_email: `series${n}@example.com`, client_mobile: `98200${String(n).padStart(5, '0')}` };
};

beforeAll(async () => {
  ({ database, admins } = await seededWithAdmins());
  config = configFor({ PUBLIC_BASE_URL: 'https://booking.example.in' });
  const { payments, jobs } = inProcessPayments(database, config, clock.now);
  app = testApp(database, { config, now: clock.now, payments, jobs });
  worker = inProcessWorker(database, payments, config, clock.now, mailer);
});
beforeEach(() => {
  ({ desk, boss } = mondayDesk(clock, admins));
  sent.length = 0;
});
afterAll(() => database.drop());

const online = (over: Record<string, unknown> = {}) => ({
  therapist_id: 1,
  booking_type: 'ONLINE',
  booking_time_slot_start: '11:00',
  first_date: '2026-11-24',
  interval_weeks: 1,
  count: 16,
  payment: 'PAID_NOW',
  payment_method: 'CASH',
  ...client(),
  ...over,
});
const inPerson = (over: Record<string, unknown> = {}) => ({
  therapist_id: 5,
  booking_type: 'OFFLINE',
  location_id: 1,
  booking_time_slot_start: '14:00',
  first_date: '2026-11-25',
  interval_weeks: 2,
  count: 6,
  payment: 'PAY_AT_CENTRE',
  ...client(),
  ...over,
});
const book = (body: object, as = desk) => request(app).post('/api/admin/series').set(as).send(body);
const sessionsOf = (seriesId: number) => database.db.select().from(bookings).where(eq(bookings.seriesId, seriesId)).orderBy(bookings.bookingDate);
const rowsOfClient = (email: string) => database.db.select().from(bookings).where(eq(bookings.clientEmail, email));
/** Runs the outbox's jobs of these bookings and series (the other tests' jobs stay where they are). */
const runJobs = () => runDueJobs(worker, { skip: ['payments.sandbox-webhook', 'payments.send-link'] });

describe('POST /api/admin/series', () => {
  it('books 16 weekly sessions paid now: each a booking of its own, one ledger row and audit row each, one series e-mail with one .ics of 16 events', async () => {
    const body = online();
    const res = await book(body).expect(201);
    const dates = Array.from({ length: 16 }, (_, k) => new Date(Date.UTC(2026, 10, 24 + 7 * k)).toISOString().slice(0, 10));
    expect(res.body.conflicts).toEqual([]);
    expect(res.body.bookings.map((b: { booking_date: string }) => b.booking_date)).toEqual(dates);
    expect(res.body.bookings.every((b: { booking_time_slot_start: string }) => b.booking_time_slot_start === '11:00')).toBe(true);
    const seriesId = res.body.series_id as number;
    const rows = await sessionsOf(seriesId);
    expect(rows).toHaveLength(16);
    for (const r of rows) {
      expect(r).toMatchObject({
        therapistId: 1,
        bookingType: 'ONLINE',
        paymentStatus: 'COMPLETED',
        amountPaise: 150_000,
        adminConfirmed: true,
        cancelled: false,
      });
      // Its own Manage booking link, from its own id.
      expect(r.manageTokenHash).toBe(manageTokenFor(config.jwtSecret, r.id).hash);
    }
    const ids = rows.map((r) => r.id);
    const ledger = await database.db.select().from(paymentsLedger).where(inArray(paymentsLedger.bookingId, ids));
    expect(ledger.map((l) => [l.kind, l.amountPaise, l.method, l.provider])).toEqual(ids.map(() => ['capture', 150_000, 'CASH', 'counter']));
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.action, ['series.create', 'booking.series_create']));
    expect(audits.filter((a) => a.action === 'series.create' && a.entityId === String(seriesId))).toHaveLength(1);
    expect(audits.filter((a) => a.action === 'booking.series_create' && ids.map(String).includes(a.entityId))).toHaveLength(16);

    const ran = await runJobs();
    // No session's own confirmation: one for the series, to each side, once every meeting link is made.
    expect(ran.filter((j) => j.name === 'mail.booking-confirmation')).toEqual([]);
    expect(ran.filter((j) => j.name === 'meetings.create')).toHaveLength(16);
    expect(ran.filter((j) => j.name === 'mail.series-confirmation').map((j) => j.result)).toEqual([{ result: 'sent' }, { result: 'sent' }]);
    const reminders = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.jobName, 'mail.booking-reminder'), like(outbox.jobId, 'mail-reminder.%')));
    expect(ids.every((id) => reminders.some((r) => (r.payload as { bookingId: number }).bookingId === id))).toBe(true);

    const toClient = sent.filter((m) => m.to === body.client_email);
    expect(toClient).toHaveLength(1);
    const mail = toClient[0]!;
    expect(mail.subject).toBe('Booking confirmed: 16 sessions from Tuesday, November 24, 2026 at 11:00 AM IST');
    for (const r of rows) expect(mail.text).toContain(`/manage-booking?token=${manageTokenFor(config.jwtSecret, r.id).token}`);
    const ics = mail.ics!;
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(16);
    expect(ics.match(/^METHOD:REQUEST\r$/m)).not.toBeNull();
    // The UIDs the sessions' own invitations use, so a later change to one updates that event.
    expect([...ics.matchAll(/^UID:(.*)\r$/gm)].map((m) => m[1])).toEqual(ids.map((id) => `booking-${id}@booking.example.in`));
    const meetLinks = (await sessionsOf(seriesId)).map((r) => r.googleMeetLink);
    expect(meetLinks.every((l) => l?.startsWith('https://meet.jit.si/'))).toBe(true);
    expect(sent.filter((m) => m.to === 'asha.mehta@wellbeingcentre.in')).toHaveLength(1);
  });

  it('refuses the whole series with 409 when dates cannot be booked: each with its reason and the nearest free time that day; nothing is written', async () => {
    const body = online({ count: 8, booking_time_slot_start: '15:00' });
    await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-12-08', bookingTimeSlotStart: '15:00' });
    await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-12-08', bookingTimeSlotStart: '14:00' });
    await insertBooking(database.db, {
      therapistId: 1,
      bookingDate: '2026-12-15',
      bookingTimeSlotStart: '15:00',
      bookingType: 'ADMIN_BLOCK',
      paymentStatus: 'BLOCKED',
    });
    await database.db.insert(centreHolidays).values({ holidayDate: '2026-12-22', reason: 'Holiday' });
    await database.db.insert(therapistTimeOff).values({ therapistId: 1, fromDate: '2026-12-29', toDate: '2026-12-29' });
    const seriesBefore = await database.db.select().from(series);
    const res = await book(body).expect(409);
    expect(res.body).toEqual({
      detail: '4 of the 8 dates cannot be booked; nothing was booked. Choose other times for them, or book the rest and skip them.',
      conflicts: [
        { booking_date: '2026-12-08', reason: 'Already booked by another client.', nearest_free_time: '16:00' },
        { booking_date: '2026-12-15', reason: 'Blocked by the centre.', nearest_free_time: '14:00' },
        {
          booking_date: '2026-12-22',
          reason: 'The centre is closed or the therapist is away on this date (holiday or time off).',
          nearest_free_time: null,
        },
        {
          booking_date: '2026-12-29',
          reason: 'The centre is closed or the therapist is away on this date (holiday or time off).',
          nearest_free_time: null,
        },
      ],
    });
    expect(await rowsOfClient(body.client_email)).toEqual([]);
    expect(await database.db.select().from(series)).toEqual(seriesBefore);

    // on_conflict "skip": the rest are booked, and the skipped listed.
    const skipped = await book({ ...body, on_conflict: 'skip' }).expect(201);
    expect(skipped.body.bookings.map((b: { booking_date: string }) => b.booking_date)).toEqual(['2026-11-24', '2026-12-01', '2027-01-05', '2027-01-12']);
    expect(skipped.body.conflicts.map((c: { booking_date: string }) => c.booking_date)).toEqual(['2026-12-08', '2026-12-15', '2026-12-22', '2026-12-29']);
    expect(await rowsOfClient(body.client_email)).toHaveLength(4);
  });

  it('says what is wrong with the request as a whole in the field’s words', async () => {
    const wrongType = await book(online({ therapist_id: 5 })).expect(400);
    expect(wrongType.body.detail).toBe('The selected therapist does not offer this type of session.');
    const linkInPerson = await book(inPerson({ payment: 'SEND_LINK' })).expect(400);
    expect(linkInPerson.body.errors).toMatchObject({
      payment: 'A payment link per session is for online sessions; an in-person series is paid at the centre or now.',
    });
    await book(online({ count: 1 })).expect(400);
    await book(online({ count: 53 })).expect(400);
    await book(online({ interval_weeks: 3 })).expect(400);
    await book(online({ payment_method: undefined })).expect(400);
    await request(app).post('/api/admin/series').send(online()).expect(401);
  });

  it('two series racing for the same slots: the live-slot index decides, the loser gets a 409 naming the date and writes nothing', async () => {
    const second = online({ count: 3, first_date: '2027-02-09', booking_time_slot_start: '15:00' });
    // Another transaction holds 16 February 15:00 uncommitted: the series' check cannot see it, its
    // insert waits on the index, and once that commits the series is refused whole.
    const blocker = await database.pool.connect();
    try {
      await blocker.query('begin');
      await blocker.query(
        `insert into bookings (therapist_id, booking_date, booking_time_slot_start, booking_type, payment_status, amount_paise, client_email)
         values (1, '2027-02-16', '15:00', 'ONLINE', 'COMPLETED', 150000, 'blocker@example.com')`,
      );
      const pending = book(second).then((r) => r);
      await waitForLockWait();
      await blocker.query('commit');
      const lost = await pending;
      expect(lost.status).toBe(409);
      expect(lost.body.conflicts).toEqual([{ booking_date: '2027-02-16', reason: 'Booked by someone else a moment ago.', nearest_free_time: '14:00' }]);
      expect(await rowsOfClient(second.client_email)).toEqual([]);
    } finally {
      blocker.release();
    }
    // Two overlapping series sent at once: whichever reaches the index first is written whole, the other not at all.
    const a = online({ count: 2, first_date: '2027-03-02', booking_time_slot_start: '16:00' });
    const b = online({ count: 2, first_date: '2027-03-09', booking_time_slot_start: '16:00' });
    const [ra, rb] = await Promise.all([book(a), book(b)]);
    expect([ra.status, rb.status].sort()).toEqual([201, 409]);
    const loser = ra.status === 409 ? a : b;
    expect(await rowsOfClient(loser.client_email)).toEqual([]);
    expect((ra.status === 409 ? ra : rb).body.conflicts.map((c: { booking_date: string }) => c.booking_date)).toEqual(['2027-03-09']);
  });
});

/** Until a backend of the test database waits on a lock (the series' insert behind the open transaction). */
async function waitForLockWait(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await database.pool.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the series never waited on the open transaction');
}

describe('a series in the panel and on the Manage page', () => {
  it('GET /api/admin/series/{id} lists its sessions; the booking list names the series of each', async () => {
    const res = await book(inPerson()).expect(201);
    const detail = await request(app).get(`/api/admin/series/${res.body.series_id}`).set(desk).expect(200);
    expect(detail.body).toMatchObject({
      series_id: res.body.series_id,
      therapist_id: 5,
      booking_type: 'OFFLINE',
      interval_weeks: 2,
      sessions_asked: 6,
      payment: 'PAY_AT_CENTRE',
    });
    expect(detail.body.sessions.map((s: { id: number }) => s.id)).toEqual(res.body.bookings.map((b: { id: number }) => b.id));
    expect(
      detail.body.sessions.every(
        (s: { series_id: number; payment_state: string }) => s.series_id === res.body.series_id && s.payment_state === 'PAY_AT_CENTRE',
      ),
    ).toBe(true);
    const list = await request(app).get('/api/admin/bookings').query({ from: '2026-11-25', to: '2026-11-25' }).set(desk).expect(200);
    expect(list.body.find((b: { id: number }) => b.id === res.body.bookings[0].id).series_id).toBe(res.body.series_id);
    await request(app).get('/api/admin/series/999999').set(desk).expect(404);
    await request(app).get(`/api/admin/series/${res.body.series_id}`).expect(401);
  });

  it('the client’s Manage page lists the sessions of their own series, each with its own link, and no one else’s', async () => {
    const mine = await book(inPerson({ booking_time_slot_start: '15:00' })).expect(201);
    await book(inPerson({ booking_time_slot_start: '16:00' })).expect(201);
    const first = mine.body.bookings[0] as { id: number };
    const page = await request(app)
      .get(`/api/manage/${manageTokenFor(config.jwtSecret, first.id).token}`)
      .expect(200);
    const listed = page.body.series_sessions as { booking_date: string; booking_time_slot_start: string; current: boolean; manage_url: string }[];
    expect(listed.map((s) => [s.booking_date, s.booking_time_slot_start, s.current])).toEqual(
      mine.body.bookings.map((b: { id: number; booking_date: string }) => [b.booking_date, '15:00', b.id === first.id]),
    );
    expect(listed.map((s) => s.manage_url)).toEqual(
      mine.body.bookings.map((b: { id: number }) => `https://booking.example.in/manage-booking?token=${manageTokenFor(config.jwtSecret, b.id).token}`),
    );
    // A booking made alone lists nothing.
    const alone = await insertBooking(database.db, { therapistId: 2, bookingDate: '2026-11-26', bookingTimeSlotStart: '10:00' });
    const { hash, token } = manageTokenFor(config.jwtSecret, alone.id);
    await database.db.update(bookings).set({ manageTokenHash: hash }).where(eq(bookings.id, alone.id));
    const alonePage = await request(app).get(`/api/manage/${token}`).expect(200);
    expect(alonePage.body.series_sessions).toBeUndefined();
  });
});

describe('cancel and move "this session" or "this and following"', () => {
  it('cancels the session of from_date and every following one; the earlier stay; audited', async () => {
    const res = await book(inPerson({ booking_time_slot_start: '17:00' })).expect(201);
    const id = res.body.series_id as number;
    const third = res.body.bookings[2].booking_date as string;
    const out = await request(app).post(`/api/admin/series/${id}/cancel`).set(desk).send({ from_date: third }).expect(200);
    expect(out.body.cancelled).toHaveLength(4);
    const rows = await sessionsOf(id);
    expect(rows.map((r) => r.cancelled)).toEqual([false, false, true, true, true, true]);
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'series.cancel'), eq(auditLog.entityId, String(id))));
    expect(audit!.after).toMatchObject({ from_date: third, scope: 'following', booking_ids: rows.slice(2).map((r) => r.id) });
    // "This session" alone.
    await request(app).post(`/api/admin/series/${id}/cancel`).set(desk).send({ from_date: res.body.bookings[0].booking_date, scope: 'this' }).expect(200);
    expect((await sessionsOf(id)).map((r) => r.cancelled)).toEqual([true, false, true, true, true, true]);
    // Nothing left from that day on.
    const none = await request(app).post(`/api/admin/series/${id}/cancel`).set(desk).send({ from_date: third }).expect(409);
    expect(none.body.detail).toBe(`The series has no session still to come on or after ${third}.`);
  });

  it('"this and following": one e-mail to each side listing the cancelled dates, one calendar file cancelling their events; no e-mail per session', async () => {
    const res = await book(inPerson({ booking_time_slot_start: '12:00', count: 4 })).expect(201);
    const id = res.body.series_id as number;
    await runJobs();
    sent.length = 0;
    const from = res.body.bookings[1].booking_date as string;
    await request(app).post(`/api/admin/series/${id}/cancel`).set(desk).send({ from_date: from }).expect(200);
    const ran = await runJobs();
    expect(ran.filter((j) => j.name === 'mail.booking-money')).toEqual([]);
    expect(ran.filter((j) => j.name === 'mail.series-cancelled')).toHaveLength(2);
    const email = (await sessionsOf(id))[0]!.clientEmail;
    const toClient = sent.filter((m) => m.to === email);
    expect(toClient).toHaveLength(1);
    const cancelled = res.body.bookings.slice(1) as { id: number; booking_date: string }[];
    for (const b of cancelled) expect(toClient[0]!.text).toContain(`(booking ${b.id})`);
    expect(toClient[0]!.text).not.toContain(`(booking ${res.body.bookings[0].id})`);
    const ics = toClient[0]!.ics!;
    expect(ics).toContain('METHOD:CANCEL');
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(3);
    expect(ics.match(/^SEQUENCE:1\r$/gm)).toHaveLength(3);
    for (const b of cancelled) expect(ics).toContain(`UID:booking-${b.id}@booking.example.in`);
    expect(sent.filter((m) => m.to !== email)).toHaveLength(1);
    // Run again, nothing more is sent.
    await runJobs();
    expect(sent).toHaveLength(2);
  });

  it('a paid series: without a money decision nothing is cancelled; a super admin’s full refund cancels each with its own refund', async () => {
    const res = await book(inPerson({ booking_time_slot_start: '10:00', payment: 'PAID_NOW', payment_method: 'UPI', count: 3 })).expect(201);
    const id = res.body.series_id as number;
    const from = res.body.bookings[1].booking_date as string;
    const refused = await request(app).post(`/api/admin/series/${id}/cancel`).set(desk).send({ from_date: from }).expect(409);
    expect(refused.body.detail).toBe(`Booking ${res.body.bookings[1].id} is paid: choose a full, partial or no refund to cancel it.`);
    expect((await sessionsOf(id)).every((r) => !r.cancelled)).toBe(true);
    await request(app)
      .post(`/api/admin/series/${id}/cancel`)
      .set(desk)
      .send({ from_date: from, refund: { refund: 'FULL' } })
      .expect(403);
    const done = await request(app)
      .post(`/api/admin/series/${id}/cancel`)
      .set(boss)
      .send({ from_date: from, refund: { refund: 'FULL' } })
      .expect(200);
    expect(done.body.cancelled.map((c: { refund: { status: string; amount: number } }) => c.refund.amount)).toEqual([1800, 1800]);
    expect((await sessionsOf(id)).map((r) => r.cancelled)).toEqual([false, true, true]);
    // One e-mail tells the client of both sessions and both refunds.
    sent.length = 0;
    await runJobs();
    const email = (await sessionsOf(id))[0]!.clientEmail;
    const toClient = sent.filter((m) => m.to === email && m.subject.startsWith('Sessions cancelled'));
    expect(toClient).toHaveLength(1);
    expect(sent.filter((m) => m.to === email && m.subject.startsWith('Booking cancelled'))).toEqual([]);
    expect(toClient[0]!.text.match(/We received ₹1,800\./g)).toHaveLength(2);
  });

  it('moves the session of from_date and every following one to another time in one go, with one e-mail to each side; a conflict moves nothing', async () => {
    const body = online({ count: 5, first_date: '2027-04-06', booking_time_slot_start: '10:00', payment: 'SEND_LINK', payment_method: undefined });
    const res = await book(body).expect(201);
    const id = res.body.series_id as number;
    await runJobs();
    sent.length = 0;
    await insertBooking(database.db, { therapistId: 1, bookingDate: '2027-04-27', bookingTimeSlotStart: '14:00' });
    const from = res.body.bookings[2].booking_date as string;
    const blocked = await request(app).post(`/api/admin/series/${id}/move`).set(desk).send({ from_date: from, booking_time_slot_start: '14:00' }).expect(409);
    expect(blocked.body).toEqual({
      detail: '1 session cannot be moved there; nothing was moved.',
      conflicts: [{ booking_date: '2027-04-27', reason: 'Already booked by another client.', nearest_free_time: '15:00' }],
    });
    expect((await sessionsOf(id)).map((r) => r.bookingTimeSlotStart)).toEqual(Array(5).fill('10:00:00'));

    const moved = await request(app).post(`/api/admin/series/${id}/move`).set(desk).send({ from_date: from, booking_time_slot_start: '12:00' }).expect(200);
    expect(moved.body.bookings.map((b: { booking_date: string; booking_time_slot_start: string }) => [b.booking_date, b.booking_time_slot_start])).toEqual([
      ['2027-04-20', '12:00'],
      ['2027-04-27', '12:00'],
      ['2027-05-04', '12:00'],
    ]);
    const rows = await sessionsOf(id);
    expect(rows.map((r) => [r.bookingTimeSlotStart, r.calendarSequence])).toEqual([
      ['10:00:00', 0],
      ['10:00:00', 0],
      ['12:00:00', 1],
      ['12:00:00', 1],
      ['12:00:00', 1],
    ]);
    expect(
      await database.db
        .select()
        .from(auditLog)
        .where(inArray(auditLog.action, ['booking.series_move'])),
    ).toHaveLength(3);
    const ran = await runJobs();
    expect(ran.filter((j) => j.name === 'mail.series-moved')).toHaveLength(2);
    const toClient = sent.filter((m) => m.to === body.client_email);
    expect(toClient).toHaveLength(1);
    expect(toClient[0]!.ics!.match(/BEGIN:VEVENT/g)).toHaveLength(3);
    expect(toClient[0]!.ics!.match(/^SEQUENCE:1\r$/gm)).toHaveLength(3);
    // The slot it left is free again for anyone.
    await book(online({ count: 2, first_date: '2027-04-20', booking_time_slot_start: '10:00' })).expect(201);
  });
});
