import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';
import { ADMIN_MESSAGES as AM } from '../../../shared/contract/admin.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { compileCacheDir, spawnNodeService } from '../../../shared/core/node-process.ts';
import { NO_ROWS_EXIT_CODE, type Export } from '../../../shared/core/services/report-export.service.ts';

const WORKBOOK_PROCESS = fileURLToPath(new URL('./workbook-process.ts', import.meta.url));
// In the project's own var/ (the app user's in Docker), not a shared /tmp another user could write to.
const COMPILE_CACHE = compileCacheDir(fileURLToPath(new URL('../../../', import.meta.url)));

/** A year's export takes about a second; one still running after two minutes is stuck. */
const WORKBOOK_DEADLINE_MS = 120_000;

/** What a workbook process may see of the API's environment: how to reach PostgreSQL and the locale, not the API's secrets. */
const PASSED_ON = /^(PG[A-Z]+|PATH|HOME|TZ|LANG|LC_[A-Z]+|NODE_ENV|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR))$/;

/** The workbook process's environment: PASSED_ON from `parent`, the database to read and Node's compile cache. */
export function workbookEnv(parent: NodeJS.ProcessEnv, databaseUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(parent)) if (PASSED_ON.test(key)) env[key] = value;
  // Node's compile cache: the process then starts without compiling exceljs and pg again each time.
  return { ...env, DATABASE_URL: databaseUrl, NODE_COMPILE_CACHE: COMPILE_CACHE };
}

/** One workbook process at a time per API process: a second download waits its turn (about a second). */
let queue: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work);
  queue = run.catch(() => {});
  return run;
}

/**
 * Sends the workbook written by a workbook process (workbook-process.ts) as an attachment. The process
 * reads the payments ledger from `databaseUrl` itself; other exports carry their rows. No rows answers
 * 404 "No data to export."; a process that fails before its first byte is a 500, and one that fails
 * after it cuts the download short, never a complete-looking file.
 */
export function sendWorkbook(res: Response, e: Export, databaseUrl: string, { deadlineMs = WORKBOOK_DEADLINE_MS } = {}): Promise<void> {
  if (Array.isArray(e.rows) && e.rows.length === 0) return Promise.reject(new AppError('not_found', AM.noDataToExport));
  return inTurn(async () => {
    const child = spawnNodeService(WORKBOOK_PROCESS, {
      cwd: process.cwd(),
      env: workbookEnv(process.env, databaseUrl),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Never rejects: a process that could not start reports 'error', and may never report 'close'.
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr = (stderr + s).slice(-4000)));
    // An admin who leaves mid-download leaves no process behind, and a stuck one does not hold the queue.
    const stop = () => child.kill('SIGKILL');
    let left = false;
    const leave = () => {
      left = !res.writableFinished;
      stop();
    };
    res.once('close', leave);
    const deadline = setTimeout(stop, deadlineMs);
    try {
      child.stdin!.end(JSON.stringify(e));
      // 'readable' comes with the first data, or at the end when there was none.
      if (child.stdout!.readableLength === 0) await Promise.race([once(child.stdout!, 'readable'), closed]);
      if (child.stdout!.readableLength > 0) {
        res.status(200);
        res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
        res.setHeader('Content-Disposition', `attachment; filename="${e.fileName}"`);
        res.setHeader('Cache-Control', 'no-store');
        // The answer ends only once the process has said it finished: a crash must not look like a file.
        await pipeline(child.stdout!, res, { end: false });
      }
      const { code, signal, error } = await closed;
      if (error) throw error;
      if (code === 0 && res.headersSent) return void res.end();
      if (code === NO_ROWS_EXIT_CODE && !res.headersSent) throw new AppError('not_found', AM.noDataToExport);
      throw new Error(`the workbook process ended with ${signal ?? `code ${code}`}: ${stderr.trim()}`);
    } catch (err) {
      stop();
      // The next export starts only once this process is gone.
      await closed;
      // An admin who left is not a failure of ours; the request log records the download as aborted.
      if (left) return;
      if (res.headersSent) res.destroy(err as Error);
      throw err;
    } finally {
      clearTimeout(deadline);
      res.off('close', leave);
    }
  });
}
