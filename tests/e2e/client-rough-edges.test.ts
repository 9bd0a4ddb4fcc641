/**
 * Issue 19, the client's items, in Debian's Chromium against the real server, database and worker,
 * at 390×844 and 1280×800, with axe and screenshots of each fixed screen.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAdminUser } from '../../shared/core/services/admin-user.service.ts';
import { addDays, centreNow } from '../../shared/domain/time.ts';
import { blogPosts } from '../../site/src/lib/blog-posts.ts';
import { screenshot, stackAndBrowserPerFile, VIEWPORTS } from '../support/browser.ts';
import { waitForMail } from '../support/outbox.ts';
import { OWNER } from '../support/panel-e2e.ts';
import type { Stack } from '../support/stack.ts';
import {
  continueButton,
  detailsToReview,
  expectAccessible,
  expectNoHorizontalScroll,
  heading,
  newJourney,
  onlineWithTherapist,
  savedState,
} from './booking-helpers.ts';

let stack: Stack;
let browser: Browser;

stackAndBrowserPerFile((started) => ({ stack, browser } = started));

const SIZES = [
  ['phone', VIEWPORTS.phone],
  ['desktop', VIEWPORTS.desktop],
] as const;

/** Online booking with a therapist and the slot at `slotIndex`, up to the payment step. */
async function onlineToPayment(page: Page, therapist: string, slotIndex: number): Promise<void> {
  await page.goto(`${stack.baseUrl}/book`);
  await onlineWithTherapist(page, therapist);
  await page.locator('.time-option').nth(slotIndex).click();
  await detailsToReview(page);
}

describe('1, 2, 5, 6: Back from the checkout, a failed payment, and the confirmation', () => {
  it.each(SIZES)(
    'pays again on the same booking and link, retries after a failure, and confirms with the video link and Add to calendar (%s)',
    async (name, viewport) => {
      const { context, page } = await newJourney(browser, viewport);
      await onlineToPayment(page, name === 'phone' ? 'Priya Nair' : 'Arjun Iyer', 1);
      expect(await page.locator('.summary-card').getByText(/ IST$/).count()).toBe(1);
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(/\/sandbox\/checkout\/plink_[A-Za-z0-9]{14}$/, { timeout: 30_000 });
      const checkout = page.url();
      await expectAccessible(page, 'sandbox checkout');
      await screenshot(page, 'sandbox-checkout');

      // The browser's Back from the checkout: the payment step again, not "Processing…" for ever.
      await page.goBack();
      await heading(page, 'Review and Pay');
      expect(await page.getByRole('heading', { name: 'Processing payment and redirecting...' }).count()).toBe(0);
      await expectAccessible(page, 'payment step after Back from the checkout');
      await screenshot(page, 'booking-back-from-checkout');
      // Pay again: the same booking and its link, never "This time slot has just been booked".
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30_000 });
      expect(page.url()).toBe(checkout);

      // The payment fails: the page offers the same link again while the hold lasts.
      await page.getByRole('button', { name: 'Fail' }).click();
      await page.waitForURL(/\/payment-status\?/, { timeout: 30_000 });
      await heading(page, 'Payment Failed!');
      const retry = page.getByRole('link', { name: 'Try payment again' });
      await retry.waitFor();
      expect(await retry.getAttribute('href')).toBe(checkout);
      const bookingId = new URL(page.url()).searchParams.get('razorpay_payment_link_reference_id')!;
      expect(await page.locator('.summary-row', { hasText: 'Booking reference' }).textContent()).toContain(bookingId);
      expect(await page.locator('.hold-left').textContent()).toMatch(/about (19|20) minutes \(until \d{1,2}:\d{2} (AM|PM) IST\)/);
      expect(await page.locator('.status-card').getByRole('link', { name: '+91 98200 00000' }).getAttribute('href')).toBe('tel:+919820000000');
      await expectAccessible(page, 'payment failed');
      await expectNoHorizontalScroll(page, 'payment failed');
      await screenshot(page, 'payment-failed-retry');

      await retry.click();
      await page.waitForURL(checkout);
      await page.getByRole('button', { name: /^Pay ₹/ }).click();
      await page.waitForURL(/\/payment-status\?/, { timeout: 30_000 });
      await heading(page, 'Booking Confirmed!');
      // The worker makes the video link just after the payment; the page waits for it.
      await page.getByRole('link', { name: /https:\/\/meet\.jit\.si\// }).waitFor({ timeout: 30_000 });
      expect(await page.locator('.summary-row', { hasText: 'Payment status' }).textContent()).toBe('Payment statusPaid');
      expect(await page.locator('.summary-row', { hasText: 'Time' }).textContent()).toMatch(/IST$/);
      // Add to calendar is the server's invitation for the session (issue 31): the e-mail's event, with its meeting link.
      const ics = page.getByRole('link', { name: 'Download .ics' });
      expect(await ics.getAttribute('download')).toBe(`therapy-session-${bookingId}.ics`);
      const icsPath = (await ics.getAttribute('href'))!;
      expect(icsPath).toMatch(/^\/api\/manage\/[A-Za-z0-9_-]{43}\/session\.ics$/);
      const icsText = await (await page.request.get(`${stack.baseUrl}${icsPath}`)).text();
      expect(icsText.replace(/\r\n /g, '')).toContain('LOCATION:https://meet.jit.si/');
      expect(await page.getByRole('link', { name: /Google Calendar/ }).count()).toBe(0);
      await expectAccessible(page, 'booking confirmed with calendar');
      await expectNoHorizontalScroll(page, 'booking confirmed');
      await screenshot(page, 'booking-confirmed-calendar');
      await context.close();
    },
  );
});

describe('4: the browser’s Back and Forward move between steps', () => {
  it('each step has its own history entry and address', async () => {
    const { context, page } = await newJourney(browser, VIEWPORTS.phone);
    await page.goto(`${stack.baseUrl}/book`);
    await heading(page, 'How would you like to meet?');
    await page.getByText('In-Person Session', { exact: true }).click();
    await (await continueButton(page)).click();
    await heading(page, 'Select Location');
    expect(new URL(page.url()).search).toBe('?step=location');
    await page.getByText('West Branch', { exact: true }).click();
    await (await continueButton(page)).click();
    await heading(page, 'Select Your Therapist');
    expect(new URL(page.url()).search).toBe('?step=therapist');

    await page.goBack();
    await heading(page, 'Select Location');
    await page.goBack();
    await heading(page, 'How would you like to meet?');
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/book');
    await page.goForward();
    await heading(page, 'Select Location');
    await page.goForward();
    await heading(page, 'Select Your Therapist');
    expect((await savedState(page)).currentStep).toBe(3);
    await context.close();
  });
});

describe('10: therapist cards', () => {
  it.each(SIZES)('show languages and the next free slot (%s)', async (_name, viewport) => {
    const { context, page } = await newJourney(browser, viewport);
    await page.goto(`${stack.baseUrl}/book`);
    await page.getByText('Online Session', { exact: true }).click();
    await (await continueButton(page)).click();
    await heading(page, 'Select Your Therapist');
    const card = page.locator('.therapist-card', { hasText: 'Asha Mehta' });
    await expect.poll(() => card.locator('.therapist-next').textContent()).toMatch(/^(Today|[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}), \d{1,2}:\d{2} (AM|PM) IST$/);
    expect(await card.locator('dt', { hasText: 'Languages' }).locator('xpath=following-sibling::dd').textContent()).toBe('English, Hindi, Gujarati');
    await expectAccessible(page, 'therapist cards');
    await screenshot(page, 'booking-therapist-cards');
    await context.close();
  });
});

/** The page's cumulative layout shift, as Chromium reports it (no input: a fresh load). */
async function layoutShift(page: Page, url: string): Promise<number> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!e.hadRecentInput) w.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await heading(page, 'How would you like to meet?');
  await page.waitForFunction(() => [...document.querySelectorAll('astro-island')].every((i) => !i.hasAttribute('ssr')));
  // The live wizard, not the placeholder, is what the page shows now.
  await page.locator('.wizard-placeholder').waitFor({ state: 'detached' });
  return page.evaluate(() => (window as unknown as { __cls: number }).__cls);
}

describe('9: the wizard keeps its space, and says what to do without JavaScript', () => {
  it.each(SIZES)('nothing below the wizard moves when it loads: layout shift under 0.05 on / and /book (%s)', async (name, viewport) => {
    for (const path of ['/', '/book']) {
      const { context, page } = await newJourney(browser, viewport);
      const cls = await layoutShift(page, `${stack.baseUrl}${path}`);
      expect(cls, `${path} at ${name}`).toBeLessThan(0.05);
      await context.close();
    }
  });

  it.each(SIZES)('with JavaScript off, /book says booking needs it and gives the phone number (%s)', async (_name, viewport) => {
    const context = await browser.newContext({ viewport, javaScriptEnabled: false, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${stack.baseUrl}/book`);
    await page.getByRole('heading', { name: 'Online booking needs JavaScript' }).waitFor();
    expect(await page.locator('.booking-nojs').getByRole('link', { name: '+91 98200 00000' }).getAttribute('href')).toBe('tel:+919820000000');
    // The inert placeholder of the first step is not shown, as it could never come alive.
    expect(await page.locator('.wizard-placeholder').isVisible()).toBe(false);
    await screenshot(page, 'book-no-javascript');
    await context.close();
  });
});

describe('11: the phone menu', () => {
  it('opens from its button and closes with Escape', async () => {
    const { context, page } = await newJourney(browser, VIEWPORTS.phone);
    await page.goto(`${stack.baseUrl}/about`);
    const toggle = page.getByRole('button', { name: 'Menu' });
    const panel = page.locator('#nav-mobile-panel');
    expect(await panel.isVisible()).toBe(false);
    await toggle.click();
    await panel.getByRole('link', { name: 'Contact' }).waitFor();
    await expectAccessible(page, 'phone menu open');
    await screenshot(page, 'phone-menu-open');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    // A tap outside closes it too.
    await toggle.click();
    await panel.waitFor();
    await page.mouse.click(195, 800);
    await panel.waitFor({ state: 'hidden' });
    await context.close();
  });
});

/** Every public page the site builds, with the sandbox checkout of a real booking. */
const PUBLIC_PAGES = [
  '/',
  '/book',
  '/about',
  '/team',
  '/blogs',
  ...blogPosts.map((p) => `/blogs/${p.slug}`),
  '/faq',
  '/packages',
  '/contact',
  '/disclaimer',
  '/refund-and-cancellation-policy',
  '/privacy-policy',
  '/terms-and-conditions',
  '/payment-status',
  '/no-such-page',
];

describe('12: what crawlers, browsers and sharing find', () => {
  it('serves /robots.txt, /sitemap.xml and the icons', async () => {
    const robots = await fetch(`${stack.baseUrl}/robots.txt`);
    expect(robots.status).toBe(200);
    const robotsText = await robots.text();
    expect(robotsText).toContain('Disallow: /admin/');
    expect(robotsText).toMatch(/^Sitemap: https?:\/\/[^\s]+\/sitemap\.xml$/m);
    const sitemap = await fetch(`${stack.baseUrl}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toMatch(/xml/);
    const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(locs).toEqual(expect.arrayContaining(['/', '/book', '/contact', '/terms-and-conditions', `/blogs/${blogPosts[0]!.slug}`]));
    expect(locs.some((p) => p.startsWith('/admin') || p === '/payment-status')).toBe(false);
    for (const icon of ['/favicon.ico', '/favicon.svg', '/apple-touch-icon.png', '/og-image.png']) {
      expect((await fetch(`${stack.baseUrl}${icon}`)).status, icon).toBe(200);
    }
  });

  it('every public page has a canonical link, a share image and its icons', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    for (const path of PUBLIC_PAGES.filter((p) => p !== '/no-such-page' && p !== '/payment-status')) {
      await page.goto(`${stack.baseUrl}${path}`);
      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
      expect(new URL(canonical!).pathname, path).toBe(path);
      expect(await page.locator('meta[property="og:image"]').getAttribute('content'), path).toMatch(/\/og-image\.png$/);
      expect(await page.locator('link[rel="icon"][href="/favicon.ico"]').count(), path).toBe(1);
    }
    await page.close();
  });

  it.each(SIZES)('the Contact page gives each centre its own phone, as the booking form does; no social link points nowhere (%s)', async (_name, viewport) => {
    const page = await browser.newPage({ viewport });
    const centres = (await (await fetch(`${stack.baseUrl}/locations`)).json()) as { name: string; phone: string }[];
    await page.goto(`${stack.baseUrl}/contact`);
    for (const c of centres) {
      const card = page.locator('.centre', { hasText: c.name });
      expect(await card.getByRole('link', { name: c.phone }).count(), c.name).toBe(1);
    }
    expect(new Set(centres.map((c) => c.phone)).size).toBe(centres.length);
    // No SOCIAL_*_URL is set here: the footer shows no social links at all.
    expect(await page.locator('footer .social').count()).toBe(0);
    expect(await page.locator('a[href="https://www.instagram.com/"]').count()).toBe(0);
    await screenshot(page, 'contact');
    await page.close();
  });
});

/** POST as the owner (signed in once), answering the JSON. */
async function asOwner<T>(url: string, body: unknown): Promise<T> {
  const json = { 'Content-Type': 'application/json' };
  const login = await fetch(`${stack.baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const res = await fetch(`${stack.baseUrl}${url}`, {
    method: 'POST',
    headers: { ...json, Authorization: `Bearer ${access_token}` },
    body: JSON.stringify(body),
  });
  expect(res.status, url).toBeLessThan(300);
  return (await res.json()) as T;
}

let privateLinks: Promise<string[]> | undefined;

/**
 * The client's private pages with valid links (issue 34), as their e-mails give them: a package sold at
 * the desk (/my-package) and a place on a waitlist (/waitlist).
 */
function privatePages(): Promise<string[]> {
  privateLinks ??= (async () => {
    await createAdminUser(stack.database.db, OWNER);
    const outbox = stack.env.MAIL_OUTBOX_DIR!;
    const made = await asOwner<{ package: { id: number } }>('/api/admin/packages', {
      name: 'Six Sessions',
      sessions_count: 6,
      price: 9000,
      validity_days: 120,
      session_types: [],
      therapist_ids: [],
      is_active: true,
    });
    await asOwner('/api/admin/package-sales', {
      package_id: made.package.id,
      client_full_name: 'Axe Package',
      client_email: 'axe.package@example.in',
      client_mobile: '9866677788',
      payment_method: 'UPI',
    });
    const therapists = (await (await fetch(`${stack.baseUrl}/therapists`)).json()) as { id: number }[];
    const from = addDays(centreNow().date, 2);
    const joined = await fetch(`${stack.baseUrl}/api/waitlist`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        therapist_id: therapists[0]!.id,
        from_date: from,
        to_date: addDays(from, 3),
        times: ['morning', 'evening'],
        client_full_name: 'Axe Waitlist',
        client_email: 'axe.waitlist@example.in',
        client_mobile: '9877788899',
      }),
    });
    expect(joined.status).toBe(200);
    const links = await Promise.all([
      waitForMail(outbox, 'axe.package@example.in', /\/my-package\?token=/),
      waitForMail(outbox, 'axe.waitlist@example.in', /\/waitlist\?token=/),
    ]);
    return links.map((m) =>
      new URL(m.text.match(/https?:\/\/[^\s"'<>]+\/(?:my-package|waitlist)\?token=[A-Za-z0-9_-]{43}/)![0]).href.replace(stack.baseUrl, ''),
    );
  })();
  return privateLinks;
}

describe('13 and done-when: axe finds nothing on any public page, the sandbox checkout included', () => {
  it.each(SIZES)('%s', async (_name, viewport) => {
    const { context, page } = await newJourney(browser, viewport);
    for (const path of [...PUBLIC_PAGES, ...(await privatePages())]) {
      await page.goto(`${stack.baseUrl}${path}`, { waitUntil: 'networkidle' });
      await expectAccessible(page, path);
    }
    await context.close();
  });
});
