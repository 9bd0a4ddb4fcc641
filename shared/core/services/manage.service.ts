import type { ManageBookingDto, ManageChangeResultDto, ManageClosedReason } from '../../contract/manage.ts';
import { API_MESSAGES as M } from '../../contract/messages.ts';
import { changePolicyText } from '../../contract/policy.ts';
import {
  canBookAgain,
  changesCloseAt,
  earliestWithNotice,
  manageOptions,
  manageRefusal,
  type ManagePolicy,
  type ManagedBookingState,
} from '../../domain/manage.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { paymentState } from '../../domain/payment-state.ts';
import { sessionEnd } from '../../domain/session.ts';
import { slotWindow } from '../../domain/slots.ts';
import { centreInstant, centreNow, formatLongDate, formatTimeIst, timeToMinutes, toHhMm } from '../../domain/time.ts';
import type { Config } from '../config.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError, fieldError, isUniqueViolation } from '../errors.ts';
import { enqueueInTx } from '../jobs/outbox.ts';
import { intentsForClientChange } from './booking-followups.service.ts';
import type { Logger } from '../logger.ts';
import type { PaymentsProvider } from '../providers/payments/payments.provider.ts';
import { auditableBooking } from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import type { BookingRow } from '../repositories/booking.repository.ts';
import { moneyOf } from '../repositories/ledger.repository.ts';
import { creditOfBooking } from '../repositories/package.repository.ts';
import { cancelBookingRow, findBookingByManageHash, lockBooking, moveBooking, type ManagedBooking } from '../repositories/manage.repository.ts';
import { checkSlot, type SlotRefusal } from '../repositories/slot-check.repository.ts';
import { hashBookingToken, isTokenShaped, manageUrlFor } from './booking-token.ts';
import { listSeriesSessionsBrief } from '../repositories/series.repository.ts';
import { closeOpenLink } from './payment.service.ts';
import { creditBackOnCancel } from './package.service.ts';
import { beginRefund, cancelsBooking, completeRefund, refundablePaise, refundUnderWay, type ApplyRefund, type RefundOutcome } from './refund.service.ts';
import { REFUND_WORDS } from '../../contract/refund-words.ts';
import { sessionIcsFilename, sessionInvitation } from './session-invitation.ts';

export type ManageDeps = { db: Db; config: Config; payments: PaymentsProvider | undefined; logger: Logger; now: () => Date };

/** The audit log's actor for a change the client made through their Manage booking link. */
export const CLIENT_ACTOR = 'client';

export const MANAGE_MESSAGES = {
  sameSlot: 'Your session is already at this time. Please choose another.',
  refundUnderWay: (phone: string) => `A refund of this booking is under way; nothing was changed. Please try again in a minute, or call ${phone}.`,
  newSlotInsideNotice: (hours: number) =>
    `Please choose a time at least ${hours} ${hours === 1 ? 'hour' : 'hours'} from now: a session can be moved online only to a time that can itself still be changed.`,
} as const;

/**
 * One answer for a malformed, unknown, expired or otherwise unusable token, so a caller learns nothing
 * about which it was (a guess at 256 bits is hopeless anyway).
 */
const notFound = () => new AppError('not_found', M.notFound);

const SESSION_TYPES: Record<string, string> = { individual: 'Individual therapy', couple: 'Couple therapy' };

function policyOf(config: Config): ManagePolicy {
  return { noticeHours: config.changeNoticeHours, maxReschedules: config.maxReschedules };
}

function supportOf(config: Config) {
  return { phone: config.supportPhone, email: config.supportEmail };
}

function startOf(b: Pick<BookingRow, 'bookingDate' | 'bookingTimeSlotStart'>): Date {
  return centreInstant(b.bookingDate, toHhMm(b.bookingTimeSlotStart));
}

/** The session's end: its template slot's end, or a session's length after the start when the template no longer has it. */
function endOf(b: ManagedBooking): Date {
  const start = toHhMm(b.bookingTimeSlotStart);
  if (b.slotEndTime && timeToMinutes(b.slotEndTime) > timeToMinutes(start)) return centreInstant(b.bookingDate, toHhMm(b.slotEndTime));
  return sessionEnd(startOf(b));
}

function stateOf(b: BookingRow): ManagedBookingState {
  return { bookingType: b.bookingType, paymentStatus: b.paymentStatus, cancelled: b.cancelled, rescheduleCount: b.rescheduleCount, startsAt: startOf(b) };
}

/**
 * The booking a Manage booking token opens: only a client's booking, and only until its session ends.
 * Nothing about the token is logged.
 */
export async function findManaged(deps: ManageDeps, token: unknown, now: Date): Promise<ManagedBooking> {
  if (!isTokenShaped(token)) throw notFound();
  const b = await findBookingByManageHash(deps.db, hashBookingToken(token));
  if (!b || b.bookingType === 'ADMIN_BLOCK' || now.getTime() >= endOf(b).getTime()) throw notFound();
  return b;
}

/**
 * What the booking was paid: what the ledger holds for it and what cancelling would return (the part
 * paid at the centre is handed back there), or a package's credit.
 */
type Money = { capturedPaise: number; refundedPaise: number; held: { totalPaise: number; counterPaise: number }; byCredit: boolean };

async function moneyFor(db: Db, bookingId: number): Promise<Money> {
  const [ledger, held, credit] = await Promise.all([moneyOf(db, bookingId), refundablePaise(db, bookingId), creditOfBooking(db, bookingId)]);
  return { capturedPaise: ledger.capturedPaise, refundedPaise: ledger.refundedPaise, held, byCredit: credit !== undefined };
}

function toDto(b: ManagedBooking, now: Date, config: Config, money: Money): ManageBookingDto {
  const policy = policyOf(config);
  const options = manageOptions(stateOf(b), now, policy);
  const online = b.bookingType === 'ONLINE';
  return {
    booking_reference: String(b.id),
    therapist: { id: b.therapistId, name: b.therapistName, title: b.therapistTitle },
    session_type: (b.sessionType && SESSION_TYPES[b.sessionType]) || b.serviceName || 'Therapy session',
    booking_type: online ? 'ONLINE' : 'OFFLINE',
    centre: online ? null : { name: b.locationName ?? config.centreName, address: b.locationAddress ?? '' },
    booking_date: b.bookingDate,
    booking_time_slot_start: toHhMm(b.bookingTimeSlotStart),
    booking_time_slot_end: centreNow(endOf(b)).time,
    amount: paiseToRupees(b.amountPaise),
    payment_status: b.paymentStatus,
    payment_state: paymentState({ ...b, paidPaise: money.capturedPaise, refundedPaise: money.refundedPaise }),
    cancelled: b.cancelled,
    meeting_link: online && !b.cancelled && b.paymentStatus === 'COMPLETED' ? b.googleMeetLink : null,
    can_reschedule: options.canReschedule,
    can_cancel: options.canCancel,
    // A session paid by a credit is booked again from its package (book-again.service.ts), which asks
    // the wizard's details of no one.
    can_book_again: canBookAgain(b) || money.byCredit,
    closed_reason: options.closedReason,
    policy: changePolicyText(policy, supportOf(config)),
    changes_close_at: changesCloseAt(startOf(b), policy.noticeHours).toISOString(),
    reschedules_left: options.reschedulesLeft,
    refund_on_cancel: options.canCancel ? paiseToRupees(money.held.totalPaise) : 0,
    refund_on_cancel_at_centre: options.canCancel ? paiseToRupees(money.held.counterPaise) : 0,
    support: supportOf(config),
  };
}

/** A client's refund in words (shared/contract/refunds.ts): through the provider, and what the centre hands back. */
function refundWords(done: RefundOutcome, config: Config): string {
  const parts: string[] = [];
  if (done.providerPaise > 0) {
    parts.push(REFUND_WORDS.toOriginalMethod(paiseToRupees(done.providerPaise), { done: done.status === 'processed', full: done.counterPaise === 0 }));
  }
  if (done.counterPaise > 0) parts.push(REFUND_WORDS.atCentre(paiseToRupees(done.counterPaise), supportOf(config)));
  return parts.join(' ');
}

/**
 * The sessions of the booking's series (issue 34), each with its own Manage booking link (derived from
 * its id and the server's secret, as the e-mails give it). A token reaches only its own series.
 */
async function seriesSessionsOf(deps: ManageDeps, b: BookingRow): Promise<Pick<ManageBookingDto, 'series_sessions'>> {
  if (b.seriesId === null) return {};
  const sessions = await listSeriesSessionsBrief(deps.db, b.seriesId);
  return {
    series_sessions: sessions.map((s) => ({
      booking_date: s.bookingDate,
      booking_time_slot_start: toHhMm(s.bookingTimeSlotStart),
      cancelled: s.cancelled,
      current: s.id === b.id,
      manage_url: manageUrlFor(deps.config.publicBaseUrl, deps.config.jwtSecret, s.id),
    })),
  };
}

/** GET /api/manage/{token}: the booking's summary and what its client may do now. */
export async function getManagedBooking(deps: ManageDeps, token: unknown): Promise<ManageBookingDto> {
  const now = deps.now();
  const b = await findManaged(deps, token, now);
  const [money, series] = await Promise.all([moneyFor(deps.db, b.id), seriesSessionsOf(deps, b)]);
  return { ...toDto(b, now, deps.config, money), ...series };
}

/**
 * GET /api/manage/{token}/session.ics: the session's calendar invitation, built as the e-mails build
 * it, with the same UID and the SEQUENCE of the latest change, so "Add to calendar" and the e-mailed
 * invitation are one event that a reschedule moves.
 */
export async function getManagedSessionIcs(deps: ManageDeps, token: unknown): Promise<{ filename: string; ics: string }> {
  const now = deps.now();
  const b = await findManaged(deps, token, now);
  return { filename: sessionIcsFilename(b.id), ics: sessionInvitation(b, deps.config, now) };
}

/** A 409 in words (with the centre's phone and e-mail) unless the client may still do `what`. */
function refuseUnlessOpen(b: BookingRow, now: Date, config: Config, what: 'reschedule' | 'cancel'): void {
  const options = manageOptions(stateOf(b), now, policyOf(config));
  const allowed = what === 'reschedule' ? options.canReschedule : options.canCancel;
  if (allowed) return;
  const reason: ManageClosedReason = options.closedReason ?? 'NOT_CONFIRMED';
  throw new AppError('conflict', manageRefusal(reason, policyOf(config), supportOf(config), startOf(b)));
}

/**
 * The checker's refusals (slot_refusal, slot-check.repository.ts) of a reschedule's new slot, in the
 * wizard's words. A move keeps its therapist, type, centre and service, so those are not asked.
 */
const MOVE_REFUSALS: Record<SlotRefusal, (noticeHours: number) => AppError> = {
  sunday: () => fieldError('booking_date', M.sundayClosed),
  before_window: () => fieldError('booking_date', M.dateOutsideWindow),
  after_window: () => fieldError('booking_date', M.dateOutsideWindow),
  passed: () => fieldError('booking_time_slot_start', M.slotPassed),
  // Moved inside the notice window, the session could no longer be changed at all (issue 32): the new
  // time must leave the same notice the old one needed.
  notice: (hours) => fieldError('booking_time_slot_start', MANAGE_MESSAGES.newSlotInsideNotice(hours)),
  therapist: () => fieldError('booking_time_slot_start', M.slotNotOffered),
  therapist_type: () => fieldError('booking_time_slot_start', M.slotNotOffered),
  location: () => fieldError('booking_time_slot_start', M.slotNotOffered),
  not_on_schedule: () => fieldError('booking_time_slot_start', M.slotNotOffered),
  schedule_blocked: () => fieldError('booking_time_slot_start', M.slotNotOffered),
  off_schedule: () => fieldError('booking_time_slot_start', M.slotNotOffered),
  day_closed: () => fieldError('booking_time_slot_start', M.slotNotOffered),
  service: () => fieldError('booking_time_slot_start', M.slotNotOffered),
};

/**
 * The new slot must be one the wizard would book for this therapist right now, at least the notice
 * away: the checker decides, with the client's window. A slot an admin block holds is not offered; one
 * another client holds is a 409, as in the wizard. Whether it is still free is decided again by the
 * live-slot index when the move is written (a race has one winner).
 */
async function checkNewSlot(db: Db, b: BookingRow, date: string, time: string, now: Date, noticeHours: number): Promise<void> {
  if (date === b.bookingDate && time === toHhMm(b.bookingTimeSlotStart)) throw fieldError('booking_time_slot_start', MANAGE_MESSAGES.sameSlot);
  const { refusal, holder } = await checkSlot(
    db,
    { therapistId: b.therapistId, date, start: time },
    slotWindow('client', now, earliestWithNotice(now, noticeHours)),
  );
  if (refusal) throw MOVE_REFUSALS[refusal](noticeHours);
  if (holder === 'block') throw fieldError('booking_time_slot_start', M.slotNotOffered);
  if (holder === 'booking') throw new AppError('conflict', M.slotTaken);
}

function whenText(date: string, time: string): string {
  return `${formatLongDate(date)} at ${formatTimeIst(time)}`;
}

/** The audit record of a client's change: the booking's fields, and how often it has been moved. */
function audited(b: BookingRow): Record<string, unknown> {
  return { ...auditableBooking(b), reschedule_count: b.rescheduleCount };
}

async function answer(deps: ManageDeps, token: string, message: string): Promise<ManageChangeResultDto> {
  const now = deps.now();
  const b = await findBookingByManageHash(deps.db, hashBookingToken(token));
  if (!b) throw notFound();
  const [money, series] = await Promise.all([moneyFor(deps.db, b.id), seriesSessionsOf(deps, b)]);
  return { booking: { ...toDto(b, now, deps.config, money), ...series }, message };
}

/**
 * POST /api/manage/{token}/reschedule: the same therapist, another slot of the public offer, while the
 * session is at least CHANGE_NOTICE_HOURS away and has been moved fewer than MAX_RESCHEDULES times. One
 * transaction: the booking's row is locked (so the rules are checked again against what is committed),
 * moved (the old slot is free and the new one taken at once), counted, audited as the client's, and
 * the e-mails, calendar update, meeting move and new reminder are written to the outbox. The payment and
 * the meeting link stay as they are.
 */
export async function rescheduleManagedBooking(
  deps: ManageDeps,
  token: unknown,
  input: { booking_date: string; booking_time_slot_start: string },
): Promise<ManageChangeResultDto & { therapistId: number }> {
  const now = deps.now();
  const found = await findManaged(deps, token, now);
  refuseUnlessOpen(found, now, deps.config, 'reschedule');
  const date = input.booking_date;
  const time = toHhMm(input.booking_time_slot_start);
  await checkNewSlot(deps.db, found, date, time, now, deps.config.changeNoticeHours);
  try {
    await deps.db.transaction(async (tx) => {
      const before = (await lockBooking(tx, found.id))!;
      refuseUnlessOpen(before, now, deps.config, 'reschedule');
      await refuseWhileRefunding(tx, before, deps.config);
      if (date === before.bookingDate && time === toHhMm(before.bookingTimeSlotStart)) throw fieldError('booking_time_slot_start', MANAGE_MESSAGES.sameSlot);
      const after = await moveBooking(tx, before.id, date, time, now);
      await insertAudit(tx, {
        adminId: null,
        actor: CLIENT_ACTOR,
        action: 'booking.client_reschedule',
        entityType: 'booking',
        entityId: before.id,
        before: audited(before),
        after: audited(after),
      });
      const from = { date: before.bookingDate, time: toHhMm(before.bookingTimeSlotStart) };
      await enqueueInTx(tx, intentsForClientChange(after, 'moved', after.calendarSequence, now, from), now);
    });
  } catch (err) {
    // The live-slot index: another booking took the slot first (or in the same instant).
    if (isUniqueViolation(err, 'bookings_live_slot_uq')) throw new AppError('conflict', M.slotTaken);
    throw err;
  }
  deps.logger.info({ bookingId: found.id }, 'booking moved by the client');
  const result = await answer(
    deps,
    token as string,
    `Your session has been moved to ${whenText(date, time)}. We have sent you an e-mail with the updated calendar invitation.`,
  );
  return { ...result, therapistId: found.therapistId };
}

/**
 * POST /api/manage/{token}/cancel: with CHANGE_NOTICE_HOURS' notice, the booking is cancelled and what
 * was paid for it goes back in full: through the provider, recorded in the ledger (a refused refund
 * cancels nothing; a retry is the same refund, by its idempotency key); money paid at the centre
 * becomes a refund due at the counter, which the desk hands back and records then. No transaction is
 * open while the provider answers: the rules are checked and the refund's intent written with the
 * booking locked, the provider asked after that commit, and the refund recorded and the booking
 * cancelled (applyClientCancel) in a second short transaction; should the process stop halfway, the
 * payments.reconcile job finishes the cancel as the client asked. An unpaid booking's open payment
 * link is closed after the commit, as the hold expiry does.
 */
export async function cancelManagedBooking(deps: ManageDeps, token: unknown): Promise<ManageChangeResultDto & { therapistId: number }> {
  const now = deps.now();
  const found = await findManaged(deps, token, now);
  refuseUnlessOpen(found, now, deps.config, 'cancel');
  const refundDeps = { db: deps.db, payments: deps.payments, logger: deps.logger, now: () => now };
  const begun = await deps.db.transaction(async (tx) => {
    const before = (await lockBooking(tx, found.id))!;
    refuseUnlessOpen(before, now, deps.config, 'cancel');
    await refuseWhileRefunding(tx, before, deps.config);
    const held = (await refundablePaise(tx, before.id)).totalPaise;
    const action = { kind: 'client-cancel' as const, openLink: before.paymentStatus !== 'COMPLETED' ? before.razorpayPaymentLinkId : null };
    let refund: RefundOutcome | undefined;
    if (held > 0) {
      const begun = await beginRefund(
        tx,
        refundDeps,
        before.id,
        held,
        { key: `client-cancel-${before.id}`, reason: CLIENT_CANCEL_REASON, byAdminId: null, requestedBy: CLIENT_ACTOR },
        action,
      );
      // Through the provider: finished after this commit.
      if ('intent' in begun) return { intent: begun.intent, openLink: action.openLink };
      refund = begun.settled;
    }
    await applyClientCancel(tx, { bookingId: before.id, action, outcome: refund, now, logger: deps.logger });
    return { refund, openLink: action.openLink };
  });
  const refund = begun.intent ? await completeRefund(refundDeps, begun.intent, applyClientCancel) : begun.refund;
  // Nobody may pay for a session that will not happen (as an admin's cancel and the hold expiry do).
  if (deps.payments && begun.openLink) {
    await closeOpenLink({ db: deps.db, payments: deps.payments, logger: deps.logger, now: () => now }, found.id, begun.openLink);
  }
  deps.logger.info({ bookingId: found.id, refunded: refund?.refundedPaise ?? 0, atCounter: refund?.counterPaise ?? 0 }, 'booking cancelled by the client');
  const words = refund ? ` ${refundWords(refund, deps.config)}` : '';
  const result = await answer(deps, token as string, `Your booking has been cancelled.${words} We have sent you an e-mail to confirm it.`);
  return { ...result, therapistId: found.therapistId };
}

const CLIENT_CANCEL_REASON = 'Cancelled by the client';

/**
 * A change while the booking's refund is under way (its intent open) waits for it: a 409, in the words
 * of a cancelled booking when that refund is a cancel (a second press of Cancel, say).
 */
async function refuseWhileRefunding(tx: DbOrTx, b: BookingRow, config: Config): Promise<void> {
  const underWay = await refundUnderWay(tx, b.id);
  if (!underWay) return;
  if (cancelsBooking(underWay)) throw new AppError('conflict', manageRefusal('CANCELLED', policyOf(config), supportOf(config), startOf(b)));
  throw new AppError('conflict', MANAGE_MESSAGES.refundUnderWay(config.supportPhone));
}

/**
 * The client's cancel itself, once the money is decided (and, through the provider, back): the booking
 * cancelled, audited as the client's, and the e-mails and calendar cancellations written to the
 * outbox. In the cancel's transaction, or in the refund's phase 3 (the request's, or the
 * payments.reconcile job's after a crash), with the booking's row locked.
 */
export const applyClientCancel: ApplyRefund<'client-cancel'> = async (tx, { bookingId, outcome: refund, now }) => {
  const before = (await lockBooking(tx, bookingId))!;
  const after = await cancelBookingRow(tx, bookingId, now);
  // The client may cancel only with the policy's notice: a session paid from a package gets its credit back (issue 34).
  await creditBackOnCancel(tx, bookingId, true, { adminId: null, actor: CLIENT_ACTOR }, now);
  await insertAudit(tx, {
    adminId: null,
    actor: CLIENT_ACTOR,
    action: 'booking.client_cancel',
    entityType: 'booking',
    entityId: bookingId,
    before: audited(before),
    after: {
      ...audited(after),
      ...(refund
        ? {
            refund: {
              choice: 'FULL',
              amount: paiseToRupees(refund.refundedPaise),
              ...(refund.counterPaise > 0 ? { at_counter: paiseToRupees(refund.counterPaise) } : {}),
              reason: CLIENT_CANCEL_REASON,
            },
          }
        : {}),
    },
  });
  await enqueueInTx(tx, intentsForClientChange(after, 'cancelled', after.calendarSequence, now), now);
};
