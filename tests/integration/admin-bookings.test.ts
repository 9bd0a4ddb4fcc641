import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditLog, bookings } from '../../shared/core/db/schema.ts';
import { bearer, insertBooking, RecordingPayments, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { mondayDesk, seededWithAdmins } from '../support/desk.ts';
import { MONDAY_MORNING_IST, onlineBooking } from '../support/factories.ts';

const clock = fixedClock(MONDAY_MORNING_IST);
let database: TestDatabase, admins: Admins, app: ReturnType<typeof testApp>, payments: RecordingPayments;
let desk: Record<string, string>, boss: Record<string, string>;

beforeAll(async () => {
  ({ database, admins } = await seededWithAdmins());
  payments = new RecordingPayments();
  app = testApp(database, { now: clock.now, payments });
});
beforeEach(() => ({ desk, boss } = mondayDesk(clock, admins)));
afterAll(() => database.drop());

const rowOf = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const counts = async () => {
  const [b] = await database.db.select({ n: sql<number>`count(*)::int`, u: sql<string>`coalesce(max(updated_at)::text, '')` }).from(bookings);
  const [a] = await database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
  return { bookings: b!.n, lastUpdate: b!.u, audit: a!.n };
};
const auditFor = async (id: number) =>
  database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'booking'), eq(auditLog.entityId, String(id))))
    .orderBy(auditLog.id);

describe('GET /api/admin/therapists and /api/admin/bookings', () => {
  it('lists therapists with an e-mail list and online/offline by type', async () => {
    const res = await request(app).get('/api/admin/therapists').set(desk).expect(200);
    expect(res.body).toHaveLength(8);
    const asha = res.body.find((t: { id: number }) => t.id === 1);
    expect(asha).toMatchObject({ type: 1, type_label: 'online', price: 1500 });
    expect(Array.isArray(asha.email)).toBe(true);
    expect(res.body.find((t: { id: number }) => t.id === 5)).toMatchObject({ type: 2, type_label: 'offline', locations: 1 });
  });

  it('lists every field of the booking record, amount in rupees', async () => {
    const b = await insertBooking(database.db, {
      therapistId: 5,
      bookingDate: '2026-11-27',
      bookingTimeSlotStart: '11:00',
      bookingType: 'OFFLINE',
      locationId: 1,
      paymentStatus: 'PENDING',
      amountPaise: 180_050,
      clientFullName: 'Kavya Rao',
      clientNote: 'Prefers mornings',
    });
    const res = await request(app).get('/api/admin/bookings').set(desk).expect(200);
    const found = res.body.find((x: { id: number }) => x.id === b.id);
    expect(found).toEqual({
      id: b.id,
      booking_date: '2026-11-27',
      booking_time_slot_start: '11:00',
      client_full_name: 'Kavya Rao',
      client_email: 'client@example.com',
      client_mobile: '9000000000',
      therapist_id: 5,
      therapist_name: 'Dr. Rohan Kapoor',
      booking_type: 'OFFLINE',
      payment_status: 'PENDING',
      payment_link_url: null,
      payment_transaction_id: b.paymentTransactionId,
      amount: 1800.5,
      cancelled: false,
      google_meet_link: null,
      location_id: 1,
      location_name: 'West Branch',
      location_address: expect.stringContaining('Borivali West'),
      client_note: 'Prefers mornings',
      service_id: 1,
      session_type: null,
      admin_confirmed: false,
      amount_paid: 0,
      amount_refunded: 0,
      payment_note: null,
      attendance: null,
      client_change: null,
      payment_hold_expires_at: null,
      payment_state: 'PAY_AT_CENTRE',
      payment_link_sent_at: null,
      payment_link_sent_to: null,
      series_id: null,
    });
  });
});

describe('POST /api/admin/bookings/{id}/cancel', () => {
  it('cancels, records who/when/before/after, and refuses a second time', async () => {
    const b = await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-11-25', bookingTimeSlotStart: '10:00' });
    const res = await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk).expect(200);
    expect(res.body).toEqual({ booking_id: b.id, cancelled: true, unblocked: false, message: `Booking ${b.id} cancelled successfully.` });
    expect((await rowOf(b.id)).cancelled).toBe(true);
    const [entry] = await auditFor(b.id);
    expect(entry).toMatchObject({ adminId: admins.admin.id, actor: `admin:${admins.admin.id}`, action: 'booking.cancel', entityType: 'booking' });
    expect(entry!.before).toMatchObject({ cancelled: false, payment_status: 'COMPLETED' });
    expect(entry!.after).toMatchObject({ cancelled: true });
    expect(entry!.at).toBeInstanceOf(Date);
    const again = await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk).expect(409);
    expect(again.body.detail).toBe(`Booking ${b.id} is already cancelled.`);
  });

  it('refuses CANCELLED and BLOCKED statuses with the reason', async () => {
    const c = await insertBooking(database.db, { therapistId: 2, bookingDate: '2026-11-25', bookingTimeSlotStart: '10:00', paymentStatus: 'CANCELLED' });
    expect((await request(app).post(`/api/admin/bookings/${c.id}/cancel`).set(desk).expect(409)).body.detail).toMatch(/already cancelled/);
    const k = await insertBooking(database.db, { therapistId: 2, bookingDate: '2026-11-25', bookingTimeSlotStart: '11:00', paymentStatus: 'BLOCKED' });
    expect((await request(app).post(`/api/admin/bookings/${k.id}/cancel`).set(desk).expect(409)).body.detail).toMatch(/blocked and cannot be cancelled/);
  });

  it('uses the date in Asia/Kolkata: after midnight IST the booking is in the past though UTC still says the same day', async () => {
    const b = await insertBooking(database.db, { therapistId: 3, bookingDate: '2026-11-23', bookingTimeSlotStart: '19:00' });
    clock.set('2026-11-23T18:45:00Z'); // 00:15 on 24 November in India, still 23 November in UTC
    const token = bearer(tokenFor(admins.admin, clock.now()));
    const res = await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(token).expect(409);
    expect(res.body.detail).toBe(`Booking ${b.id} is in the past and can no longer be cancelled.`);
    expect((await rowOf(b.id)).cancelled).toBe(false);
    clock.set('2026-11-23T18:25:00Z'); // 23:55 on 23 November in India: the booking date itself is allowed
    await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(token).expect(200);
  });

  it('answers 404 for an unknown booking and 400 for a malformed id', async () => {
    expect((await request(app).post('/api/admin/bookings/424242/cancel').set(desk).expect(404)).body.detail).toBe('Booking 424242 was not found.');
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await request(app).post(`/api/admin/bookings/${id}/cancel`).set(desk).expect(400);
      expect(res.body.detail).toMatch(/Booking ID/);
    }
  });
});

describe('POST /api/admin/availability/block', () => {
  const slot = { therapist_id: 4, start_time: '14:00', date: '2026-11-26' };
  const offered = async () => {
    const res = await request(app).get('/api/slots?therapist_id=4').expect(200);
    return res.body.days.find((d: { date: string }) => d.date === '2026-11-26').slots.map((s: { start_time: string }) => s.start_time);
  };

  it('toggles a block: the slot leaves the public offer and comes back', async () => {
    expect(await offered()).toContain('14:00');
    const blocked = await request(app).post('/api/admin/availability/block').set(desk).send(slot).expect(200);
    expect(blocked.body).toMatchObject({ blocked: true, message: 'Slot 14:00 on 2026-11-26 blocked successfully.' });
    const row = await rowOf(blocked.body.booking_id);
    expect(row).toMatchObject({ bookingType: 'ADMIN_BLOCK', paymentStatus: 'BLOCKED', cancelled: false, createdByAdminId: admins.admin.id });
    expect(await offered()).not.toContain('14:00');
    const booked = await request(app).get('/booked-slots?therapist_id=4').expect(200);
    expect(booked.body).toContainEqual({ booking_date: '2026-11-26', booking_time_slot_start: '14:00' });
    // A client cannot take it now.
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ therapist_id: 4, booking_date: '2026-11-26', booking_time_slot_start: '14:00' }))
      .expect(409);

    const unblocked = await request(app).post('/api/admin/availability/block').set(desk).send(slot).expect(200);
    expect(unblocked.body).toEqual({ blocked: false, booking_id: row.id, message: 'Slot 14:00 on 2026-11-26 unblocked successfully.' });
    expect(await offered()).toContain('14:00');

    // Blocking again works despite the old, now cancelled, block row.
    const again = await request(app).post('/api/admin/availability/block').set(desk).send(slot).expect(200);
    expect(again.body.blocked).toBe(true);
    // The cancel call unblocks an admin block too.
    const viaCancel = await request(app).post(`/api/admin/bookings/${again.body.booking_id}/cancel`).set(desk).expect(200);
    expect(viaCancel.body).toMatchObject({ unblocked: true, message: 'Slot 14:00 on 2026-11-26 unblocked successfully.' });
    expect(await offered()).toContain('14:00');
    const actions = (await database.db.select().from(auditLog).where(sql`${auditLog.action} like 'slot.%'`)).map((a) => a.action);
    expect(actions).toEqual(['slot.block', 'slot.unblock', 'slot.block', 'slot.unblock']);
  });

  it('refuses with 409 where a client booking holds the slot', async () => {
    await insertBooking(database.db, { therapistId: 4, bookingDate: '2026-11-27', bookingTimeSlotStart: '15:00', paymentStatus: 'INITIATED' });
    const before = await counts();
    const res = await request(app)
      .post('/api/admin/availability/block')
      .set(desk)
      .send({ ...slot, date: '2026-11-27', start_time: '15:00' })
      .expect(409);
    expect(res.body.detail).toBe('This slot is already booked by a client and cannot be blocked.');
    expect(await counts()).toEqual(before);
  });

  it('refuses past slots (IST), unknown therapists and times off the schedule', async () => {
    const cases: [object, number, RegExp][] = [
      [{ ...slot, date: '2026-11-22' }, 400, /in the past/],
      [{ ...slot, date: '2026-11-23', start_time: '09:00' }, 400, /schedule|in the past/],
      [{ ...slot, date: '2026-11-23', start_time: '10:00' }, 200, /blocked successfully/],
      [{ ...slot, therapist_id: 999 }, 404, /does not exist/],
      [{ ...slot, start_time: '13:00' }, 400, /not on the therapist's schedule/],
      [{ ...slot, date: '2028-01-01' }, 400, /within the next year/],
    ];
    for (const [body, status, detail] of cases) {
      const res = await request(app).post('/api/admin/availability/block').set(desk).send(body);
      expect([res.status, res.body.detail ?? res.body.message]).toEqual([status, expect.stringMatching(detail)]);
    }
    clock.set('2026-11-23T10:00:00+05:30'); // the 10:00 slot has now started
    const res = await request(app)
      .post('/api/admin/availability/block')
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .send({ ...slot, date: '2026-11-23', start_time: '10:00' });
    expect([res.status, res.body.detail]).toEqual([400, 'This time slot is in the past and cannot be changed.']);
  });
});

describe('manual booking through POST /confirm-booking', () => {
  const manual = (o: Record<string, unknown> = {}) => ({
    therapist_id: 1,
    booking_date: '2026-11-28',
    booking_time_slot_start: '16:00',
    client_full_name: 'Rahul Verma',
    client_email: 'Rahul.Verma@example.com',
    client_mobile: '9123456780',
    client_note: 'Walk-in call',
    booking_type: 'ONLINE',
    // The form makes a new UUID each time it opens (spec section 9): the key is unique per booking.
    location_id: 0,
    amount: 1234.5,
    payment_transaction_id: randomUUID(),
    admin_confirmed: true,
    payment_status: 'COMPLETED',
    therapist_email: 'asha.mehta@wellbeingcentre.in',
    ...o,
  });

  it('creates an online booking as COMPLETED with the admin’s amount, and an offline one as PENDING', async () => {
    const res = await request(app).post('/confirm-booking').set(desk).send(manual()).expect(200);
    expect(res.body.message).toBe(`Manual booking ${res.body.booking_id} created successfully!`);
    expect(await rowOf(res.body.booking_id)).toMatchObject({
      paymentStatus: 'COMPLETED',
      amountPaise: 123_450,
      adminConfirmed: true,
      createdByAdminId: admins.admin.id,
      clientEmail: 'rahul.verma@example.com',
      bookingType: 'ONLINE',
      locationId: null,
      clientAge: null,
    });
    // Even if the form says otherwise, the server decides the status.
    const off = await request(app)
      .post('/confirm-booking')
      .set(desk)
      .send(manual({ therapist_id: 5, booking_type: 'OFFLINE', location_id: 1, payment_status: 'COMPLETED', amount: 1800 }))
      .expect(200);
    expect(await rowOf(off.body.booking_id)).toMatchObject({ paymentStatus: 'PENDING', amountPaise: 180_000, locationId: 1, adminConfirmed: true });
    const [entry] = await auditFor(off.body.booking_id);
    expect(entry).toMatchObject({ action: 'booking.manual_create', before: null });
  });

  it('enforces the manual booking form’s rules with its messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ therapist_id: undefined }, 'Therapist is required'],
      [{ therapist_id: 0 }, 'Therapist is required'],
      [{ booking_date: undefined }, 'Booking date is required'],
      [{ booking_date: '' }, 'Booking date is required'],
      [{ booking_time_slot_start: undefined }, 'Time slot is required'],
      [{ client_full_name: '  ' }, 'Client name is required'],
      [{ client_email: 'not-an-email' }, 'Valid client email is required'],
      [{ client_email: undefined }, 'Valid client email is required'],
      [{ client_mobile: '12345' }, 'Valid 10-digit mobile is required'],
      [{ client_mobile: '98765432101' }, 'Valid 10-digit mobile is required'],
      [{ booking_type: undefined }, 'Booking type is required'],
      [{ booking_type: 'ADMIN_BLOCK' }, 'Booking type is required'],
      [{ therapist_id: 5, booking_type: 'OFFLINE', location_id: 0 }, 'Location is required for offline booking'],
      [{ therapist_id: 5, booking_type: 'OFFLINE', location_id: undefined }, 'Location is required for offline booking'],
      [{ amount: undefined }, 'Amount is required and must be positive'],
      [{ amount: 0 }, 'Amount is required and must be positive'],
      [{ amount: -5 }, 'Amount is required and must be positive'],
      [{ amount: '1500' }, 'Amount is required and must be positive'],
      [{ amount: 1500.505 }, 'Amount may have at most 2 decimals'],
    ];
    const before = await counts();
    for (const [o, message] of cases) {
      const res = await request(app).post('/confirm-booking').set(desk).send(manual(o));
      expect([res.status, res.body.detail]).toEqual([400, message]);
    }
    expect(await counts()).toEqual(before);
  });

  it('keeps to 15 days including today, and refuses passed, blocked and taken slots', async () => {
    const before = await counts();
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ booking_date: '2026-12-08' }, 400, 'Please choose a date within the next 15 days, starting today.'],
      [{ booking_date: '2026-11-22' }, 400, 'Please choose a date within the next 15 days, starting today.'],
      [{ booking_date: '2026-11-23', booking_time_slot_start: '09:00' }, 400, 'This time slot has already passed. Please choose a later time.'],
      [{ booking_time_slot_start: '13:00' }, 400, 'This time slot is not available. Please choose another.'],
      [{ therapist_id: 5 }, 400, 'The selected therapist does not offer this type of session.'],
      [{ therapist_id: 5, booking_type: 'OFFLINE', location_id: 2 }, 400, 'The selected therapist does not work at this location.'],
      [{ therapist_id: 999 }, 400, 'The selected therapist does not exist.'],
      [{ service_id: 999, booking_date: '2026-12-07', booking_time_slot_start: '11:00' }, 400, 'The selected service does not exist.'],
    ];
    for (const [o, status, message] of refusals) {
      const res = await request(app).post('/confirm-booking').set(desk).send(manual(o));
      expect([res.status, res.body.detail]).toEqual([status, message]);
    }
    expect(await counts()).toEqual(before);
    // The last day of the window (today + 14) is allowed, Sundays included.
    await request(app)
      .post('/confirm-booking')
      .set(desk)
      .send(manual({ booking_date: '2026-12-07', booking_time_slot_start: '10:00' }))
      .expect(200);
    await request(app)
      .post('/confirm-booking')
      .set(desk)
      .send(manual({ booking_date: '2026-11-29', booking_time_slot_start: '10:00' }))
      .expect(200);
    // A blocked slot is refused.
    await request(app).post('/api/admin/availability/block').set(desk).send({ therapist_id: 1, start_time: '17:00', date: '2026-11-30' }).expect(200);
    const blocked = await request(app)
      .post('/confirm-booking')
      .set(desk)
      .send(manual({ booking_date: '2026-11-30', booking_time_slot_start: '17:00' }))
      .expect(409);
    expect(blocked.body.detail).toBe('This time slot is already booked or blocked. Please choose another.');
  });

  it('stays 401 without a valid admin token, and the public path is unchanged', async () => {
    for (const headers of [{}, bearer('garbage.token.here'), bearer(tokenFor(admins.inactive, clock.now()))]) {
      const res = await request(app)
        .post('/confirm-booking')
        .set(headers)
        .send(manual({ booking_time_slot_start: '12:00' }))
        .expect(401);
      expect(res.body.detail).toBe('Unauthorized. Please log in again.');
    }
    const pub = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '11:00' }))
      .expect(200);
    expect(await rowOf(pub.body.booking_id)).toMatchObject({ paymentStatus: 'INITIATED', adminConfirmed: false });
  });
});

describe('payment links', () => {
  it('creates a shareable link for a booking with amount, id and transaction id', async () => {
    const b = await insertBooking(database.db, {
      therapistId: 6,
      bookingDate: '2026-11-25',
      bookingTimeSlotStart: '10:00',
      bookingType: 'OFFLINE',
      locationId: 1,
      paymentStatus: 'PENDING',
      amountPaise: 140_000,
    });
    const res = await request(app)
      .post('/api/create-shareable-payment-link')
      .set(desk)
      .send({ amount: 1400, booking_id: b.id, merchant_transaction_id: b.paymentTransactionId })
      .expect(200);
    expect(Object.keys(res.body)).toEqual(['payment_link_url']);
    const call = payments.calls.at(-1)!;
    // Razorpay keeps reference ids unique: the booking id alone belongs to the wizard's link.
    expect(call!.referenceId).toMatch(new RegExp(`^${b.id}-[0-9a-f]{12}$`));
    expect(call).toMatchObject({ amountPaise: 140_000, customer: { name: 'Test Client', email: 'client@example.com', contact: '9000000000' } });
    expect(call.expireBy.getTime()).toBeGreaterThan(clock.now().getTime());
    const row = await rowOf(b.id);
    expect(row.paymentLinkUrl).toBe(res.body.payment_link_url);
    expect(row.razorpayPaymentLinkId).toMatch(/^plink_test_/);
    expect((await auditFor(b.id)).map((a) => a.action)).toEqual(['booking.payment_link_create']);
  });

  it('refuses a booking missing price or transaction id with the spec message, and changes nothing', async () => {
    const free = await insertBooking(database.db, {
      therapistId: 6,
      bookingDate: '2026-11-25',
      bookingTimeSlotStart: '11:00',
      paymentStatus: 'PENDING',
      amountPaise: 0,
    });
    const noTxn = await insertBooking(database.db, {
      therapistId: 6,
      bookingDate: '2026-11-25',
      bookingTimeSlotStart: '12:00',
      paymentStatus: 'PENDING',
      paymentTransactionId: null,
    });
    const ok = await insertBooking(database.db, { therapistId: 6, bookingDate: '2026-11-25', bookingTimeSlotStart: '16:00', paymentStatus: 'PENDING' });
    const callsBefore = payments.calls.length;
    const before = await counts();
    const cases: [object, number, string][] = [
      [
        { amount: 1400, booking_id: free.id, merchant_transaction_id: free.paymentTransactionId },
        400,
        `Error: Booking ${free.id} is missing required details (price, ID, or transaction ID) to generate a link.`,
      ],
      [
        { amount: 1400, booking_id: noTxn.id, merchant_transaction_id: '' },
        400,
        `Error: Booking ${noTxn.id} is missing required details (price, ID, or transaction ID) to generate a link.`,
      ],
      [
        { amount: 1400, booking_id: ok.id, merchant_transaction_id: '' },
        400,
        `Error: Booking ${ok.id} is missing required details (price, ID, or transaction ID) to generate a link.`,
      ],
      [
        { amount: 0, booking_id: ok.id, merchant_transaction_id: ok.paymentTransactionId },
        400,
        `Error: Booking ${ok.id} is missing required details (price, ID, or transaction ID) to generate a link.`,
      ],
      [{ amount: 1400, booking_id: ok.id, merchant_transaction_id: 'other' }, 400, `The transaction ID does not match booking ${ok.id}.`],
      [{ amount: 1400, merchant_transaction_id: 'x' }, 400, 'Booking ID is required'],
      [{ amount: 'lots', booking_id: ok.id, merchant_transaction_id: 'x' }, 400, 'Amount must be a number'],
      [{ amount: 1, booking_id: 777777, merchant_transaction_id: 'x' }, 404, 'Booking 777777 was not found.'],
    ];
    for (const [body, status, detail] of cases) {
      const res = await request(app).post('/api/create-shareable-payment-link').set(desk).send(body);
      expect([res.status, res.body.detail]).toEqual([status, detail]);
    }
    expect(payments.calls.length).toBe(callsBefore);
    expect(await counts()).toEqual(before);
  });

  it('answers 502 when the provider fails, changing nothing', async () => {
    const b = await insertBooking(database.db, { therapistId: 6, bookingDate: '2026-11-25', bookingTimeSlotStart: '17:00', paymentStatus: 'PENDING' });
    const body = { amount: 1500, booking_id: b.id, merchant_transaction_id: b.paymentTransactionId };
    payments.fail = true;
    try {
      expect((await request(app).post('/api/create-shareable-payment-link').set(desk).send(body).expect(502)).body.detail).toBe(
        'Failed to generate payment link. Please contact support.',
      );
    } finally {
      payments.fail = false;
    }
    expect((await rowOf(b.id)).paymentLinkUrl).toBeNull();
  });

  it('lets an admin set payment_link_url; 401 without a token', async () => {
    const b = await insertBooking(database.db, { therapistId: 7, bookingDate: '2026-11-25', bookingTimeSlotStart: '10:00', paymentStatus: 'PENDING' });
    const url = 'https://rzp.io/l/abc123';
    await request(app).post(`/api/admin/bookings/${b.id}/update-payment-link`).send({ payment_link_url: url }).expect(401);
    const res = await request(app).post(`/api/admin/bookings/${b.id}/update-payment-link`).set(desk).send({ payment_link_url: url }).expect(200);
    expect(res.body).toEqual({ booking_id: b.id, payment_link_url: url, message: `Payment link for booking ${b.id} updated successfully.` });
    expect((await rowOf(b.id)).paymentLinkUrl).toBe(url);
    const [entry] = await auditFor(b.id);
    expect(entry).toMatchObject({ action: 'booking.payment_link_update', before: { payment_link_url: null }, after: { payment_link_url: url } });
    for (const body of [{}, { payment_link_url: 'javascript:alert(1)' }, { payment_link_url: 'not a url' }, { payment_link_url: url, extra: 1 }]) {
      const bad = await request(app).post(`/api/admin/bookings/${b.id}/update-payment-link`).set(desk).send(body).expect(400);
      expect(bad.body.detail).toBeTruthy();
    }
  });
});

describe('clients', () => {
  beforeAll(async () => {
    await insertBooking(database.db, {
      therapistId: 2,
      bookingDate: '2026-11-20',
      bookingTimeSlotStart: '10:00',
      clientFullName: 'Anjali Deshmukh',
      clientEmail: 'anjali@example.com',
      clientMobile: '9811111111',
      clientCity: 'Pune',
      clientState: 'Maharashtra',
      clientNote: 'Follow-up',
    });
    await insertBooking(database.db, {
      therapistId: 2,
      bookingDate: '2026-11-21',
      bookingTimeSlotStart: '10:00',
      clientFullName: 'ANJALI DESHMUKH',
      clientEmail: 'anjali@example.com',
      clientMobile: '9811111111',
    });
    await insertBooking(database.db, {
      therapistId: 7,
      bookingDate: '2026-11-21',
      bookingTimeSlotStart: '11:00',
      bookingType: 'OFFLINE',
      locationId: 2,
      clientFullName: 'Sunil 100% Patil',
      clientEmail: 'sunil@example.org',
      clientMobile: '9822222222',
    });
  });

  it('GET /api/admin/clients-with-therapists filters by name, case-insensitive, with the data object', async () => {
    const res = await request(app).get('/api/admin/clients-with-therapists?name=anjali').set(desk).expect(200);
    expect(res.body).toHaveLength(2);
    const older = res.body.find((r: { booking_date: string }) => r.booking_date === '2026-11-20');
    expect(older).toMatchObject({ client_full_name: 'Anjali Deshmukh', client_city: 'Pune', client_state: 'Maharashtra', therapist_name: 'Ms. Priya Nair' });
    expect(older.data).toEqual({
      booking_type: 'ONLINE',
      client_note: 'Follow-up',
      therapist_details: { name: 'Ms. Priya Nair' },
      booking_date: '2026-11-20',
      booking_time_slot_start: '10:00',
      location_address: null,
    });
    const all = await request(app).get('/api/admin/clients-with-therapists').set(desk).expect(200);
    expect(all.body.every((r: { booking_type: string }) => r.booking_type !== 'ADMIN_BLOCK')).toBe(true);
    const pct = await request(app).get('/api/admin/clients-with-therapists?name=100%25').set(desk).expect(200);
    expect(pct.body.map((r: { client_full_name: string }) => r.client_full_name)).toEqual(['Sunil 100% Patil']);
    expect((await request(app).get('/api/admin/clients-with-therapists?name=%25%25').set(desk).expect(200)).body).toEqual([]);
  });

  it('GET /api/admin/search-clients matches name, e-mail or mobile and answers distinct clients', async () => {
    const byName = await request(app).get('/api/admin/search-clients?name=DESHMUKH').set(desk).expect(200);
    expect(byName.body).toEqual([{ name: 'ANJALI DESHMUKH', email: 'anjali@example.com', phone: '9811111111' }]);
    const byEmail = await request(app).get('/api/admin/search-clients?name=EXAMPLE.ORG').set(desk).expect(200);
    expect(byEmail.body).toEqual([{ name: 'Sunil 100% Patil', email: 'sunil@example.org', phone: '9822222222' }]);
    const byMobile = await request(app).get('/api/admin/search-clients?name=98222').set(desk).expect(200);
    expect(byMobile.body).toHaveLength(1);
    const all = await request(app).get('/api/admin/search-clients').set(desk).expect(200);
    const keys = all.body.map((c: { name: string; email: string; phone: string }) => `${c.name.toLowerCase()}|${c.email}|${c.phone}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(Object.keys(all.body[0]).sort()).toEqual(['email', 'name', 'phone']);
  });

  it('finds a client by name though someone else booked later with the same e-mail; each under the name they booked with', async () => {
    // Meera booked first; Kabir later gave Meera's e-mail (a family member booking for himself).
    await insertBooking(database.db, {
      therapistId: 3,
      bookingDate: '2026-11-26',
      bookingTimeSlotStart: '10:00',
      clientFullName: 'Meera Joshi',
      clientEmail: 'meera.joshi@example.com',
      clientMobile: '9833333333',
      createdAt: new Date('2026-11-01T10:00:00Z'),
    });
    await insertBooking(database.db, {
      therapistId: 3,
      bookingDate: '2026-11-27',
      bookingTimeSlotStart: '10:00',
      clientFullName: 'Kabir Shah',
      clientEmail: 'meera.joshi@example.com',
      clientMobile: '9833333333',
      createdAt: new Date('2026-11-02T10:00:00Z'),
    });
    const meera = await request(app).get('/api/admin/search-clients?name=Meera').set(desk).expect(200);
    // Meera by her name, Kabir by the e-mail he gave: two people, each under their own name. (Other
    // tests' clients are called Meera too, or gave a meera… e-mail.)
    const theirs = meera.body.filter((c: { email: string }) => c.email === 'meera.joshi@example.com');
    expect(theirs).toEqual([
      { name: 'Meera Joshi', email: 'meera.joshi@example.com', phone: '9833333333' },
      { name: 'Kabir Shah', email: 'meera.joshi@example.com', phone: '9833333333' },
    ]);
    // Whoever is called Meera comes before whoever only gave an e-mail with Meera in it.
    const names: string[] = meera.body.map((c: { name: string }) => c.name);
    expect(names.indexOf('Kabir Shah')).toBeGreaterThan(names.findLastIndex((n) => /meera/i.test(n)));
    const kabir = await request(app).get('/api/admin/search-clients?name=kabir').set(desk).expect(200);
    expect(kabir.body).toEqual([{ name: 'Kabir Shah', email: 'meera.joshi@example.com', phone: '9833333333' }]);
    const byMobile = await request(app).get('/api/admin/search-clients?name=9833333333').set(desk).expect(200);
    expect(byMobile.body.map((c: { name: string }) => c.name)).toEqual(['Kabir Shah', 'Meera Joshi']);
  });

  it('refuses unknown or malformed query parameters with 400', async () => {
    for (const q of ['?foo=1', `?name=${'x'.repeat(101)}`]) {
      expect((await request(app).get(`/api/admin/search-clients${q}`).set(desk).expect(400)).body.detail).toBeTruthy();
      expect((await request(app).get(`/api/admin/clients-with-therapists${q}`).set(desk).expect(400)).body.detail).toBeTruthy();
    }
  });
});

describe('GET /api/admin/audit-log', () => {
  it('says who changed what, field by field: a cancel and a block', async () => {
    const b = await insertBooking(database.db, { therapistId: 2, bookingDate: '2026-11-30', bookingTimeSlotStart: '15:00', paymentStatus: 'PENDING' });
    await request(app).post(`/api/admin/bookings/${b.id}/cancel`).set(desk).expect(200);
    await request(app)
      .post('/api/admin/availability/block')
      .set(desk)
      .send({ therapist_id: 2, start_time: '16:00', date: '2026-11-30', action: 'block' })
      .expect(200);
    const res = await request(app).get('/api/admin/audit-log?page=1&page_size=2').set(boss).expect(200);
    const [block, cancel] = res.body.items;
    expect(cancel).toMatchObject({ action: 'booking.cancel', entity_type: 'booking', entity_id: String(b.id), by: 'desk', admin_username: 'desk' });
    expect(cancel.changes).toEqual([{ field: 'cancelled', before: false, after: true }]);
    expect(block).toMatchObject({ action: 'slot.block', by: 'desk' });
    expect(block.changes).toEqual(
      expect.arrayContaining([
        { field: 'booking_date', before: null, after: '2026-11-30' },
        { field: 'booking_time_slot_start', before: null, after: '16:00' },
        { field: 'payment_status', before: null, after: 'BLOCKED' },
      ]),
    );
    expect(block.changes.map((c: { field: string }) => c.field)).not.toContain('id');
    expect(block.changes.map((c: { field: string }) => c.field)).not.toContain('payment_link_url');
  });

  it('pages newest first, and records the CLI’s admin-user changes', async () => {
    const first = await request(app).get('/api/admin/audit-log?page=1&page_size=2').set(boss).expect(200);
    expect(first.body).toMatchObject({ page: 1, page_size: 2 });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.total).toBeGreaterThan(5);
    expect(first.body.items[0].id).toBeGreaterThan(first.body.items[1].id);
    const last = Math.ceil(first.body.total / 100);
    const all = await request(app).get(`/api/admin/audit-log?page=${last}&page_size=100`).set(boss).expect(200);
    const created = all.body.items.filter((i: { action: string }) => i.action === 'admin_user.create');
    expect(created).toHaveLength(3);
    expect(created[0]).toMatchObject({ actor: 'cli', by: 'Command line', admin_id: null, entity_type: 'admin_user' });
    // A creation lists the new record's values, its id apart.
    expect(created.map((c: { changes: { field: string }[] }) => c.changes.map((x) => x.field))[0]).toEqual([
      'username',
      'email',
      'is_superadmin',
      'is_admin',
      'is_active',
    ]);
    expect(JSON.stringify(all.body)).not.toMatch(/argon2|password/i);
    // Only what changed, never the whole row.
    const deactivated = all.body.items.find((i: { action: string }) => i.action === 'admin_user.deactivate');
    expect(deactivated.changes).toEqual([{ field: 'is_active', before: true, after: false }]);
    expect(deactivated).not.toHaveProperty('before');
    expect(deactivated).not.toHaveProperty('after');
    for (const [q, field, detail] of [
      ['page_size=101', 'page_size', 'page_size must be a whole number from 1 to 100'],
      ['page=0', 'page', 'page must be a positive whole number'],
      ['page=x', 'page', 'page must be a positive whole number'],
      ['page_size=0', 'page_size', 'page_size must be a whole number from 1 to 100'],
      ['other=1', 'other', 'Unknown field: other'],
    ]) {
      expect((await request(app).get(`/api/admin/audit-log?${q}`).set(boss).expect(400)).body, q).toEqual({ detail, errors: { [field!]: detail } });
    }
  });
});

describe('bad input never answers 5xx and never changes anything', () => {
  it('every admin write refuses junk with a 4xx and a message', async () => {
    const writes = ['/api/admin/availability/block', '/api/create-shareable-payment-link', '/api/admin/bookings/1/update-payment-link', '/confirm-booking'];
    const bodies: [string, string][] = [
      ['application/json', '{not json'],
      ['application/json', '[]'],
      ['application/json', 'null'],
      ['application/json', '"text"'],
      ['application/json', JSON.stringify({ therapist_id: 'one', start_time: '25:00', date: '2026-02-30', admin_confirmed: 'yes' })],
      ['application/json', JSON.stringify({ amount: 1e12, booking_id: -1, merchant_transaction_id: 5 })],
      ['application/json', JSON.stringify({ payment_link_url: 42, admin_confirmed: true })],
      ['application/json', `{"a":"${'x'.repeat(40_000)}"}`],
      ['text/plain', 'hello'],
    ];
    const before = await counts();
    for (const path of writes) {
      for (const [type, body] of bodies) {
        const res = await request(app).post(path).set(desk).set('Content-Type', type).send(body);
        expect(res.status, `${path} ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path} ${body.slice(0, 40)}`).toBeLessThan(500);
        expect(typeof res.body.detail).toBe('string');
      }
    }
    for (const [path, field, detail] of [
      ['/api/admin/therapists?x=1', 'x', 'Unknown field: x'],
      ['/api/admin/bookings?page=0', 'page', 'page must be a positive whole number'],
      ['/api/admin/search-clients?name=a&name=b', 'name', 'Must be text'],
    ]) {
      const res = await request(app).get(path!).set(desk).expect(400);
      expect(res.body, path).toEqual({ detail, errors: { [field!]: detail } });
    }
    expect(await counts()).toEqual(before);
  });
});
