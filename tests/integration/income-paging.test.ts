/**
 * Income, inventory and the audit log are paged by the server (issue 22): page and page_size as the
 * bookings list takes them, {page, page_size, total, items} in the answer, with the whole ledger's
 * totals beside a ledger page. Without them, income and inventory answer the spec's whole list,
 * streamed from a server-side cursor, and the inventory workbook holds every row.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { eachLedgerBatch } from '../../shared/core/repositories/income.repository.ts';
import { mapPayment, writeIncomeList } from '../../shared/core/services/income.service.ts';
import { incomeReport } from '../../shared/core/services/report.service.ts';
import { bearer, createAdmins, tokenFor } from '../support/admin.ts';
import { binary, fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { insertPaidOnlineBookings } from '../support/reports.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';

type Payment = { amount: number; booking_id: number | null; booking_date: string; kind: 'PAYMENT' | 'REFUND'; provider_reference: string };
type IncomePage = { page: number; page_size: number; total: number; items: Payment[]; total_amount: number; total_collected: number; total_refunded: number };

let database: TestDatabase;
let app: ReturnType<typeof testApp>;
let boss: Record<string, string>;
const clock = fixedClock(MONDAY_MORNING_IST);
const PATHS = ['/api/admin/income', '/api/admin/reports/inventory'];
const paise = (rupees: number) => Math.round(rupees * 100);

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  const admins = await createAdmins(database.db);
  app = testApp(database, { now: clock.now });
  boss = bearer(tokenFor(admins.superadmin, clock.now()));
  // 1,500 bookings, two at each date and time (therapists 1 and 2), so the order must break ties on
  // the booking and the ledger row. Every one paid; every 7th partly refunded; every 11th paid twice.
  await insertPaidOnlineBookings(database, { count: 1500, therapists: 2, perDay: 24, hours: 12, name: 'Client', email: 'c' });
  await database.db.execute(sql`
    insert into payments_ledger (booking_id, kind, provider, payment_id, refund_id, amount_paise, method, reason, occurred_at)
    select id, 'refund', 'razorpay', 'pay_' || payment_transaction_id, 'rfnd_' || payment_transaction_id, -(1000 + id % 5 * 100), 'OTHER', 'Goodwill', now()
    from bookings where payment_transaction_id like 'txn-%' and id % 7 = 0`);
  await database.db.execute(sql`
    insert into payments_ledger (booking_id, kind, provider, payment_id, amount_paise, method, occurred_at)
    select id, 'capture', 'counter', 'cash_' || payment_transaction_id, 50050, 'CASH', now()
    from bookings where payment_transaction_id like 'txn-%' and id % 11 = 0`);
});
afterAll(() => database.drop());

const get = (path: string) => request(app).get(path).set(boss);

/**
 * Once the server has noticed, no session but the test's own is still at work (a copy still writing)
 * or sits idle in a transaction: a list cut short closed its connection rather than handing it back.
 */
const noSessionLeftOpen = () =>
  vi.waitFor(
    async () => {
      const open = await database.db.execute<{ n: number }>(sql`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and (state = 'active' or state like 'idle in transaction%')`);
      expect(open.rows[0]!.n).toBe(0);
    },
    { timeout: 5000, interval: 50 },
  );

describe('income and inventory, a page at a time', () => {
  it('the pages together are the whole list, in its order, each row once; totals are the whole ledger’s on every page', async () => {
    const ledger = (
      await database.db.execute<{ n: number; net: number; collected: number }>(sql`
      select count(*)::int as n, sum(amount_paise)::int8 as net, sum(amount_paise) filter (where kind = 'capture')::int8 as collected from payments_ledger`)
    ).rows[0]!;
    expect(ledger.n).toBeGreaterThan(1700);
    for (const path of PATHS) {
      const whole = (await get(path).expect(200)).body as { total_amount: number; total_collected: number; total_refunded: number; payments: Payment[] };
      expect(whole.payments).toHaveLength(ledger.n);
      const pages: IncomePage[] = [];
      const pageSize = 100;
      for (let page = 1; page <= Math.ceil(ledger.n / pageSize); page++) {
        const res = await get(`${path}?page=${page}&page_size=${pageSize}`).expect(200);
        expect(res.headers['cache-control']).toBe('no-store');
        pages.push(res.body as IncomePage);
      }
      for (const [i, p] of pages.entries()) {
        expect(p).toMatchObject({
          page: i + 1,
          page_size: pageSize,
          total: ledger.n,
          total_amount: whole.total_amount,
          total_collected: whole.total_collected,
          total_refunded: whole.total_refunded,
        });
        expect(Object.keys(p)).toEqual(['page', 'page_size', 'total', 'items', 'total_amount', 'total_collected', 'total_refunded']);
      }
      expect(pages.at(-1)!.items).toHaveLength(ledger.n - (pages.length - 1) * pageSize);
      const walked = pages.flatMap((p) => p.items);
      // Stable: the same rows in the same order as the whole list, none twice, none missing.
      expect(walked).toEqual(whole.payments);
      expect(new Set(walked.map((p) => `${p.kind}-${p.provider_reference}`)).size).toBe(ledger.n);
      // The sum of every page's rows is the unpaged total, which is the ledger's.
      const sum = walked.reduce((n, p) => n + paise(p.amount), 0);
      expect(sum).toBe(paise(pages[0]!.total_amount));
      expect(sum).toBe(ledger.net);
      expect(paise(pages[0]!.total_collected)).toBe(ledger.collected);
      expect(paise(pages[0]!.total_refunded)).toBe(ledger.collected - ledger.net);
    }
  });

  it('newest booking date first, ties broken by the booking, and a booking’s payment before its refund', async () => {
    const { items } = (await get('/api/admin/income?page=1&page_size=100').expect(200)).body as IncomePage;
    for (let i = 1; i < items.length; i++) expect(items[i - 1]!.booking_date >= items[i]!.booking_date).toBe(true);
    const byBooking = new Map<number | null, Payment[]>();
    for (const p of items) byBooking.set(p.booking_id, [...(byBooking.get(p.booking_id) ?? []), p]);
    for (const rows of byBooking.values()) expect(rows[0]!.kind).toBe('PAYMENT');
    // A booking's rows are together, never split by another booking's.
    const seen: (number | null)[] = [];
    for (const p of items) if (seen.at(-1) !== p.booking_id) seen.push(p.booking_id);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('page boundaries: one row, the defaults, the last page and past it', async () => {
    const whole = (await get('/api/admin/income').expect(200)).body.payments as Payment[];
    const first = (await get('/api/admin/income?page=1&page_size=1').expect(200)).body as IncomePage;
    expect(first.items).toEqual([whole[0]]);
    const second = (await get('/api/admin/income?page=2&page_size=1').expect(200)).body as IncomePage;
    expect(second.items).toEqual([whole[1]]);
    // page alone is 10 rows; page_size alone is page 1 (the bookings list's defaults).
    expect((await get('/api/admin/income?page=3').expect(200)).body).toMatchObject({ page: 3, page_size: 10, items: whole.slice(20, 30) });
    expect((await get('/api/admin/reports/inventory?page_size=7').expect(200)).body).toMatchObject({ page: 1, page_size: 7, items: whole.slice(0, 7) });
    const last = Math.ceil(whole.length / 100);
    const lastPage = (await get(`/api/admin/income?page=${last}&page_size=100`).expect(200)).body as IncomePage;
    expect(lastPage.items).toEqual(whole.slice((last - 1) * 100));
    // Past the end: no rows, the same total and totals.
    const past = (await get(`/api/admin/income?page=${last + 1}&page_size=100`).expect(200)).body as IncomePage;
    expect(past).toEqual({ ...lastPage, page: last + 1, items: [] });
    const far = (await get('/api/admin/reports/inventory?page=999999&page_size=100').expect(200)).body as IncomePage;
    expect(far).toMatchObject({ page: 999999, total: whole.length, items: [] });
  });

  it.each([
    ['page=0', 'page must be a positive whole number'],
    ['page=-1', 'page must be a positive whole number'],
    ['page=x', 'page must be a positive whole number'],
    ['page=1.5', 'page must be a positive whole number'],
    ['page=1000000', 'page must be a positive whole number'],
    ['page=1&page=2', 'page must be a positive whole number'],
    ['page_size=0', 'page_size must be a whole number from 1 to 100'],
    ['page_size=101', 'page_size must be a whole number from 1 to 100'],
    ['page_size=1e2', 'page_size must be a whole number from 1 to 100'],
    ['page_size=', 'page_size must be a whole number from 1 to 100'],
  ])('%s is a 400 that says what is wrong, on both lists', async (query, message) => {
    for (const path of PATHS) {
      const res = await get(`${path}?${query}`).expect(400);
      expect(res.body.detail).toContain(message);
    }
  });

  it('an unknown parameter is still a 400, naming it', async () => {
    for (const path of PATHS) {
      expect((await get(`${path}?page=1&from=2025-01-01`).expect(400)).body, path).toEqual({
        detail: 'Unknown field: from',
        errors: { from: 'Unknown field: from' },
      });
    }
  });
});

describe('the whole list, streamed as PostgreSQL copies it out', () => {
  it('a reader who leaves mid-list ends the copy: no transaction left open, and the next answer is whole', async () => {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // Read as sent (identity), and through the list's own compressors.
      for (const encoding of ['identity', 'gzip', 'br']) {
        await new Promise<void>((resolve) => {
          const req = http.get({ host: '127.0.0.1', port, path: '/api/admin/income', headers: { ...boss, 'accept-encoding': encoding } }, (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          });
          req.on('error', () => {});
        });
      }
      // The copy and its transaction are gone once the server noticed.
      await noSessionLeftOpen();
      const again = await get('/api/admin/income').expect(200);
      expect(again.body.payments.length).toBe((await get('/api/admin/income?page_size=1').expect(200)).body.total);
    } finally {
      server.close();
    }
  });
});

describe('the whole list as PostgreSQL writes it', () => {
  it('is, byte for byte, JSON.stringify of the report mapped in JavaScript, in every encoding', async () => {
    const odd = await createTestDatabase();
    try {
      await seedDemoData(odd.db);
      const admin = await createAdmins(odd.db);
      const oddApp = testApp(odd, { now: clock.now });
      // Text JSON must escape (quotes, backslashes (chr(92)), every control character), text it must
      // not (non-ASCII, emoji, the line separators JavaScript leaves alone), no transaction id, and
      // amounts with paise, under a rupee, negative, and whole.
      await odd.db.execute(sql`
        with names(n, name, mobile, txn, paise) as (values
          (0, 'Zoë "Q" O''Brien', '+91 98765' || chr(160) || '43210', 'txn-odd-0', 12345),
          (1, 'back' || chr(92) || 'slash / and </script>', '9000000001', null, 5),
          (2, 'tab' || chr(9) || 'new' || chr(10) || 'line' || chr(13) || 'cr' || chr(8) || chr(12), '9000000002', 'txn-"odd"-2', 100),
          (3, 'controls ' || chr(1) || chr(31) || chr(127) || ' end', '9000000003', 'txn' || chr(92) || 'odd' || chr(92) || '3', 1999999),
          (4, 'emoji 😀 and ' || chr(8232) || chr(8233) || ' Ānanya 日本', '90000 00004', 'txn-odd-4', 10)),
        b as (
          insert into bookings (therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, client_full_name,
                                client_email, client_mobile, payment_status, payment_transaction_id, amount_paise)
          select 1, 1, date '2025-03-01' + n, make_time(9 + n, 0, 0), 'ONLINE', name, 'odd' || n || '@example.com', mobile, 'COMPLETED', txn, paise
          from names
          returning id, amount_paise)
        insert into payments_ledger (booking_id, kind, provider, payment_id, amount_paise, method, occurred_at)
        select id, 'capture', 'razorpay', 'pay_"' || id || '"' || chr(92), amount_paise, 'CARD', timestamptz '2025-03-01 10:00:00.123456+05:30' + id * interval '1 minute'
        from b`);
      await odd.db.execute(sql`
        insert into payments_ledger (booking_id, kind, provider, payment_id, refund_id, amount_paise, method, reason, occurred_at)
        select id, 'refund', 'razorpay', 'pay_"' || id || '"' || chr(92), 'rfnd_' || id, case when id % 2 = 0 then -1 else -amount_paise end, 'OTHER',
               case when id % 2 = 0 then 'Said "no" ' || chr(10) || 'twice ' || chr(92) || ' 🙂' end, now()
        from bookings where client_email like 'odd%'`);
      const firstReport = JSON.stringify(await incomeReport(odd.db));
      expect(firstReport).toContain('"amount":-0.01');
      expect(firstReport).toContain('"amount":0.05');
      expect(firstReport).toContain('"amount":123.45');
      expect(firstReport).toContain('"payment_transaction_id":null');
      const server = oddApp.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const fetchList = (path: string, encoding: string) =>
          new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
            http
              .get({ host: '127.0.0.1', port, path, headers: { ...bearer(tokenFor(admin.superadmin, clock.now())), 'accept-encoding': encoding } }, (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (c: Buffer) => chunks.push(c));
                res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
              })
              .on('error', reject);
          });
        // Deflate alone is not ours to choose: compressAnswers compresses the list as it passes.
        const decode: Record<string, (b: Buffer) => Buffer> = { identity: (b) => b, gzip: gunzipSync, br: brotliDecompressSync, deflate: inflateSync };
        // The list is read from income_list_entries (kept by triggers); the report from the live join.
        const expectListIsReport = async () => {
          const expected = JSON.stringify(await incomeReport(odd.db));
          for (const path of PATHS) {
            for (const [encoding, decoded] of Object.entries(decode)) {
              const res = await fetchList(path, encoding);
              expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
              expect(res.headers['cache-control']).toBe('no-store');
              expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
              expect(res.headers.vary).toContain('Accept-Encoding');
              expect(decoded(res.body).toString('utf8')).toBe(expected);
            }
          }
          return expected;
        };
        expect(await expectListIsReport()).toBe(firstReport);
        // Each change a booking's entries show follows it: a new name and mobile, a transaction id
        // changed, dropped and given, and a booking moved to another date and time (which moves it in
        // the list's order). A change to anything else leaves the entries as they are.
        await odd.db.execute(
          sql`update bookings set client_full_name = 'Renamed "R" ' || chr(92) || ' 🙂', client_mobile = '9111111111' where client_email = 'odd0@example.com'`,
        );
        await odd.db.execute(
          sql`update bookings set payment_transaction_id = case when payment_transaction_id is null then 'txn-given' else null end where client_email in ('odd1@example.com', 'odd2@example.com')`,
        );
        await odd.db.execute(sql`update bookings set payment_transaction_id = 'txn-changed' where client_email = 'odd3@example.com'`);
        await odd.db.execute(
          sql`update bookings set booking_date = date '2026-01-05', booking_time_slot_start = '07:00' where client_email = 'odd4@example.com'`,
        );
        await odd.db.execute(sql`update bookings set booking_time_slot_start = '23:00' where client_email = 'odd1@example.com'`);
        await odd.db.execute(sql`update bookings set payment_status = 'FAILED', client_note = 'left alone' where client_email like 'odd%'`);
        const changed = await expectListIsReport();
        expect(changed).not.toBe(firstReport);
        for (const text of ['Renamed \\"R\\" \\\\ 🙂', '9111111111', 'txn-given', 'txn-changed', '"booking_date":"2026-01-05"'])
          expect(changed).toContain(text);
        // Moved to the newest date, the booking's payment and refund now open the list.
        expect((JSON.parse(changed) as { payments: Payment[] }).payments.slice(0, 2).map((p) => p.booking_date)).toEqual(['2026-01-05', '2026-01-05']);
      } finally {
        server.close();
      }
    } finally {
      await odd.drop();
    }
  });
});

describe('eachLedgerBatch', () => {
  it('hands the ledger over in batches, in order, each only after the one before was dealt with', async () => {
    const whole = (await get('/api/admin/income').expect(200)).body.payments as Payment[];
    const seen: Payment[] = [];
    const sizes: number[] = [];
    let busy = false;
    const count = await eachLedgerBatch(
      database.pool,
      async (batch) => {
        expect(busy).toBe(false);
        busy = true;
        sizes.push(batch.length);
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen.push(...batch.map(mapPayment));
        busy = false;
      },
      400,
    );
    expect(count).toBe(whole.length);
    expect(sizes.slice(0, -1).every((n) => n === 400)).toBe(true);
    expect(sizes.at(-1)).toBe(whole.length - 400 * (sizes.length - 1));
    expect(seen).toEqual(whole);
  });

  it('a caller that fails stops the cursor: the error is the caller’s, and the pool carries on', async () => {
    let calls = 0;
    await expect(
      eachLedgerBatch(
        database.pool,
        () => {
          calls++;
          throw new Error('the reader failed');
        },
        100,
      ),
    ).rejects.toThrow('the reader failed');
    expect(calls).toBe(1);
    // Its connection was closed, not handed back with the transaction open.
    await noSessionLeftOpen();
    expect((await get('/api/admin/income?page=1&page_size=1').expect(200)).body.items).toHaveLength(1);
  });
});

describe('the inventory workbook', () => {
  it('holds every row of the ledger in the list’s order, whatever the page size of the screen', async () => {
    const whole = (await get('/api/admin/reports/inventory').expect(200)).body.payments as Payment[];
    const res = await get('/api/admin/reports/inventory.xlsx?').buffer(true).parse(binary).expect(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.getWorksheet('Inventory')!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toHaveLength(1 + whole.length);
    expect(rows.slice(1).map((r) => [r[1], r[5], r[7], r[9]])).toEqual(
      whole.map((p) => [p.booking_id, p.kind === 'PAYMENT' ? 'Payment' : 'Refund', p.provider_reference, p.amount]),
    );
    // Downloads ignore paging: asking for a page is refused rather than silently exporting one.
    await get('/api/admin/reports/inventory.xlsx?page=1').expect(400);
  });
});

describe('the audit log', () => {
  it('pages like the others: page 1 of 10 by default, and the same 400s', async () => {
    const res = await get('/api/admin/audit-log').expect(200);
    expect(res.body).toMatchObject({ page: 1, page_size: 10, total: expect.any(Number), items: expect.any(Array) });
    expect((await get('/api/admin/audit-log?page_size=101').expect(400)).body.detail).toContain('page_size must be a whole number from 1 to 100');
    expect((await get('/api/admin/audit-log?page=0').expect(400)).body.detail).toContain('page must be a positive whole number');
  });
});

describe('writeIncomeList', () => {
  it('writes the report’s JSON in pieces, each only once the one before was taken, and ends with the last', async () => {
    const expected = JSON.stringify(await incomeReport(database.db));
    const pieces: Buffer[] = [];
    let ended: Buffer | undefined;
    let busy = false;
    await writeIncomeList(database.pool, {
      write: async (bytes) => {
        expect(busy).toBe(false);
        expect(ended).toBeUndefined();
        busy = true;
        // A copy: the bytes are reused once this settles.
        pieces.push(Buffer.from(bytes));
        await new Promise((resolve) => setTimeout(resolve, 1));
        busy = false;
      },
      end: (bytes) => {
        expect(busy).toBe(false);
        ended = Buffer.from(bytes);
      },
    });
    // More than one piece at this length (about 550 KB).
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat([...pieces, ended!]).toString('utf8')).toBe(expected);
  });

  it('an empty ledger is one end with the whole answer; a write that fails stops the copy, and the pool carries on', async () => {
    const empty = await createTestDatabase();
    try {
      const written: string[] = [];
      await writeIncomeList(empty.pool, {
        write: async (bytes) => void written.push(`write ${bytes}`),
        end: (bytes) => void written.push(`end ${bytes}`),
      });
      expect(written).toEqual(['end {"total_amount":0,"total_collected":0,"total_refunded":0,"payments":[]}']);
      // One entry: its opening, the entry and its close (so the answer goes as a stream, compressed as it goes, however short).
      await seedDemoData(empty.db);
      await empty.db.execute(sql`
        with b as (
          insert into bookings (therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, client_full_name,
                                client_email, client_mobile, payment_status, payment_transaction_id, amount_paise)
          values (1, 1, date '2025-01-01', '10:00', 'ONLINE', 'Only Client', 'only@example.com', '9000000000', 'COMPLETED', 'txn-only', 150000)
          returning id)
        insert into payments_ledger (booking_id, kind, provider, payment_id, amount_paise, method, occurred_at)
        select id, 'capture', 'razorpay', 'pay_only', 150000, 'UPI', now() from b`);
      written.length = 0;
      await writeIncomeList(empty.pool, {
        write: async (bytes) => void written.push(`write ${bytes}`),
        end: (bytes) => void written.push(`end ${bytes}`),
      });
      const report = JSON.stringify(await incomeReport(empty.db));
      const opening = report.indexOf('[') + 1;
      expect(written).toEqual([`write ${report.slice(0, opening)}`, `write ${report.slice(opening, -2)}`, `end ${report.slice(-2)}`]);
    } finally {
      await empty.drop();
    }
    let writes = 0;
    const end = vi.fn();
    await expect(
      writeIncomeList(database.pool, {
        write: async () => {
          writes++;
          throw new Error('the reader failed');
        },
        end,
      }),
    ).rejects.toThrow('the reader failed');
    expect(writes).toBe(1);
    expect(end).not.toHaveBeenCalled();
    await noSessionLeftOpen();
    expect((await get('/api/admin/income').expect(200)).body.payments.length).toBeGreaterThan(1700);
  });
});

describe('income_list_entries under changes at the same moment', () => {
  it('a booking renamed while its payment is being recorded, in either order, leaves its entry with the new name', async () => {
    const [id] = (
      await database.db.execute<{ id: number }>(sql`
        insert into bookings (therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, client_full_name,
                              client_email, client_mobile, payment_status, payment_transaction_id, amount_paise)
        values (3, 1, date '2024-06-01', '10:00', 'ONLINE', 'Old Name', 'race@example.com', '9000011111', 'COMPLETED', 'txn-race', 150000)
        returning id`)
    ).rows.map((r) => r.id);
    const entryName = async (paymentId: string) =>
      ((
        await database.db.execute<{ entry: string }>(sql`
            select e.entry from income_list_entries e join payments_ledger l on l.id = e.ledger_id where l.payment_id = ${paymentId}`)
      ).rows[0]!.entry.match(/"client_name":"([^"]*)"/) ?? [])[1];
    const recorder = new pg.Client({ connectionString: database.url });
    const renamer = new pg.Client({ connectionString: database.url });
    await Promise.all([recorder.connect(), renamer.connect()]);
    const pidOf = async (c: pg.Client) => (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const [recorderPid, renamerPid] = [await pidOf(recorder), await pidOf(renamer)];
    // Until the session is waiting for the other's lock on the booking's row.
    const blocked = (pid: number) =>
      vi.waitFor(
        async () => {
          const { rows } = await database.pool.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`,
            [pid],
          );
          expect(rows[0]!.n).toBe(1);
        },
        { timeout: 5000, interval: 10 },
      );
    try {
      const record = (paymentId: string) =>
        recorder.query(
          `insert into payments_ledger (booking_id, kind, provider, payment_id, amount_paise, method, occurred_at) values ($1, 'capture', 'counter', $2, 100, 'CASH', now())`,
          [id, paymentId],
        );
      // The payment first: the rename waits for it, then rewrites its entry.
      await recorder.query('begin');
      await record('race-1');
      await renamer.query('begin');
      const renamed = renamer.query(`update bookings set client_full_name = 'Renamed Once' where id = $1`, [id]);
      await blocked(renamerPid);
      await recorder.query('commit');
      await renamed;
      await renamer.query('commit');
      expect(await entryName('race-1')).toBe('Renamed Once');
      // The rename first: the payment waits for it, then writes its entry with the new name.
      await renamer.query('begin');
      await renamer.query(`update bookings set client_full_name = 'Renamed Twice' where id = $1`, [id]);
      await recorder.query('begin');
      const recorded = record('race-2');
      await blocked(recorderPid);
      await renamer.query('commit');
      await recorded;
      await recorder.query('commit');
      expect([await entryName('race-1'), await entryName('race-2')]).toEqual(['Renamed Twice', 'Renamed Twice']);
    } finally {
      await Promise.all([recorder.end(), renamer.end()]);
    }
  });
});
