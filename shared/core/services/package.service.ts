import { randomUUID } from 'node:crypto';
import {
  PACKAGE_MESSAGES as PM,
  type ClientPackageDto,
  type PackageCreate,
  type PackageDto,
  type PackagePatch,
  type PackageSaleCreate,
  type PackageSaleDto,
  type PackageSaleListItem,
} from '../../contract/packages.ts';
import { API_MESSAGES as M } from '../../contract/messages.ts';
import { formatRupees, paiseToRupees, rupeesToPaise } from '../../domain/money.ts';
import { lastDayOf, packageCovers, sessionsValue } from '../../domain/packages.ts';
import { centreNow, toHhMm } from '../../domain/time.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError, fieldError, isUniqueViolation } from '../errors.ts';
import { jobIds } from '../jobs/jobs.ts';
import { enqueueInTx, intent } from '../jobs/outbox.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { recordCapture } from '../repositories/ledger.repository.ts';
import { openIntentOfSale } from '../repositories/refund-intent.repository.ts';
import {
  appendCredit,
  appendCredits,
  bookingsOfSale,
  countTherapists,
  creditOfBooking,
  creditsLeft,
  creditsOfSale,
  findSaleByTokenHash,
  getPackage,
  insertPackage,
  insertSale,
  listPackageRows,
  listSaleRows,
  moneyOfSale,
  packageForUpdate,
  saleForUpdate,
  saleWithTotals,
  updatePackageRow,
  updateSaleRow,
  type PackageRow,
  type SaleBookingRow,
  type SaleListRow,
  type SaleRow,
} from '../repositories/package.repository.ts';
import { hashBookingToken, isTokenShaped, packageTokenFor } from './booking-token.ts';

/**
 * Packages of sessions and their credits (issue 34, section 3). A super admin defines packages; the
 * desk sells one (one capture in the payments ledger, at the counter) or a client buys one online
 * (package-payment.service.ts). Each sale's credits are a ledger of their own (package_credits):
 * sold, used by a booking, returned by a cancel within the policy, expired, refunded. Every change to a
 * sale's credits or money holds the sale's row lock and writes its audit row in the same transaction.
 */

export type SaleMethod = NonNullable<SaleRow['paymentMethod']>;
export type Actor = { adminId: number | null; actor: string };
export const adminActor = (adminId: number): Actor => ({ adminId, actor: `admin:${adminId}` });

export function toPackageDto(p: PackageRow): PackageDto {
  return {
    id: p.id,
    name: p.name,
    sessions_count: p.sessionsCount,
    price: paiseToRupees(p.pricePaise),
    validity_days: p.validityDays,
    session_types: p.sessionTypes,
    therapist_ids: p.therapistIds,
    is_active: p.isActive,
  };
}

const auditablePackage = (p: PackageRow): Record<string, unknown> => toPackageDto(p);

async function refuseUnknownTherapists(db: DbOrTx, ids: number[] | undefined): Promise<void> {
  if (ids && ids.length > 0 && (await countTherapists(db, ids)) !== ids.length) throw fieldError('therapist_ids', PM.therapistUnknown);
}

/** POST /api/admin/packages (super admins). */
export async function createPackage(db: Db, input: PackageCreate, by: { adminId: number }, now: Date): Promise<{ package: PackageDto; message: string }> {
  await refuseUnknownTherapists(db, input.therapist_ids);
  try {
    return await db.transaction(async (tx) => {
      const row = await insertPackage(tx, {
        name: input.name,
        sessionsCount: input.sessions_count,
        pricePaise: rupeesToPaise(input.price),
        validityDays: input.validity_days,
        sessionTypes: input.session_types,
        therapistIds: input.therapist_ids,
        isActive: input.is_active,
        createdAt: now,
        updatedAt: now,
      });
      await insertAudit(tx, {
        ...adminActor(by.adminId),
        action: 'package.create',
        entityType: 'package',
        entityId: row.id,
        before: null,
        after: auditablePackage(row),
      });
      return { package: toPackageDto(row), message: PM.packageCreated(row.name) };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'packages_name_uq')) throw fieldError('name', PM.nameTaken);
    throw err;
  }
}

/** PATCH /api/admin/packages/{id} (super admins): sales already made keep what they were sold. */
export async function updatePackage(
  db: Db,
  id: number,
  patch: PackagePatch,
  by: { adminId: number },
  now: Date,
): Promise<{ package: PackageDto; message: string }> {
  await refuseUnknownTherapists(db, patch.therapist_ids);
  try {
    return await db.transaction(async (tx) => {
      const before = await packageForUpdate(tx, id);
      if (!before) throw new AppError('not_found', PM.packageNotFound(id));
      const after = (await updatePackageRow(tx, id, {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.sessions_count !== undefined ? { sessionsCount: patch.sessions_count } : {}),
        ...(patch.price !== undefined ? { pricePaise: rupeesToPaise(patch.price) } : {}),
        ...(patch.validity_days !== undefined ? { validityDays: patch.validity_days } : {}),
        ...(patch.session_types !== undefined ? { sessionTypes: patch.session_types } : {}),
        ...(patch.therapist_ids !== undefined ? { therapistIds: patch.therapist_ids } : {}),
        ...(patch.is_active !== undefined ? { isActive: patch.is_active } : {}),
        updatedAt: now,
      }))!;
      await insertAudit(tx, {
        ...adminActor(by.adminId),
        action: 'package.update',
        entityType: 'package',
        entityId: id,
        before: auditablePackage(before),
        after: auditablePackage(after),
      });
      return { package: toPackageDto(after), message: PM.packageUpdated(after.name) };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'packages_name_uq')) throw fieldError('name', PM.nameTaken);
    throw err;
  }
}

/** GET /api/admin/packages (every one, or the active ones) and GET /api/packages (the active ones). */
export async function listPackages(db: Db, activeOnly: boolean): Promise<PackageDto[]> {
  return (await listPackageRows(db, activeOnly)).map(toPackageDto);
}

/** The package to sell: it exists and is on sale. */
export async function packageOnSale(db: DbOrTx, id: number): Promise<PackageRow> {
  const p = await getPackage(db, id);
  if (!p) throw fieldError('package_id', PM.packageNotFound(id));
  if (!p.isActive) throw new AppError('conflict', PM.packageInactive(p.name));
  return p;
}

/** What a sale records of its package when it is made: later edits of the package change no sale. */
export function saleTerms(p: PackageRow) {
  return { packageId: p.id, sessionsTotal: p.sessionsCount, pricePaise: p.pricePaise, validityDays: p.validityDays };
}

function auditableSale(s: SaleRow): Record<string, unknown> {
  return {
    id: s.id,
    package_id: s.packageId,
    status: s.status,
    channel: s.channel,
    price_paise: s.pricePaise,
    sessions_total: s.sessionsTotal,
    payment_method: s.paymentMethod,
    sold_at: s.soldAt?.toISOString() ?? null,
    expires_on: s.expiresOn,
  };
}

/**
 * A sale paid: PAID from today at the centre for its validity, its credits sold, the client e-mailed
 * their package's link. In the transaction that records the money, holding the sale's lock; once only
 * (the sold credit's unique index), whatever called it.
 */
export async function settleSalePaid(tx: DbOrTx, sale: SaleRow, paid: { method: SaleMethod }, by: Actor, now: Date): Promise<SaleRow> {
  const soldOn = centreNow(now).date;
  const after = (await updateSaleRow(tx, sale.id, {
    status: 'PAID',
    soldAt: now,
    expiresOn: lastDayOf(soldOn, sale.validityDays),
    paymentMethod: paid.method,
    updatedAt: now,
  }))!;
  await appendCredit(tx, { saleId: sale.id, kind: 'sold', sessions: sale.sessionsTotal, actor: by.actor, byAdminId: by.adminId, occurredAt: now });
  await insertAudit(tx, {
    ...by,
    action: 'package_sale.paid',
    entityType: 'package_sale',
    entityId: sale.id,
    before: auditableSale(sale),
    after: auditableSale(after),
  });
  await enqueueInTx(tx, [intent('mail.package-sold', jobIds.packageSoldMail(sale.id), { saleId: sale.id })], now);
  return after;
}

/**
 * POST /api/admin/package-sales: a package sold at the desk and paid there. One transaction: the sale,
 * its private link's hash, ONE capture in the payments ledger (at the counter, by the desk's method),
 * the credits sold, the audit rows and the client's e-mail with their link.
 */
export async function sellAtDesk(
  db: Db,
  input: PackageSaleCreate,
  by: { adminId: number },
  now: Date,
  secret: string,
): Promise<{ sale: PackageSaleDto; message: string }> {
  const id = await db.transaction(async (tx) => {
    const p = await packageOnSale(tx, input.package_id);
    const sale = await insertSale(tx, {
      ...saleTerms(p),
      clientFullName: input.client_full_name,
      clientEmail: input.client_email.toLowerCase(),
      clientMobile: input.client_mobile,
      channel: 'DESK',
      status: 'AWAITING_PAYMENT',
      soldByAdminId: by.adminId,
      createdAt: now,
      updatedAt: now,
    });
    const withToken = (await updateSaleRow(tx, sale.id, { tokenHash: packageTokenFor(secret, sale.id).hash }))!;
    await insertAudit(tx, {
      ...adminActor(by.adminId),
      action: 'package_sale.create',
      entityType: 'package_sale',
      entityId: sale.id,
      before: null,
      after: { ...auditableSale(withToken), client_full_name: sale.clientFullName },
    });
    await recordCapture(tx, {
      packageSaleId: sale.id,
      provider: 'counter',
      paymentId: `counter_${randomUUID()}`,
      amountPaise: sale.pricePaise,
      method: input.payment_method,
      recordedByAdminId: by.adminId,
      occurredAt: now,
    });
    await settleSalePaid(tx, withToken, { method: input.payment_method }, adminActor(by.adminId), now);
    return sale.id;
  });
  return { sale: await saleDetail(db, id), message: PM.sold(id) };
}

function mapSaleBooking(b: SaleBookingRow): PackageSaleDto['bookings'][number] {
  return {
    id: b.id,
    booking_date: b.bookingDate,
    booking_time_slot_start: toHhMm(b.bookingTimeSlotStart),
    booking_type: b.bookingType === 'OFFLINE' ? 'OFFLINE' : 'ONLINE',
    therapist_name: b.therapistName,
    cancelled: b.cancelled,
    attendance: b.attendance,
    credit: b.returned ? 'RETURNED' : 'USED',
  };
}

function counts(s: SaleListRow) {
  return {
    sessions_total: s.sold,
    sessions_used: s.used - s.returned,
    sessions_left: s.left,
    sessions_expired: s.expired,
    sessions_refunded: s.refunded,
    expires_on: s.expiresOn,
  };
}

/** A sale with its money, as the lists show it. */
async function saleItem(db: DbOrTx, s: SaleListRow): Promise<PackageSaleListItem> {
  const money = await moneyOfSale(db, s.id);
  return {
    id: s.id,
    package_id: s.packageId,
    package_name: s.packageName,
    client_full_name: s.clientFullName,
    client_email: s.clientEmail,
    client_mobile: s.clientMobile,
    channel: s.channel,
    status: s.status,
    price: paiseToRupees(s.pricePaise),
    payment_method: s.paymentMethod,
    sold_at: s.soldAt?.toISOString() ?? null,
    ...counts(s),
    paid: paiseToRupees(money.capturedPaise - money.refundedPaise),
    refunded: paiseToRupees(money.refundedPaise),
    refundable: paiseToRupees(refundablePaise(s, money.capturedPaise - money.refundedPaise)),
  };
}

/** What a refund of a sale's unused sessions returns now: their share of the price, at most the money held. */
export function refundablePaise(s: Pick<SaleListRow, 'pricePaise' | 'sessionsTotal' | 'left' | 'status' | 'refunded'>, heldPaise: number): number {
  if (s.status !== 'PAID' || s.left <= 0 || s.refunded > 0) return 0;
  return Math.min(heldPaise, sessionsValue(s.pricePaise, s.sessionsTotal, s.left));
}

/** GET /api/admin/package-sales/{id}: the sale, its credits and the bookings that used them. */
export async function saleDetail(db: DbOrTx, id: number): Promise<PackageSaleDto> {
  const s = await saleWithTotals(db, id);
  if (!s) throw new AppError('not_found', PM.saleNotFound(id));
  const [item, bookings, credits] = await Promise.all([saleItem(db, s), bookingsOfSale(db, id), creditsOfSale(db, id)]);
  return {
    ...item,
    bookings: bookings.map(mapSaleBooking),
    credits: credits.map((c) => ({ kind: c.kind, sessions: c.sessions, booking_id: c.bookingId, occurred_at: c.occurredAt.toISOString(), actor: c.actor })),
  };
}

/** GET /api/admin/package-sales: newest first, narrowed by the client's name, e-mail or mobile and the status. */
export async function listSales(db: Db, q: { q?: string | undefined; status?: SaleRow['status'] | undefined }): Promise<PackageSaleListItem[]> {
  const rows = await listSaleRows(db, q);
  return Promise.all(rows.map((r) => saleItem(db, r)));
}

/** The sale a package token opens; one answer for a malformed or unknown token. */
export async function saleOfToken(db: DbOrTx, token: unknown): Promise<SaleRow> {
  if (!isTokenShaped(token)) throw new AppError('not_found', M.notFound);
  const sale = await findSaleByTokenHash(db, hashBookingToken(token));
  if (!sale) throw new AppError('not_found', M.notFound);
  return sale;
}

/** What the client sees of their package: its sessions (the admin's counts) and the bookings that used them. */
export async function clientPackageView(db: DbOrTx, sale: SaleRow): Promise<ClientPackageDto> {
  const [s, p, bookings] = await Promise.all([saleWithTotals(db, sale.id), getPackage(db, sale.packageId), bookingsOfSale(db, sale.id)]);
  return {
    package_name: s!.packageName,
    client_full_name: s!.clientFullName,
    status: s!.status,
    ...counts(s!),
    session_types: p!.sessionTypes,
    therapist_ids: p!.therapistIds,
    bookings: bookings.map(mapSaleBooking),
  };
}

/** The session a credit is used for. */
export type CreditUse = { bookingId: number; therapistId: number; bookingType: 'ONLINE' | 'OFFLINE'; bookingDate: string };

/** Who a sale's credits are used for, when the desk names the client: their e-mail must be the sale's. */
export type CreditClient = { clientEmail: string };

/**
 * Why the sale cannot pay these sessions, or null when it can: it must be paid, not past its last day
 * (nor any session after it), belong to the client named (when one is), cover each session's therapist
 * and format, have no refund of its unused sessions under way, and have a credit left for each. Read
 * under the sale's row lock to act on it (spendCredits); read without it to choose (book-again).
 */
export async function creditRefusal(
  tx: DbOrTx,
  sale: SaleRow,
  uses: readonly CreditUse[],
  now: Date,
  opts: { field?: string; dateField?: string; client?: CreditClient } = {},
): Promise<AppError | null> {
  const field = opts.field ?? 'package_sale_id';
  if (opts.client && opts.client.clientEmail.toLowerCase() !== sale.clientEmail.toLowerCase()) return fieldError(field, PM.otherClient(sale.id));
  if (sale.status !== 'PAID') return new AppError('conflict', PM.saleNotPaid(sale.id));
  if (centreNow(now).date > sale.expiresOn!) return new AppError('conflict', PM.saleExpired(sale.id, sale.expiresOn!));
  if (uses.some((u) => u.bookingDate > sale.expiresOn!)) return fieldError(opts.dateField ?? 'booking_date', PM.afterExpiry(sale.expiresOn!));
  const p = (await getPackage(tx, sale.packageId))!;
  if (!uses.every((u) => packageCovers(p, u))) return new AppError('conflict', PM.notCovered);
  // A refund of the unused sessions under way has counted them: none is used meanwhile.
  if (await openIntentOfSale(tx, sale.id)) return new AppError('conflict', PM.refundUnderWay(sale.id));
  const left = await creditsLeft(tx, sale.id);
  if (left <= 0) return new AppError('conflict', PM.noCreditLeft(sale.id));
  if (left < uses.length) return new AppError('conflict', PM.tooFewCredits(sale.id, left, uses.length));
  return null;
}

/**
 * One credit of the sale used for each booking, in the bookings' transaction (after their rows are
 * written, so the bookings' locks come before the sale's, as in a cancel), all or none: the sale's row
 * lock makes two uses at once take one credit each or be refused (creditRefusal says when). `field`
 * names the form's field at fault for a sale that cannot be used, `dateField` the one for a session
 * after its last day.
 */
export async function spendCredits(
  tx: DbOrTx,
  saleId: number,
  uses: readonly CreditUse[],
  by: Actor,
  now: Date,
  opts: { field?: string; dateField?: string; client?: CreditClient } = {},
): Promise<void> {
  const sale = await saleForUpdate(tx, saleId);
  if (!sale) throw fieldError(opts.field ?? 'package_sale_id', PM.saleNotFound(saleId));
  const refusal = await creditRefusal(tx, sale, uses, now, opts);
  if (refusal) throw refusal;
  await appendCredits(
    tx,
    uses.map((u) => ({ saleId, kind: 'used' as const, sessions: -1, bookingId: u.bookingId, actor: by.actor, byAdminId: by.adminId, occurredAt: now })),
  );
}

/**
 * A booking paid from a package, cancelled: within the policy (`inPolicy`: the notice the terms ask
 * for was given) its credit comes back, once; a late cancel keeps it used, as the terms charge the fee.
 * In the cancel's transaction, holding the booking's lock (then the sale's). Answers whether a credit
 * came back; false for a booking that used none.
 */
export async function creditBackOnCancel(tx: DbOrTx, bookingId: number, inPolicy: boolean, by: Actor, now: Date): Promise<boolean> {
  const credit = await creditOfBooking(tx, bookingId);
  if (!credit || credit.returned || !inPolicy) return false;
  await saleForUpdate(tx, credit.saleId);
  return appendCredit(tx, { saleId: credit.saleId, kind: 'returned', sessions: 1, bookingId, actor: by.actor, byAdminId: by.adminId, occurredAt: now });
}

/**
 * POST /api/admin/package-sales/{id}/extend (super admins): a later last day, audited with the reason.
 * Not once its credits have expired (they are gone); a reminder is due again before the new date.
 */
export async function extendSale(
  db: Db,
  id: number,
  input: { expires_on: string; reason?: string | undefined },
  by: { adminId: number },
  now: Date,
): Promise<{ sale: PackageSaleDto; message: string }> {
  await db.transaction(async (tx) => {
    const before = await saleForUpdate(tx, id);
    if (!before) throw new AppError('not_found', PM.saleNotFound(id));
    if (before.status !== 'PAID') throw new AppError('conflict', PM.saleNotPaid(id));
    const s = (await saleWithTotals(tx, id))!;
    if (s.expired > 0) throw new AppError('conflict', PM.extendExpired(id));
    if (input.expires_on <= before.expiresOn!) throw fieldError('expires_on', PM.extendLater(before.expiresOn!));
    const after = (await updateSaleRow(tx, id, { expiresOn: input.expires_on, expiryReminderSentAt: null, updatedAt: now }))!;
    await insertAudit(tx, {
      ...adminActor(by.adminId),
      action: 'package_sale.extend',
      entityType: 'package_sale',
      entityId: id,
      before: auditableSale(before),
      after: { ...auditableSale(after), reason: input.reason ?? null },
    });
  });
  return { sale: await saleDetail(db, id), message: PM.extended(id, input.expires_on) };
}

/** A refund's words in the API (rupees). */
export function refundMessage(id: number, paise: number): string {
  return PM.refunded(id, formatRupees(paiseToRupees(paise)));
}
