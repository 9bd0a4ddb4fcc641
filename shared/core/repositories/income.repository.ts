import type { LedgerMethodDto } from '../../contract/admin.ts';
import { copyOut, type CopyOut } from '../db/copy-out.ts';
import type pg from '../db/pg-types.ts';

/**
 * Kept apart from report.repository.ts and free of Drizzle: the workbook process (api/src/exports)
 * imports it (through income.service.ts), and starting that process must stay cheap.
 */

export type IncomeTotals = { netPaise: number; collectedPaise: number; refundedPaise: number };
/** The ledger's totals and how many rows it has: one aggregate over the whole ledger, never a page. */
export type LedgerSummary = IncomeTotals & { count: number };

/**
 * A ledger entry with its booking's columns, or (a package sale's money, issue 34) its sale's: no
 * booking, the client's name and mobile from the sale, the day the money moved at the centre as its
 * date. income.service.ts maps it to the answer's PaymentDto.
 */
export type LedgerEntryRow = {
  amount_paise: number;
  kind: 'capture' | 'refund';
  method: LedgerMethodDto;
  payment_id: string;
  refund_id: string | null;
  reason: string | null;
  occurred_at: string;
  booking_id: number | null;
  package_sale_id: number | null;
  payment_transaction_id: string | null;
  client_full_name: string;
  client_mobile: string;
  booking_date: string;
};

/**
 * The list's one order, the same for the whole list, each page and the export: newest booking date
 * first (then the session's time and the booking, so a day's bookings keep their places), a booking's
 * payment before its refunds (a refund is always recorded after the capture it returns, so its id is
 * larger), and the ledger row's id last, which makes the order total: a row is on exactly one page.
 * income_list_entries holds these keys under these names, and its index is in this order (schema.ts;
 * tests/integration/income-entry.test.ts reads the list down the index, unsorted).
 */
const LIST_ORDER = { booking_date: 'desc', booking_time_slot_start: 'desc', booking_id: 'desc', ledger_id: 'asc' } as const;
type ListKey = keyof typeof LIST_ORDER;

/** A package sale's money is listed on the day it moved, at the centre, at 00:00 (income_list_entries, migration 0032). */
const MONEY_DAY = `(l.occurred_at at time zone 'Asia/Kolkata')::date`;

/** Where a ledger row (l) joined to its booking (b), or to its package sale (s), holds each of the list's keys. */
const JOINED_KEYS: Record<ListKey, string> = {
  booking_date: `coalesce(b.booking_date, ${MONEY_DAY})`,
  booking_time_slot_start: `coalesce(b.booking_time_slot_start, time '00:00')`,
  booking_id: 'b.id',
  ledger_id: 'l.id',
};

/** The ledger joined to the booking or the package sale each row is for. */
const LEDGER_JOINED = `payments_ledger l left join bookings b on b.id = l.booking_id left join package_sales s on s.id = l.package_sale_id`;

/** The list's ORDER BY, each key as `at` says the query holds it: by default under its own name. */
const listOrder = (at: (key: ListKey) => string = (key) => key): string =>
  (Object.keys(LIST_ORDER) as ListKey[]).map((key) => `${at(key)} ${LIST_ORDER[key]}`).join(', ');

/** The columns of a ledger entry with its booking or package sale (LEDGER_JOINED). */
export const LEDGER_COLUMNS = `
  l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.booking_id, l.package_sale_id,
  -- ISO 8601 in UTC, as toISOString() writes it: parsing a Date per row and printing it again cost
  -- more than the rest of the row.
  to_char(l.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
  b.payment_transaction_id, coalesce(b.client_full_name, s.client_full_name) as client_full_name,
  coalesce(b.client_mobile, s.client_mobile) as client_mobile,
  coalesce(b.booking_date, ${MONEY_DAY}) as booking_date`;

const LEDGER_ENTRIES = `
  select ${LEDGER_COLUMNS} from ${LEDGER_JOINED}
  order by ${listOrder((key) => JOINED_KEYS[key])}`;

/**
 * One page of that order. The page's rows are found from the sort keys alone and only then joined to
 * their columns: deep in a year (offset 30,000 of 44,000 with the bench's data) sorting the narrow keys
 * took a third of the time sorting whole rows did (94 against 320 ms, both spilling to disk), and a
 * near page is a nested loop down bookings_date_idx (about 3 ms) either way. (EXPLAIN ANALYZE in
 * tests/bench/reports.ts.)
 */
export const LEDGER_PAGE = `
  with page as (
    select ${(Object.keys(JOINED_KEYS) as ListKey[]).map((key) => `${JOINED_KEYS[key]} as ${key}`).join(', ')}
    from ${LEDGER_JOINED}
    order by ${listOrder((key) => JOINED_KEYS[key])}
    limit $1 offset $2
  )
  select ${LEDGER_COLUMNS}
  from page p join payments_ledger l on l.id = p.ledger_id left join bookings b on b.id = p.booking_id
    left join package_sales s on s.id = l.package_sale_id
  order by ${listOrder((key) => `p.${key}`)}`;

/** Every row of the ledger is a booking's or a package sale's (a check), and each is listed: the ledger alone gives the count. */
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
  return inLedgerSnapshot(source, async (client, totals) => {
    const fetchBatch = () => client.query<LedgerEntryRow>(`fetch forward ${batchSize} from ledger_entries`).then((r) => r.rows);
    let count = 0;
    let next: Promise<LedgerEntryRow[]> | undefined;
    try {
      // Every row is read: plan for all of them (a hash join and one sort, 30 ms for a year), not for
      // the first tenth as a cursor otherwise is (a nested loop per booking, several times slower in all).
      await client.query('set local cursor_tuple_fraction = 1');
      await client.query(`declare ledger_entries no scroll cursor for ${LEDGER_ENTRIES}`);
      next = fetchBatch();
      for (;;) {
        const rows: LedgerEntryRow[] = await next!;
        next = undefined;
        if (rows.length === 0) break;
        const more = rows.length === batchSize;
        // The next batch is read while this one is handed over (two at most in memory): PostgreSQL and
        // the answer work side by side instead of in turn.
        if (more) next = fetchBatch();
        count += rows.length;
        await onBatch(rows, totals);
        if (!more) break;
      }
    } catch (err) {
      // A batch still on its way fails with the connection; nobody waits for it any more.
      void next?.catch(() => {});
      throw err;
    }
    return count;
  });
}

/**
 * The whole list's entries (income_list_entries, kept written by triggers: migration 0019), in its
 * order, as the JSON text of each one's PaymentDto; read through LIST_ENTRIES_COPY. Making the text per
 * answer cost PostgreSQL about 125 ms for a year (44,000 entries: a join, a sort spilling to disk and
 * the text); this index scan takes 15.
 */
export const LIST_ENTRIES = `select entry from income_list_entries order by ${listOrder()}`;

/**
 * COPY rather than a cursor: rows made the API a string, an array and a message object per entry, then
 * a joined string and its bytes, and at a year's length that garbage (about 60 MB an answer) was most of
 * the answer's CPU. COPY hands over the socket's bytes. In CSV with a delimiter and a quote character
 * that JSON text never holds raw (to_json writes every control character as an escape), no entry is
 * quoted or escaped: each line is the entry's text and a newline.
 */
const LIST_ENTRIES_COPY = `copy (${LIST_ENTRIES}) to stdout with (format csv, delimiter e'\\x1f', quote e'\\x1e')`;

/**
 * Copies the whole list's entries out on `client`, in its order: `onEntry` is given each one's JSON
 * text as `row` up to `end` (a view of pg's buffer, good only until it returns). Pause the copy to
 * hold PostgreSQL at its socket (copy-out.ts).
 */
export function copyListEntries(client: pg.ClientBase, onEntry: (row: Buffer, end: number) => void): CopyOut {
  // Each row is the entry and its newline.
  return copyOut(client, LIST_ENTRIES_COPY, (row) => onEntry(row, row.length - 1));
}

/**
 * Runs `read` in one repeatable-read, read-only transaction, with the ledger's totals of its snapshot.
 * If it fails, the connection (whose transaction, or COPY, may still be under way) is closed rather than
 * handed to anyone else.
 */
export async function inLedgerSnapshot<T>(source: LedgerSource, read: (client: pg.PoolClient, totals: LedgerSummary) => Promise<T>): Promise<T> {
  const client = await poolOf(source).connect();
  let result: T;
  try {
    await client.query('begin isolation level repeatable read read only');
    result = await read(client, await ledgerSummary(client));
    await client.query('commit');
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
  client.release();
  return result;
}
