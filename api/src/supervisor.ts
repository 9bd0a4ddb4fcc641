import type { ChildProcess } from 'node:child_process';

/**
 * How `npm start` keeps its children running (issue 32): a child that exits when nobody asked it to
 * is started again after a pause, while the others keep serving. The pause starts at a second and
 * doubles with each quick death up to half a minute, so a child that cannot start (a bad setting, a
 * database that is away) is retried without spinning; a child that stayed up for a minute is trusted
 * again, and its next restart waits a second.
 */
export const RESTART_POLICY = { firstDelayMs: 1_000, maxDelayMs: 30_000, steadyAfterMs: 60_000 };

/** The pause before the next start, given the last pause (none yet: undefined) and how long the child was up. */
export function restartDelay(lastDelayMs: number | undefined, upMs: number, policy = RESTART_POLICY): number {
  if (lastDelayMs === undefined || upMs >= policy.steadyAfterMs) return policy.firstDelayMs;
  return Math.min(lastDelayMs * 2, policy.maxDelayMs);
}

export type Supervised = {
  readonly name: string;
  /** The child running now (undefined while waiting to restart). */
  current(): ChildProcess | undefined;
  /** Stops restarting and ends the child gracefully (SIGTERM), resolving once it has exited. */
  stop(): Promise<void>;
};

export function supervise(opts: {
  name: string;
  spawn: () => ChildProcess;
  say: (line: string) => void;
  policy?: typeof RESTART_POLICY;
  now?: () => number;
}): Supervised {
  const now = opts.now ?? Date.now;
  let child: ChildProcess | undefined;
  let stopped = false;
  let lastDelay: number | undefined;
  let timer: NodeJS.Timeout | undefined;

  const start = () => {
    timer = undefined;
    if (stopped) return;
    const startedAt = now();
    const c = opts.spawn();
    child = c;
    opts.say(`${opts.name} started (pid ${c.pid})`);
    c.on('exit', (code, signal) => {
      if (child === c) child = undefined;
      if (stopped) return;
      const delay = restartDelay(lastDelay, now() - startedAt, opts.policy);
      lastDelay = delay;
      opts.say(`${opts.name} exited (${signal ?? code}); starting it again in ${delay / 1000} s`);
      timer = setTimeout(start, delay);
    });
  };
  start();

  return {
    name: opts.name,
    current: () => child,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGTERM');
      await exited;
    },
  };
}
