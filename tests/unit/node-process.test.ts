import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCacheDir, spawnNodeService } from '../../shared/core/node-process.ts';

describe('how the API and worker are launched', () => {
  it('with the V8 limits, the glibc thresholds and a compile cache in the project’s var/ that the next start reads', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'node-process-'));
    writeFileSync(
      path.join(root, 'service.ts'),
      `import module from 'node:module';
import v8 from 'node:v8';
const limit: number = v8.getHeapStatistics().heap_size_limit;
module.flushCompileCache();
console.log(JSON.stringify({ cache: module.getCompileCacheDir(), mmap: process.env.MALLOC_MMAP_THRESHOLD_, arenas: process.env.MALLOC_ARENA_MAX, limitMb: Math.round(limit / 1048576) }));
`,
    );
    const run = async () => {
      const child = spawnNodeService('service.ts', { cwd: root, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c));
      await once(child, 'exit');
      return JSON.parse(out) as { cache: string; mmap: string; arenas: string; limitMb: number };
    };
    try {
      const first = await run();
      expect(first.cache.startsWith(compileCacheDir(root))).toBe(true);
      expect(first.mmap).toBe('131072');
      expect(first.arenas).toBe('2');
      // 384 MB of old generation plus the young generation's semi-spaces.
      expect(first.limitMb).toBeGreaterThanOrEqual(384);
      expect(first.limitMb).toBeLessThan(450);
      // The first start wrote the module, type-stripped and compiled, for the next.
      expect(readdirSync(first.cache).length).toBeGreaterThan(0);
      expect((await run()).cache).toBe(first.cache);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
