import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { sendWorkbook, workbookEnv } from '../../api/src/exports/send-workbook.ts';
import { errorHandler } from '../../api/src/middleware/errors.ts';
import { inventoryExport, type Export } from '../../shared/core/services/report-export.service.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { binary } from '../support/app.ts';
import { childProcesses } from '../support/proc.ts';
import { createTestDatabase, urlFor, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  await database.db.execute(sql`
    insert into bookings (therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, client_full_name,
                          client_email, client_mobile, payment_status, payment_transaction_id, amount_paise)
    select 1, 1, date '2025-01-01' + (n / 12), make_time(8 + n % 12, 0, 0), 'ONLINE', 'Client ' || n,
           'c' || n || '@example.com', '9' || lpad(n::text, 9, '0'), 'COMPLETED', 'pay_' || n, 150000
    from generate_series(0, 2999) n`);
  await database.db.execute(sql`
    insert into payments_ledger (booking_id, kind, provider, payment_id, amount_paise, method, occurred_at)
    select id, 'capture', 'razorpay', payment_transaction_id, amount_paise, 'UPI', now() from bookings`);
});
afterAll(() => database.drop());

/** An app whose one route sends `e`, read from `databaseUrl`. */
function appFor(e: Export, databaseUrl: string, options?: { deadlineMs: number }) {
  const app = express();
  app.get('/x', (_req, res, next) => sendWorkbook(res, e, databaseUrl, options).catch(next));
  app.use(errorHandler);
  return app;
}

async function rowsOf(body: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('workbooks written by their own process', () => {
  it('answers downloads asked for at once one after the other, each whole', async () => {
    const app = appFor(inventoryExport('2026-11-21'), database.url);
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, childProcesses(process.pid, 'workbook-process.ts').length)), 5);
    const answers = await Promise.all([1, 2, 3].map(() => request(app).get('/x').buffer(true).parse(binary).expect(200)));
    clearInterval(watch);
    expect(most).toBe(1);
    for (const res of answers) {
      expect(res.headers['content-disposition']).toBe('attachment; filename="Inventory_Report_2026-11-21.xlsx"');
      expect(res.headers['cache-control']).toBe('no-store');
      const rows = await rowsOf(res.body as Buffer);
      expect(rows).toHaveLength(3001);
      expect(rows[1]).toEqual(['2025-09-07', expect.any(Number), 'pay_2999', 'Client 2999', '9000002999', 'Payment', 'UPI', 'pay_2999', undefined, 1500]);
      expect(rows[3000]).toEqual(['2025-01-01', expect.any(Number), 'pay_0', 'Client 0', '9000000000', 'Payment', 'UPI', 'pay_0', undefined, 1500]);
    }
  });

  it('a process that cannot read its database is a 500 with no file', async () => {
    const res = await request(appFor(inventoryExport('2026-11-21'), urlFor('booking_no_such_database')))
      .get('/x')
      .expect(500);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.body).toMatchObject({ detail: expect.any(String), request_id: expect.any(String) });
  });

  it('a process that cannot start is a 500 with no file, and the next download starts as usual', async () => {
    // Its working folder is gone: spawn fails with ENOENT before the process exists.
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue('/no/such/folder');
    try {
      const res = await request(appFor(inventoryExport('2026-11-21'), database.url))
        .get('/x')
        .expect(500);
      expect(res.headers['content-disposition']).toBeUndefined();
    } finally {
      cwd.mockRestore();
    }
    await request(appFor(inventoryExport('2026-11-21'), database.url))
      .get('/x')
      .expect(200);
  });

  it('a process still waiting at its deadline is stopped: a 500 with no file, and no process left', async () => {
    // A "database" that takes the connection and never answers, as a stuck server would.
    const sockets: import('node:net').Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const { port } = silent.address() as AddressInfo;
      const app = appFor(inventoryExport('2026-11-21'), `postgres://root@127.0.0.1:${port}/booking`, { deadlineMs: 1500 });
      const res = await request(app).get('/x').expect(500);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(childProcesses(process.pid, 'workbook-process.ts')).toEqual([]);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('a process sees how to reach PostgreSQL and the locale, never the API’s secrets', () => {
    const env = workbookEnv(
      {
        PATH: '/usr/bin',
        TZ: 'UTC',
        LANG: 'en_IN.UTF-8',
        PGSSLMODE: 'require',
        PGPASSWORD: 'pg-secret',
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://elsewhere/db',
        JWT_SECRET: 'j'.repeat(40),
        RAZORPAY_KEY_SECRET: 'rzp',
        RAZORPAY_WEBHOOK_SECRET: 'whk',
        SMTP_PASS: 'smtp',
        GOOGLE_PRIVATE_KEY: 'key',
      },
      'postgres://root@127.0.0.1:5432/booking',
    );
    expect(Object.keys(env).sort()).toEqual(['DATABASE_URL', 'LANG', 'NODE_COMPILE_CACHE', 'NODE_ENV', 'PATH', 'PGPASSWORD', 'PGSSLMODE', 'TZ']);
    expect(env.DATABASE_URL).toBe('postgres://root@127.0.0.1:5432/booking');
  });

  it('a process that fails after its first bytes cuts the download short', async () => {
    const rows: Record<string, unknown>[] = Array.from({ length: 3000 }, (_, i) => ({ a: `row ${i} `.repeat(8), b: i }));
    rows.push({ a: { richText: 5 }, b: 0 }); // exceljs throws while writing this row
    const e = {
      fileName: 'f.xlsx',
      sheetName: 'S',
      columns: [
        { header: 'A', key: 'a', width: 10 },
        { header: 'B', key: 'b', width: 10 },
      ],
      rows,
    } as unknown as Export;
    const outcome = await request(appFor(e, database.url))
      .get('/x')
      .buffer(true)
      .parse(binary)
      .then(
        (res) => `complete answer ${res.status}`,
        (err: Error) => `cut short: ${err.message}`,
      );
    expect(outcome).toMatch(/^cut short/);
  });

  it('an admin who leaves stops the process, and that is no error', async () => {
    // Wrapped: a promise resolved with a promise would wait for it.
    let started!: (handler: { outcome: Promise<unknown> }) => void;
    const handled = new Promise<{ outcome: Promise<unknown> }>((resolve) => (started = resolve));
    const app = express();
    app.get('/x', (_req, res) => {
      started({
        outcome: sendWorkbook(res, inventoryExport('2026-11-21'), database.url).then(
          () => 'ended quietly',
          (err: Error) => err,
        ),
      });
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const req = http.get({ host: '127.0.0.1', port, path: '/x' });
      req.on('error', () => {}); // the socket we destroy
      const { outcome } = await handled;
      // The admin leaves as soon as the process is running, well before its first byte.
      await vi.waitFor(() => expect(childProcesses(process.pid, 'workbook-process.ts')).toHaveLength(1), { interval: 5 });
      req.destroy();
      expect(await outcome).toBe('ended quietly');
      expect(childProcesses(process.pid, 'workbook-process.ts')).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('no rows is 404 "No data to export." without starting a process', async () => {
    const e: Export = { fileName: 'f.xlsx', sheetName: 'S', columns: [], rows: [] };
    expect((await request(appFor(e, database.url)).get('/x').expect(404)).body).toEqual({ detail: 'No data to export.' });
  });
});
