import { recentFromAddress } from '../repositories/address-window.ts';
import { randomUUID } from 'node:crypto';
import { API_MESSAGES as M, FIELD_MESSAGES } from '../../contract/messages.ts';
import { WAITLIST_WHATSAPP_CONSENT_TEXT, WHATSAPP_CONSENT_TEXT, type BookingCreateResponse } from '../../contract/booking.ts';
import {
  WAITLIST_MESSAGES,
  type AdminWaitlistDto,
  type WaitlistClaim,
  type WaitlistEntryDto,
  type WaitlistJoin,
  type WaitlistJoinResponse,
} from '../../contract/waitlist.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { slotWindow } from '../../domain/slots.ts';
import { THERAPIST_TYPE, displayName } from '../../domain/therapist.ts';
import { centreNow, toHhMm } from '../../domain/time.ts';
import { timeOfDay, type WaitlistTime } from '../../domain/waitlist.ts';
import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import { AppError, fieldError, isUniqueViolation } from '../errors.ts';
import { jobIds } from '../jobs/jobs.ts';
import { enqueueInTx, intent } from '../jobs/outbox.ts';
import type { Logger } from '../logger.ts';
import { auditableBooking, insertBookingRow, updateBookingRow } from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { HOLD_ADDRESS_WINDOW_MINUTES, type HoldLimits } from '../repositories/booking-batch/booking-batch.ts';

import { getTherapist } from '../repositories/catalog.repository.ts';
import { failInitiatedBooking } from '../repositories/payment.repository.ts';
import { checkSlot } from '../repositories/slot-check.repository.ts';
import {
  findEntryView,
  insertEntry,
  insertOffer,
  lapseDeadOffers,
  liveEntriesOfClient,
  liveEntriesOfTherapist,
  lockEntryByTokenHash,
  lockOffer,
  lockOfferHold,
  lockSlot,
  nextWaitingFor,
  openOfferOf,
  settleOffer,
  updateEntry,
  type WaitlistOfferRow,
} from '../repositories/waitlist.repository.ts';
import { intentsForConfirmedBooking } from './booking-followups.service.ts';
import { bookingTokenFor, hashBookingToken, isTokenShaped, waitlistTokenFor } from './booking-token.ts';
import { refusalError } from './booking.service.ts';
import { enforceHoldLimits } from './hold-limits.ts';

/**
 * The waitlist (issue 34, section 4). One rule for who holds a slot: an offer holds the freed slot for
 * its client with a booking row of theirs (INITIATED, its hold ending when the offer does), written
 * after asking the one checker (slot_refusal) and through the live-slot index (bookings_live_slot_uq),
 * like every booking. So the public offer, the admin's grid and every booking path see the slot as
 * held, with nothing of their own to learn. A claim turns that very row into the client's booking; an
 * offer left unclaimed fails its row, which frees the slot.
 *
 * "A slot frees" is decided in one place: the bookings trigger of migration 0027 writes a
 * waitlist.slot-freed job whenever a live row stops holding its slot (any cancel, move, hold ending,
 * unblock, or an offer lapsing), in that change's transaction. The job (offerFreedSlot) offers the slot
 * to the first entry waiting for it. PostgreSQL holds every state: the jobs are idempotent and any of
 * them may run again after a restart.
 */

export type WaitlistDeps = { db: Db; config: Config; logger: Logger; now: () => Date };

/** The audit log's actor for what the worker does on its own, and for the client's own link. */
const WORKER_ACTOR = 'worker:waitlist';
const CLIENT_ACTOR = 'client';

const notFound = () => new AppError('not_found', M.notFound);

/**
 * POST /api/waitlist. The therapist active, the dates within the client's booking window (a slot is
 * offered only if the wizard could book it), and the hold limits as the wizard's (the same HOLDS_PER_CLIENT
 * and HOLDS_PER_IP, counted under the same advisory locks: live entries per e-mail and per mobile, joins
 * per address in HOLD_ADDRESS_WINDOW_MINUTES). The client is e-mailed their private link.
 */
export async function joinWaitlist(
  deps: WaitlistDeps,
  input: WaitlistJoin,
  limits: HoldLimits,
  clientAddressHash: string | undefined,
): Promise<WaitlistJoinResponse> {
  const now = deps.now();
  const window = slotWindow('client', now);
  if (input.from_date < window.today || input.to_date > window.lastDate) throw fieldError('to_date', M.dateOutsideWindow);
  const therapist = await getTherapist(deps.db, input.therapist_id);
  if (!therapist) throw fieldError('therapist_id', M.therapistNotFound);
  const client = { clientEmail: input.client_email.toLowerCase(), clientMobile: input.client_mobile, clientAddressHash: clientAddressHash ?? null };
  return deps.db.transaction(async (tx) => {
    await enforceHoldLimits(
      tx,
      client,
      limits,
      {
        // A live entry counts until the client leaves or books; it frees no sooner than the window.
        ofClient: async () => ({
          count: await liveEntriesOfClient(tx, client.clientEmail, client.clientMobile, window.today),
          retryAfterSeconds: HOLD_ADDRESS_WINDOW_MINUTES * 60,
        }),
        fromAddress: (hash, minutes) => recentFromAddress(tx, { table: 'waitlist_entries', at: 'joined_at' }, hash, minutes, now),
      },
      { perClient: (limit) => WAITLIST_MESSAGES.perClient(limit), perAddress: WAITLIST_MESSAGES.perAddress },
    );
    const entry = await insertEntry(tx, {
      therapistId: therapist.id,
      fromDate: input.from_date,
      toDate: input.to_date,
      times: input.times ?? [],
      clientFullName: input.client_full_name,
      ...client,
      whatsappOptInAt: input.whatsapp_offers === true ? now : null,
      whatsappConsentText: input.whatsapp_offers === true ? WAITLIST_WHATSAPP_CONSENT_TEXT : null,
      joinedAt: now,
    });
    // The token derives from the id, so it is stored (hashed) once the id is known.
    const joined = await updateEntry(tx, entry.id, { tokenHash: waitlistTokenFor(deps.config.jwtSecret, entry.id).hash });
    await insertAudit(tx, {
      adminId: null,
      actor: CLIENT_ACTOR,
      action: 'waitlist.join',
      entityType: 'waitlist_entry',
      entityId: entry.id,
      before: null,
      after: joined,
    });
    await enqueueInTx(tx, [intent('mail.waitlist', jobIds.waitlistJoinedMail(entry.id), { entryId: entry.id, kind: 'joined' })], now);
    return { entry_id: entry.id, message: WAITLIST_MESSAGES.joined };
  });
}

function offerDto(o: WaitlistOfferRow | null | undefined) {
  return o
    ? { booking_id: o.bookingId, booking_date: o.bookingDate, booking_time_slot_start: toHhMm(o.bookingTimeSlotStart), expires_at: o.expiresAt.toISOString() }
    : null;
}

/** GET /api/waitlist/{token}: the client's entry and the slot held for them now, if any. */
export async function getWaitlistEntry(deps: WaitlistDeps, token: unknown): Promise<WaitlistEntryDto> {
  if (!isTokenShaped(token)) throw notFound();
  const e = await findEntryView(deps.db, { tokenHash: hashBookingToken(token) });
  if (!e) throw notFound();
  const offer = e.status === 'offered' ? await openOfferOf(deps.db, e.id) : undefined;
  const online = e.therapistType === THERAPIST_TYPE.ONLINE;
  return {
    therapist: { id: e.therapistId, name: displayName(e.therapistName) },
    booking_type: online ? 'ONLINE' : 'OFFLINE',
    centre: online ? null : { name: e.locationName ?? deps.config.centreName, address: e.locationAddress ?? '' },
    from_date: e.fromDate,
    to_date: e.toDate,
    times: e.times as WaitlistTime[],
    status: e.status,
    amount: paiseToRupees(e.pricePaise ?? 0),
    offer: offerDto(offer),
  };
}

/** What the freed-slot job did: offered the slot to an entry, or why not. */
export type SlotFreedOutcome = { offered: { entryId: number; offerId: number; bookingId: number } } | { skipped: 'nobody_waiting' | 'not_bookable' | 'held' };

/**
 * The waitlist.slot-freed job: offers to the first entry waiting for the slot (FIFO by joining), if the
 * slot is still free and the wizard could book it now (the one checker, the client's window). Its offers
 * whose hold ended are lapsed first, so their clients wait again (for other slots). The hold is a
 * booking row of the client's, written through the live-slot index: a booking that took the slot
 * meanwhile wins, and nothing is offered. Idempotent: run again, it finds the slot held.
 */
export async function offerFreedSlot(deps: WaitlistDeps, p: { therapistId: number; date: string; start: string }): Promise<SlotFreedOutcome> {
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      await lockSlot(tx, p.therapistId, p.date, p.start);
      await lapseDeadOffers(tx, p.therapistId, p.date, p.start, now);
      const therapist = await getTherapist(deps.db, p.therapistId);
      if (!therapist) return { skipped: 'not_bookable' };
      const type = therapist.type === THERAPIST_TYPE.ONLINE ? 'ONLINE' : 'OFFLINE';
      const check = await checkSlot(
        tx,
        { therapistId: p.therapistId, therapistType: therapist.type, date: p.date, start: p.start, serviceId: 1 },
        slotWindow('client', now),
      );
      if (check.refusal) return { skipped: 'not_bookable' };
      if (check.holder) return { skipped: 'held' };
      const entry = await nextWaitingFor(tx, p.therapistId, p.date, p.start, timeOfDay(p.start));
      if (!entry) return { skipped: 'nobody_waiting' };
      const expiresAt = new Date(now.getTime() + deps.config.waitlistOfferMinutes * 60_000);
      const hold = await insertBookingRow(tx, {
        therapistId: p.therapistId,
        // The wizard's default service (createBooking).
        serviceId: 1,
        bookingDate: p.date,
        bookingTimeSlotStart: p.start,
        bookingType: type,
        locationId: type === 'OFFLINE' ? therapist.locationId : null,
        clientFullName: entry.clientFullName,
        clientEmail: entry.clientEmail,
        clientMobile: entry.clientMobile,
        paymentStatus: 'INITIATED',
        paymentHoldExpiresAt: expiresAt,
        // One per entry and slot, as the offer (waitlist_offers_slot_uq).
        paymentTransactionId: `waitlist-${entry.id}-${p.date}-${p.start.replace(':', '')}`,
        amountPaise: therapist.pricePaise ?? 0,
      });
      const offer = await insertOffer(tx, {
        entryId: entry.id,
        bookingId: hold.id,
        bookingDate: p.date,
        bookingTimeSlotStart: p.start,
        offeredAt: now,
        expiresAt,
      });
      await updateEntry(tx, entry.id, { status: 'offered' });
      await insertAudit(tx, {
        adminId: null,
        actor: WORKER_ACTOR,
        action: 'waitlist.offer',
        entityType: 'booking',
        entityId: hold.id,
        before: null,
        after: auditableBooking(hold),
      });
      await enqueueInTx(
        tx,
        [
          intent('mail.waitlist', jobIds.waitlistOfferMail(offer.id), { entryId: entry.id, kind: 'offer', offerId: offer.id }),
          // The e-mail always goes; a client who opted in hears on WhatsApp as well.
          ...(entry.whatsappOptInAt && deps.config.whatsapp
            ? [intent('whatsapp.waitlist-offer', jobIds.whatsappWaitlistOffer(offer.id), { offerId: offer.id })]
            : []),
          intent('waitlist.offer-expiry', jobIds.waitlistOfferExpiry(offer.id), { offerId: offer.id }, expiresAt),
        ],
        now,
      );
      return { offered: { entryId: entry.id, offerId: offer.id, bookingId: hold.id } };
    });
  } catch (err) {
    // A booking took the slot between the checker's look and the hold's insert: it is not free.
    if (isUniqueViolation(err, 'bookings_live_slot_uq')) return { skipped: 'held' };
    throw err;
  }
}

/**
 * The waitlist.offer-expiry job, due when the offer ends: unclaimed, its hold fails (INITIATED →
 * FAILED), which frees the slot, and the trigger's job offers it to the next in line. The client waits
 * on for other slots. Nothing for an offer settled meanwhile (claimed, left). Run early, it retries.
 */
export async function expireWaitlistOffer(deps: WaitlistDeps, offerId: number): Promise<'lapsed' | 'settled'> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const offer = await lockOffer(tx, offerId);
    if (!offer || offer.outcome !== null) return 'settled';
    if (offer.expiresAt.getTime() > now.getTime()) throw new Error(`waitlist offer ${offerId} expiry ran early; retrying`);
    await lapse(tx, offer, 'lapsed', now);
    return 'lapsed';
  });
}

/**
 * Settles an open offer (lapsed: its client waits again, for other slots; left: the caller closes the
 * entry) and frees its slot if its hold still holds it.
 */
async function lapse(tx: Tx, offer: WaitlistOfferRow, outcome: 'lapsed' | 'left', now: Date): Promise<void> {
  await settleOffer(tx, offer.id, outcome, now);
  if (outcome === 'lapsed') await updateEntry(tx, offer.entryId, { status: 'waiting' });
  const hold = await lockOfferHold(tx, offer.bookingId);
  if (hold?.live && hold.paymentStatus === 'INITIATED') {
    await failInitiatedBooking(tx, hold.id, now);
    await insertAudit(tx, {
      adminId: null,
      actor: outcome === 'left' ? CLIENT_ACTOR : WORKER_ACTOR,
      action: `waitlist.offer-${outcome}`,
      entityType: 'booking',
      entityId: hold.id,
      before: auditableBooking(hold),
      after: { ...auditableBooking(hold), paymentStatus: 'FAILED' },
    });
  }
}

/** The entry a token opens, locked; 404 for anything else. */
async function lockEntry(tx: Tx, token: unknown) {
  if (!isTokenShaped(token)) throw notFound();
  const entry = await lockEntryByTokenHash(tx, hashBookingToken(token));
  if (!entry) throw notFound();
  return entry;
}

/**
 * POST /api/waitlist/{token}/claim: the slot held for the client becomes their booking, as the wizard
 * would make it: the details the wizard asks (age, session type, state and city online, the terms),
 * the checker asked again (a holiday declared meanwhile refuses it, in the wizard's words, as 409), the
 * price and type from the hold. Online it is an unpaid hold of PAYMENT_HOLD_MINUTES from now, paid
 * through the ordinary payment calls with the booking token answered here; in person it is confirmed
 * (PENDING, pay at the visit) with the wizard's confirmation e-mails and reminder. Answered as POST
 * /confirm-booking answers.
 */
export async function claimWaitlistOffer(
  deps: WaitlistDeps,
  token: unknown,
  input: WaitlistClaim,
  paymentHoldMinutes: number,
): Promise<BookingCreateResponse & { therapistId: number }> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const entry = await lockEntry(tx, token);
    if (entry.status === 'booked') throw new AppError('conflict', WAITLIST_MESSAGES.closedBooked);
    if (entry.status === 'left') throw notFound();
    const offer = await openOfferOf(tx, entry.id);
    if (!offer) throw new AppError('conflict', WAITLIST_MESSAGES.noOffer);
    await lockSlot(tx, entry.therapistId, offer.bookingDate, toHhMm(offer.bookingTimeSlotStart));
    const hold = await lockOfferHold(tx, offer.bookingId);
    if (!hold?.live || offer.expiresAt.getTime() <= now.getTime()) throw new AppError('conflict', WAITLIST_MESSAGES.offerEnded);
    const online = hold.bookingType === 'ONLINE';
    if (online && !input.client_state) throw fieldError('client_state', FIELD_MESSAGES.stateRequired);
    if (online && !input.client_city) throw fieldError('client_city', FIELD_MESSAGES.cityRequired);
    const { refusal } = await checkSlot(
      tx,
      {
        therapistId: hold.therapistId,
        therapistType: THERAPIST_TYPE[online ? 'ONLINE' : 'OFFLINE'],
        locationId: hold.locationId,
        date: hold.bookingDate,
        start: toHhMm(hold.bookingTimeSlotStart),
        serviceId: hold.serviceId,
      },
      slotWindow('client', now),
    );
    if (refusal) {
      const refused = refusalError(refusal, { kind: 'public' });
      throw new AppError('conflict', refused.message, refused.fields);
    }
    const transactionId = randomUUID();
    const bookingToken = bookingTokenFor(deps.config.jwtSecret, transactionId);
    const after = await updateBookingRow(tx, hold.id, {
      clientAge: input.client_age,
      sessionType: input.session_type,
      clientState: input.client_state || null,
      clientCity: input.client_city || null,
      clientNote: input.client_note ?? '',
      termsAccepted: true,
      paymentStatus: online ? 'INITIATED' : 'PENDING',
      paymentHoldExpiresAt: online ? new Date(now.getTime() + paymentHoldMinutes * 60_000) : null,
      paymentTransactionId: transactionId,
      bookingTokenHash: bookingToken.hash,
      whatsappOptInAt: input.whatsapp_reminders === true ? now : null,
      whatsappConsentText: input.whatsapp_reminders === true ? WHATSAPP_CONSENT_TEXT : null,
      updatedAt: now,
    });
    await settleOffer(tx, offer.id, 'claimed', now);
    await updateEntry(tx, entry.id, { status: 'booked', closedAt: now });
    await insertAudit(tx, {
      adminId: null,
      actor: CLIENT_ACTOR,
      action: 'waitlist.claim',
      entityType: 'booking',
      entityId: hold.id,
      before: auditableBooking(hold),
      after: auditableBooking(after!),
    });
    // In person the session is confirmed now, as the wizard's is: its e-mails and reminder.
    if (!online) await enqueueInTx(tx, intentsForConfirmedBooking(after!, now), now);
    return { booking_id: hold.id, message: M.bookingCreated, booking_token: bookingToken.token, therapistId: hold.therapistId };
  });
}

/**
 * POST /api/waitlist/{token}/leave: the client leaves the list; a slot held for them is freed (and so
 * offered to the next). Leaving twice answers the same.
 */
export async function leaveWaitlist(deps: WaitlistDeps, token: unknown): Promise<{ message: string; therapistId: number }> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const entry = await lockEntry(tx, token);
    if (entry.status === 'booked') throw new AppError('conflict', WAITLIST_MESSAGES.closedBooked);
    if (entry.status !== 'left') {
      const offer = await openOfferOf(tx, entry.id);
      if (offer) await lapse(tx, offer, 'left', now);
      const after = await updateEntry(tx, entry.id, { status: 'left', closedAt: now });
      await insertAudit(tx, {
        adminId: null,
        actor: CLIENT_ACTOR,
        action: 'waitlist.leave',
        entityType: 'waitlist_entry',
        entityId: entry.id,
        before: entry,
        after,
      });
    }
    return { message: WAITLIST_MESSAGES.left, therapistId: entry.therapistId };
  });
}

/** GET /api/admin/waitlist?therapist_id=: the therapist's live entries (their range not over), first in line first. */
export async function adminWaitlist(db: Db, therapistId: number, now: Date): Promise<AdminWaitlistDto> {
  const rows = await liveEntriesOfTherapist(db, therapistId, centreNow(now).date);
  return {
    entries: rows.map((e, i) => ({
      id: e.id,
      position: i + 1,
      client_full_name: e.clientFullName,
      client_email: e.clientEmail,
      client_mobile: e.clientMobile,
      from_date: e.fromDate,
      to_date: e.toDate,
      times: e.times as WaitlistTime[],
      status: e.status,
      joined_at: e.joinedAt.toISOString(),
      offer: offerDto(e.offer),
    })),
  };
}
