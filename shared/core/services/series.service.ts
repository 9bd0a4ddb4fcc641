import { randomUUID } from 'node:crypto';
import { ADMIN_MESSAGES as AM } from '../../contract/admin.ts';
import {
  SERIES_MESSAGES as SM,
  type SeriesCancel,
  type SeriesCancelResponse,
  type SeriesConflict,
  type SeriesConflictResponse,
  type SeriesCreate,
  type SeriesCreated,
  type SeriesDetail,
  type SeriesMove,
  type SeriesMoved,
} from '../../contract/series.ts';
import { rupeesToPaise } from '../../domain/money.ts';
import { slotWindow } from '../../domain/slots.ts';
import { THERAPIST_TYPE } from '../../domain/therapist.ts';
import { addDays, centreInstant, timeToMinutes, toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { AppError, fieldError, isUniqueViolation } from '../errors.ts';
import { enqueueInTx, intent, type JobIntent } from '../jobs/outbox.ts';
import { jobIds } from '../jobs/jobs.ts';
import type { Logger } from '../logger.ts';
import type { PaymentsProvider } from '../providers/payments/payments.provider.ts';
import { auditableBooking, listBookingRecords, type BookingRow } from '../repositories/admin-booking.repository.ts';
import { insertAudits, type AuditEntry } from '../repositories/audit.repository.ts';
import { getTherapist, listAvailabilityRows } from '../repositories/catalog.repository.ts';
import { recordCaptures } from '../repositories/ledger.repository.ts';
import {
  allocateBookingIds,
  getSeries,
  insertSeries,
  insertSessions,
  listLiveSessions,
  lockLiveSessions,
  lockSeries,
  moveSessions,
  type NewSession,
} from '../repositories/series.repository.ts';
import { checkSlots, type SlotCandidate, type SlotCheck, type SlotRefusal } from '../repositories/slot-check.repository.ts';
import { cancelBooking, cancelTerms, type AdminActor } from './admin-booking.service.ts';
import { intentsForSeriesMove, intentsForSeriesSession, seriesCancellationIntents, seriesConfirmationIntents } from './booking-followups.service.ts';
import { manageTokenFor } from './booking-token.ts';
import { mapAdminBooking } from './booking-records.ts';
import { spendCredits } from './package.service.ts';
import { refundablePaise } from './refund.service.ts';

/**
 * Series (issue 34): a course of sessions with one therapist at one time, every one or two weeks, booked
 * by staff at once. Each session is a booking like any other (its own Manage link, meeting, reminder and
 * ledger rows); the series has one confirmation e-mail. Every date is asked of the one checker
 * (slot_refusal) in one call, and the sessions are written in one transaction through the live-slot
 * index, which decides any race: a series is booked whole (or, asked to skip, without the dates that
 * could not be booked when it was asked) or not at all.
 */

const who = (a: AdminActor) => ({ adminId: a.adminId, actor: `admin:${a.adminId}` });

/** A service's answer where a conflict is an answer, not a failure: 409 with the dates that could not be booked. */
export type Answer<T> = { status: 200 | 201; body: T } | { status: 409; body: SeriesConflictResponse };

/**
 * The checker's refusals that hold for every date alike (who and where): the request is wrong, not a
 * date, so they are a 400 on the field, in the manual booking form's words.
 */
const SERIES_WIDE: Partial<Record<SlotRefusal, [field: string, message: string]>> = {
  therapist: ['therapist_id', AM.therapistNotFound],
  therapist_type: ['therapist_id', AM.therapistTypeMismatch],
  location: ['location_id', AM.locationMismatch],
  service: ['service_id', AM.serviceNotFound],
};

/** Why one date cannot be booked, in staff's words (the checker's code, or who holds the slot). */
const DATE_REASONS: Record<SlotRefusal | 'booking' | 'block' | 'taken', string> = {
  sunday: 'The centre is closed on Sundays.',
  before_window: 'This date has passed.',
  after_window: 'This date is more than two years ahead.',
  passed: 'This time has already passed today.',
  notice: 'This time is too soon.',
  therapist: AM.therapistNotFound,
  therapist_type: AM.therapistTypeMismatch,
  location: AM.locationMismatch,
  not_on_schedule: "This time is not on the therapist's schedule.",
  schedule_blocked: "This time is blocked on the therapist's weekly schedule.",
  off_schedule: 'The therapist does not work at this time on this weekday.',
  day_closed: 'The centre is closed or the therapist is away on this date (holiday or time off).',
  service: AM.serviceNotFound,
  booking: 'Already booked by another client.',
  block: 'Blocked by the centre.',
  taken: 'Booked by someone else a moment ago.',
};

/** The checker's answer for a date as a conflict's reason; null when the slot can be booked. */
function reasonOf(check: SlotCheck): string | null {
  if (check.refusal) return DATE_REASONS[check.refusal];
  if (check.holder) return DATE_REASONS[check.holder];
  return null;
}

/** A 400 when a refusal holds for the whole request. */
function refuseSeriesWide(checks: readonly SlotCheck[]): void {
  for (const c of checks) {
    const wide = c.refusal ? SERIES_WIDE[c.refusal] : undefined;
    if (wide) throw fieldError(...wide);
  }
}

/** The series' dates: the first, then every `intervalWeeks` weeks, `count` in all. */
export function seriesDates(firstDate: string, intervalWeeks: number, count: number): string[] {
  return Array.from({ length: count }, (_, k) => addDays(firstDate, k * 7 * intervalWeeks));
}

/**
 * For each conflict, the nearest start that day the checker would book with the same therapist (the
 * earlier of two equally near), or null: one call for every start on the therapist's schedule on every
 * conflicting date. Only a refused request pays for it.
 */
async function withNearest(
  db: Db,
  conflicts: readonly { date: string; reason: string }[],
  ask: Omit<SlotCandidate, 'date' | 'start'>,
  start: string,
  now: Date,
): Promise<SeriesConflict[]> {
  if (conflicts.length === 0) return [];
  const starts = [...new Set((await listAvailabilityRows(db, ask.therapistId)).map((s) => toHhMm(s.startTime)))]
    .filter((s) => s !== start)
    .sort((a, b) => Math.abs(timeToMinutes(a) - timeToMinutes(start)) - Math.abs(timeToMinutes(b) - timeToMinutes(start)) || a.localeCompare(b));
  const candidates = conflicts.flatMap((c) => starts.map((s) => ({ ...ask, date: c.date, start: s })));
  const checks = candidates.length ? await checkSlots(db, candidates, slotWindow('series', now)) : [];
  return conflicts.map((c, i) => {
    const at = starts.findIndex((_, j) => reasonOf(checks[i * starts.length + j]!) === null);
    return { booking_date: c.date, reason: c.reason, nearest_free_time: at < 0 ? null : starts[at]! };
  });
}

/** Raised inside the write to roll it back: the live-slot index left these dates out (someone took them since the check). */
class SlotsTaken extends Error {
  readonly dates: string[];
  constructor(dates: string[]) {
    super('slots taken');
    this.dates = dates;
  }
}

/**
 * POST /api/admin/series. The dates are checked together; with any that cannot be booked the answer is
 * 409 listing each (reason, nearest free time) and nothing is written, unless on_conflict is "skip" (then
 * the rest are booked and the skipped listed). Then, in one transaction: the series, its sessions in one
 * statement (ids drawn first, so each row carries its Manage token's hash), one audit row each and the
 * series', the ledger's rows for sessions paid now, and the jobs: each session's meeting or reminder or
 * payment link, and the series' one confirmation e-mail. A date taken between the check and the write is
 * left out by the live-slot index; the transaction is then rolled back and the answer is a 409 naming it.
 */
export async function createSeries(db: Db, input: SeriesCreate, by: AdminActor, now: Date, opts: { tokenSecret: string }): Promise<Answer<SeriesCreated>> {
  const online = input.booking_type === 'ONLINE';
  const dates = seriesDates(input.first_date, input.interval_weeks, input.count);
  const ask = {
    therapistId: input.therapist_id,
    therapistType: THERAPIST_TYPE[input.booking_type],
    locationId: online ? null : input.location_id!,
    serviceId: input.service_id ?? 1,
  };
  const start = input.booking_time_slot_start;
  // The ids are drawn beside the checks, not in the transaction: a sequence is not rolled back either
  // way, so a refused series leaves the same gap it would have, and the write waits one round trip less.
  const [therapist, checks, ids] = await Promise.all([
    getTherapist(db, input.therapist_id),
    checkSlots(
      db,
      dates.map((date) => ({ ...ask, date, start })),
      slotWindow('series', now),
    ),
    allocateBookingIds(db, dates.length),
  ]);
  refuseSeriesWide(checks);
  if (!therapist) throw fieldError('therapist_id', AM.therapistNotFound);
  const fromPackage = input.payment === 'PACKAGE';
  // A session paid from a package is paid by its sale's money: it has no fee of its own (as a manual booking's).
  const amountPaise = fromPackage ? 0 : input.amount !== undefined ? rupeesToPaise(input.amount) : (therapist.pricePaise ?? 0);
  if (!fromPackage && amountPaise <= 0) throw fieldError('amount', SM.noPrice);

  const refused = dates.flatMap((date, i) => {
    const reason = reasonOf(checks[i]!);
    return reason ? [{ date, reason }] : [];
  });
  const bookable = dates.filter((_, i) => reasonOf(checks[i]!) === null);
  if (refused.length > 0 && (input.on_conflict !== 'skip' || bookable.length === 0)) {
    const conflicts = await withNearest(db, refused, ask, start, now);
    return { status: 409, body: { detail: bookable.length === 0 ? SM.nothingLeft : SM.conflicts(refused.length, dates.length), conflicts } };
  }

  const settlement = input.payment;
  try {
    const { seriesId, rows } = await db.transaction(async (tx) => {
      const made = await insertSeries(tx, {
        therapistId: input.therapist_id,
        bookingType: input.booking_type,
        locationId: ask.locationId,
        bookingTimeSlotStart: start,
        firstDate: input.first_date,
        intervalWeeks: input.interval_weeks,
        sessionsAsked: input.count,
        clientFullName: input.client_full_name,
        clientEmail: input.client_email.toLowerCase(),
        clientMobile: input.client_mobile,
        settlement,
        packageSaleId: fromPackage ? input.package_sale_id! : null,
        createdByAdminId: by.adminId,
        createdAt: now,
        updatedAt: now,
      });
      const sessions: NewSession[] = bookable.map((date, i) => ({
        id: ids[i]!,
        seriesId: made.id,
        therapistId: input.therapist_id,
        serviceId: ask.serviceId,
        bookingDate: date,
        bookingTimeSlotStart: start,
        bookingType: input.booking_type,
        locationId: ask.locationId,
        clientFullName: input.client_full_name,
        clientEmail: input.client_email.toLowerCase(),
        clientMobile: input.client_mobile,
        clientNote: input.client_note ?? '',
        paymentStatus: settlement === 'PAID_NOW' || fromPackage ? 'COMPLETED' : 'PENDING',
        paymentTransactionId: randomUUID(),
        amountPaise,
        adminConfirmed: true,
        createdByAdminId: by.adminId,
        paidAt: settlement === 'PAID_NOW' ? now : null,
        manageTokenHash: manageTokenFor(opts.tokenSecret, ids[i]!).hash,
      }));
      const written = await insertSessions(tx, sessions);
      if (written.length < sessions.length) {
        const got = new Set(written.map((r) => r.bookingDate));
        throw new SlotsTaken(bookable.filter((d) => !got.has(d)));
      }
      const audits: AuditEntry[] = [
        {
          ...who(by),
          action: 'series.create',
          entityType: 'series',
          entityId: made.id,
          before: null,
          after: { ...made, booking_ids: written.map((r) => r.id), skipped: refused.map((r) => r.date) },
        },
        ...written.map((r) => ({
          ...who(by),
          action: 'booking.series_create',
          entityType: 'booking',
          entityId: r.id,
          before: null,
          after: { ...auditableBooking(r), series_id: made.id },
        })),
      ];
      await insertAudits(tx, audits);
      // Paid from a package: one credit of the client's sale per session, by the rules of any booking
      // paid by credit (spendCredits), all or none with the sessions.
      if (fromPackage) {
        await spendCredits(
          tx,
          input.package_sale_id!,
          written.map((r) => ({ bookingId: r.id, therapistId: r.therapistId, bookingType: input.booking_type, bookingDate: r.bookingDate })),
          who(by),
          now,
          { dateField: 'count', client: { clientEmail: input.client_email } },
        );
      }
      // Money taken now at the desk: each session's fee is its own ledger row, so each session's cancel
      // and refund work as any booking's.
      if (settlement === 'PAID_NOW') {
        await recordCaptures(
          tx,
          written.map((r) => ({
            bookingId: r.id,
            provider: 'counter' as const,
            paymentId: `counter_${randomUUID()}`,
            amountPaise: r.amountPaise,
            method: input.payment_method!,
            recordedByAdminId: by.adminId,
            occurredAt: now,
          })),
        );
      }
      await enqueueInTx(tx, sessionJobs(made.id, written, settlement, now), now);
      return { seriesId: made.id, rows: written };
    });
    const skipped = refused.length ? await withNearest(db, refused, ask, start, now) : [];
    return {
      status: 201,
      body: {
        series_id: seriesId,
        bookings: rows.map((r) => ({ id: r.id, booking_date: r.bookingDate, booking_time_slot_start: toHhMm(r.bookingTimeSlotStart) })),
        conflicts: skipped,
        message: SM.created(seriesId, rows.length),
      },
    };
  } catch (err) {
    if (!(err instanceof SlotsTaken)) throw err;
    const conflicts = await withNearest(
      db,
      err.dates.map((date) => ({ date, reason: DATE_REASONS.taken })),
      ask,
      start,
      now,
    );
    return { status: 409, body: { detail: SM.conflicts(conflicts.length, dates.length), conflicts } };
  }
}

/** When a session's payment link is sent: a week before it, or now when it is sooner. */
const LINK_LEAD_DAYS = 7;

/**
 * Each session's jobs and the series' e-mail. Paid now or at the centre, a session is confirmed: an
 * online one gets its meeting (the last meeting job sends the series' e-mail), any other its reminder
 * (and the e-mail goes now). Paid by link, a session's link is sent a week before it (its payment then
 * confirms it as any booking's does: meeting, confirmation, reminder), and the series' e-mail goes now.
 */
function sessionJobs(seriesId: number, rows: readonly BookingRow[], settlement: SeriesCreate['payment'], now: Date): JobIntent[] {
  if (settlement === 'SEND_LINK') {
    return [
      ...rows.map((r) => {
        const due = centreInstant(addDays(r.bookingDate, -LINK_LEAD_DAYS), '00:00');
        return intent('payments.send-link', jobIds.paymentLinkSend(r.id), { bookingId: r.id }, due > now ? due : undefined);
      }),
      ...seriesConfirmationIntents(seriesId),
    ];
  }
  const each = rows.flatMap((r) => intentsForSeriesSession({ ...r, seriesId }, now));
  const waitsForMeetings = rows.some((r) => r.bookingType === 'ONLINE' && !r.googleMeetLink);
  return waitsForMeetings ? each : [...each, ...seriesConfirmationIntents(seriesId)];
}

/** GET /api/admin/series/{id}: what was asked and every session, cancelled ones too, in date order. */
export async function getSeriesDetail(db: Db, id: number): Promise<SeriesDetail> {
  const [found, records] = await Promise.all([getSeries(db, id), listBookingRecords(db, { seriesId: id, order: 'asc' })]);
  if (!found) throw new AppError('not_found', SM.notFound(id));
  return {
    series_id: found.id,
    therapist_id: found.therapistId,
    booking_type: found.bookingType === 'OFFLINE' ? 'OFFLINE' : 'ONLINE',
    location_id: found.locationId,
    booking_time_slot_start: toHhMm(found.bookingTimeSlotStart),
    first_date: found.firstDate,
    interval_weeks: found.intervalWeeks,
    sessions_asked: found.sessionsAsked,
    client_full_name: found.clientFullName,
    client_email: found.clientEmail,
    client_mobile: found.clientMobile,
    payment: found.settlement,
    package_sale_id: found.packageSaleId,
    created_at: found.createdAt.toISOString(),
    sessions: records.map(mapAdminBooking),
  };
}

/** The sessions a cancel or move acts on: that day's alone ("this"), or every live one from that day on. */
async function sessionsFrom(db: Db, id: number, fromDate: string, scope: 'this' | 'following' | undefined): Promise<BookingRow[]> {
  if (!(await getSeries(db, id))) throw new AppError('not_found', SM.notFound(id));
  const sessions = await listLiveSessions(db, id, fromDate, scope === 'this');
  if (sessions.length === 0) throw new AppError('conflict', SM.noSessionsFrom(fromDate));
  return sessions;
}

/**
 * POST /api/admin/series/{id}/cancel: "this session" or "this and following". Every session is held to
 * the single cancel's rules with the money decision given (cancelTerms: not past, not attended, a paid
 * one needs the decision and the permission for it) before any is cancelled, so a refusal cancels
 * nothing. Each is then cancelled as a single cancel does (cancelBooking: its refund through the
 * provider or at the counter, its audit, its e-mail to the client); an unpaid session needs no money
 * decision. The series' own audit row lists what was cancelled.
 */
export async function cancelSeries(
  db: Db,
  id: number,
  input: SeriesCancel,
  by: AdminActor & { isSuperadmin?: boolean },
  now: Date,
  opts: { payments?: PaymentsProvider | undefined; logger?: Logger; noticeHours: number },
): Promise<SeriesCancelResponse> {
  const sessions = await sessionsFrom(db, id, input.from_date, input.scope);
  const held = await Promise.all(sessions.map((s) => refundablePaise(db, s.id)));
  const choiceFor = (i: number) => (held[i]!.totalPaise > 0 ? input.refund : undefined);
  for (const [i, s] of sessions.entries()) await cancelTerms(db, s, by, now, choiceFor(i), opts.noticeHours);
  const cancelled = [];
  const series = { id, bookingIds: sessions.map((s) => s.id) };
  for (const [i, s] of sessions.entries()) {
    cancelled.push(await cancelBooking(db, s.id, by, now, { ...opts, refund: choiceFor(i), series }));
  }
  await db.transaction(async (tx) => {
    await insertAudits(tx, [
      {
        ...who(by),
        action: 'series.cancel',
        entityType: 'series',
        entityId: id,
        before: null,
        after: { from_date: input.from_date, scope: input.scope ?? 'following', booking_ids: series.bookingIds, refund: input.refund?.refund ?? null },
      },
    ]);
    // One e-mail to each side for the whole cancel, with every cancelled date (and, to the client, its money).
    const kept = input.refund?.refund === 'NONE' || input.refund?.refund === 'PARTIAL' ? input.refund.reason : undefined;
    await enqueueInTx(tx, seriesCancellationIntents(id, series.bookingIds, kept), now);
  });
  return {
    series_id: id,
    cancelled,
    message: `${cancelled.length} ${cancelled.length === 1 ? 'session' : 'sessions'} of series ${id} cancelled.`,
  };
}

/**
 * POST /api/admin/series/{id}/move: "this session" or "this and following" to another start on their
 * own dates, and to another therapist when one is given. The new slots are asked of the checker in one
 * call (conflicts answered as a new series' are, nothing moved), then every session is moved in one
 * statement in one transaction with their rows locked; the live-slot index refuses a slot taken
 * meanwhile, and the answer is then the 409 of a fresh check. Audited per session and for the series;
 * the client and therapist get one e-mail with the calendar updates, meetings and reminders follow.
 */
export async function moveSeries(db: Db, id: number, input: SeriesMove, by: AdminActor, now: Date): Promise<Answer<SeriesMoved>> {
  const start = input.booking_time_slot_start;
  const sessions = (await sessionsFrom(db, id, input.from_date, input.scope)).filter(
    (s) => toHhMm(s.bookingTimeSlotStart) !== start || (input.therapist_id !== undefined && input.therapist_id !== s.therapistId),
  );
  if (sessions.length === 0) throw fieldError('booking_time_slot_start', SM.sameSlot);
  const candidates = sessions.map((s) => ({
    therapistId: input.therapist_id ?? s.therapistId,
    therapistType: THERAPIST_TYPE[s.bookingType === 'OFFLINE' ? 'OFFLINE' : 'ONLINE'],
    locationId: s.bookingType === 'OFFLINE' ? s.locationId : null,
    date: s.bookingDate,
    start,
  }));
  const conflictsNow = async (): Promise<SeriesConflict[]> => {
    const checks = await checkSlots(db, candidates, slotWindow('series', now));
    refuseSeriesWide(checks);
    const refused = sessions.flatMap((s, i) => {
      const reason = reasonOf(checks[i]!);
      return reason ? [{ date: s.bookingDate, reason }] : [];
    });
    return withNearest(
      db,
      refused,
      { therapistId: candidates[0]!.therapistId, therapistType: candidates[0]!.therapistType, locationId: candidates[0]!.locationId },
      start,
      now,
    );
  };
  const refused = await conflictsNow();
  if (refused.length > 0) return { status: 409, body: { detail: SM.moveConflicts(refused.length), conflicts: refused } };
  try {
    const moved = await db.transaction(async (tx) => {
      await lockSeries(tx, id);
      const locked = await lockLiveSessions(tx, id, input.from_date, input.scope === 'this');
      const ids = new Set(locked.map((s) => s.id));
      // A session cancelled since the check is not moved.
      const still = sessions.filter((s) => ids.has(s.id));
      const before = new Map(locked.map((s) => [s.id, s]));
      const therapist = input.therapist_id ?? null;
      const after = await moveSessions(
        tx,
        still.map((s) => s.id),
        { start, therapistId: therapist },
        now,
      );
      await insertAudits(tx, [
        {
          ...who(by),
          action: 'series.move',
          entityType: 'series',
          entityId: id,
          before: null,
          after: {
            from_date: input.from_date,
            scope: input.scope ?? 'following',
            booking_time_slot_start: start,
            therapist_id: therapist,
            booking_ids: after.map((r) => r.id),
          },
        },
        ...after.map((r) => ({
          ...who(by),
          action: 'booking.series_move',
          entityType: 'booking',
          entityId: r.id,
          before: auditableBooking(before.get(r.id)!),
          after: auditableBooking(r),
        })),
      ]);
      if (after.length > 0) await enqueueInTx(tx, intentsForSeriesMove(id, after, now), now);
      return after;
    });
    return {
      status: 200,
      body: {
        series_id: id,
        bookings: moved
          .sort((a, b) => a.bookingDate.localeCompare(b.bookingDate))
          .map((r) => ({ id: r.id, booking_date: r.bookingDate, booking_time_slot_start: toHhMm(r.bookingTimeSlotStart), therapist_id: r.therapistId })),
        message: SM.moved(moved.length),
      },
    };
  } catch (err) {
    if (!isUniqueViolation(err, 'bookings_live_slot_uq')) throw err;
    const conflicts = await conflictsNow();
    return { status: 409, body: { detail: SM.moveConflicts(Math.max(conflicts.length, 1)), conflicts } };
  }
}
