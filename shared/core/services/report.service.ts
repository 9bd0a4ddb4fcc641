import type { EodDetail, EodReport, IncomePage, IncomeReport, TherapistMonthlyReport } from '../../contract/admin.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { addDays, centreNow, pad2, toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { ledgerPage, ledgerSummary, type IncomeTotals } from '../repositories/income.repository.ts';
import { cashUpMethodOf } from './cash-up.service.ts';
import { eachPaymentBatch, incomeHeader, mapPayment } from './income.service.ts';
import type { PageRequest } from './paging.ts';
import {
  aggregatedDayTotals,
  dayBookedAndHeld,
  eodRows,
  liveDayTherapistTotals,
  liveDayTotals,
  lockDayForAggregation,
  replaceDayAggregate,
  therapistTotalsBetween,
  type EodRow,
  type Totals,
} from '../repositories/report.repository.ts';

/**
 * Nightly aggregation of one day (the scheduler runs it at 00:30 Asia/Kolkata for the day before).
 * Idempotent: re-running replaces the day's rows.
 */
export async function aggregateDay(db: Db, date: string): Promise<Totals> {
  return db.transaction(async (tx) => {
    await lockDayForAggregation(tx, date);
    const perTherapist = await liveDayTherapistTotals(tx, date);
    const day = await liveDayTotals(tx, date);
    await replaceDayAggregate(tx, date, day, perTherapist);
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
 * held whole. The API never answers with this (a year is megabytes): it streams the same JSON
 * (writeIncomeList), or answers a page (incomePage). For tests and the reports bench.
 */
export async function incomeReport(db: Db): Promise<IncomeReport> {
  const payments: IncomeReport['payments'] = [];
  let totals: IncomeTotals = { netPaise: 0, collectedPaise: 0, refundedPaise: 0 };
  await eachPaymentBatch(db, (batch, t) => {
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
  const [summary, rows] = await Promise.all([ledgerSummary(db), ledgerPage(db, p.pageSize, p.offset)]);
  const { payments: _, ...totals } = incomeHeader(summary, []);
  return { page: p.page, page_size: p.pageSize, total: summary.count, items: rows.map(mapPayment), ...totals };
}

export async function eodReport(db: Db, date: string, now: Date): Promise<EodReport> {
  const today = centreNow(now).date;
  const [aggregated, details, sessions] = await Promise.all([
    date < today ? aggregatedDayTotals(db, date) : undefined,
    eodRows(db, date),
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
    details: details.map(mapEodDetail),
  };
}

export function mapEodDetail(r: EodRow): EodDetail {
  return {
    booking_id: r.id,
    client_name: r.client_full_name,
    therapist_id: r.therapist_id,
    therapist_name: r.therapist_name,
    service_id: r.service_id,
    payment_status: r.payment_status,
    cancelled: r.cancelled,
    amount: paiseToRupees(r.amount_paise),
    amount_paid: paiseToRupees(r.paid),
    amount_refunded: paiseToRupees(r.refunded),
    session_time: toHhMm(r.booking_time_slot_start),
    payment_methods: [...new Set(r.captures.map((c) => cashUpMethodOf(c.provider, c.method)))],
    attendance: r.attendance,
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
