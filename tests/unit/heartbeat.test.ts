import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/core/logger.ts';
import { startHeartbeat } from '../../worker/src/heartbeat.ts';

const logger = createLogger({ level: 'silent' });
const waitMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the worker's heartbeat file (its container's health check)", () => {
  it('is touched again and again while the checks pass, and left alone while they fail', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'beat-')), 'var', 'worker.alive');
    let well = true;
    let beats = 0;
    const beat = startHeartbeat({
      file,
      checks: async () => {
        beats++;
        if (!well) throw new Error('PostgreSQL is away');
      },
      logger,
      everyMs: 20,
    });
    while (beats < 3) await waitMs(5);
    const first = statSync(file).mtimeMs;
    expect(first).toBeGreaterThan(0);
    well = false;
    const failingFrom = beats;
    while (beats < failingFrom + 2) await waitMs(5);
    await waitMs(30);
    const whileIll = statSync(file).mtimeMs;
    const seen = beats;
    while (beats < seen + 3) await waitMs(5);
    expect(statSync(file).mtimeMs).toBe(whileIll);
    beat.stop();
    const stoppedAt = beats;
    await waitMs(80);
    expect(beats).toBe(stoppedAt);
  });
});
