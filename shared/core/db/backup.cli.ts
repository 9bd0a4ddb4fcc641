/**
 * `npm run db:backup -- FILE` and `npm run db:restore -- FILE [--force]` (README, Backups). Only
 * DATABASE_URL is read, so either runs from cron or a shell without the app's secrets.
 */
import { parseArgs } from 'node:util';
import { databaseUrlOnly } from '../config.ts';
import { BackupError, backupDatabase, restoreDatabase } from './backup.ts';

const usage = 'Usage: npm run db:backup -- FILE\n       npm run db:restore -- FILE [--force]\n';
const { values, positionals } = parseArgs({ options: { force: { type: 'boolean', default: false } }, allowPositionals: true });
const [command, file] = positionals;
if ((command !== 'backup' && command !== 'restore') || !file || positionals.length !== 2 || (command === 'backup' && values.force)) {
  process.stderr.write(usage);
  process.exit(64); // EX_USAGE
}
const databaseUrl = databaseUrlOnly();
const database = new URL(databaseUrl).pathname.slice(1);
try {
  if (command === 'backup') {
    await backupDatabase(databaseUrl, file);
    process.stdout.write(`Backup of ${database} written to ${file}.\n`);
  } else {
    await restoreDatabase(databaseUrl, file, { force: values.force });
    process.stdout.write(`${file} restored into ${database}.\n`);
  }
} catch (err) {
  process.stderr.write(`${err instanceof BackupError ? err.message : (err as Error).message}\n`);
  process.exit(1);
}
