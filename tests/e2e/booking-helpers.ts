import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from '../support/browser.ts';

export type Viewport = { width: number; height: number };

/** A fresh context per journey: its own sessionStorage, as a new visitor would have. */
export async function newJourney(browser: Browser, viewport: Viewport): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err.message));
  return { context, page };
}

/** axe-core must find nothing; the failure names each rule and the first offending nodes. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const summary = result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

/** No horizontal scrolling at this width. */
export async function expectNoHorizontalScroll(page: Page, label: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow on ${label}`).toBeLessThanOrEqual(0);
}

/** Accessibility, layout and a screenshot of the current step. */
export async function checkStep(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await expectNoHorizontalScroll(page, name);
  await screenshot(page, `booking-${name}`);
}

export async function heading(page: Page, text: string): Promise<void> {
  await page.getByRole('heading', { name: text, exact: true }).waitFor({ state: 'visible', timeout: 15_000 });
}

export async function focusedHeading(page: Page): Promise<string> {
  return page.evaluate(() => (document.activeElement?.tagName === 'H2' ? (document.activeElement.textContent ?? '') : ''));
}

export async function continueButton(page: Page) {
  return page.getByRole('button', { name: 'Continue', exact: true });
}

export type SavedState = {
  currentStep: number;
  bookingType: string | null;
  selectedTherapist: { id: number; name: string } | null;
  selectedLocation: { id: number } | null;
  selectedTimeSlot: { date: string; start_time: string } | null;
  clientInfo: Record<string, unknown>;
};

export async function savedState(page: Page): Promise<SavedState> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('booking-state') ?? 'null'));
}

export const CLIENT = {
  fullName: 'Meera Sharma',
  email: 'meera.sharma@example.in',
  mobile: '9876543210',
  age: '34',
  state: 'Maharashtra',
  city: 'Mumbai',
  notes: 'First session, feeling anxious at work.',
};

/** Fills the details form by clicking and typing, as most visitors do. */
export async function fillDetails(page: Page, withPlace: boolean): Promise<void> {
  await page.getByLabel('Full name').fill(CLIENT.fullName);
  await page.getByLabel('Email').fill(CLIENT.email);
  await page.getByLabel('Mobile number').fill(CLIENT.mobile);
  await page.getByLabel('Age').fill(CLIENT.age);
  if (withPlace) {
    await page.getByLabel('State').selectOption(CLIENT.state);
    await page.getByLabel('City').selectOption(CLIENT.city);
  }
  await page.getByLabel('Notes').fill(CLIENT.notes);
  // Consent is the client's own act: the box starts unticked.
  await page.getByLabel(/I accept the/).check();
}

/** Presses Tab until the focused element matches, proving it is reachable by keyboard. */
export async function tabTo(page: Page, selector: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
  }
  throw new Error(`Could not reach ${selector} with the Tab key`);
}

/** From the wizard's first step: Online, then `therapist`, on to "Select Date & Time". */
export async function onlineWithTherapist(page: Page, therapist: string): Promise<void> {
  await heading(page, 'How would you like to meet?');
  await page.getByText('Online Session', { exact: true }).click();
  await (await continueButton(page)).click();
  await heading(page, 'Select Your Therapist');
  await page.getByRole('button', { name: `Select ${therapist}` }).click();
  await heading(page, 'Select Date & Time');
}

/** From a picked time: on to the details, filled in, and on to "Review and Pay". */
export async function detailsToReview(page: Page): Promise<void> {
  await (await continueButton(page)).click();
  await heading(page, 'Your Information');
  await fillDetails(page, true);
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await heading(page, 'Review and Pay');
}

/** From "Review and Pay": paid at the sandbox's checkout, until "Booking Confirmed!". */
export async function payInSandbox(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL(/\/sandbox\/checkout\/[^/?#]+/, { timeout: 30_000 });
  await page.getByRole('button', { name: /^Pay ₹/ }).click();
  await page.waitForURL(/\/payment-status\?/, { timeout: 30_000 });
  await heading(page, 'Booking Confirmed!');
}

/** An online session with `therapist` at the first free time, booked and paid as a client does it. */
export async function bookAndPayOnline(page: Page, therapist: string): Promise<void> {
  await onlineWithTherapist(page, therapist);
  await page.locator('.time-option').first().click();
  await detailsToReview(page);
  await payInSandbox(page);
}
