/**
 * Issue 34, the waitlist in Debian's Chromium against the real server, database and worker, at 390×844
 * and 1280×800: a client who finds the time they want taken joins the waitlist from the wizard (a date
 * range and the times of day); the booking holding that time is cancelled in the panel's API; the
 * worker holds the freed time for the client and e-mails their private link; on /waitlist they book it
 * and pay in the sandbox. Another client leaves the list from their link.
 */
import { describe, expect, it } from 'vitest';
import type { SlotOfferDto, TherapistDto } from '../../shared/contract/public.ts';
import { addDays, centreNow, formatTime12h } from '../../shared/domain/time.ts';
import { timeOfDay, WAITLIST_TIME_WORDS } from '../../shared/domain/waitlist.ts';
import { screenshot, VIEWPORTS } from '../support/browser.ts';
import { waitForMail } from '../support/outbox.ts';
import { panelStack, STAFF } from '../support/panel-e2e.ts';
import { expectAccessible, expectNoHorizontalScroll, heading, newJourney, onlineWithTherapist } from './booking-helpers.ts';

const e2e = panelStack();
const WAITLIST_LINK = /https?:\/\/[^\s"'<>]+\/waitlist\?token=[A-Za-z0-9_-]{43}/;

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${e2e.stack.baseUrl}${url}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function therapistId(name: string): Promise<number> {
  const all = (await (await fetch(`${e2e.stack.baseUrl}/therapists`)).json()) as TherapistDto[];
  return all.find((t) => t.name.endsWith(name))!.id;
}

/** The first free time at least two days ahead (outside the notice window). */
async function firstFree(id: number): Promise<{ date: string; start: string }> {
  const offer = (await (await fetch(`${e2e.stack.baseUrl}/api/slots?therapist_id=${id}`)).json()) as SlotOfferDto;
  const from = addDays(centreNow().date, 2);
  const day = offer.days.find((d) => d.date >= from && d.slots.length > 0)!;
  return { date: day.date, start: day.slots[0]!.start_time.slice(0, 5) };
}

/** Someone else's unpaid booking of the time, as the wizard makes it. */
async function takeSlot(id: number, slot: { date: string; start: string }): Promise<number> {
  const res = await post('/confirm-booking', {
    therapist_id: id,
    booking_date: slot.date,
    booking_time_slot_start: slot.start,
    client_full_name: 'Someone Else',
    client_email: 'someone.else@example.in',
    client_mobile: '9123456780',
    client_age: 40,
    client_state: 'Maharashtra',
    client_city: 'Pune',
    session_type: 'individual',
    terms_accepted: true,
    booking_type: 'ONLINE',
    location_id: 0,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { booking_id: number }).booking_id;
}

async function staffHeaders(): Promise<Record<string, string>> {
  const res = await post('/api/admin/login', { username: STAFF.username, password: STAFF.password });
  return { Authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

const CASES = [
  ['phone', VIEWPORTS.phone, 'Asha Mehta', { name: 'Nisha Verma', email: 'nisha.verma@example.in' }],
  ['desktop', VIEWPORTS.desktop, 'Priya Nair', { name: 'Omar Siddiqui', email: 'omar.siddiqui@example.in' }],
] as const;

describe('the waitlist, from the wizard to a booking', () => {
  it.each(CASES)('joins for a taken time, is offered it when it is freed, and books it (%s)', async (size, viewport, therapist, client) => {
    const id = await therapistId(therapist);
    const slot = await firstFree(id);
    const taken = await takeSlot(id, slot);
    const { context, page } = await newJourney(e2e.browser, viewport);

    // The wanted time is gone from the wizard: the client joins the waitlist for that day.
    await page.goto(`${e2e.stack.baseUrl}/book`);
    await onlineWithTherapist(page, therapist);
    await page.getByRole('button', { name: 'None of these times suit you? Join the waitlist' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Join the waitlist' }) });
    await form.getByLabel('From', { exact: true }).fill(slot.date);
    await form.getByLabel('To', { exact: true }).fill(slot.date);
    await form.getByLabel(WAITLIST_TIME_WORDS[timeOfDay(slot.start)]).check();
    await form.getByLabel('Full name').fill(client.name);
    await form.getByLabel('Email').fill(client.email);
    await form.getByLabel('Mobile number').fill('9844455566');
    await expectAccessible(page, 'join the waitlist');
    await expectNoHorizontalScroll(page, 'join the waitlist');
    await screenshot(page, `waitlist-join-${size}`);
    await form.getByRole('button', { name: 'Join the waitlist', exact: true }).click();
    await page.locator('.waitlist-done').waitFor();
    await screenshot(page, `waitlist-joined-${size}`);

    // The private link from the e-mail: waiting.
    const joined = await waitForMail(e2e.stack.env.MAIL_OUTBOX_DIR!, client.email, /You are on the waitlist/);
    await page.goto(joined.text.match(WAITLIST_LINK)![0]);
    await page.getByRole('heading', { name: /^Waitlist for / }).waitFor();
    await page.getByText('You are on the waitlist. We will e-mail you as soon as a matching time comes free.').waitFor();
    await expectAccessible(page, '/waitlist waiting');
    await expectNoHorizontalScroll(page, '/waitlist waiting');
    await screenshot(page, `waitlist-waiting-${size}`);

    // The desk cancels the booking holding the time: the worker offers it to the client.
    const cancelled = await post(`/api/admin/bookings/${taken}/cancel`, {}, await staffHeaders());
    expect(cancelled.status).toBe(200);
    const offer = await waitForMail(e2e.stack.env.MAIL_OUTBOX_DIR!, client.email, /A time has come free/);
    await page.goto(offer.text.match(WAITLIST_LINK)![0]);
    const claim = page.locator('form', { has: page.getByRole('heading', { name: 'A time is held for you' }) });
    await claim.waitFor();
    expect(await claim.innerText()).toContain(formatTime12h(slot.start));
    await claim.getByLabel('Age').fill('29');
    await claim.getByLabel('Type of session').selectOption('individual');
    await claim.getByLabel('State').selectOption('Maharashtra');
    await claim.getByLabel('City').selectOption('Mumbai');
    await claim.getByLabel(/I accept the/).check();
    await expectAccessible(page, '/waitlist offer');
    await expectNoHorizontalScroll(page, '/waitlist offer');
    await screenshot(page, `waitlist-offer-${size}`);
    await claim.getByRole('button', { name: 'Book this time' }).click();
    await page.waitForURL(/\/sandbox\/checkout\/[^/?#]+/, { timeout: 30_000 });
    await page.getByRole('button', { name: /^Pay ₹/ }).click();
    await page.waitForURL(/\/payment-status\?/, { timeout: 30_000 });
    await heading(page, 'Booking Confirmed!');
    const offerNow = (await (await fetch(`${e2e.stack.baseUrl}/api/slots?therapist_id=${id}`)).json()) as SlotOfferDto;
    expect(offerNow.days.some((d) => d.date === slot.date && d.slots.some((s) => s.start_time.startsWith(slot.start)))).toBe(false);

    // The link now says the client booked.
    await page.goto(offer.text.match(WAITLIST_LINK)![0]);
    await page.getByText('You booked a session from this waitlist. Your confirmation e-mail has the details.').waitFor();
    await context.close();
  });

  it.each(CASES)('a client leaves the waitlist from their link (%s)', async (size, viewport, therapist) => {
    const id = await therapistId(therapist);
    const email = `leaving.${size}@example.in`;
    const from = addDays(centreNow().date, 3);
    const joined = await post('/api/waitlist', {
      therapist_id: id,
      from_date: from,
      to_date: addDays(from, 2),
      times: [],
      client_full_name: 'Leela Das',
      client_email: email,
      client_mobile: '9855566677',
    });
    expect(joined.status).toBe(200);
    const mail = await waitForMail(e2e.stack.env.MAIL_OUTBOX_DIR!, email, /You are on the waitlist/);
    const { context, page } = await newJourney(e2e.browser, viewport);
    await page.goto(mail.text.match(WAITLIST_LINK)![0]);
    await page.getByText('Any time of day').waitFor();
    await page.getByRole('button', { name: 'Leave the waitlist' }).click();
    await page.getByText('You have left this waitlist.').waitFor();
    expect(await page.getByRole('button', { name: 'Leave the waitlist' }).count()).toBe(0);
    await expectAccessible(page, '/waitlist left');
    await screenshot(page, `waitlist-left-${size}`);
    await context.close();
  });
});
