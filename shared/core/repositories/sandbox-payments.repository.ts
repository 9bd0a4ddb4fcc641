import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { sandboxPaymentLinks, sandboxRefunds } from '../db/schema.ts';

/**
 * The sandbox payments provider's own records (providers/payments/sandbox.provider.ts): what Razorpay
 * keeps on its side, here in PostgreSQL.
 */

export type SandboxLink = typeof sandboxPaymentLinks.$inferSelect;
export type SandboxRefund = typeof sandboxRefunds.$inferSelect;

export async function sandboxLinkById(db: DbOrTx, id: string): Promise<SandboxLink | undefined> {
  const [row] = await db.select().from(sandboxPaymentLinks).where(eq(sandboxPaymentLinks.id, id));
  return row;
}

export async function sandboxLinkByReference(db: DbOrTx, referenceId: string): Promise<SandboxLink | undefined> {
  const [row] = await db.select().from(sandboxPaymentLinks).where(eq(sandboxPaymentLinks.referenceId, referenceId)).limit(1);
  return row;
}

export async function insertSandboxLink(
  db: DbOrTx,
  link: Pick<SandboxLink, 'id' | 'referenceId' | 'amountPaise' | 'description' | 'customer' | 'callbackUrl' | 'expireBy'>,
): Promise<SandboxLink> {
  const [row] = await db.insert(sandboxPaymentLinks).values(link).returning();
  return row!;
}

/** The link cancelled, only while it is live (created, not expired by `now`); undefined otherwise. */
export async function cancelLiveSandboxLink(tx: DbOrTx, id: string, now: Date): Promise<SandboxLink | undefined> {
  const [row] = await tx
    .update(sandboxPaymentLinks)
    .set({ status: 'cancelled', updatedAt: sql`now()` })
    .where(and(eq(sandboxPaymentLinks.id, id), eq(sandboxPaymentLinks.status, 'created'), gt(sandboxPaymentLinks.expireBy, now)))
    .returning();
  return row;
}

/**
 * The link paid by `paymentId`, only while it is live; undefined otherwise. updated_at is stamped on the
 * provider's clock (`now`), like expire_by: it is the capture time the provider answers.
 */
export async function markSandboxLinkPaid(tx: DbOrTx, id: string, paymentId: string, now: Date): Promise<SandboxLink | undefined> {
  const [row] = await tx
    .update(sandboxPaymentLinks)
    .set({ status: 'paid', paymentId, updatedAt: now })
    .where(and(eq(sandboxPaymentLinks.id, id), eq(sandboxPaymentLinks.status, 'created'), gt(sandboxPaymentLinks.expireBy, now)))
    .returning();
  return row;
}

/** The link that holds a payment, locked until the transaction ends (whatever its status). */
export async function lockSandboxLinkOfPayment(tx: DbOrTx, paymentId: string): Promise<SandboxLink | undefined> {
  const [row] = await tx.select().from(sandboxPaymentLinks).where(eq(sandboxPaymentLinks.paymentId, paymentId)).for('update');
  return row;
}

/** The paid link that holds a payment: a payment the sandbox captured. */
export async function paidSandboxLinkOfPayment(db: DbOrTx, paymentId: string): Promise<SandboxLink | undefined> {
  const [row] = await db
    .select()
    .from(sandboxPaymentLinks)
    .where(and(eq(sandboxPaymentLinks.paymentId, paymentId), eq(sandboxPaymentLinks.status, 'paid')));
  return row;
}

export async function sandboxRefundByKey(db: DbOrTx, idempotencyKey: string): Promise<SandboxRefund | undefined> {
  const [row] = await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.idempotencyKey, idempotencyKey));
  return row;
}

/** What of a payment has been refunded, in paise. */
export async function refundedSandboxPaise(db: DbOrTx, paymentId: string): Promise<number> {
  const [sum] = await db
    .select({ refunded: sql<number>`coalesce(sum(${sandboxRefunds.amountPaise}), 0)::int` })
    .from(sandboxRefunds)
    .where(and(eq(sandboxRefunds.paymentId, paymentId), eq(sandboxRefunds.status, 'processed')));
  return sum?.refunded ?? 0;
}

/** A processed refund, unless its idempotency key is taken already (then nothing is written). */
export async function insertSandboxRefund(
  tx: DbOrTx,
  refund: Pick<SandboxRefund, 'id' | 'paymentId' | 'amountPaise' | 'idempotencyKey' | 'notes' | 'createdAt'>,
): Promise<void> {
  await tx
    .insert(sandboxRefunds)
    .values({ ...refund, status: 'processed' })
    .onConflictDoNothing({ target: sandboxRefunds.idempotencyKey });
}

/** A payment's refunds, oldest first. */
export async function sandboxRefundsOfPayment(db: DbOrTx, paymentId: string): Promise<SandboxRefund[]> {
  return db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentId, paymentId)).orderBy(sandboxRefunds.createdAt, sandboxRefunds.id);
}
