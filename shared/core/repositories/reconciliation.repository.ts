import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, notExists, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { adminUsers, bookings, paymentDiscrepancies, paymentLinks, paymentsLedger, type DiscrepancyKind } from '../db/schema.ts';

export type DiscrepancyRow = typeof paymentDiscrepancies.$inferSelect;

/** What reconciliation found; the key (kind, provider, payment, refund) names one disagreement. */
export type Discrepancy = {
  kind: DiscrepancyKind;
  provider: 'razorpay' | 'sandbox';
  bookingId: number | null;
  paymentId: string;
  /** The refund concerned; '' when it is about the payment itself. */
  refundId: string;
  ledgerPaise: number | null;
  providerPaise: number | null;
  detail: string;
};

/**
 * Links a booking was given at or after `since` (first_seen_at is written by a trigger on bookings,
 * so links that were replaced or cancelled are here too) whose payment the ledger does not have: a
 * link takes one payment, so one recorded under its id settles it.
 */
export async function linksToReconcile(db: DbOrTx, since: Date): Promise<{ linkId: string; bookingId: number }[]> {
  return db
    .select({ linkId: paymentLinks.linkId, bookingId: paymentLinks.bookingId })
    .from(paymentLinks)
    .where(
      and(
        gte(paymentLinks.firstSeenAt, since),
        notExists(
          db
            .select({ one: sql`1` })
            .from(paymentsLedger)
            .where(and(eq(paymentsLedger.kind, 'capture'), eq(paymentsLedger.linkId, paymentLinks.linkId))),
        ),
      ),
    )
    .orderBy(asc(paymentLinks.firstSeenAt), asc(paymentLinks.linkId));
}

export async function getDiscrepancy(db: DbOrTx, id: number): Promise<DiscrepancyRow | undefined> {
  const [row] = await db.select().from(paymentDiscrepancies).where(eq(paymentDiscrepancies.id, id));
  return row;
}

export async function findDiscrepancyForUpdate(tx: DbOrTx, id: number): Promise<DiscrepancyRow | undefined> {
  const [row] = await tx.select().from(paymentDiscrepancies).where(eq(paymentDiscrepancies.id, id)).for('update');
  return row;
}

/**
 * Records a disagreement as open, once: the partial unique index on the key among open rows makes a
 * second sighting (a later run, or a run at the same moment) only move last_seen_at and the amounts.
 * Answers the row and whether this call opened it; undefined when a super admin already reviewed
 * this very disagreement (same key, same amounts), so a reviewed one does not come back every hour.
 */
export async function openDiscrepancy(tx: DbOrTx, d: Discrepancy, now: Date): Promise<{ row: DiscrepancyRow; opened: boolean } | undefined> {
  // Raw SQL: INSERT … SELECT … WHERE NOT EXISTS with ON CONFLICT on a partial index, and xmax = 0 to
  // tell an insert from an update, are beyond the query builder. The casts type the SELECT's parameters.
  const result = await tx.execute<{ id: string | number; opened: boolean }>(sql`
    insert into payment_discrepancies (kind, provider, booking_id, payment_id, refund_id, ledger_paise, provider_paise, detail, detected_at, last_seen_at)
    select ${d.kind}::text, ${d.provider}::text, ${d.bookingId}::int, ${d.paymentId}::text, ${d.refundId}::text,
           ${d.ledgerPaise}::int, ${d.providerPaise}::int, ${d.detail}::text, ${now}::timestamptz, ${now}::timestamptz
    where not exists (
      select 1 from payment_discrepancies r
      where r.kind = ${d.kind} and r.provider = ${d.provider} and r.payment_id = ${d.paymentId} and r.refund_id = ${d.refundId}
        and r.resolved_by_admin_id is not null
        and r.ledger_paise is not distinct from ${d.ledgerPaise}::int and r.provider_paise is not distinct from ${d.providerPaise}::int
    )
    on conflict (kind, provider, payment_id, refund_id) where resolved_at is null
    do update set last_seen_at = excluded.last_seen_at, ledger_paise = excluded.ledger_paise,
                  provider_paise = excluded.provider_paise, detail = excluded.detail
    returning id, (xmax = 0) as opened`);
  const answer = result.rows[0];
  if (!answer) return undefined;
  const row = await getDiscrepancy(tx, Number(answer.id));
  return { row: row!, opened: answer.opened };
}

/** A disagreement reconciliation settled itself as it found it (a payment it recorded): born resolved. */
export async function insertResolvedDiscrepancy(tx: DbOrTx, d: Discrepancy, now: Date, resolution: string): Promise<DiscrepancyRow> {
  const [row] = await tx
    .insert(paymentDiscrepancies)
    .values({ ...d, detectedAt: now, lastSeenAt: now, resolvedAt: now, resolution })
    .returning();
  return row!;
}

/** The open disagreements of a provider of the given kinds about these payments. */
export async function openDiscrepanciesFor(
  db: DbOrTx,
  provider: 'razorpay' | 'sandbox',
  kinds: readonly DiscrepancyKind[],
  paymentIds: readonly string[],
): Promise<DiscrepancyRow[]> {
  if (paymentIds.length === 0) return [];
  return db
    .select()
    .from(paymentDiscrepancies)
    .where(
      and(
        isNull(paymentDiscrepancies.resolvedAt),
        eq(paymentDiscrepancies.provider, provider),
        inArray(paymentDiscrepancies.kind, [...kinds]),
        inArray(paymentDiscrepancies.paymentId, [...paymentIds]),
      ),
    )
    .orderBy(asc(paymentDiscrepancies.id));
}

/** Closes an open disagreement; undefined when it was not open (someone closed it first). */
export async function resolveDiscrepancy(tx: DbOrTx, id: number, now: Date, resolution: string, adminId: number | null): Promise<DiscrepancyRow | undefined> {
  const [row] = await tx
    .update(paymentDiscrepancies)
    .set({ resolvedAt: now, resolution, resolvedByAdminId: adminId })
    .where(and(eq(paymentDiscrepancies.id, id), isNull(paymentDiscrepancies.resolvedAt)))
    .returning();
  return row;
}

/** A disagreement with what the list shows beside it: the booking's client and time, who closed it. */
export type AttentionRow = DiscrepancyRow & {
  clientFullName: string | null;
  bookingDate: string | null;
  bookingTimeSlotStart: string | null;
  resolvedByUsername: string | null;
};

function selectAttention(db: Db) {
  return db
    .select({
      d: paymentDiscrepancies,
      clientFullName: bookings.clientFullName,
      bookingDate: bookings.bookingDate,
      bookingTimeSlotStart: bookings.bookingTimeSlotStart,
      resolvedByUsername: adminUsers.username,
    })
    .from(paymentDiscrepancies)
    .leftJoin(bookings, eq(bookings.id, paymentDiscrepancies.bookingId))
    .leftJoin(adminUsers, eq(adminUsers.id, paymentDiscrepancies.resolvedByAdminId));
}

const flat = (rows: ({ d: DiscrepancyRow } & Omit<AttentionRow, keyof DiscrepancyRow>)[]): AttentionRow[] => rows.map(({ d, ...rest }) => ({ ...d, ...rest }));

/** Every open disagreement, newest first, then those closed at or after `resolvedSince`, newest first. */
export async function listAttention(db: Db, resolvedSince: Date): Promise<{ open: AttentionRow[]; resolved: AttentionRow[] }> {
  const [open, resolved] = await Promise.all([
    selectAttention(db).where(isNull(paymentDiscrepancies.resolvedAt)).orderBy(desc(paymentDiscrepancies.detectedAt), desc(paymentDiscrepancies.id)),
    selectAttention(db)
      .where(and(isNotNull(paymentDiscrepancies.resolvedAt), gte(paymentDiscrepancies.resolvedAt, resolvedSince)))
      .orderBy(desc(paymentDiscrepancies.resolvedAt), desc(paymentDiscrepancies.id)),
  ]);
  return { open: flat(open), resolved: flat(resolved) };
}

/** One disagreement as the list shows it. */
export async function getAttention(db: Db, id: number): Promise<AttentionRow | undefined> {
  return flat(await selectAttention(db).where(eq(paymentDiscrepancies.id, id)))[0];
}
