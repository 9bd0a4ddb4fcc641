/**
 * "Jobs that failed" end to end: a job the real worker cannot do (a meeting link for a booking that
 * does not exist) fails for good, and the dashboard in Chromium shows it to a plain admin, who marks
 * it resolved.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { jobFailures, outbox } from '../../shared/core/db/schema.ts';
import { openPage, screenshot, VIEWPORTS } from '../support/browser.ts';
import { OWNER, panelStack, signInToPanel, STAFF } from '../support/panel-e2e.ts';
import { waitFor } from '../support/jobs.ts';

const e2e = panelStack();
const signIn = (page: Page, user: { username: string; password: string }) => signInToPanel(page, e2e.stack.baseUrl, user);

describe('Jobs that failed', () => {
  it('a job that fails for good is on every admin’s dashboard, in words, until marked resolved (screenshots)', async () => {
    const { db } = e2e.stack.database;
    await db.insert(outbox).values({ queue: 'meetings', jobName: 'meetings.create', jobId: 'meeting.424242', payload: { bookingId: 424242 } });
    await waitFor(async () => (await db.select().from(jobFailures).where(eq(jobFailures.jobId, 'meeting.424242'))).length > 0, 'the failure row', 30_000);

    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const page = await openPage(e2e.browser, { viewport });
      await signIn(page, STAFF);
      const section = page.locator('section', { has: page.getByRole('heading', { name: 'Jobs that failed' }) });
      const open = section.getByRole('list', { name: 'Open failed jobs' });
      await open.getByText('Meeting link failed for booking 424242').waitFor();
      await section.getByText('1 open').waitFor();
      await section.getByText(/A super admin can retry a failed job in Job Queues/).waitFor();
      const axe = await new AxeBuilder({ page }).include('.adm-attn').analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await screenshot(page, 'job-failures');
      await page.close();
    }

    const owner = await openPage(e2e.browser, { viewport: VIEWPORTS.desktop });
    await signIn(owner, OWNER);
    const ownerSection = owner.locator('section', { has: owner.getByRole('heading', { name: 'Jobs that failed' }) });
    expect(await ownerSection.getByRole('link', { name: 'Job Queues' }).getAttribute('href')).toBe('/admin/open-queues');
    await owner.close();

    const page = await openPage(e2e.browser, { viewport: VIEWPORTS.desktop });
    await signIn(page, STAFF);
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Jobs that failed' }) });
    await section.getByRole('button', { name: /^Mark failed job \d+ resolved$/ }).click();
    await section.getByText(/^Failed job \d+ marked resolved successfully\.$/).waitFor();
    await section.getByText('No job has failed.').waitFor();
    await section
      .getByRole('list', { name: 'Failed jobs resolved' })
      .getByText(/by staff/)
      .waitFor();
    await screenshot(page, 'job-failures-resolved');
    await page.close();
  });
});
