import { randomUUID } from 'node:crypto';
import { API_MESSAGES as M } from '../../contract/messages.ts';
import type { BookingCreate, BookingCreateResponse, PaymentStatus } from '../../contract/booking.ts';
import { adminWindowDates, clientOfferDates } from '../../domain/slots.ts';
import { centreNow, timeToMinutes, toHhMm, weekday } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import { availabilitySlots, therapists } from '../db/schema.ts';
import { AppError, fieldError, isUniqueViolation } from '../errors.ts';
import type { TherapistRow } from '../repositories/catalog.repository.ts';
import { jobIds } from '../jobs/jobs.ts';
import { announceBooking, insertBookingWithIntents, intent, intentsForConfirmedBooking, type JobIntent } from '../jobs/outbox.ts';
import { and, eq, sql } from 'drizzle-orm';

export type Actor = { kind: 'public' } | { kind: 'admin'; adminId: number };

type BookingContext = TherapistRow & { slotAvailable: boolean | null; slotAdminBlocked: boolean | null };

/** The therapist and its template slot at the requested start, in one round trip. */
function prepareContextQuery(db: Db) {
  return db
    .select({ therapist: therapists, slotAvailable: availabilitySlots.isAvailable, slotAdminBlocked: availabilitySlots.adminBlocked })
    .from(therapists)
    .leftJoin(
      availabilitySlots,
      and(eq(availabilitySlots.therapistId, therapists.id), eq(availabilitySlots.startTime, sql.placeholder('start'))),
    )
    .where(and(eq(therapists.id, sql.placeholder('therapistId')), eq(therapists.isActive, true)))
    .prepare('booking_context');
}
// The booking hot path: the query is built once per database handle and planned once per connection.
const contextQueries = new WeakMap<Db, ReturnType<typeof prepareContextQuery>>();

async function loadContext(db: Db, input: BookingCreate): Promise<BookingContext | undefined> {
  let query = contextQueries.get(db);
  if (!query) contextQueries.set(db, (query = prepareContextQuery(db)));
  const [row] = await query.execute({ therapistId: input.therapist_id, start: toHhMm(input.booking_time_slot_start) });
  return row ? { ...row.therapist, slotAvailable: row.slotAvailable, slotAdminBlocked: row.slotAdminBlocked } : undefined;
}

/** Rules of who may book what, checked against the database before the write. */
function checkTherapist(therapist: BookingContext | undefined, input: BookingCreate): BookingContext {
  if (!therapist) throw fieldError('therapist_id', M.therapistNotFound);
  const wantType = input.booking_type === 'ONLINE' ? 1 : 2;
  if (therapist.type !== wantType) throw fieldError('therapist_id', M.therapistTypeMismatch);
  if (input.booking_type === 'OFFLINE') {
    if (!input.location_id) throw fieldError('location_id', M.locationRequired);
    if (therapist.locationId !== input.location_id) throw fieldError('location_id', M.locationMismatch);
  }
  return therapist;
}

function checkDate(input: BookingCreate, actor: Actor, now: Date): void {
  const today = centreNow(now);
  const date = input.booking_date;
  if (actor.kind === 'public') {
    if (weekday(date) === 0) throw fieldError('booking_date', M.sundayClosed);
    if (!clientOfferDates(today.date).includes(date)) throw fieldError('booking_date', M.dateOutsideWindow);
  } else if (!adminWindowDates(today.date).includes(date)) {
    throw fieldError('booking_date', 'Please choose a date within the next 15 days, starting today.');
  }
  if (date === today.date && timeToMinutes(input.booking_time_slot_start) <= today.minutes) {
    throw fieldError('booking_time_slot_start', M.slotPassed);
  }
}

function checkSlotOnTemplate(ctx: BookingContext): void {
  if (!ctx.slotAvailable || ctx.slotAdminBlocked) throw fieldError('booking_time_slot_start', M.slotNotOffered);
}

function initialStatus(input: BookingCreate, actor: Actor): PaymentStatus {
  if (actor.kind === 'admin') return input.booking_type === 'ONLINE' ? 'COMPLETED' : 'PENDING';
  return input.booking_type === 'ONLINE' ? 'INITIATED' : 'PENDING';
}

/**
 * POST /confirm-booking: validate against the database, then write the booking. The partial unique
 * index bookings_live_slot_uq decides every race: the loser gets 409 and nothing is written.
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

  const therapist = checkTherapist(await loadContext(db, input), input);
  checkDate(input, actor, now);
  checkSlotOnTemplate(therapist);

  const online = input.booking_type === 'ONLINE';
  const status = initialStatus(input, actor);
  const holdEnd = status === 'INITIATED' ? new Date(now.getTime() + options.paymentHoldMinutes * 60_000) : null;
  let created: Awaited<ReturnType<typeof insertBookingWithIntents>>;
  try {
    // The booking and the jobs it needs commit together, or neither does: one statement, one round trip.
    created = await insertBookingWithIntents(
      db,
      {
        therapistId: therapist.id,
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
        // Never the client's figure: the therapist's price as the centre set it (none set books 0).
        amountPaise: therapist.pricePaise ?? 0,
        adminConfirmed: actor.kind === 'admin',
        createdByAdminId: actor.kind === 'admin' ? actor.adminId : null,
      },
      (bookingId): JobIntent[] =>
        holdEnd
          ? [intent('payments.expire-hold', jobIds.expireHold(bookingId), { bookingId }, holdEnd)]
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
  } catch (err) {
    if (isUniqueViolation(err, 'bookings_live_slot_uq')) throw new AppError('conflict', M.slotTaken);
    throw err;
  }
  // The booking is committed whatever happens here: a failed announcement must not fail the request.
  await announceBooking(db, therapist.id, created.jobDueNow).catch((err: Error) =>
    options.logger?.warn({ err: err.message, bookingId: created.id }, 'booking: change announcement failed; caches refresh on their next stamp'),
  );
  return { booking_id: created.id, message: M.bookingCreated };
}
