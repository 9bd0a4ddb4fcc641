/**
 * Managing the centre from the panel, end to end (issue 20): the new screens at phone and desktop
 * widths (axe-core finds nothing; screenshots kept), and a super admin who adds a therapist with a
 * photo, services, price and weekly hours, closes the centre for a holiday and adds a staff account,
 * after which a client books the new therapist through the wizard.
 */
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUsers, bookings, therapists } from '../../shared/core/db/schema.ts';
import { createAdminUser } from '../../shared/core/services/admin-user.service.ts';
import { launchBrowser, openPage, screenshot, VIEWPORTS } from '../support/browser.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { bookAndPayOnline, expectAccessible, expectNoHorizontalScroll, newJourney } from './booking-helpers.ts';

let stack: Stack;
let browser: Browser;
const OWNER = { username: 'owner', email: 'owner@wellbeingcentre.in', password: 'owner-password-123', isSuperadmin: true };

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await createAdminUser(stack.database.db, OWNER);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${stack.baseUrl}/admin/login`);
  await page.getByLabel('Email / Username').fill(OWNER.username);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/admin/dashboard');
}

describe('the new admin screens', () => {
  it.each([
    ['phone', VIEWPORTS.phone],
    ['desktop', VIEWPORTS.desktop],
  ] as const)('render accessibly (%s)', async (_name, viewport) => {
    const page = await openPage(browser, { viewport });
    await signIn(page);
    const screens: [string, string, string][] = [
      ['therapists', 'Therapists', 'admin-therapists'],
      ['centre', 'Centre', 'admin-centre'],
      ['staff', 'Staff', 'admin-staff'],
      ['account', 'My account', 'admin-account'],
    ];
    for (const [path, title, shot] of screens) {
      await page.goto(`${stack.baseUrl}/admin/${path}`);
      await page.getByRole('heading', { name: title, exact: true, level: 1 }).waitFor();
      await expectAccessible(page, path);
      await expectNoHorizontalScroll(page, path);
      await screenshot(page, shot);
    }
    // The editor of one therapist: details, photo, weekly hours, time off.
    await page.goto(`${stack.baseUrl}/admin/therapists`);
    await page.getByRole('button', { name: 'Edit Dr. Asha Mehta' }).click();
    await page.getByRole('heading', { name: 'Weekly hours' }).waitFor();
    await expectAccessible(page, 'therapist editor');
    await expectNoHorizontalScroll(page, 'therapist editor');
    await screenshot(page, 'admin-therapist-editor');

    const link = await openPage(browser, { viewport });
    await link.goto(`${stack.baseUrl}/admin/set-password#token=${'x'.repeat(43)}`);
    await link.getByRole('heading', { name: 'Set your password' }).waitFor();
    await link.getByLabel('New password', { exact: true }).waitFor();
    await expectAccessible(link, 'set-password');
    await screenshot(link, 'admin-set-password');
    await link.close();
    await page.close();
  });
});

describe('a super admin adds a therapist from the panel and a client books them', () => {
  it('adds Dr. Kavita Rao with photo, services, price and hours; closes a holiday; adds a staff account; the wizard books her', async () => {
    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(page);
    await page.goto(`${stack.baseUrl}/admin/therapists`);
    await page.getByRole('heading', { name: 'Therapists', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add therapist' }).first().click();
    await page.getByLabel('Name (e.g. Dr. Asha Mehta)').fill('Dr. Kavita Rao');
    await page.getByLabel('Title').fill('Clinical Psychologist');
    await page.getByLabel('Specialization').fill('Adolescents and families');
    await page.getByLabel('About (summary)').fill('Calm, practical help for teenagers and their parents.');
    await page.getByLabel('Experience').fill('9 years of experience');
    await page.getByLabel('Languages').fill('English, Kannada');
    await page.getByLabel('Price per session (₹)').fill('1750');
    await page.getByLabel('E-mail addresses (comma-separated)').fill('kavita.rao@wellbeingcentre.in');
    await page.getByRole('checkbox', { name: 'Depression' }).check();
    await page.getByRole('checkbox', { name: 'Stress Management' }).check();
    await page.locator('form').getByRole('button', { name: 'Add therapist' }).click();
    await page.getByText('Dr. Kavita Rao added.').waitFor();

    const photo = await sharp({ create: { width: 800, height: 800, channels: 3, background: { r: 200, g: 120, b: 90 } } })
      .jpeg()
      .toBuffer();
    await page.getByLabel('New photo (PNG, JPEG or WebP, up to 2 MB)').setInputFiles({ name: 'kavita.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await page.getByText('Photo saved.').waitFor();
    await page.getByRole('img', { name: 'Current photo of Dr. Kavita Rao' }).waitFor();

    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']) {
      for (const time of ['10:00', '11:00', '12:00', '15:00', '16:00', '17:00', '18:00', '19:00', '20:00', '21:00']) {
        await page.getByRole('checkbox', { name: `${day} ${time}`, exact: true }).check();
      }
    }
    await page.getByRole('button', { name: 'Save hours' }).click();
    await page.getByText('Weekly hours saved.').waitFor();
    await screenshot(page, 'admin-therapist-added');

    const [kavita] = await stack.database.db.select().from(therapists).where(eq(therapists.name, 'Dr. Kavita Rao'));
    expect(kavita).toMatchObject({ pricePaise: 175_000, type: 1, isActive: true });
    expect(kavita!.imageUrl).toMatch(/\.webp$/);

    // A holiday far ahead and a staff account, from the panel too.
    await page.goto(`${stack.baseUrl}/admin/centre`);
    await page.getByRole('heading', { name: 'Centre', level: 1 }).waitFor();
    await page.getByLabel('Date').fill('2027-01-26');
    await page.getByLabel('Reason').fill('Republic Day');
    await page.getByRole('button', { name: 'Add holiday' }).click();
    await page.getByText('The centre is closed on 2027-01-26.').waitFor();

    await page.goto(`${stack.baseUrl}/admin/staff`);
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    await page.getByLabel('Username').fill('reception.two');
    await page.getByLabel('E-mail', { exact: true }).fill('reception.two@wellbeingcentre.in');
    await page.getByRole('button', { name: 'Add account' }).click();
    await page.getByText('reception.two was sent an invitation').waitFor();
    const [staff] = await stack.database.db.select().from(adminUsers).where(eq(adminUsers.username, 'reception.two'));
    expect(staff).toMatchObject({ isActive: true, isSuperadmin: false });
    await page.close();

    // The client: the wizard reads the catalogue live, so the new therapist is there at once.
    const { context, page: client } = await newJourney(browser, VIEWPORTS.phone);
    await client.goto(`${stack.baseUrl}/`);
    await bookAndPayOnline(client, 'Kavita Rao');
    await context.close();

    const made = await stack.database.db.select().from(bookings).where(eq(bookings.therapistId, kavita!.id));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ amountPaise: 175_000, paymentStatus: 'COMPLETED' });
  });
});
