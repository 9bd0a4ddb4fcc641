import { execFileSync } from 'node:child_process';
import { ASTRO_CLI, SITE_BUILD_ARGS, siteBuildEnv } from '../../api/src/site-build.ts';
import { prepareTemplateDatabase } from './db.ts';
import { ROOT } from './stack.ts';

/** e2e runs against the production build of the site, built once per run. */
export default async function setup(): Promise<void> {
  await prepareTemplateDatabase();
  execFileSync(process.execPath, [ASTRO_CLI, ...SITE_BUILD_ARGS], { cwd: ROOT, env: siteBuildEnv(process.env), stdio: 'inherit' });
}
