/**
 * Issue 31, items 4 and 5, end to end in Debian's Chromium against the real server, database and
 * worker, at 390×844 and 1280×800:
 * - a session paid in cash at the desk, cancelled by the client from the Manage booking link in their
 *   confirmation e-mail, is told the money is handed back at the centre; it appears under "Refunds due
 *   at the counter" and a receptionist records the refund (a ledger row only then);
 * - a receptionist cancels another cash-paid session with "Ask the owner to refund"; the request
 *   appears on the owner's "Payments needing attention", the owner approves it, and the money is then
 *   due at the counter.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AxeBuilder } from '@axe-core/playwright';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SlotOfferDto, TherapistDto } from '../../shared/contract/public.ts';
import { paymentsLedger, refundRequests } from '../../shared/core/db/schema.ts';
import { addDays, centreNow } from '../../shared/domain/time.ts';
import { openPage, screenshot, VIEWPORTS } from '../support/browser.ts';
import { offlineBooking } from '../support/factories.ts';
import { OWNER, panelStack, signInToPanel, STAFF } from '../support/panel-e2e.ts';

const e2e = panelStack();
const signIn = (page: Page, user: { username: string; password: string }) => signInToPanel(page, e2e.stack.baseUrl, user);

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${e2e.stack.baseUrl}${url}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** The undone quoted-printable of an .eml (its bytes are UTF-8), enough to read its words. */
const mailText = (eml: string) =>
  Buffer.from(
    eml.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** The newest e-mail to `email` whose text matches `pattern`, once the worker has written it to the outbox. */
async function mailTo(email: string, pattern: RegExp): Promise<string> {
  const dir = e2e.stack.env.MAIL_OUTBOX_DIR!;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const f of existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.eml')) : []) {
      const text = mailText(readFileSync(path.join(dir, f), 'utf8'));
      if (text.includes(email) && pattern.test(text)) return text;
    }
    await sleep(200);
  }
  throw new Error(`no e-mail to ${email} matching ${pattern}`);
}

/** A bearer token for `user`, as the panel's login gets it. */
async function tokenOf(user: { username: string; password: string }): Promise<Record<string, string>> {
  const res = await post('/api/admin/login', { username: user.username, password: user.password });
  expect(res.status).toBe(200);
  return { Authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

/** Free in-person slots with Dr. Rohan Kapoor at least two days ahead (outside the notice window). */
async function freeSlots(): Promise<{ date: string; start: string }[]> {
  const therapists = (await (await fetch(`${e2e.stack.baseUrl}/therapists`)).json()) as TherapistDto[];
  const rohan = therapists.find((t) => t.name.endsWith('Rohan Kapoor'))!;
  const offer = (await (await fetch(`${e2e.stack.baseUrl}/api/slots?therapist_id=${rohan.id}`)).json()) as SlotOfferDto;
  const from = addDays(centreNow().date, 2);
  return offer.days.filter((d) => d.date >= from).flatMap((d) => d.slots.map((s) => ({ date: d.date, start: s.start_time })));
}

/** An in-person booking paid ₹1,800 in cash at the desk (recorded by the receptionist). */
async function paidInCash(slot: { date: string; start: string }, client: { name: string; email: string; mobile: string }): Promise<number> {
  const made = await post(
    '/confirm-booking',
    offlineBooking({
      booking_date: slot.date,
      booking_time_slot_start: slot.start,
      client_full_name: client.name,
      client_email: client.email,
      client_mobile: client.mobile,
    }),
  );
  expect(made.status).toBe(200);
  const id = ((await made.json()) as { booking_id: number }).booking_id;
  const paid = await post(`/api/admin/bookings/${id}/record-payment`, { method: 'CASH' }, await tokenOf(STAFF));
  expect(paid.status).toBe(200);
  return id;
}

const ledgerOf = (id: number) => e2e.stack.database.db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, id)).orderBy(paymentsLedger.id);

async function expectAccessible(page: Page, selector: string): Promise<void> {
  const axe = await new AxeBuilder({ page }).include(selector).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const dueSection = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: 'Refunds due at the counter' }) });

const ARJUN = { name: 'Arjun Rao', email: 'arjun.rao.refund@example.in', mobile: '9876543211' };
const KAVYA = { name: 'Kavya Iyer', email: 'kavya.iyer.refund@example.in', mobile: '9876543212' };

describe('Refunds at the counter (Chromium, 390×844 and 1280×800)', () => {
  let cashId = 0;
  let requestedId = 0;
  let slots: { date: string; start: string }[] = [];

  beforeAll(async () => {
    slots = await freeSlots();
    expect(slots.length).toBeGreaterThanOrEqual(2);
    cashId = await paidInCash(slots[0]!, ARJUN);
    requestedId = await paidInCash(slots[1]!, KAVYA);
  });

  it('a client cancels a session paid in cash: told it is handed back at the centre; listed for the desk; a receptionist records it', async () => {
    // The client, from the Manage booking link in their confirmation e-mail.
    const confirmation = await mailTo(ARJUN.email, /manage-booking\?token=/);
    const link = confirmation.match(/https?:\/\/[^\s"'<>]+\/manage-booking\?token=[A-Za-z0-9_-]{43}/)![0];
    const client = await openPage(e2e.browser, { viewport: VIEWPORTS.phone });
    await client.goto(link);
    await client.getByRole('button', { name: 'Cancel session' }).click();
    const dialog = client.getByRole('alertdialog', { name: 'Cancel this session?' });
    await dialog.getByText(/₹1,800 was paid at the centre and will be handed back to you there/).waitFor();
    expect(await dialog.getByText(/original payment method/).count()).toBe(0);
    await screenshot(client, 'desk-refunds-client-cancel');
    await dialog.getByRole('button', { name: 'Yes, cancel my session' }).click();
    const said = client.getByRole('status').filter({ hasText: 'Your booking has been cancelled.' });
    await said.waitFor();
    expect(await said.textContent()).toContain('Your refund of ₹1,800 will be handed back to you at the centre, where it was paid: please call');
    await screenshot(client, 'desk-refunds-client-cancelled');
    await client.close();
    // Still in the till; the client's e-mail says the same as the page.
    expect((await ledgerOf(cashId)).map((l) => l.kind)).toEqual(['capture']);
    const cancelMail = await mailTo(ARJUN.email, /Booking cancelled/);
    expect(cancelMail).toContain('Your refund of ₹1,800 will be handed back to you at the centre');

    // Every admin sees it under "Refunds due at the counter".
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      const page = await openPage(e2e.browser, { viewport });
      await signIn(page, STAFF);
      const section = dueSection(page);
      const item = section.getByRole('listitem').filter({ hasText: `Booking ${cashId}` });
      await item.getByText('₹1,800.00 to Arjun Rao').waitFor();
      await item.getByText('the client (Manage booking)').waitFor();
      await item.getByRole('link', { name: ARJUN.mobile }).waitFor();
      await expectAccessible(page, '.adm-attn');
      await screenshot(page, 'desk-refunds-due');
      if (viewport === VIEWPORTS.desktop) {
        await item.getByRole('button', { name: `Record refund for booking ${cashId}` }).click();
        const record = page.getByRole('dialog', { name: `Record refund for booking ${cashId}` });
        expect(await record.getByLabel('Handed back by').inputValue()).toBe('CASH');
        expect(await record.getByLabel('Amount handed back (₹)').inputValue()).toBe('1800');
        await expectAccessible(page, '.adm-modal');
        await screenshot(page, 'desk-refunds-record');
        await record.getByRole('button', { name: 'Record refund' }).click();
        await section.getByText(`Refund of ₹1,800.00 handed back for booking ${cashId} recorded successfully.`).waitFor();
        await item.waitFor({ state: 'detached' });
        await screenshot(page, 'desk-refunds-recorded');
      }
      await page.close();
    }
    // The ledger has the refund now, in cash, recorded by the receptionist.
    expect((await ledgerOf(cashId)).map((l) => [l.kind, l.provider, l.method, l.amountPaise])).toEqual([
      ['capture', 'counter', 'CASH', 180_000],
      ['refund', 'counter', 'CASH', -180_000],
    ]);
  });

  it('a receptionist asks the owner to refund; the owner approves it on Payments needing attention; it is then due at the counter', async () => {
    // The receptionist's dialog, at both sizes (the phone's is looked at and closed).
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      const page = await openPage(e2e.browser, { viewport });
      await signIn(page, STAFF);
      await page
        .getByRole('button', { name: `Cancel booking ${requestedId}` })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: `Are you sure you want to cancel booking ${requestedId}? This cannot be undone.` });
      const ask = dialog.getByRole('radio', { name: 'Ask the owner to refund' });
      await ask.waitFor();
      expect(await ask.isChecked()).toBe(true);
      // Days away: keeping the money is not the receptionist's to decide.
      expect(await dialog.getByRole('radio', { name: 'No refund' }).count()).toBe(0);
      expect(await dialog.getByRole('radio', { name: /Full refund/ }).count()).toBe(0);
      await dialog.getByText(/of it was paid at the counter/).waitFor();
      await dialog.getByLabel('Why should the client be refunded?').fill('Client is unwell; the doctor advised rest');
      await expectAccessible(page, '.adm-modal');
      await screenshot(page, 'desk-refunds-ask-owner');
      if (viewport === VIEWPORTS.phone) {
        await dialog.getByRole('button', { name: 'Keep booking' }).click();
        await dialog.waitFor({ state: 'detached' });
      } else {
        await dialog.getByRole('button', { name: `Cancel booking ${requestedId} and ask the owner` }).click();
        await page.getByText(`Booking ${requestedId} cancelled successfully. Refund of ₹1,800.00 sent to the owner for review.`).first().waitFor();
      }
      await page.close();
    }
    const reviewMail = await mailTo(KAVYA.email, /being reviewed/);
    expect(reviewMail).toContain('Your refund of ₹1,800 is being reviewed by the centre');

    // The owner decides.
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      const page = await openPage(e2e.browser, { viewport });
      await signIn(page, OWNER);
      const section = page.locator('section', { has: page.getByRole('heading', { name: 'Payments needing attention' }) });
      const requests = section.getByRole('list', { name: 'Refund requests' });
      const item = requests.getByRole('listitem').filter({ hasText: `Booking ${requestedId}` });
      await item.getByText('Reason: Client is unwell; the doctor advised rest').waitFor();
      await item.getByText('staff', { exact: true }).waitFor();
      await expectAccessible(page, '.adm-attn');
      await screenshot(page, 'desk-refunds-owner-list');
      if (viewport === VIEWPORTS.desktop) {
        await item.getByRole('button', { name: /^Approve refund request \d+$/ }).click();
        const dialog = page.getByRole('dialog', { name: /^Approve refund request \d+$/ });
        await dialog.getByRole('radio', { name: 'Full refund (₹1,800.00)' }).check();
        await expectAccessible(page, '.adm-modal');
        await screenshot(page, 'desk-refunds-approve');
        await dialog.getByRole('button', { name: 'Approve refund of ₹1,800.00' }).click();
        await section.getByText(/approved successfully: ₹1,800.00 refunded\./).waitFor();
        await section.getByRole('list', { name: 'Refund requests decided in the last 7 days' }).getByText('Approved').waitFor();
        // Money taken at the counter: now due there, for the desk to hand back.
        await dueSection(page)
          .getByRole('listitem')
          .filter({ hasText: `Booking ${requestedId}` })
          .getByText('₹1,800.00 to Kavya Iyer')
          .waitFor();
        await screenshot(page, 'desk-refunds-approved');
      }
      await page.close();
    }
    const [review, due] = await e2e.stack.database.db.select().from(refundRequests).where(eq(refundRequests.bookingId, requestedId)).orderBy(refundRequests.id);
    expect(review).toMatchObject({ kind: 'REVIEW', status: 'APPROVED' });
    expect(due).toMatchObject({ kind: 'AT_COUNTER', status: 'OPEN', amountPaise: 180_000 });
    expect((await ledgerOf(requestedId)).map((l) => l.kind)).toEqual(['capture']);
    const approvedMail = await mailTo(KAVYA.email, /Your refund has been approved/);
    expect(approvedMail).toContain('Your refund of ₹1,800 will be handed back to you at the centre');
  });
});
