/**
 * The desk's cash-up end to end (issue 31, item 6): sessions booked in person and paid at the desk in
 * cash, by card, UPI and bank transfer, and one paid online through the sandbox checkout; a plain admin
 * opens Cash-up from the sidebar, at 390 and 1280 px, and reads the day's totals per method.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage, screenshot, VIEWPORTS } from '../support/browser.ts';
import { offlineBooking, onlineBooking } from '../support/factories.ts';
import { OWNER, panelStack, signInToPanel, STAFF } from '../support/panel-e2e.ts';

const e2e = panelStack();

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${e2e.stack.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
    redirect: 'manual',
  });

async function tokenOf(user: { username: string; password: string }): Promise<Record<string, string>> {
  const res = await fetch(`${e2e.stack.baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: user.username, password: user.password }),
  });
  expect(res.status).toBe(200);
  return { Authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

async function slotsOf(therapistId: number): Promise<{ date: string; start: string }[]> {
  const offer = (await (await fetch(`${e2e.stack.baseUrl}/api/slots?therapist_id=${therapistId}`)).json()) as {
    days: { date: string; slots: { start_time: string }[] }[];
  };
  return offer.days.flatMap((d) => d.slots.map((s) => ({ date: d.date, start: s.start_time })));
}

const CLIENTS = [
  { name: 'Meera Pillai', method: 'CASH' },
  { name: 'Arjun Rao', method: 'CARD' },
  { name: 'Ishaan Gupta', method: 'UPI' },
  { name: 'Nisha Verma', method: 'BANK_TRANSFER' },
] as const;

describe('Cash-up at the desk', () => {
  beforeAll(async () => {
    const staff = await tokenOf(STAFF);
    // Four sessions in person (₹1,800 each), each paid at the desk its own way.
    const inPerson = (await slotsOf(5)).slice(0, CLIENTS.length);
    expect(inPerson).toHaveLength(CLIENTS.length);
    for (const [i, client] of CLIENTS.entries()) {
      const made = await post(
        '/confirm-booking',
        offlineBooking({
          booking_date: inPerson[i]!.date,
          booking_time_slot_start: inPerson[i]!.start,
          client_full_name: client.name,
          client_email: `client${i}@example.com`,
          client_mobile: `987654321${i}`,
        }),
      );
      expect(made.status).toBe(200);
      const { booking_id: id } = (await made.json()) as { booking_id: number };
      expect((await post(`/api/admin/bookings/${id}/record-payment`, { method: client.method }, staff)).status).toBe(200);
    }
    // One online session (₹1,500) paid at the sandbox checkout and confirmed by the client's return.
    const online = (await slotsOf(1))[0]!;
    const made = await post(
      '/confirm-booking',
      onlineBooking({ booking_date: online.date, booking_time_slot_start: online.start, client_full_name: 'Diya Menon', client_email: 'diya@example.com' }),
    );
    expect(made.status).toBe(200);
    const { booking_id: id, booking_token: token } = (await made.json()) as { booking_id: number; booking_token: string };
    const link = await post('/api/payment/generate-link', { booking_id: id }, { 'X-Booking-Token': token });
    expect(link.status).toBe(200);
    const linkId = ((await link.json()) as { payment_link_id: string }).payment_link_id;
    const pay = await fetch(`${e2e.stack.baseUrl}/sandbox/checkout/${linkId}/pay`, { method: 'POST', redirect: 'manual' });
    expect(pay.status).toBe(303);
    const back = new URL(pay.headers.get('location')!);
    back.searchParams.set('payment_status', 'paid');
    expect((await fetch(`${e2e.stack.baseUrl}/api/get-razorpay-details/${id}?${back.searchParams}`)).status).toBe(200);
    // The owner may read it too; the plain admin's other reports stay closed.
    const owner = await tokenOf(OWNER);
    expect((await fetch(`${e2e.stack.baseUrl}/api/admin/reports/cash-up`, { headers: owner })).status).toBe(200);
    expect((await fetch(`${e2e.stack.baseUrl}/api/admin/reports/eod`, { headers: staff })).status).toBe(403);
  });

  /** Taken, Refunded and Net of `label`: a row of the totals table, or on a phone its line. */
  async function line(page: Page, label: string): Promise<string[]> {
    if (page.viewportSize()!.width < 768) {
      const list = page.getByRole('list', { name: 'Totals by method' });
      return list
        .getByRole('listitem')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('dd')
        .allTextContents();
    }
    const table = page.getByRole('region', { name: 'Totals by method' });
    return table
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
      .locator('td')
      .allTextContents();
  }

  it("a plain admin opens Cash-up from the sidebar and reads the day's totals per method (screenshots)", async () => {
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      const page = await openPage(e2e.browser, { viewport });
      await signInToPanel(page, e2e.stack.baseUrl, STAFF);
      if (viewport === VIEWPORTS.phone) await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Cash-up' }).click();
      await page.waitForURL('**/admin/cash-up');
      await page.getByRole('heading', { name: 'Cash-up', level: 1 }).waitFor();
      await page.getByLabel('Totals by method').waitFor();
      expect(await line(page, 'Cash')).toEqual(['₹1,800.00', '₹0.00', '₹1,800.00']);
      expect(await line(page, 'Card')).toEqual(['₹1,800.00', '₹0.00', '₹1,800.00']);
      expect(await line(page, 'UPI')).toEqual(['₹1,800.00', '₹0.00', '₹1,800.00']);
      expect(await line(page, 'Bank transfer')).toEqual(['₹1,800.00', '₹0.00', '₹1,800.00']);
      expect(await line(page, 'Online')).toEqual(['₹1,500.00', '₹0.00', '₹1,500.00']);
      expect(await line(page, 'At the desk')).toEqual(['₹7,200.00', '₹0.00', '₹7,200.00']);
      expect(await line(page, 'Total')).toEqual(['₹8,700.00', '₹0.00', '₹8,700.00']);
      // Each movement with who recorded it: the desk's by "staff", the checkout's "Online".
      if (viewport === VIEWPORTS.phone) {
        const cards = page.getByRole('list', { name: 'Movements' }).getByRole('listitem');
        expect(await cards.count()).toBe(5);
        await cards.filter({ hasText: 'Meera Pillai' }).getByText('staff').waitFor();
      } else {
        const rows = page.getByRole('region', { name: 'Movements table' }).getByRole('row');
        expect(await rows.count()).toBe(6);
        expect(await rows.filter({ hasText: 'Diya Menon' }).locator('td').last().textContent()).toBe('Online');
        expect(await rows.filter({ hasText: 'Nisha Verma' }).locator('td').nth(5).textContent()).toBe('Bank transfer');
      }
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await screenshot(page, 'desk-cash-up');
      // Printed to count the till: the sidebar and the controls stay off the paper.
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('.adm-sidebar').isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Download Excel' }).isVisible()).toBe(false);
      expect(await page.getByLabel('Totals by method').isVisible()).toBe(true);
      await screenshot(page, 'desk-cash-up-print');
      await page.close();
    }
  });

  it('a past day without money says so, with every method at zero', async () => {
    const page = await openPage(e2e.browser, { viewport: VIEWPORTS.desktop });
    await signInToPanel(page, e2e.stack.baseUrl, STAFF);
    await page.goto(`${e2e.stack.baseUrl}/admin/cash-up`);
    await page.getByLabel('Day', { exact: true }).fill('2026-01-05');
    await page.getByRole('heading', { name: 'Monday, January 5, 2026' }).waitFor();
    await page.getByText('No money was taken or refunded on this day.').waitFor();
    expect(await line(page, 'Total')).toEqual(['₹0.00', '₹0.00', '₹0.00']);
    await page.close();
  });
});
