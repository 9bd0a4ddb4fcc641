/**
 * The source files' imports, read with TypeScript's parser: what the layering and import-circle tests
 * (tests/unit/layers.test.ts, import-cycles.test.ts) check.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = fileURLToPath(new URL('../../', import.meta.url));

const SOURCE = /\.(ts|tsx|mts|mjs|astro)$/;

/** Every source file under the folders (at any depth) or naming a file, relative to the repository root. */
export function sourceFiles(...trees: string[]): string[] {
  return trees.flatMap((rel) => {
    const full = path.join(root, rel);
    if (statSync(full).isFile()) return [rel];
    return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(child);
      return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [child] : [];
    });
  });
}

/**
 * The script parts of a file, parsed: all of it for TypeScript and JavaScript; for an Astro component
 * its frontmatter and its `<script>` elements.
 */
export function scriptsOf(file: string): ts.SourceFile[] {
  let parsed = parsedFiles.get(file);
  if (!parsed) parsedFiles.set(file, (parsed = parse(file)));
  return parsed;
}

const parsedFiles = new Map<string, ts.SourceFile[]>();

function parse(file: string): ts.SourceFile[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const parts: string[] = [];
  if (file.endsWith('.astro')) {
    const frontmatter = /^\s*---\r?\n([\s\S]*?)\r?\n---/.exec(text);
    if (frontmatter?.[1]) parts.push(frontmatter[1]);
    for (const m of text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) if (m[1]) parts.push(m[1]);
  } else parts.push(text);
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return parts.map((part) => ts.createSourceFile(file, part, ts.ScriptTarget.Latest, true, kind));
}

export type Import = {
  file: string;
  from: string;
  names: string[];
  /** Nothing of it exists at run time: `import type`, only type-only names, or an `import('…')` type. */
  typeOnly: boolean;
};

/** Every module a file names: imports, re-exports, `import()` calls and `import('…')` types. */
export function importsOf(file: string): Import[] {
  const imports: Import[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (!clause.name && named.length > 0 && named.every((e) => e.isTypeOnly)));
      imports.push({ file, from: node.moduleSpecifier.text, names: named.map((e) => e.name.text), typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      imports.push({ file, from: node.moduleSpecifier.text, names: [], typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) imports.push({ file, from: arg.text, names: [], typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      imports.push({ file, from: node.argument.literal.text, names: [], typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  for (const source of scriptsOf(file)) visit(source);
  return imports;
}

/**
 * The module an import names: a package as written; a relative path as the file it names, relative to
 * the repository root (with the extension or index it may leave out).
 */
export function target(imp: Import): string {
  if (!imp.from.startsWith('.')) return imp.from;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(imp.file), imp.from));
  const candidates = [base, ...['.ts', '.tsx', '.mjs', '.astro', '/index.ts', '/index.tsx'].map((tail) => base + tail)];
  return candidates.find((c) => existsSync(path.join(root, c)) && statSync(path.join(root, c)).isFile()) ?? base;
}
