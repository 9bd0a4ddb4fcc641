/**
 * No import circle among the source files (issue 33). A circle means two modules are one module split
 * in the wrong place: whichever loads first sees the other half-initialised, and neither can be
 * understood or tested alone. Every relative import counts, type-only and lazy `import()` included, so
 * a circle cannot be hidden by deferring one side of it.
 */
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles, target } from '../support/source-imports.ts';

const files = sourceFiles('api', 'worker', 'shared', 'site/src', 'site/astro.config.mjs');
const isSource = new Set(files);

/** Each source file and the source files it imports. */
const graph = new Map<string, string[]>(
  files.map((file) => {
    const targets = importsOf(file)
      .filter((imp) => imp.from.startsWith('.'))
      .map(target)
      .filter((t) => isSource.has(t));
    return [file, [...new Set(targets)].sort()];
  }),
);

/**
 * The circles of the graph: its strongly connected components of more than one file (or a file that
 * imports itself), each shown as one path round it (Tarjan's algorithm).
 */
function circles(g: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || g.get(v)?.includes(v)) components.push(component.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) connect(v);
  return components.map((component) => pathRound(g, component));
}

/** A shortest way from the component's first file back to itself, through the component. */
function pathRound(g: Map<string, string[]>, component: string[]): string[] {
  const inside = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of g.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const way = [start];
        for (let at = v; at !== start; at = cameFrom.get(at)!) way.splice(1, 0, at);
        return [...way, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return component;
}

describe('import circles', () => {
  it('reads the source trees and resolves their imports', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(graph.get('shared/core/repositories/booking-batch/booking-batch.ts')?.length).toBeGreaterThan(0);
    expect(graph.get('site/src/pages/book.astro')?.length).toBeGreaterThan(0);
    expect([...graph.values()].reduce((n, targets) => n + targets.length, 0)).toBeGreaterThan(500);
  });

  it('finds a circle when there is one', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(circles(g)).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
    ]);
  });

  it('no source file imports itself, directly or through others', () => {
    expect(circles(graph).map((way) => way.join(' → '))).toEqual([]);
  });
});
