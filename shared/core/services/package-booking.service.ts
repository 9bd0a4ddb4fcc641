import { randomUUID } from 'node:crypto';
import { API_MESSAGES as M } from '../../contract/messages.ts';
import { PACKAGE_MESSAGES as PM, type ClientPackageDto, type PackageBook } from '../../contract/packages.ts';
import { slotWindow } from '../../domain/slots.ts';
import { THERAPIST_TYPE } from '../../domain/therapist.ts';
import { toHhMm } from '../../domain/time.ts';
import { announceBooking } from '../db/announce.ts';
import type { Db } from '../db/client.ts';
import { AppError, fieldError, isUniqueViolation } from '../errors.ts';
import { enqueueInTx } from '../jobs/outbox.ts';
import type { Logger } from '../logger.ts';
import { auditableBooking, insertBookingRow, updateBookingRow } from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { findBookingByTransactionId } from '../repositories/booking.repository.ts';
import { checkSlot } from '../repositories/slot-check.repository.ts';
import { BOOKING_REFUSALS } from './slot-refusals.ts';
import { intentsForConfirmedBooking } from './booking-followups.service.ts';
import { manageTokenFor, manageUrlFor } from './booking-token.ts';
import { clientPackageView, saleOfToken, spendCredits } from './package.service.ts';
import { creditOfBooking, type SaleRow } from '../repositories/package.repository.ts';

/**
 * A session booked in the wizard with a package credit instead of a payment (issue 34). The client is
 * recognised by their package's private link (its token), never by an e-mail address: the booking is
 * the sale's client's. The slot is asked of the one checker (slot_refusal) with the client's window,
 * as the wizard's bookings are (refused in the wizard's words), and taken through the live-slot index; the credit is used in the same
 * transaction, holding the sale's lock, so the booking and its credit stand or fall together. The
 * booking is confirmed at once (no money is due) with its follow-ups: meeting link, e-mails, reminder.
 */

export type PackageBookDeps = { db: Db; config: { jwtSecret: string; publicBaseUrl: string }; logger: Logger; now: () => Date };

export type CreditBooked = { booking_id: number; message: string; manage_url: string; package: ClientPackageDto };

/** POST /api/packages/{token}/book: the session is the sale's client's. */
export async function bookWithCredit(deps: PackageBookDeps, token: unknown, input: PackageBook): Promise<CreditBooked> {
  const sale = await saleOfToken(deps.db, token);
  return bookFromSale(deps, sale, input, { client: sale, actor: 'client' });
}

/**
 * A session booked for `client` with one credit of `sale` (the client's own, as the caller found it:
 * by the package's link, or as the sale that paid the session booked again). `transactionId` makes a
 * request sent again answer the booking it made.
 */
export async function bookFromSale(
  deps: PackageBookDeps,
  sale: SaleRow,
  input: PackageBook & { service_id?: number | undefined },
  opts: { client: Pick<SaleRow, 'clientFullName' | 'clientEmail' | 'clientMobile'>; actor: string; transactionId?: string | undefined },
): Promise<CreditBooked> {
  const now = deps.now();
  const online = input.booking_type === 'ONLINE';
  const serviceId = input.service_id ?? 1;
  const { refusal } = await checkSlot(
    deps.db,
    {
      therapistId: input.therapist_id,
      therapistType: THERAPIST_TYPE[input.booking_type],
      locationId: online ? null : input.location_id,
      date: input.booking_date,
      start: input.booking_time_slot_start,
      serviceId,
    },
    slotWindow('client', now),
  );
  // The checker's refusals in the wizard's words; a slot held (a booking, an admin block) is the live-slot index's to refuse.
  if (refusal) throw fieldError(...BOOKING_REFUSALS[refusal]);
  let bookingId: number;
  try {
    bookingId = await deps.db.transaction(async (tx) => {
      const row = await insertBookingRow(tx, {
        therapistId: input.therapist_id,
        serviceId,
        bookingDate: input.booking_date,
        bookingTimeSlotStart: input.booking_time_slot_start,
        bookingType: input.booking_type,
        locationId: online ? null : input.location_id!,
        clientFullName: opts.client.clientFullName,
        clientEmail: opts.client.clientEmail,
        clientMobile: opts.client.clientMobile,
        clientNote: input.client_note ?? '',
        sessionType: input.session_type ?? null,
        // The terms were accepted when the package was bought.
        termsAccepted: true,
        paymentStatus: 'COMPLETED',
        paymentTransactionId: opts.transactionId ?? randomUUID(),
        // Paid by the sale's money: the session has no fee of its own.
        amountPaise: 0,
      });
      const booked = (await updateBookingRow(tx, row.id, { manageTokenHash: manageTokenFor(deps.config.jwtSecret, row.id).hash }))!;
      await spendCredits(
        tx,
        sale.id,
        [{ bookingId: row.id, therapistId: row.therapistId, bookingType: input.booking_type, bookingDate: row.bookingDate }],
        { adminId: null, actor: opts.actor },
        now,
      );
      await insertAudit(tx, {
        adminId: null,
        actor: opts.actor,
        action: 'booking.package_create',
        entityType: 'booking',
        entityId: row.id,
        before: null,
        after: { ...auditableBooking(booked), package_sale_id: sale.id },
      });
      await enqueueInTx(tx, intentsForConfirmedBooking(booked, now), now);
      return row.id;
    });
  } catch (err) {
    // Sent again: the booking this request made, when it is this sale's credit for this slot.
    const txnTaken = isUniqueViolation(err, 'bookings_payment_txn_uq');
    if (opts.transactionId && (txnTaken || isUniqueViolation(err, 'bookings_live_slot_uq'))) {
      const made = await findBookingByTransactionId(deps.db, opts.transactionId);
      const credit = made ? await creditOfBooking(deps.db, made.id) : undefined;
      if (
        made &&
        credit?.saleId === sale.id &&
        made.bookingDate === input.booking_date &&
        toHhMm(made.bookingTimeSlotStart) === input.booking_time_slot_start
      ) {
        return answer(deps, sale, made.id);
      }
      if (txnTaken) throw new AppError('conflict', M.transactionReused);
    }
    if (isUniqueViolation(err, 'bookings_live_slot_uq')) throw new AppError('conflict', M.slotTaken);
    throw err;
  }
  await announceBooking(deps.db, input.therapist_id, true).catch((err: Error) =>
    deps.logger.warn({ err: err.message, bookingId }, 'package booking: change announcement failed; caches refresh on their next stamp'),
  );
  return answer(deps, sale, bookingId);
}

async function answer(deps: PackageBookDeps, sale: SaleRow, bookingId: number): Promise<CreditBooked> {
  return {
    booking_id: bookingId,
    message: PM.bookedFromPackage(bookingId),
    manage_url: manageUrlFor(deps.config.publicBaseUrl, deps.config.jwtSecret, bookingId),
    package: await clientPackageView(deps.db, sale),
  };
}
