import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';

/**
 * How the API and the worker are launched, by `npm start`, the end-to-end tests and `npm run bench`
 * alike; docker-compose's worker command and package.json's api/worker scripts repeat them.
 *
 * Node 24 sizes V8's young generation from the machine's memory (64 MB semi-spaces on big hosts),
 * which alone costs ~100 MB resident per process; 16 MB keeps scavenges cheap and memory bounded.
 */
export const NODE_FLAGS = ['--max-semi-space-size=16'];

export function spawnNodeService(
  entry: string,
  options: { cwd: string; env?: NodeJS.ProcessEnv; stdio?: StdioOptions; args?: string[] },
): ChildProcess {
  return spawn(process.execPath, [...NODE_FLAGS, entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: options.stdio ?? 'inherit',
  });
}
