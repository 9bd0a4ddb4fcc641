import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ROOT, startStack, type Stack } from './stack.ts';

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

export const SCREENSHOT_DIR = `${ROOT}artifacts/screenshots`;

/** Debian's Chromium, headless, with the flags that keep it off the (closed) network. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Saves a full-page screenshot under artifacts/screenshots (kept by CI). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${width}x${height}.png`, fullPage: true });
}

/** Saves a screenshot of one element (a dialog over the page) under artifacts/screenshots, named with the page's viewport. */
export async function screenshotOf(element: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const { width, height } = element.page().viewportSize() ?? { width: 0, height: 0 };
  await element.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${width}x${height}.png` });
}

/**
 * A page in its own context (axe-core needs one), closed together with the page. Reduced motion:
 * axe must judge colours at rest, not halfway through a button's colour transition.
 */
export async function openPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const context = await browser.newContext({ reducedMotion: 'reduce', ...options });
  const page = await context.newPage();
  // A browser closed first (afterAll) has closed the context with it: that rejection is no failure.
  page.once('close', () => void context.close().catch(() => {}));
  return page;
}

/**
 * Records every Content-Security-Policy violation on the page from now on: the document's
 * securitypolicyviolation events (reported through the console by a script the browser injects,
 * which no policy blocks) and Chromium's own "Refused to …" console messages. Read the array at the end.
 */
export async function recordCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || location.href}:${e.lineNumber}`);
    });
  });
  page.on('console', (msg) => {
    const text = msg.text();
    if (text.startsWith('CSP violation:') || text.includes('Refused to')) violations.push(`${page.url()}: ${text}`);
  });
  return violations;
}

/** A test file's stack and browser: started before its tests (handed to `assign`), closed after them. */
export function stackAndBrowserPerFile(assign: (started: { stack: Stack; browser: Browser }) => void): void {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    stack = await startStack();
    browser = await launchBrowser();
    assign({ stack, browser });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
}
