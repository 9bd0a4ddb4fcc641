/**
 * Issue 34, session packages in Debian's Chromium against the real server, database and worker, at
 * 390×844 and 1280×800: the public /packages page, buying a package online through the sandbox
 * checkout, the private /my-package page with its sessions, booking a session with one of them there,
 * and the desk selling a package in the panel's Packages screen.
 */
import { describe, expect, it } from 'vitest';
import { screenshot, screenshotOf, VIEWPORTS } from '../support/browser.ts';
import { waitForMail } from '../support/outbox.ts';
import { OWNER, panelStack, signInToPanel, STAFF } from '../support/panel-e2e.ts';
import { expectAccessible, expectNoHorizontalScroll, heading, newJourney } from './booking-helpers.ts';

const e2e = panelStack();

const PACKAGE = {
  name: 'Four Online Sessions',
  sessions_count: 4,
  price: 6000,
  validity_days: 90,
  session_types: ['ONLINE'],
  therapist_ids: [],
  is_active: true,
};
const PACKAGE_PRICE = '₹6,000';
const MY_PACKAGE_LINK = /https?:\/\/[^\s"'<>]+\/my-package\?token=[A-Za-z0-9_-]{43}/;

const SIZES = [
  ['phone', VIEWPORTS.phone, { name: 'Isha Kapoor', email: 'isha.kapoor@example.in', therapist: 'Priya Nair' }],
  ['desktop', VIEWPORTS.desktop, { name: 'Rahul Menon', email: 'rahul.menon@example.in', therapist: 'Arjun Iyer' }],
] as const;

/** The owner defines the package (once, before the file's tests), as the panel's "New package" does. */
async function definePackage(): Promise<void> {
  const login = await fetch(`${e2e.stack.baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const made = await fetch(`${e2e.stack.baseUrl}/api/admin/packages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${access_token}` },
    body: JSON.stringify(PACKAGE),
  });
  expect(made.status).toBe(201);
}

let defined: Promise<void> | undefined;

describe('a package bought online, and a session booked with it', () => {
  it.each(SIZES)('/packages, the sandbox checkout, /my-package, and one session used (%s)', async (size, viewport, client) => {
    defined ??= definePackage();
    await defined;
    const { context, page } = await newJourney(e2e.browser, viewport);

    // The wizard offers the packages as its first step's third choice; the page lists them.
    await page.goto(`${e2e.stack.baseUrl}/book`);
    await page.getByText('Course of Sessions', { exact: true }).click();
    expect(await page.getByRole('radio', { name: /Course of Sessions/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/packages');
    await page.getByRole('heading', { name: 'Session Packages', level: 1 }).waitFor();
    const choice = page.getByRole('radio', { name: new RegExp(PACKAGE.name) });
    await page.getByText(`4 sessions for ${PACKAGE_PRICE}`).waitFor();
    await expectAccessible(page, '/packages');
    await expectNoHorizontalScroll(page, '/packages');
    await screenshot(page, `packages-${size}`);

    // Buying it: the details, the terms, then the sandbox checkout.
    // The card is the radio's label, as the wizard's choices are: a tap anywhere on it chooses it.
    await page.getByText(PACKAGE.name, { exact: true }).click();
    expect(await choice.isChecked()).toBe(true);
    await page.getByRole('button', { name: `Pay ${PACKAGE_PRICE}` }).click();
    await page
      .getByRole('alert')
      .getByText(/Please enter your full name/)
      .waitFor();
    await page.getByLabel('Full name').fill(client.name);
    await page.getByLabel('E-mail').fill(client.email);
    await page.getByLabel('Mobile number').fill('9822233344');
    await page.getByLabel(/I accept the/).check();
    await expectAccessible(page, '/packages with the form');
    await expectNoHorizontalScroll(page, '/packages with the form');
    await screenshot(page, `packages-form-${size}`);
    await page.getByRole('button', { name: `Pay ${PACKAGE_PRICE}` }).click();
    await page.waitForURL(/\/sandbox\/checkout\/[^/?#]+/, { timeout: 30_000 });
    await page.getByRole('button', { name: /^Pay ₹/ }).click();

    // Back on the private page: the package's sessions, all four left.
    await page.waitForURL(/\/my-package\?token=/, { timeout: 30_000 });
    await page.getByRole('heading', { name: PACKAGE.name }).waitFor({ timeout: 30_000 });
    await page.getByText('4 in all, 0 used, 4 left').waitFor({ timeout: 30_000 });
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    const mail = await waitForMail(e2e.stack.env.MAIL_OUTBOX_DIR!, client.email, MY_PACKAGE_LINK);
    const link = mail.text.match(MY_PACKAGE_LINK)![0];
    await page.goto(link);
    await page.getByText('4 in all, 0 used, 4 left').waitFor();
    await expectAccessible(page, '/my-package');
    await expectNoHorizontalScroll(page, '/my-package');
    await screenshot(page, `my-package-${size}`);

    // One session of the package: a covered therapist, a date and a time.
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Book a session with your package' }) });
    const therapist = form.getByLabel('Therapist');
    await therapist.selectOption((await therapist.locator('option', { hasText: client.therapist }).getAttribute('value'))!);
    const time = form.locator('.time-option').first();
    await time.waitFor();
    await time.click();
    await expectAccessible(page, '/my-package picking a time');
    await expectNoHorizontalScroll(page, '/my-package picking a time');
    await screenshot(page, `my-package-pick-${size}`);
    await form.getByRole('button', { name: 'Book with one session of my package' }).click();
    await page.getByRole('link', { name: 'Manage this booking' }).waitFor();
    await page.getByText('4 in all, 1 used, 3 left').waitFor();
    const booked = page.locator('.package-bookings li');
    expect(await booked.count()).toBe(1);
    expect(await booked.first().innerText()).toContain(client.therapist);
    await expectAccessible(page, '/my-package after booking');
    await screenshot(page, `my-package-booked-${size}`);

    // The booking is the client's: its Manage page shows it, nothing to pay.
    await page.getByRole('link', { name: 'Manage this booking' }).click();
    await heading(page, 'Your session');
    const therapistRow = page.locator('.summary-row', { has: page.locator('dt', { hasText: /^Therapist$/ }) }).locator('dd');
    expect(await therapistRow.innerText()).toContain(client.therapist);
    await expectAccessible(page, 'manage a package session');
    await screenshot(page, `my-package-manage-${size}`);
    await context.close();
  });
});

describe('a package sold at the desk', () => {
  it.each(SIZES)('the Packages screen sells one, and the client’s private link shows its sessions (%s)', async (size, viewport) => {
    defined ??= definePackage();
    await defined;
    const email = `desk.${size}@example.in`;
    const { context, page } = await newJourney(e2e.browser, viewport);
    await signInToPanel(page, e2e.stack.baseUrl, STAFF);
    await page.goto(`${e2e.stack.baseUrl}/admin/packages`);
    await page.getByRole('heading', { name: 'Packages', level: 1 }).waitFor();
    const sell = page.locator('section', { has: page.getByRole('heading', { name: 'Sell a package at the desk' }) });
    const pkg = sell.getByLabel('Package');
    await pkg.selectOption((await pkg.locator('option', { hasText: PACKAGE.name }).getAttribute('value'))!);
    await sell.getByLabel('Client name').fill(`Desk Client ${size}`);
    await sell.getByLabel('Client e-mail').fill(email);
    await sell.getByLabel('Client mobile').fill('9833344455');
    await sell.getByLabel('Paid by').selectOption('CASH');
    await expectAccessible(page, 'panel packages');
    await screenshot(page, `admin-packages-sell-${size}`);
    await sell.getByRole('button', { name: `Sell for ${PACKAGE_PRICE}.00` }).click();
    const dialog = page.getByRole('dialog', { name: /^Package sale \d+$/ });
    await dialog.getByText('4 in all: 0 used,').waitFor();
    await dialog.getByText(/sold at the desk/).waitFor();
    await expectAccessible(page, 'panel package sale');
    await screenshotOf(dialog, `admin-packages-sale-${size}`);
    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    await page
      .locator('section', { has: page.getByRole('heading', { name: 'Sales' }) })
      .getByText(`Desk Client ${size}`)
      .waitFor();

    const mail = await waitForMail(e2e.stack.env.MAIL_OUTBOX_DIR!, email, MY_PACKAGE_LINK);
    await page.goto(mail.text.match(MY_PACKAGE_LINK)![0]);
    await page.getByText('4 in all, 0 used, 4 left').waitFor();
    await context.close();
  });
});
