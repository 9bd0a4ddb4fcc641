import { and, eq, sql } from 'drizzle-orm';
import { paymentsLedger } from '../db/schema.ts';
import type { DbOrTx } from '../jobs/outbox.ts';

export type LedgerRow = typeof paymentsLedger.$inferSelect;
export type LedgerMethod = LedgerRow['method'];
export type LedgerProvider = LedgerRow['provider'];

export type Capture = {
  bookingId: number;
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
  const rows = await db
    .insert(paymentsLedger)
    .values({
      bookingId: c.bookingId,
      kind: 'capture',
      provider: c.provider,
      paymentId: c.paymentId,
      linkId: c.linkId ?? null,
      amountPaise: c.amountPaise,
      method: c.method,
      recordedByAdminId: c.recordedByAdminId ?? null,
      occurredAt: c.occurredAt,
    })
    .onConflictDoNothing({ target: [paymentsLedger.provider, paymentsLedger.paymentId], where: sql`${paymentsLedger.kind} = 'capture'` })
    .returning({ id: paymentsLedger.id });
  return rows.length > 0;
}

/** A booking's rows, oldest first. */
export async function ledgerForBooking(db: DbOrTx, bookingId: number): Promise<LedgerRow[]> {
  return db.select().from(paymentsLedger).where(eq(paymentsLedger.bookingId, bookingId)).orderBy(paymentsLedger.id);
}

/** Whether a booking already has a capture (any provider, the counter included). */
export async function hasCapture(db: DbOrTx, bookingId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentsLedger.id })
    .from(paymentsLedger)
    .where(and(eq(paymentsLedger.bookingId, bookingId), eq(paymentsLedger.kind, 'capture')))
    .limit(1);
  return Boolean(row);
}
