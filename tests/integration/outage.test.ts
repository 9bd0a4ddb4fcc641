import { createServer, type AddressInfo } from 'node:net';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../shared/core/db/client.ts';
import { isConnectionFailure } from '../../shared/core/errors.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { signAdminToken } from '../../shared/core/services/auth.service.ts';
import { bearer } from '../support/admin.ts';
import { fixedClock, testApp, testConfig } from '../support/app.ts';
import { MONDAY_MORNING_IST, onlineBooking } from '../support/factories.ts';

const UNAVAILABLE = 'The service is briefly unavailable. Please try again in a minute.';

/** A port nothing listens on: bound by the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let down: Database;
let app: ReturnType<typeof testApp>;
const lines: Record<string, any>[] = [];
const clock = fixedClock(MONDAY_MORNING_IST);

beforeAll(async () => {
  down = connectDatabase(`postgres://root@127.0.0.1:${await closedPort()}/booking`, { max: 2 });
  const logger = createLogger({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  app = testApp({ ...down, url: '', name: '', drop: async () => {} }, { logger, now: clock.now });
});
afterAll(async () => {
  await down.close();
});

async function expectUnavailable(req: request.Test): Promise<void> {
  const res = await req;
  expect(res.status, JSON.stringify(res.body)).toBe(503);
  expect(res.headers['retry-after']).toBe('60');
  expect(res.body.detail).toBe(UNAVAILABLE);
  expect(res.body.request_id).toBe(res.headers['x-request-id']);
}

describe('PostgreSQL out of reach: 503, Retry-After, "briefly unavailable"', () => {
  it('a public read', async () => {
    await expectUnavailable(request(app).get('/therapists'));
    await expectUnavailable(request(app).get('/api/slots?therapist_id=1'));
  });

  it('a booking', async () => {
    await expectUnavailable(request(app).post('/confirm-booking').send(onlineBooking()));
  });

  it('admin calls, signing in included', async () => {
    const token = signAdminToken({ id: 1, sessionVersion: 1 }, testConfig.jwtSecret, testConfig.jwtTtlSeconds, clock.now());
    await expectUnavailable(request(app).get('/api/admin/bookings').set(bearer(token)));
    await expectUnavailable(request(app).post('/api/admin/bookings/1/cancel').set(bearer(token)));
    await expectUnavailable(request(app).post('/api/admin/login').send({ username: 'super', password: 'anything at all' }));
  });

  it('readiness says not ready', async () => {
    const res = await request(app).get('/readyz').expect(503);
    expect(res.body.status).toBe('not ready');
    expect(res.body.checks.redis).toBe('ok');
    expect(res.headers['retry-after']).toBe('60');
  });

  it('is logged as a warning with the connection error, not as an unhandled error', () => {
    const warned = lines.filter((l) => l.msg === 'dependency unavailable');
    expect(warned.length).toBeGreaterThanOrEqual(6);
    expect(lines.some((l) => l.msg === 'unhandled error')).toBe(false);
    expect(JSON.stringify(warned)).toMatch(/ECONNREFUSED/);
  });
});

describe('what counts as a connection failure', () => {
  const pgError = (code: string) => Object.assign(new Error('server says no'), { code, severity: 'FATAL' });
  it.each([
    [
      'connection refused, wrapped by Drizzle',
      new DrizzleQueryError('select 1', [], Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })),
    ],
    [
      'both addresses of a host refused',
      new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' }), Object.assign(new Error('b'), { code: 'ECONNREFUSED' })]),
    ],
    ['a connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a connect timeout', Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' })],
    ['the server went away', new DrizzleQueryError('select 1', [], new Error('Connection terminated unexpectedly'))],
    ['the pool timed out', new Error('timeout exceeded when trying to connect')],
    ['a connection timeout', new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') })],
    ['admin_shutdown', pgError('57P01')],
    ['crash_shutdown', pgError('57P02')],
    ['cannot_connect_now (starting up)', pgError('57P03')],
    ['too_many_connections', pgError('53300')],
    ['connection_failure (class 08)', pgError('08006')],
  ])('%s', (_label, err) => {
    expect(isConnectionFailure(err)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505')],
    ['a bad cast', pgError('22P02')],
    ['a query cancelled by statement_timeout', pgError('57014')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['nothing', undefined],
  ])('not %s', (_label, err) => {
    expect(isConnectionFailure(err)).toBe(false);
  });
});
