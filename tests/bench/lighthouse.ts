/**
 * Lighthouse, mobile, on the pages the booking wizard lives on: `npm run lighthouse` against a running
 * server (`npm start` in another terminal; LH_URL, default http://localhost:3000). Debian's Chromium
 * (CHROME_PATH, default /usr/bin/chromium); each page LH_RUNS times (default 3), the median reported,
 * the targets checked: performance ≥ 95, accessibility 100, layout shift < 0.05. LH_PAGES, comma-separated
 * paths, measures others: the Manage booking page needs a real link, e.g.
 * LH_PAGES='/manage-booking?token=…' with the token from a confirmation e-mail (or its payment-status page).
 *
 * Lighthouse simulates a slow phone by scaling what this machine measured, so a busy machine (another
 * test suite, a benchmark) lowers the performance score: run it on a quiet one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(ROOT, 'node_modules/lighthouse/cli/index.js');
const base = (process.env.LH_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const runs = Math.max(1, Number(process.env.LH_RUNS ?? 3));
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const dir = mkdtempSync(path.join(tmpdir(), 'lighthouse-'));

type Run = { performance: number; accessibility: number; cls: number; tbt: number; lcp: number };

function once(url: string): Run {
  const out = path.join(dir, 'report.json');
  execFileSync(
    process.execPath,
    [
      CLI,
      url,
      '--quiet',
      '--form-factor=mobile',
      '--only-categories=performance,accessibility',
      '--output=json',
      `--output-path=${out}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    ],
    { env: { ...process.env, CHROME_PATH: chrome }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const r = JSON.parse(readFileSync(out, 'utf8'));
  return {
    performance: Math.round(r.categories.performance.score * 100),
    accessibility: Math.round(r.categories.accessibility.score * 100),
    cls: r.audits['cumulative-layout-shift'].numericValue,
    tbt: Math.round(r.audits['total-blocking-time'].numericValue),
    lcp: Math.round(r.audits['largest-contentful-paint'].numericValue),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let ok = true;
try {
  const pages = (process.env.LH_PAGES ?? '/,/book').split(',').filter(Boolean);
  for (const page of pages) {
    const all = Array.from({ length: runs }, () => once(`${base}${page}`));
    const m = {
      performance: median(all.map((r) => r.performance)),
      accessibility: median(all.map((r) => r.accessibility)),
      cls: median(all.map((r) => r.cls)),
      tbt: median(all.map((r) => r.tbt)),
      lcp: median(all.map((r) => r.lcp)),
    };
    const met = m.performance >= 95 && m.accessibility === 100 && m.cls < 0.05;
    ok &&= met;
    console.log(
      `${page.replace(/token=[\w-]+/, 'token=…').padEnd(6)} performance ${m.performance} (runs ${all.map((r) => r.performance).join(', ')}), accessibility ${m.accessibility}, ` +
        `CLS ${m.cls.toFixed(3)}, TBT ${m.tbt} ms, LCP ${m.lcp} ms: ${met ? 'met' : 'MISSED'}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = ok ? 0 : 1;
