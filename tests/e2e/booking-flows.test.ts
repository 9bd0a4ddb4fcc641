import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, stackAndBrowserPerFile, VIEWPORTS } from '../support/browser.ts';
import type { Stack } from '../support/stack.ts';
import {
  CLIENT,
  continueButton,
  expectAccessible,
  expectNoHorizontalScroll,
  fillDetails,
  heading,
  newJourney,
  onlineWithTherapist,
  savedState,
} from './booking-helpers.ts';

let stack: Stack;
let browser: Browser;

stackAndBrowserPerFile((started) => ({ stack, browser } = started));

/** Online: type → therapist → a free slot (by index; -1 the last; on the nth date with slots) → the details form. */
async function onlineToDetails(page: Page, therapist: string, slotIndex = 0, dateIndex = 0): Promise<void> {
  await page.goto(`${stack.baseUrl}/book`);
  await onlineWithTherapist(page, therapist);
  if (dateIndex > 0) await page.locator('.date-btn:not(.is-empty)').nth(dateIndex).click();
  const times = page.locator('.time-option');
  await (slotIndex < 0 ? times.last() : times.nth(slotIndex)).click();
  await (await continueButton(page)).click();
  await heading(page, 'Your Information');
}

describe('details form validation in the browser', () => {
  it.each([
    ['phone', VIEWPORTS.phone],
    ['desktop', VIEWPORTS.desktop],
  ] as const)('shows every message under its field and announces them (%s)', async (_name, viewport) => {
    const { context, page } = await newJourney(browser, viewport);
    await onlineToDetails(page, 'Priya Nair');
    // The terms box starts unticked (consent is the client's own act).
    expect(await page.getByLabel(/I accept the/).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    for (const m of [
      'Full name is required',
      'Email is required',
      'Mobile number is required',
      'Age is required',
      'State is required',
      'City is required',
      'You must accept the terms and conditions',
    ]) {
      await page.getByText(m, { exact: true }).waitFor();
    }
    expect(await page.getByRole('alert').first().textContent()).toContain('Please correct the 7 highlighted fields.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-fullName');
    expect(await page.getByLabel('Full name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('City').isDisabled()).toBe(true);
    await expectAccessible(page, 'details with errors');
    await expectNoHorizontalScroll(page, 'details with errors');
    await screenshot(page, 'booking-details-errors');

    await page.getByLabel('Email').fill('meera@example');
    await page.getByLabel('Mobile number').fill('98765');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByText('Please enter a valid email address', { exact: true }).waitFor();
    await page.getByText('Mobile number must be 10 digits', { exact: true }).waitFor();
    // A number typed or pasted in a common Indian form is kept whole, then shown as its 10 digits.
    for (const written of ['09876543210', '+91 98765 43210', '91-98765-43210']) {
      await page.getByLabel('Mobile number').fill('');
      await page.getByLabel('Mobile number').pressSequentially(written);
      expect(await page.getByLabel('Mobile number').inputValue()).toBe(written);
      await page.getByLabel('Age').focus();
      expect(await page.getByLabel('Mobile number').inputValue()).toBe('9876543210');
    }
    await page.getByLabel('Email').fill('user@example..com');
    await page.getByLabel('Age').fill('12');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByText('Please enter a valid email address', { exact: true }).waitFor();
    await page.getByText('A parent or guardian must agree to this booking for a client under 18', { exact: true }).waitFor();
    expect(await page.getByText('Mobile number must be 10 digits', { exact: true }).count()).toBe(0);
    await expectAccessible(page, 'details with the guardian consent');
    await screenshot(page, 'booking-details-guardian');
    await context.close();
  });
});

describe('reload in the middle keeps progress', () => {
  it('keeps the step, the chosen slot and the typed details across a reload', async () => {
    const { context, page } = await newJourney(browser, VIEWPORTS.phone);
    // The last time of the first day with slots: late in the day the first day may have only one.
    await onlineToDetails(page, 'Arjun Iyer', -1);
    const before = await savedState(page);
    await page.getByLabel('Full name').fill(CLIENT.fullName);
    await page.getByLabel('State').selectOption('Karnataka');
    await page.reload();
    await heading(page, 'Your Information');
    expect(await page.getByLabel('Full name').inputValue()).toBe(CLIENT.fullName);
    expect(await page.getByLabel('State').inputValue()).toBe('Karnataka');
    expect(await page.getByText('Step 4 of 5', { exact: true }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Back' }).click();
    await heading(page, 'Select Date & Time');
    await page.locator('.time-option.is-selected').waitFor();
    expect((await savedState(page)).selectedTimeSlot).toEqual(before.selectedTimeSlot);
    await page.reload();
    await heading(page, 'Select Date & Time');
    await page.locator('.time-option.is-selected').waitFor();
    await context.close();
  });
});

describe('a slot taken behind the client’s back', () => {
  it('sends the client back to the slot step with fresh slots and a clear message, details kept', async () => {
    const { context, page } = await newJourney(browser, VIEWPORTS.desktop);
    // A slot on the second date with slots: the step must come back to that date, not the first.
    await onlineToDetails(page, 'Farah Shaikh', 0, 1);
    await fillDetails(page, true);
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await heading(page, 'Review and Pay');
    const s = await savedState(page);
    const slot = s.selectedTimeSlot!;

    // Someone else books the very same slot through the API.
    const res = await fetch(`${stack.baseUrl}/confirm-booking`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        therapist_id: s.selectedTherapist!.id,
        booking_date: slot.date,
        booking_time_slot_start: slot.start_time,
        client_full_name: 'Someone Else',
        client_email: 'someone@example.in',
        client_mobile: '9123456780',
        client_age: 40,
        client_state: 'Maharashtra',
        client_city: 'Pune',
        session_type: 'individual',
        terms_accepted: true,
        booking_type: 'ONLINE',
        location_id: 0,
      }),
    });
    expect(res.status).toBe(200);

    await page.getByRole('button', { name: /^Pay / }).click();
    await heading(page, 'Select Date & Time');
    await page.getByText('This time slot has just been booked. Please choose another.').waitFor();
    expect(await page.getByRole('alert').first().textContent()).toContain('This time slot has just been booked');
    await page.locator('.time-option').first().waitFor();
    // Back on the date the client had chosen, not the first date; the taken time is gone from it.
    const pressed = await page.locator('.date-btn[aria-pressed="true"]').getAttribute('aria-label');
    const [y, mo, d] = slot.date.split('-').map(Number) as [number, number, number];
    const longDate = new Date(Date.UTC(y, mo - 1, d)).toLocaleDateString('en-US', {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(pressed).toMatch(new RegExp(`^${longDate}`));
    const times = await page.locator('.time-option').allTextContents();
    const [h, m] = slot.start_time.split(':').map(Number) as [number, number];
    const label = `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
    expect(times).not.toContain(label);
    expect(await (await continueButton(page)).isDisabled()).toBe(true);
    await expectAccessible(page, 'slot step after 409');
    await screenshot(page, 'booking-slot-taken');

    await page.locator('.time-option').first().click();
    await (await continueButton(page)).click();
    await heading(page, 'Your Information');
    expect(await page.getByLabel('Full name').inputValue()).toBe(CLIENT.fullName);
    expect(await page.getByLabel('Email').inputValue()).toBe(CLIENT.email);
    expect(await page.getByLabel('City').inputValue()).toBe(CLIENT.city);
    await context.close();
  });
});

describe('responsive from 360px to 1440px', () => {
  it.each([360, 768, 1440])('no horizontal scrolling on the wizard steps at %ipx', async (width) => {
    const { context, page } = await newJourney(browser, { width, height: 800 });
    await onlineToDetails(page, 'Asha Mehta');
    await expectNoHorizontalScroll(page, `details at ${width}`);
    await page.getByRole('button', { name: 'Back' }).click();
    await heading(page, 'Select Date & Time');
    await page.locator('.time-option').first().waitFor();
    expect(await page.locator('.date-btn').count()).toBe(width < 768 ? 4 : 6);
    await expectNoHorizontalScroll(page, `slot at ${width}`);
    await page.goto(`${stack.baseUrl}/payment-status`);
    await heading(page, 'Payment Failed!');
    await expectNoHorizontalScroll(page, `payment-status at ${width}`);
    await context.close();
  });
});
