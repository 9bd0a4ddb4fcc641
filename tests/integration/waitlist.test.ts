import { and, eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WAITLIST_WHATSAPP_CONSENT_TEXT } from '../../shared/contract/booking.ts';
import { API_MESSAGES as M } from '../../shared/contract/messages.ts';
import { WAITLIST_MESSAGES } from '../../shared/contract/waitlist.ts';
import { auditLog, bookings, outbox, waitlistEntries, waitlistOffers } from '../../shared/core/db/schema.ts';
import { queueOf } from '../../shared/core/jobs/jobs.ts';
import { createLogger } from '../../shared/core/logger.ts';
import type { Mailer, MailMessage } from '../../shared/core/providers/mail/mail.provider.ts';
import { jitsiProvider } from '../../shared/core/providers/meetings/jitsi.provider.ts';
import { LIVE_BOOKING_SQL } from '../../shared/core/repositories/live-booking.ts';
import { SLOT_RELEASING_STATUSES } from '../../shared/domain/slot-states.ts';
import { manageTokenFor, waitlistTokenFor } from '../../shared/core/services/booking-token.ts';
import { expireEndedHolds } from '../../shared/core/services/payment.service.ts';
import type { WorkerDeps } from '../../worker/src/handlers/handler.ts';
import { bearer, insertBooking, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp, testConfig } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { seededWithAdmins } from '../support/desk.ts';
import { offlineBooking, onlineBooking } from '../support/factories.ts';
import { configFor, inProcessPayments } from '../support/jobs.ts';
import { runDueJobs } from '../support/run-jobs.ts';
import { startWhatsAppStandIn } from '../support/whatsapp-standin.ts';

/**
 * The waitlist (issue 34, section 4). Monday 23 November 2026, 10:30 at the centre. Dr. Asha Mehta (1)
 * works online, Dr. Rohan Kapoor (5) in person at the West Branch (1), each at 10, 11, 12, 14, 15, 16
 * and 17:00. The worker's jobs run here in process (runDueJobs), from the outbox where the bookings
 * trigger and the services write them.
 */

const NOW = '2026-11-23T10:30:00+05:30';
const clock = fixedClock(NOW);
let database: TestDatabase;
let admins: Admins;
let app: ReturnType<typeof testApp>;
let worker: WorkerDeps;
const sent: MailMessage[] = [];
const mailer: Mailer = {
  kind: 'outbox',
  send: async (m) => {
    sent.push(m);
    return { messageId: `m${sent.length}` };
  },
  close: () => {},
};

beforeAll(async () => {
  ({ database, admins } = await seededWithAdmins());
  const { payments, jobs, deps } = inProcessPayments(database, testConfig, clock.now);
  app = testApp(database, { now: clock.now, payments, jobs });
  worker = {
    ...deps,
    mailer,
    meetings: jitsiProvider({ domain: 'meet.jit.si' }),
    queues: {} as WorkerDeps['queues'],
    fetch,
    logger: createLogger({ level: 'silent' }),
  };
});
beforeEach(async () => {
  clock.set(NOW);
  sent.length = 0;
  // Each test starts with nobody waiting and every slot free (nobody waits, so freeing them writes no job).
  await database.db.delete(waitlistOffers);
  await database.db.delete(waitlistEntries);
  await database.db.update(bookings).set({ cancelled: true, paymentStatus: 'CANCELLED' });
  await database.db.delete(outbox);
});
afterAll(() => database.drop());

let clients = 0;
function joiner(overrides: Record<string, unknown> = {}) {
  clients++;
  return {
    therapist_id: 5,
    from_date: '2026-11-25',
    to_date: '2026-11-27',
    times: ['afternoon'],
    client_full_name: `Waiting Client ${clients}`,
    client_email: `waiting${clients}@example.com`,
    client_mobile: `99887${String(clients).padStart(5, '0')}`,
    ...overrides,
  };
}
async function join(overrides: Record<string, unknown> = {}, on = app) {
  const res = await request(on).post('/api/waitlist').send(joiner(overrides)).expect(200);
  const id = res.body.entry_id as number;
  return { id, token: waitlistTokenFor(testConfig.jwtSecret, id).token };
}
const entry = async (id: number) => (await database.db.select().from(waitlistEntries).where(eq(waitlistEntries.id, id)))[0]!;
const booking = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const offersOf = (entryId: number) => database.db.select().from(waitlistOffers).where(eq(waitlistOffers.entryId, entryId));
const minutesLater = (n: number) => clock.set(new Date(clock.now().getTime() + n * 60_000).toISOString());

/** A client's confirmed in-person session with Dr. Kapoor, with its Manage token. */
async function inPersonSession(date: string, time: string) {
  const b = await insertBooking(database.db, {
    therapistId: 5,
    bookingType: 'OFFLINE',
    locationId: 1,
    paymentStatus: 'PENDING',
    bookingDate: date,
    bookingTimeSlotStart: time,
    clientAge: 40,
    sessionType: 'individual',
    updatedAt: clock.now(),
  });
  const { token, hash } = manageTokenFor(testConfig.jwtSecret, b.id);
  await database.db.update(bookings).set({ manageTokenHash: hash }).where(eq(bookings.id, b.id));
  return { id: b.id, token };
}

describe('joining', () => {
  it('puts the client on the list, e-mails the private link, and the link shows their place', async () => {
    const a = await join();
    const row = await entry(a.id);
    expect(row).toMatchObject({ therapistId: 5, fromDate: '2026-11-25', toDate: '2026-11-27', times: ['afternoon'], status: 'waiting' });
    // Hashed at rest: the token itself is nowhere in the row.
    expect(row.tokenHash).toBe(waitlistTokenFor(testConfig.jwtSecret, a.id).hash);
    expect(JSON.stringify(row)).not.toContain(a.token);
    await runDueJobs(worker);
    expect(sent.map((m) => m.subject)).toEqual(['You are on the waitlist for Rohan Kapoor']);
    expect(sent[0]!.text).toContain(`/waitlist?token=${a.token}`);
    const page = await request(app).get(`/api/waitlist/${a.token}`).expect(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toMatchObject({
      therapist: { id: 5, name: 'Rohan Kapoor' },
      booking_type: 'OFFLINE',
      status: 'waiting',
      offer: null,
      times: ['afternoon'],
    });
    expect((await database.db.select().from(auditLog).where(eq(auditLog.action, 'waitlist.join'))).length).toBeGreaterThan(0);
  });

  it('refuses dates outside the client’s booking window, a reversed range, an inactive therapist and unknown times', async () => {
    expect(
      (
        await request(app)
          .post('/api/waitlist')
          .send(joiner({ to_date: '2026-12-31' }))
          .expect(400)
      ).body.detail,
    ).toBe(M.dateOutsideWindow);
    expect(
      (
        await request(app)
          .post('/api/waitlist')
          .send(joiner({ from_date: '2026-11-20' }))
          .expect(400)
      ).body.detail,
    ).toBe(M.dateOutsideWindow);
    await request(app)
      .post('/api/waitlist')
      .send(joiner({ from_date: '2026-11-27', to_date: '2026-11-25' }))
      .expect(400);
    await request(app)
      .post('/api/waitlist')
      .send(joiner({ therapist_id: 999 }))
      .expect(400);
    await request(app)
      .post('/api/waitlist')
      .send(joiner({ times: ['night'] }))
      .expect(400);
    expect(await database.db.select().from(waitlistEntries)).toEqual([]);
  });

  it('keeps to the wizard’s hold limits: live entries per e-mail and per mobile, joins per address', async () => {
    const limited = testApp(database, { now: clock.now, config: configFor({ HOLDS_PER_CLIENT: '1', HOLDS_PER_IP: '2' }) });
    await join({ client_email: 'limit@example.com', client_mobile: '9111111111' }, limited);
    const again = await request(limited)
      .post('/api/waitlist')
      .send(joiner({ client_email: 'limit@example.com' }))
      .expect(429);
    expect(again.body.detail).toBe(WAITLIST_MESSAGES.perClient(1));
    const sameMobile = await request(limited)
      .post('/api/waitlist')
      .send(joiner({ client_mobile: '9111111111' }))
      .expect(429);
    expect(sameMobile.body.detail).toBe(WAITLIST_MESSAGES.perClient(1));
    await join({}, limited);
    const third = await request(limited).post('/api/waitlist').send(joiner()).expect(429);
    expect(third.body.detail).toBe(WAITLIST_MESSAGES.perAddress(10));
    expect(Number(third.headers['retry-after'])).toBe(600);
  });
});

describe('the offer on WhatsApp too, for a client who opted in when joining', () => {
  it('records the consent on joining; the offer goes to Meta as the waitlist template (exact request), and the e-mail as well', async () => {
    const standIn = await startWhatsAppStandIn({
      token: 'wa-token',
      phoneNumberId: '1234567890',
      graphVersion: 'v26.0',
      templateName: 'session_reminder',
      language: 'en',
      appSecret: 'wa-app-secret',
      bodyParams: 4,
      waitlistOffer: { templateName: 'waitlist_offer', language: 'en', bodyParams: 5 },
    });
    try {
      const whatsapp = {
        token: 'wa-token',
        phoneNumberId: '1234567890',
        appSecret: 'wa-app-secret',
        verifyToken: 'verify-token-123',
        templateName: 'session_reminder',
        templateLanguage: 'en',
        paymentLinkTemplateName: 'payment_link',
        paymentLinkTemplateLanguage: 'en',
        waitlistTemplateName: 'waitlist_offer',
        waitlistTemplateLanguage: 'en',
        graphUrl: standIn.url,
        graphVersion: 'v26.0',
        retryDelayMs: 20,
      };
      const withWhatsApp: WorkerDeps = { ...worker, config: { ...worker.config, whatsapp } };
      const session = await inPersonSession('2026-11-26', '16:00');
      const first = await join({ client_full_name: 'Asha Rao', client_mobile: '9876500001', whatsapp_offers: true });
      const second = await join({ client_mobile: '9876500002' });
      expect(await entry(first.id)).toMatchObject({ whatsappConsentText: WAITLIST_WHATSAPP_CONSENT_TEXT });
      expect((await entry(first.id)).whatsappOptInAt).toEqual(clock.now());
      expect(await entry(second.id)).toMatchObject({ whatsappOptInAt: null, whatsappConsentText: null });
      await runDueJobs(withWhatsApp);
      expect(standIn.requests).toEqual([]);
      sent.length = 0;

      await request(app).post(`/api/manage/${session.token}/cancel`).expect(200);
      const ran = await runDueJobs(withWhatsApp);
      expect(ran.filter((j) => j.name === 'whatsapp.waitlist-offer').map((j) => j.result)).toEqual([{ result: 'sent' }]);
      expect(standIn.problems).toEqual([]);
      expect(standIn.requests).toHaveLength(1);
      expect(standIn.requests[0]).toEqual({
        method: 'POST',
        path: '/v26.0/1234567890/messages',
        authorization: 'Bearer wa-token',
        contentType: 'application/json',
        body: {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: '919876500001',
          type: 'template',
          template: {
            name: 'waitlist_offer',
            language: { code: 'en' },
            components: [
              {
                type: 'body',
                parameters: [
                  { type: 'text', text: 'Asha' },
                  { type: 'text', text: 'Rohan Kapoor' },
                  { type: 'text', text: 'Thursday, November 26, 2026' },
                  { type: 'text', text: '4:00 PM IST' },
                  { type: 'text', text: '11:00 AM IST on Monday, November 23, 2026' },
                ],
              },
              { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: first.token }] },
            ],
          },
        },
      });
      // The e-mail goes as well.
      expect(sent.filter((m) => m.subject.startsWith('A time has come free')).map((m) => m.to)).toEqual([(await entry(first.id)).clientEmail]);
      // Run again, nothing more goes to Meta.
      const [offer] = await offersOf(first.id);
      await database.db
        .update(outbox)
        .set({ completedAt: null })
        .where(eq(outbox.jobId, `whatsapp-waitlist-offer.${offer!.id}`));
      expect((await runDueJobs(withWhatsApp)).find((j) => j.name === 'whatsapp.waitlist-offer')!.result).toEqual({ result: 'already-sent' });
      expect(standIn.requests).toHaveLength(1);
    } finally {
      await standIn.close();
    }
  });

  it('the join form’s box is optional and must be true or false', async () => {
    const res = await request(app)
      .post('/api/waitlist')
      .send(joiner({ whatsapp_offers: 'yes' }))
      .expect(400);
    expect(res.body.detail).toContain('whatsapp_offers must be true or false');
  });
});

describe('a freed slot is offered to the first waiting, held for them alone', () => {
  it('a cancel: the first to join is offered the slot, held by a booking row of theirs; nobody else is offered or can book it', async () => {
    const session = await inPersonSession('2026-11-26', '14:00');
    const first = await join();
    const second = await join();
    // Waiting for the morning only: not this slot.
    const morning = await join({ times: ['morning'] });
    await runDueJobs(worker);
    sent.length = 0;

    await request(app).post(`/api/manage/${session.token}/cancel`).expect(200);
    const ran = await runDueJobs(worker);
    expect(ran.map((j) => j.name)).toContain('waitlist.slot-freed');
    const [offer] = await offersOf(first.id);
    expect(offer).toMatchObject({ bookingDate: '2026-11-26', bookingTimeSlotStart: '14:00:00', outcome: null });
    expect(offer!.expiresAt.getTime() - clock.now().getTime()).toBe(30 * 60_000);
    expect(await booking(offer!.bookingId)).toMatchObject({
      therapistId: 5,
      bookingType: 'OFFLINE',
      locationId: 1,
      paymentStatus: 'INITIATED',
      clientEmail: (await entry(first.id)).clientEmail,
      cancelled: false,
    });
    expect((await entry(first.id)).status).toBe('offered');
    expect((await entry(second.id)).status).toBe('waiting');
    expect(await offersOf(morning.id)).toEqual([]);
    // The panel's lists say the slot is held for a waitlist client, and until when (not "Awaiting payment").
    const listed = await request(app)
      .get('/api/admin/bookings')
      .query({ from: '2026-11-26', to: '2026-11-26' })
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .expect(200);
    expect((listed.body as { id: number; payment_state: string; payment_hold_expires_at: string }[]).find((b) => b.id === offer!.bookingId)).toMatchObject({
      payment_state: 'HELD_FOR_WAITLIST',
      payment_hold_expires_at: offer!.expiresAt.toISOString(),
    });
    const offerMail = sent.find((m) => m.subject.startsWith('A time has come free'))!;
    expect(offerMail.to).toBe((await entry(first.id)).clientEmail);
    expect(offerMail.text).toContain('Thursday, November 26, 2026 at 2:00 PM IST');
    expect(offerMail.text).toContain('until 11:00 AM IST on Monday, November 23, 2026');
    expect(offerMail.text).toContain(`/waitlist?token=${first.token}`);

    // Not in the public offer, and nobody else books it.
    const slots = await request(app).get('/api/slots').query({ therapist_id: 5 }).expect(200);
    const day = (slots.body.days as { date: string; slots: { start_time: string }[] }[]).find((d) => d.date === '2026-11-26')!;
    expect(day.slots.map((s) => s.start_time)).not.toContain('14:00');
    const other = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '14:00' }))
      .expect(409);
    expect(other.body.detail).toBe(M.slotTaken);
    // The job run again offers nothing more.
    await request(app).get(`/api/waitlist/${second.token}`).expect(200);
    expect(await offersOf(second.id)).toEqual([]);
    const page = await request(app).get(`/api/waitlist/${first.token}`).expect(200);
    expect(page.body.offer).toMatchObject({ booking_date: '2026-11-26', booking_time_slot_start: '14:00' });
  });

  it('unclaimed, the offer passes to the next when it ends; the first waits on for other slots', async () => {
    const session = await inPersonSession('2026-11-26', '15:00');
    const first = await join();
    const second = await join();
    await request(app).post(`/api/manage/${session.token}/cancel`).expect(200);
    await runDueJobs(worker);
    const [firstOffer] = await offersOf(first.id);

    minutesLater(29);
    await runDueJobs(worker);
    expect(await offersOf(second.id)).toEqual([]);

    minutesLater(2);
    sent.length = 0;
    await runDueJobs(worker);
    expect((await offersOf(first.id))[0]).toMatchObject({ outcome: 'lapsed' });
    expect((await booking(firstOffer!.bookingId)).paymentStatus).toBe('FAILED');
    expect((await entry(first.id)).status).toBe('waiting');
    const [secondOffer] = await offersOf(second.id);
    expect(secondOffer).toMatchObject({ bookingDate: '2026-11-26', bookingTimeSlotStart: '15:00:00', outcome: null });
    expect(sent.map((m) => m.to)).toEqual([(await entry(second.id)).clientEmail]);
    // The first, too late, cannot claim it.
    const late = await request(app)
      .post(`/api/waitlist/${first.token}/claim`)
      .send({ client_age: 30, session_type: 'individual', terms_accepted: true })
      .expect(409);
    expect(late.body.detail).toBe(WAITLIST_MESSAGES.noOffer);
  });

  it('an unpaid hold that ends frees its slot, which is offered', async () => {
    const first = await join({ therapist_id: 1, times: [] });
    const hold = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-25', booking_time_slot_start: '15:00' }))
      .expect(200);
    minutesLater(testConfig.paymentHoldMinutes + 1);
    await expireEndedHolds(worker);
    expect((await booking(hold.body.booking_id)).paymentStatus).toBe('FAILED');
    await runDueJobs(worker);
    const [offer] = await offersOf(first.id);
    expect(offer).toMatchObject({ bookingDate: '2026-11-25', bookingTimeSlotStart: '15:00:00' });
    expect((await booking(offer!.bookingId)).bookingType).toBe('ONLINE');
  });

  it('an unblock frees the slot, which is offered', async () => {
    const desk = bearer(tokenFor(admins.admin, clock.now()));
    const block = { therapist_id: 5, date: '2026-11-27', start_time: '16:00' };
    await request(app)
      .post('/api/admin/availability/block')
      .set(desk)
      .send({ ...block, action: 'block' })
      .expect(200);
    const first = await join();
    await request(app)
      .post('/api/admin/availability/block')
      .set(desk)
      .send({ ...block, action: 'unblock' })
      .expect(200);
    await runDueJobs(worker);
    expect((await offersOf(first.id))[0]).toMatchObject({ bookingDate: '2026-11-27', bookingTimeSlotStart: '16:00:00' });
  });

  it('a slot nobody waits for writes no job; one that cannot be booked by a client is offered to nobody', async () => {
    const session = await inPersonSession('2026-11-30', '14:00');
    await request(app).post(`/api/manage/${session.token}/cancel`).expect(200);
    expect(await database.db.select().from(outbox).where(eq(outbox.jobName, 'waitlist.slot-freed'))).toEqual([]);
    // A session today, at 11:00: once it has passed, its slot is offered to nobody.
    const first = await join({ from_date: '2026-11-23', to_date: '2026-11-23', times: [] });
    const today = await insertBooking(database.db, {
      therapistId: 5,
      bookingType: 'OFFLINE',
      locationId: 1,
      paymentStatus: 'PENDING',
      bookingDate: '2026-11-23',
      bookingTimeSlotStart: '11:00',
    });
    clock.set('2026-11-23T11:30:00+05:30');
    await database.db.update(bookings).set({ cancelled: true, paymentStatus: 'CANCELLED', updatedAt: clock.now() }).where(eq(bookings.id, today.id));
    const ran = await runDueJobs(worker);
    expect(ran.find((j) => j.name === 'waitlist.slot-freed')!.result).toEqual({ skipped: 'not_bookable' });
    expect(await offersOf(first.id)).toEqual([]);
  });
});

describe('the private link', () => {
  it('claim in person: the held row becomes the client’s confirmed booking, answered as /confirm-booking', async () => {
    const session = await inPersonSession('2026-11-26', '16:00');
    const first = await join();
    await request(app).post(`/api/manage/${session.token}/cancel`).expect(200);
    await runDueJobs(worker);
    const [offer] = await offersOf(first.id);
    const res = await request(app)
      .post(`/api/waitlist/${first.token}/claim`)
      .send({ client_age: 29, session_type: 'couple', terms_accepted: true, client_note: 'Evenings suit us' })
      .expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual(['booking_id', 'booking_token', 'message']);
    expect(res.body).toMatchObject({ booking_id: offer!.bookingId, message: M.bookingCreated });
    expect(await booking(offer!.bookingId)).toMatchObject({
      paymentStatus: 'PENDING',
      paymentHoldExpiresAt: null,
      clientAge: 29,
      sessionType: 'couple',
      termsAccepted: true,
      clientNote: 'Evenings suit us',
    });
    expect((await offersOf(first.id))[0]).toMatchObject({ outcome: 'claimed' });
    expect((await entry(first.id)).status).toBe('booked');
    // Confirmed as the wizard's in-person booking is: its e-mails and reminder; the expiry does nothing.
    sent.length = 0;
    minutesLater(31);
    await runDueJobs(worker);
    expect(sent.map((m) => m.subject)).toContain('Booking confirmed: your session on Thursday, November 26, 2026 at 4:00 PM IST');
    expect((await booking(offer!.bookingId)).paymentStatus).toBe('PENDING');
    await request(app).post(`/api/waitlist/${first.token}/claim`).send({ client_age: 29, session_type: 'couple', terms_accepted: true }).expect(409);
  });

  it('claim online: an unpaid hold of the payment hold’s length, paid through the ordinary payment calls', async () => {
    const first = await join({ therapist_id: 1, times: ['afternoon'] });
    const hold = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '15:00' }))
      .expect(200);
    await database.db
      .update(bookings)
      .set({ cancelled: true, paymentStatus: 'CANCELLED', updatedAt: clock.now() })
      .where(eq(bookings.id, hold.body.booking_id));
    await runDueJobs(worker);
    const [offer] = await offersOf(first.id);
    const claim = { client_age: 35, session_type: 'individual', terms_accepted: true };
    const noState = await request(app).post(`/api/waitlist/${first.token}/claim`).send(claim).expect(400);
    expect(noState.body.detail).toBe('State is required');
    minutesLater(10);
    const res = await request(app)
      .post(`/api/waitlist/${first.token}/claim`)
      .send({ ...claim, client_state: 'Maharashtra', client_city: 'Mumbai' })
      .expect(200);
    const made = await booking(offer!.bookingId);
    expect(made).toMatchObject({ paymentStatus: 'INITIATED', clientState: 'Maharashtra' });
    expect(made.paymentHoldExpiresAt!.getTime() - clock.now().getTime()).toBe(testConfig.paymentHoldMinutes * 60_000);
    const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', res.body.booking_token).send({ booking_id: made.id }).expect(200);
    expect(link.body.short_url).toMatch(/^http/);
  });

  it('a holiday declared after the offer refuses the claim in the checker’s words', async () => {
    const session = await inPersonSession('2026-11-25', '14:00');
    const first = await join();
    await request(app).post(`/api/manage/${session.token}/cancel`).expect(200);
    await runDueJobs(worker);
    await database.pool.query(`insert into centre_holidays (holiday_date, reason) values ('2026-11-25', 'Declared')`);
    const res = await request(app)
      .post(`/api/waitlist/${first.token}/claim`)
      .send({ client_age: 30, session_type: 'individual', terms_accepted: true })
      .expect(409);
    expect(res.body.detail).toBe(M.slotNotOffered);
    await database.pool.query(`delete from centre_holidays where holiday_date = '2026-11-25'`);
  });

  it('leave: off the list, the slot held for them passes to the next; leaving again answers the same', async () => {
    const session = await inPersonSession('2026-11-27', '14:00');
    const first = await join();
    const second = await join();
    await request(app).post(`/api/manage/${session.token}/cancel`).expect(200);
    await runDueJobs(worker);
    const [offer] = await offersOf(first.id);
    const left = await request(app).post(`/api/waitlist/${first.token}/leave`).expect(200);
    expect(left.body.message).toBe(WAITLIST_MESSAGES.left);
    expect((await entry(first.id)).status).toBe('left');
    expect((await offersOf(first.id))[0]).toMatchObject({ outcome: 'left' });
    expect((await booking(offer!.bookingId)).paymentStatus).toBe('FAILED');
    await runDueJobs(worker);
    expect((await offersOf(second.id))[0]).toMatchObject({ bookingDate: '2026-11-27', outcome: null });
    expect((await request(app).post(`/api/waitlist/${first.token}/leave`).expect(200)).body.message).toBe(WAITLIST_MESSAGES.left);
    expect((await request(app).get(`/api/waitlist/${first.token}`).expect(200)).body.status).toBe('left');
  });

  it('an unknown or malformed token is 404', async () => {
    await request(app)
      .get(`/api/waitlist/${'x'.repeat(43)}`)
      .expect(404);
    await request(app).get('/api/waitlist/short').expect(404);
    await request(app)
      .post(`/api/waitlist/${'x'.repeat(43)}/leave`)
      .expect(404);
    await request(app)
      .post(`/api/waitlist/${'x'.repeat(43)}/claim`)
      .send({ client_age: 30, session_type: 'individual', terms_accepted: true })
      .expect(404);
  });
});

describe('the panel', () => {
  it('lists a therapist’s waitlist first in line first, with the slot held now; staff only', async () => {
    const session = await inPersonSession('2026-11-26', '17:00');
    const first = await join({ times: ['evening'] });
    const second = await join({ times: [] });
    await join({ therapist_id: 1 });
    await request(app).post(`/api/manage/${session.token}/cancel`).expect(200);
    await runDueJobs(worker);
    await request(app).get('/api/admin/waitlist').query({ therapist_id: 5 }).expect(401);
    const res = await request(app)
      .get('/api/admin/waitlist')
      .query({ therapist_id: 5 })
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .expect(200);
    expect(res.body.entries.map((e: { id: number; position: number; status: string }) => [e.id, e.position, e.status])).toEqual([
      [first.id, 1, 'offered'],
      [second.id, 2, 'waiting'],
    ]);
    expect(res.body.entries[0].offer).toMatchObject({ booking_date: '2026-11-26', booking_time_slot_start: '17:00' });
  });
});

describe('one rule', () => {
  it('the trigger frees on the live-slot index’s predicate and writes the job the JOBS map names', async () => {
    const { rows } = await database.pool.query<{ def: string }>(
      `select pg_get_triggerdef(oid) as def from pg_trigger where tgname in ('bookings_waitlist_slot_freed', 'bookings_waitlist_slot_freed_delete') order by tgname`,
    );
    // LIVE_BOOKING_SQL's statuses, as PostgreSQL prints the trigger's condition (no brackets or casts).
    const released = `ARRAY[${SLOT_RELEASING_STATUSES.map((v) => `'${v}'`).join(', ')}]`;
    expect(LIVE_BOOKING_SQL).toBe(`not cancelled and payment_status not in (${released.slice(6, -1)})`);
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.def.replace(/\(|\)|::\w+(\[\])?/g, '')).toContain(`WHEN NOT old.cancelled AND old.payment_status <> ALL ${released}`);
    const { rows: fn } = await database.pool.query<{ prosrc: string }>(`select prosrc from pg_proc where proname = 'waitlist_slot_freed'`);
    expect(fn[0]!.prosrc).toContain(`'${queueOf('waitlist.slot-freed')}',\n      'waitlist.slot-freed',`);
    // The held row is any client's booking to every path: the checker names it.
    const session = await inPersonSession('2026-11-25', '16:00');
    const first = await join();
    await request(app).post(`/api/manage/${session.token}/cancel`).expect(200);
    await runDueJobs(worker);
    const [offer] = await offersOf(first.id);
    const holders = await database.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.bookingDate, '2026-11-25'), eq(bookings.bookingTimeSlotStart, '16:00'), eq(bookings.cancelled, false)));
    expect(holders.map((b) => b.id)).toEqual([offer!.bookingId]);
  });
});
