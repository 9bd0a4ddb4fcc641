/**
 * Income / inventory entries as the API answers them (PaymentDto, in rupees), mapped from the
 * ledger's rows. Free of Drizzle like income.repository.ts: the workbook process imports it.
 */
import type { IncomeReport, PaymentDto } from '../../contract/admin.ts';
import { paiseToRupees } from '../../domain/money.ts';
import {
  connectionStringOf,
  copyListEntries,
  eachLedgerBatch,
  inLedgerSnapshot,
  type IncomeTotals,
  type LedgerEntryRow,
  type LedgerSource,
} from '../repositories/income.repository.ts';

/**
 * A ledger row as the answer's entry. The entry's shape is the contract's paymentSchema; PostgreSQL
 * writes the same entry as JSON text for the whole list (income_entry_json, migration 0019).
 * tests/integration/income-entry.test.ts holds the three to the same bytes on generated rows:
 * JSON.stringify of this, of paymentSchema's parse of it (its keys in the schema's order), and
 * PostgreSQL's text.
 */
export function mapPayment(r: LedgerEntryRow): PaymentDto {
  return {
    amount: paiseToRupees(r.amount_paise),
    payment_transaction_id: r.payment_transaction_id,
    client_name: r.client_full_name,
    client_phone: r.client_mobile,
    booking_date: r.booking_date,
    booking_id: r.booking_id,
    package_sale_id: r.package_sale_id,
    kind: r.kind === 'capture' ? 'PAYMENT' : 'REFUND',
    method: r.method,
    provider_reference: r.refund_id ?? r.payment_id,
    recorded_at: r.occurred_at,
    reason: r.reason,
  };
}

/**
 * The whole ledger as payments, a batch at a time from a server-side cursor (eachLedgerBatch: never
 * more than a batch in memory), with the totals of the same snapshot. Resolves with the row count.
 */
export async function eachPaymentBatch(source: LedgerSource, onBatch: (payments: PaymentDto[], totals: IncomeTotals) => unknown): Promise<number> {
  return eachLedgerBatch(source, (rows, totals) => onBatch(rows.map(mapPayment), totals));
}

/** The IncomeReport's totals in rupees, around its list. */
export function incomeHeader(t: IncomeTotals, payments: IncomeReport['payments']): IncomeReport {
  return {
    total_amount: paiseToRupees(t.netPaise),
    total_collected: paiseToRupees(t.collectedPaise),
    total_refunded: paiseToRupees(t.refundedPaise),
    payments,
  };
}

/**
 * Where the whole list is written. `write` resolves once the bytes were taken in and more may follow:
 * until then they must not be reused, and after it they are. `end` takes the last bytes: the whole
 * answer when nothing was written before.
 */
export type ListOut = { write(bytes: Buffer): Promise<void>; end(bytes: Buffer): void };

/**
 * The whole income / inventory list (IncomeReport, the spec's answer when no page is asked for),
 * JSON.stringify(incomeReport(…)) byte for byte, written to `out` as it is read: its opening (the
 * totals), every payment's JSON text as PostgreSQL copies it out (kept written in income_list_entries),
 * its close. The payments go in 64 KB pieces, each written once `out` took the one before; while two
 * wait, the copy is held at its socket. So a few pieces are in memory whatever the list's length and
 * however slowly `out` takes them, and the pieces are a handful of buffers used over and over: a
 * buffer per piece was 14 MB more allocated for a year's list, which V8 counts towards its next full
 * collection (two or three more an answer). Totals and payments come from one snapshot. A list with
 * payments is written (so an answer starts with its first piece, and is compressed as it goes,
 * however short); one without goes whole to `end`, as any small answer.
 * Rejects with `out`'s error, or the database's; the copy then ends with its connection.
 */
export async function writeIncomeList(source: LedgerSource, out: ListOut): Promise<void> {
  const pieces = new Pieces(out);
  let closing = Buffer.alloc(0);
  await inLedgerSnapshot(source, async (client, totals) => {
    const [open, close] = jsonAroundList(incomeHeader(totals, []), 'payments');
    pieces.opening = Buffer.from(open);
    closing = Buffer.from(close);
    let entries = 0;
    const copy = copyListEntries(client, (row, end) => {
      if (entries++ > 0) pieces.put(COMMA);
      pieces.put(row, end);
    });
    pieces.onBacklog = (held) => (held ? copy.pause() : copy.resume());
    try {
      await Promise.race([copy.done, pieces.failed]);
    } catch (err) {
      pieces.stop();
      // Whichever did not fail ends with the connection; nobody waits for it any more.
      void copy.done.catch(() => {});
      throw err;
    }
  });
  // Once the snapshot is closed and its connection back in the pool.
  await pieces.end(closing);
}

const COMMA = Buffer.from(',');
/** The size of the pieces the whole list is written in. */
const PIECE_BYTES = 64 * 1024;
/** Pieces waiting for `out` before the copy is held at its socket. */
const PIECES_AHEAD = 2;

/**
 * Bytes gathered into pieces of PIECE_BYTES, each written to `out` only once it took the one before,
 * the `opening` before the first. `onBacklog(true)` says PIECES_AHEAD pieces wait (hold the source),
 * `onBacklog(false)` that they no longer do. `failed` rejects with the first write's failure.
 */
class Pieces {
  opening: Buffer | undefined;
  onBacklog: (held: boolean) => void = () => {};
  readonly failed: Promise<never>;
  private fail!: (err: unknown) => void;
  private piece: Buffer = Buffer.allocUnsafeSlow(PIECE_BYTES);
  private at = 0;
  private readonly spare: Buffer[] = [];
  /** The last piece's write: each waits for the one before. */
  private written: Promise<void> = Promise.resolve();
  private waiting = 0;
  private held = false;
  private stopped = false;
  private readonly out: ListOut;

  constructor(out: ListOut) {
    this.out = out;
    this.failed = new Promise<never>((_, reject) => (this.fail = reject));
    // Raced while the copy runs; after it, end() reports a failure.
    this.failed.catch(() => {});
  }

  /** Adds `bytes` up to `end` (copied: they may be reused once this returns). */
  put(bytes: Buffer, end = bytes.length): void {
    for (let from = 0; from < end; ) {
      if (this.at === PIECE_BYTES) this.filled();
      const n = bytes.copy(this.piece, this.at, from, end);
      this.at += n;
      from += n;
    }
  }

  /** Writes the last piece, then ends `out` with `closing` (after the opening, if no piece was written). */
  async end(closing: Buffer): Promise<void> {
    if (this.at > 0) this.filled();
    await this.written;
    if (this.stopped) return;
    this.out.end(this.opening ? Buffer.concat([this.opening, closing]) : closing);
  }

  /** Writes nothing more. */
  stop(): void {
    this.stopped = true;
  }

  private filled(): void {
    const piece = this.piece;
    const bytes = this.at === PIECE_BYTES ? piece : piece.subarray(0, this.at);
    const opening = this.opening;
    this.opening = undefined;
    this.piece = this.spare.pop() ?? Buffer.allocUnsafeSlow(PIECE_BYTES);
    this.at = 0;
    if (++this.waiting >= PIECES_AHEAD && !this.held) {
      this.held = true;
      this.onBacklog(true);
    }
    this.written = this.written.then(async () => {
      if (this.stopped) return;
      if (opening) await this.out.write(opening);
      await this.out.write(bytes);
      this.spare.push(piece);
      if (--this.waiting < PIECES_AHEAD && this.held) {
        this.held = false;
        this.onBacklog(false);
      }
    });
    this.written.catch(this.fail);
  }
}

/**
 * The JSON text of `value` (of plain JSON values) around its array field `list`, left open for the
 * array's items: `{"a":1,"list":[` and `],"b":2}`. Field by field in the object's own order, as
 * JSON.stringify writes it.
 */
function jsonAroundList(value: object, list: string): [open: string, close: string] {
  const before: string[] = [];
  const after: string[] = [];
  let seen = false;
  for (const [key, field] of Object.entries(value)) {
    if (key === list) seen = true;
    else (seen ? after : before).push(`${JSON.stringify(key)}:${JSON.stringify(field)}`);
  }
  return [`{${[...before, `${JSON.stringify(list)}:[`].join(',')}`, `]${after.map((f) => `,${f}`).join('')}}`];
}

/** The database the API's pool reads, for the workbook process to read the same one; `fallback` when the pool was not given an address. */
export function databaseUrlOf(db: { $client: { options: { connectionString?: string | undefined } } }, fallback: string): string {
  return connectionStringOf(db) ?? fallback;
}
