import type { BookingCreate, BookingCreateResponse } from '../../contract/booking.ts';
import type { ManageBookAgainBody } from '../../contract/manage.ts';
import { canBookAgain } from '../../domain/manage.ts';
import { isLiveBooking } from '../../domain/slot-states.ts';
import { addDays, toHhMm } from '../../domain/time.ts';
import { AppError } from '../errors.ts';
import { createBooking, type CreateBookingOptions } from './booking.service.ts';
import { findManaged, type ManageDeps } from './manage.service.ts';

export const BOOK_AGAIN_MESSAGES = {
  notLive: 'This booking was cancelled, so it cannot be booked again. Please choose a time on the booking page.',
  detailsMissing: 'This booking was made by the centre without your age or session type. Please choose a time on the booking page.',
} as const;

/**
 * POST /api/manage/{token}/book-again (issue 34, "Same time next week"): the session's therapist,
 * type, centre, service and time, `weeks_ahead` weeks after it, booked for the same client by the
 * wizard's own path (createBooking: one statement with the one checker, the hold limits, the payment
 * hold and the live-slot index), and answered as POST /confirm-booking answers, booking token included
 * (the payment calls take it). Only a live booking the token opens (findManaged: a client's, until its
 * session ends). The checker's refusals keep the wizard's words but are 409: the client asked for no
 * date of their own, so nothing in the request is at fault; a hold limit stays 429.
 */
export async function bookAgain(
  deps: ManageDeps,
  token: unknown,
  body: ManageBookAgainBody,
  options: CreateBookingOptions,
): Promise<BookingCreateResponse & { therapistId: number }> {
  const now = deps.now();
  const b = await findManaged(deps, token, now);
  if (!isLiveBooking(b.cancelled, b.paymentStatus)) throw new AppError('conflict', BOOK_AGAIN_MESSAGES.notLive);
  // A desk's booking may lack what a client's booking must give.
  if (!canBookAgain(b)) throw new AppError('conflict', BOOK_AGAIN_MESSAGES.detailsMissing);
  const input: BookingCreate = {
    therapist_id: b.therapistId,
    booking_date: addDays(b.bookingDate, 7 * body.weeks_ahead),
    booking_time_slot_start: toHhMm(b.bookingTimeSlotStart),
    booking_type: b.bookingType,
    location_id: b.locationId ?? 0,
    ...(b.serviceId !== null ? { service_id: b.serviceId } : {}),
    client_full_name: b.clientFullName,
    client_email: b.clientEmail,
    client_mobile: b.clientMobile,
    client_age: b.clientAge,
    ...(b.clientState ? { client_state: b.clientState } : {}),
    ...(b.clientCity ? { client_city: b.clientCity } : {}),
    client_note: b.clientNote,
    session_type: b.sessionType,
    // The terms (and a guardian's consent, for a minor) were agreed to for this very client's booking;
    // the page says that booking again keeps to them.
    terms_accepted: true,
    whatsapp_reminders: b.whatsappOptInAt !== null,
    ...(body.payment_transaction_id ? { payment_transaction_id: body.payment_transaction_id } : {}),
  };
  try {
    const created = await createBooking(deps.db, input, { kind: 'public' }, now, options);
    return { ...created, therapistId: b.therapistId };
  } catch (err) {
    if (err instanceof AppError && err.code === 'validation') throw new AppError('conflict', err.message, err.fields);
    throw err;
  }
}
