/**
 * The admin panel end to end: the built site and the real API (admin routes from the admin API work),
 * driven in Debian Chromium. Admins are created directly in the test database.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentDto } from '../../shared/contract/admin.ts';
import { createAdminUser } from '../../shared/core/services/admin-user.service.ts';
import { formatTime12h, monthName } from '../../shared/domain/time.ts';
import { launchBrowser, openPage, screenshot, VIEWPORTS } from '../support/browser.ts';
import { offlineBooking, onlineBooking } from '../support/factories.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { ADMIN_SIDEBAR, SUPERADMIN_SIDEBAR } from '../support/sidebar.ts';

let stack: Stack;
let browser: Browser;

const OWNER = { username: 'owner', email: 'owner@wellbeingcentre.in', password: 'owner-password-123', isSuperadmin: true };
const STAFF = { username: 'staff', email: 'staff@wellbeingcentre.in', password: 'staff-password-123', isSuperadmin: false };

type Offer = { today: string; days: { date: string; slots: { start_time: string }[] }[] };

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await createAdminUser(stack.database.db, OWNER);
  await createAdminUser(stack.database.db, STAFF);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function offer(therapistId: number): Promise<Offer> {
  const res = await fetch(`${stack.baseUrl}/api/slots?therapist_id=${therapistId}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Offer;
}

async function offered(therapistId: number, date: string, start: string): Promise<boolean> {
  const o = await offer(therapistId);
  return Boolean(o.days.find((d) => d.date === date)?.slots.some((s) => s.start_time === start));
}

/** A booking made through the public API, as the wizard makes it; answers its id. */
async function book(body: unknown): Promise<number> {
  const res = await fetch(`${stack.baseUrl}/confirm-booking`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { booking_id: number }).booking_id;
}

async function apiToken(user: { username: string; password: string }): Promise<string> {
  const res = await fetch(`${stack.baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: user.username, password: user.password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function signIn(page: Page, user: { username: string; password: string }): Promise<void> {
  await page.goto(`${stack.baseUrl}/admin/login`);
  await page.getByLabel('Email / Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/admin/dashboard');
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** A date-strip button's label part: 'Nov 23'. */
const stripLabel = (date: string) => `${monthName(Number(date.slice(5, 7)), 'short')} ${Number(date.slice(8, 10))}`;

describe('admin sign-in', () => {
  it('/admin goes to the login screen; signing in and out', async () => {
    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await page.goto(`${stack.baseUrl}/admin`);
    await page.waitForURL('**/admin/login');
    await page.getByRole('heading', { name: 'Admin Login' }).waitFor();

    await page.getByLabel('Email / Username').fill(OWNER.username);
    await page.getByLabel('Password').fill('wrong-password-000');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Incorrect username or password').waitFor();

    await signIn(page, OWNER);
    expect(await page.evaluate(() => Object.keys(sessionStorage).sort())).toEqual(['adminToken', 'adminUser']);
    // Signed in, the login page forwards to the dashboard.
    await page.goto(`${stack.baseUrl}/admin/login`);
    await page.waitForURL('**/admin/dashboard');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.goto(`${stack.baseUrl}/admin/calendar`);
    await page.waitForURL('**/admin/login');
    await page.close();
  });

  it('a bad token logs out with the spec message', async () => {
    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        sessionStorage.setItem('adminToken', 'not-a-real-token');
        sessionStorage.setItem('adminUser', JSON.stringify({ username: 'ghost', is_superadmin: false, is_admin: true, is_active: true }));
      }
    });
    await page.goto(`${stack.baseUrl}/admin/dashboard`);
    await page.waitForURL('**/admin/login');
    await page.getByText('Unauthorized. Please log in again.').waitFor();
    await page.close();
  });
});

describe('roles', () => {
  it('a plain admin does not see Reports or Income (Cash-up is theirs) and is refused when typing the URL', async () => {
    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, STAFF);
    const nav = page.getByRole('navigation', { name: 'Admin' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(ADMIN_SIDEBAR);
    for (const path of [
      '/admin/income',
      '/admin/Income',
      '/admin/reports',
      '/admin/Reports',
      '/admin/audit-log',
      '/admin/therapists',
      '/admin/centre',
      '/admin/staff',
    ]) {
      await page.goto(`${stack.baseUrl}${path}`);
      await page.getByText('Only super admins may view this page.').waitFor();
    }
    const token = await apiToken(STAFF);
    const res = await fetch(`${stack.baseUrl}/api/admin/income`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(403);
    await page.close();
  });

  it('a super admin sees Reports, Income, Audit Log and Job Queues', async () => {
    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, OWNER);
    const links = await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').allTextContents();
    expect(links).toEqual(SUPERADMIN_SIDEBAR);
    await page.close();
  });
});

describe('bookings on the dashboard and calendar', () => {
  let bookingId: number;
  let date: string;
  let start: string;

  beforeAll(async () => {
    const o = await offer(1);
    const day = o.days.find((d) => d.slots.length > 0)!;
    date = day.date;
    start = day.slots[day.slots.length - 1]!.start_time;
    bookingId = await book(onlineBooking({ booking_date: date, booking_time_slot_start: start, client_full_name: 'Ishita Banerjee' }));
  });

  it('a booking made through the public API appears on the dashboard and calendar', async () => {
    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, OWNER);
    const all = page.getByRole('region', { name: 'All Booked Slots', exact: true });
    await all.getByText('Ishita Banerjee').waitFor();
    await page.getByRole('link', { name: 'Calendar View' }).click();
    await page.waitForURL('**/admin/calendar');
    await page.getByRole('heading', { name: 'Booking Calendar' }).waitFor();
    const wanted = `${monthName(Number(date.slice(5, 7)))} ${date.slice(0, 4)}`;
    if ((await page.locator('#cal-month').textContent())?.trim() !== wanted) await page.getByRole('button', { name: /Next/ }).click();
    const cell = page.locator(`td[data-date="${date}"]`);
    await cell.getByText('Ishita Banerjee').waitFor();
    await cell.getByRole('button').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: /^Events on / }).waitFor();
    await dialog.getByText(`${formatTime12h(start)} - `, { exact: false }).waitFor();
    await dialog.getByText('Dr. Asha Mehta').waitFor();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.close();
  });

  it('cancel asks for confirmation in the panel’s own dialog and the booking is cancelled', async () => {
    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    // The browser's own pop-ups are not used any more.
    const browserDialogs: string[] = [];
    page.on('dialog', (d) => {
      browserDialogs.push(d.message());
      void d.dismiss();
    });
    await signIn(page, OWNER);
    await page
      .getByRole('button', { name: `Cancel booking ${bookingId}` })
      .first()
      .click();
    const dialog = page.getByRole('alertdialog', { name: `Are you sure you want to cancel booking ${bookingId}? This cannot be undone.` });
    await dialog.getByText('The slot becomes free for other clients.').waitFor();
    await dialog.getByRole('button', { name: `Cancel booking ${bookingId}` }).click();
    await page.locator('.adm-notice > span', { hasText: `Booking ${bookingId} cancelled successfully.` }).waitFor();
    expect(browserDialogs).toEqual([]);
    expect(await offered(1, date, start)).toBe(true);
    await page.close();
  });
});

describe('availability', () => {
  it('block then unblock: the slot leaves and returns to GET /api/slots', async () => {
    const o = await offer(1);
    const window5 = new Set(
      Array.from({ length: 5 }, (_, i) => {
        const d = new Date(`${o.today}T00:00:00Z`);
        d.setUTCDate(d.getUTCDate() + i);
        return d.toISOString().slice(0, 10);
      }),
    );
    const day = o.days.find((d) => window5.has(d.date) && d.slots.length > 0)!;
    const start = day.slots[0]!.start_time;
    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    const browserDialogs: string[] = [];
    page.on('dialog', (d) => {
      browserDialogs.push(d.message());
      void d.dismiss();
    });
    await signIn(page, OWNER);
    await page.getByRole('button', { name: 'View availability of Dr. Asha Mehta' }).click();
    await page
      .getByRole('group', { name: 'Choose a date' })
      .getByRole('button', { name: new RegExp(`${stripLabel(day.date)}$`) })
      .click();
    const time = formatTime12h(start);
    await page.getByRole('button', { name: `Block ${time}` }).click();
    await page.getByRole('alertdialog', { name: 'Are you sure you want to block this time slot?' }).getByRole('button', { name: 'Block slot' }).click();
    const blocked = page.locator('.adm-slots__notice', { has: page.locator('.adm-notice > span', { hasText: /blocked successfully\.$/ }) });
    await blocked.waitFor();
    expect(await offered(1, day.date, start)).toBe(false);
    // The message sits right after the slot it is about, and the blocked tile holds its text and button.
    expect(await blocked.evaluate((n) => n.previousElementSibling?.querySelector('.adm-slot__time')?.textContent)).toBe(time);
    const tile = page.locator('.adm-slot--blocked', { hasText: time });
    const fits = await tile.evaluate((t) => {
      const box = t.getBoundingClientRect();
      return (
        t.scrollWidth <= t.clientWidth &&
        [...t.children].every((c) => {
          const r = c.getBoundingClientRect();
          return r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom;
        })
      );
    });
    expect(fits).toBe(true);
    await screenshot(page, 'admin-slot-blocked-notice');
    await page.getByRole('button', { name: `Unblock ${time}` }).click();
    await page.getByRole('alertdialog', { name: 'Are you sure you want to unblock this time slot?' }).getByRole('button', { name: 'Unblock slot' }).click();
    await page.locator('.adm-slots__notice', { has: page.locator('.adm-notice > span', { hasText: /unblocked successfully\.$/ }) }).waitFor();
    expect(await offered(1, day.date, start)).toBe(true);
    expect(browserDialogs).toEqual([]);
    await page.close();
  });
});

describe('availability per therapist, and Record payment', () => {
  it('a client of Asha at a time leaves Priya’s slot free; an unpaid in-person booking offers Record payment (screenshots)', async () => {
    const [asha, priya] = await Promise.all([offer(1), offer(2)]);
    // A date shown on the phone's 3-date strip where both work at the same hour.
    const window3 = new Set(
      Array.from({ length: 3 }, (_, i) => {
        const d = new Date(`${asha.today}T00:00:00Z`);
        d.setUTCDate(d.getUTCDate() + i);
        return d.toISOString().slice(0, 10);
      }),
    );
    let date = '';
    let start = '';
    for (const day of asha.days.filter((d) => window3.has(d.date))) {
      const priyas = new Set(priya.days.find((d) => d.date === day.date)?.slots.map((s) => s.start_time));
      const common = day.slots.map((s) => s.start_time).filter((t) => priyas.has(t));
      if (common.length) {
        date = day.date;
        start = common[Math.floor(common.length / 2)]!;
        break;
      }
    }
    expect(date).not.toBe('');
    await book(
      onlineBooking({
        booking_date: date,
        booking_time_slot_start: start,
        client_full_name: 'Nandini Iyer',
        client_email: 'nandini.iyer@example.com',
        client_mobile: '9845000001',
      }),
    );
    const rohan = (await offer(5)).days.find((d) => d.slots.length > 0)!;
    const inPersonId = await book(
      offlineBooking({
        booking_date: rohan.date,
        booking_time_slot_start: rohan.slots[0]!.start_time,
        client_full_name: 'Arjun Pillai',
        client_email: 'arjun.pillai@example.com',
        client_mobile: '9845000002',
      }),
    );
    const time = formatTime12h(start);

    for (const viewport of Object.values(VIEWPORTS)) {
      const page = await openPage(browser, { viewport });
      await signIn(page, OWNER);
      const chooseDate = () =>
        page
          .getByRole('group', { name: 'Choose a date' })
          .getByRole('button', { name: new RegExp(`${stripLabel(date)}$`) })
          .click();
      await page.getByRole('button', { name: 'View availability of Ms. Priya Nair' }).click();
      await chooseDate();
      const grid = page.locator('.adm-slots');
      await grid.getByRole('button', { name: `Block ${time}` }).waitFor();
      expect(await grid.locator('.adm-slot--booked').count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshot(page, 'admin-dashboard-availability');
      await page.getByRole('button', { name: 'View availability of Dr. Asha Mehta' }).click();
      await chooseDate();
      await grid.locator('.adm-slot--booked', { hasText: time }).waitFor();
      expect(await grid.getByRole('button', { name: `Block ${time}` }).count()).toBe(0);

      await page
        .getByRole('button', { name: `Record payment for booking ${inPersonId}` })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: `Record payment for booking ${inPersonId}` });
      expect(await dialog.getByLabel('Amount (₹)').inputValue()).toBe('1800');
      await expectNoAxeViolations(page);
      await screenshot(page, 'admin-record-payment');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.close();
    }
  });
});

describe('cancelling a paid booking', () => {
  it('a cash payment recorded at the desk is on the end-of-day report; cancelled with a full refund, the note and the client’s e-mail say so', async () => {
    // An in-person booking paid at the desk.
    const rohan = (await offer(5)).days.filter((d) => d.slots.length > 0).at(-1)!;
    const paidId = await book(
      offlineBooking({
        booking_date: rohan.date,
        booking_time_slot_start: rohan.slots.at(-1)!.start_time,
        client_full_name: 'Kavya Raman',
        client_email: 'kavya.raman@example.com',
        client_mobile: '9845000003',
      }),
    );
    const owner = { Authorization: `Bearer ${await apiToken(OWNER)}` };
    const paid = await fetch(`${stack.baseUrl}/api/admin/bookings/${paidId}/record-payment`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...owner },
      body: JSON.stringify({ method: 'CASH' }),
    });
    expect(paid.status).toBe(200);
    const eod = (await (await fetch(`${stack.baseUrl}/api/admin/reports/eod?report_date=${rohan.date}`, { headers: owner })).json()) as {
      total_income_today: number;
      details: { booking_id: number; payment_status: string }[];
    };
    expect(eod.details.find((d) => d.booking_id === paidId)?.payment_status).toBe('COMPLETED');
    expect(eod.total_income_today).toBeGreaterThanOrEqual(1800);
    // ...and on the End of Day report the super admin opens for that day.
    const reports = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(reports, OWNER);
    await reports.goto(`${stack.baseUrl}/admin/reports`);
    await reports.getByRole('tab', { name: 'End of Day' }).click();
    await reports.getByLabel('Report date').fill(rohan.date);
    const eodRow = reports.getByRole('region', { name: 'End of day bookings' }).getByRole('row').filter({ hasText: 'Kavya Raman' });
    await eodRow.getByText('COMPLETED').waitFor();
    // Paid, and how: the Paid and Method columns (issue 31 adds Time, Method and Attendance).
    expect(await eodRow.locator('td').nth(8).textContent()).toBe('₹1,800.00');
    expect(await eodRow.locator('td').nth(9).textContent()).toBe('Cash');
    await screenshot(reports, 'admin-eod-cash-payment');
    await reports.close();

    // A plain admin may only ask the owner to refund it (the session is days away: no "No refund").
    const staffPage = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(staffPage, STAFF);
    await staffPage
      .getByRole('button', { name: `Cancel booking ${paidId}` })
      .first()
      .click();
    const staffDialog = staffPage.getByRole('dialog');
    await staffDialog.getByRole('radio', { name: 'Ask the owner to refund' }).waitFor();
    expect(await staffDialog.getByRole('radio', { name: 'Ask the owner to refund' }).isChecked()).toBe(true);
    expect(await staffDialog.getByRole('radio', { name: /Full refund|Partial refund|No refund/ }).count()).toBe(0);
    await staffDialog.getByText(/^No refund is only for a session starting within 24 hours/).waitFor();
    await expectNoAxeViolations(staffPage);
    await screenshot(staffPage, 'admin-cancel-no-refund-staff');
    await staffPage.keyboard.press('Escape');
    await staffDialog.waitFor({ state: 'detached' });
    await staffPage.close();

    // The super admin on a phone sees the choice; on a desktop refunds in full.
    const phone = await openPage(browser, { viewport: VIEWPORTS.phone });
    await signIn(phone, OWNER);
    await phone
      .getByRole('button', { name: `Cancel booking ${paidId}` })
      .first()
      .click();
    const phoneDialog = phone.getByRole('dialog', { name: `Are you sure you want to cancel booking ${paidId}? This cannot be undone.` });
    await phoneDialog.getByRole('radio', { name: 'Partial refund' }).check();
    await phoneDialog.getByLabel('Refund amount (₹)').fill('500');
    await phoneDialog.getByRole('button', { name: `Cancel booking ${paidId} and refund ₹500.00` }).waitFor();
    await expectNoAxeViolations(phone);
    await screenshot(phone, 'admin-cancel-refund');
    await phoneDialog.getByRole('button', { name: 'Keep booking', exact: true }).click();
    await phoneDialog.waitFor({ state: 'detached' });
    await phone.close();

    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, OWNER);
    await page
      .getByRole('button', { name: `Cancel booking ${paidId}` })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: `Are you sure you want to cancel booking ${paidId}? This cannot be undone.` });
    await dialog.getByRole('radio', { name: 'Full refund (₹1,800.00)' }).check();
    await dialog.getByRole('button', { name: `Cancel booking ${paidId} and refund ₹1,800.00` }).click();
    await page.locator('.adm-notice > span', { hasText: `Booking ${paidId} cancelled successfully. ₹1,800.00 to hand back at the counter.` }).waitFor();
    // Paid in cash: handed back at the desk, and recorded then (tests/e2e/desk-refunds.test.ts has the rest).
    const due = page.locator('section', { has: page.getByRole('heading', { name: 'Refunds due at the counter' }) });
    await due.getByRole('button', { name: `Record refund for booking ${paidId}` }).click();
    await page
      .getByRole('dialog', { name: `Record refund for booking ${paidId}` })
      .getByRole('button', { name: 'Record refund' })
      .click();
    await due.getByText(`Refund of ₹1,800.00 handed back for booking ${paidId} recorded successfully.`).waitFor();
    // A cancelled booking leaves the active list; the Cancelled filter shows it with its note.
    await page.getByLabel('Status').selectOption('CANCELLED');
    const all = page.getByRole('region', { name: 'All Booked Slots table', exact: true });
    await all.getByText('Refunded ₹1,800.00').first().waitFor();
    await screenshot(page, 'admin-dashboard-payment-note');
    // The Income page keeps the payment and shows the refund as its own row: history, not a vanished sum.
    await page.goto(`${stack.baseUrl}/admin/Income`);
    const kavya = page.getByRole('region', { name: 'All Transactions table' }).getByRole('row').filter({ hasText: 'Kavya Raman' });
    await kavya.filter({ hasText: 'Refund' }).getByText('-₹1,800.00').waitFor();
    await kavya.filter({ hasText: 'Payment' }).getByText('₹1,800.00').waitFor();
    await page.getByText(/^Collected ₹[\d,.]+ · Refunded ₹[\d,.]+$/).waitFor();
    await screenshot(page, 'admin-income-refund');
    await page.close();

    // The worker tells the client.
    const dir = stack.env.MAIL_OUTBOX_DIR!;
    const deadline = Date.now() + 30_000;
    let mail: string | undefined;
    while (!mail && Date.now() < deadline) {
      for (const f of existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.eml')) : []) {
        const text = readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '');
        if (text.includes('kavya.raman@example.com') && text.includes('Booking cancelled')) mail = text;
      }
      if (!mail) await new Promise((r) => setTimeout(r, 200));
    }
    // Said as it stands when the worker sends it: to be handed back, or handed back, at the centre.
    expect(mail).toContain('handed back to you at the centre');
  });
});

describe('manual booking', () => {
  it('creates an admin-confirmed booking from the modal', async () => {
    const o = await offer(2);
    const day = o.days.find((d) => d.slots.length > 0)!;
    const start = day.slots[0]!.start_time;
    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, OWNER);
    await page.getByRole('button', { name: 'Manual Booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manual Booking' });
    await dialog.getByLabel('Therapist').selectOption('2');
    await dialog.getByLabel('Booking Date').selectOption(day.date);
    await dialog.getByLabel('Time Slot').selectOption(start);
    await dialog.getByLabel('Client Name').fill('Devika Menon');
    await dialog.getByLabel('Client Email').fill('devika.menon@example.com');
    await dialog.getByLabel('Client Mobile').fill('9812345678');
    // Online: how it was settled (issue 31).
    await dialog.getByRole('radio', { name: 'Paid now' }).check();
    await dialog.getByLabel('Payment method').selectOption('CASH');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Create Booking' }).click();
    await page.locator('.adm-notice > span', { hasText: /^Manual booking \d+ created successfully!$/ }).waitFor();
    await page.getByRole('region', { name: 'All Booked Slots', exact: true }).getByText('Devika Menon').waitFor();
    expect(await offered(2, day.date, start)).toBe(false);
    await page.close();
  });
});

describe('the receptionist’s day (issue 19)', () => {
  let holdDate = '';

  it('All Booked Slots: today first, then upcoming, an unpaid hold with its expiry, filters; messages by the action; the panel’s confirmation (screenshots)', async () => {
    // Priya (2): an unpaid online hold on her first free day.
    const priya = (await offer(2)).days.find((d) => d.slots.length > 1)!;
    holdDate = priya.date;
    const holdId = await book(
      onlineBooking({
        therapist_id: 2,
        booking_date: priya.date,
        booking_time_slot_start: priya.slots[1]!.start_time,
        client_full_name: 'Tara Hold',
        client_email: 'tara.hold@example.com',
        client_mobile: '9845000011',
      }),
    );
    for (const viewport of Object.values(VIEWPORTS)) {
      const page = await openPage(browser, { viewport });
      const asked: string[] = [];
      page.on('dialog', (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      const bookingsAsked: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/admin/bookings') bookingsAsked.push(new URL(r.url()).search);
      });
      await signIn(page, OWNER);
      const all = page.locator('section', { has: page.getByRole('heading', { name: 'All Booked Slots' }) });
      await all.getByText('Tara Hold').waitFor();
      await all
        .getByText(/^Unpaid hold · expires \d{1,2}:\d{2} (AM|PM)$/)
        .first()
        .waitFor();
      await page.getByText("Today's sessions first, then upcoming, earliest first.").waitFor();
      // All Booked Slots asked for one page from today, nothing more; Today (issue 31) asked for
      // today's sessions once (and, on a day without any, the next working day's count).
      const lists = bookingsAsked.filter((q) => !q.includes('&to='));
      expect(lists).toEqual([
        expect.stringMatching(/^\?from=\d{4}-\d{2}-\d{2}&status=COMPLETED%2CPENDING%2CINITIATED%2CBLOCKED&order=asc&page=1&page_size=10$/),
      ]);
      expect(bookingsAsked.filter((q) => /^\?from=(\d{4}-\d{2}-\d{2})&to=\1&status=COMPLETED%2CPENDING%2CINITIATED&order=asc$/.test(q))).toHaveLength(1);
      // The dates run forward from today.
      const dates = await all.evaluate((section) =>
        [...section.querySelectorAll('td:nth-child(4), .adm-card__row:nth-child(4) dd')].map((c) => (c.textContent ?? '').replace(/^Today/, '')),
      );
      const sorted = [...dates].sort((a, b) => Date.parse(a) - Date.parse(b));
      expect(dates).toEqual(sorted);
      await expectNoAxeViolations(page);
      await screenshot(page, 'admin-dashboard-day');

      // Filters: Priya's unpaid holds only.
      await page.getByLabel('Therapist', { exact: true }).selectOption({ label: 'Ms. Priya Nair' });
      await page.getByLabel('Status').selectOption('INITIATED');
      await all.getByText('Tara Hold').waitFor();
      await expect.poll(() => bookingsAsked.at(-1)).toMatch(/therapist_id=2&status=INITIATED/);
      await screenshot(page, 'admin-dashboard-filters');

      // The panel's own confirmation, stating what will happen.
      await all.getByRole('button', { name: `Cancel booking ${holdId}` }).click();
      const dialog = page.getByRole('alertdialog', { name: `Are you sure you want to cancel booking ${holdId}? This cannot be undone.` });
      await dialog.getByText(/This is an unpaid hold \(it expires at .+\): nothing has been paid/).waitFor();
      await expectNoAxeViolations(page);
      await screenshot(page, 'admin-confirm-cancel');
      await dialog.getByRole('button', { name: 'Keep booking' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The booking's payment link panel: a link made to copy, in success styling, announced politely (issue 31).
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await all.getByRole('button', { name: `Payment link for booking ${holdId}` }).click();
      const panel = page.getByRole('dialog', { name: `Payment link for booking ${holdId}` });
      // The first viewport makes it; the second finds it made.
      if (viewport === VIEWPORTS.phone) {
        await panel.getByRole('button', { name: 'Create link' }).click();
        await panel.getByText(`Payment link for booking ${holdId} created successfully.`).waitFor();
      }
      await panel.getByRole('button', { name: 'Copy link' }).click();
      const copied = panel.locator('.adm-notice--success[role="status"]', { hasText: 'Link copied to the clipboard.' });
      await copied.waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await panel.getByLabel('Payment link').inputValue());
      await screenshot(page, 'admin-link-copied-notice');
      await panel.getByRole('button', { name: 'Close', exact: true }).click();
      await panel.waitFor({ state: 'detached' });
      expect(asked).toEqual([]);
      await page.close();
    }
  });

  it('the calendar names each entry’s therapist, and on a phone lists the names in full (screenshots)', async () => {
    const page = await openPage(browser, { viewport: VIEWPORTS.phone });
    await signIn(page, OWNER);
    const first = { date: holdDate };
    expect(holdDate).not.toBe('');
    await page.goto(`${stack.baseUrl}/admin/calendar`);
    const wanted = `${monthName(Number(first.date.slice(5, 7)))} ${first.date.slice(0, 4)}`;
    await page.locator('#cal-month').waitFor();
    if ((await page.locator('#cal-month').textContent())?.trim() !== wanted) await page.getByRole('button', { name: /Next/ }).click();
    const agenda = page.getByRole('region', { name: /^Sessions in / });
    await agenda.getByText('Tara Hold').waitFor();
    expect(await agenda.locator('li', { hasText: 'Tara Hold' }).last().textContent()).toMatch(/Tara Hold.*Online · Dr\. Priya Nair/);
    await expectNoAxeViolations(page);
    await screenshot(page, 'admin-calendar-agenda');
    await page.close();
    const wide = await openPage(browser, { viewport: VIEWPORTS.desktop });
    await signIn(wide, OWNER);
    await wide.goto(`${stack.baseUrl}/admin/calendar`);
    await wide.locator('#cal-month').waitFor();
    if ((await wide.locator('#cal-month').textContent())?.trim() !== wanted) await wide.getByRole('button', { name: /Next/ }).click();
    await wide.locator(`td[data-date="${first.date}"] .adm-cal__therapist`).first().waitFor();
    await screenshot(wide, 'admin-calendar-therapists');
    await wide.close();
  });

  it('client search finds Meera though Kabir later gave her e-mail; the client list fits 1280 px (screenshots)', async () => {
    const rohan = (await offer(5)).days.filter((d) => d.slots.length > 2);
    await book(
      offlineBooking({
        booking_date: rohan[0]!.date,
        booking_time_slot_start: rohan[0]!.slots[1]!.start_time,
        client_full_name: 'Meera Pillai',
        client_email: 'meera.family@example.com',
        client_mobile: '9845000021',
        client_note: 'Prefers the quiet room near the garden, if it is free',
      }),
    );
    await book(
      offlineBooking({
        booking_date: rohan[1]!.date,
        booking_time_slot_start: rohan[1]!.slots[2]!.start_time,
        client_full_name: 'Kabir Shah',
        client_email: 'meera.family@example.com',
        client_mobile: '9845000021',
      }),
    );
    for (const viewport of Object.values(VIEWPORTS)) {
      const page = await openPage(browser, { viewport });
      await signIn(page, OWNER);
      // The list shown on load (every client) first; then the search's own answer.
      const onLoad = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/search-clients');
      await page.goto(`${stack.baseUrl}/admin/patients`);
      await onLoad;
      await page.getByLabel('Client name').fill('Meera');
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/admin/search-clients?name=Meera')),
        page.getByRole('button', { name: 'Search' }).click(),
      ]);
      await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
      const phone = viewport.width < 768;
      // A table on a desk screen, cards on a phone; Meera (her name matches) first, then Kabir (her e-mail).
      const results = phone ? page.getByRole('list', { name: 'Search results' }) : page.getByRole('region', { name: 'Search results table' });
      await results.getByText('Meera Pillai').waitFor();
      await results.getByText('Kabir Shah').waitFor();
      expect(await (phone ? results.getByRole('listitem').first() : results.getByRole('row').nth(1)).textContent()).toContain('Meera Pillai');
      await screenshot(page, 'admin-search-meera');
      await page.goto(`${stack.baseUrl}/admin/clients`);
      const table = phone ? page.getByRole('list', { name: 'Client bookings' }) : page.getByRole('region', { name: 'Client bookings table' });
      await table.getByText('Meera Pillai').first().waitFor();
      await screenshot(page, 'admin-clients-list');
      if (viewport.width === 1280) {
        // Therapist, date, time and status are all on screen: nothing scrolls sideways.
        expect(await table.evaluate((t) => t.scrollWidth <= t.clientWidth)).toBe(true);
        for (const header of ['Therapist', 'Date', 'Time', 'Status']) {
          const box = (await table.getByRole('columnheader', { name: header, exact: true }).boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(1280);
        }
      }
      await expectNoAxeViolations(page);
      await page.close();
    }
  });

  it('the manual booking form offers only the therapist’s type and centre and drops a filled blank’s message (screenshots)', async () => {
    for (const viewport of Object.values(VIEWPORTS)) {
      const page = await openPage(browser, { viewport });
      await signIn(page, OWNER);
      await page.getByRole('button', { name: 'Manual Booking' }).click();
      const dialog = page.getByRole('dialog', { name: 'Manual Booking' });
      await dialog.getByLabel('Therapist').waitFor();
      await dialog.getByRole('button', { name: 'Create Booking' }).click();
      await dialog.getByText('Amount is required and must be positive').waitFor();
      await dialog.getByLabel('Therapist').selectOption('5');
      await dialog.getByText('Amount is required and must be positive').waitFor({ state: 'detached' });
      expect(await dialog.getByLabel('Booking Type').locator('option').allTextContents()).toEqual(['Select a type', 'Offline (In-Person)']);
      expect(await dialog.getByLabel('Location').locator('option').allTextContents()).toEqual(['Select a location', 'West Branch']);
      await expectNoAxeViolations(page);
      await screenshot(page, 'admin-manual-booking');
      await page.keyboard.press('Escape');
      await page.close();
    }
  });

  it('/admin/queues typed or bookmarked opens the job queues, which link back; a plain admin gets "Access denied" as the heading (screenshots)', async () => {
    for (const viewport of Object.values(VIEWPORTS)) {
      // Signed out: sign in first, then on to the board.
      const page = await openPage(browser, { viewport });
      await page.goto(`${stack.baseUrl}/admin/queues`);
      await page.waitForURL((u) => u.pathname === '/admin/login' && u.searchParams.get('next') === '/admin/open-queues');
      await page.getByLabel('Email / Username').fill(OWNER.username);
      await page.getByLabel('Password').fill(OWNER.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL('**/admin/queues');
      await page.getByText('mail', { exact: true }).first().waitFor({ timeout: 15_000 });
      const back = page.getByRole('navigation', { name: 'Admin panel' }).getByRole('link', { name: '← Back to the admin panel' });
      await back.waitFor();
      await screenshot(page, 'admin-queues');
      // Signed in (the board's cookie dropped): the address still opens the board.
      await page.context().clearCookies();
      await page.goto(`${stack.baseUrl}/admin/queues`);
      await page.waitForURL('**/admin/queues');
      await page.getByText('mail', { exact: true }).first().waitFor({ timeout: 15_000 });
      await back.click();
      await page.waitForURL('**/admin/dashboard');
      await page.close();

      const staff = await openPage(browser, { viewport });
      await signIn(staff, STAFF);
      await staff.goto(`${stack.baseUrl}/admin/queues`);
      await staff.waitForURL('**/admin/open-queues');
      await staff.getByRole('heading', { level: 1, name: 'Access denied' }).waitFor();
      await expectNoAxeViolations(staff);
      await screenshot(staff, 'admin-access-denied');
      await staff.close();
    }
  });
});

describe('reports', () => {
  it('Download Excel saves the whole ledger: one Inventory sheet, its header, and a row per entry the report shows', async () => {
    // Entries of its own: an in-person booking paid at the desk by UPI, cancelled with ₹500 of it handed back in cash.
    const rohan = (await offer(5)).days.filter((d) => d.slots.length > 0).at(-1)!;
    const id = await book(
      offlineBooking({
        booking_date: rohan.date,
        booking_time_slot_start: rohan.slots[0]!.start_time,
        client_full_name: 'Ishaan Verma',
        client_email: 'ishaan.verma@example.com',
        client_mobile: '9845000011',
      }),
    );
    const owner = { Authorization: `Bearer ${await apiToken(OWNER)}` };
    const post = async (path: string, body: object) => {
      const res = await fetch(`${stack.baseUrl}/api/admin/bookings/${id}/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...owner },
        body: JSON.stringify(body),
      });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    };
    await post('record-payment', { method: 'UPI' });
    await post('cancel', { refund: 'PARTIAL', amount: 500, reason: 'Travel plans changed' });
    await post('record-refund', { method: 'CASH' });

    const page = await openPage(browser, { viewport: VIEWPORTS.desktop, acceptDownloads: true });
    await signIn(page, OWNER);
    // The sidebar's /admin/Reports (the spec's link) redirects to the page's own /admin/reports.
    await page.goto(`${stack.baseUrl}/admin/Reports`);
    expect(new URL(page.url()).pathname).toBe('/admin/reports');
    await page.getByRole('heading', { name: 'Inventory Report' }).waitFor();
    const shown = page.getByRole('region', { name: 'Inventory payments' }).locator('tbody tr');
    await shown.first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Excel' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^Inventory_Report_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());

    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Inventory']);
    const sheet = workbook.getWorksheet('Inventory')!;
    const HEADER = ['Booking Date', 'Booking ID', 'Transaction ID', 'Client Name', 'Client Phone', 'Type', 'Method', 'Reference', 'Reason', 'Amount'];
    // An empty text cell (no transaction id, no reason) reads back as no value.
    const cells = (n: number) => HEADER.map((_, i) => sheet.getRow(n).getCell(i + 1).value ?? '');
    expect(cells(1)).toEqual(HEADER);
    const rows = Array.from({ length: sheet.rowCount - 1 }, (_, i) => cells(i + 2));

    // This test's two entries, as the desk made them.
    const mine = rows.filter((r) => r[1] === id);
    expect(mine.map((r) => [r[0], r[3], r[4], r[5], r[6], r[8], r[9]])).toEqual(
      expect.arrayContaining([
        [rohan.date, 'Ishaan Verma', '9845000011', 'Payment', 'UPI', '', 1800],
        [rohan.date, 'Ishaan Verma', '9845000011', 'Refund', 'CASH', 'Travel plans changed', -500],
      ]),
    );
    expect(mine).toHaveLength(2);
    // Every entry of the ledger, in the report's order (the API's whole list), each as the report has it.
    const res = await fetch(`${stack.baseUrl}/api/admin/reports/inventory`, { headers: owner });
    expect(res.status).toBe(200);
    const ledger = (await res.json()) as { payments: PaymentDto[] };
    expect(rows).toEqual(
      ledger.payments.map((p) => [
        p.booking_date,
        p.booking_id,
        p.payment_transaction_id ?? '',
        p.client_name,
        p.client_phone,
        p.kind === 'PAYMENT' ? 'Payment' : 'Refund',
        p.method,
        p.provider_reference,
        p.reason ?? '',
        p.amount,
      ]),
    );
    // As many rows as the page counts, and the page's first rows are the file's first rows.
    const entries = page.locator('.adm-summary div').filter({ has: page.getByRole('term').filter({ hasText: /^Entries$/ }) });
    expect(await entries.getByRole('definition').textContent()).toBe(String(rows.length));
    const table = await shown.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(table.map(([, client, phone, , transaction]) => [client, phone, transaction])).toEqual(
      rows.slice(0, table.length).map((r) => [r[3] || '--', r[4] || '--', r[2] || '--']),
    );
    await page.close();
  });
});

describe('screens', () => {
  const screens: [string, string][] = [
    ['admin-dashboard', '/admin/dashboard'],
    ['admin-calendar', '/admin/calendar'],
    ['admin-patients', '/admin/patients'],
    ['admin-clients', '/admin/clients?search=Meera'],
    ['admin-cash-up', '/admin/cash-up'],
    ['admin-reports', '/admin/Reports'],
    ['admin-income', '/admin/Income'],
    ['admin-audit-log', '/admin/audit-log'],
  ];

  it.each(Object.entries(VIEWPORTS))('every admin screen at %s has no axe violations (screenshots)', async (_name, viewport) => {
    const page = await openPage(browser, { viewport });
    await page.goto(`${stack.baseUrl}/admin/login`);
    await page.getByRole('heading', { name: 'Admin Login' }).waitFor();
    await expectNoAxeViolations(page);
    await screenshot(page, 'admin-login');
    await signIn(page, OWNER);
    for (const [name, path] of screens) {
      await page.goto(`${stack.baseUrl}${path}`);
      await page.locator('main h1').waitFor();
      await page
        .locator('.adm-loading')
        .first()
        .waitFor({ state: 'detached' })
        .catch(() => {});
      await expectNoAxeViolations(page);
      await screenshot(page, name);
    }
    await page.close();
  });

  it('public pages never load the admin island', async () => {
    const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    for (const path of ['/', '/book', '/about', '/payment-status']) await page.goto(`${stack.baseUrl}${path}`);
    expect(scripts.filter((s) => /Admin|Dashboard|admin-api/.test(s))).toEqual([]);
    await page.close();
  });
});
