/**
 * The layers say what they do (issue 23): repositories own SQL, services own rules, routes parse →
 * call one service → answer. Read from the source, so a query slipped into a service, a repository
 * called from a route or an API answer built in a repository fails here, not in review.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importsOf, scriptsOf, sourceFiles, target } from '../support/source-imports.ts';

/** Property accesses named `name` (`db.$client`, `pool.query`), as `file:line`. */
function accessesOf(file: string, name: string): string[] {
  const source = scriptsOf(file)[0]!;
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === name) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Services that hold a LISTEN connection of their own (no query: they are told of changes). The read
 * cache listens for catalog_changed to drop its answers.
 */
const LISTENERS = new Set(['shared/core/services/read-cache.service.ts']);

// Every file at any depth: a subfolder (repositories/booking-batch/) is checked like the rest.
const services = sourceFiles('shared/core/services');
const routes = sourceFiles('api/src/routes');
const repositories = sourceFiles('shared/core/repositories');
/** What the services build on: the job table and outbox, SQL, the providers, the database, the rules and the contract. */
const belowServices = sourceFiles(
  'shared/core/jobs',
  'shared/core/repositories',
  'shared/core/providers',
  'shared/core/db',
  'shared/domain',
  'shared/contract',
);
const sitePages = sourceFiles('site/src');

describe('layers', () => {
  it('finds the files it checks', () => {
    expect(services.length).toBeGreaterThan(10);
    expect(routes.length).toBeGreaterThan(5);
    expect(repositories.length).toBeGreaterThan(5);
    expect(repositories).toContain('shared/core/repositories/booking-batch/booking-batch.ts');
    expect(sitePages.filter((f) => f.endsWith('.astro')).length).toBeGreaterThan(10);
  });

  it('nothing the services build on imports a service (the outbox relay, a provider, a repository)', () => {
    const offences = belowServices.flatMap((file) =>
      importsOf(file)
        .filter((imp) => target(imp).startsWith('shared/core/services/'))
        .map((imp) => `${file} imports ${imp.names.join(', ') || 'a module'} from ${target(imp)}`),
    );
    expect(offences).toEqual([]);
  });

  /**
   * The site is built apart from the API and runs in browsers: its pages and islands take the contract
   * and the domain from shared/, never server code, and its build imports nothing of the API or the worker.
   */
  it('the site imports no server code', () => {
    // One exception: the build reads its settings through the server's config schema (site-config.ts),
    // so the two cannot drift; only build-time pages and endpoints import that module, never an island.
    const buildSettings = (file: string, to: string) => file === 'site/src/lib/site-config.ts' && to === 'shared/core/config.ts';
    const offences = [...sitePages, 'site/astro.config.mjs'].flatMap((file) =>
      importsOf(file)
        .map(target)
        .filter(
          (to) =>
            to.startsWith('api/') ||
            to.startsWith('worker/') ||
            (file.startsWith('site/src/') && to.startsWith('shared/core/') && !buildSettings(file, to)) ||
            (file.startsWith('site/src/islands/') && to === 'site/src/lib/site-config.ts'),
        )
        .map((to) => `${file} imports ${to}`),
    );
    expect(offences).toEqual([]);
  });

  it('services build no queries: no drizzle-orm query builders, no tables, no raw pool', () => {
    const offences: string[] = [];
    for (const file of services) {
      for (const imp of importsOf(file)) {
        if (imp.typeOnly) continue;
        const to = target(imp);
        if (to === 'drizzle-orm' || to.startsWith('drizzle-orm/')) offences.push(`${file} imports ${imp.names.join(', ')} from ${to}`);
        // The tables are what a query is built from; a service names them only as types.
        if (to === 'shared/core/db/schema.ts') offences.push(`${file} imports tables (${imp.names.join(', ')}) from the schema`);
        if ((to === 'pg' || to === 'shared/core/db/pg-types.ts') && !LISTENERS.has(file)) offences.push(`${file} imports the PostgreSQL driver`);
      }
      for (const at of accessesOf(file, '$client')) offences.push(`${at} uses the raw pool ($client)`);
    }
    expect(offences).toEqual([]);
  });

  it('routes call services, never repositories, the database module or the raw pool', () => {
    const offences: string[] = [];
    for (const file of routes) {
      for (const imp of importsOf(file)) {
        if (imp.typeOnly) continue;
        const to = target(imp);
        if (to.startsWith('shared/core/repositories/') || to.startsWith('shared/core/db/') || to === 'drizzle-orm' || to === 'pg') {
          offences.push(`${file} imports ${imp.names.join(', ') || 'a module'} from ${to}`);
        }
      }
      for (const at of accessesOf(file, '$client')) offences.push(`${at} uses the raw pool ($client)`);
    }
    expect(offences).toEqual([]);
  });

  /**
   * What a repository may take from the contract: the words of a query (filters, statuses), never the
   * shape of an answer. Answers are mapped from rows in the services.
   */
  const CONTRACT_INPUTS = new Set(['BookingFilterStatus', 'PaymentStatus', 'BookingType', 'LedgerMethodDto']);

  it('repositories return rows: no API answer types from the contract', () => {
    const offences: string[] = [];
    for (const file of repositories) {
      for (const imp of importsOf(file)) {
        if (!target(imp).startsWith('shared/contract/')) continue;
        const answers = imp.names.filter((n) => !CONTRACT_INPUTS.has(n));
        if (answers.length || imp.names.length === 0) offences.push(`${file} imports ${answers.join(', ') || 'a module'} from ${target(imp)}`);
      }
    }
    expect(offences).toEqual([]);
  });
});
