/**
 * "Payments needing attention" end to end: bookings paid through the sandbox checkout, the provider's
 * side then made to disagree with the ledger (a payment whose webhook never came, a refund made at the
 * provider, an amount that differs), the ledger reconciliation run, and the dashboard in Chromium.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookings, sandboxPaymentLinks, sandboxRefunds } from '../../shared/core/db/schema.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { sandboxProvider } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { reconcileLedger } from '../../shared/core/services/ledger-reconcile.service.ts';
import { openPage, screenshot, VIEWPORTS } from '../support/browser.ts';
import { OWNER, panelStack, signInToPanel, STAFF } from '../support/panel-e2e.ts';
import { onlineBooking } from '../support/factories.ts';
import { configFor } from '../support/jobs.ts';

// The five-minute reconciliation would find the lost payment on a current link by itself: here it
// runs once at start and not again, so what is found is the ledger reconciliation's.
const e2e = panelStack({ RECONCILE_EVERY_MINUTES: '1440' });
const signIn = (page: Page, user: { username: string; password: string }) => signInToPanel(page, e2e.stack.baseUrl, user);

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${e2e.stack.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
    redirect: 'manual',
  });

/** An online booking with its sandbox link, for a client of its own. */
async function withLink(date: string, start: string, client: { name: string; email: string; mobile: string }): Promise<{ id: number; linkId: string }> {
  const made = await post(
    '/confirm-booking',
    onlineBooking({
      booking_date: date,
      booking_time_slot_start: start,
      client_full_name: client.name,
      client_email: client.email,
      client_mobile: client.mobile,
    }),
  );
  expect(made.status).toBe(200);
  const { booking_id: id, booking_token: token } = (await made.json()) as { booking_id: number; booking_token: string };
  const link = await post('/api/payment/generate-link', { booking_id: id }, { 'X-Booking-Token': token });
  expect(link.status).toBe(200);
  return { id, linkId: ((await link.json()) as { payment_link_id: string }).payment_link_id };
}

/** Paid at the checkout and confirmed by the client's signed return. */
async function paid(date: string, start: string, client: { name: string; email: string; mobile: string }): Promise<{ id: number; paymentId: string }> {
  const { id, linkId } = await withLink(date, start, client);
  const pay = await fetch(`${e2e.stack.baseUrl}/sandbox/checkout/${linkId}/pay`, { method: 'POST', redirect: 'manual' });
  expect(pay.status).toBe(303);
  const back = new URL(pay.headers.get('location')!);
  back.searchParams.set('payment_status', 'paid');
  expect((await fetch(`${e2e.stack.baseUrl}/api/get-razorpay-details/${id}?${back.searchParams}`)).status).toBe(200);
  return { id, paymentId: back.searchParams.get('razorpay_payment_id')! };
}

describe('Payments needing attention', () => {
  let refundIssue = 0;

  beforeAll(async () => {
    const offer = (await (await fetch(`${e2e.stack.baseUrl}/api/slots?therapist_id=1`)).json()) as {
      days: { date: string; slots: { start_time: string }[] }[];
    };
    const slots = offer.days.flatMap((d) => d.slots.map((s) => ({ date: d.date, start: s.start_time }))).slice(0, 3);
    expect(slots).toHaveLength(3);
    const db = e2e.stack.database.db;
    // A refund made from the provider's dashboard, which the app never hears of.
    const refunded = await paid(slots[0]!.date, slots[0]!.start, { name: 'Meera Pillai', email: 'meera.pillai@example.com', mobile: '9876543210' });
    await db.insert(sandboxRefunds).values({
      id: 'rfnd_E2eDashboard01',
      paymentId: refunded.paymentId,
      amountPaise: 50_000,
      idempotencyKey: 'e2e-dashboard-refund-01',
      status: 'processed',
    });
    // The provider has another amount for a payment than the ledger.
    const differs = await paid(slots[1]!.date, slots[1]!.start, { name: 'Arjun Rao', email: 'arjun.rao@example.com', mobile: '9876543211' });
    await db.update(sandboxPaymentLinks).set({ amountPaise: 120_000 }).where(eq(sandboxPaymentLinks.paymentId, differs.paymentId));
    // Paid at the provider, and neither the client's return nor the webhook ever arrived.
    const lost = await withLink(slots[2]!.date, slots[2]!.start, { name: 'Kavya Iyer', email: 'kavya.iyer@example.com', mobile: '9876543212' });
    await db
      .update(sandboxPaymentLinks)
      .set({ status: 'paid', paymentId: 'pay_E2eLostPayment1', updatedAt: new Date() })
      .where(eq(sandboxPaymentLinks.id, lost.linkId));

    const config = configFor({ PUBLIC_BASE_URL: e2e.stack.baseUrl });
    const now = () => new Date();
    const payments = sandboxProvider({ db, secret: (config.payments as { secret: string }).secret, publicBaseUrl: e2e.stack.baseUrl, now });
    const report = await reconcileLedger({ db, payments, config, logger: createLogger({ level: 'silent' }), now });
    expect(report).toMatchObject({ recordedCaptures: 1, recordedRefunds: 1, detected: 3, errors: 0 });
    expect((await db.select().from(bookings).where(eq(bookings.id, lost.id)))[0]).toMatchObject({
      paymentStatus: 'COMPLETED',
      razorpayPaymentId: 'pay_E2eLostPayment1',
    });
  });

  it('a super admin sees what is wrong in words, and marks a refund reviewed (screenshots)', async () => {
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const page = await openPage(e2e.browser, { viewport });
      await signIn(page, OWNER);
      const section = page.locator('section', { has: page.getByRole('heading', { name: 'Payments needing attention' }) });
      const open = section.getByRole('list', { name: 'Open payment issues' });
      await open.waitFor();
      expect(await open.locator('.adm-attn__what').allTextContents()).toEqual(
        expect.arrayContaining(['Refund at the sandbox not in the ledger', 'Amounts differ']),
      );
      const resolved = section.getByRole('list', { name: 'Payment issues resolved in the last 7 days' });
      await resolved.getByText('Payment taken but not recorded').waitFor();
      await resolved.getByText(/Kavya Iyer/).waitFor();
      await section.getByText('2 open').waitFor();
      const axe = await new AxeBuilder({ page }).include('.adm-attn').analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await screenshot(page, 'payments-attention');
      await page.close();
    }

    const page = await openPage(e2e.browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, OWNER);
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Payments needing attention' }) });
    const item = section.getByRole('listitem').filter({ hasText: 'Refund at the sandbox not in the ledger' });
    const button = item.getByRole('button', { name: /^Mark payment issue \d+ reviewed$/ });
    refundIssue = Number((await button.getAttribute('aria-label'))!.match(/\d+/)![0]);
    await button.click();
    const dialog = page.getByRole('dialog', { name: `Mark payment issue ${refundIssue} reviewed` });
    await dialog.getByRole('button', { name: 'Mark reviewed' }).click();
    await dialog.getByText('Please write what you checked or did.').waitFor();
    await dialog.getByLabel('What did you check or do?').fill('Client cancelled by phone; ₹500 refunded from the dashboard. Session kept.');
    await screenshot(page, 'payments-attention-review');
    await dialog.getByRole('button', { name: 'Mark reviewed' }).click();
    await section.getByText(`Payment issue ${refundIssue} marked reviewed successfully.`).waitFor();
    await section.getByText('1 open').waitFor();
    await section.getByText('reviewed by owner', { exact: false }).waitFor();
    await screenshot(page, 'payments-attention-reviewed');
    await page.close();
  });

  it('a plain admin sees no such section, and the API refuses them', async () => {
    const page = await openPage(e2e.browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, STAFF);
    await page.getByRole('button', { name: 'View availability of Dr. Asha Mehta' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Payments needing attention' }).count()).toBe(0);
    const token = await page.evaluate(() => sessionStorage.getItem('adminToken'));
    expect((await fetch(`${e2e.stack.baseUrl}/api/admin/payments/attention`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(403);
    await page.close();
  });
});
