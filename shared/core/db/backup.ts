/**
 * Backups of the centre's database (issue 32): PostgreSQL's own tools, so a backup is what PostgreSQL
 * itself would restore, whatever this code becomes.
 *
 * - A backup is `pg_dump --format=custom`: one consistent snapshot (pg_dump reads everything in one
 *   repeatable-read transaction, so a booking and its ledger rows are never half in), compressed,
 *   restorable table by table with pg_restore.
 * - A restore is `pg_restore --single-transaction --exit-on-error`: all of it or nothing. Into an empty
 *   database only, unless forced; forced, what is there is dropped first (`--clean --if-exists`).
 *   Triggers are created after the data is loaded, so the ledger's append-only guard and the income
 *   list's triggers neither refuse nor double the rows being restored.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { ensureDatabase } from './client.ts';

export class BackupError extends Error {}

/** Runs a PostgreSQL tool; rejects with its own words (stderr) when it fails. */
function run(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (err) => reject(new BackupError(`${tool} could not be started (${err.message}); install PostgreSQL's client tools.`)));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/** Writes a consistent custom-format dump of the database at `databaseUrl` to `file`. */
export async function backupDatabase(databaseUrl: string, file: string): Promise<void> {
  await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${databaseUrl}`]);
}

/** How many tables the database's schemas hold (0: nothing to lose by restoring into it). */
async function tableCount(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    const res = await client.query<{ n: number }>("select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')");
    return res.rows[0]!.n;
  } finally {
    await client.end();
  }
}

/**
 * Restores `file` into the database at `databaseUrl`, creating the database when missing. A database
 * that already has tables is refused unless `force`, which replaces what is there.
 */
export async function restoreDatabase(databaseUrl: string, file: string, opts: { force?: boolean } = {}): Promise<void> {
  await ensureDatabase(databaseUrl);
  const tables = await tableCount(databaseUrl);
  if (tables > 0 && !opts.force) {
    throw new BackupError(
      `The database already holds ${tables} tables; nothing was restored. Restore into an empty database, or add --force to replace what is there.`,
    );
  }
  await run('pg_restore', [
    '--single-transaction',
    '--exit-on-error',
    '--no-owner',
    '--no-privileges',
    ...(tables > 0 ? ['--clean', '--if-exists'] : []),
    `--dbname=${databaseUrl}`,
    file,
  ]);
}
