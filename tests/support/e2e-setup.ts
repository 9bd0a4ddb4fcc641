import { execFileSync } from 'node:child_process';
import { prepareTemplateDatabase } from './db.ts';
import { ROOT } from './stack.ts';

/** e2e runs against the production build of the site, built once per run. */
export default async function setup(): Promise<void> {
  await prepareTemplateDatabase();
  execFileSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build', '--root', 'site', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: 'inherit',
  });
}
