import { randomUUID } from 'node:crypto';
import {
  ADMIN_MESSAGES as AM,
  type AdminBookingDto,
  type AdminBookingsQuery,
  type AdminTherapistDto,
  type ClientBookingDto,
  type ClientBookingsQuery,
  type ClientSearchResult,
  type Paged,
  type BlockSlotInput,
  type BlockSlotResponse,
  type CancelRefund,
  type CancelResponse,
  type ManualBooking,
  type SendPaymentLinkResponse,
  type ShareableLinkResponse,
  type AdminSlotStatesResponse,
  type SlotStatesQuery,
} from '../../contract/admin.ts';
import type { BookingCreateResponse } from '../../contract/booking.ts';
import { API_MESSAGES } from '../../contract/messages.ts';
import { findBookingByTransactionId, getBooking } from '../repositories/booking.repository.ts';
import { isAttended } from '../../domain/attendance.ts';
import { normaliseIndianMobile } from '../../domain/contact.ts';
import { formatRupees, paiseToRupees, rupeesToPaise } from '../../domain/money.ts';
import { DEFAULT_SERVICE_ID } from '../../domain/session.ts';
import { adminSlotStates } from '../../domain/slot-states.ts';
import { adminWindowDates, slotWindow } from '../../domain/slots.ts';
import { isOnlineType, THERAPIST_TYPE } from '../../domain/therapist.ts';
import { centreNow, sessionStart } from '../../domain/time.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError, fieldError, isForeignKeyViolation, isUniqueViolation } from '../errors.ts';
import { MANUAL_REFUSALS } from './slot-refusals.ts';
import type { PaymentsProvider } from '../providers/payments/payments.provider.ts';
import {
  auditableBooking,
  countAdminBookings,
  countClientBookings,
  findBookingForUpdate,
  findLiveSlotForUpdate,
  insertBookingRow,
  listBookingRecords,
  listClientBookingRecords,
  listLiveSlotHolders,
  searchClientRows,
  updateBookingRow,
  type BookingFilter,
  type BookingRow,
} from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { recordCapture } from '../repositories/ledger.repository.ts';
import {
  beginRefund,
  cancelsBooking,
  completeRefund,
  refundablePaise,
  refundResultOf,
  refundUnderWay,
  type ApplyRefund,
  type RefundOutcome,
} from './refund.service.ts';
import { insertReviewRequest } from '../repositories/refund-request.repository.ts';
import { withinNotice } from '../../domain/manage.ts';
import { refundChoices } from '../../domain/refund-choices.ts';
import { intent } from '../jobs/outbox.ts';
import { jobIds } from '../jobs/jobs.ts';
import { getTherapist, listClosedRanges, listTherapistRows } from '../repositories/catalog.repository.ts';
import { checkSlot, type SlotRefusal } from '../repositories/slot-check.repository.ts';
import { listAvailability } from './public-catalogue.service.ts';
import { enqueueInTx } from '../jobs/outbox.ts';
import { intentsForConfirmedBooking } from './booking-followups.service.ts';
import { createLogger, type Logger } from '../logger.ts';
import { closeOpenLink } from './payment.service.ts';
import { linkForBooking, sendPaymentLink, type LinkDeps } from './payment-link-send.service.ts';
import { manageTokenFor } from './booking-token.ts';
import { pageOf } from './paging.ts';
import { creditBackOnCancel, spendCredits } from './package.service.ts';
import { mapAdminBooking, mapClientBooking, mapClientSearch } from './booking-records.ts';

const silentLogger = createLogger({ level: 'silent' });

export type AdminActor = { adminId: number };
const who = (a: AdminActor) => ({ adminId: a.adminId, actor: `admin:${a.adminId}` });

export async function listAdminTherapists(db: Db): Promise<AdminTherapistDto[]> {
  return (await listTherapistRows(db)).map(({ row: t, serviceIds }) => ({
    id: t.id,
    name: t.name,
    title: t.title,
    specialization: t.specialization,
    bio: t.bio,
    price: t.pricePaise === null ? null : paiseToRupees(t.pricePaise),
    image_url: t.imageUrl,
    type: t.type,
    type_label: isOnlineType(t.type) ? 'online' : 'offline',
    locations: t.locationId,
    offered_service_ids: serviceIds,
    email: t.emails,
  }));
}

/**
 * GET /api/admin/bookings: without parameters the spec's answer, every booking newest first. The
 * filters narrow it in the database, and page/page_size make it one page with the filter's total.
 */
export async function listBookings(db: Db, q: AdminBookingsQuery): Promise<AdminBookingDto[] | Paged<AdminBookingDto>> {
  const filter: BookingFilter = { from: q.from, to: q.to, therapistId: q.therapist_id, statuses: q.status, order: q.order };
  const paging = pageOf(q);
  if (!paging) return (await listBookingRecords(db, filter)).map(mapAdminBooking);
  const { page, pageSize } = paging;
  const [total, rows] = await Promise.all([countAdminBookings(db, filter), listBookingRecords(db, filter, { limit: pageSize, offset: (page - 1) * pageSize })]);
  return { page, page_size: pageSize, total, items: rows.map(mapAdminBooking) };
}

/** GET /api/admin/clients-with-therapists: clients' bookings by name, all of them or one page. */
export async function listClientBookingsPage(db: Db, q: ClientBookingsQuery): Promise<ClientBookingDto[] | Paged<ClientBookingDto>> {
  const name = q.name || undefined;
  const paging = pageOf(q);
  if (!paging) return (await listClientBookingRecords(db, name)).map(mapClientBooking);
  const { page, pageSize } = paging;
  const [total, rows] = await Promise.all([
    countClientBookings(db, name),
    listClientBookingRecords(db, name, { limit: pageSize, offset: (page - 1) * pageSize }),
  ]);
  return { page, page_size: pageSize, total, items: rows.map(mapClientBooking) };
}

/**
 * GET /api/admin/search-clients: the clients whose name, e-mail or mobile contains the term, name
 * matches first. The mobile is searched for the term read as the wizard reads a number, so
 * `+91 99200 33333` or `099200-33333` finds the 9920033333 that was saved.
 */
export async function searchClients(db: Db, term: string | undefined): Promise<ClientSearchResult[]> {
  return mapClientSearch(await searchClientRows(db, term, term ? normaliseIndianMobile(term) : undefined));
}

/**
 * Cancel (spec section 4): not cancelled, status not CANCELLED or BLOCKED, and today at the centre
 * not after the booking date. On an admin block the same call unblocks.
 *
 * A booking with money in the ledger needs a decision about it (shared/domain/refund-choices.ts says
 * who may make which): a full or partial refund (super admins; money taken at the counter becomes a
 * refund due at the counter), none for the policy reason given (plain admins only within the notice
 * window), or a request for a super admin to decide (REQUEST, for the reason given). The client is
 * told by e-mail what became of the booking and the money.
 *
 * A refund through the provider holds no transaction open while the provider answers: the rules are
 * checked and the refund's intent written with the booking locked, the provider is asked after that
 * commit (under an idempotency key of this cancel, so a retried one is the same refund), and the
 * refund is recorded and the booking cancelled in a second short transaction (applyAdminCancel). A
 * refused refund cancels nothing; a cancel whose process stopped halfway is finished by the
 * payments.reconcile job, as asked. A second cancel while the first's refund is under way is a 409.
 */
export async function cancelBooking(
  db: Db,
  id: number,
  by: AdminActor & { isSuperadmin?: boolean },
  now: Date,
  opts: {
    payments?: PaymentsProvider | undefined;
    logger?: Logger;
    refund?: CancelRefund | undefined;
    noticeHours: number;
    /** The series' cancel this session is one of: the series' one e-mail tells the client, not the session's own. */
    series?: { id: number; bookingIds: number[] } | undefined;
  },
): Promise<CancelResponse> {
  const logger = opts.logger ?? silentLogger;
  const deps = { db, payments: opts.payments, logger, now: () => now };
  const begun = await db.transaction(async (tx) => {
    const before = await findBookingForUpdate(tx, id);
    if (!before) throw new AppError('not_found', AM.bookingNotFound(id));
    const choice = opts.refund;
    const { heldPaise, refundPaise } = await cancelTerms(tx, before, by, now, choice, opts.noticeHours);
    const action = {
      kind: 'admin-cancel' as const,
      adminId: by.adminId,
      choice: choice ?? null,
      heldPaise,
      refundPaise,
      openLink: before.paymentStatus !== 'COMPLETED' ? before.razorpayPaymentLinkId : null,
      ...(opts.series ? { series: opts.series } : {}),
    };
    let outcome: RefundOutcome | undefined;
    if (refundPaise > 0) {
      const refund = await beginRefund(
        tx,
        deps,
        id,
        refundPaise,
        {
          key: `cancel-${id}`,
          reason: choice?.reason ?? 'Cancelled by the centre',
          byAdminId: by.adminId,
          requestedBy: who(by).actor,
        },
        action,
      );
      // Through the provider: finished after this commit.
      if ('intent' in refund) return { intent: refund.intent, openLink: action.openLink };
      outcome = refund.settled;
    }
    // A session paid from a package (issue 34): cancelled with the policy's notice its credit comes
    // back; a late cancel keeps it used, as the terms charge the fee. Such a booking holds no money, so
    // no refund is under way here.
    if (before.bookingType !== 'ADMIN_BLOCK') await creditBackOnCancel(tx, id, !withinNotice(sessionStart(before), now, opts.noticeHours), who(by), now);
    return { response: await applyAdminCancel(tx, { bookingId: id, action, outcome, now, logger }), openLink: action.openLink };
  });
  let response: CancelResponse;
  if (begun.intent) {
    const refund = refundResultOf(await completeRefund(deps, begun.intent, applyAdminCancel));
    response = { booking_id: id, cancelled: true, unblocked: false, message: `${AM.cancelled(id)} ${AM.refundNote(refund)}`, refund };
  } else {
    response = begun.response!;
  }
  // An unpaid booking's link must not take money for a session that will not happen. After the commit:
  // a payment that slips in between is still recorded (markPaid), and the booking stays cancelled.
  if (opts.payments && begun.openLink) await closeOpenLink({ db, payments: opts.payments, logger, now: () => now }, id, begun.openLink);
  return response;
}

/**
 * Whether the booking may be cancelled now with this money decision (a 409 or 403 in words when not),
 * and what the decision moves: what the ledger holds for it and what goes back. A series' cancel asks
 * it of every session before it cancels any.
 */
export async function cancelTerms(
  tx: DbOrTx,
  before: BookingRow,
  by: AdminActor & { isSuperadmin?: boolean },
  now: Date,
  choice: CancelRefund | undefined,
  noticeHours: number,
): Promise<{ heldPaise: number; refundPaise: number }> {
  const id = before.id;
  const isBlock = before.bookingType === 'ADMIN_BLOCK';
  if (before.cancelled || before.paymentStatus === 'CANCELLED') throw new AppError('conflict', AM.alreadyCancelled(id));
  const underWay = await refundUnderWay(tx, id);
  if (underWay) throw new AppError('conflict', cancelsBooking(underWay) ? AM.alreadyCancelled(id) : AM.refundUnderWay(id));
  if (isAttended(before)) throw new AppError('conflict', AM.cancelAttended(id));
  if (before.paymentStatus === 'BLOCKED' && !isBlock) throw new AppError('conflict', AM.cannotCancelBlocked(id));
  if (centreNow(now).date > before.bookingDate) throw new AppError('conflict', AM.cancelPast(id));
  const heldPaise = (await refundablePaise(tx, id)).totalPaise;
  if (!isBlock && heldPaise > 0 && !choice) throw new AppError('conflict', AM.cancelNeedsRefundChoice(id));
  if (choice) {
    const allowed = refundChoices({ superadmin: by.isSuperadmin === true, withinNotice: withinNotice(sessionStart(before), now, noticeHours) });
    // Keeping nothing is no decision about money: NONE on an unpaid booking needs no permission.
    if (!allowed.includes(choice.refund) && !(choice.refund === 'NONE' && heldPaise <= 0)) {
      throw new AppError('forbidden', choice.refund === 'NONE' ? AM.noRefundOutsideNotice(noticeHours) : AM.refundSuperadminOnly);
    }
  }
  if (choice && choice.refund !== 'NONE' && heldPaise <= 0) throw new AppError('conflict', `Booking ${id} has no payment to refund.`);
  const refundPaise =
    !choice || choice.refund === 'NONE' || choice.refund === 'REQUEST' ? 0 : choice.refund === 'FULL' ? heldPaise : rupeesToPaise(choice.amount);
  if (refundPaise > heldPaise) throw fieldError('amount', `The refund can be at most ${formatRupees(paiseToRupees(heldPaise))}, what was paid.`);
  return { heldPaise, refundPaise };
}

/**
 * The cancel itself, once the money is decided (and, through the provider, back): the booking
 * cancelled (a block unblocked), a REQUEST passed to the owner, audited, and the client told by
 * e-mail. In the cancel's transaction, or in the refund's phase 3 (the request's, or the
 * payments.reconcile job's after a crash), with the booking's row locked.
 */
export const applyAdminCancel: ApplyRefund<'admin-cancel', CancelResponse> = async (tx, { bookingId: id, action, outcome, now }) => {
  const by = { adminId: action.adminId };
  const choice = action.choice;
  const before = (await findBookingForUpdate(tx, id))!;
  const isBlock = before.bookingType === 'ADMIN_BLOCK';
  const after = await updateBookingRow(tx, id, isBlock ? { cancelled: true, paymentStatus: 'CANCELLED', updatedAt: now } : { cancelled: true, updatedAt: now });
  let refund: CancelResponse['refund'];
  if (choice?.refund === 'REQUEST') {
    // Nothing moves yet: a super admin approves (the refund runs then) or declines.
    await insertReviewRequest(tx, {
      bookingId: id,
      amountPaise: action.heldPaise,
      reason: choice.reason,
      requestedBy: who(by).actor,
      requestedByAdminId: by.adminId,
      requestedAt: now,
    });
    refund = { status: 'requested', amount: paiseToRupees(action.heldPaise) };
  } else if (outcome) {
    refund = refundResultOf(outcome);
  } else if (choice) {
    refund = { status: 'none', amount: 0 };
  }
  await insertAudit(tx, {
    ...who(by),
    action: isBlock ? 'slot.unblock' : 'booking.cancel',
    entityType: 'booking',
    entityId: id,
    before: auditableBooking(before),
    after: {
      ...auditableBooking(after!),
      ...(choice ? { refund: auditedRefund(choice, refund, action.refundPaise) } : {}),
    },
  });
  // The client hears what became of the booking and the money (a block has no client), with the
  // reason for what is kept (no refund, or the rest of a partial one). A session of a series cancelled
  // with others is told in the series' one e-mail instead (cancelSeries).
  if (!isBlock && !action.series) {
    const kept = (choice?.refund === 'NONE' || choice?.refund === 'PARTIAL') && choice.reason ? { reason: choice.reason } : {};
    await enqueueInTx(tx, [intent('mail.booking-money', jobIds.cancellationMail(id), { bookingId: id, ...kept })], now);
  }
  const time = after!.bookingTimeSlotStart.slice(0, 5);
  const refundNote = refund ? ` ${AM.refundNote(refund)}` : '';
  return {
    booking_id: id,
    cancelled: true as const,
    unblocked: isBlock,
    message: isBlock ? AM.slotUnblocked(time, after!.bookingDate) : `${AM.cancelled(id)}${refundNote}`,
    ...(refund ? { refund } : {}),
  };
};

/** The audit entry's record of a cancel's money decision. */
function auditedRefund(choice: CancelRefund, refund: CancelResponse['refund'], refundPaise: number): Record<string, unknown> {
  if (choice.refund === 'REQUEST') return { choice: 'REQUEST', requested_amount: refund?.amount ?? 0, reason: choice.reason };
  return {
    choice: choice.refund,
    amount: paiseToRupees(refundPaise),
    ...(refund?.at_counter ? { at_counter: refund.at_counter } : {}),
    reason: choice.reason ?? null,
  };
}

/**
 * The checker's refusals (slot_refusal, slot-check.repository.ts) that stop a block or an unblock, in its
 * words. A block may stand on any slot of the therapist's schedule, whatever the schedule or the day says
 * of it (nobody can book such a slot anyway, and a block set before a holiday was declared must still
 * come off), so those refusals, with the codes a block never asks about, stop nothing.
 */
const therapistGone = () => new AppError('not_found', AM.therapistNotFound);
const BLOCK_REFUSALS: Record<SlotRefusal, (() => AppError) | null> = {
  sunday: null,
  before_window: () => fieldError('date', AM.slotPast),
  after_window: () => fieldError('date', 'Please choose a date within the next year.'),
  passed: () => fieldError('date', AM.slotPast),
  notice: null,
  therapist: therapistGone,
  therapist_type: null,
  location: null,
  not_on_schedule: () => fieldError('start_time', AM.slotNotOnSchedule),
  schedule_blocked: null,
  off_schedule: null,
  day_closed: null,
  service: null,
};

/**
 * POST /api/admin/availability/block. Without `action` it is the spec's toggle: blocks a free slot,
 * unblocks an admin block. With `action` it does only what was asked: "unblock" removes a block and
 * "block" adds one, and anything else (no block to remove, a block already there, a client holding
 * the slot) is a 409 that changes nothing, never the opposite of the request.
 */
export async function toggleBlock(db: Db, input: BlockSlotInput, by: AdminActor, now: Date): Promise<BlockSlotResponse> {
  const { action, start_time: time, date } = input;
  const [{ refusal }, therapist] = await Promise.all([
    checkSlot(db, { therapistId: input.therapist_id, date, start: time }, slotWindow('block', now)),
    // For the block's location.
    getTherapist(db, input.therapist_id),
  ]);
  const refused = refusal ? BLOCK_REFUSALS[refusal] : null;
  if (refused) throw refused();
  // Deactivated since the check.
  if (!therapist) throw therapistGone();
  try {
    return await db.transaction(async (tx) => {
      const held = await findLiveSlotForUpdate(tx, therapist.id, date, time);
      if (held && held.bookingType !== 'ADMIN_BLOCK') {
        throw new AppError('conflict', action === 'unblock' ? AM.slotBookedNotBlocked(time, date) : AM.slotHeldByClient);
      }
      if (held) {
        if (action === 'block') throw new AppError('conflict', AM.slotAlreadyBlocked(time, date));
        const after = await updateBookingRow(tx, held.id, { cancelled: true, paymentStatus: 'CANCELLED', updatedAt: now });
        await insertAudit(tx, {
          ...who(by),
          action: 'slot.unblock',
          entityType: 'booking',
          entityId: held.id,
          before: auditableBooking(held),
          after: auditableBooking(after!),
        });
        return { blocked: false, booking_id: held.id, message: AM.slotUnblocked(time, date) };
      }
      if (action === 'unblock') throw new AppError('conflict', AM.slotNotBlocked(time, date));
      // The schedule itself blocks this slot: a block row would add nothing, so say so.
      if (action === 'block' && refusal === 'schedule_blocked') throw new AppError('conflict', AM.slotAlreadyBlocked(time, date));
      const row = await insertBookingRow(tx, {
        therapistId: therapist.id,
        bookingDate: date,
        bookingTimeSlotStart: time,
        bookingType: 'ADMIN_BLOCK',
        locationId: therapist.locationId,
        paymentStatus: 'BLOCKED',
        amountPaise: 0,
        adminConfirmed: true,
        createdByAdminId: by.adminId,
      });
      await insertAudit(tx, { ...who(by), action: 'slot.block', entityType: 'booking', entityId: row.id, before: null, after: auditableBooking(row) });
      return { blocked: true, booking_id: row.id, message: AM.slotBlocked(time, date) };
    });
  } catch (err) {
    // Someone took the slot between our look and our write (only a block inserts).
    if (isUniqueViolation(err, 'bookings_live_slot_uq')) throw new AppError('conflict', AM.slotHeldByClient);
    throw err;
  }
}

/**
 * GET /api/admin/therapists/{id}/slot-states: the admin's grid, computed here as /api/slots is for
 * clients, over the admin window (15 days from today at the centre, today included).
 */
export async function therapistSlotStates(db: Db, therapistId: number, query: SlotStatesQuery, now: Date): Promise<AdminSlotStatesResponse> {
  const therapist = await getTherapist(db, therapistId);
  if (!therapist) throw new AppError('not_found', AM.therapistNotFound);
  const today = centreNow(now);
  const window = adminWindowDates(today.date);
  const first = window.indexOf(query.from ?? today.date);
  const days = query.days ?? window.length - Math.max(first, 0);
  if (first < 0 || first + days > window.length) throw new AppError('validation', AM.slotStatesWindow(window[0]!, window.at(-1)!));
  const dates = window.slice(first, first + days);
  const [templates, holders, closed] = await Promise.all([
    listAvailability(db, therapist.id),
    listLiveSlotHolders(db, therapist.id, dates[0]!, dates.at(-1)!),
    listClosedRanges(db, therapist.id, dates[0]!, dates.at(-1)!),
  ]);
  return {
    therapist_id: therapist.id,
    today: today.date,
    days: adminSlotStates({ today: today.date, nowMinutes: today.minutes, dates, templates, holders, closed }),
  };
}

/**
 * How a manual booking was settled (issue 31): money taken now (a desk method), an online session
 * awaiting the payment link sent to the client, in person to be paid at the centre, or the spec's
 * online booking confirmed with no money recorded ("Payment not recorded").
 */
export type ManualSettlement = 'PAID_NOW' | 'SEND_LINK' | 'PAY_AT_CENTRE' | 'NOT_RECORDED' | 'FROM_PACKAGE';

export function manualSettlement(input: Pick<ManualBooking, 'booking_type' | 'payment_method' | 'payment_status' | 'package_sale_id'>): ManualSettlement {
  // Issue 34: one credit of the chosen sale pays it: confirmed, no money moves, nothing in the ledger.
  if (input.package_sale_id !== undefined) return 'FROM_PACKAGE';
  if (input.payment_method) return 'PAID_NOW';
  if (input.booking_type === 'OFFLINE') return 'PAY_AT_CENTRE';
  return input.payment_status === 'PENDING' ? 'SEND_LINK' : 'NOT_RECORDED';
}

/**
 * A manual booking (spec sections 4 and 5): admin-confirmed, the admin's amount, within 15 days
 * including today, never a passed, blocked or taken slot. Online it is COMPLETED, as the spec says,
 * unless it waits for its payment link (PENDING); in person PENDING unless paid now. The ledger gets
 * a row only for money taken now (manualSettlement).
 */
export async function createManualBooking(
  db: Db,
  input: ManualBooking,
  by: AdminActor,
  now: Date,
  /** The server's secret (config.jwtSecret): the booking is confirmed as it is written, so its Manage booking token's hash is written with it. */
  opts: { tokenSecret?: string } = {},
): Promise<BookingCreateResponse> {
  const online = input.booking_type === 'ONLINE';
  const settlement = manualSettlement(input);
  const serviceId = input.service_id ?? DEFAULT_SERVICE_ID;
  const { refusal } = await checkSlot(
    db,
    {
      therapistId: input.therapist_id,
      therapistType: THERAPIST_TYPE[input.booking_type],
      locationId: online ? null : input.location_id,
      date: input.booking_date,
      start: input.booking_time_slot_start,
      serviceId,
    },
    slotWindow('admin', now),
  );
  if (refusal) throw fieldError(...MANUAL_REFUSALS[refusal]);
  // Whether the slot is free is left to the live-slot index, at the write: a form sent again must reach
  // it, to be answered with the booking it made.
  try {
    return await db.transaction(async (tx) => {
      const row = await insertBookingRow(tx, {
        therapistId: input.therapist_id,
        serviceId,
        bookingDate: input.booking_date,
        bookingTimeSlotStart: input.booking_time_slot_start,
        bookingType: input.booking_type,
        locationId: online ? null : input.location_id!,
        clientFullName: input.client_full_name,
        clientEmail: input.client_email.toLowerCase(),
        clientMobile: input.client_mobile,
        clientNote: input.client_note ?? '',
        termsAccepted: input.terms_accepted ?? false,
        paymentStatus: settlement === 'PAID_NOW' || settlement === 'NOT_RECORDED' || settlement === 'FROM_PACKAGE' ? 'COMPLETED' : 'PENDING',
        paymentTransactionId: input.payment_transaction_id || randomUUID(),
        // A session from a package is paid by its sale's money: it has no fee of its own to record or refund.
        amountPaise: settlement === 'FROM_PACKAGE' ? 0 : rupeesToPaise(input.amount!),
        adminConfirmed: true,
        createdByAdminId: by.adminId,
        paidAt: settlement === 'PAID_NOW' ? now : null,
      });
      if (opts.tokenSecret) {
        await updateBookingRow(tx, row.id, { manageTokenHash: manageTokenFor(opts.tokenSecret, row.id).hash });
      }
      if (settlement === 'FROM_PACKAGE') {
        const use = { bookingId: row.id, therapistId: row.therapistId, bookingType: input.booking_type, bookingDate: row.bookingDate };
        await spendCredits(tx, input.package_sale_id!, [use], who(by), now);
      }
      await insertAudit(tx, {
        ...who(by),
        action: 'booking.manual_create',
        entityType: 'booking',
        entityId: row.id,
        before: null,
        after: auditableBooking(row),
      });
      // Money taken now, at the desk or by bank transfer: the ledger holds it as taken at the counter, by this admin.
      if (settlement === 'PAID_NOW') {
        await recordCapture(tx, {
          bookingId: row.id,
          provider: 'counter',
          paymentId: `counter_${randomUUID()}`,
          amountPaise: row.amountPaise,
          method: input.payment_method!,
          recordedByAdminId: by.adminId,
          occurredAt: now,
        });
      }
      // Committed with the booking: its payment link, made and sent by the worker (the confirmation
      // follows the payment, as a wizard booking's); otherwise the meeting link (online) and the
      // confirmation mails.
      await enqueueInTx(
        tx,
        settlement === 'SEND_LINK'
          ? [intent('payments.send-link', jobIds.paymentLinkSend(row.id), { bookingId: row.id })]
          : intentsForConfirmedBooking(row, now),
        now,
      );
      return { booking_id: row.id, message: AM.manualCreated(row.id) };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'bookings_live_slot_uq')) throw new AppError('conflict', AM.manualSlotTaken);
    // The service removed since the check.
    if (isForeignKeyViolation(err, 'bookings_service_id_services_id_fk')) throw fieldError('service_id', AM.serviceNotFound);
    // The form's transaction id is its idempotency key: a resent form answers the booking it made.
    if (isUniqueViolation(err, 'bookings_payment_txn_uq') && input.payment_transaction_id) {
      const made = await findBookingByTransactionId(db, input.payment_transaction_id);
      const same =
        made &&
        made.createdByAdminId !== null &&
        made.therapistId === input.therapist_id &&
        made.bookingDate === input.booking_date &&
        made.bookingTimeSlotStart.slice(0, 5) === input.booking_time_slot_start &&
        made.bookingType === input.booking_type &&
        made.clientEmail === input.client_email.toLowerCase() &&
        made.clientMobile === input.client_mobile;
      if (same) return { booking_id: made.id, message: AM.manualCreated(made.id) };
      throw new AppError('conflict', API_MESSAGES.transactionReused);
    }
    throw err;
  }
}

export type ShareableLinkInput = { amount: number; booking_id: number; merchant_transaction_id: string };

/**
 * POST /api/create-shareable-payment-link. The booking must have an amount, an id and a transaction
 * id (spec section 5); the amount charged is the booking's, never the request's figure. A new link
 * each time; the booking's open one is closed first (linkForBooking).
 */
export async function createShareableLink(deps: LinkDeps, input: ShareableLinkInput, by: AdminActor): Promise<ShareableLinkResponse> {
  const id = input.booking_id;
  const booking = await getBooking(deps.db, id);
  if (!booking) throw new AppError('not_found', AM.bookingNotFound(id));
  if (booking.cancelled || booking.bookingType === 'ADMIN_BLOCK' || ['CANCELLED', 'BLOCKED'].includes(booking.paymentStatus)) {
    throw new AppError('conflict', AM.linkBookingClosed(id));
  }
  if (booking.amountPaise <= 0 || !booking.paymentTransactionId || !input.merchant_transaction_id || input.amount <= 0) {
    throw new AppError('validation', AM.linkMissingDetails(id));
  }
  if (input.merchant_transaction_id !== booking.paymentTransactionId) throw new AppError('validation', AM.linkTransactionMismatch(id));
  if (booking.paymentStatus === 'COMPLETED') throw new AppError('conflict', AM.linkAlreadyPaid(id));
  const link = await linkForBooking(deps, booking, who(by), { reuse: false });
  return { payment_link_url: link.url };
}

/** POST /api/admin/bookings/{id}/send-payment-link (any admin): the booking's link, made if needed, sent to the client. */
export async function sendBookingPaymentLink(deps: LinkDeps, id: number, by: AdminActor): Promise<SendPaymentLinkResponse> {
  return (await sendPaymentLink(deps, id, who(by)))!;
}

/** The admin path of POST /api/admin/bookings/{id}/update-payment-link. */
export async function updatePaymentLink(
  db: Db,
  id: number,
  input: { payment_link_url: string; razorpay_payment_link_id?: string | undefined },
  by: AdminActor,
  now: Date,
): Promise<{ booking_id: number; payment_link_url: string; message: string }> {
  try {
    return await db.transaction(async (tx) => {
      const before = await findBookingForUpdate(tx, id);
      if (!before) throw new AppError('not_found', AM.bookingNotFound(id));
      if (before.bookingType === 'ADMIN_BLOCK') throw new AppError('conflict', AM.linkBookingClosed(id));
      const after = await updateBookingRow(tx, id, {
        paymentLinkUrl: input.payment_link_url,
        ...(input.razorpay_payment_link_id ? { razorpayPaymentLinkId: input.razorpay_payment_link_id } : {}),
        updatedAt: now,
      });
      await insertAudit(tx, {
        ...who(by),
        action: 'booking.payment_link_update',
        entityType: 'booking',
        entityId: id,
        before: auditableBooking(before),
        after: auditableBooking(after!),
      });
      return { booking_id: id, payment_link_url: input.payment_link_url, message: AM.linkUpdated(id) };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'bookings_payment_link_uq')) throw new AppError('conflict', 'This payment link id belongs to another booking.');
    throw err;
  }
}
