import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { connectDatabase, type Database } from '../../shared/core/db/client.ts';
import { MIGRATIONS_FOLDER, runMigrations } from '../../shared/core/db/migrate.ts';

const SERVER_URL = process.env.TEST_DATABASE_SERVER ?? 'postgres://root@127.0.0.1:5432';
/**
 * Named after the migrations and the checkout they are in, so two checkouts testing at once never
 * drop each other's template, even when their migrations are the same.
 */
function migrationsFingerprint(): string {
  const hash = createHash('sha256').update(MIGRATIONS_FOLDER);
  for (const file of readdirSync(MIGRATIONS_FOLDER)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    hash.update(file).update(readFileSync(path.join(MIGRATIONS_FOLDER, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

export const TEMPLATE_DB = `booking_test_template_${migrationsFingerprint()}`;

export function urlFor(name: string): string {
  return `${SERVER_URL}/${name}`;
}

async function withServer<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlFor('postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function prepareTemplateDatabase(): Promise<void> {
  await withServer(async (c) => {
    await c.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
  });
  await runMigrations(urlFor(TEMPLATE_DB));
}

export type TestDatabase = Database & { url: string; name: string; drop: () => Promise<void> };

/** A fresh, migrated, empty database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `booking_test_${randomBytes(6).toString('hex')}`;
  await withServer((c) => c.query(`create database ${name} template ${TEMPLATE_DB}`));
  const url = urlFor(name);
  const database = connectDatabase(url, { max: 20, applicationName: 'booking-test' });
  return {
    ...database,
    url,
    name,
    drop: async () => {
      await database.close();
      await withServer((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
