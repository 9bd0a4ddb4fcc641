import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectDatabase, type Database } from '../../shared/core/db/client.ts';
import { runMigrations } from '../../shared/core/db/migrate.ts';

const SERVER_URL = process.env.TEST_DATABASE_SERVER ?? 'postgres://root@127.0.0.1:5432';
export const TEMPLATE_DB = 'booking_test_template';

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
