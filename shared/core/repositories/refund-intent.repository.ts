import { and, asc, eq, lt } from 'drizzle-orm';
import { refundIntents, type RefundIntentPart } from '../db/schema.ts';
import type { DbOrTx } from '../db/client.ts';

/**
 * refund_intents (migration 0023): a provider refund written down before the provider is asked, closed
 * once its answer is recorded. Callers that open or close one hold its booking's row lock.
 */
export type RefundIntentRow = typeof refundIntents.$inferSelect;
export type { RefundIntentPart };
/** An intent to refund a booking's money (every kind but a package sale's refund). */
export type BookingRefundIntent = RefundIntentRow & { bookingId: number };
/** An intent to refund a package sale's money (issue 34). */
export type SaleRefundIntent = RefundIntentRow & { bookingId: null; packageSaleId: number };

export function isSaleIntent(i: RefundIntentRow): i is SaleRefundIntent {
  return i.packageSaleId !== null;
}

export type NewRefundIntent = {
  bookingId: number;
  amountPaise: number;
  counterPaise: number;
  parts: RefundIntentPart[];
  reason: string | null;
  requestedBy: string;
  byAdminId: number | null;
  action: RefundIntentRow['action'];
  createdAt: Date;
};

export async function insertRefundIntent(tx: DbOrTx, i: NewRefundIntent): Promise<BookingRefundIntent> {
  const [row] = await tx.insert(refundIntents).values(i).returning();
  return row as BookingRefundIntent;
}

export async function insertSaleRefundIntent(tx: DbOrTx, i: Omit<NewRefundIntent, 'bookingId'> & { packageSaleId: number }): Promise<SaleRefundIntent> {
  const [row] = await tx.insert(refundIntents).values(i).returning();
  return row as SaleRefundIntent;
}

/** The booking's open intent, if any (one at most: refund_intents_open_uq). */
export async function openIntentOfBooking(db: DbOrTx, bookingId: number): Promise<BookingRefundIntent | undefined> {
  const [row] = await db
    .select()
    .from(refundIntents)
    .where(and(eq(refundIntents.bookingId, bookingId), eq(refundIntents.status, 'OPEN')));
  return row as BookingRefundIntent | undefined;
}

/** The package sale's open refund intent, if any (one at most: refund_intents_open_sale_uq). */
export async function openIntentOfSale(db: DbOrTx, saleId: number): Promise<SaleRefundIntent | undefined> {
  const [row] = await db
    .select()
    .from(refundIntents)
    .where(and(eq(refundIntents.packageSaleId, saleId), eq(refundIntents.status, 'OPEN')));
  return row as SaleRefundIntent | undefined;
}

/** An intent by id, locked. */
export async function intentForUpdate(tx: DbOrTx, id: number): Promise<RefundIntentRow | undefined> {
  const [row] = await tx.select().from(refundIntents).where(eq(refundIntents.id, id)).for('update');
  return row;
}

/** Closes an open intent: DONE with the provider's answers in its parts, or FAILED with why. Undefined when it was not open. */
export async function closeRefundIntent(
  tx: DbOrTx,
  id: number,
  to: { status: 'DONE'; parts: RefundIntentPart[]; at: Date } | { status: 'FAILED'; failure: string; at: Date },
): Promise<RefundIntentRow | undefined> {
  const [row] = await tx
    .update(refundIntents)
    .set(
      to.status === 'DONE'
        ? { status: 'DONE', parts: to.parts, finishedAt: to.at }
        : { status: 'FAILED', failure: to.failure.slice(0, 500), finishedAt: to.at },
    )
    .where(and(eq(refundIntents.id, id), eq(refundIntents.status, 'OPEN')))
    .returning();
  return row;
}

/** Intents still open that were written before `before`, oldest first: left by a process that stopped between its phases. */
export async function openIntentsBefore(db: DbOrTx, before: Date, limit = 100): Promise<(BookingRefundIntent | SaleRefundIntent)[]> {
  const rows = await db
    .select()
    .from(refundIntents)
    .where(and(eq(refundIntents.status, 'OPEN'), lt(refundIntents.createdAt, before)))
    .orderBy(asc(refundIntents.createdAt), asc(refundIntents.id))
    .limit(limit);
  return rows as (BookingRefundIntent | SaleRefundIntent)[];
}
