import { and, asc, eq, gt, gte, isNotNull, isNull, lte, min, or } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { bookings, webhookEvents } from '../db/schema.ts';

/** INITIATED → FAILED, only while still INITIATED; answers whether this call changed it. */
export async function failInitiatedBooking(tx: DbOrTx, bookingId: number, now: Date): Promise<boolean> {
  const [row] = await tx
    .update(bookings)
    .set({ paymentStatus: 'FAILED', paymentHoldExpiresAt: null, updatedAt: now })
    .where(and(eq(bookings.id, bookingId), eq(bookings.paymentStatus, 'INITIATED')))
    .returning({ id: bookings.id });
  return Boolean(row);
}

/** Stores a booking's payment link unless it already has one (the first link made wins). */
export async function storeLinkIfNone(db: DbOrTx, bookingId: number, link: { shortUrl: string; id: string }, now: Date): Promise<void> {
  await db
    .update(bookings)
    .set({ paymentLinkUrl: link.shortUrl, razorpayPaymentLinkId: link.id, updatedAt: now })
    .where(and(eq(bookings.id, bookingId), isNull(bookings.razorpayPaymentLinkId)));
}

/** When the earliest unpaid online hold still running ends. */
export async function earliestRunningHoldEnd(db: DbOrTx, now: Date): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: min(bookings.paymentHoldExpiresAt) })
    .from(bookings)
    .where(and(eq(bookings.paymentStatus, 'INITIATED'), eq(bookings.bookingType, 'ONLINE'), gt(bookings.paymentHoldExpiresAt, now)));
  return row?.at ?? undefined;
}

/**
 * Unpaid online bookings, oldest first, at most 500: with `which` 'to-reconcile' those with a link or
 * whose hold is over (or never set), with 'hold-over' only those whose hold is over.
 */
export async function unpaidOnlineBookingIds(db: DbOrTx, which: 'to-reconcile' | 'hold-over', now: Date): Promise<number[]> {
  const condition =
    which === 'to-reconcile'
      ? or(isNotNull(bookings.razorpayPaymentLinkId), isNull(bookings.paymentHoldExpiresAt), lte(bookings.paymentHoldExpiresAt, now))
      : lte(bookings.paymentHoldExpiresAt, now);
  const rows = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.paymentStatus, 'INITIATED'), eq(bookings.bookingType, 'ONLINE'), condition))
    .orderBy(asc(bookings.id))
    .limit(500);
  return rows.map((r) => r.id);
}

/**
 * Online bookings the centre made awaiting their payment link (issue 31): PENDING with a link, not
 * cancelled, booked for `since` or later (a link expires when its session starts), oldest first, at most 500.
 */
export async function awaitingLinkBookingIds(db: DbOrTx, since: string): Promise<number[]> {
  const rows = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.paymentStatus, 'PENDING'),
        eq(bookings.bookingType, 'ONLINE'),
        isNotNull(bookings.razorpayPaymentLinkId),
        eq(bookings.cancelled, false),
        gte(bookings.bookingDate, since),
      ),
    )
    .orderBy(asc(bookings.id))
    .limit(500);
  return rows.map((r) => r.id);
}

/** Records a provider's webhook event; answers false when it was recorded before (a re-delivery). */
export async function recordWebhookEvent(tx: DbOrTx, event: { eventId: string; provider: string; event: string }): Promise<boolean> {
  const [fresh] = await tx.insert(webhookEvents).values(event).onConflictDoNothing().returning({ eventId: webhookEvents.eventId });
  return Boolean(fresh);
}

/** The booking's current payment link id (null without one; undefined without the booking). */
export async function paymentLinkIdOf(tx: DbOrTx, bookingId: number): Promise<string | null | undefined> {
  const [b] = await tx.select({ linkId: bookings.razorpayPaymentLinkId }).from(bookings).where(eq(bookings.id, bookingId));
  return b ? b.linkId : undefined;
}
