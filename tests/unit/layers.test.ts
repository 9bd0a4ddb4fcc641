/**
 * The layers say what they do (issue 23): repositories own SQL, services own rules, routes parse →
 * call one service → answer. Read from the source, so a query slipped into a service, a repository
 * called from a route or an API answer built in a repository fails here, not in review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function sourcesIn(dir: string): string[] {
  return readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f));
}

type Import = { file: string; from: string; names: string[]; typeOnly: boolean };

/** Every import (and re-export) with a module path, marked type-only when nothing of it exists at run time. */
function importsOf(file: string): { imports: Import[]; text: string; source: ts.SourceFile } {
  const text = readFileSync(path.join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const imports: Import[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
      const valueNames = named.filter((e) => !e.isTypeOnly).map((e) => e.name.text);
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly || (!clause.name && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && valueNames.length === 0));
      imports.push({ file, from: node.moduleSpecifier.text, names: named.map((e) => e.name.text), typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      imports.push({ file, from: node.moduleSpecifier.text, names: [], typeOnly: node.isTypeOnly });
    }
  }
  return { imports, text, source };
}

/** The module an import names, relative to the repository root (packages stay as written). */
function target(imp: Import): string {
  if (!imp.from.startsWith('.')) return imp.from;
  return path.posix.normalize(path.posix.join(path.posix.dirname(imp.file), imp.from));
}

/** Property accesses named `name` (`db.$client`, `pool.query`), as `file:line`. */
function accessesOf(file: string, source: ts.SourceFile, name: string): string[] {
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

const services = sourcesIn('shared/core/services');
const routes = sourcesIn('api/src/routes');
const repositories = sourcesIn('shared/core/repositories');

describe('layers', () => {
  it('finds the files it checks', () => {
    expect(services.length).toBeGreaterThan(10);
    expect(routes.length).toBeGreaterThan(5);
    expect(repositories.length).toBeGreaterThan(5);
  });

  it('services build no queries: no drizzle-orm query builders, no tables, no raw pool', () => {
    const offences: string[] = [];
    for (const file of services) {
      const { imports, source } = importsOf(file);
      for (const imp of imports) {
        if (imp.typeOnly) continue;
        const to = target(imp);
        if (to === 'drizzle-orm' || to.startsWith('drizzle-orm/')) offences.push(`${file} imports ${imp.names.join(', ')} from ${to}`);
        // The tables are what a query is built from; a service names them only as types.
        if (to === 'shared/core/db/schema.ts') offences.push(`${file} imports tables (${imp.names.join(', ')}) from the schema`);
        if ((to === 'pg' || to === 'shared/core/db/pg-types.ts') && !LISTENERS.has(file)) offences.push(`${file} imports the PostgreSQL driver`);
      }
      for (const at of accessesOf(file, source, '$client')) offences.push(`${at} uses the raw pool ($client)`);
    }
    expect(offences).toEqual([]);
  });

  it('routes call services, never repositories, the database module or the raw pool', () => {
    const offences: string[] = [];
    for (const file of routes) {
      const { imports, source } = importsOf(file);
      for (const imp of imports) {
        if (imp.typeOnly) continue;
        const to = target(imp);
        if (to.startsWith('shared/core/repositories/') || to.startsWith('shared/core/db/') || to === 'drizzle-orm' || to === 'pg') {
          offences.push(`${file} imports ${imp.names.join(', ') || 'a module'} from ${to}`);
        }
      }
      for (const at of accessesOf(file, source, '$client')) offences.push(`${at} uses the raw pool ($client)`);
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
      for (const imp of importsOf(file).imports) {
        if (!target(imp).startsWith('shared/contract/')) continue;
        const answers = imp.names.filter((n) => !CONTRACT_INPUTS.has(n));
        if (answers.length || imp.names.length === 0) offences.push(`${file} imports ${answers.join(', ') || 'a module'} from ${target(imp)}`);
      }
    }
    expect(offences).toEqual([]);
  });
});
