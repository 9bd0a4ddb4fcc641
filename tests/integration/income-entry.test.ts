/**
 * The income list's entry has one shape, the contract's paymentSchema, written in two places: in
 * JavaScript (income.service.ts's mapPayment, for pages, the workbook and the report) and in
 * PostgreSQL (income_entry_json, migration 0019, which keeps the whole list's entries written). Here
 * the two are held to the same bytes on generated rows, the JavaScript read through the repository's
 * own columns (LEDGER_COLUMNS): JSON.stringify of mapPayment's entry, PostgreSQL's text, and
 * JSON.stringify of paymentSchema's parse of it (its keys in the schema's order, none missing or more).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentSchema } from '../../shared/contract/admin.ts';
import { LEDGER_COLUMNS, LIST_ENTRIES, type LedgerEntryRow } from '../../shared/core/repositories/income.repository.ts';
import { mapPayment } from '../../shared/core/services/income.service.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/**
 * Text as a client's name or a provider's id may hold it: anything PostgreSQL's text can (every code
 * point but NUL), with what JSON must escape (quotes, backslashes, control characters) and what it must
 * not (DEL, the line separators JavaScript leaves alone, non-ASCII) drawn often.
 */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', '\\', '/', '\n', '\r', '\t', '\b', '\f', '\u0001', '\u001f', '\u007f', '\u00a0', '\u2028', '\u2029', 'Ā', '日', '😀'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\u0000'),
  ),
  maxLength: 30,
});
const instant = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true });

/** A ledger row and its booking's columns, as the tables hold them (microseconds in the time). */
const ledgerRow = fc.record({
  amount_paise: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  kind: fc.constantFrom('capture', 'refund'),
  method: fc.constantFrom(...paymentSchema.shape.method.options),
  payment_id: text,
  refund_id: fc.option(text, { nil: null }),
  reason: fc.option(text, { nil: null }),
  occurred_at: fc.tuple(instant, fc.integer({ min: 0, max: 999 })).map(([at, micro]) => `${at.toISOString().slice(0, 23)}${String(micro).padStart(3, '0')}Z`),
  // A session's money, or (booking_id null) a package sale's (issue 34).
  of: fc.oneof(
    fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((id) => ({ booking_id: id, package_sale_id: null })),
    fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((id) => ({ booking_id: null, package_sale_id: id })),
  ),
  payment_transaction_id: fc.option(text, { nil: null }),
  client_full_name: text,
  client_mobile: text,
  booking_date: instant.map((at) => at.toISOString().slice(0, 10)),
});

/** Each row's entry as income_entry_json writes it, and the row as the repository reads it. */
async function bothWays(rows: unknown[]): Promise<(LedgerEntryRow & { entry: string })[]> {
  const { rows: read } = await database.pool.query<LedgerEntryRow & { entry: string }>(
    // As the triggers write it (migration 0032): a session's entry from its booking (b), a package
    // sale's from the sale (s) on the day the money moved at the centre, with no transaction id.
    `select case when l.booking_id is not null
              then income_entry_json(l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.occurred_at,
                                     b.id, null, b.payment_transaction_id, b.client_full_name, b.client_mobile, b.booking_date)
              else income_entry_json(l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.occurred_at,
                                     null, s.id, null, s.client_full_name, s.client_mobile, (l.occurred_at at time zone 'Asia/Kolkata')::date)
            end as entry,
            ${LEDGER_COLUMNS}
     from json_to_recordset($1::json) as l(i int, amount_paise int, kind text, method text, payment_id text, refund_id text, reason text,
                                          occurred_at timestamptz, booking_id int, package_sale_id int, payment_transaction_id text,
                                          client_full_name text, client_mobile text, booking_date date)
          left join lateral (select l.booking_id as id, l.payment_transaction_id, l.client_full_name, l.client_mobile, l.booking_date
                             where l.booking_id is not null) b on true
          left join lateral (select l.package_sale_id as id, l.client_full_name, l.client_mobile where l.package_sale_id is not null) s on true
     order by l.i`,
    [
      JSON.stringify(
        rows.map((r, i) => {
          const { of, ...row } = r as { of: object };
          return { ...row, ...of, i };
        }),
      ),
    ],
  );
  return read;
}

describe('an income entry', () => {
  it('is the same text from PostgreSQL, from mapPayment and in paymentSchema’s order, on any row', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(ledgerRow, { minLength: 1, maxLength: 20 }), async (rows) => {
        for (const { entry, ...row } of await bothWays(rows)) {
          expect(entry).toBe(JSON.stringify(mapPayment(row)));
          expect(entry).toBe(JSON.stringify(paymentSchema.parse(JSON.parse(entry))));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('has the schema’s keys in its order, the same from both', async () => {
    const [{ entry, ...row }] = (await bothWays(fc.sample(ledgerRow, { numRuns: 1 }))) as [LedgerEntryRow & { entry: string }];
    const keys = Object.keys(paymentSchema.shape);
    expect(Object.keys(mapPayment(row))).toEqual(keys);
    expect(Object.keys(JSON.parse(entry) as object)).toEqual(keys);
  });
});

describe('the whole list’s order', () => {
  it('is its index’s: the entries are read down income_list_entries_order_idx, never sorted', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('begin');
      // Were the index in another order, the plan would have to sort anyway.
      await client.query('set local enable_sort = off');
      const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${LIST_ENTRIES}`);
      const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
      expect(plan).toContain('"Index Name":"income_list_entries_order_idx"');
      expect(plan).not.toContain('Sort');
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
