import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobsClient, type JobsClient } from '../../shared/core/jobs/queues.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { bearer, createAdmins, tokenFor, type Admins } from '../support/admin.ts';
import { testApp, testConfig } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
let jobs: JobsClient;
let admins: Admins;
let app: ReturnType<typeof testApp>;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  jobs = createJobsClient('redis://127.0.0.1:6379', `test-${randomBytes(4).toString('hex')}`);
  app = testApp(database, { jobs });
});
afterAll(async () => {
  await jobs.close();
  await database.drop();
});

describe('Bull Board at /admin/queues', () => {
  it('a super admin gets a cookie scoped to the board, and the board then opens', async () => {
    const res = await request(app)
      .post('/api/admin/queues-session')
      .set(bearer(tokenFor(admins.superadmin, new Date())))
      .expect(200);
    expect(res.body).toEqual({ url: '/admin/queues' });
    const cookie = res.headers['set-cookie']![0]!;
    expect(cookie).toMatch(/^admin_queues_token=[^;]+; Max-Age=\d+; Path=\/admin\/queues; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
    const board = await request(app).get('/admin/queues/api/queues').set('cookie', cookie.split(';')[0]!).expect(200);
    expect(board.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['mail', 'meetings', 'payments', 'reports']);
  });

  it('the board’s page is titled Job Queues and links back to the panel, on its page and in its menu', async () => {
    const token = tokenFor(admins.superadmin, new Date());
    const page = await request(app).get('/admin/queues').set(bearer(token)).set('accept', 'text/html').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toMatch(/<body[^>]*><nav aria-label="Admin panel"[^>]*><a href="\/admin\/dashboard"[^>]*>← Back to the admin panel<\/a><\/nav>/);
    expect(page.text).toContain('<title>Job Queues</title>');
    const config = JSON.parse(/<script id="__UI_CONFIG__" type="application\/json">([^<]*)<\/script>/.exec(page.text)![1]!);
    expect(config.miscLinks).toEqual([{ text: 'Back to the admin panel', url: '/admin/dashboard' }]);
    // Its scripts come from under the board's path (the board is loaded on first use, then mounted there).
    const base = /<base href="([^"]+)"/.exec(page.text)![1]!;
    expect(base).toMatch(/^\/admin\/queues\/?$/);
    const script = new URL(/<script[^>]+src="([^"]+)"/.exec(page.text)![1]!, `http://x${base.endsWith('/') ? base : `${base}/`}`).pathname;
    const js = await request(app).get(script).set(bearer(token)).expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    // The board's own calls are JSON as before.
    const api = await request(app).get('/admin/queues/api/queues').set(bearer(token)).expect(200);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
  });

  it('a plain admin is refused the cookie and the board', async () => {
    const token = tokenFor(admins.admin, new Date());
    await request(app).post('/api/admin/queues-session').set(bearer(token)).expect(403);
    await request(app).get('/admin/queues/api/queues').set(bearer(token)).expect(403);
    await request(app).get('/admin/queues/api/queues').set('cookie', `admin_queues_token=${token}`).expect(403);
  });

  it('a change to the queues is refused from another origin or site, and taken from the board itself (issue 32)', async () => {
    const res = await request(app)
      .post('/api/admin/queues-session')
      .set(bearer(tokenFor(admins.superadmin, new Date())))
      .expect(200);
    const cookie = res.headers['set-cookie']![0]!.split(';')[0]!;
    const pause = () => request(app).put('/admin/queues/api/queues/mail/pause').set('cookie', cookie);
    for (const [name, value] of [
      ['origin', 'http://evil.example'],
      ['sec-fetch-site', 'cross-site'],
      ['sec-fetch-site', 'same-site'],
    ] as const) {
      const refused = await pause().set(name, value).expect(403);
      expect(refused.body.detail).toBe('Changes to the job queues are accepted only from the job queues page.');
    }
    expect(await jobs.queues.mail.isPaused()).toBe(false);
    await pause().set('origin', testConfig.publicBaseUrl).set('sec-fetch-site', 'same-origin').expect(200);
    expect(await jobs.queues.mail.isPaused()).toBe(true);
    await request(app).put('/admin/queues/api/queues/mail/resume').set('cookie', cookie).set('sec-fetch-site', 'same-origin').expect(200);
    expect(await jobs.queues.mail.isPaused()).toBe(false);
  });

  it('nobody else gets in: no token, a forged cookie, a deactivated admin', async () => {
    await request(app).get('/admin/queues/api/queues').expect(401);
    // A browser goes to the panel's page that opens the board (it signs in there if need be).
    await request(app).get('/admin/queues').set('accept', 'text/html').expect(302).expect('location', '/admin/open-queues');
    await request(app).get('/admin/queues/queue/mail').set('accept', 'text/html').expect(302).expect('location', '/admin/open-queues');
    await request(app).get('/admin/queues/api/queues').set('cookie', 'admin_queues_token=a.b.c').expect(401);
    await request(app)
      .get('/admin/queues/api/queues')
      .set('cookie', `admin_queues_token=${tokenFor(admins.inactive, new Date())}`)
      .expect(401);
    await request(app).post('/api/admin/queues-session').expect(401);
  });
});
