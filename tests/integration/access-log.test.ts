import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedPath } from '../../api/src/middleware/request-log.ts';
import { spawnNodeService } from '../../shared/core/node-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { ROOT, freePort } from '../support/stack.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

/**
 * The access log is written asynchronously (logger.ts): this holds that no line is lost for it. The
 * API runs as `npm start` runs it, at the default level (info), its stdout a pipe read here.
 */
describe('the access log at the default level', () => {
  it('has one line per request, every one of them written before the process exits on SIGTERM', async () => {
    const port = await freePort();
    const api = spawnNodeService('api/src/server.ts', {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        JWT_SECRET: randomBytes(32).toString('hex'),
        QUEUE_PREFIX: `log-${randomBytes(4).toString('hex')}`,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    api.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const exited = once(api, 'exit');
    try {
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
        } catch {
          // not listening yet
        }
        if (i > 150 || api.exitCode !== null) throw new Error('the API did not start');
        await sleep(200);
      }
      // 400 requests in bursts of 50, each with its own id; then SIGTERM at once, before anything idles.
      const ids: string[] = [];
      for (let burst = 0; burst < 8; burst++) {
        await Promise.all(
          Array.from({ length: 50 }, async (_, n) => {
            const id = `flush-${burst}-${n}-${randomBytes(4).toString('hex')}`;
            ids.push(id);
            const res = await fetch(`http://127.0.0.1:${port}/therapists`, { headers: { 'X-Request-Id': id } });
            await res.arrayBuffer();
          }),
        );
      }
      api.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      const lines = out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { msg: string; req?: { id: string; url: string; method: string }; res?: { statusCode: number }; responseTime?: number });
      const access = lines.filter((l) => l.msg === 'request completed' && l.req?.id.startsWith('flush-'));
      expect(access.map((l) => l.req!.id).sort()).toEqual([...ids].sort());
      // Each line: id, method, the path without its query, status and time.
      for (const l of access) {
        expect(l.req).toEqual({ id: l.req!.id, method: 'GET', url: '/therapists' });
        expect(l.res).toEqual({ statusCode: 200 });
        expect(typeof l.responseTime).toBe('number');
      }
      expect(lines.at(-1)!.msg).toBe('stopped');
    } finally {
      if (api.exitCode === null) api.kill('SIGKILL');
    }
  });

  it('never writes a secret path segment (the Manage booking token) or the query string', () => {
    const token = 'k3J9_xQ-7bZr2LmN8pVt4YwA1cDe6FgH0iJkLmNoPqR';
    expect(loggedPath(`/api/manage/${token}`)).toBe('/api/manage/[token]');
    expect(loggedPath(`/api/manage/${token}/reschedule?x=1`)).toBe('/api/manage/[token]/reschedule');
    expect(loggedPath(`/api/manage/${token}/session.ics`)).toBe('/api/manage/[token]/session.ics');
    expect(loggedPath('/manage-booking?token=abc')).toBe('/manage-booking');
    expect(loggedPath('/api/slots?therapist_id=1')).toBe('/api/slots');
    expect(loggedPath('/get_specific_image/therapists/meera-pillai.webp')).toBe('/get_specific_image/therapists/meera-pillai.webp');
  });

  it('finds the token wherever it stands in the path, however it is written (issue 32)', () => {
    const token = 'k3J9_xQ-7bZr2LmN8pVt4YwA1cDe6FgH0iJkLmNoPqR';
    expect(loggedPath(`/api/manage/${token}.`)).toBe('/api/manage/[token].');
    expect(loggedPath(`/api/manage/${token}%20`)).toBe('/api/manage/[token]%20');
    expect(loggedPath(`/api/manage/${token}.ics`)).toBe('/api/manage/[token].ics');
    expect(loggedPath(`/a.${token}~b`)).toBe('/a.[token]~b');
    // Percent-escaped, it is the same token to Express's router.
    const escaped = [...token].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    expect(loggedPath(`/api/manage/${escaped}/reschedule`)).toBe('/api/manage/[token]/reschedule');
    expect(loggedPath(`/api/manage/${token.slice(0, 20)}%5F${token.slice(21)}`)).toBe('/api/manage/[token]');
    expect(loggedPath('/caf%C3%A9/%E0%A4%B9')).toBe('/caf%C3%A9/%E0%A4%B9');
    expect(loggedPath('/bad%E0%A4')).toBe('/bad%E0%A4');
  });
});
