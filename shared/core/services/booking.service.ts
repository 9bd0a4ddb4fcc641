import { randomUUID } from 'node:crypto';
import { ADMIN_MESSAGES } from '../../contract/admin.ts';
import { API_MESSAGES as M, HOLD_LIMIT_MESSAGES } from '../../contract/messages.ts';
import { WHATSAPP_CONSENT_TEXT, type BookingCreate, type BookingCreateResponse, type PaymentStatus } from '../../contract/booking.ts';
import { DEFAULT_SERVICE_ID } from '../../domain/session.ts';
import { slotWindow } from '../../domain/slots.ts';
import { toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import { AppError, fieldError, isUniqueViolation } from '../errors.ts';
import { announceBooking } from '../db/announce.ts';
import { findRecentBookingByTransactionId, setBookingTokenHash, type BookingRow } from '../repositories/booking.repository.ts';
import { insertBookingWithIntents, REQUESTED_KEYS, type NewBooking } from '../repositories/booking-batch/booking-batch.ts';
import type { SlotRefusal } from '../repositories/slot-check.repository.ts';
import { followupsForConfirmedBooking } from './booking-followups.service.ts';
import { bookingTokenFor } from './booking-token.ts';
import { BOOKING_REFUSALS } from './slot-refusals.ts';

export type Actor = { kind: 'public' } | { kind: 'admin'; adminId: number };

/** An admin's booking keeps to the admin's window (15 days, today and Sundays included), in its words. */
export function refusalError(refusal: SlotRefusal, actor: Actor): AppError {
  if (actor.kind === 'admin' && (refusal === 'before_window' || refusal === 'after_window')) {
    return fieldError('booking_date', ADMIN_MESSAGES.manualDateWindow);
  }
  return fieldError(...BOOKING_REFUSALS[refusal]);
}

function initialStatus(input: BookingCreate, actor: Actor): PaymentStatus {
  if (actor.kind === 'admin') return input.booking_type === 'ONLINE' ? 'COMPLETED' : 'PENDING';
  return input.booking_type === 'ONLINE' ? 'INITIATED' : 'PENDING';
}

export type CreateBookingOptions = {
  paymentHoldMinutes: number;
  /** The server's secret, from which each public booking's token is derived (config.jwtSecret). */
  tokenSecret: string;
  logger?: Logger | undefined;
  /** Live unpaid holds per client and new unpaid holds per address (10 minutes); 0 or absent: no limit. */
  holds?: { perClient: number; perAddress: number } | undefined;
  /** The keyed hash of the address the request came from (public bookings; see clientAddressHasher). */
  clientAddressHash?: string | undefined;
};

/** Whether a retry with the same key asks for the very same booking: the fields a client's request decides. */
function sameRequest(row: BookingRow, values: NewBooking): boolean {
  return REQUESTED_KEYS.every((k) => (k === 'bookingTimeSlotStart' ? toHhMm(row[k]) === toHhMm(values[k]) : (row[k] ?? null) === (values[k] ?? null)));
}

/**
 * payment_transaction_id is the client's idempotency key: a request whose answer was lost and is sent
 * again finds the booking it made and gets the same answer, token included; the same key for another
 * booking is refused. Only while the booking is as it was made and at most the hold's length old (by
 * the database's clock): a key seen later (the in-person status page's address carries it) buys
 * nothing. Undefined when no booking has the key.
 */
async function replay(db: Db, values: NewBooking, actor: Actor, options: CreateBookingOptions): Promise<BookingCreateResponse | undefined> {
  const found = values.paymentTransactionId ? await findRecentBookingByTransactionId(db, values.paymentTransactionId, options.paymentHoldMinutes) : undefined;
  if (!found) return undefined;
  const { booking, recent } = found;
  const byAdmin = booking.createdByAdminId !== null;
  if (!sameRequest(booking, values) || byAdmin !== (actor.kind === 'admin')) throw new AppError('conflict', M.transactionReused);
  if (!recent || booking.cancelled || booking.paymentStatus !== values.paymentStatus) throw new AppError('conflict', M.transactionSpent);
  if (actor.kind === 'admin') return { booking_id: booking.id, message: M.bookingCreated };
  const token = bookingTokenFor(options.tokenSecret, values.paymentTransactionId!);
  // The secret changed since the booking was made: the token the client gets now is the one that works.
  if (token.hash !== booking.bookingTokenHash) await setBookingTokenHash(db, booking.id, token.hash, new Date());
  return { booking_id: booking.id, message: M.bookingCreated, booking_token: token.token };
}

/**
 * POST /confirm-booking: the request's own rules here, then one statement (shared with the bookings
 * asked for at the same moment) that checks the slot with the one checker (slot_refusal: the window,
 * the therapist, the schedule, the day, the service) and the client's hold limits, and writes the
 * booking. The partial unique index bookings_live_slot_uq decides every race:
 * the loser gets 409 and nothing is written. A public booking's answer carries its booking token.
 */
export async function createBooking(db: Db, input: BookingCreate, actor: Actor, now: Date, options: CreateBookingOptions): Promise<BookingCreateResponse> {
  const wantsAdminFields = input.admin_confirmed !== undefined || input.payment_status !== undefined;
  if (wantsAdminFields && actor.kind !== 'admin') throw new AppError('unauthorized', M.unauthorized);

  if (input.booking_type === 'OFFLINE' && !input.location_id) throw fieldError('location_id', M.locationRequired);

  const online = input.booking_type === 'ONLINE';
  const status = initialStatus(input, actor);
  const holdEnd = status === 'INITIATED' ? new Date(now.getTime() + options.paymentHoldMinutes * 60_000) : null;
  const transactionId = input.payment_transaction_id || randomUUID();
  const token = actor.kind === 'public' ? bookingTokenFor(options.tokenSecret, transactionId) : undefined;
  // Only a public online booking is an unpaid hold; admins' bookings and in-person ones are exempt.
  const limited = actor.kind === 'public' && holdEnd !== null;
  const values = {
    therapistId: input.therapist_id,
    serviceId: input.service_id ?? DEFAULT_SERVICE_ID,
    bookingDate: input.booking_date,
    bookingTimeSlotStart: toHhMm(input.booking_time_slot_start),
    bookingType: input.booking_type,
    locationId: online ? null : input.location_id,
    clientFullName: input.client_full_name,
    clientEmail: input.client_email.toLowerCase(),
    clientMobile: input.client_mobile,
    clientAge: input.client_age,
    clientState: input.client_state || null,
    clientCity: input.client_city || null,
    clientNote: input.client_note ?? '',
    sessionType: input.session_type,
    termsAccepted: input.terms_accepted,
    paymentStatus: status,
    paymentHoldExpiresAt: holdEnd,
    paymentTransactionId: transactionId,
    adminConfirmed: actor.kind === 'admin',
    createdByAdminId: actor.kind === 'admin' ? actor.adminId : null,
    bookingTokenHash: token?.hash ?? null,
    clientAddressHash: limited ? (options.clientAddressHash ?? null) : null,
    // Consent on record: when (the server's clock, not the browser's) and the exact words agreed to.
    whatsappOptInAt: input.whatsapp_reminders === true ? now : null,
    whatsappConsentText: input.whatsapp_reminders === true ? WHATSAPP_CONSENT_TEXT : null,
  } satisfies NewBooking & { bookingType: 'ONLINE' | 'OFFLINE' };
  // The checker (window, therapist, schedule, day, service), the booking and the jobs it needs: one statement.
  let created;
  try {
    created = await insertBookingWithIntents(
      db,
      values,
      // An unpaid hold needs no job of its own: the worker's payments.expire-holds job ends it on time.
      holdEnd
        ? []
        : followupsForConfirmedBooking(
            {
              bookingType: input.booking_type,
              bookingDate: input.booking_date,
              bookingTimeSlotStart: toHhMm(input.booking_time_slot_start),
              googleMeetLink: null,
            },
            now,
          ),
      now,
      slotWindow(actor.kind === 'public' ? 'client' : 'admin', now),
      limited ? options.holds : undefined,
    );
  } catch (err) {
    // The key was used by a booking committed meanwhile (or earlier, for another slot).
    if (isUniqueViolation(err, 'bookings_payment_txn_uq')) {
      const again = await replay(db, values, actor, options);
      if (again) return again;
    }
    throw err;
  }
  if ('refusal' in created) {
    // The client's own earlier request took the slot, or counts against its limit: answer as it was
    // answered then.
    if (created.refusal === 'taken' || created.refusal === 'holds_client' || created.refusal === 'holds_address') {
      const again = await replay(db, values, actor, options);
      if (again) return again;
    }
    // The partial unique index bookings_live_slot_uq decided it: the slot is live for someone else.
    if (created.refusal === 'taken') throw new AppError('conflict', M.slotTaken);
    if (created.refusal === 'holds_client') {
      // A whole hold's length, not when the client's earliest hold ends: a stranger probing with
      // someone's e-mail or mobile would learn when that person booked.
      const wait = options.paymentHoldMinutes * 60;
      throw new AppError('rate_limited', HOLD_LIMIT_MESSAGES.perClient(options.holds!.perClient, options.paymentHoldMinutes), undefined, {
        retryAfterSeconds: wait,
      });
    }
    if (created.refusal === 'holds_address') {
      const wait = created.retryAfterSeconds ?? 60;
      throw new AppError('rate_limited', HOLD_LIMIT_MESSAGES.perAddress(Math.max(1, Math.ceil(wait / 60))), undefined, { retryAfterSeconds: wait });
    }
    throw refusalError(created.refusal, actor);
  }
  // The booking is committed whatever happens here: a failed announcement must not fail the request.
  await announceBooking(db, input.therapist_id, created.jobDueNow).catch((err: Error) =>
    options.logger?.warn({ err: err.message, bookingId: created.id }, 'booking: change announcement failed; caches refresh on their next stamp'),
  );
  return token ? { booking_id: created.id, message: M.bookingCreated, booking_token: token.token } : { booking_id: created.id, message: M.bookingCreated };
}
