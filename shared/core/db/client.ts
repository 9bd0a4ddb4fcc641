import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from './pg-types.ts';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A drizzle transaction, or the database itself when the caller needs no surrounding transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;
export type Database = { db: Db; pool: pg.Pool; close: () => Promise<void> };

export function connectDatabase(url: string, options: { max?: number; applicationName?: string } = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'booking',
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor may a checked-out one. pg-pool listens for errors only while a client is idle, so a connection
  // ended between two queries of a transaction (PostgreSQL restarting, pg_terminate_backend) emitted
  // 'error' with no listener: an uncaught exception that stopped the worker (issue 32). With this
  // listener the transaction's next query rejects instead, the caller's error path runs, and the
  // client, released with that error, is discarded.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/** Creates the database named in `url` when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`create database ${pg.escapeIdentifier(name)}`);
      } catch (err) {
        // Another process created it first: fine.
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await client.end();
  }
}
