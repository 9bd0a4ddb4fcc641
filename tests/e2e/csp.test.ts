/**
 * The Content-Security-Policy end to end: no page of the built site, the booking wizard through the
 * sandbox checkout, the admin screens or Bull Board trips it, and the islands still hydrate (their
 * loader is an inline script, allowed by its hash only).
 */
import { readdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser } from '../../shared/core/services/admin-user.service.ts';
import { blogPosts } from '../../site/src/lib/blog-posts.ts';
import { ADMIN_ROUTES } from '../../site/src/lib/admin-nav.ts';
import { launchBrowser, openPage, recordCspViolations, VIEWPORTS } from '../support/browser.ts';
import { ROOT, startStack, type Stack } from '../support/stack.ts';
import { bookAndPayOnline } from './booking-helpers.ts';

let stack: Stack;
let browser: Browser;
const OWNER = { username: 'csp-owner', email: 'csp.owner@wellbeingcentre.in', password: 'owner-password-123', isSuperadmin: true };

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  await createAdminUser(stack.database.db, OWNER);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Every public page, from site/src/pages (admin pages are visited signed in, below). */
function publicPaths(): string[] {
  const pages = readdirSync(`${ROOT}site/src/pages`).filter((f) => f.endsWith('.astro') && f !== '404.astro');
  const paths = pages.map((f) => (f === 'index.astro' ? '/' : `/${f.replace(/\.astro$/, '')}`));
  return [...paths, '/blogs', ...blogPosts.map((p) => `/blogs/${p.slug}`), '/no-such-page'];
}

async function cspPage(): Promise<{ page: Page; violations: string[] }> {
  const page = await openPage(browser, { viewport: VIEWPORTS.desktop });
  const violations = await recordCspViolations(page);
  return { page, violations };
}

/** An island has hydrated once React has attached to its root: Astro removes the `ssr` attribute then. */
async function islandsHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.querySelectorAll('astro-island')].every((i) => !i.hasAttribute('ssr')), undefined, { timeout: 15_000 });
}

describe('Content-Security-Policy', () => {
  it('no site page trips it, and none allows inline scripts but by hash', async () => {
    const { page, violations } = await cspPage();
    for (const path of publicPaths()) {
      const res = await page.goto(`${stack.baseUrl}${path}`, { waitUntil: 'load' });
      const csp = res!.headers()['content-security-policy'] ?? '';
      expect(csp, path).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')*;/);
      expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      await islandsHydrated(page);
    }
    expect(violations).toEqual([]);
    await page.close();
  });

  it('the wizard hydrates and runs through the sandbox checkout to /payment-status with no violation', async () => {
    const { page, violations } = await cspPage();
    await page.goto(`${stack.baseUrl}/book`);
    // Interactive: each click moves the wizard on, which only the hydrated island does.
    await bookAndPayOnline(page, 'Asha Mehta');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('the admin sign-in, every admin screen and Bull Board, signed in as a super admin, with no violation', async () => {
    const { page, violations } = await cspPage();
    await page.goto(`${stack.baseUrl}${ADMIN_ROUTES.login}`);
    await page.getByLabel('Email / Username').fill(OWNER.username);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/admin/dashboard');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    for (const path of [
      ADMIN_ROUTES.dashboard,
      ADMIN_ROUTES.calendar,
      ADMIN_ROUTES.patients,
      ADMIN_ROUTES.clients,
      ADMIN_ROUTES.reports,
      ADMIN_ROUTES.income,
      ADMIN_ROUTES.auditLog,
    ]) {
      await page.goto(`${stack.baseUrl}${path}`);
      await islandsHydrated(page);
      // The admin island renders its navigation once it has the signed-in user.
      await page.getByRole('navigation', { name: 'Admin' }).waitFor();
    }
    await page.getByRole('link', { name: 'Job Queues' }).click();
    await page.waitForURL(`**${ADMIN_ROUTES.queues}**`);
    // Bull Board's own app rendered: its queue list names ours.
    await page.getByText('mail', { exact: true }).first().waitFor({ timeout: 15_000 });
    expect(violations).toEqual([]);
    await page.close();
  });
});
