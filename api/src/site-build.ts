import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { spawnNodeService } from '../../shared/core/node-process.ts';

/**
 * How the static site is built, by `npm start`, the end-to-end tests and `npm run bench` alike: always
 * for production. Under NODE_ENV=test (as in vitest) or development, Vite bundles React's development
 * build: the wizard page would ship 140 KB of gzipped JavaScript instead of 79.
 */
export const ASTRO_CLI = 'node_modules/astro/bin/astro.mjs';
export const SITE_BUILD_ARGS = ['build', '--root', 'site', '--silent'];

export function siteBuildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1' };
}

/** Builds kept besides the one served, to roll back to by hand. */
export const KEPT_BUILDS = 2;

/** Where builds go (site/builds/<stamp>) and what is served (site/dist, a link to one of them). */
export function sitePaths(root: string): { builds: string; served: string } {
  return { builds: path.join(root, 'site', 'builds'), served: path.join(root, 'site', 'dist') };
}

/**
 * Points site/dist at `build` in one step: a new link is made beside it and renamed over it, and a
 * rename is atomic, so every request finds either the whole old site or the whole new one, never a
 * folder Astro is still writing. A page loaded just before still asks for its own hashed scripts, so
 * those of the site being replaced that the new build lacks are copied into it first. A site/dist that
 * is still a real folder (an older checkout's build) is moved into site/builds. Builds beyond the
 * newest KEPT_BUILDS besides the served one are removed.
 */
export function publishBuild(root: string, build: string): void {
  const { builds, served } = sitePaths(root);
  if (existsSync(served) && !lstatSync(served).isSymbolicLink()) renameSync(served, path.join(builds, `legacy-${Date.now()}`));
  const oldAssets = path.join(served, '_astro');
  const newAssets = path.join(build, '_astro');
  if (existsSync(oldAssets)) {
    mkdirSync(newAssets, { recursive: true });
    for (const name of readdirSync(oldAssets)) {
      if (!existsSync(path.join(newAssets, name))) copyFileSync(path.join(oldAssets, name), path.join(newAssets, name));
    }
  }
  const next = `${served}.next-${process.pid}`;
  rmSync(next, { force: true });
  symlinkSync(path.relative(path.dirname(served), build), next);
  renameSync(next, served);
  const current = path.basename(build);
  // Newest first by when each was written (a legacy folder keeps its own age).
  const older = readdirSync(builds)
    .filter((name) => name !== current)
    .map((name) => ({ name, at: statSync(path.join(builds, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at || b.name.localeCompare(a.name))
    .map((b) => b.name);
  for (const name of older.slice(KEPT_BUILDS)) rmSync(path.join(builds, name), { recursive: true, force: true });
}

/**
 * Builds the site into a fresh folder and publishes it (publishBuild). `apiUrl` is where the build
 * reads the live catalogue (the team page); without it the build reads its default. Resolves true when the new site is being served; a failed
 * build leaves the served site as it was.
 */
export async function buildAndPublish(root: string, apiUrl: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const { builds } = sitePaths(root);
  mkdirSync(builds, { recursive: true });
  const stamp = new Date().toISOString().replace(/[-:.TZ]/g, '');
  const out = path.join(builds, stamp);
  const child = spawnNodeService(ASTRO_CLI, {
    cwd: root,
    env: siteBuildEnv({ ...env, ...(apiUrl ? { BUILD_API_URL: apiUrl } : {}), SITE_OUT_DIR: out }),
    args: SITE_BUILD_ARGS,
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0 || !existsSync(path.join(out, 'index.html'))) {
    rmSync(out, { recursive: true, force: true });
    return false;
  }
  publishBuild(root, out);
  return true;
}
