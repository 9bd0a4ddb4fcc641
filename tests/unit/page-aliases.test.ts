import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlNotFound, PAGE_ALIASES, staticSite } from '../../api/src/middleware/static-site.ts';

// The spec's admin routes: /admin/reports (linked as /admin/Reports), /admin/income (linked as
// /admin/Income). The build holds each page once, under its lower-case name.
let dir: string;
let app: express.Express;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'site-aliases-'));
  for (const page of ['reports', 'income']) {
    await mkdir(path.join(dir, 'admin', page), { recursive: true });
    await writeFile(path.join(dir, 'admin', page, 'index.html'), `<!doctype html><title>${page}</title>`);
  }
  await writeFile(path.join(dir, '404.html'), '<!doctype html><title>Not found</title>');
  app = express();
  app.use(staticSite(dir));
  app.use(htmlNotFound(dir));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the capitalised admin addresses the spec links to', () => {
  it.each([
    ['/admin/Reports', '/admin/reports'],
    ['/admin/Income', '/admin/income'],
  ])('%s redirects to the page at %s, which is served', async (linked, page) => {
    const res = await request(app).get(linked).set('Accept', 'text/html').expect(301);
    expect(res.headers.location).toBe(page);
    const served = await request(app).get(page).set('Accept', 'text/html').expect(200);
    expect(served.text).toContain(`<title>${page.split('/').pop()}</title>`);
  });

  it('keeps the query and takes a trailing slash, and HEAD is redirected as GET is', async () => {
    expect((await request(app).get('/admin/Reports?tab=eod').expect(301)).headers.location).toBe('/admin/reports?tab=eod');
    expect((await request(app).get('/admin/Income/').expect(301)).headers.location).toBe('/admin/income');
    expect((await request(app).head('/admin/Income').expect(301)).headers.location).toBe('/admin/income');
  });

  it('redirects only the spellings the spec names, to pages that exist under their own names', async () => {
    await request(app).post('/admin/Reports').expect(404);
    for (const [linked, page] of PAGE_ALIASES) {
      expect(linked.toLowerCase()).toBe(page);
      expect(linked).not.toBe(page);
    }
  });
});
