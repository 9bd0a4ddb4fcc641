import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import path from 'node:path';

/**
 * How the API and the worker are launched, by `npm start`, the end-to-end tests and `npm run bench`
 * alike; docker-compose, the Dockerfile and package.json's api/worker scripts repeat them.
 *
 * Node 24 sizes V8 from the machine's memory: 64 MB semi-spaces and a multi-gigabyte old generation
 * that V8 lets grow to four times its live size between full collections. Small semi-spaces and a
 * 384 MB old-generation limit (several times the live data, even while a year's income list is being
 * answered) make V8 collect in proportion: the API's memory after the bench's load falls from about
 * 360 to under 150 MB (README, Performance). The young generation is committed at its largest once a
 * load has grown it, so its size is paid for to the end: 4 MB semi-spaces left the API 5–10 MB
 * smaller than 8 MB after the slot load, at the same throughput, once a cached read allocated 13 KB.
 */
export const NODE_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=384'];

/**
 * glibc raises its mmap threshold to the largest block freed, so after one big answer (a year's
 * income list) every later buffer of that size comes from the heap and stays resident when freed.
 * Fixed thresholds hand such blocks back to the system. Two arenas rather than one per thread (V8's
 * helpers and libuv's pool each took one, and kept what they had freed): 8 MB less after the slot
 * load, at the same throughput.
 */
export const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' };

/**
 * Node's compile cache, in the project's var/ (the app user's in Docker): a start finds the modules
 * compiled and their types stripped by an earlier one. Without it every start ran the type stripper
 * (a WebAssembly module and V8's compilers for it) over every file: the API was 10 MB larger at start
 * and 13 MB after the bench's slot and booking load (docs/performance.md). The API and worker write the
 * cache once they are ready; the export process reads it too.
 */
export function compileCacheDir(root: string): string {
  return path.join(root, 'var', 'compile-cache');
}

export function spawnNodeService(entry: string, options: { cwd: string; env?: NodeJS.ProcessEnv; stdio?: StdioOptions; args?: string[] }): ChildProcess {
  return spawn(process.execPath, [...NODE_FLAGS, entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...MALLOC_ENV, NODE_COMPILE_CACHE: compileCacheDir(options.cwd), ...(options.env ?? process.env) },
    stdio: options.stdio ?? 'inherit',
  });
}
