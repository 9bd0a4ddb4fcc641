import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { connectDatabase, ensureDatabase } from './client.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 727_274;

/** Creates the database if needed and applies the committed SQL migrations, one process at a time. */
export async function runMigrations(url: string): Promise<void> {
  await ensureDatabase(url);
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const database = connectDatabase(url, { max: 1, applicationName: 'booking-migrate' });
    try {
      await migrate(database.db, { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await database.close();
    }
  } finally {
    await lock.end(); // ending the session releases the advisory lock
  }
}
