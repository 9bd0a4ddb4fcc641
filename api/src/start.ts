/**
 * `npm start`: migrate, seed the demo centre into an empty database, start the API and the worker,
 * build the static site (its team page reads the running API), then print the URL. The API and the
 * worker are supervised: one that exits unasked is started again while the other keeps serving.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../../shared/core/config.ts';
import { connectDatabase } from '../../shared/core/db/client.ts';
import { runMigrations } from '../../shared/core/db/migrate.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { spawnNodeService } from '../../shared/core/node-process.ts';
import { buildAndPublish } from './site-build.ts';
import { rebuildOnCatalogueChange } from './site-rebuild.ts';
import { supervise, type Supervised } from './supervisor.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cfg = config();
const say = (line: string) => process.stdout.write(`[start] ${line}\n`);

await runMigrations(cfg.databaseUrl);
say('database migrated');
if (cfg.seedDemoData) {
  const database = connectDatabase(cfg.databaseUrl, { max: 1 });
  const seeded = await seedDemoData(database.db);
  await database.close();
  say(seeded ? 'demo centre seeded' : 'database already has data');
}

const children: Supervised[] = [];
let stopping = false;

/** A child of ours, started again with backoff whenever it exits unasked (api/src/supervisor.ts). */
function run(name: string, entry: string): Supervised {
  const child = supervise({ name, spawn: () => spawnNodeService(entry, { cwd: root, env: process.env }), say });
  children.push(child);
  return child;
}

async function stopAll(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Children finish their in-flight work on SIGTERM (graceful shutdown).
  await Promise.all(children.map((c) => c.stop()));
  process.exit(code);
}
process.on('SIGTERM', () => void stopAll(0));
process.on('SIGINT', () => void stopAll(0));

run('api', 'api/src/server.ts');
// docker-compose runs the worker as its own service and sets START_WORKER=false here.
if (process.env.START_WORKER !== 'false' && existsSync(`${root}worker/src/main.ts`)) run('worker', 'worker/src/main.ts');

const local = `http://127.0.0.1:${cfg.port}`;
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`${local}/healthz`)).ok) break;
  } catch {
    // not listening yet
  }
  await sleep(200);
}

if (process.env.SITE_BUILD !== 'skip') {
  say('building the site');
  // The public address goes into the pages' canonical links, the sitemap and robots.txt.
  const siteEnv = { ...process.env, PUBLIC_BASE_URL: cfg.publicBaseUrl };
  if (!(await buildAndPublish(root, local, siteEnv))) {
    say('site build failed');
    await stopAll(1);
  }
  // The team page and the wizard's first step follow the catalogue: a change rebuilds the site beside
  // the one served and switches to it whole.
  rebuildOnCatalogueChange({
    databaseUrl: cfg.databaseUrl,
    rebuild: async () =>
      say((await buildAndPublish(root, local, siteEnv)) ? 'site rebuilt for a catalogue change' : 'site rebuild failed; the previous site is still served'),
    onError: (err) => say(`site rebuild watcher: ${err.message}`),
  });
}
say(`ready: open ${cfg.publicBaseUrl}`);
