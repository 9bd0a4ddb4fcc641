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
