import jwt from 'jsonwebtoken';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { setAdminActive } from '../../shared/core/services/admin-user.service.ts';
import { addressKey, createLoginThrottle, LoginThrottle, type RateLimitRedis } from '../../shared/core/services/auth.service.ts';
import { parseConfig } from '../../shared/core/config.ts';
import { recordCapture } from '../../shared/core/repositories/ledger.repository.ts';
import { bearer, createAdmins, dropPrefix, insertBooking, PASSWORD, testRedis, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp, testConfig } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';

let database: TestDatabase;
let admins: Admins;
let redis: Redis;
let prefix: string;
const clock = fixedClock(MONDAY_MORNING_IST);
const UNAUTHORIZED = { detail: 'Unauthorized. Please log in again.' };

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  ({ redis, prefix } = testRedis());
  // One completed session today, so every report and export has something to answer.
  const paid = await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-11-23', bookingTimeSlotStart: '15:00' });
  await recordCapture(database.db, {
    bookingId: paid.id,
    provider: 'razorpay',
    paymentId: 'pay_roles',
    amountPaise: paid.amountPaise,
    method: 'UPI',
    occurredAt: new Date(),
  });
});
afterAll(async () => {
  await dropPrefix(redis, prefix);
  redis.disconnect();
  await database.drop();
});

type ThrottleSetup = { prefix?: string; pair?: number; addr?: number; delays?: number[]; trustProxy?: string[]; redis?: RateLimitRedis };

/** An app whose throttle keeps its own counters; it believes X-Forwarded-For from loopback unless told otherwise. */
function appWith(options: ThrottleSetup = {}) {
  const throttle = new LoginThrottle(
    options.redis ?? redis,
    {
      prefix: options.prefix ?? `${prefix}${Math.random().toString(36).slice(2)}:`,
      maxFailuresPerAccountAddress: options.pair ?? 5,
      maxFailuresPerAddress: options.addr ?? 20,
    },
    async (ms) => void options.delays?.push(ms),
  );
  const config = { ...testConfig, trustProxy: options.trustProxy ?? ['loopback'] };
  return testApp(database, { now: clock.now, config, loginThrottle: throttle });
}

const login = (app: ReturnType<typeof testApp>, username: string, password: string, ip = '10.0.0.1') =>
  request(app).post('/api/admin/login').set('X-Forwarded-For', ip).type('form').send({ username, password });

describe('POST /api/admin/login', () => {
  it('signs in with username or e-mail and answers the spec fields', async () => {
    const app = appWith();
    const res = await login(app, 'super', PASSWORD).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'is_active', 'is_admin', 'is_superadmin', 'token_type', 'username']);
    expect(res.body).toMatchObject({ token_type: 'bearer', username: 'super', is_superadmin: true, is_admin: true, is_active: true });
    const decoded = jwt.decode(res.body.access_token, { complete: true })!;
    expect(decoded.header.alg).toBe('HS256');
    expect(res.headers['cache-control']).toBe('no-store');
    const payload = decoded.payload as jwt.JwtPayload;
    expect(payload.sub).toBe(String(admins.superadmin.id));
    expect(payload.exp! - payload.iat!).toBe(8 * 3600);
    await request(app).get('/api/admin/therapists').set(bearer(res.body.access_token)).expect(200);

    const byEmail = await login(app, 'DESK@wellbeingcentre.in', PASSWORD).expect(200);
    expect(byEmail.body).toMatchObject({ username: 'desk', is_superadmin: false, is_admin: true });
  });

  it('answers one 401 for a wrong password, an unknown user and an inactive user', async () => {
    const app = appWith();
    for (const [u, p] of [
      ['super', 'wrong password!'],
      ['nobody', PASSWORD],
      ['former', PASSWORD],
    ] as const) {
      const res = await login(app, u, p).expect(401);
      expect(res.body).toEqual({ detail: 'Incorrect username or password' });
      expect(res.body.access_token).toBeUndefined();
    }
  });

  it('refuses missing or oversized credentials with 400', async () => {
    const app = appWith();
    for (const body of [{}, { username: 'super' }, { password: PASSWORD }, { username: '', password: '' }, { username: 'x'.repeat(300), password: 'p' }]) {
      const res = await request(app).post('/api/admin/login').type('form').send(body).expect(400);
      expect(res.body.detail).toBe('Username and password are required.');
    }
    await request(app).post('/api/admin/login').set('Content-Type', 'application/json').send('{bad').expect(400);
  });
});

describe('wrong current passwords on POST /api/admin/me/password (issue 32)', () => {
  const change = (app: ReturnType<typeof testApp>, current: string, ip: string) =>
    request(app)
      .post('/api/admin/me/password')
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .set('X-Forwarded-For', ip)
      .send({ current_password: current, new_password: 'kettle-lantern-monsoon-42' });

  it('count with sign-in failures: the sixth guess from an address is refused before the password is checked', async () => {
    const app = appWith({ pair: 5 });
    for (let i = 0; i < 3; i++) expect((await change(app, `wrong-${i}`, '10.9.0.7')).status).toBe(400);
    await login(app, 'desk', 'wrong-3', '10.9.0.7').expect(401);
    await login(app, 'desk', 'wrong-4', '10.9.0.7').expect(401);
    const refused = await change(app, PASSWORD, '10.9.0.7').expect(429);
    expect(refused.body.detail).toBe('Too many failed sign-in attempts. Please wait 15 minutes and try again.');
    expect(refused.headers['retry-after']).toBeTruthy();
    // The owner at another address is not locked out.
    await login(app, 'desk', PASSWORD, '10.9.0.8').expect(200);
  });
});

describe('sign-in throttle', () => {
  it('throttles the guessing address, not the owner: the right password from a clean address still signs in', async () => {
    const app = appWith({ pair: 5 });
    for (let i = 0; i < 5; i++) await login(app, 'desk', `wrong-${i}`, '10.1.0.66').expect(401);
    const locked = await login(app, 'desk', PASSWORD, '10.1.0.66').expect(429);
    expect(locked.body.detail).toMatch(/Too many failed sign-in attempts/);
    expect(locked.headers['retry-after']).toBe(String(15 * 60));
    await login(app, 'desk', PASSWORD, '10.1.0.7').expect(200);
    // The guessing address stays refused for that account after the owner signs in elsewhere.
    await login(app, 'desk', PASSWORD, '10.1.0.66').expect(429);
  });

  it("slows failed answers as an account's failures pile up from many addresses, but never locks it", async () => {
    const delays: number[] = [];
    const app = appWith({ delays, pair: 5 });
    for (let i = 0; i < 8; i++) await login(app, 'desk', `wrong-${i}`, `10.5.0.${i}`).expect(401);
    expect(delays).toEqual([500, 1000, 1500, 2000, 2500, 3000]);
    await login(app, 'desk', PASSWORD, '10.5.0.99').expect(200);
  });

  it('counts the username and the e-mail of one admin as one account', async () => {
    const app = appWith({ pair: 4 });
    await login(app, 'desk', 'wrong-1', '10.6.0.1').expect(401);
    await login(app, 'desk', 'wrong-2', '10.6.0.1').expect(401);
    await login(app, 'desk@wellbeingcentre.in', 'wrong-3', '10.6.0.1').expect(401);
    await login(app, 'DESK@wellbeingcentre.in', 'wrong-4', '10.6.0.1').expect(401);
    await login(app, 'desk', PASSWORD, '10.6.0.1').expect(429);
  });

  it('counts failures per client address across accounts', async () => {
    const app = appWith({ addr: 3 });
    for (const u of ['a1', 'a2', 'a3']) await login(app, u, 'nope', '10.2.0.1').expect(401);
    await login(app, 'super', PASSWORD, '10.2.0.1').expect(429);
    await login(app, 'super', PASSWORD, '10.2.0.2').expect(200);
  });

  it('without TRUST_PROXY, a rotated X-Forwarded-For does not reset the address count', async () => {
    const app = appWith({ addr: 3, trustProxy: [] });
    for (const [i, u] of ['a1', 'a2', 'a3'].entries()) await login(app, u, 'nope', `10.3.0.${i}`).expect(401);
    await login(app, 'super', PASSWORD, '10.3.0.9').expect(429);
  });

  it('with TRUST_PROXY naming the proxy, the address comes from X-Forwarded-For', async () => {
    for (const trustProxy of [['127.0.0.1'], ['loopback']]) {
      const app = appWith({ addr: 3, trustProxy });
      for (const u of ['a1', 'a2', 'a3']) await login(app, u, 'nope', '10.4.0.1').expect(401);
      await login(app, 'super', PASSWORD, '10.4.0.1').expect(429);
      await login(app, 'super', PASSWORD, '10.4.0.2').expect(200);
      // A client cannot prepend its own entry: the proxy's last one is the address.
      await login(app, 'super', PASSWORD, '10.4.0.2, 10.4.0.1').expect(429);
    }
  });

  it('counts an IPv6 client by its /64, which it can rotate through', async () => {
    const app = appWith({ addr: 2 });
    await login(app, 'a1', 'nope', '2001:db8:1:2::1').expect(401);
    await login(app, 'a2', 'nope', '2001:db8:1:2:0:0:0:2').expect(401);
    await login(app, 'super', PASSWORD, '2001:db8:1:2:ffff::9').expect(429);
    await login(app, 'super', PASSWORD, '2001:db8:1:3::1').expect(200);
  });

  it('shares counters between API processes through Redis', async () => {
    const shared = `${prefix}shared:`;
    const first = appWith({ prefix: shared, pair: 2 });
    const second = appWith({ prefix: shared, pair: 2 });
    await login(first, 'super', 'bad-1').expect(401);
    await login(second, 'super', 'bad-2').expect(401);
    await login(first, 'super', PASSWORD).expect(429);
  });

  it("a success clears that address's count for the account", async () => {
    const app = appWith({ pair: 3 });
    await login(app, 'desk', 'bad').expect(401);
    await login(app, 'desk', 'bad').expect(401);
    await login(app, 'desk', PASSWORD).expect(200);
    await login(app, 'desk', 'bad').expect(401);
    await login(app, 'desk', 'bad').expect(401);
    await login(app, 'desk', PASSWORD).expect(200);
  });

  it('keeps its keys under QUEUE_PREFIX, with no typed login in them', async () => {
    const queuePrefix = `test-${Math.random().toString(36).slice(2)}`;
    const throttle = createLoginThrottle(redis, parseConfig({ NODE_ENV: 'test', QUEUE_PREFIX: queuePrefix }), { delayStepMs: 0 });
    const app = testApp(database, { now: clock.now, loginThrottle: throttle });
    try {
      await login(app, 'desk', 'bad').expect(401);
      await login(app, 'someone@example.com', 'bad').expect(401);
      const keys = (await redis.keys(`${queuePrefix}:*`)).sort();
      const hashed = keys.find((k) => /:acct:h[\w-]+$/.test(k))!.split(':acct:')[1];
      // Without TRUST_PROXY the socket's address counts, not X-Forwarded-For.
      expect(keys).toEqual(
        [
          `${queuePrefix}:login:acct:${hashed}`,
          `${queuePrefix}:login:acct:${hashed}:addr:127.0.0.1`,
          `${queuePrefix}:login:acct:id${admins.admin.id}`,
          `${queuePrefix}:login:acct:id${admins.admin.id}:addr:127.0.0.1`,
          `${queuePrefix}:login:addr:127.0.0.1`,
        ].sort(),
      );
      expect(await redis.get(`${queuePrefix}:login:addr:127.0.0.1`)).toBe('2');
      expect(await redis.ttl(`${queuePrefix}:login:addr:127.0.0.1`)).toBeGreaterThan(0);
    } finally {
      await dropPrefix(redis, `${queuePrefix}:`);
    }
  });

  it('counts a burst of simultaneous guesses as they arrive, not as they fail', async () => {
    const app = appWith({ pair: 3 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(app, 'desk', `burst-${i}`, '10.7.0.1')));
    expect(answers.map((r) => r.status).sort()).toEqual([...Array<number>(3).fill(401), ...Array<number>(9).fill(429)]);
  });

  it('successes do not use up an address: colleagues behind one office address all sign in', async () => {
    const app = appWith({ addr: 3 });
    for (let i = 0; i < 3; i++) {
      await login(app, 'desk', PASSWORD, '10.8.0.1').expect(200);
      await login(app, 'super', PASSWORD, '10.8.0.1').expect(200);
    }
    for (const u of ['a1', 'a2', 'a3']) await login(app, u, 'nope', '10.8.0.1').expect(401);
    await login(app, 'desk', PASSWORD, '10.8.0.1').expect(429);
  });

  it('refuses with 503, even the right password, when Redis cannot be read', async () => {
    const chain: Record<string, unknown> = {};
    for (const m of ['incr', 'expire', 'decr', 'del']) chain[m] = () => chain;
    chain.exec = async () => Promise.reject(new Error('connection refused'));
    const down = { multi: () => chain } as unknown as RateLimitRedis;
    const res = await login(appWith({ redis: down }), 'super', PASSWORD).expect(503);
    expect(res.body).toEqual({ detail: 'Sign-in is temporarily unavailable. Please try again shortly.' });
  });
});

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4 over IPv6 and cuts IPv6 to its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('1::2:3:4:5:6:7')).toBe('1:0:2:3::/64');
  });
});

describe('tokens', () => {
  const app = () => testApp(database, { now: clock.now });
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

  it('refuses alg none, other algorithms, foreign secrets, missing claims and garbage', async () => {
    const now = Math.floor(clock.now().getTime() / 1000);
    const claims = { sub: String(admins.superadmin.id), iat: now, exp: now + 3600, iss: 'wellbeing-booking', aud: 'admin' };
    const tokens = [
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      jwt.sign(claims, testConfig.jwtSecret, { algorithm: 'HS512' }),
      jwt.sign(claims, 'someone-else-entirely-0123456789abcdef', { algorithm: 'HS256' }),
      jwt.sign({ sub: claims.sub }, testConfig.jwtSecret, { algorithm: 'HS256' }),
      jwt.sign({ ...claims, sub: 'abc' }, testConfig.jwtSecret, { algorithm: 'HS256' }),
      'not-a-token',
    ];
    for (const t of tokens) {
      const res = await request(app()).get('/api/admin/therapists').set(bearer(t)).expect(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
    await request(app()).get('/api/admin/therapists').set('Authorization', tokenFor(admins.superadmin, clock.now())).expect(401);
  });

  it('expires after its lifetime by the server clock', async () => {
    const token = tokenFor(admins.admin, clock.now());
    const c = fixedClock(MONDAY_MORNING_IST);
    const a = testApp(database, { now: c.now });
    await request(a).get('/api/admin/bookings').set(bearer(token)).expect(200);
    c.set('2026-11-23T17:29:00+05:30');
    await request(a).get('/api/admin/bookings').set(bearer(token)).expect(200);
    c.set('2026-11-23T17:31:00+05:30');
    expect((await request(a).get('/api/admin/bookings').set(bearer(token)).expect(401)).body).toEqual(UNAUTHORIZED);
  });

  it('deactivation bites on the next request, and reactivation does not revive the token', async () => {
    const token = tokenFor(admins.admin, clock.now());
    await request(app()).get('/api/admin/bookings').set(bearer(token)).expect(200);
    await setAdminActive(database.db, 'desk', false);
    try {
      await request(app()).get('/api/admin/bookings').set(bearer(token)).expect(401);
    } finally {
      admins.admin = await setAdminActive(database.db, 'desk', true);
    }
    await request(app()).get('/api/admin/bookings').set(bearer(token)).expect(401);
    await request(app())
      .get('/api/admin/bookings')
      .set(bearer(tokenFor(admins.admin, clock.now())))
      .expect(200);
  });
});

describe('role matrix', () => {
  type Call = { method: 'get' | 'post'; path: string; body?: object; admin: number; superadmin: number; forbidden?: string };
  const attentionOnly = 'Only super admins may see and review payments needing attention.';
  const refundsOnly = 'Only super admins may approve or decline refund requests.';
  const calls: Call[] = [
    { method: 'get', path: '/api/admin/therapists', admin: 200, superadmin: 200 },
    { method: 'get', path: '/api/admin/bookings', admin: 200, superadmin: 200 },
    // Mutations are sent with a booking that does not exist or a body that fails validation, so the
    // matrix shows who gets past authorisation without changing anything.
    { method: 'post', path: '/api/admin/bookings/999999/cancel', admin: 404, superadmin: 404 },
    { method: 'post', path: '/api/admin/availability/block', body: {}, admin: 400, superadmin: 400 },
    {
      method: 'post',
      path: '/api/admin/bookings/999999/update-payment-link',
      body: { payment_link_url: 'https://pay.example.test/x' },
      admin: 404,
      superadmin: 404,
    },
    { method: 'post', path: '/api/admin/bookings/999999/record-payment', body: { method: 'CASH' }, admin: 404, superadmin: 404 },
    { method: 'get', path: '/api/admin/therapists/1/slot-states', admin: 200, superadmin: 200 },
    {
      method: 'post',
      path: '/api/create-shareable-payment-link',
      body: { amount: 1, booking_id: 999999, merchant_transaction_id: 'x' },
      admin: 404,
      superadmin: 404,
    },
    { method: 'post', path: '/confirm-booking', body: { admin_confirmed: true, payment_status: 'COMPLETED' }, admin: 400, superadmin: 400 },
    { method: 'get', path: '/api/admin/clients-with-therapists?name=test', admin: 200, superadmin: 200 },
    { method: 'get', path: '/api/admin/search-clients?name=test', admin: 200, superadmin: 200 },
    { method: 'get', path: '/api/admin/income', admin: 403, superadmin: 200 },
    { method: 'get', path: '/api/admin/reports/inventory', admin: 403, superadmin: 200 },
    { method: 'get', path: '/api/admin/reports/eod?report_date=2026-11-23', admin: 403, superadmin: 200 },
    { method: 'get', path: '/api/admin/reports/therapist-monthly?year=2026&month=11', admin: 403, superadmin: 200 },
    { method: 'get', path: '/api/admin/reports/inventory.xlsx', admin: 403, superadmin: 200 },
    { method: 'get', path: '/api/admin/reports/eod.xlsx?report_date=2026-11-23', admin: 403, superadmin: 200 },
    { method: 'get', path: '/api/admin/reports/therapist-monthly.xlsx?year=2026&month=11', admin: 403, superadmin: 200 },
    { method: 'get', path: '/api/admin/audit-log', admin: 403, superadmin: 200 },
    { method: 'get', path: '/api/admin/payments/attention', admin: 403, superadmin: 200, forbidden: attentionOnly },
    { method: 'post', path: '/api/admin/payments/attention/999999/resolve', body: { note: 'Checked.' }, admin: 403, superadmin: 404, forbidden: attentionOnly },
    { method: 'get', path: '/api/admin/refunds/due', admin: 200, superadmin: 200 },
    { method: 'get', path: '/api/admin/bookings/999999/refund-options', admin: 404, superadmin: 404 },
    { method: 'post', path: '/api/admin/bookings/999999/record-refund', body: { method: 'CASH' }, admin: 404, superadmin: 404 },
    { method: 'post', path: '/api/admin/refund-requests/999999/approve', body: { refund: 'FULL' }, admin: 403, superadmin: 404, forbidden: refundsOnly },
    { method: 'post', path: '/api/admin/refund-requests/999999/decline', body: { reason: 'No.' }, admin: 403, superadmin: 404, forbidden: refundsOnly },
  ];

  const actors: Record<string, (c: Call) => { headers: Record<string, string>; expected: number }> = {
    anonymous: () => ({ headers: {}, expected: 401 }),
    admin: (c) => ({ headers: bearer(tokenFor(admins.admin, clock.now())), expected: c.admin }),
    superadmin: (c) => ({ headers: bearer(tokenFor(admins.superadmin, clock.now())), expected: c.superadmin }),
    'deactivated admin': () => ({ headers: bearer(tokenFor(admins.inactive, clock.now())), expected: 401 }),
    'expired token': () => ({ headers: bearer(tokenFor(admins.superadmin, new Date(clock.now().getTime() - 9 * 3600_000))), expected: 401 }),
    'tampered token': () => {
      const [h, p, s] = tokenFor(admins.admin, clock.now()).split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      claims.sub = String(admins.superadmin.id);
      return { headers: bearer(`${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`), expected: 401 };
    },
  };

  for (const [actor, make] of Object.entries(actors)) {
    it(`${actor}: every admin endpoint answers the expected status, and no cache may keep the answer`, async () => {
      const app = testApp(database, { now: clock.now });
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      const caching = new Set<string>();
      for (const c of calls) {
        const { headers, expected } = make(c);
        let req = request(app)[c.method](c.path).set(headers);
        if (c.body) req = req.send(c.body);
        const res = await req;
        got[`${c.method.toUpperCase()} ${c.path}`] = res.status;
        want[`${c.method.toUpperCase()} ${c.path}`] = expected;
        caching.add(String(res.headers['cache-control']));
        if (expected === 401) expect(res.body).toEqual(UNAUTHORIZED);
        if (expected === 403) expect(res.body).toEqual({ detail: c.forbidden ?? 'Only super admins may view income and reports.' });
      }
      expect(got).toEqual(want);
      expect([...caching]).toEqual(['no-store']);
    });
  }
});
