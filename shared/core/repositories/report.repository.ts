import { sql } from 'drizzle-orm';
import type { PaymentStatus } from '../../contract/booking.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { reportDaily, reportDailyTherapist } from '../db/schema.ts';
import type { LedgerMethod, LedgerProvider } from './ledger.repository.ts';

/**
 * The one definition of the report numbers, used live and by the nightly aggregation alike.
 * Admin blocks are not bookings. completed + cancelled + failed <= total; the rest are pending.
 * Money comes from the payments ledger, never from a booking's status: a booking's money is what was
 * captured for it less what was refunded, whatever became of the booking, so cancelling one never makes
 * money vanish from history, and the reports over all days add up to the ledger's total.
 */
const COMPLETED = sql`(b.payment_status = 'COMPLETED' and not b.cancelled)`;
const CANCELLED = sql`(b.cancelled or b.payment_status = 'CANCELLED')`;
const FAILED = sql`(b.payment_status = 'FAILED' and not b.cancelled)`;
/** Each booking's money (m.paid, m.refunded as positive paise), one index lookup per booking. */
const MONEY = sql`left join lateral (
    select coalesce(sum(l.amount_paise) filter (where l.kind = 'capture'), 0) as paid,
           coalesce(-sum(l.amount_paise) filter (where l.kind = 'refund'), 0) as refunded
    from payments_ledger l where l.booking_id = b.id) m on true`;
const COUNTS = sql`count(*)::int as total,
  (count(*) filter (where ${COMPLETED}))::int as completed,
  (count(*) filter (where ${CANCELLED}))::int as cancelled,
  (count(*) filter (where ${FAILED}))::int as failed,
  coalesce(sum(m.paid - m.refunded), 0)::bigint as income,
  coalesce(sum(m.refunded), 0)::bigint as refunded,
  (count(*) filter (where b.attendance = 'ATTENDED'))::int as attended,
  (count(*) filter (where b.attendance = 'NO_SHOW'))::int as no_show`;

/** income: net paise (captures less refunds); refunded: the refunds, as positive paise. */
export type Totals = {
  total: number;
  completed: number;
  cancelled: number;
  failed: number;
  income: number;
  refunded: number;
  attended: number;
  no_show: number;
};
export type TherapistTotals = Totals & { therapist_id: number };

export async function liveDayTotals(db: DbOrTx, date: string): Promise<Totals> {
  const res = await db.execute<Totals>(sql`select ${COUNTS} from bookings b ${MONEY} where b.booking_date = ${date} and b.booking_type <> 'ADMIN_BLOCK'`);
  return res.rows[0]!;
}

export async function liveDayTherapistTotals(db: DbOrTx, date: string): Promise<TherapistTotals[]> {
  const res = await db.execute<TherapistTotals>(
    sql`select b.therapist_id, ${COUNTS} from bookings b ${MONEY}
        where b.booking_date = ${date} and b.booking_type <> 'ADMIN_BLOCK'
        group by b.therapist_id order by b.therapist_id`,
  );
  return res.rows;
}

/**
 * The day's sessions and unpaid holds, counted apart: a booked session will take place (paid, or to
 * be paid at the centre) and is not cancelled; an unpaid hold is an online booking still waiting for
 * its payment (INITIATED), which becomes a session only when paid. Live, from bookings_date_idx.
 */
export async function dayBookedAndHeld(db: Pick<Db, 'execute'>, date: string): Promise<{ booked: number; held: number }> {
  const res = await db.execute<{ booked: number; held: number }>(sql`
    select (count(*) filter (where b.payment_status in ('COMPLETED', 'PENDING')))::int as booked,
           (count(*) filter (where b.payment_status = 'INITIATED'))::int as held
    from bookings b
    where b.booking_date = ${date} and b.booking_type <> 'ADMIN_BLOCK' and not b.cancelled`);
  return res.rows[0] ?? { booked: 0, held: 0 };
}

/** The aggregated totals of a day, if the day has been aggregated (and not invalidated since). */
export async function aggregatedDayTotals(db: Db, date: string): Promise<Totals | undefined> {
  const res = await db.execute<Totals>(
    sql`select total_bookings as total, completed_bookings as completed, cancelled_bookings as cancelled,
               failed_bookings as failed, income_paise as income, refunded_paise as refunded,
               attended_bookings as attended, no_show_bookings as no_show
        from report_daily where report_date = ${date}`,
  );
  return res.rows[0];
}

/**
 * Per-therapist totals over [from, to]: aggregated rows for days before `today` that have them, live
 * rows for every other day. One statement, so both halves see the same snapshot.
 */
export async function therapistTotalsBetween(db: Db, from: string, to: string, today: string): Promise<(TherapistTotals & { therapist_name: string })[]> {
  const res = await db.execute<TherapistTotals & { therapist_name: string }>(sql`
    with agg_days as (
      select report_date from report_daily where report_date between ${from} and ${to} and report_date < ${today}
    ),
    parts as (
      select r.therapist_id, r.total_bookings as total, r.completed_bookings as completed, r.cancelled_bookings as cancelled,
             r.failed_bookings as failed, r.income_paise as income, r.refunded_paise as refunded,
             r.attended_bookings as attended, r.no_show_bookings as no_show
      from report_daily_therapist r join agg_days d on d.report_date = r.report_date
      union all
      select b.therapist_id, ${COUNTS}
      from bookings b ${MONEY}
      where b.booking_date between ${from} and ${to} and b.booking_type <> 'ADMIN_BLOCK'
        and not exists (select 1 from agg_days d where d.report_date = b.booking_date)
      group by b.therapist_id
    )
    select p.therapist_id, t.name as therapist_name,
           sum(p.total)::int as total, sum(p.completed)::int as completed, sum(p.cancelled)::int as cancelled,
           sum(p.failed)::int as failed, sum(p.income)::bigint as income, sum(p.refunded)::bigint as refunded,
           sum(p.attended)::int as attended, sum(p.no_show)::int as no_show
    from parts p join therapists t on t.id = p.therapist_id
    group by p.therapist_id, t.name
    having sum(p.total) > 0
    order by p.therapist_id`);
  return res.rows;
}

/** A booking of the day with its therapist's name and its money from the ledger (paise). */
export type EodRow = {
  id: number;
  client_full_name: string;
  therapist_id: number;
  therapist_name: string;
  service_id: number | null;
  payment_status: PaymentStatus;
  cancelled: boolean;
  amount_paise: number;
  paid: number;
  refunded: number;
  booking_time_slot_start: string;
  attendance: 'ATTENDED' | 'NO_SHOW' | null;
  /** The booking's payments in the ledger, oldest first: how each was taken. */
  captures: { provider: LedgerProvider; method: LedgerMethod }[];
};

/** The day's bookings (no admin blocks), by start time. */
export async function eodRows(db: Db, date: string): Promise<EodRow[]> {
  const res = await db.execute<EodRow>(sql`
    select b.id, b.client_full_name, b.therapist_id, t.name as therapist_name, b.service_id, b.payment_status, b.cancelled, b.amount_paise,
           m.paid::int as paid, m.refunded::int as refunded, b.booking_time_slot_start::text as booking_time_slot_start, b.attendance,
           (select coalesce(json_agg(json_build_object('provider', l.provider, 'method', l.method) order by l.occurred_at, l.id), '[]'::json)
            from payments_ledger l where l.booking_id = b.id and l.kind = 'capture') as captures
    from bookings b join therapists t on t.id = b.therapist_id ${MONEY}
    where b.booking_date = ${date} and b.booking_type <> 'ADMIN_BLOCK'
    order by b.booking_time_slot_start, b.id`);
  return res.rows;
}

/**
 * Holds the day for its aggregation: one aggregation of a day at a time (an advisory lock), and the
 * day's bookings share-locked, so changes to them wait for the aggregation and their trigger then
 * drops what it wrote, never the reverse.
 */
export async function lockDayForAggregation(tx: DbOrTx, date: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('report_daily'), hashtext(${date}))`);
  await tx.execute(sql`select id from bookings where booking_date = ${date} for share`);
}

/** Replaces the day's aggregated rows (the centre's and each therapist's) with these totals. */
export async function replaceDayAggregate(tx: DbOrTx, date: string, day: Totals, perTherapist: TherapistTotals[]): Promise<void> {
  await tx.delete(reportDaily).where(sql`${reportDaily.reportDate} = ${date}`);
  await tx.insert(reportDaily).values({
    reportDate: date,
    totalBookings: day.total,
    completedBookings: day.completed,
    cancelledBookings: day.cancelled,
    failedBookings: day.failed,
    incomePaise: day.income,
    refundedPaise: day.refunded,
    attendedBookings: day.attended,
    noShowBookings: day.no_show,
  });
  if (perTherapist.length) {
    await tx.insert(reportDailyTherapist).values(
      perTherapist.map((t) => ({
        reportDate: date,
        therapistId: t.therapist_id,
        totalBookings: t.total,
        completedBookings: t.completed,
        cancelledBookings: t.cancelled,
        failedBookings: t.failed,
        incomePaise: t.income,
        refundedPaise: t.refunded,
        attendedBookings: t.attended,
        noShowBookings: t.no_show,
      })),
    );
  }
}
