import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, VIEWPORTS } from '../support/browser.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { CLIENT, checkStep, continueButton, expectAccessible, fillDetails, focusedHeading, heading, newJourney, savedState, tabTo } from './booking-helpers.ts';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('offline booking, start to pending confirmation', () => {
  it('on a phone (390×844), by touch: every step accessible, then the in-person confirmation', async () => {
    const { context, page } = await newJourney(browser, VIEWPORTS.phone);
    await page.goto(`${stack.baseUrl}/book`);

    await heading(page, 'How would you like to meet?');
    await expect.poll(() => page.getByText('Step 1 of 5', { exact: true }).isVisible()).toBe(true);
    expect(await (await continueButton(page)).isDisabled()).toBe(true);
    await checkStep(page, '1-type');
    await page.getByText('In-Person Session', { exact: true }).click();
    await expect.poll(() => page.getByText('Step 1 of 6', { exact: true }).isVisible()).toBe(true);
    await (await continueButton(page)).click();

    await heading(page, 'Select Location');
    expect(await focusedHeading(page)).toBe('Select Location');
    await page.getByText('East Branch', { exact: true }).waitFor();
    // Reverse of the API's order: East (id 2) before West (id 1).
    const names = await page.locator('.choice-title').allTextContents();
    expect(names).toEqual(['East Branch', 'West Branch']);
    expect(await (await continueButton(page)).isDisabled()).toBe(true);
    await page.locator('img[src="/get_location_image/2.png"]').waitFor();
    await checkStep(page, '2-location');
    await page.getByText('East Branch', { exact: true }).click();
    await (await continueButton(page)).click();

    await heading(page, 'Select Your Therapist');
    await page.getByRole('button', { name: 'Select Vikram Desai' }).waitFor();
    // Offline at East Branch: only the two therapists there.
    expect(await page.locator('.therapist-name').allTextContents()).toEqual(['Vikram Desai', 'Sameer Kulkarni']);
    await expect.poll(() => page.getByText('+3 more').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('₹2,500').isVisible()).toBe(true);
    await checkStep(page, '3-therapist');
    await page.getByRole('button', { name: 'Select Vikram Desai' }).click();

    await heading(page, 'Select Date & Time');
    expect(await focusedHeading(page)).toBe('Select Date & Time');
    await page.locator('.time-option').first().waitFor();
    expect(await page.locator('.date-btn').count()).toBe(4); // under 768px
    expect(await page.locator('.date-btn[aria-pressed="true"]').count()).toBe(1);
    expect(await page.locator('.time-option').first().textContent()).toMatch(/^\d{1,2}:\d{2} (AM|PM)$/);
    expect(await (await continueButton(page)).isDisabled()).toBe(true);
    await checkStep(page, '4-slot');
    await page.locator('.time-option').first().click();
    await (await continueButton(page)).click();

    await heading(page, 'Your Information');
    await expect.poll(() => page.getByText('Please arrive 10 minutes early for your in-person session.').isVisible()).toBe(true);
    await fillDetails(page, false);
    await checkStep(page, '5-details');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();

    await heading(page, 'Review and Pay');
    await expect.poll(() => page.locator('.summary-card').getByText('East Branch').isVisible()).toBe(true);
    await expect.poll(() => page.locator('.summary-card').getByText(CLIENT.fullName).isVisible()).toBe(true);
    await checkStep(page, '6-payment');
    await page.getByRole('button', { name: 'Confirm Booking' }).click();

    await page.waitForURL(/\/payment-status\?razorpay_payment_link_id=[0-9a-f-]{36}&razorpay_payment_link_status=pending&booking_id=\d+/);
    await heading(page, 'Booking Confirmed!');
    await expect.poll(() => page.getByText('Payment status: Pending.').isVisible()).toBe(true);
    // The server found the booking by its transaction id: the centre's address is on the page.
    await expect
      .poll(() =>
        page
          .getByText(/Kandivali East/)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await checkStep(page, '7-pending-confirmation');
    // The booking state is reset once the booking exists.
    expect((await savedState(page)).currentStep).toBe(1);
    await context.close();
  });

  it('on a desktop (1280×800), with the keyboard alone', async () => {
    const { context, page } = await newJourney(browser, VIEWPORTS.desktop);
    await page.goto(`${stack.baseUrl}/`);
    await heading(page, 'How would you like to meet?');
    await expect.poll(() => page.locator('.steps-full').isVisible()).toBe(true);
    await checkStep(page, '1-type');

    await tabTo(page, 'input[name="booking-type"]');
    await page.keyboard.press('ArrowRight'); // moves to and selects In-Person
    expect((await savedState(page)).bookingType).toBe('offline');
    await tabTo(page, 'button.btn-primary');
    await page.keyboard.press('Enter');

    await heading(page, 'Select Location');
    await page.getByText('West Branch', { exact: true }).waitFor();
    expect(await focusedHeading(page)).toBe('Select Location');
    await checkStep(page, '2-location');
    await tabTo(page, 'input[name="location"]');
    await page.keyboard.press('ArrowDown'); // East → West Branch
    expect((await savedState(page)).selectedLocation?.id).toBe(1);
    await tabTo(page, 'button.btn-primary:not([disabled])');
    await page.keyboard.press('Enter');

    await heading(page, 'Select Your Therapist');
    await page.getByRole('button', { name: 'Select Rohan Kapoor' }).waitFor();
    expect(await page.locator('.therapist-name').allTextContents()).toEqual(['Rohan Kapoor', 'Neha Joshi']);
    await checkStep(page, '3-therapist');
    await tabTo(page, '.therapist-action button');
    await page.keyboard.press('Enter');

    await heading(page, 'Select Date & Time');
    await page.locator('.time-option').first().waitFor();
    expect(await page.locator('.date-btn').count()).toBe(6);
    await checkStep(page, '4-slot');
    // Arrows shift the strip by one date.
    const secondBefore = await page.locator('.date-btn').nth(1).getAttribute('aria-label');
    await tabTo(page, 'button[aria-label="Later dates"]');
    await page.keyboard.press('Enter');
    expect(await page.locator('.date-btn').first().getAttribute('aria-label')).toBe(secondBefore);
    await tabTo(page, 'input[name="time-slot"]');
    await page.keyboard.press('Space');
    expect((await savedState(page)).selectedTimeSlot).not.toBeNull();
    await tabTo(page, 'button.btn-primary:not([disabled])');
    await page.keyboard.press('Enter');

    await heading(page, 'Your Information');
    await tabTo(page, '#f-fullName');
    await page.keyboard.type(CLIENT.fullName);
    await page.keyboard.press('Tab');
    await page.keyboard.type(CLIENT.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(CLIENT.mobile);
    await page.keyboard.press('Tab');
    await page.keyboard.type(CLIENT.age);
    await tabTo(page, 'input[name="session-type"]');
    await page.keyboard.press('ArrowRight'); // Couple
    // Consent is the client's own act: the terms box starts unticked.
    await tabTo(page, '#f-terms');
    await page.keyboard.press('Space');
    await checkStep(page, '5-details');
    await tabTo(page, 'button[type="submit"]');
    await page.keyboard.press('Enter');

    await heading(page, 'Review and Pay');
    expect(await focusedHeading(page)).toBe('Review and Pay');
    await expect.poll(() => page.locator('.summary-card').getByText('Couple').isVisible()).toBe(true);
    await checkStep(page, '6-payment');
    await tabTo(page, 'button.btn-primary');
    await page.keyboard.press('Enter');

    await page.waitForURL(/\/payment-status\?/);
    await heading(page, 'Booking Confirmed!');
    await checkStep(page, '7-pending-confirmation');
    await tabTo(page, '.status-actions button');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.baseUrl}/`);
    await heading(page, 'How would you like to meet?');
    await context.close();
  });
});

describe('the pages that host the islands', () => {
  it('/payment-status without a link id or status says the link is invalid', async () => {
    const { context, page } = await newJourney(browser, VIEWPORTS.phone);
    await page.goto(`${stack.baseUrl}/payment-status`);
    await heading(page, 'Payment Failed!');
    await expect.poll(() => page.getByText('Payment was unsuccessful or the payment link is invalid.').isVisible()).toBe(true);
    await expectAccessible(page, 'payment-status invalid');
    await screenshot(page, 'payment-status-invalid');
    await page.goto(`${stack.baseUrl}/payment-status?razorpay_payment_link_id=plink_x&razorpay_payment_link_status=cancelled`);
    await heading(page, 'Payment Failed!');
    await expect.poll(() => page.getByText('Your payment could not be processed.').isVisible()).toBe(true);
    await context.close();
  });
});
