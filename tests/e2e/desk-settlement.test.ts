/**
 * The desk's settlement of a manual online booking (issue 31, items 1 and 2), end to end in Chromium
 * at 390x844 and 1280x800: "Not paid yet: send a payment link" e-mails the client a link (the worker
 * sends it), the row says "Link sent …", the link panel shows it with Copy and Send, the client pays it
 * at the sandbox checkout and the booking is Paid; "Paid now" by UPI is Paid at once. Screenshots under
 * artifacts/screenshots/desk-*.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bookings, paymentsLedger } from '../../shared/core/db/schema.ts';
import { openPage, screenshot, VIEWPORTS } from '../support/browser.ts';
import { panelStack, signInToPanel, STAFF } from '../support/panel-e2e.ts';

const e2e = panelStack();

type Offer = { days: { date: string; slots: { start_time: string }[] }[] };

/** Dr. Asha Mehta's (online) free slots, in order: each run of the form takes the next. */
let slotsTaken = 0;
async function nextFreeSlot(): Promise<{ date: string; start: string }> {
  const offer = (await (await fetch(`${e2e.stack.baseUrl}/api/slots?therapist_id=1`)).json()) as Offer;
  const all = offer.days.flatMap((d) => d.slots.map((s) => ({ date: d.date, start: s.start_time })));
  // Not today's: the admin's window starts today, the client's offer tomorrow; both have these.
  return all[slotsTaken++ + 2]!;
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Fills the Manual Booking form for Asha and a client of its own, up to how it was settled. */
async function fillManualBooking(page: Page, client: { name: string; email: string }): Promise<{ dialog: Locator }> {
  const { date, start } = await nextFreeSlot();
  await page.getByRole('button', { name: 'Manual Booking' }).click();
  const dialog = page.getByRole('dialog', { name: 'Manual Booking' });
  await dialog.getByLabel('Therapist').selectOption('1');
  await dialog.getByLabel('Booking Date').selectOption(date);
  await dialog.getByLabel('Time Slot').selectOption(start);
  await dialog.getByLabel('Client Name').fill(client.name);
  await dialog.getByLabel('Client Email').fill(client.email);
  await dialog.getByLabel('Client Mobile').fill('9812345678');
  // The price is the amount unless changed.
  expect(await dialog.getByLabel('Amount (₹)').inputValue()).toBe('1500');
  return { dialog };
}

async function created(page: Page): Promise<number> {
  const notice = page.locator('.adm-notice--success > span', { hasText: /^Manual booking \d+ created successfully!$/ });
  await notice.waitFor();
  return Number(/\d+/.exec((await notice.textContent()) ?? '')![0]);
}

/** The booking's row (a table row, or a card on a phone) in All Booked Slots. */
const rowOf = (page: Page, name: string) =>
  page.getByRole('region', { name: 'All Booked Slots', exact: true }).locator('tr, li.adm-card', { hasText: name }).first();

/** The payment link e-mail the worker sent the client for booking `id`; its link. */
async function mailedLink(id: number, email: string): Promise<string> {
  const dir = e2e.stack.env.MAIL_OUTBOX_DIR!;
  const deadline = Date.now() + 30_000;
  for (;;) {
    for (const f of existsSync(dir) ? readdirSync(dir).filter((n) => n.includes(`-payment-link-${id}-`) && n.endsWith('.eml')) : []) {
      const text = readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '');
      if (!text.includes(email)) continue;
      const url = /https?:\/\/\S+\/sandbox\/checkout\/plink_[A-Za-z0-9]{14}/.exec(text);
      if (url) return url[0];
    }
    if (Date.now() > deadline) throw new Error(`no payment link e-mail for booking ${id}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const ledgerOf = (id: number) => e2e.stack.database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id));

describe('a manual online booking, settled at the desk (issue 31)', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`"Not paid yet: send a payment link": the link is sent, shown with Copy and Send, paid at the checkout, and the booking is Paid (${name})`, async () => {
      const page = await openPage(e2e.browser, { viewport });
      await signInToPanel(page, e2e.stack.baseUrl, STAFF);
      const client = { name: `Nisha Link ${name}`, email: `nisha.link.${name}@example.com` };
      const { dialog } = await fillManualBooking(page, client);
      await dialog.getByRole('radio', { name: 'Not paid yet: send a payment link' }).check();
      await dialog.getByText('the client is e-mailed a payment link').waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'desk-manual-booking-link');
      await dialog.getByRole('button', { name: 'Create Booking' }).click();
      const id = await created(page);

      // The worker makes the link and e-mails it; the row then says so.
      const url = await mailedLink(id, client.email);
      expect(await ledgerOf(id)).toEqual([]);
      await page.reload();
      const row = rowOf(page, client.name);
      await row.getByText(/Awaiting payment · Link sent \d{1,2}:\d{2} [AP]M/).waitFor();
      await screenshot(page, 'desk-row-link-sent');

      await row.getByRole('button', { name: `Payment link for booking ${id}` }).click();
      const panel = page.getByRole('dialog', { name: `Payment link for booking ${id}` });
      expect(await panel.getByLabel('Payment link').inputValue()).toBe(url);
      await panel.getByRole('button', { name: 'Copy link' }).waitFor();
      await panel.getByText(/^Link sent \d{1,2}:\d{2} [AP]M by e-mail\.$/).waitFor();
      // Send again: the same open link, sent once more; a success, said as one.
      await panel.getByRole('button', { name: 'Send to client' }).click();
      await panel.locator('.adm-notice--success[role="status"]', { hasText: `Payment link for booking ${id} sent to the client by e-mail at` }).waitFor();
      expect(await panel.getByLabel('Payment link').inputValue()).toBe(url);
      await expectNoAxeViolations(page);
      await screenshot(page, 'desk-link-panel');
      await panel.getByRole('button', { name: 'Close', exact: true }).click();

      // The client pays through the link.
      const client_ = await openPage(e2e.browser, { viewport });
      await client_.goto(url);
      await client_.getByRole('button', { name: /^Pay ₹1,500/ }).click();
      await client_.waitForURL(/\/payment-status\?/, { timeout: 30_000 });
      await client_.getByRole('heading', { name: 'Booking Confirmed!' }).waitFor({ timeout: 30_000 });
      await screenshot(client_, 'desk-link-paid-client');
      await client_.close();

      await page.reload();
      await rowOf(page, client.name).getByText('Paid', { exact: true }).waitFor();
      expect(
        await rowOf(page, client.name)
          .getByRole('button', { name: `Payment link for booking ${id}` })
          .count(),
      ).toBe(0);
      expect(
        await rowOf(page, client.name)
          .getByRole('button', { name: `Record payment for booking ${id}` })
          .count(),
      ).toBe(0);
      expect((await ledgerOf(id)).map((r) => [r.kind, r.provider, r.amountPaise])).toEqual([['capture', 'sandbox', 150_000]]);
      const [b] = await e2e.stack.database.db.select().from(bookings).where(eq(bookings.id, id));
      expect(b).toMatchObject({ paymentStatus: 'COMPLETED', adminConfirmed: true });
      await screenshot(page, 'desk-row-paid');
      await page.close();
    });

    it(`"Paid now" by UPI: Completed with the payment recorded once, and the row says Paid (${name})`, async () => {
      const page = await openPage(e2e.browser, { viewport });
      await signInToPanel(page, e2e.stack.baseUrl, STAFF);
      const client = { name: `Omar Upi ${name}`, email: `omar.upi.${name}@example.com` };
      const { dialog } = await fillManualBooking(page, client);
      // Nothing chosen: the form says so, where the choice is.
      await dialog.getByRole('button', { name: 'Create Booking' }).click();
      await dialog.getByText('Choose how the session was settled.').waitFor();
      await dialog.getByRole('radio', { name: 'Paid now' }).check();
      await dialog.getByLabel('Payment method').selectOption('UPI');
      await expectNoAxeViolations(page);
      await screenshot(page, 'desk-manual-booking-paid-now');
      await dialog.getByRole('button', { name: 'Create Booking' }).click();
      const id = await created(page);
      await rowOf(page, client.name).getByText('Paid', { exact: true }).waitFor();
      expect((await ledgerOf(id)).map((r) => [r.kind, r.provider, r.method, r.amountPaise])).toEqual([['capture', 'counter', 'UPI', 150_000]]);
      await screenshot(page, 'desk-row-paid-now');
      await page.close();
    });
  }
});
