import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOLD_LIMIT_MESSAGES, API_MESSAGES as M } from '../../shared/contract/messages.ts';
import { bookings, centreHolidays, packageCredits, paymentsLedger } from '../../shared/core/db/schema.ts';
import { PACKAGE_MESSAGES as PM } from '../../shared/contract/packages.ts';

import { BOOK_AGAIN_MESSAGES } from '../../shared/core/services/book-again.service.ts';
import { manageTokenFor, manageUrlFor, packageTokenFor } from '../../shared/core/services/booking-token.ts';
import { confirmationMail } from '../../shared/core/services/notification.service.ts';
import { getBookingView } from '../../shared/core/repositories/booking.repository.ts';
import { BOOK_AGAIN_ANCHOR } from '../../shared/domain/manage.ts';
import { bearer, insertBooking, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp, testConfig } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { seededWithAdmins } from '../support/desk.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';
import { configFor, inProcessPayments } from '../support/jobs.ts';

/**
 * "Book the same time next week" (issue 34, section 2): POST /api/manage/{token}/book-again books the
 * session's therapist, type, centre and time a week or two later through the wizard's own path, and
 * answers as POST /confirm-booking does. Monday 23 November 2026, 09:30 at the centre.
 */

const clock = fixedClock(MONDAY_MORNING_IST);
let database: TestDatabase, admins: Admins;
let app: ReturnType<typeof testApp>;

beforeAll(async () => {
  ({ database, admins } = await seededWithAdmins());
  // The payment link is made by the worker's job: here in process.
  const { payments, jobs } = inProcessPayments(database, testConfig, clock.now);
  app = testApp(database, { now: clock.now, payments, jobs });
});
beforeEach(() => clock.set(MONDAY_MORNING_IST));
afterAll(() => database.drop());

type NewBooking = typeof bookings.$inferInsert;

let clients = 0;
/** A client's confirmed session (a paid online one unless told), with its Manage token. */
async function session(values: Partial<NewBooking> & Pick<NewBooking, 'bookingDate' | 'bookingTimeSlotStart'>) {
  clients++;
  const b = await insertBooking(database.db, {
    therapistId: 1,
    clientFullName: 'Meera Pillai',
    clientEmail: `again${clients}@example.com`,
    clientMobile: `98765${String(clients).padStart(5, '0')}`,
    clientAge: 34,
    sessionType: 'individual',
    clientState: 'Maharashtra',
    clientCity: 'Mumbai',
    termsAccepted: true,
    ...values,
  });
  const { token, hash } = manageTokenFor(testConfig.jwtSecret, b.id);
  await database.db.update(bookings).set({ manageTokenHash: hash }).where(eq(bookings.id, b.id));
  return { id: b.id, token };
}
const row = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const bookAgain = (token: string, body: Record<string, unknown>, on = app) => request(on).post(`/api/manage/${token}/book-again`).send(body);

describe('POST /api/manage/{token}/book-again', () => {
  it('books the same therapist, type and time a week later as the wizard would, and answers as /confirm-booking', async () => {
    const source = await session({ bookingDate: '2026-11-25', bookingTimeSlotStart: '11:00', whatsappOptInAt: new Date(), whatsappConsentText: 'yes' });
    const res = await bookAgain(source.token, { weeks_ahead: 1 }).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual(['booking_id', 'booking_token', 'message']);
    expect(res.body.message).toBe(M.bookingCreated);
    const made = await row(res.body.booking_id);
    const was = await row(source.id);
    expect(made).toMatchObject({
      therapistId: 1,
      bookingDate: '2026-12-02',
      bookingTimeSlotStart: '11:00:00',
      bookingType: 'ONLINE',
      clientEmail: was.clientEmail,
      clientMobile: was.clientMobile,
      clientAge: 34,
      sessionType: 'individual',
      // An unpaid hold, as every wizard booking online: the payment calls take its token.
      paymentStatus: 'INITIATED',
      amountPaise: 150_000,
      createdByAdminId: null,
    });
    expect(made.paymentHoldExpiresAt!.getTime() - clock.now().getTime()).toBe(testConfig.paymentHoldMinutes * 60_000);
    expect(made.whatsappOptInAt).not.toBeNull();
    // The payment link, through the ordinary call with the new booking's token.
    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', res.body.booking_token).send({ booking_id: made.id }).expect(200);
    expect(link.body.short_url).toMatch(/^http/);
    // The session booked from stays as it was.
    expect(await row(source.id)).toEqual(was);
  });

  it('in two weeks; in person keeps the centre and is confirmed to pay at the visit', async () => {
    const source = await session({
      therapistId: 5,
      bookingType: 'OFFLINE',
      locationId: 1,
      bookingDate: '2026-11-24',
      bookingTimeSlotStart: '14:00',
      paymentStatus: 'PENDING',
    });
    const res = await bookAgain(source.token, { weeks_ahead: 2 }).expect(200);
    expect(await row(res.body.booking_id)).toMatchObject({
      therapistId: 5,
      bookingType: 'OFFLINE',
      locationId: 1,
      bookingDate: '2026-12-08',
      paymentStatus: 'PENDING',
      paymentHoldExpiresAt: null,
    });
  });

  it('a retry with the same key answers the booking it made', async () => {
    const source = await session({ bookingDate: '2026-11-26', bookingTimeSlotStart: '12:00' });
    const first = await bookAgain(source.token, { weeks_ahead: 1, payment_transaction_id: 'again-retry-1' }).expect(200);
    const second = await bookAgain(source.token, { weeks_ahead: 1, payment_transaction_id: 'again-retry-1' }).expect(200);
    expect(second.body).toEqual(first.body);
  });

  it('a slot another client holds is 409 in the wizard’s words, and nothing is written', async () => {
    const source = await session({ bookingDate: '2026-11-27', bookingTimeSlotStart: '10:00' });
    await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-12-04', bookingTimeSlotStart: '10:00' });
    const count = (await database.db.select().from(bookings)).length;
    const res = await bookAgain(source.token, { weeks_ahead: 1 }).expect(409);
    expect(res.body.detail).toBe(M.slotTaken);
    expect((await database.db.select().from(bookings)).length).toBe(count);
  });

  it('a centre holiday, or past the client’s window, is refused by the checker in its words, as 409', async () => {
    await database.db.insert(centreHolidays).values({ holidayDate: '2026-12-03', reason: 'Holiday' });
    const holiday = await session({ bookingDate: '2026-11-26', bookingTimeSlotStart: '15:00' });
    expect((await bookAgain(holiday.token, { weeks_ahead: 1 }).expect(409)).body.detail).toBe(M.slotNotOffered);
    const late = await session({ bookingDate: '2026-12-05', bookingTimeSlotStart: '15:00' });
    expect((await bookAgain(late.token, { weeks_ahead: 1 }).expect(409)).body.detail).toBe(M.dateOutsideWindow);
  });

  it('keeps to the wizard’s hold limits', async () => {
    const limited = testApp(database, { now: clock.now, config: configFor({ HOLDS_PER_CLIENT: '1', HOLDS_PER_IP: '0' }) });
    const source = await session({ bookingDate: '2026-11-24', bookingTimeSlotStart: '17:00' });
    await bookAgain(source.token, { weeks_ahead: 1 }, limited).expect(200);
    const res = await bookAgain(source.token, { weeks_ahead: 2 }, limited).expect(429);
    expect(res.body.detail).toBe(HOLD_LIMIT_MESSAGES.perClient(1, testConfig.paymentHoldMinutes));
    expect(res.headers['retry-after']).toBe(String(testConfig.paymentHoldMinutes * 60));
  });

  it('an unknown or malformed token is 404; a cancelled booking is 409; a bad body is 400', async () => {
    await bookAgain('x'.repeat(43), { weeks_ahead: 1 }).expect(404);
    await bookAgain('short', { weeks_ahead: 1 }).expect(404);
    const cancelled = await session({ bookingDate: '2026-11-30', bookingTimeSlotStart: '10:00', cancelled: true, paymentStatus: 'CANCELLED' });
    expect((await bookAgain(cancelled.token, { weeks_ahead: 1 }).expect(409)).body.detail).toBe(BOOK_AGAIN_MESSAGES.notLive);
    const failed = await session({ bookingDate: '2026-11-30', bookingTimeSlotStart: '11:00', paymentStatus: 'FAILED' });
    expect((await bookAgain(failed.token, { weeks_ahead: 1 }).expect(409)).body.detail).toBe(BOOK_AGAIN_MESSAGES.notLive);
    const live = await session({ bookingDate: '2026-11-30', bookingTimeSlotStart: '12:00' });
    await bookAgain(live.token, { weeks_ahead: 3 }).expect(400);
    await bookAgain(live.token, { weeks_ahead: 1, therapist_id: 2 }).expect(400);
  });

  it('a session the desk booked without the client’s age is sent to the booking page', async () => {
    const desk = await session({ bookingDate: '2026-11-30', bookingTimeSlotStart: '14:00', clientAge: null });
    expect((await bookAgain(desk.token, { weeks_ahead: 1 }).expect(409)).body.detail).toBe(BOOK_AGAIN_MESSAGES.detailsMissing);
    // Nor is it offered there.
    expect((await request(app).get(`/api/manage/${desk.token}`).expect(200)).body.can_book_again).toBe(false);
  });

  it('the confirmation e-mail offers it: the Manage booking page, opened at its buttons', async () => {
    const source = await session({ bookingDate: '2026-11-25', bookingTimeSlotStart: '15:00' });
    const mail = confirmationMail((await getBookingView(database.db, source.id))!, 'client', testConfig, clock.now())!;
    expect(mail.text).toContain(
      `Book the same time next week (Wednesday, December 2, 2026) or in two weeks with Asha Mehta:\n${manageUrlFor(testConfig.publicBaseUrl, testConfig.jwtSecret, source.id)}#${BOOK_AGAIN_ANCHOR}`,
    );
  });
});

describe('book-again after a session paid by a package credit', () => {
  /** A package of `sessions` sold at the desk to a client of its own; answers the sale and its link's token. */
  async function soldPackage(sessions: number) {
    const boss = bearer(tokenFor(admins.superadmin, clock.now()));
    const pkg = await request(app)
      .post('/api/admin/packages')
      .set(boss)
      .send({ name: `Again ${sessions} ${++clients}`, sessions_count: sessions, price: 1000 * sessions, validity_days: 60 });
    expect(pkg.status).toBe(201);
    const sale = await request(app)
      .post('/api/admin/package-sales')
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .send({
        package_id: pkg.body.package.id,
        client_full_name: 'Kavya Rao',
        client_email: `kavya${clients}@example.com`,
        client_mobile: '9820012345',
        payment_method: 'CASH',
      });
    expect(sale.status).toBe(201);
    return { id: sale.body.sale.id as number, token: packageTokenFor(testConfig.jwtSecret, sale.body.sale.id).token, email: `kavya${clients}@example.com` };
  }
  const usedOf = async (saleId: number) =>
    (await database.db.select().from(packageCredits).where(eq(packageCredits.saleId, saleId))).filter((c) => c.kind === 'used').map((c) => c.bookingId);

  it('uses another credit of the same sale: confirmed at once, no fee, answered with its Manage link and the package; a retry answers the same', async () => {
    const sale = await soldPackage(3);
    const first = await request(app)
      .post(`/api/packages/${sale.token}/book`)
      .send({ therapist_id: 1, booking_type: 'ONLINE', booking_date: '2026-11-25', booking_time_slot_start: '16:00' });
    expect([first.status, first.body.detail]).toEqual([200, undefined]);
    const token = manageTokenFor(testConfig.jwtSecret, first.body.booking_id).token;
    // Booked from the package's link, with no age or session type: the page offers it all the same.
    const page = await request(app).get(`/api/manage/${token}`);
    expect([page.status, page.body.can_book_again]).toEqual([200, true]);
    const res = await bookAgain(token, { weeks_ahead: 1, payment_transaction_id: 'again-credit-1' });
    expect([res.status, res.body.detail]).toEqual([200, undefined]);
    expect(res.body).toMatchObject({
      message: PM.bookedFromPackage(res.body.booking_id),
      manage_url: manageUrlFor(testConfig.publicBaseUrl, testConfig.jwtSecret, res.body.booking_id),
      package: { sessions_total: 3, sessions_used: 2, sessions_left: 1 },
    });
    expect(res.body.booking_token).toBeUndefined();
    expect(await row(res.body.booking_id)).toMatchObject({
      therapistId: 1,
      bookingDate: '2026-12-02',
      bookingTimeSlotStart: '16:00:00',
      clientEmail: sale.email,
      paymentStatus: 'COMPLETED',
      amountPaise: 0,
      paymentHoldExpiresAt: null,
    });
    expect(await usedOf(sale.id)).toEqual([first.body.booking_id, res.body.booking_id]);
    expect(await database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, res.body.booking_id))).toEqual([]);
    // Sent again (a lost answer): the same booking, no second credit.
    const again = await bookAgain(token, { weeks_ahead: 1, payment_transaction_id: 'again-credit-1' });
    expect([again.status, again.body.booking_id]).toEqual([200, res.body.booking_id]);
    expect(await usedOf(sale.id)).toHaveLength(2);
  });

  it('with no credit left in the sale, it waits for a payment as any booking', async () => {
    const sale = await soldPackage(1);
    // The client's own session (with the details a client gives), paid by the sale's one credit.
    const source = await session({ bookingDate: '2026-11-30', bookingTimeSlotStart: '16:00', clientEmail: sale.email, amountPaise: 0 });
    await database.db
      .insert(packageCredits)
      .values({ saleId: sale.id, kind: 'used', sessions: -1, bookingId: source.id, actor: 'client', occurredAt: clock.now() });
    const res = await bookAgain(source.token, { weeks_ahead: 1 });
    expect([res.status, res.body.detail]).toEqual([200, undefined]);
    expect(Object.keys(res.body).sort()).toEqual(['booking_id', 'booking_token', 'message']);
    expect(await row(res.body.booking_id)).toMatchObject({ bookingDate: '2026-12-07', paymentStatus: 'INITIATED', amountPaise: 150_000 });
    expect(await usedOf(sale.id)).toEqual([source.id]);
  });
});
