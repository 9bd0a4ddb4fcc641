/**
 * Issue 31, items 8 and 9 on the server: GET /api/manage/{token}/session.ics is the e-mails' own
 * invitation (one event per session: the same UID and the latest SEQUENCE), the payment-status answer
 * says whether changes are still open (a session booked at short notice), the Manage page's payment is
 * in the ledger's words ("Refunded"), the e-mails state the policy in its one wording with the video
 * link as a link, and the checkout names the therapist as the wizard does.
 */
import { eq } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { changePolicyText, shortNoticeText } from '../../shared/contract/policy.ts';
import type { Config } from '../../shared/core/config.ts';
import { bookings, outbox } from '../../shared/core/db/schema.ts';
import type { JobPayload } from '../../shared/core/jobs/jobs.ts';
import { manageTokenFor } from '../../shared/core/services/booking-token.ts';
import { createMeetingForBooking, sendChangeMail, sendConfirmation, type NotificationDeps } from '../../shared/core/services/notification.service.ts';
import type { TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';
import { mailingStackPerFile } from '../support/mailing.ts';

let database: TestDatabase;
let config: Config;
let app: Express;
let notify: NotificationDeps;
const { clock, sent } = mailingStackPerFile(MONDAY_MORNING_IST, (s) => ({ database, config, app, notify } = s));

const POLICY = { noticeHours: 24, maxReschedules: 2 };
const SUPPORT = { phone: '+91 22 4000 1234', email: 'care@wellbeingcentre.in' };
const manage = (token: string) => `/api/manage/${token}`;
const ics = (token: string) => `/api/manage/${token}/session.ics`;
let clients = 0;
const nextEmail = () => `edges.client${++clients}@example.com`;

/** An online session with Asha Mehta paid through the sandbox checkout, and its payment-status answer. */
async function paidOnline(date: string, time: string): Promise<{ id: number; token: string; status: Record<string, unknown>; checkout: string }> {
  const made = await request(app)
    .post('/confirm-booking')
    .send(onlineBooking({ booking_date: date, booking_time_slot_start: time, client_email: nextEmail() }))
    .expect(200);
  const id = made.body.booking_id as number;
  const link = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', made.body.booking_token).send({ booking_id: id }).expect(200);
  const checkout = (await request(app).get(`/sandbox/checkout/${link.body.payment_link_id}`).expect(200)).text;
  const paid = await request(app).post(`/sandbox/checkout/${link.body.payment_link_id}/pay`).expect(303);
  const q = Object.fromEntries(new URL(paid.headers.location!).searchParams);
  const status = await request(app)
    .get(`/api/get-razorpay-details/${id}`)
    .query({ payment_status: 'paid', ...q })
    .expect(200);
  return { id, token: manageTokenFor(config.jwtSecret, id).token, status: status.body.data, checkout };
}

/** A minimal RFC 5545 reader: the calendar's and the event's properties by name (lines unfolded). */
function parseIcs(text: string): { calendar: Record<string, string>; event: Record<string, string> } {
  const calendar: Record<string, string> = {};
  const event: Record<string, string> = {};
  let where: 'calendar' | 'event' | 'alarm' = 'calendar';
  for (const line of text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean)) {
    if (line === 'BEGIN:VEVENT') where = 'event';
    else if (line === 'END:VEVENT') where = 'calendar';
    else if (line === 'BEGIN:VALARM') where = 'alarm';
    else if (line === 'END:VALARM') where = 'event';
    else if (where !== 'alarm') {
      const colon = line.indexOf(':');
      (where === 'event' ? event : calendar)[line.slice(0, colon).split(';')[0]!] = line.slice(colon + 1);
    }
  }
  return { calendar, event };
}

const changePayloads = async (id: number) =>
  (await database.db.select().from(outbox).where(eq(outbox.jobName, 'mail.booking-changed')))
    .map((o) => o.payload as JobPayload<'mail.booking-changed'>)
    .filter((p) => p.bookingId === id);

describe('GET /api/manage/{token}/session.ics: one calendar event per session', () => {
  it("answers the e-mail's invitation as a private download: same UID and SEQUENCE, before and after a reschedule, and METHOD:CANCEL after a cancel", async () => {
    const b = await paidOnline('2026-11-26', '10:00');
    await createMeetingForBooking(notify, b.id);
    await sendConfirmation(notify, b.id, 'client');
    const mailed = parseIcs(sent.at(-1)!.ics!);

    const res = await request(app).get(ics(b.token)).expect(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename=therapy-session-${b.id}.ics`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const first = parseIcs(res.text);
    expect(first.event.UID).toBe(`booking-${b.id}@booking.example.in`);
    expect(first.event).toMatchObject({
      UID: mailed.event.UID,
      SEQUENCE: '0',
      DTSTART: mailed.event.DTSTART,
      DTEND: mailed.event.DTEND,
      SUMMARY: mailed.event.SUMMARY,
      LOCATION: mailed.event.LOCATION,
      URL: mailed.event.URL,
      STATUS: 'CONFIRMED',
    });
    expect(first.calendar.METHOD).toBe(mailed.calendar.METHOD);
    // The therapist as the wizard names them.
    expect(first.event.SUMMARY).toMatch(/ with Asha Mehta$/);

    // Moved: the change e-mail's invitation and the download agree on the UID and the raised SEQUENCE.
    await request(app)
      .post(`${manage(b.token)}/reschedule`)
      .send({ booking_date: '2026-11-26', booking_time_slot_start: '15:00' })
      .expect(200);
    sent.length = 0;
    for (const p of (await changePayloads(b.id)).filter((x) => x.sequence === 1)) expect(await sendChangeMail(notify, p)).toBe('sent');
    const movedMail = parseIcs(sent.find((m) => m.to.startsWith('edges.client'))!.ics!);
    const moved = parseIcs((await request(app).get(ics(b.token)).expect(200)).text);
    expect(movedMail.event.SEQUENCE).toBe('1');
    expect(moved.event).toMatchObject({ UID: first.event.UID, SEQUENCE: movedMail.event.SEQUENCE, DTSTART: movedMail.event.DTSTART });
    expect(moved.event.DTSTART).toBe('20261126T093000Z');

    // Cancelled: the download, as the e-mail, removes the one event.
    await request(app)
      .post(`${manage(b.token)}/cancel`)
      .expect(200);
    sent.length = 0;
    for (const p of (await changePayloads(b.id)).filter((x) => x.sequence === 2)) expect(await sendChangeMail(notify, p)).toBe('sent');
    const cancelMail = parseIcs(sent.find((m) => m.to.startsWith('edges.client'))!.ics!);
    const cancelled = parseIcs((await request(app).get(ics(b.token)).expect(200)).text);
    expect(cancelled.calendar.METHOD).toBe('CANCEL');
    expect(cancelled.event).toMatchObject({ UID: first.event.UID, SEQUENCE: '2', STATUS: 'CANCELLED' });
    expect(cancelled.event.SEQUENCE).toBe(cancelMail.event.SEQUENCE);
  });

  it('an unknown, malformed or booking token is 404 with the other manage calls’ answer; so is one whose session has ended', async () => {
    const made = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '10:00', client_email: nextEmail() }))
      .expect(200);
    const id = made.body.booking_id as number;
    await sendConfirmation(notify, id, 'client');
    const token = manageTokenFor(config.jwtSecret, id).token;
    await request(app).get(ics(token)).expect(200);
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const t of ['x', 'a'.repeat(43), flipped, made.body.booking_token as string]) {
      const res = await request(app).get(ics(t));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    clock.set('2026-11-24T11:00:00+05:30');
    expect((await request(app).get(ics(token)).expect(404)).body).toEqual({ detail: 'Not found.' });
  });
});

describe('short notice: the payment-status answer says whether changes are open', () => {
  it('a session booked within CHANGE_NOTICE_HOURS has its Manage link (details, calendar) but changes_open false; 24½ hours away is open', async () => {
    const soon = await paidOnline('2026-11-23', '14:00');
    expect(soon.status).toMatchObject({ manage_url: expect.stringContaining('/manage-booking?token='), changes_open: false, payment_state: 'PAID' });
    const page = await request(app).get(manage(soon.token)).expect(200);
    expect(page.body).toMatchObject({ can_reschedule: false, can_cancel: false, closed_reason: 'NOTICE_WINDOW' });
    await request(app).get(ics(soon.token)).expect(200);

    const later = await paidOnline('2026-11-24', '10:00');
    expect(later.status).toMatchObject({ changes_open: true, payment_state: 'PAID', amount_paid: 1500 });
  });

  it('the confirmation e-mail of a short-notice session says it cannot be changed online, not that the client may move it', async () => {
    const soon = await paidOnline('2026-11-23', '15:00');
    await sendConfirmation(notify, soon.id, 'client');
    const mail = sent.at(-1)!;
    expect(mail.text).toContain(`Cancellation policy: ${shortNoticeText(POLICY, SUPPORT)}`);
    expect(mail.text).not.toContain('move it or cancel it');
    expect(mail.text).toContain('your private link to see your session and add it to your calendar');
  });
});

describe('one policy wording in the e-mails, and the video link is a link', () => {
  it('the confirmation states the policy once, in the words of the details step and the Manage page, and links the video call', async () => {
    const b = await paidOnline('2026-11-27', '10:00');
    await createMeetingForBooking(notify, b.id);
    sent.length = 0;
    await sendConfirmation(notify, b.id, 'client');
    const mail = sent.at(-1)!;
    const words = changePolicyText(POLICY, SUPPORT);
    expect(mail.text).toContain(`Cancellation policy: ${words} Sessions running beyond 60 minutes are charged for every additional 15 minutes.`);
    expect(mail.text.split(words)).toHaveLength(2);
    expect(mail.text).not.toMatch(/please contact us at least|move or cancel this session yourself/);
    expect(mail.text).toContain('Manage booking: your private link to see your session, move it or cancel it (please do not share it):');
    // The Manage page states the same words.
    expect((await request(app).get(manage(b.token)).expect(200)).body.policy).toBe(words);
    const meet = (await database.db.select().from(bookings).where(eq(bookings.id, b.id)))[0]!.googleMeetLink!;
    expect(mail.text).toContain(`Join the video call: ${meet}`);
    expect(mail.html).toContain(`Join the video call: <a href="${meet}" style="color:#3f7f7a">${meet}</a>`);
    expect(mail.html).toContain('>Manage booking</a>');
    // Every name is the one the wizard shows.
    expect(mail.text).toContain('Your session with Asha Mehta is confirmed.');
    expect(mail.text).toContain('Therapist: Asha Mehta');
    expect(mail.text).not.toContain('Dr. Asha Mehta');
  });
});

describe('the Manage booking page after a refunded cancel, and the checkout', () => {
  it('payment_state is REFUNDED ("Refunded"), not cancelled; an unpaid in-person booking is to be paid at the centre', async () => {
    const b = await paidOnline('2026-11-28', '10:00');
    expect((await request(app).get(manage(b.token)).expect(200)).body.payment_state).toBe('PAID');
    const res = await request(app)
      .post(`${manage(b.token)}/cancel`)
      .expect(200);
    expect(res.body.booking).toMatchObject({ cancelled: true, payment_state: 'REFUNDED' });
    expect((await request(app).get(manage(b.token)).expect(200)).body.payment_state).toBe('REFUNDED');

    const made = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-28', booking_time_slot_start: '11:00', client_email: nextEmail() }))
      .expect(200);
    await sendConfirmation(notify, made.body.booking_id, 'client');
    const token = manageTokenFor(config.jwtSecret, made.body.booking_id).token;
    expect((await request(app).get(manage(token)).expect(200)).body.payment_state).toBe('PAY_AT_CENTRE');
  });

  it('the checkout names the therapist as the wizard does: "Asha Mehta", never "Dr. Asha Mehta"', async () => {
    const b = await paidOnline('2026-11-30', '10:00');
    expect(b.checkout).toContain('60-minute online session with Asha Mehta on Monday, November 30, 2026');
    expect(b.checkout).not.toContain('Dr. Asha Mehta');
  });
});
