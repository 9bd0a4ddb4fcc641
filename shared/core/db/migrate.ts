import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { connectDatabase, ensureDatabase } from './client.ts';
import { SHIPPED_IMAGES_DIR } from '../images.ts';
import { importPhotoFiles } from './photo-import.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 727_274;

/**
 * Creates the database if needed and applies the committed SQL migrations, one process at a time,
 * then moves photos uploaded as files into the database (photo-import.ts).
 */
export async function runMigrations(url: string, opts: { imagesDir?: string } = {}): Promise<void> {
  await ensureDatabase(url);
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const database = connectDatabase(url, { max: 1, applicationName: 'booking-migrate' });
    try {
      await migrate(database.db, { migrationsFolder: MIGRATIONS_FOLDER });
      await importPhotoFiles(lock, opts.imagesDir ?? SHIPPED_IMAGES_DIR);
    } finally {
      await database.close();
    }
  } finally {
    await lock.end(); // ending the session releases the advisory lock
  }
}
