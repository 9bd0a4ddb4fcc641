import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { spawnNodeService } from '../../shared/core/node-process.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export type Stack = {
  baseUrl: string;
  database: TestDatabase;
  env: Record<string, string>;
  api: ChildProcess;
  worker: ChildProcess | undefined;
  stop: () => Promise<void>;
};

function startProcess(entry: string, env: Record<string, string>): ChildProcess {
  return spawnNodeService(entry, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
}

async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/**
 * The real product for end-to-end tests: a fresh seeded database, the API server (serving the built
 * site from site/dist) and the worker, as separate processes on a free port.
 */
export async function startStack(extraEnv: Record<string, string> = {}): Promise<Stack> {
  const database = await createTestDatabase();
  await seedDemoData(database.db);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    LOG_LEVEL: 'warn',
    QUEUE_PREFIX: `e2e-${randomBytes(4).toString('hex')}`,
    MAIL_OUTBOX_DIR: `${ROOT}var/test-mail/${database.name}`,
    ...extraEnv,
  };
  const api = startProcess('api/src/server.ts', env);
  const worker = existsSync(`${ROOT}worker/src/main.ts`) ? startProcess('worker/src/main.ts', env) : undefined;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 150 || api.exitCode !== null) throw new Error(`API did not become ready at ${baseUrl}`);
    await sleep(200);
  }
  return {
    baseUrl,
    database,
    env,
    api,
    worker,
    stop: async () => {
      await Promise.all([stopProcess(api), stopProcess(worker)]);
      await database.drop();
    },
  };
}
