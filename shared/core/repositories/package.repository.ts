import { and, asc, desc, eq, ilike, isNull, lt, or, sql } from 'drizzle-orm';
import { bookings, packageCredits, packageSales, packages, paymentsLedger, therapists, type PackageCreditKind } from '../db/schema.ts';
import type { DbOrTx } from '../db/client.ts';

/**
 * Packages of sessions, their sales and the sales' credits (issue 34). Callers that change a sale's
 * credits or money hold the sale's row lock (saleForUpdate): it orders every use, return, expiry and
 * refund of one sale.
 */
export type PackageRow = typeof packages.$inferSelect;
export type SaleRow = typeof packageSales.$inferSelect;
export type CreditRow = typeof packageCredits.$inferSelect;

/** The first row a query answers, if any. */
async function first<T>(rows: PromiseLike<T[]>): Promise<T | undefined> {
  return (await rows)[0];
}

export const insertPackage = async (tx: DbOrTx, values: typeof packages.$inferInsert): Promise<PackageRow> =>
  (await first(tx.insert(packages).values(values).returning()))!;
export const updatePackageRow = (tx: DbOrTx, id: number, set: Partial<typeof packages.$inferInsert>): Promise<PackageRow | undefined> =>
  first(tx.update(packages).set(set).where(eq(packages.id, id)).returning());
export const getPackage = (db: DbOrTx, id: number): Promise<PackageRow | undefined> => first(db.select().from(packages).where(eq(packages.id, id)));
export const packageForUpdate = (tx: DbOrTx, id: number): Promise<PackageRow | undefined> =>
  first(tx.select().from(packages).where(eq(packages.id, id)).for('update'));

export async function listPackageRows(db: DbOrTx, activeOnly: boolean): Promise<PackageRow[]> {
  return db
    .select()
    .from(packages)
    .where(activeOnly ? eq(packages.isActive, true) : undefined)
    .orderBy(asc(packages.name), asc(packages.id));
}

/** How many of the ids are therapists (active or not). */
export async function countTherapists(db: DbOrTx, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(therapists)
    .where(sql`${therapists.id} = any(${sql.param(ids)}::int[])`);
  return row!.n;
}

export const insertSale = async (tx: DbOrTx, values: typeof packageSales.$inferInsert): Promise<SaleRow> =>
  (await first(tx.insert(packageSales).values(values).returning()))!;
export const updateSaleRow = (tx: DbOrTx, id: number, set: Partial<typeof packageSales.$inferInsert>): Promise<SaleRow | undefined> =>
  first(tx.update(packageSales).set(set).where(eq(packageSales.id, id)).returning());
export const getSale = (db: DbOrTx, id: number): Promise<SaleRow | undefined> => first(db.select().from(packageSales).where(eq(packageSales.id, id)));

/**
 * The client's online sales still waiting for their payment (created after `since`, when a link made
 * then is still open), by e-mail and by mobile: the larger count, and when the oldest of them was made.
 */
export async function awaitingSalesOfClient(tx: DbOrTx, email: string, mobile: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
  const { rows } = await tx.execute<{ n: number; oldest: string | null }>(sql`
    select greatest(count(*) filter (where client_email = ${email}), count(*) filter (where client_mobile = ${mobile}))::int as n,
      min(created_at) as oldest
    from package_sales
    where status = 'AWAITING_PAYMENT' and channel = 'ONLINE' and created_at > ${since.toISOString()}::timestamptz
      and (client_email = ${email} or client_mobile = ${mobile})`);
  return { count: rows[0]!.n, oldest: rows[0]!.oldest ? new Date(rows[0]!.oldest) : null };
}

/** The sale, locked: every change to its credits or money is made holding it. */
export const saleForUpdate = (tx: DbOrTx, id: number): Promise<SaleRow | undefined> =>
  first(tx.select().from(packageSales).where(eq(packageSales.id, id)).for('update'));
export const findSaleByTokenHash = (db: DbOrTx, hash: string): Promise<SaleRow | undefined> =>
  first(db.select().from(packageSales).where(eq(packageSales.tokenHash, hash)));
export const findSaleByRequestKey = (db: DbOrTx, key: string): Promise<SaleRow | undefined> =>
  first(db.select().from(packageSales).where(eq(packageSales.requestKey, key)));

/** Online sales still waiting for their payment, oldest first (package_sales_awaiting_idx). */
export async function awaitingSaleIds(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .select({ id: packageSales.id })
    .from(packageSales)
    .where(eq(packageSales.status, 'AWAITING_PAYMENT'))
    .orderBy(asc(packageSales.createdAt));
  return rows.map((r) => r.id);
}

export type SaleListRow = SaleRow & { packageName: string } & CreditTotals;

/** Credits of a sale added up by kind (positive counts), and what is left (their sum). */
export type CreditTotals = { sold: number; used: number; returned: number; expired: number; refunded: number; left: number };

const totalsColumns = {
  sold: sql<number>`coalesce((select sum(c.sessions) from package_credits c where c.sale_id = ${packageSales.id} and c.kind = 'sold'), 0)::int`,
  used: sql<number>`coalesce((select -sum(c.sessions) from package_credits c where c.sale_id = ${packageSales.id} and c.kind = 'used'), 0)::int`,
  returned: sql<number>`coalesce((select sum(c.sessions) from package_credits c where c.sale_id = ${packageSales.id} and c.kind = 'returned'), 0)::int`,
  expired: sql<number>`coalesce((select -sum(c.sessions) from package_credits c where c.sale_id = ${packageSales.id} and c.kind = 'expired'), 0)::int`,
  refunded: sql<number>`coalesce((select -sum(c.sessions) from package_credits c where c.sale_id = ${packageSales.id} and c.kind = 'refunded'), 0)::int`,
  left: sql<number>`coalesce((select sum(c.sessions) from package_credits c where c.sale_id = ${packageSales.id}), 0)::int`,
};

/** Sales newest first, with their package's name and credit totals; `q` matches the client's name, e-mail or mobile. */
export async function listSaleRows(db: DbOrTx, f: { q?: string | undefined; status?: SaleRow['status'] | undefined }): Promise<SaleListRow[]> {
  const like = f.q ? `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const rows = await db
    .select({ s: packageSales, packageName: packages.name, ...totalsColumns })
    .from(packageSales)
    .innerJoin(packages, eq(packages.id, packageSales.packageId))
    .where(
      and(
        f.status ? eq(packageSales.status, f.status) : undefined,
        like ? or(ilike(packageSales.clientFullName, like), ilike(packageSales.clientEmail, like), ilike(packageSales.clientMobile, like)) : undefined,
      ),
    )
    .orderBy(desc(packageSales.id))
    .limit(500);
  return rows.map(({ s, packageName, ...t }) => ({ ...s, packageName, ...t }));
}

export async function saleWithTotals(db: DbOrTx, id: number): Promise<SaleListRow | undefined> {
  const [row] = await db
    .select({ s: packageSales, packageName: packages.name, ...totalsColumns })
    .from(packageSales)
    .innerJoin(packages, eq(packages.id, packageSales.packageId))
    .where(eq(packageSales.id, id));
  if (!row) return undefined;
  const { s, packageName, ...t } = row;
  return { ...s, packageName, ...t };
}

export async function creditsOfSale(db: DbOrTx, saleId: number): Promise<CreditRow[]> {
  return db.select().from(packageCredits).where(eq(packageCredits.saleId, saleId)).orderBy(asc(packageCredits.id));
}

/** What is left of a sale's credits (their sum); read under the sale's row lock to act on it. */
export async function creditsLeft(tx: DbOrTx, saleId: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${packageCredits.sessions}), 0)::int` })
    .from(packageCredits)
    .where(eq(packageCredits.saleId, saleId));
  return row!.n;
}

export type NewCredit = {
  saleId: number;
  kind: PackageCreditKind;
  sessions: number;
  bookingId?: number | null;
  actor: string;
  byAdminId?: number | null;
  occurredAt: Date;
};

/** Appends one credit row once: a repeat of an event each index allows once (one use per booking, one sale…) writes nothing. Answers whether it wrote. */
export async function appendCredit(tx: DbOrTx, c: NewCredit): Promise<boolean> {
  const rows = await tx
    .insert(packageCredits)
    .values({ ...c, bookingId: c.bookingId ?? null, byAdminId: c.byAdminId ?? null })
    .onConflictDoNothing()
    .returning({ id: packageCredits.id });
  return rows.length > 0;
}

/** Appends credit rows in one statement, each once (as appendCredit); answers how many were written. */
export async function appendCredits(tx: DbOrTx, cs: readonly NewCredit[]): Promise<number> {
  if (cs.length === 0) return 0;
  const rows = await tx
    .insert(packageCredits)
    .values(cs.map((c) => ({ ...c, bookingId: c.bookingId ?? null, byAdminId: c.byAdminId ?? null })))
    .onConflictDoNothing()
    .returning({ id: packageCredits.id });
  return rows.length;
}

/** The sale whose credit a booking used, and whether it came back, if it used one. */
export async function creditOfBooking(db: DbOrTx, bookingId: number): Promise<{ saleId: number; returned: boolean } | undefined> {
  const rows = await db
    .select({ saleId: packageCredits.saleId, kind: packageCredits.kind })
    .from(packageCredits)
    .where(and(eq(packageCredits.bookingId, bookingId), or(eq(packageCredits.kind, 'used'), eq(packageCredits.kind, 'returned'))));
  const used = rows.find((r) => r.kind === 'used');
  return used ? { saleId: used.saleId, returned: rows.some((r) => r.kind === 'returned') } : undefined;
}

export type SaleBookingRow = {
  id: number;
  bookingDate: string;
  bookingTimeSlotStart: string;
  bookingType: 'ONLINE' | 'OFFLINE' | 'ADMIN_BLOCK';
  therapistName: string;
  cancelled: boolean;
  attendance: 'ATTENDED' | 'NO_SHOW' | null;
  returned: boolean;
};

/** The bookings that used a credit of the sale, by session date. */
export async function bookingsOfSale(db: DbOrTx, saleId: number): Promise<SaleBookingRow[]> {
  return db
    .select({
      id: bookings.id,
      bookingDate: bookings.bookingDate,
      bookingTimeSlotStart: bookings.bookingTimeSlotStart,
      bookingType: bookings.bookingType,
      therapistName: therapists.name,
      cancelled: bookings.cancelled,
      attendance: bookings.attendance,
      returned: sql<boolean>`exists (select 1 from package_credits r where r.booking_id = ${bookings.id} and r.kind = 'returned')`,
    })
    .from(packageCredits)
    .innerJoin(bookings, eq(bookings.id, packageCredits.bookingId))
    .innerJoin(therapists, eq(therapists.id, bookings.therapistId))
    .where(and(eq(packageCredits.saleId, saleId), eq(packageCredits.kind, 'used')))
    .orderBy(asc(bookings.bookingDate), asc(bookings.bookingTimeSlotStart));
}

/** A sale's money in the payments ledger: captured and refunded (both positive), and its captures. */
export async function moneyOfSale(
  db: DbOrTx,
  saleId: number,
): Promise<{
  capturedPaise: number;
  refundedPaise: number;
  captures: { provider: 'razorpay' | 'sandbox' | 'counter'; paymentId: string; leftPaise: number }[];
}> {
  const rows = await db.select().from(paymentsLedger).where(eq(paymentsLedger.packageSaleId, saleId)).orderBy(asc(paymentsLedger.id));
  const captures = rows
    .filter((r) => r.kind === 'capture')
    .map((c) => ({
      provider: c.provider,
      paymentId: c.paymentId,
      leftPaise: c.amountPaise + rows.filter((r) => r.kind === 'refund' && r.paymentId === c.paymentId).reduce((n, r) => n + r.amountPaise, 0),
    }));
  return {
    capturedPaise: rows.filter((r) => r.kind === 'capture').reduce((n, r) => n + r.amountPaise, 0),
    refundedPaise: -rows.filter((r) => r.kind === 'refund').reduce((n, r) => n + r.amountPaise, 0),
    captures,
  };
}

/** The sale's refunds in the payments ledger (amounts negative), oldest first. */
export async function saleRefundRows(db: DbOrTx, saleId: number): Promise<{ paymentId: string; amountPaise: number; reason: string | null }[]> {
  return db
    .select({ paymentId: paymentsLedger.paymentId, amountPaise: paymentsLedger.amountPaise, reason: paymentsLedger.reason })
    .from(paymentsLedger)
    .where(and(eq(paymentsLedger.packageSaleId, saleId), eq(paymentsLedger.kind, 'refund')))
    .orderBy(asc(paymentsLedger.id));
}

/** Paid sales whose last day is before `today` with credits left and no expiry yet: the expiry job's work. */
export async function salesToExpire(db: DbOrTx, today: string): Promise<number[]> {
  const rows = await db
    .select({ id: packageSales.id })
    .from(packageSales)
    .where(
      and(
        eq(packageSales.status, 'PAID'),
        lt(packageSales.expiresOn, today),
        sql`not exists (select 1 from package_credits c where c.sale_id = ${packageSales.id} and c.kind = 'expired')`,
        sql`(select sum(c.sessions) from package_credits c where c.sale_id = ${packageSales.id}) > 0`,
      ),
    )
    .orderBy(asc(packageSales.id));
  return rows.map((r) => r.id);
}

/** Paid sales expiring from `today` to `by` with credits left, not yet reminded of it. */
export async function salesToRemind(db: DbOrTx, today: string, by: string): Promise<number[]> {
  const rows = await db
    .select({ id: packageSales.id })
    .from(packageSales)
    .where(
      and(
        eq(packageSales.status, 'PAID'),
        isNull(packageSales.expiryReminderSentAt),
        sql`${packageSales.expiresOn} between ${today} and ${by}`,
        sql`(select sum(c.sessions) from package_credits c where c.sale_id = ${packageSales.id}) > 0`,
      ),
    )
    .orderBy(asc(packageSales.id));
  return rows.map((r) => r.id);
}

export type SoldRow = { packageId: number; packageName: string; sales: number; sessions: number; amountPaise: number };

/** Sales paid in [from, to) (instants), per package: how many, their sessions and their price. */
export async function soldBetween(db: DbOrTx, from: Date, to: Date): Promise<SoldRow[]> {
  return db
    .select({
      packageId: packages.id,
      packageName: packages.name,
      sales: sql<number>`count(*)::int`,
      sessions: sql<number>`sum(${packageSales.sessionsTotal})::int`,
      amountPaise: sql<number>`sum(${packageSales.pricePaise})::bigint::float8`,
    })
    .from(packageSales)
    .innerJoin(packages, eq(packages.id, packageSales.packageId))
    .where(
      and(
        eq(packageSales.status, 'PAID'),
        sql`${packageSales.soldAt} >= ${from.toISOString()}::timestamptz`,
        sql`${packageSales.soldAt} < ${to.toISOString()}::timestamptz`,
      ),
    )
    .groupBy(packages.id, packages.name)
    .orderBy(asc(packages.name));
}

/** Every paid sale with its credit totals and its net money in the ledger, for the credits and deferred income. */
export async function paidSalesWithMoney(db: DbOrTx): Promise<(SaleListRow & { netPaise: number })[]> {
  const rows = await db
    .select({
      s: packageSales,
      packageName: packages.name,
      ...totalsColumns,
      netPaise: sql<number>`coalesce((select sum(l.amount_paise) from payments_ledger l where l.package_sale_id = ${packageSales.id}), 0)::bigint::float8`,
    })
    .from(packageSales)
    .innerJoin(packages, eq(packages.id, packageSales.packageId))
    .where(eq(packageSales.status, 'PAID'))
    .orderBy(asc(packageSales.expiresOn), asc(packageSales.id));
  return rows.map(({ s, packageName, ...t }) => ({ ...s, packageName, ...t }));
}
