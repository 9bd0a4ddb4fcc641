/** The admin panel's end-to-end set-up: the stack, Chromium, an owner and a plain admin, and signing in. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createAdminUser } from '../../shared/core/services/admin-user.service.ts';
import { launchBrowser } from './browser.ts';
import { startStack, type Stack } from './stack.ts';

export const OWNER = { username: 'owner', email: 'owner@wellbeingcentre.in', password: 'owner-password-123', isSuperadmin: true };
export const STAFF = { username: 'staff', email: 'staff@wellbeingcentre.in', password: 'staff-password-123', isSuperadmin: false };

/** Starts the stack (with `env`) and Chromium for the file, with both accounts; stops them after. */
export function panelStack(env: Record<string, string> = {}): { readonly stack: Stack; readonly browser: Browser } {
  const handles = {} as { stack: Stack; browser: Browser };
  beforeAll(async () => {
    handles.stack = await startStack(env);
    handles.browser = await launchBrowser();
    await createAdminUser(handles.stack.database.db, OWNER);
    await createAdminUser(handles.stack.database.db, STAFF);
  });
  afterAll(async () => {
    await handles.browser?.close();
    await handles.stack?.stop();
  });
  return handles;
}

/** Signs `user` in at the panel's login page and waits for the dashboard. */
export async function signInToPanel(page: Page, baseUrl: string, user: { username: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}/admin/login`);
  await page.getByLabel('Email / Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/admin/dashboard');
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
}
