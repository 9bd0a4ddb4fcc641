import { sql } from 'drizzle-orm';
import type { EodReport, IncomePage, IncomeReport, TherapistMonthlyReport } from '../../contract/admin.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { addDays, centreNow, pad2 } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { reportDaily, reportDailyTherapist } from '../db/schema.ts';
import { eachLedgerBatch, ledgerPage, ledgerSummary, type IncomeTotals } from '../repositories/income.repository.ts';
import type { PageRequest } from './paging.ts';
import {
  aggregatedDayTotals,
  dayBookedAndHeld,
  eodDetails,
  liveDayTherapistTotals,
  liveDayTotals,
  therapistTotalsBetween,
  type Totals,
} from '../repositories/report.repository.ts';

/**
 * Nightly aggregation of one day (the scheduler runs it at 00:30 Asia/Kolkata for the day before).
 * Idempotent: re-running replaces the day's rows.
 */
export async function aggregateDay(db: Db, date: string): Promise<Totals> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('report_daily'), hashtext(${date}))`);
    // Changes to the day's bookings wait for us; their trigger then drops what we write, never the reverse.
    await tx.execute(sql`select id from bookings where booking_date = ${date} for share`);
    const perTherapist = await liveDayTherapistTotals(tx, date);
    const day = await liveDayTotals(tx, date);
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
    return day;
  });
}

/** The day the nightly job closes: yesterday at the centre, whatever the server's zone. */
export function dayToAggregate(now: Date): string {
  return addDays(centreNow(now).date, -1);
}

/** Entry point for the scheduler (00:30 Asia/Kolkata): aggregates yesterday at the centre. */
export async function aggregatePreviousDay(db: Db, now: Date): Promise<{ date: string; totals: Totals }> {
  const date = dayToAggregate(now);
  return { date, totals: await aggregateDay(db, date) };
}

/**
 * Income and inventory: the whole ledger, newest booking first, with its net total and its two parts,
 * held whole. The API never answers with this (a year is megabytes): the route streams the same JSON
 * from a cursor, or answers a page (incomePage). For tests and the reports bench.
 */
export async function incomeReport(db: Db): Promise<IncomeReport> {
  const payments: IncomeReport['payments'] = [];
  let totals: IncomeTotals = { netPaise: 0, collectedPaise: 0, refundedPaise: 0 };
  await eachLedgerBatch(db.$client, (batch, t) => {
    payments.push(...batch);
    totals = t;
  });
  return incomeHeader(totals, payments);
}

/**
 * One page of income / inventory: its rows, and the totals and row count of the whole ledger (one
 * aggregate, so they never depend on the page). A page past the end has no rows and the same totals.
 */
export async function incomePage(db: Db, p: PageRequest): Promise<IncomePage> {
  const [summary, items] = await Promise.all([ledgerSummary(db.$client), ledgerPage(db.$client, p.pageSize, p.offset)]);
  const { payments: _, ...totals } = incomeHeader(summary, []);
  return { page: p.page, page_size: p.pageSize, total: summary.count, items, ...totals };
}

/** The IncomeReport's totals in rupees, around its list. */
export function incomeHeader(t: IncomeTotals, payments: IncomeReport['payments']): IncomeReport {
  return {
    total_amount: paiseToRupees(t.netPaise),
    total_collected: paiseToRupees(t.collectedPaise),
    total_refunded: paiseToRupees(t.refundedPaise),
    payments,
  };
}

export async function eodReport(db: Db, date: string, now: Date): Promise<EodReport> {
  const today = centreNow(now).date;
  const [aggregated, details, sessions] = await Promise.all([
    date < today ? aggregatedDayTotals(db, date) : undefined,
    eodDetails(db, date),
    dayBookedAndHeld(db, date),
  ]);
  const totals = aggregated ?? (await liveDayTotals(db, date));
  return {
    report_date: date,
    total_bookings_today: totals.total,
    completed_bookings_today: totals.completed,
    cancelled_bookings_today: totals.cancelled,
    booked_sessions_today: sessions.booked,
    unpaid_holds_today: sessions.held,
    total_income_today: paiseToRupees(totals.income),
    total_refunded_today: paiseToRupees(totals.refunded),
    details,
  };
}

export function monthRange(year: number, month: number): [string, string] {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return [`${year}-${pad2(month)}-01`, `${year}-${pad2(month)}-${pad2(last)}`];
}

export async function therapistMonthlyReport(db: Db, year: number, month: number, now: Date): Promise<TherapistMonthlyReport> {
  const [from, to] = monthRange(year, month);
  const rows = await therapistTotalsBetween(db, from, to, centreNow(now).date);
  return {
    year,
    month,
    therapist_performance: rows.map((r) => ({
      therapist_id: r.therapist_id,
      therapist_name: r.therapist_name,
      total_sessions: r.total,
      completed_sessions: r.completed,
      missed_or_cancelled_sessions: r.cancelled + r.failed,
      total_income: paiseToRupees(r.income),
      total_refunded: paiseToRupees(r.refunded),
      attended_sessions: r.attended,
      no_show_sessions: r.no_show,
    })),
  };
}
