import { randomUUID } from 'node:crypto';
import { API_MESSAGES as M } from '../../contract/messages.ts';
import type { BookingCreate, BookingCreateResponse, PaymentStatus } from '../../contract/booking.ts';
import { adminWindowDates, clientOfferDates } from '../../domain/slots.ts';
import { centreNow, timeToMinutes, toHhMm, weekday } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import { AppError, fieldError } from '../errors.ts';
import { announceBooking, intentsForConfirmedBooking, type JobIntent } from '../jobs/outbox.ts';
import { insertBookingWithIntents, type BookingRefusal } from '../repositories/booking.repository.ts';

export type Actor = { kind: 'public' } | { kind: 'admin'; adminId: number };

/** What the booking statement's refusals mean to the client: the field at fault and its message. */
const REFUSALS: Record<Exclude<BookingRefusal, 'taken'>, [field: string, message: string]> = {
  therapist: ['therapist_id', M.therapistNotFound],
  therapist_type: ['therapist_id', M.therapistTypeMismatch],
  location: ['location_id', M.locationMismatch],
  slot: ['booking_time_slot_start', M.slotNotOffered],
  service: ['service_id', M.serviceNotFound],
};

function checkDate(input: BookingCreate, actor: Actor, now: Date): void {
  const today = centreNow(now);
  const date = input.booking_date;
  if (actor.kind === 'public') {
    // The window has no Sundays, so only a date outside it needs its weekday worked out.
    if (!clientOfferDates(today.date).includes(date)) {
      throw fieldError('booking_date', weekday(date) === 0 ? M.sundayClosed : M.dateOutsideWindow);
    }
  } else if (!adminWindowDates(today.date).includes(date)) {
    throw fieldError('booking_date', 'Please choose a date within the next 15 days, starting today.');
  }
  if (date === today.date && timeToMinutes(input.booking_time_slot_start) <= today.minutes) {
    throw fieldError('booking_time_slot_start', M.slotPassed);
  }
}

function initialStatus(input: BookingCreate, actor: Actor): PaymentStatus {
  if (actor.kind === 'admin') return input.booking_type === 'ONLINE' ? 'COMPLETED' : 'PENDING';
  return input.booking_type === 'ONLINE' ? 'INITIATED' : 'PENDING';
}

/**
 * POST /confirm-booking: the request's own rules here, then one statement (shared with the bookings
 * asked for at the same moment) that checks the therapist, template and service and writes the
 * booking. The partial unique index bookings_live_slot_uq decides every race: the loser gets 409 and
 * nothing is written.
 */
export async function createBooking(
  db: Db,
  input: BookingCreate,
  actor: Actor,
  now: Date,
  options: { paymentHoldMinutes: number; logger?: Logger } = { paymentHoldMinutes: 20 },
): Promise<BookingCreateResponse> {
  const wantsAdminFields = input.admin_confirmed !== undefined || input.payment_status !== undefined;
  if (wantsAdminFields && actor.kind !== 'admin') throw new AppError('unauthorized', M.unauthorized);

  if (input.booking_type === 'OFFLINE' && !input.location_id) throw fieldError('location_id', M.locationRequired);
  checkDate(input, actor, now);

  const online = input.booking_type === 'ONLINE';
  const status = initialStatus(input, actor);
  const holdEnd = status === 'INITIATED' ? new Date(now.getTime() + options.paymentHoldMinutes * 60_000) : null;
  // The therapist, template and service checks, the booking and the jobs it needs: one statement.
  const created = await insertBookingWithIntents(
    db,
    {
      therapistId: input.therapist_id,
      serviceId: input.service_id ?? 1,
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
      paymentTransactionId: input.payment_transaction_id || randomUUID(),
      adminConfirmed: actor.kind === 'admin',
      createdByAdminId: actor.kind === 'admin' ? actor.adminId : null,
    },
    // An unpaid hold needs no job of its own: the worker's payments.expire-holds job ends it on time.
    (bookingId): JobIntent[] =>
      holdEnd
        ? []
        : intentsForConfirmedBooking(
            {
              id: bookingId,
              bookingType: input.booking_type,
              bookingDate: input.booking_date,
              bookingTimeSlotStart: toHhMm(input.booking_time_slot_start),
              googleMeetLink: null,
            },
            now,
          ),
  );
  if ('refusal' in created) {
    // The partial unique index bookings_live_slot_uq decided it: the slot is live for someone else.
    if (created.refusal === 'taken') throw new AppError('conflict', M.slotTaken);
    throw fieldError(...REFUSALS[created.refusal]);
  }
  // The booking is committed whatever happens here: a failed announcement must not fail the request.
  await announceBooking(db, input.therapist_id, created.jobDueNow).catch((err: Error) =>
    options.logger?.warn({ err: err.message, bookingId: created.id }, 'booking: change announcement failed; caches refresh on their next stamp'),
  );
  return { booking_id: created.id, message: M.bookingCreated };
}
