/**
 * `npm start` supervises its children (issue 32): the worker killed with SIGKILL is started again
 * while the API keeps answering, and the new worker sends the next booking's mail; SIGTERM still
 * stops everything gracefully.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { offlineBooking } from '../support/factories.ts';
import { waitFor } from '../support/jobs.ts';
import { freePort, ROOT } from '../support/stack.ts';

let database: TestDatabase;
let start: ChildProcess;
let baseUrl: string;
let mailDir: string;
const lines: string[] = [];

const started = (name: string) =>
  lines.flatMap((l) => {
    const m = new RegExp(`^\\[start\\] ${name} started \\(pid (\\d+)\\)$`).exec(l);
    return m ? [Number(m[1])] : [];
  });

beforeAll(async () => {
  database = await createTestDatabase();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  mailDir = `${ROOT}var/test-mail/${database.name}`;
  start = spawn(process.execPath, ['api/src/start.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: baseUrl,
      LOG_LEVEL: 'warn',
      QUEUE_PREFIX: `supervise-${randomBytes(4).toString('hex')}`,
      MAIL_OUTBOX_DIR: mailDir,
      SITE_BUILD: 'skip',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let pending = '';
  start.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const parts = pending.split('\n');
    pending = parts.pop()!;
    lines.push(...parts.filter((l) => l.startsWith('[start] ')));
  });
  await waitFor(() => lines.some((l) => l.startsWith('[start] ready')), '`npm start` ready', 90_000);
}, 120_000);

afterAll(async () => {
  if (start && start.exitCode === null) {
    start.kill('SIGKILL');
    for (const pid of [...started('api'), ...started('worker')]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  await database?.drop();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start supervises the API and the worker', () => {
  it('starts a SIGKILLed worker again while the API answers throughout; the new worker sends the next mail', async () => {
    const [api] = started('api');
    const [worker] = started('worker');
    expect(api && worker).toBeTruthy();

    // The API is asked every 50 ms from the kill until the new worker has sent a mail.
    const answers: number[] = [];
    let asking = true;
    const probe = (async () => {
      while (asking) {
        answers.push((await fetch(`${baseUrl}/healthz`).catch(() => ({ status: 0 }))).status);
        await sleep(50);
      }
    })();

    process.kill(worker!, 'SIGKILL');
    await waitFor(() => started('worker').length === 2, 'the worker started again', 30_000);
    expect(lines).toContain('[start] worker exited (SIGKILL); starting it again in 1 s');
    const [, again] = started('worker');
    expect(again).not.toBe(worker);
    expect(alive(api!)).toBe(true);

    const slots = (await (await fetch(`${baseUrl}/api/slots?therapist_id=5`)).json()) as { days: { date: string; slots: { start_time: string }[] }[] };
    const day = slots.days.find((d) => d.slots.length > 0)!;
    const res = await fetch(`${baseUrl}/confirm-booking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(offlineBooking({ booking_date: day.date, booking_time_slot_start: day.slots[0]!.start_time })),
    });
    expect(res.status).toBe(200);
    const { booking_id: id } = (await res.json()) as { booking_id: number };
    await waitFor(
      () => existsSync(mailDir) && readdirSync(mailDir).some((f) => f.includes(`-confirmation-${id}-client-`)),
      "the new worker's confirmation mail",
      30_000,
    );
    asking = false;
    await probe;
    expect(answers.length).toBeGreaterThan(5);
    expect(answers.filter((s) => s !== 200)).toEqual([]);
  });

  it('SIGTERM stops both children and then itself', async () => {
    const [, worker] = started('worker');
    const [api] = started('api');
    const exited = new Promise<number | null>((resolve) => start.once('exit', (code) => resolve(code)));
    start.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(alive(api!)).toBe(false);
    expect(alive(worker!)).toBe(false);
    expect(lines.some((l) => l.includes('exited') && l.includes('SIGTERM'))).toBe(false);
  });
});
