/**
 * docker-compose.yml deploys what the README documents (issue 32): every configuration variable is in
 * the README's table and reaches the containers, and the worker has a health check of its own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../shared/core/config.ts';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const compose = readFileSync(new URL('docker-compose.yml', root), 'utf8');

/** The variables named in the first column of the README's Configuration table. */
const documented = (() => {
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5));
  return new Set(
    table.split('\n').flatMap((line) => (line.startsWith('| `') ? [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!) : [])),
  );
})();

/** The keys of the environment block every app container shares. */
const passedOn = (() => {
  const block = compose.slice(compose.indexOf('x-app-env: &app-env'), compose.indexOf('\nservices:'));
  return new Set([...block.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!));
})();

/** Set by compose elsewhere or deliberately left out, each for a reason. */
const NOT_IN_THE_SHARED_BLOCK: Record<string, string> = {
  PORT: 'the container listens on 3000; the host port is mapped from PORT in ports:',
  HOST: 'the container listens on every interface, the default',
  SEED_DEMO_DATA: 'never in production',
  WORKER_HEALTH_FILE: "set on the worker's own service",
};

describe('docker-compose.yml and the README', () => {
  it('the README documents every variable the configuration reads, and no other', () => {
    expect(CONFIG_VARIABLES.filter((v) => !documented.has(v))).toEqual([]);
    // The site's build reads its settings (the footer's social links too) through the same schema.
    expect([...documented].filter((v) => !CONFIG_VARIABLES.includes(v))).toEqual([]);
  });

  it('every documented variable reaches the API and the worker', () => {
    expect([...documented].filter((v) => !passedOn.has(v) && !(v in NOT_IN_THE_SHARED_BLOCK))).toEqual([]);
    expect(compose).toMatch(/^ {6}WORKER_HEALTH_FILE: \/app\/var\/worker\.alive$/m);
  });

  it("the worker has a health check of its own, on the file it touches, not the API's /healthz", () => {
    const worker = compose.slice(compose.indexOf('\n  worker:'), compose.indexOf('\nvolumes:'));
    expect(worker).toMatch(/healthcheck:\n\s+test: \[.*\/app\/var\/worker\.alive.*45000/);
    expect(worker).not.toMatch(/healthz/);
  });
});
