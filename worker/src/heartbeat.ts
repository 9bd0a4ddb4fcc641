import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../shared/core/logger.ts';

/** How often the worker says it is well, and how stale a heartbeat its health check accepts (docker-compose.yml). */
export const HEARTBEAT_EVERY_MS = 10_000;

/**
 * The worker's health, for a container health check (the worker serves no HTTP): every 10 s, while
 * PostgreSQL and Redis both answer it, the file's modification time is set to now. A worker that
 * hangs, or has lost either, stops touching it, and the check (the file older than 45 s) fails.
 */
export function startHeartbeat(opts: { file: string; checks: () => Promise<unknown>; logger: Logger; everyMs?: number }): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const beat = async () => {
    try {
      await opts.checks();
      await mkdir(path.dirname(opts.file), { recursive: true });
      const handle = await open(opts.file, 'w');
      await handle.writeFile(`${new Date().toISOString()}\n`);
      await handle.close();
    } catch (err) {
      opts.logger.warn({ err: (err as Error).message }, 'worker health: not well, heartbeat skipped');
    }
    if (!stopped) timer = setTimeout(() => void beat(), opts.everyMs ?? HEARTBEAT_EVERY_MS);
  };
  void beat();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
