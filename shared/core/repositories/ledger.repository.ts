import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import { paymentsLedger } from '../db/schema.ts';
import type { DbOrTx } from '../db/client.ts';

export type LedgerRow = typeof paymentsLedger.$inferSelect;
export type LedgerMethod = LedgerRow['method'];
export type LedgerProvider = LedgerRow['provider'];

/** Whose money a ledger row is: a booking's, or a package sale's (bookingId null). */
export type Owner = { bookingId: number; packageSaleId?: undefined } | { bookingId?: null; packageSaleId: number };

export type Capture = Owner & {
  provider: LedgerProvider;
  paymentId: string;
  linkId?: string | null;
  amountPaise: number;
  method: LedgerMethod;
  recordedByAdminId?: number | null;
  occurredAt: Date;
};

/**
 * Records a captured payment once: the unique index on (provider, payment id) makes every later
 * report of the same payment (callback, webhook, reconciliation, in any order) a no-op. Answers
 * whether this call wrote the row.
 */
export async function recordCapture(db: DbOrTx, c: Capture): Promise<boolean> {
  return (await recordCaptures(db, [c])) > 0;
}

/** Several captures in one statement (a series paid at the desk), each recorded once as recordCapture does; answers how many were written. */
export async function recordCaptures(db: DbOrTx, captures: readonly Capture[]): Promise<number> {
  if (captures.length === 0) return 0;
  const rows = await db
    .insert(paymentsLedger)
    .values(
      captures.map((c) => ({
        bookingId: c.bookingId ?? null,
        packageSaleId: c.packageSaleId ?? null,
        kind: 'capture' as const,
        provider: c.provider,
        paymentId: c.paymentId,
        linkId: c.linkId ?? null,
        amountPaise: c.amountPaise,
        method: c.method,
        recordedByAdminId: c.recordedByAdminId ?? null,
        occurredAt: c.occurredAt,
      })),
    )
    .onConflictDoNothing({ target: [paymentsLedger.provider, paymentsLedger.paymentId], where: sql`${paymentsLedger.kind} = 'capture'` })
    .returning({ id: paymentsLedger.id });
  return rows.length;
}

/** A booking's rows, oldest first. */
export async function ledgerForBooking(db: DbOrTx, bookingId: number): Promise<LedgerRow[]> {
  return db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, bookingId)).orderBy(paymentsLedger.id);
}

export type Refund = Owner & {
  provider: LedgerProvider;
  /** The payment the money goes back from. */
  paymentId: string;
  refundId: string;
  /** Positive: what goes back (stored negative). */
  amountPaise: number;
  reason: string | null;
  /** How it went back: the desk's method for money handed back at the counter; OTHER (the provider's way) otherwise. */
  method?: LedgerMethod;
  recordedByAdminId?: number | null;
  occurredAt: Date;
};

/** Records a refund once (the provider's refund id is unique); answers whether this call wrote it. */
export async function recordRefund(db: DbOrTx, r: Refund): Promise<boolean> {
  const rows = await db
    .insert(paymentsLedger)
    .values({
      bookingId: r.bookingId ?? null,
      packageSaleId: r.packageSaleId ?? null,
      kind: 'refund',
      provider: r.provider,
      paymentId: r.paymentId,
      refundId: r.refundId,
      amountPaise: -r.amountPaise,
      method: r.method ?? 'OTHER',
      reason: r.reason,
      recordedByAdminId: r.recordedByAdminId ?? null,
      occurredAt: r.occurredAt,
    })
    .onConflictDoNothing({ target: [paymentsLedger.provider, paymentsLedger.refundId], where: sql`${paymentsLedger.kind} = 'refund'` })
    .returning({ id: paymentsLedger.id });
  return rows.length > 0;
}

/** A booking's money: captured and refunded (both positive), and per captured payment what is left of it. */
export async function moneyOf(
  db: DbOrTx,
  bookingId: number,
): Promise<{ capturedPaise: number; refundedPaise: number; payments: { provider: LedgerProvider; paymentId: string; leftPaise: number }[] }> {
  const rows = await ledgerForBooking(db, bookingId);
  const payments = rows
    .filter((r) => r.kind === 'capture')
    .map((c) => ({
      provider: c.provider,
      paymentId: c.paymentId,
      leftPaise:
        c.amountPaise +
        rows.filter((r) => r.kind === 'refund' && r.paymentId === c.paymentId && r.provider === c.provider).reduce((n, r) => n + r.amountPaise, 0),
    }));
  const capturedPaise = rows.filter((r) => r.kind === 'capture').reduce((n, r) => n + r.amountPaise, 0);
  const refundedPaise = -rows.filter((r) => r.kind === 'refund').reduce((n, r) => n + r.amountPaise, 0);
  return { capturedPaise, refundedPaise, payments };
}

/** Whether the ledger has this provider's payment as a capture (for whichever booking). */
export async function hasProviderCapture(db: DbOrTx, provider: LedgerProvider, paymentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentsLedger.id })
    .from(paymentsLedger)
    .where(and(eq(paymentsLedger.provider, provider), eq(paymentsLedger.paymentId, paymentId), eq(paymentsLedger.kind, 'capture')))
    .limit(1);
  return Boolean(row);
}

/** A provider's captured payment as the ledger has it, with the ledger's refunds of it (positive). */
export type LedgerPayment = {
  /** The booking the payment is for, or null with the package sale it is for. */
  bookingId: number | null;
  packageSaleId: number | null;
  paymentId: string;
  amountPaise: number;
  refunds: { refundId: string; amountPaise: number }[];
};

/** The provider's captures recorded at or after `since`, oldest first, each with every refund the ledger has of it. */
export async function ledgerPaymentsSince(db: DbOrTx, provider: LedgerProvider, since: Date): Promise<LedgerPayment[]> {
  const captures = await db
    .select({
      bookingId: paymentsLedger.bookingId,
      packageSaleId: paymentsLedger.packageSaleId,
      paymentId: paymentsLedger.paymentId,
      amountPaise: paymentsLedger.amountPaise,
    })
    .from(paymentsLedger)
    .where(and(eq(paymentsLedger.kind, 'capture'), eq(paymentsLedger.provider, provider), gte(paymentsLedger.occurredAt, since)))
    .orderBy(asc(paymentsLedger.occurredAt), asc(paymentsLedger.id));
  if (captures.length === 0) return [];
  const refunds = await db
    .select({ paymentId: paymentsLedger.paymentId, refundId: paymentsLedger.refundId, amountPaise: paymentsLedger.amountPaise })
    .from(paymentsLedger)
    .where(
      and(
        eq(paymentsLedger.kind, 'refund'),
        eq(paymentsLedger.provider, provider),
        inArray(
          paymentsLedger.paymentId,
          captures.map((c) => c.paymentId),
        ),
      ),
    )
    .orderBy(asc(paymentsLedger.id));
  return captures.map((c) => ({
    ...c,
    refunds: refunds.filter((r) => r.paymentId === c.paymentId).map((r) => ({ refundId: r.refundId!, amountPaise: -r.amountPaise })),
  }));
}
