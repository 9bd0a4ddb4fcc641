import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RESTART_POLICY, restartDelay, supervise } from '../../api/src/supervisor.ts';

describe('restartDelay: 1 s doubling to 30 s, reset after a minute up', () => {
  it('doubles with each quick death and stops at 30 s', () => {
    const delays: number[] = [];
    let last: number | undefined;
    for (let i = 0; i < 8; i++) delays.push((last = restartDelay(last, 500)));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts again at a second once the child stayed up a minute', () => {
    expect(restartDelay(30_000, RESTART_POLICY.steadyAfterMs)).toBe(1_000);
    expect(restartDelay(30_000, RESTART_POLICY.steadyAfterMs - 1)).toBe(30_000);
  });
});

describe('supervise', () => {
  const policy = { firstDelayMs: 20, maxDelayMs: 80, steadyAfterMs: 60_000 };

  it('starts a child that exits unasked again, with growing pauses, and stops it on request', async () => {
    const lines: string[] = [];
    let starts = 0;
    const child = supervise({
      name: 'flaky',
      // The first three exit at once; the fourth stays up until stopped.
      spawn: () => spawn(process.execPath, ['-e', ++starts <= 3 ? 'process.exit(1)' : 'setInterval(() => {}, 1000)']),
      say: (l) => lines.push(l),
      policy,
    });
    while (starts < 4) await new Promise((r) => setTimeout(r, 10));
    const running = child.current()!;
    expect(running.exitCode).toBeNull();
    expect(lines.filter((l) => l.startsWith('flaky exited (1)')).map((l) => l.replace(/^.*again in /, ''))).toEqual(['0.02 s', '0.04 s', '0.08 s']);
    await child.stop();
    expect(running.signalCode).toBe('SIGTERM');
    await new Promise((r) => setTimeout(r, 150));
    expect(starts).toBe(4);
    expect(child.current()).toBeUndefined();
  });
});
