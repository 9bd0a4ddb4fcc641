/**
 * Slow downloads of the whole income list cannot exhaust the database pool (issue 32): at most two
 * stream at once per API process (a third is a 429 with Retry-After), a reader that stalls is let go
 * with its connection, and other calls are unaffected meanwhile.
 */
import type http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { WHOLE_LIST_BUSY, WholeListGate } from '../../api/src/http/whole-list-gate.ts';
import { bearer, createAdmins, tokenFor } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { insertPaidOnlineBookings } from '../support/reports.ts';
import { MONDAY_MORNING_IST, offlineBooking } from '../support/factories.ts';

let database: TestDatabase;
let server: http.Server;
let port: number;
let boss: Record<string, string>;
let app: ReturnType<typeof testApp>;
const clock = fixedClock(MONDAY_MORNING_IST);
const STALL_MS = 1_500;

beforeAll(async () => {
  // A small pool, as a busy API's is: twenty stalled copies would have taken all of it.
  database = await createTestDatabase();
  await seedDemoData(database.db);
  const admins = await createAdmins(database.db);
  boss = bearer(tokenFor(admins.superadmin, clock.now()));
  // A list far larger than what the sockets' buffers hold, so a reader that reads nothing stalls it.
  await insertPaidOnlineBookings(database, { count: 40_000, therapists: 4, perDay: 40, hours: 10, name: 'Client with a long name', email: 'client.' });
  app = testApp(database, { now: clock.now, wholeListGate: new WholeListGate({ stallMs: STALL_MS }) });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await database?.drop();
});

/** A client that asks for the whole list and then reads nothing: answers with the status line it got. */
function stalledReader(): Promise<{ socket: net.Socket; status: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /api/admin/income HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${boss.Authorization}\r\nAccept-Encoding: identity\r\n\r\n`);
    });
    socket.once('data', (chunk: Buffer) => {
      socket.pause(); // from here on, nothing is read
      resolve({ socket, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1]) });
    });
    socket.once('error', reject);
  });
}

const copiesRunning = async () =>
  (
    await database.pool.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and (state = 'active' or state like 'idle in transaction%')",
    )
  ).rows[0]!.n;

describe('the whole income list under slow readers', () => {
  it('streams two at once, answers the rest 429 with Retry-After, and other calls go on meanwhile', async () => {
    const readers: { socket: net.Socket; status: number }[] = [];
    for (let i = 0; i < 20; i++) readers.push(await stalledReader());
    expect(readers.map((r) => r.status)).toEqual([200, 200, ...Array(18).fill(429)]);
    const refused = await request(app).get('/api/admin/income').set(boss).expect(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.body.detail).toBe(WHOLE_LIST_BUSY);
    // Pages are short queries: not counted.
    await request(app).get('/api/admin/income?page=1&page_size=10').set(boss).expect(200);
    expect(await copiesRunning()).toBeLessThanOrEqual(2);
    // A client books while the two copies are held.
    await request(app).post('/confirm-booking').send(offlineBooking()).expect(200);

    // Stalled past the limit, both readers are let go and their connections given back.
    await vi.waitFor(async () => expect(await copiesRunning()).toBe(0), { timeout: STALL_MS * 4, interval: 100 });
    for (const r of readers) r.socket.destroy();
    // Their places are free again: the list is there for a reader who reads.
    const whole = await request(app).get('/api/admin/income').set(boss).expect(200);
    expect(whole.body.payments).toHaveLength(40_000);
  }, 60_000);
});
