/**
 * Income / inventory entries as the API answers them (PaymentDto, in rupees), mapped from the
 * ledger's rows. Free of Drizzle like income.repository.ts: the workbook process imports it.
 */
import type { PaymentDto } from '../../contract/admin.ts';
import { paiseToRupees } from '../../domain/money.ts';
import {
  connectionStringOf,
  eachLedgerBatch,
  eachLedgerJsonPiece,
  type IncomeTotals,
  type LedgerEntryRow,
  type LedgerSource,
} from '../repositories/income.repository.ts';

export function mapPayment(r: LedgerEntryRow): PaymentDto {
  return {
    amount: paiseToRupees(r.amount_paise),
    payment_transaction_id: r.payment_transaction_id,
    client_name: r.client_full_name,
    client_phone: r.client_mobile,
    booking_date: r.booking_date,
    booking_id: r.booking_id,
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

/**
 * The whole list's payments as JSON text, JSON.stringify(mapPayment(row)) byte for byte and separated by
 * commas, but written by PostgreSQL (income_list_entries, kept by triggers) and handed over in pieces of
 * bytes (eachLedgerJsonPiece), for the whole list's answer.
 */
export async function eachPaymentJsonPiece(source: LedgerSource, onJson: (json: Buffer, totals: IncomeTotals) => unknown): Promise<void> {
  return eachLedgerJsonPiece(source, onJson);
}

/** The database the API's pool reads, for the workbook process to read the same one; `fallback` when the pool was not given an address. */
export function databaseUrlOf(db: { $client: { options: { connectionString?: string | undefined } } }, fallback: string): string {
  return connectionStringOf(db) ?? fallback;
}
