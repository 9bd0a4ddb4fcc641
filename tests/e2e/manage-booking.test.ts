/**
 * Issue 21, the client's Manage booking page, in Debian's Chromium at 390×844 against the real server,
 * database and worker: a client books and pays in the sandbox, opens the Manage booking link from the
 * confirmation e-mail in the mail outbox, moves the session, then cancels it and sees the refund.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SlotOfferDto, TherapistDto } from '../../shared/contract/public.ts';
import { addDays, centreNow, formatLongDate, formatTime12h } from '../../shared/domain/time.ts';
import { screenshot, stackAndBrowserPerFile, VIEWPORTS } from '../support/browser.ts';
import type { Stack } from '../support/stack.ts';
import {
  CLIENT,
  detailsToReview,
  expectAccessible,
  expectNoHorizontalScroll,
  heading,
  newJourney,
  onlineWithTherapist,
  payInSandbox,
} from './booking-helpers.ts';

let stack: Stack;
let browser: Browser;

stackAndBrowserPerFile((started) => ({ stack, browser } = started));

const THERAPIST = 'Asha Mehta';

async function therapistId(name: string): Promise<number> {
  const all = (await (await fetch(`${stack.baseUrl}/therapists`)).json()) as TherapistDto[];
  return all.find((t) => t.name.endsWith(name))!.id;
}

async function offer(id: number): Promise<SlotOfferDto> {
  return (await (await fetch(`${stack.baseUrl}/api/slots?therapist_id=${id}`)).json()) as SlotOfferDto;
}

async function offered(id: number, date: string, start: string): Promise<boolean> {
  return (await offer(id)).days.some((d) => d.date === date && d.slots.some((s) => s.start_time === start));
}

/**
 * In the slot picker on the page (the wizard's and the manage page's are the same component): the
 * first free time on the first date from `from` on that is not `not`, moving the date strip on as a
 * client would. Dates at least two days ahead keep the session outside the 24-hour notice window.
 */
async function pickSlot(page: Page, id: number, from: string, not?: string): Promise<{ date: string; start: string }> {
  const day = (await offer(id)).days.find((d) => d.date >= from && d.date !== not && d.slots.length > 0)!;
  expect(day, `a free date from ${from}`).toBeTruthy();
  const button = page.getByRole('button', { name: new RegExp(`^${formatLongDate(day.date)}, \\d+ free times?$`) });
  while (!(await button.isVisible())) await page.getByRole('button', { name: 'Later dates' }).click();
  await button.click();
  const start = day.slots[0]!.start_time;
  await page.getByRole('radio', { name: formatTime12h(start), exact: true }).check();
  return { date: day.date, start };
}

/** The undone quoted-printable (and any base64 parts) of an .eml, enough to read links out of it. */
function mailText(eml: string): string {
  const qp = eml.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const b64 = [...eml.matchAll(/Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/g)].map((m) =>
    Buffer.from(m[1]!.replace(/\s/g, ''), 'base64').toString('utf8'),
  );
  return [qp, ...b64].join('\n');
}

/** The Manage booking link in the client's confirmation e-mail, once the worker has written it to the outbox. */
async function manageLinkFromOutbox(email: string): Promise<string> {
  const dir = stack.env.MAIL_OUTBOX_DIR!;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const f of existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.eml')) : []) {
      const text = mailText(readFileSync(path.join(dir, f), 'utf8'));
      const link = text.match(/https?:\/\/[^\s"'<>]+\/manage-booking\?token=[A-Za-z0-9_-]{43}/);
      if (text.includes(email) && link) return link[0];
    }
    await sleep(200);
  }
  throw new Error(`no Manage booking link for ${email} in ${dir}`);
}

const row = (page: Page, label: string) => page.locator('.summary-row', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');

describe('Manage booking, from the confirmation e-mail (390×844)', () => {
  it('a client books and pays, opens the link from the e-mail, moves the session, then cancels it and sees the refund', async () => {
    const id = await therapistId(THERAPIST);
    const twoDaysOn = addDays(centreNow().date, 2);
    const { context, page } = await newJourney(browser, VIEWPORTS.phone);

    // Book and pay in the sandbox, on a date outside the notice window.
    await page.goto(`${stack.baseUrl}/book`);
    await onlineWithTherapist(page, THERAPIST);
    const booked = await pickSlot(page, id, twoDaysOn);
    await detailsToReview(page);
    await payInSandbox(page);

    // The link from the e-mail; the payment-status page carries the same one.
    const link = await manageLinkFromOutbox(CLIENT.email);
    expect(link.startsWith(`${stack.baseUrl}/manage-booking?token=`)).toBe(true);
    expect(await page.getByRole('link', { name: 'Manage booking' }).getAttribute('href')).toBe(link);
    await screenshot(page, 'manage-e2e-payment-status');

    // The summary.
    await page.goto(link);
    await heading(page, 'Your session');
    expect(await page.locator('meta[name="referrer"]').getAttribute('content')).toBe('no-referrer');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.locator('link[rel="canonical"]').count()).toBe(0);
    expect(await page.content()).not.toContain(`og:url" content="${link}`);
    expect(await row(page, 'Therapist').innerText()).toContain(THERAPIST);
    expect(await row(page, 'Where').innerText()).toBe('Online (video call)');
    expect(await row(page, 'Date').innerText()).toBe(formatLongDate(booked.date));
    expect(await row(page, 'Time').innerText()).toMatch(new RegExp(`^${formatTime12h(booked.start)} – .+ IST$`));
    expect(await row(page, 'Payment status').innerText()).toBe('Paid');
    const amount = await row(page, 'Amount').innerText();
    expect(amount).toMatch(/^₹[\d,]+$/);
    await expectAccessible(page, 'manage summary');
    await expectNoHorizontalScroll(page, 'manage summary');
    await screenshot(page, 'manage-e2e-summary');

    // Move it: the wizard's picker for the same therapist, then the updated summary with focus on its heading.
    await page.getByRole('button', { name: 'Change date or time' }).click();
    await heading(page, 'Choose a new date and time');
    await page.getByText(/^Available times on /).waitFor();
    const moved = await pickSlot(page, id, twoDaysOn, booked.date);
    await expectAccessible(page, 'manage picker');
    await expectNoHorizontalScroll(page, 'manage picker');
    await screenshot(page, 'manage-e2e-picker');
    await page.getByRole('button', { name: 'Confirm new time' }).click();
    await page.locator('.notice--ok').waitFor();
    await page.getByRole('heading', { name: 'Choose a new date and time' }).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Your session');
    expect(await row(page, 'Date').innerText()).toBe(formatLongDate(moved.date));
    expect(await row(page, 'Time').innerText()).toMatch(new RegExp(`^${formatTime12h(moved.start)} – .+ IST$`));
    // The server moved it: the old time is offered to others again, the new one is not.
    expect(await offered(id, booked.date, booked.start)).toBe(true);
    expect(await offered(id, moved.date, moved.start)).toBe(false);
    // The link keeps working after a reload.
    await page.reload();
    await heading(page, 'Your session');
    expect(await row(page, 'Date').innerText()).toBe(formatLongDate(moved.date));

    // Cancel it: the dialog states the refund, and so does the cancelled page.
    await page.getByRole('button', { name: 'Cancel session' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel this session?' });
    await dialog.getByText(`${amount} will be refunded to your original payment method.`).waitFor();
    await expectAccessible(page, 'manage cancel dialog');
    await screenshot(page, 'manage-e2e-cancel-dialog');
    await dialog.getByRole('button', { name: 'Yes, cancel my session' }).click();
    await heading(page, 'Session cancelled');
    // The server's words name the amount going back.
    expect(await page.locator('.notice--ok').innerText()).toMatch(new RegExp(`${amount} (has been|is being) refunded in full to your original payment method`));
    // What became of the money, not of the booking (issue 31).
    expect(await row(page, 'Payment status').innerText()).toBe('Refunded');
    expect(await page.getByRole('button', { name: 'Cancel session' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Change date or time' }).count()).toBe(0);
    expect(await offered(id, moved.date, moved.start)).toBe(true);
    await expectAccessible(page, 'manage cancelled');
    await expectNoHorizontalScroll(page, 'manage cancelled');
    await screenshot(page, 'manage-e2e-cancelled');
    await context.close();
  });

  it('a link that finds nothing: clear words and the centre’s phone and e-mail', async () => {
    const { context, page } = await newJourney(browser, VIEWPORTS.phone);
    await page.goto(`${stack.baseUrl}/manage-booking?token=${'x'.repeat(43)}`);
    await heading(page, 'We could not find this booking');
    expect(await page.locator('#main a[href^="tel:"]').count()).toBe(1);
    expect(await page.locator('#main a[href^="mailto:"]').count()).toBe(1);
    await expectAccessible(page, 'manage not found');
    await screenshot(page, 'manage-e2e-not-found');
    await context.close();
  });

  it('is private: disallowed in robots.txt and absent from the sitemap', async () => {
    expect(await (await fetch(`${stack.baseUrl}/robots.txt`)).text()).toContain('Disallow: /manage-booking');
    expect(await (await fetch(`${stack.baseUrl}/sitemap.xml`)).text()).not.toContain('manage-booking');
  });
});
