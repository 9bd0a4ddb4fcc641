/**
 * copyOut (shared/core/db/copy-out.ts) runs COPY … TO STDOUT through pg's untyped contract with its
 * active query: pg calls handleCopyData, handleError and handleReadyForQuery. These tests are what
 * says a version of pg still does: without them a row, the end or an error would be lost silently
 * (no rows, a copy that never ends, an error never reported), and the whole income list with it.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyOut } from '../../shared/core/db/copy-out.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** A client of the pool for `use`, then handed back (closed, if `use` failed). */
async function withClient<T>(use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await database.pool.connect();
  try {
    const result = await use(client);
    client.release();
    return result;
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
}

/** The client is ready for its next query: pg let go of the copy. */
const answers = async (client: pg.PoolClient) => expect((await client.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);

describe('copyOut', () => {
  it('hands over each row as its bytes, in order, then ends; the client goes on', async () => {
    await withClient(async (client) => {
      const rows: string[] = [];
      const copy = copyOut(client, `copy (select n, 'row ' || n from generate_series(1, 5000) n) to stdout`, (row) => rows.push(row.toString('utf8')));
      await copy.done;
      expect(rows).toEqual(Array.from({ length: 5000 }, (_, i) => `${i + 1}\trow ${i + 1}\n`));
      await answers(client);
    });
  });

  it('paused, holds PostgreSQL at its socket until resumed', async () => {
    await withClient(async (client) => {
      const { pid } = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!;
      // Far more than the sockets' buffers hold: 30 MB.
      const rows = 30_000;
      let bytes = 0;
      const copy = copyOut(client, `copy (select repeat('x', 999) from generate_series(1, ${rows})) to stdout`, (row) => {
        bytes += row.length;
      });
      copy.pause();
      await vi.waitFor(
        async () => {
          const { rows: waits } = await database.pool.query<{ wait_event: string | null }>('select wait_event from pg_stat_activity where pid = $1', [pid]);
          expect(waits[0]!.wait_event).toBe('ClientWrite');
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(bytes).toBeLessThan(rows * 1000);
      copy.resume();
      await copy.done;
      expect(bytes).toBe(rows * 1000);
      await answers(client);
    });
  });

  it('ended while paused (its end read with its rows), lets its socket go: the client goes on', async () => {
    await withClient(async (client) => {
      const rows: string[] = [];
      const copy = copyOut(client, 'copy (select n from generate_series(1, 3) n) to stdout', (row) => {
        rows.push(row.toString('utf8'));
        copy.pause();
      });
      await copy.done;
      expect(rows).toEqual(['1\n', '2\n', '3\n']);
      await answers(client);
    });
  });

  it('rejects with the server’s error, and the client goes on', async () => {
    await withClient(async (client) => {
      const rows: Buffer[] = [];
      await expect(copyOut(client, 'copy (select 1 / (3 - n) from generate_series(1, 5) n) to stdout', (row) => rows.push(row)).done).rejects.toThrow(
        'division by zero',
      );
      await answers(client);
    });
  });

  it('rejects with the error of a row’s reader, and reads no more rows', async () => {
    await withClient(async (client) => {
      let calls = 0;
      const copy = copyOut(client, 'copy (select n from generate_series(1, 1000) n) to stdout', () => {
        calls++;
        throw new Error('the reader failed');
      });
      await expect(copy.done).rejects.toThrow('the reader failed');
      expect(calls).toBe(1);
      // The copy ran to its end unread: the client is ready again.
      await answers(client);
    });
  });
});
