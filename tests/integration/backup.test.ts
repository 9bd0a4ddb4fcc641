/**
 * `npm run db:backup` / `npm run db:restore` (issue 32): a database with bookings and a ledger is
 * backed up, restored into a fresh database, and found the same; a database that has data is not
 * overwritten without --force.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { recordCapture, recordRefund } from '../../shared/core/repositories/ledger.repository.ts';
import { insertBooking } from '../support/admin.ts';
import { createTestDatabase, type TestDatabase, urlFor } from '../support/db.ts';
import { ROOT } from '../support/stack.ts';

const exec = promisify(execFile);
let source: TestDatabase;
const fresh = `booking_restore_${randomBytes(5).toString('hex')}`;
const file = path.join(mkdtempSync(path.join(tmpdir(), 'booking-backup-')), 'centre.dump');

/** npm run db:backup/db:restore as an operator runs them: only DATABASE_URL set. */
function cli(command: 'backup' | 'restore', databaseUrl: string, ...args: string[]) {
  return exec(process.execPath, ['shared/core/db/backup.cli.ts', command, file, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl },
  });
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const snapshot = (url: string) =>
  Promise.all([
    query(
      url,
      'select id, therapist_id, booking_date::text, booking_time_slot_start::text, client_full_name, payment_status, amount_paise from bookings order by id',
    ),
    query(url, 'select id, booking_id, kind, payment_id, refund_id, amount_paise, method from payments_ledger order by id'),
    query<{ sum: string }>(url, 'select coalesce(sum(amount_paise), 0)::text as sum from payments_ledger'),
    query(url, 'select ledger_id, entry from income_list_entries order by ledger_id'),
  ]);

beforeAll(async () => {
  source = await createTestDatabase();
  await seedDemoData(source.db);
  for (let i = 0; i < 5; i++) {
    const b = await insertBooking(source.db, { therapistId: 1, bookingDate: '2026-12-01', bookingTimeSlotStart: `1${i}:00`, clientFullName: `Client ${i}` });
    await recordCapture(source.db, {
      bookingId: b.id,
      provider: 'sandbox',
      paymentId: `pay_${i}`,
      amountPaise: 150_000,
      method: 'UPI',
      occurredAt: new Date(),
    });
    if (i === 2) {
      await recordRefund(source.db, {
        bookingId: b.id,
        provider: 'sandbox',
        paymentId: `pay_${i}`,
        refundId: 'rfnd_2',
        amountPaise: 50_000,
        reason: 'Partial refund',
        occurredAt: new Date(),
      });
    }
  }
});

afterAll(async () => {
  await source?.drop();
  await query(urlFor('postgres'), `drop database if exists ${fresh} with (force)`);
});

describe('npm run db:backup / db:restore', () => {
  it('restores a backup into a fresh database: the same bookings, ledger rows and ledger sum', async () => {
    const backup = await cli('backup', source.url);
    expect(backup.stdout).toBe(`Backup of ${source.name} written to ${file}.\n`);
    const restore = await cli('restore', urlFor(fresh));
    expect(restore.stdout).toBe(`${file} restored into ${fresh}.\n`);
    const [before, after] = await Promise.all([snapshot(source.url), snapshot(urlFor(fresh))]);
    expect(after).toEqual(before);
    expect(before[2]).toEqual([{ sum: String(5 * 150_000 - 50_000) }]);
    expect(before[1]).toHaveLength(6);
    // The ledger is still append-only in the copy: its guard came back with it.
    await expect(query(urlFor(fresh), 'update payments_ledger set amount_paise = 1')).rejects.toThrow();
  });

  it('refuses to restore over a database that has data, unless --force, which replaces it', async () => {
    await query(urlFor(fresh), "update bookings set client_full_name = 'Changed' where id = (select min(id) from bookings)");
    const refused = await cli('restore', urlFor(fresh)).catch((err: { code: number; stderr: string }) => err);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toMatch(/already holds \d+ tables; nothing was restored\. .*--force/);
    expect((await query<{ n: number }>(urlFor(fresh), "select count(*)::int as n from bookings where client_full_name = 'Changed'"))[0]!.n).toBe(1);

    await cli('restore', urlFor(fresh), '--force');
    expect(await snapshot(urlFor(fresh))).toEqual(await snapshot(source.url));
  });

  it('says how to use it when the file is missing', async () => {
    const res = await exec(process.execPath, ['shared/core/db/backup.cli.ts', 'backup'], { cwd: ROOT }).catch((err: { code: number; stderr: string }) => err);
    expect(res).toMatchObject({ code: 64 });
    expect((res as { stderr: string }).stderr).toMatch(/^Usage: npm run db:backup -- FILE/);
  });
});
