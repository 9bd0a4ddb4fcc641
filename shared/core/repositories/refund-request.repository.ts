import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../db/client.ts';
import { adminUsers, bookings, paymentsLedger, refundRequests, therapists } from '../db/schema.ts';

/**
 * refund_requests (migration 0020): money to hand back at the desk (AT_COUNTER: OPEN → DONE) and a
 * plain admin's request for a super admin (REVIEW: OPEN → APPROVED | DECLINED), one OPEN per booking
 * and kind. Callers hold the booking's row lock, so a booking's requests change one at a time.
 */
export type RefundRequestRow = typeof refundRequests.$inferSelect;
export type RefundRequestKind = RefundRequestRow['kind'];

export type NewRefundRequest = {
  bookingId: number;
  amountPaise: number;
  reason: string;
  /** 'client', 'admin:{id}' or 'worker:…'. */
  requestedBy: string;
  requestedByAdminId: number | null;
  requestedAt: Date;
};

/** The booking's open request of this kind (read as the caller's transaction sees it; callers that change it hold the booking's lock). */
export async function openRequest(db: DbOrTx, bookingId: number, kind: RefundRequestKind): Promise<RefundRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(refundRequests)
    .where(and(eq(refundRequests.bookingId, bookingId), eq(refundRequests.kind, kind), eq(refundRequests.status, 'OPEN')));
  return row;
}

/** The booking's open request of this kind, locked. */
export async function openRequestForUpdate(tx: DbOrTx, bookingId: number, kind: RefundRequestKind): Promise<RefundRequestRow | undefined> {
  const [row] = await tx
    .select()
    .from(refundRequests)
    .where(and(eq(refundRequests.bookingId, bookingId), eq(refundRequests.kind, kind), eq(refundRequests.status, 'OPEN')))
    .for('update');
  return row;
}

/** A request by id. */
export async function requestById(db: DbOrTx, id: number): Promise<RefundRequestRow | undefined> {
  const [row] = await db.select().from(refundRequests).where(eq(refundRequests.id, id));
  return row;
}

/** A request by id, locked. */
export async function requestForUpdate(tx: DbOrTx, id: number): Promise<RefundRequestRow | undefined> {
  const [row] = await tx.select().from(refundRequests).where(eq(refundRequests.id, id)).for('update');
  return row;
}

/**
 * Money to hand back at the desk: a new OPEN AT_COUNTER request, or added to the booking's open one
 * (which keeps who asked first and why).
 */
export async function addDueAtCounter(tx: DbOrTx, r: NewRefundRequest): Promise<RefundRequestRow> {
  const [row] = await tx
    .insert(refundRequests)
    .values({ ...r, kind: 'AT_COUNTER' })
    .onConflictDoUpdate({
      target: [refundRequests.bookingId, refundRequests.kind],
      targetWhere: sql`${refundRequests.status} = 'OPEN'`,
      set: { amountPaise: sql`${refundRequests.amountPaise} + excluded.amount_paise` },
    })
    .returning();
  return row!;
}

/** A plain admin's refund request for a super admin to decide (OPEN REVIEW). */
export async function insertReviewRequest(tx: DbOrTx, r: NewRefundRequest): Promise<RefundRequestRow> {
  const [row] = await tx
    .insert(refundRequests)
    .values({ ...r, kind: 'REVIEW' })
    .returning();
  return row!;
}

/** What is still owed on an open request (part of it was handed over). */
export async function setOpenAmount(tx: DbOrTx, id: number, amountPaise: number): Promise<RefundRequestRow | undefined> {
  const [row] = await tx
    .update(refundRequests)
    .set({ amountPaise })
    .where(and(eq(refundRequests.id, id), eq(refundRequests.status, 'OPEN')))
    .returning();
  return row;
}

/** Closes an open request; undefined when it was not open. */
export async function resolveRequest(
  tx: DbOrTx,
  id: number,
  to: { status: 'DONE' | 'APPROVED' | 'DECLINED'; at: Date; byAdminId: number | null; note: string | null },
): Promise<RefundRequestRow | undefined> {
  const [row] = await tx
    .update(refundRequests)
    .set({ status: to.status, resolvedAt: to.at, resolvedByAdminId: to.byAdminId, resolutionNote: to.note })
    .where(and(eq(refundRequests.id, id), eq(refundRequests.status, 'OPEN')))
    .returning();
  return row;
}

/** Every request a booking has had, oldest first. */
export async function requestsOfBooking(db: DbOrTx, bookingId: number): Promise<RefundRequestRow[]> {
  return db.select().from(refundRequests).where(eq(refundRequests.bookingId, bookingId)).orderBy(asc(refundRequests.id));
}

const requester = alias(adminUsers, 'requester');
const resolver = alias(adminUsers, 'resolver');

/** A request with what its list shows beside it: the booking, its client and therapist, who asked and who decided. */
export type RefundRequestListRow = RefundRequestRow & {
  clientFullName: string;
  clientMobile: string;
  bookingDate: string;
  bookingTimeSlotStart: string;
  therapistName: string;
  requestedByUsername: string | null;
  resolvedByUsername: string | null;
  /** The ledger's money of the booking now: net, and the counter's part of it. */
  heldPaise: number;
  counterHeldPaise: number;
  /** How the counter's payments were taken (CASH, UPI, …), oldest first. */
  counterMethods: string[];
};

const ledgerSum = (counterOnly: boolean) =>
  sql<number>`(select coalesce(sum(${paymentsLedger.amountPaise}), 0)::int from ${paymentsLedger} where ${paymentsLedger.bookingId} = ${refundRequests.bookingId}${counterOnly ? sql` and ${paymentsLedger.provider} = 'counter'` : sql``})`;

function selectRequests(db: Db) {
  return db
    .select({
      r: refundRequests,
      clientFullName: bookings.clientFullName,
      clientMobile: bookings.clientMobile,
      bookingDate: bookings.bookingDate,
      bookingTimeSlotStart: bookings.bookingTimeSlotStart,
      therapistName: therapists.name,
      requestedByUsername: requester.username,
      resolvedByUsername: resolver.username,
      heldPaise: ledgerSum(false),
      counterHeldPaise: ledgerSum(true),
      counterMethods: sql<
        string[]
      >`array(select ${paymentsLedger.method} from ${paymentsLedger} where ${paymentsLedger.bookingId} = ${refundRequests.bookingId} and ${paymentsLedger.provider} = 'counter' and ${paymentsLedger.kind} = 'capture' order by ${paymentsLedger.id})`,
    })
    .from(refundRequests)
    .innerJoin(bookings, eq(bookings.id, refundRequests.bookingId))
    .innerJoin(therapists, eq(therapists.id, bookings.therapistId))
    .leftJoin(requester, eq(requester.id, refundRequests.requestedByAdminId))
    .leftJoin(resolver, eq(resolver.id, refundRequests.resolvedByAdminId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectRequests>['execute']>>[number];
const flat = (rows: Selected[]): RefundRequestListRow[] => rows.map(({ r, ...rest }) => ({ ...r, ...rest }));

/** The open AT_COUNTER requests, oldest first: what the desk has to hand back. */
export async function listDueAtCounter(db: Db): Promise<RefundRequestListRow[]> {
  return flat(
    await selectRequests(db)
      .where(and(eq(refundRequests.kind, 'AT_COUNTER'), eq(refundRequests.status, 'OPEN')))
      .orderBy(asc(refundRequests.requestedAt), asc(refundRequests.id)),
  );
}

/** REVIEW requests: the open ones oldest first, and those decided at or after `decidedSince`, newest first. */
export async function listReviewRequests(db: Db, decidedSince: Date): Promise<{ open: RefundRequestListRow[]; decided: RefundRequestListRow[] }> {
  const [open, decided] = await Promise.all([
    selectRequests(db)
      .where(and(eq(refundRequests.kind, 'REVIEW'), eq(refundRequests.status, 'OPEN')))
      .orderBy(asc(refundRequests.requestedAt), asc(refundRequests.id)),
    selectRequests(db)
      .where(and(eq(refundRequests.kind, 'REVIEW'), sql`${refundRequests.status} <> 'OPEN'`, gte(refundRequests.resolvedAt, decidedSince)))
      .orderBy(desc(refundRequests.resolvedAt), desc(refundRequests.id)),
  ]);
  return { open: flat(open), decided: flat(decided) };
}

/** One request as its list shows it. */
export async function getRefundRequest(db: Db, id: number): Promise<RefundRequestListRow | undefined> {
  return flat(await selectRequests(db).where(eq(refundRequests.id, id)))[0];
}
