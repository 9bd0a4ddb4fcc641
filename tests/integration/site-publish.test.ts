import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_BUILDS, publishBuild, sitePaths } from '../../api/src/site-build.ts';
import { rebuildOnCatalogueChange } from '../../api/src/site-rebuild.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'site-publish-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A build folder as Astro leaves it: a page and a hashed script. */
function fakeBuild(name: string, page: string, script: string): string {
  const dir = path.join(sitePaths(root).builds, name);
  mkdirSync(path.join(dir, '_astro'), { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html lang="en"><title>${page}</title><script type="module" src="/_astro/${script}"></script></html>`,
  );
  writeFileSync(path.join(dir, '_astro', script), `console.log(${JSON.stringify(script)})`);
  return dir;
}

describe('publishing a site build', () => {
  it('switches site/dist to a whole new build in one rename, keeps the scripts pages already loaded ask for, and prunes', async () => {
    const { served } = sitePaths(root);
    // An older checkout built straight into site/dist: it is moved aside, not lost.
    mkdirSync(served, { recursive: true });
    writeFileSync(path.join(served, 'index.html'), 'legacy');
    mkdirSync(sitePaths(root).builds, { recursive: true });
    publishBuild(root, fakeBuild('20261123100000', 'one', 'one.js'));
    expect(lstatSync(served).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(served, 'index.html'), 'utf8')).toContain('<title>one</title>');
    expect(readdirSync(sitePaths(root).builds).some((n) => n.startsWith('legacy-'))).toBe(true);

    // The app serving site/dist answers the new build at once, and the old page's script still loads.
    const app = testApp({ db: undefined } as never, { siteDir: served } as never);
    publishBuild(root, fakeBuild('20261123100100', 'two', 'two.js'));
    const page = await request(app).get('/').expect(200);
    expect(page.text).toContain('<title>two</title>');
    await request(app).get('/_astro/two.js').expect(200);
    await request(app).get('/_astro/one.js').expect(200);

    for (const [i, stamp] of ['20261123100200', '20261123100300', '20261123100400'].entries()) publishBuild(root, fakeBuild(stamp, `n${i}`, `n${i}.js`));
    const left = readdirSync(sitePaths(root).builds).sort();
    // The served build and KEPT_BUILDS before it.
    expect(left).toEqual(['20261123100200', '20261123100300', '20261123100400'].slice(-(KEPT_BUILDS + 1)));
    expect(existsSync(`${served}.next-${process.pid}`)).toBe(false);
  });
});

describe('rebuilding when the catalogue changes', () => {
  let database: TestDatabase;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemoData(database.db);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await database.drop();
  });

  it('builds once for changes that come together, again for one during a build, never for a booking', async () => {
    let builds = 0;
    let release: (() => void) | undefined;
    const watcher = rebuildOnCatalogueChange({
      databaseUrl: database.url,
      settleMs: 100,
      rebuild: async () => {
        builds++;
        await new Promise<void>((r) => (release = r));
      },
    });
    try {
      await sleep(300); // LISTEN is in place
      // A therapist's new price and a new service: the catalogue trigger says 'all', twice.
      await admin.query(`update therapists set price_paise = price_paise + 100 where id = 1`);
      await admin.query(`insert into services (name) values ('Grief counselling')`);
      for (let i = 0; i < 50 && builds === 0; i++) await sleep(50);
      expect(builds).toBe(1);
      // During the build: a holiday-like change (a centre's phone), and a booking's change, which is no page's business.
      await admin.query(`update locations set phone = '+91 98200 11111' where id = 1`);
      await admin.query(`select pg_notify('catalog_changed', 'therapist:1')`);
      await sleep(300);
      expect(builds).toBe(1);
      release!();
      for (let i = 0; i < 50 && builds === 1; i++) await sleep(50);
      expect(builds).toBe(2);
      release!();
      await watcher.idle();
      await admin.query(`select pg_notify('catalog_changed', 'therapist:2')`);
      await sleep(300);
      expect(builds).toBe(2);
    } finally {
      release?.();
      await watcher.stop();
    }
  });
});
