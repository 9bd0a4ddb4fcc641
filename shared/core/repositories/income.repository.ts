import type { LedgerMethodDto } from '../../contract/admin.ts';
import type pg from '../db/pg-types.ts';

/**
 * Kept apart from report.repository.ts and free of Drizzle: the workbook process (api/src/exports)
 * imports it (through income.service.ts), and starting that process must stay cheap.
 */

export type IncomeTotals = { netPaise: number; collectedPaise: number; refundedPaise: number };
/** The ledger's totals and how many rows it has: one aggregate over the whole ledger, never a page. */
export type LedgerSummary = IncomeTotals & { count: number };

/** A ledger entry with its booking's columns; income.service.ts maps it to the answer's PaymentDto. */
export type LedgerEntryRow = {
  amount_paise: number;
  kind: 'capture' | 'refund';
  method: LedgerMethodDto;
  payment_id: string;
  refund_id: string | null;
  reason: string | null;
  occurred_at: string;
  booking_id: number;
  payment_transaction_id: string | null;
  client_full_name: string;
  client_mobile: string;
  booking_date: string;
};

/** The columns of a ledger entry with its booking (payments_ledger l joined to bookings b). */
const LEDGER_COLUMNS = `
  l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.booking_id,
  -- ISO 8601 in UTC, as toISOString() writes it: parsing a Date per row and printing it again cost
  -- more than the rest of the row.
  to_char(l.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
  b.payment_transaction_id, b.client_full_name, b.client_mobile, b.booking_date`;

/**
 * The list's one order, the same for the whole list, each page and the export: newest booking date
 * first (then the session's time and the booking, so a day's bookings keep their places), a booking's
 * payment before its refunds (a refund is always recorded after the capture it returns, so its id is
 * larger), and the ledger row's id last, which makes the order total: a row is on exactly one page.
 */
const LEDGER_ORDER = (b: string, l: string) => `${b}.booking_date desc, ${b}.booking_time_slot_start desc, ${b}.id desc, ${l}.id`;

const LEDGER_ENTRIES = `select ${LEDGER_COLUMNS} from payments_ledger l join bookings b on b.id = l.booking_id order by ${LEDGER_ORDER('b', 'l')}`;

/**
 * One page of that order. The page's rows are found from the sort keys alone and only then joined to
 * their columns: deep in a year (offset 30,000 of 44,000 with the bench's data) sorting the narrow keys
 * took a third of the time sorting whole rows did (94 against 320 ms, both spilling to disk), and a
 * near page is a nested loop down bookings_date_idx (about 3 ms) either way. (EXPLAIN ANALYZE in
 * tests/bench/reports.ts.)
 */
export const LEDGER_PAGE = `
  with page as (
    select l.id as ledger_id, b.id as booking_id, b.booking_date, b.booking_time_slot_start
    from payments_ledger l join bookings b on b.id = l.booking_id
    order by ${LEDGER_ORDER('b', 'l')}
    limit $1 offset $2
  )
  select ${LEDGER_COLUMNS}
  from page p join payments_ledger l on l.id = p.ledger_id join bookings b on b.id = p.booking_id
  order by p.booking_date desc, p.booking_time_slot_start desc, p.booking_id desc, p.ledger_id`;

/** Every row of the ledger has a booking (a foreign key), so the ledger alone gives the join's count. */
const LEDGER_SUMMARY = `
  select count(*)::int8 as count,
         coalesce(sum(amount_paise), 0)::int8 as net_paise,
         coalesce(sum(amount_paise) filter (where kind = 'capture'), 0)::int8 as collected_paise
  from payments_ledger`;

type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;
/** The API's Drizzle database (its pool is its $client) or, in the workbook process, a pool of its own. */
export type LedgerSource = { $client: Pick<pg.Pool, 'query' | 'connect'> } | Pick<pg.Pool, 'query' | 'connect'>;
const poolOf = (s: LedgerSource): Pick<pg.Pool, 'query' | 'connect'> => ('$client' in s ? s.$client : s);

/** The address of the database a source reads, when its pool was given one. */
export function connectionStringOf(s: { $client: { options: { connectionString?: string | undefined } } }): string | undefined {
  return s.$client.options.connectionString;
}

/** The ledger's net total, what was collected and refunded (positive), and its row count. */
export async function ledgerSummary(source: LedgerSource | Queryable): Promise<LedgerSummary> {
  const db = '$client' in source ? source.$client : source;
  const { rows } = await db.query<{ count: number; net_paise: number; collected_paise: number }>(LEDGER_SUMMARY);
  const r = rows[0]!;
  return { count: r.count, netPaise: r.net_paise, collectedPaise: r.collected_paise, refundedPaise: r.collected_paise - r.net_paise };
}

/** `limit` rows of the ledger in its order, after skipping `offset`. */
export async function ledgerPage(source: LedgerSource, limit: number, offset: number): Promise<LedgerEntryRow[]> {
  const { rows } = await poolOf(source).query<LedgerEntryRow>(LEDGER_PAGE, [limit, offset]);
  return rows;
}

/** How many rows each FETCH brings: a few hundred kilobytes of rows, whatever the ledger's size. */
export const LEDGER_BATCH = 1000;

/**
 * Each entry of LEDGER_ENTRIES as the JSON text of its PaymentDto, exactly as JSON.stringify writes
 * income.service.ts's mapPayment: the same keys in the same order, text escaped by to_json as
 * JSON.stringify escapes it, paise / 100 printed by trim_scale as JavaScript prints the number
 * (tests/integration/income-paging.test.ts holds the two to the same bytes). For the whole list: with
 * rows, parsing, mapping and stringifying a year (44,000 entries) cost the API 290-330 ms of CPU, 50-75
 * of it garbage collection, against 135-190 for joining this text (compression included in both);
 * PostgreSQL spends 60-100 ms more on it. The text is made above the sort (the outer query), so each
 * FETCH makes only its own rows' text, while the API compresses and sends the batch before; the outer
 * order is the inner one, which PostgreSQL sees, so it sorts once.
 */
const LEDGER_JSON = `
  select '{"amount":' || trim_scale(e.amount_paise / 100.0)
      || ',"payment_transaction_id":' || coalesce(to_json(e.payment_transaction_id)::text, 'null')
      || ',"client_name":' || to_json(e.client_full_name)::text
      || ',"client_phone":' || to_json(e.client_mobile)::text
      || ',"booking_date":"' || e.booking_date
      || '","booking_id":' || e.booking_id
      || ',"kind":"' || case e.kind when 'capture' then 'PAYMENT' else 'REFUND' end
      || '","method":' || to_json(e.method)::text
      || ',"provider_reference":' || to_json(coalesce(e.refund_id, e.payment_id))::text
      || ',"recorded_at":"' || to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      || '","reason":' || coalesce(to_json(e.reason)::text, 'null') || '}'
  from (
    select l.id as ledger_id, l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.booking_id, l.occurred_at,
           b.payment_transaction_id, b.client_full_name, b.client_mobile, b.booking_date, b.booking_time_slot_start
    from payments_ledger l join bookings b on b.id = l.booking_id
    order by ${LEDGER_ORDER('b', 'l')}
  ) e
  order by e.booking_date desc, e.booking_time_slot_start desc, e.booking_id desc, e.ledger_id`;

/**
 * The whole ledger in its order, `batchSize` rows at a time from a server-side cursor, each batch
 * handed over only once the one before it was dealt with (`onBatch` may wait, for a slow download to
 * drain): however long the list and however slow its reader, no more than two batches of it (the one
 * being handed over, the next being read) are in memory.
 * The totals come first, from the same snapshot as the rows (one repeatable-read, read-only
 * transaction), and `onBatch` is not called at all when the ledger is empty. Resolves with the row count.
 */
export async function eachLedgerBatch(
  source: LedgerSource,
  onBatch: (rows: LedgerEntryRow[], totals: IncomeTotals) => unknown,
  batchSize = LEDGER_BATCH,
): Promise<number> {
  return eachCursorBatch(source, LEDGER_ENTRIES, (client) => client.query<LedgerEntryRow>(fetchForward(batchSize)).then((r) => r.rows), onBatch, batchSize);
}

/**
 * As eachLedgerBatch, each entry as its PaymentDto's JSON text (LEDGER_JSON), for the whole list's
 * answer, which only has to join them.
 */
export async function eachLedgerJsonBatch(
  source: LedgerSource,
  onBatch: (json: string[], totals: IncomeTotals) => unknown,
  batchSize = LEDGER_BATCH,
): Promise<number> {
  return eachCursorBatch(
    source,
    LEDGER_JSON,
    (client) => client.query<[string]>({ text: fetchForward(batchSize), rowMode: 'array' }).then((r) => r.rows.map((row) => row[0])),
    onBatch,
    batchSize,
  );
}

const fetchForward = (batchSize: number) => `fetch forward ${batchSize} from ledger_entries`;

async function eachCursorBatch<T>(
  source: LedgerSource,
  statement: string,
  fetchBatch: (client: pg.PoolClient) => Promise<T[]>,
  onBatch: (rows: T[], totals: IncomeTotals) => unknown,
  batchSize: number,
): Promise<number> {
  const client = await poolOf(source).connect();
  let count = 0;
  let next: Promise<T[]> | undefined;
  try {
    await client.query('begin isolation level repeatable read read only');
    const totals = await ledgerSummary(client);
    // Every row is read: plan for all of them (a hash join and one sort, 30 ms for a year), not for the
    // first tenth as a cursor otherwise is (a nested loop per booking, several times slower in all).
    await client.query('set local cursor_tuple_fraction = 1');
    await client.query(`declare ledger_entries no scroll cursor for ${statement}`);
    next = fetchBatch(client);
    for (;;) {
      const rows: T[] = await next!;
      next = undefined;
      if (rows.length === 0) break;
      const more = rows.length === batchSize;
      // The next batch is read while this one is handed over (two at most in memory): PostgreSQL and
      // the answer work side by side instead of in turn.
      if (more) next = fetchBatch(client);
      count += rows.length;
      await onBatch(rows, totals);
      if (!more) break;
    }
    await client.query('commit');
  } catch (err) {
    // A batch still on its way fails with the connection; nobody waits for it any more.
    void next?.catch(() => {});
    // The transaction may be open (the caller failed): this connection is not handed to anyone else.
    client.release(err as Error);
    throw err;
  }
  client.release();
  return count;
}
