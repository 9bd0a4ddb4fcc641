import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenRevocations, adminUsers, auditLog } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { createJobsClient, type JobsClient } from '../../shared/core/jobs/queues.ts';
import type { AdminUser } from '../../shared/core/repositories/admin.repository.ts';
import { createAdminUser, setAdminActive, setAdminPassword } from '../../shared/core/services/admin-user.service.ts';
import { bearer, createAdmins, dropPrefix, PASSWORD, testRedis, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp, testConfig } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';

let database: TestDatabase;
let admins: Admins;
let jobs: JobsClient;
let queuePrefix: string;
let app: ReturnType<typeof testApp>;
const clock = fixedClock(MONDAY_MORNING_IST);
const UNAUTHORIZED = { detail: 'Unauthorized. Please log in again.' };
const NEW_PASSWORD = 'a much longer new passphrase';

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  queuePrefix = `test-${randomBytes(4).toString('hex')}`;
  jobs = createJobsClient('redis://127.0.0.1:6379', queuePrefix);
  app = testApp(database, { now: clock.now, jobs });
});
afterAll(async () => {
  await jobs.close();
  const { redis } = testRedis();
  await dropPrefix(redis, `${queuePrefix}:`);
  redis.disconnect();
  await database.drop();
});

const login = (username: string, password = PASSWORD) => request(app).post('/api/admin/login').type('form').send({ username, password });

async function signedIn(username: string, password = PASSWORD): Promise<string> {
  return (await login(username, password).expect(200)).body.access_token as string;
}

/** A super admin of its own, so changing it does not disturb the other tests. */
async function freshSuperadmin(): Promise<AdminUser> {
  const name = `s${randomBytes(4).toString('hex')}`;
  return createAdminUser(database.db, { username: name, email: `${name}@wellbeingcentre.in`, password: PASSWORD, isSuperadmin: true });
}

/** The token is refused on an admin call, on Bull Board by bearer and by the board's cookie. */
async function expectRefusedEverywhere(token: string): Promise<void> {
  expect((await request(app).get('/api/admin/therapists').set(bearer(token)).expect(401)).body).toEqual(UNAUTHORIZED);
  await request(app).get('/api/admin/bookings').set(bearer(token)).expect(401);
  await request(app).get('/admin/queues/api/queues').set(bearer(token)).expect(401);
  await request(app).get('/admin/queues/api/queues').set('cookie', `admin_queues_token=${token}`).expect(401);
  await request(app).post('/api/admin/queues-session').set(bearer(token)).expect(401);
}

async function expectAcceptedEverywhere(token: string): Promise<void> {
  await request(app).get('/api/admin/therapists').set(bearer(token)).expect(200);
  await request(app).get('/admin/queues/api/queues').set(bearer(token)).expect(200);
  await request(app).get('/admin/queues/api/queues').set('cookie', `admin_queues_token=${token}`).expect(200);
}

describe('token claims', () => {
  const now = () => Math.floor(clock.now().getTime() / 1000);
  const claims = () => ({
    sub: String(admins.superadmin.id),
    iat: now(),
    sv: admins.superadmin.sessionVersion,
    jti: randomBytes(16).toString('hex'),
    iss: 'wellbeing-booking',
    aud: 'admin',
  });
  const sign = (payload: object) => jwt.sign(payload, testConfig.jwtSecret, { algorithm: 'HS256' });

  it('a token signed with the real secret but without exp is refused everywhere', async () => {
    const forever = sign(claims());
    expect((jwt.decode(forever) as jwt.JwtPayload).exp).toBeUndefined();
    await expectRefusedEverywhere(forever);
  });

  it('a token claiming a lifetime longer than any we issue is refused, and logout of a real one is no 500', async () => {
    for (const exp of [1e13, now() + 8 * 24 * 3600])
      await request(app)
        .get('/api/admin/therapists')
        .set(bearer(sign({ ...claims(), exp })))
        .expect(401);
    await request(app)
      .post('/api/admin/logout')
      .set(bearer(sign({ ...claims(), exp: 1e13 })))
      .expect(401);
    await expectAcceptedEverywhere(sign({ ...claims(), exp: now() + 7 * 24 * 3600 - 60 }));
  });

  it('a token without a jti or a session version is refused; the same token with them is accepted', async () => {
    const { jti: _jti, ...noJti } = claims();
    const { sv: _sv, ...noSv } = claims();
    for (const payload of [noJti, noSv, { ...claims(), sv: '1' }, { ...claims(), jti: 'short' }]) {
      await request(app)
        .get('/api/admin/therapists')
        .set(bearer(sign({ ...payload, exp: now() + 3600 })))
        .expect(401);
    }
    await expectAcceptedEverywhere(sign({ ...claims(), exp: now() + 3600 }));
  });

  it('sign-in issues a token with exp, its own jti and the admin’s session version', async () => {
    const [a, b] = [await signedIn('super'), await signedIn('super')];
    const [pa, pb] = [jwt.decode(a) as jwt.JwtPayload, jwt.decode(b) as jwt.JwtPayload];
    expect(pa.exp! - pa.iat!).toBe(testConfig.jwtTtlSeconds);
    expect(pa.sv).toBe(admins.superadmin.sessionVersion);
    expect(pa.jti).toMatch(/^[\w-]{16,64}$/);
    expect(pb.jti).not.toBe(pa.jti);
  });
});

describe('POST /api/admin/logout', () => {
  it('revokes the presented token at once, on the API and on Bull Board, and only that token', async () => {
    const token = await signedIn('super');
    const other = await signedIn('super');
    const cookie = (await request(app).post('/api/admin/queues-session').set(bearer(token)).expect(200)).headers['set-cookie']![0]!;
    await expectAcceptedEverywhere(token);

    const res = await request(app).post('/api/admin/logout').set(bearer(token)).expect(200);
    expect(res.body).toEqual({ message: 'Signed out.' });
    expect(res.headers['cache-control']).toBe('no-store');
    // The board's cookie is dropped too (it held the same token).
    expect(res.headers['set-cookie']).toEqual([expect.stringMatching(/^admin_queues_token=; Path=\/admin\/queues; Expires=Thu, 01 Jan 1970/)]);

    await expectRefusedEverywhere(token);
    await request(app).get('/admin/queues/api/queues').set('cookie', cookie.split(';')[0]!).expect(401);
    await request(app).post('/api/admin/logout').set(bearer(token)).expect(401);
    // Another session of the same admin goes on.
    await expectAcceptedEverywhere(other);
  });

  it('keeps the revocation until the token expires, and sweeps revocations of expired tokens', async () => {
    const token = await signedIn('desk');
    const { jti, exp } = jwt.decode(token) as jwt.JwtPayload;
    await database.db.insert(adminTokenRevocations).values([
      { jti: 'stale-revocation-0001', adminId: admins.admin.id, expiresAt: new Date(clock.now().getTime() - 1000) },
      { jti: 'live-revocation-00001', adminId: admins.admin.id, expiresAt: new Date(clock.now().getTime() + 60_000) },
    ]);
    await request(app).post('/api/admin/logout').set(bearer(token)).expect(200);
    const rows = await database.db.select().from(adminTokenRevocations).where(eq(adminTokenRevocations.adminId, admins.admin.id));
    expect(rows.map((r) => [r.jti, r.expiresAt.getTime()]).sort()).toEqual(
      [
        [jti, exp! * 1000],
        ['live-revocation-00001', clock.now().getTime() + 60_000],
      ].sort(),
    );
  });

  it('without a valid token: 401 as every admin call', async () => {
    for (const headers of [{}, bearer('a.b.c'), bearer(tokenFor(admins.inactive, clock.now()))]) {
      const res = await request(app).post('/api/admin/logout').set(headers).expect(401);
      expect(res.body).toEqual(UNAUTHORIZED);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('revoking every session of an admin', () => {
  it('deactivation refuses old tokens, and reactivation does not revive them; a fresh sign-in works', async () => {
    const admin = await freshSuperadmin();
    const token = await signedIn(admin.username);
    await expectAcceptedEverywhere(token);
    const deactivated = await setAdminActive(database.db, admin.username, false);
    expect(deactivated.sessionVersion).toBe(admin.sessionVersion + 1);
    await expectRefusedEverywhere(token);
    await setAdminActive(database.db, admin.username, true);
    await expectRefusedEverywhere(token);
    await expectAcceptedEverywhere(await signedIn(admin.username));
  });

  it('a password change refuses old tokens and the old password; the new one signs in', async () => {
    const admin = await freshSuperadmin();
    const token = await signedIn(admin.username);
    const changed = await setAdminPassword(database.db, admin.username, NEW_PASSWORD, { adminId: null, actor: 'test' });
    expect(changed.sessionVersion).toBe(admin.sessionVersion + 1);
    await expectRefusedEverywhere(token);
    await login(admin.username).expect(401);
    await expectAcceptedEverywhere(await signedIn(admin.username, NEW_PASSWORD));

    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'admin_user.password_change'));
    expect(entry).toMatchObject({ actor: 'test', entityType: 'admin_user', entityId: String(admin.id) });
    const logged = JSON.stringify(entry);
    expect(logged).not.toContain(NEW_PASSWORD);
    expect(logged).not.toContain('argon2');
  });

  it('a password change refuses a short password and an unknown admin, changing nothing', async () => {
    const admin = await freshSuperadmin();
    const token = await signedIn(admin.username);
    await expect(setAdminPassword(database.db, admin.username, 'too short')).rejects.toThrow(/at least 12 characters/);
    await expect(setAdminPassword(database.db, 'nobody-here', NEW_PASSWORD)).rejects.toThrow('No admin named nobody-here.');
    await expectAcceptedEverywhere(token);
  });

  it('npm run admin -- password changes the password and signs the admin out', async () => {
    const admin = await freshSuperadmin();
    const token = await signedIn(admin.username);
    const env = { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['shared/core/admin.cli.ts', 'password', '--username', admin.username, '--password', NEW_PASSWORD],
      { env },
    );
    expect(stdout).toBe(`Password changed for ${admin.username}; their existing sessions are signed out.\n`);
    await expectRefusedEverywhere(token);
    await signedIn(admin.username, NEW_PASSWORD);
    const [row] = await database.db.select().from(adminUsers).where(eq(adminUsers.id, admin.id));
    expect(row!.sessionVersion).toBe(admin.sessionVersion + 1);
  });
});
