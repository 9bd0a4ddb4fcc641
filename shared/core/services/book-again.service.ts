import type { BookingCreate } from '../../contract/booking.ts';
import type { BookAgainResponse, ManageBookAgainBody } from '../../contract/manage.ts';
import { canBookAgain } from '../../domain/manage.ts';
import { isLiveBooking } from '../../domain/slot-states.ts';
import { addDays, toHhMm } from '../../domain/time.ts';
import { AppError } from '../errors.ts';
import { createBooking, type CreateBookingOptions } from './booking.service.ts';
import { CLIENT_ACTOR, findManaged, type ManageDeps } from './manage.service.ts';
import { findBookingByTransactionId } from '../repositories/booking.repository.ts';
import { creditOfBooking, getSale } from '../repositories/package.repository.ts';
import { bookFromSale } from './package-booking.service.ts';
import { creditRefusal } from './package.service.ts';

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
 * session ends). A session paid by a package credit is booked with another credit of that sale when
 * the sale can pay it (creditRefusal: the client's, paid, in date, covering it, a credit left), and then
 * answered with its Manage link and the package, as POST /api/packages/{token}/book answers; otherwise
 * it waits for a payment as any. The checker's refusals keep the wizard's words but are 409: the client asked for no
 * date of their own, so nothing in the request is at fault; a hold limit stays 429.
 */
export async function bookAgain(
  deps: ManageDeps,
  token: unknown,
  body: ManageBookAgainBody,
  options: CreateBookingOptions,
): Promise<BookAgainResponse & { therapistId: number }> {
  const now = deps.now();
  const b = await findManaged(deps, token, now);
  if (!isLiveBooking(b.cancelled, b.paymentStatus)) throw new AppError('conflict', BOOK_AGAIN_MESSAGES.notLive);
  if (b.bookingType === 'ADMIN_BLOCK') throw new AppError('conflict', BOOK_AGAIN_MESSAGES.detailsMissing);
  const bookingDate = addDays(b.bookingDate, 7 * body.weeks_ahead);
  const start = toHhMm(b.bookingTimeSlotStart);
  // Paid by a package credit, and the sale can pay this one too (the one rule for a credit): a credit
  // of the same sale, confirmed at once. Otherwise the wizard's path, with its payment hold.
  const credit = await creditOfBooking(deps.db, b.id);
  const sale = credit ? await getSale(deps.db, credit.saleId) : undefined;
  const use = { bookingId: b.id, therapistId: b.therapistId, bookingType: b.bookingType, bookingDate };
  // A press sent again after its credit was used goes the same way, to be answered with what it made.
  const resent = body.payment_transaction_id ? await findBookingByTransactionId(deps.db, body.payment_transaction_id) : undefined;
  const resentWithCredit = resent !== undefined && (await creditOfBooking(deps.db, resent.id))?.saleId === sale?.id;
  if (sale && (resentWithCredit || !(await creditRefusal(deps.db, sale, [use], now, { client: { clientEmail: b.clientEmail } })))) {
    const made = await bookFromSale(
      { db: deps.db, config: deps.config, logger: deps.logger, now: () => now },
      sale,
      {
        therapist_id: b.therapistId,
        booking_type: b.bookingType,
        location_id: b.locationId,
        booking_date: bookingDate,
        booking_time_slot_start: start,
        ...(b.sessionType ? { session_type: b.sessionType } : {}),
        client_note: b.clientNote,
        ...(b.serviceId !== null ? { service_id: b.serviceId } : {}),
      },
      { client: b, actor: CLIENT_ACTOR, transactionId: body.payment_transaction_id },
    ).catch(asConflict);
    return { ...made, therapistId: b.therapistId };
  }
  // A desk's booking (a series, a manual booking, one from a package's link) may lack what a client's
  // booking must give.
  if (!canBookAgain(b)) throw new AppError('conflict', BOOK_AGAIN_MESSAGES.detailsMissing);
  const input: BookingCreate = {
    therapist_id: b.therapistId,
    booking_date: bookingDate,
    booking_time_slot_start: start,
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
    return asConflict(err);
  }
}

/** The checker's refusal of a date the client did not choose: 409 in its words. */
function asConflict(err: unknown): never {
  if (err instanceof AppError && err.code === 'validation') throw new AppError('conflict', err.message, err.fields);
  throw err;
}
