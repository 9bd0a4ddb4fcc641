/**
 * The desk's day end to end (issue 31, items 3 and 7), in Chromium at 390x844 and 1280x800: the
 * dashboard opens on Today (today's sessions seeded in the database, as the desk sees them), with
 * numbers to tap, payment in words and the lists' actions, Cancel not offered on an attended session;
 * the therapists fold away and stay folded; and a mobile number pasted into Manual Booking in any
 * common Indian form is saved as its 10 digits.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../shared/core/db/schema.ts';
import { centreNow } from '../../shared/domain/time.ts';
import { insertBooking } from '../support/admin.ts';
import { openPage, SCREENSHOT_DIR, screenshot, VIEWPORTS } from '../support/browser.ts';
import { OWNER, panelStack, signInToPanel, STAFF } from '../support/panel-e2e.ts';

const e2e = panelStack();
const signIn = (page: Page, user: { username: string; password: string }) => signInToPanel(page, e2e.stack.baseUrl, user);

async function expectNoAxeViolations(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function ownerToken(): Promise<string> {
  const res = await fetch(`${e2e.stack.baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: OWNER.username, password: OWNER.password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Today's sessions as the desk sees them, in time order (the database holds them in another). */
const DAY = ['Ravi Kumar', 'Ananya Rao', 'Meera Pillai', 'Kabir Shah'];
const ids: Record<string, number> = {};

describe('Today on the dashboard', () => {
  beforeAll(async () => {
    const db = e2e.stack.database.db;
    const today = centreNow().date;
    /** One of today's sessions, by `name` (at name.surname@example.com) on `mobile`. */
    const session = async (name: string, mobile: string, b: Omit<Parameters<typeof insertBooking>[1], 'bookingDate'>) => {
      const clientEmail = `${name.toLowerCase().replace(' ', '.')}@example.com`;
      ids[name] = (await insertBooking(db, { ...b, bookingDate: today, clientFullName: name, clientEmail, clientMobile: mobile })).id;
    };
    // Inserted out of order: Today sorts them.
    await session('Kabir Shah', '9845000011', {
      therapistId: 2,
      bookingTimeSlotStart: '17:00',
      bookingType: 'ONLINE',
      paymentStatus: 'PENDING',
      adminConfirmed: true,
      amountPaise: 120_000,
    });
    await session('Meera Pillai', '9876543210', {
      therapistId: 1,
      bookingTimeSlotStart: '11:00',
      bookingType: 'ONLINE',
      paymentStatus: 'COMPLETED',
      adminConfirmed: true,
      // The desk marked her attended (the server's own rule is tested in the integration tests).
      attendance: 'ATTENDED',
      attendanceMarkedAt: new Date(),
    });
    await session('Ravi Kumar', '9811100001', {
      therapistId: 5,
      bookingTimeSlotStart: '09:00',
      bookingType: 'OFFLINE',
      locationId: 1,
      paymentStatus: 'PENDING',
      amountPaise: 180_000,
    });
    await session('Ananya Rao', '9820012345', {
      therapistId: 6,
      bookingTimeSlotStart: '10:00',
      bookingType: 'OFFLINE',
      locationId: 1,
      paymentStatus: 'PENDING',
      amountPaise: 160_000,
    });
    // Not sessions: a block and a cancelled booking.
    await insertBooking(db, {
      therapistId: 3,
      bookingDate: today,
      bookingTimeSlotStart: '12:00',
      bookingType: 'ADMIN_BLOCK',
      paymentStatus: 'BLOCKED',
      clientFullName: 'Admin Block',
    });
    await insertBooking(db, { therapistId: 4, bookingDate: today, bookingTimeSlotStart: '13:00', cancelled: true, clientFullName: 'Gone Client' });
    // Ananya paid in cash at the desk: the ledger says so.
    const paid = await fetch(`${e2e.stack.baseUrl}/api/admin/bookings/${ids['Ananya Rao']}/record-payment`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await ownerToken()}` },
      body: JSON.stringify({ method: 'CASH' }),
    });
    expect(paid.status).toBe(200);
  });

  it.each(Object.entries(VIEWPORTS))(
    'at %s the dashboard opens on Today, near the top, with each session’s phone, payment and actions (screenshots)',
    async (name, viewport) => {
      const page = await openPage(browser(), { viewport });
      await signIn(page, STAFF);
      const day = page.getByRole('region', { name: 'Today', exact: true });
      await day.getByText('Kabir Shah').waitFor();
      const phone = name === 'phone';

      // Each session in time order, without the block or the cancelled booking.
      const sessions = phone ? day.locator('li.adm-day__card') : day.locator('tbody tr');
      expect(await sessions.locator('.adm-day__client').allTextContents()).toEqual(DAY);
      expect(await sessions.locator('.adm-day__time').allTextContents()).toEqual(['9:00 AM', '10:00 AM', '11:00 AM', '5:00 PM']);
      expect(await day.getByText('Gone Client').count()).toBe(0);
      expect(await day.getByText('4 sessions').count()).toBe(1);

      // The first session is on the first screen at 390 px, and above the therapist table at 1280.
      const first = (await sessions.first().boundingBox())!;
      if (phone) {
        expect(first.y + 40).toBeLessThan(viewport.height);
      } else {
        const therapists = (await page.getByRole('region', { name: 'Therapists', exact: true }).boundingBox())!;
        expect(first.y).toBeLessThan(therapists.y);
        expect(first.y + 40).toBeLessThan(viewport.height);
      }

      // Tap to call.
      const call = day.getByRole('link', { name: 'Call Ravi Kumar on 98111 00001' });
      expect(await call.getAttribute('href')).toBe('tel:+919811100001');
      // The payment in words, beside the spec's badge.
      const row = (client: string) => sessions.filter({ hasText: client });
      expect((await row('Ravi Kumar').locator('.adm-day__words').textContent())?.trim()).toBe('Pay at centre');
      expect((await row('Ananya Rao').locator('.adm-day__words').textContent())?.trim()).toBe('Paid');
      expect((await row('Meera Pillai').locator('.adm-day__words').textContent())?.trim()).toBe('Payment not recorded');
      expect((await row('Kabir Shah').locator('.adm-day__words').textContent())?.trim()).toBe('Awaiting payment');
      expect(await row('Ananya Rao').locator('.adm-badge').first().textContent()).toBe('COMPLETED');
      // The lists' own actions; Cancel not on the session marked attended, here or in All Booked Slots.
      await row('Ravi Kumar')
        .getByRole('button', { name: `Record payment for booking ${ids['Ravi Kumar']}` })
        .waitFor();
      await row('Ravi Kumar')
        .getByRole('button', { name: `Cancel booking ${ids['Ravi Kumar']}` })
        .waitFor();
      await row('Kabir Shah')
        .getByRole('button', { name: `Cancel booking ${ids['Kabir Shah']}` })
        .waitFor();
      expect(await page.getByRole('button', { name: `Cancel booking ${ids['Meera Pillai']}` }).count()).toBe(0);

      await expectNoAxeViolations(page);
      await screenshot(page, 'desk-today');
      // What the receptionist sees first, without scrolling.
      await page.screenshot({ path: `${SCREENSHOT_DIR}/desk-today-first-screen-${viewport.width}x${viewport.height}.png` });

      if (!phone) {
        // Record payment from Today (the last screen size: Ravi is paid from then on): the desk's
        // dialog, its message in Today, and the session then says Paid.
        await row('Ravi Kumar')
          .getByRole('button', { name: `Record payment for booking ${ids['Ravi Kumar']}` })
          .click();
        const dialog = page.getByRole('dialog', { name: `Record payment for booking ${ids['Ravi Kumar']}` });
        await dialog.getByRole('button', { name: 'Confirm payment' }).click();
        await day.locator('.adm-notice > span', { hasText: `booking ${ids['Ravi Kumar']}` }).waitFor();
        await row('Ravi Kumar')
          .locator('.adm-day__words', { hasText: /^Paid$/ })
          .waitFor();
      }
      await page.close();
    },
  );

  it('the therapists and availability fold away, stay folded after a reload, and open again', async () => {
    const page = await openPage(browser(), { viewport: VIEWPORTS.phone });
    await signIn(page, STAFF);
    const toggle = page.getByRole('button', { name: /^Therapists and availability/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('button', { name: 'View availability of Dr. Asha Mehta' }).waitFor();
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'View availability of Dr. Asha Mehta' }).waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByRole('region', { name: 'Today', exact: true }).getByText('Kabir Shah').waitFor();
    expect(await page.getByRole('button', { name: /^Therapists and availability/ }).getAttribute('aria-expanded')).toBe('false');
    // Folded, All Booked Slots follows soon after Today.
    await expectNoAxeViolations(page);
    await screenshot(page, 'desk-today-folded');
    await page.getByRole('button', { name: /^Therapists and availability/ }).click();
    await page.getByRole('button', { name: 'View availability of Dr. Asha Mehta' }).waitFor();
    await page.close();
  });
});

describe('Manual Booking’s mobile field', () => {
  it.each([
    ['phone', '919920033333', 'Devika Menon'],
    ['desktop', '+91 99200 33333', 'Harish Pandey'],
  ] as const)('at %s, pasting %s keeps it whole and saves 9920033333 (screenshots)', async (size, pasted, client) => {
    const offer = (await (await fetch(`${e2e.stack.baseUrl}/api/slots?therapist_id=7`)).json()) as {
      days: { date: string; slots: { start_time: string }[] }[];
    };
    const day = offer.days.find((d) => d.slots.length > 0)!;
    const page = await openPage(browser(), { viewport: VIEWPORTS[size] });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, OWNER);
    await page.getByRole('button', { name: 'Manual Booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manual Booking' });
    await dialog.getByLabel('Therapist').selectOption('7');
    await dialog.getByLabel('Booking Date').selectOption(day.date);
    await dialog.getByLabel('Time Slot').selectOption(day.slots[0]!.start_time);
    await dialog.getByLabel('Client Name').fill(client);
    await dialog.getByLabel('Client Email').fill(`${client.toLowerCase().replace(' ', '.')}@example.com`);
    // A real paste, from the clipboard.
    const mobile = dialog.getByLabel('Client Mobile');
    await page.evaluate((text) => navigator.clipboard.writeText(text), pasted);
    await mobile.focus();
    await page.keyboard.press('Control+V');
    expect(await mobile.inputValue()).toBe(pasted);
    await dialog.getByLabel('Client Name').focus();
    expect(await mobile.inputValue()).toBe('9920033333');
    await dialog.getByText('10-digit mobile number; +91 or a leading 0 is fine').waitFor();
    // The dialog scrolls inside the screen: the field, its hint and its value, as seen.
    await dialog.getByText('10-digit mobile number; +91 or a leading 0 is fine').scrollIntoViewIfNeeded();
    const { width, height } = VIEWPORTS[size];
    await page.screenshot({ path: `${SCREENSHOT_DIR}/desk-manual-mobile-${width}x${height}.png` });
    await dialog.getByRole('button', { name: 'Create Booking' }).click();
    await page.locator('.adm-notice > span', { hasText: /^Manual booking \d+ created successfully!$/ }).waitFor();
    const [saved] = await e2e.stack.database.db.select().from(bookings).where(eq(bookings.clientFullName, client));
    expect(saved!.clientMobile).toBe('9920033333');
    await page.close();
  });
});

function browser() {
  return e2e.browser;
}
