/**
 * Issue 34, courses of therapy in Debian's Chromium against the real server, database and worker, at
 * 390×844 and 1280×800: the desk books a weekly series in the panel and sees its sessions together;
 * the client gets one confirmation e-mail whose calendar file holds every session; the desk cancels
 * "this and following"; the client's Manage booking page lists the series with the cancelled ones.
 * And "Book the same time next week" from a client's Manage booking page books the session a week on
 * (in person: the confirmation; online: the payment link, paid in the sandbox).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SlotOfferDto, TherapistDto } from '../../shared/contract/public.ts';
import { addDays, centreNow, formatLongDate } from '../../shared/domain/time.ts';
import { screenshot, screenshotOf, VIEWPORTS } from '../support/browser.ts';
import { offlineBooking } from '../support/factories.ts';
import { waitForMail } from '../support/outbox.ts';
import { panelStack, signInToPanel, STAFF } from '../support/panel-e2e.ts';
import { bookAndPayOnline, CLIENT, expectAccessible, expectNoHorizontalScroll, heading, newJourney } from './booking-helpers.ts';

const e2e = panelStack();
const MANAGE_LINK = /https?:\/\/[^\s"'<>]+\/manage-booking\?token=[A-Za-z0-9_-]{43}/;

type AdminRow = { id: number; booking_date: string; booking_time_slot_start: string; series_id: number | null; cancelled: boolean; client_email: string };

async function staffHeaders(): Promise<Record<string, string>> {
  const res = await fetch(`${e2e.stack.baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: STAFF.username, password: STAFF.password }),
  });
  expect(res.status).toBe(200);
  return { Authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

/** The client's bookings, as the panel's list has them, earliest first. */
async function bookingsOf(email: string): Promise<AdminRow[]> {
  const res = await fetch(`${e2e.stack.baseUrl}/api/admin/bookings?from=${centreNow().date}&order=asc`, { headers: await staffHeaders() });
  expect(res.status).toBe(200);
  const body = (await res.json()) as AdminRow[] | { items: AdminRow[] };
  return (Array.isArray(body) ? body : body.items).filter((b) => b.client_email === email);
}

async function seriesOf(id: number): Promise<{ sessions: { booking_date: string; cancelled: boolean }[] }> {
  const res = await fetch(`${e2e.stack.baseUrl}/api/admin/series/${id}`, { headers: await staffHeaders() });
  expect(res.status).toBe(200);
  return (await res.json()) as { sessions: { booking_date: string; cancelled: boolean }[] };
}

async function therapistOf(id: number): Promise<TherapistDto> {
  const all = (await (await fetch(`${e2e.stack.baseUrl}/therapists`)).json()) as TherapistDto[];
  return all.find((t) => t.id === id)!;
}

async function offered(id: number, date: string, start: string): Promise<boolean> {
  const offer = (await (await fetch(`${e2e.stack.baseUrl}/api/slots?therapist_id=${id}`)).json()) as SlotOfferDto;
  return offer.days.some((d) => d.date === date && d.slots.some((x) => x.start_time.startsWith(start)));
}

/** A date at least two days ahead (outside the notice window) on which `therapist` is free at some hour, and that hour. */
async function firstFree(therapist: string): Promise<{ id: number; date: string; start: string }> {
  const all = (await (await fetch(`${e2e.stack.baseUrl}/therapists`)).json()) as TherapistDto[];
  const id = all.find((t) => t.name.endsWith(therapist))!.id;
  const offer = (await (await fetch(`${e2e.stack.baseUrl}/api/slots?therapist_id=${id}`)).json()) as SlotOfferDto;
  const from = addDays(centreNow().date, 2);
  const day = offer.days.find((d) => d.date >= from && d.slots.length > 0)!;
  return { id, date: day.date, start: day.slots[0]!.start_time.slice(0, 5) };
}

const CASES = [
  { size: 'phone', viewport: VIEWPORTS.phone, therapist: 'Rohan Kapoor', online: false, client: { name: 'Kavya Rao', email: 'kavya.rao@example.in' } },
  { size: 'desktop', viewport: VIEWPORTS.desktop, therapist: 'Farah Shaikh', online: true, client: { name: 'Dev Malhotra', email: 'dev.malhotra@example.in' } },
] as const;

async function seriesDialog(page: Page, bookingId: number) {
  await page.getByRole('button', { name: `Series of booking ${bookingId}` }).click();
  const dialog = page.getByRole('dialog', { name: /^Series \d+$/ });
  await dialog.getByRole('listitem').first().waitFor();
  return dialog;
}

describe('a weekly series, booked at the desk and managed by the client', () => {
  it.each(CASES)('books, lists, e-mails and cancels this and following ($size)', async (c) => {
    const { stack, browser } = e2e;
    const { date, start } = await firstFree(c.therapist);
    const { context, page } = await newJourney(browser, c.viewport);
    await signInToPanel(page, stack.baseUrl, STAFF);

    // The desk's "Book a series": four weekly sessions.
    await page.getByRole('button', { name: 'Book a series' }).click();
    const form = page.getByRole('dialog', { name: 'Book a series' });
    const option = form.getByLabel('Therapist').locator('option', { hasText: c.therapist });
    await form.getByLabel('Therapist').selectOption((await option.getAttribute('value'))!);
    await form.getByLabel('Time').fill(start);
    await form.getByLabel('First date').fill(date);
    await form.getByLabel('Repeats').selectOption('1');
    await form.getByLabel('Number of sessions').fill('4');
    await form.getByLabel('Client name').fill(c.client.name);
    await form.getByLabel('Client email').fill(c.client.email);
    await form.getByLabel('Client mobile').fill('9811122233');
    await form.getByRole('radio', { name: c.online ? /by payment link/ : 'Per session, at the centre' }).check();
    await expectAccessible(page, 'book a series');
    await screenshotOf(form, `series-form-${c.size}`);
    await form.getByRole('button', { name: 'Book series' }).click();
    await form.waitFor({ state: 'detached' });

    const dates = [0, 7, 14, 21].map((d) => addDays(date, d));
    const booked = await bookingsOf(c.client.email);
    expect(booked.map((b) => b.booking_date)).toEqual(dates);
    expect(new Set(booked.map((b) => b.series_id)).size).toBe(1);
    expect(booked.every((b) => b.booking_time_slot_start.startsWith(start))).toBe(true);

    // The sessions together, from one of them.
    const together = await seriesDialog(page, booked[0]!.id);
    expect(await together.getByRole('listitem').count()).toBe(4);
    for (const d of dates) await together.getByText(new RegExp(`^${formatLongDate(d).replace(/,/g, ',?')}`)).waitFor();
    await expectAccessible(page, 'series sessions');
    await expectNoHorizontalScroll(page, 'series sessions');
    await screenshotOf(together, `series-sessions-${c.size}`);
    await together
      .getByRole('button', { name: /^Close/ })
      .first()
      .click();

    // One confirmation e-mail for the series, its calendar file holding every session.
    const mail = await waitForMail(stack.env.MAIL_OUTBOX_DIR!, c.client.email, /Your 4 sessions with/);
    const events = mail.ics!.split('BEGIN:VEVENT').slice(1);
    expect(events).toHaveLength(4);
    for (const d of dates) expect(mail.ics).toMatch(new RegExp(`DTSTART[^:]*:${d.replace(/-/g, '')}T`));
    const links = [...new Set(mail.text.match(new RegExp(MANAGE_LINK.source, 'g')))];
    expect(links).toHaveLength(4);

    // The desk cancels the third session and the one after it.
    const third = await seriesDialog(page, booked[2]!.id);
    await third.getByRole('radio', { name: /This and following/ }).check();
    await third.getByRole('button', { name: 'Cancel this and following' }).click();
    await third.waitFor({ state: 'detached' });
    const seriesId = booked[0]!.series_id!;
    await expect.poll(async () => (await seriesOf(seriesId)).sessions.map((x) => x.cancelled), { timeout: 10_000 }).toEqual([false, false, true, true]);

    // The client's Manage booking page for the second session (the e-mail lists them in order) lists the series.
    await page.goto(links[1]!);
    await heading(page, 'Your session');
    const list = page.locator('section', { has: page.getByRole('heading', { name: 'Your sessions in this series' }) });
    expect(await list.getByRole('listitem').count()).toBe(4);
    expect(await list.getByText('(this session)').count()).toBe(1);
    expect(await list.getByText(/— cancelled/).count()).toBe(2);
    // Booked by the desk without the client's age or session type: not offered to book again.
    expect(await page.getByRole('heading', { name: 'Book your next session' }).count()).toBe(0);
    await expectAccessible(page, 'manage with series');
    await expectNoHorizontalScroll(page, 'manage with series');
    await screenshot(page, `series-manage-${c.size}`);
    await context.close();
  });
});

const AGAIN = [
  { size: 'phone', viewport: VIEWPORTS.phone, therapist: 'Neha Joshi', online: false, email: 'again.phone@example.in' },
  { size: 'desktop', viewport: VIEWPORTS.desktop, therapist: 'Asha Mehta', online: true, email: CLIENT.email },
] as const;

describe('Book the same time next week', () => {
  it.each(AGAIN)('from a Manage booking page, books the session a week on ($size)', async (c) => {
    const { stack, browser } = e2e;
    const { context, page } = await newJourney(browser, c.viewport);
    let manageUrl: string;
    let id: number;
    let date: string;
    let start: string;
    if (c.online) {
      // Booked and paid in the wizard: the confirmation e-mail links to its Manage booking page.
      await page.goto(`${stack.baseUrl}/book`);
      await bookAndPayOnline(page, c.therapist);
      const confirmation = await waitForMail(stack.env.MAIL_OUTBOX_DIR!, c.email, MANAGE_LINK);
      manageUrl = confirmation.text.match(MANAGE_LINK)![0];
      const [first] = await bookingsOf(CLIENT.email);
      ({ id } = await firstFree(c.therapist));
      date = first!.booking_date;
      start = first!.booking_time_slot_start.slice(0, 5);
    } else {
      // An in-person booking as the wizard makes it, and its private Manage address.
      ({ id, date, start } = await firstFree(c.therapist));
      const fields = {
        therapist_id: id,
        booking_date: date,
        booking_time_slot_start: start,
        client_email: c.email,
        location_id: (await therapistOf(id)).locations,
      };
      const made = (await (
        await fetch(`${stack.baseUrl}/confirm-booking`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(offlineBooking(fields)),
        })
      ).json()) as { booking_id: number; booking_token: string };
      const details = (await (
        await fetch(`${stack.baseUrl}/api/get-razorpay-details/${made.booking_id}?payment_status=pending`, {
          headers: { 'X-Booking-Token': made.booking_token },
        })
      ).json()) as { data: { manage_url: string } };
      manageUrl = details.data.manage_url;
    }
    const nextWeek = addDays(date, 7);
    expect(await offered(id, nextWeek, start)).toBe(true);

    await page.goto(manageUrl);
    await heading(page, 'Your session');
    const again = page.locator('section', { has: page.getByRole('heading', { name: 'Book your next session' }) });
    await again.getByText(formatLongDate(nextWeek), { exact: false }).waitFor();
    await expectAccessible(page, 'manage with book again');
    await expectNoHorizontalScroll(page, 'manage with book again');
    await screenshot(page, `book-again-${c.size}`);
    await again.getByRole('button', { name: 'Book the same time next week' }).click();
    if (c.online) {
      // Online: on to the payment link, as the wizard's Pay does.
      await page.waitForURL(/\/sandbox\/checkout\/[^/?#]+/, { timeout: 30_000 });
      await page.getByRole('button', { name: /^Pay ₹/ }).click();
    }
    await page.waitForURL(/\/payment-status\?/, { timeout: 30_000 });
    await heading(page, 'Booking Confirmed!');
    await expectAccessible(page, 'booked again');
    await expectNoHorizontalScroll(page, 'booked again');
    await screenshot(page, `book-again-confirmed-${c.size}`);
    // It is booked: the client's two sessions in the panel's list, and the time taken from the offer.
    expect((await bookingsOf(c.email)).map((b) => b.booking_date)).toEqual([date, nextWeek]);
    expect(await offered(id, nextWeek, start)).toBe(false);
    await context.close();
  });
});
