import type { EodReport, PaymentDto, TherapistMonthlyReport } from '../../contract/admin.ts';
import type { CashUpReport } from '../../contract/cash-up.ts';
import type { PackagesReport } from '../../contract/packages.ts';
import { CASH_UP_METHOD_LABELS } from '../../domain/cash-up.ts';
import { ATTENDANCE_WORDS } from '../../domain/attendance.ts';
import { pad2 } from '../../domain/time.ts';

/**
 * What each Excel download holds. A workbook is written by its own short-lived process
 * (api/src/exports), which is handed one of these as JSON, so everything here is plain data.
 */

export const RUPEE_FORMAT = '"₹"#,##0.00';

type Column = { header: string; key: string; width: number; numFmt?: string };
export type Row = Record<string, string | number>;
/** 'ledger': the workbook process reads the payments ledger itself, as PostgreSQL sends it. */
export type Export = { fileName: string; sheetName: string; columns: Column[]; rows: Row[] | 'ledger'; more?: Sheet[] };
/** A further sheet of a workbook, after its first (written only when the first has rows). */
export type Sheet = { sheetName: string; columns: Column[]; rows: Row[] };

/** How the workbook process says it found no rows (and wrote nothing). */
export const NO_ROWS_EXIT_CODE = 3;

const text = (header: string, width: number) => ({ header, width });
const money = (header: string, width: number) => ({ header, width, numFmt: RUPEE_FORMAT });

/** Every column a sheet may have, once: a field's header, width and format are the same in every sheet. */
const COLUMNS = {
  booking_date: text('Booking Date', 14),
  booking_id: text('Booking ID', 12),
  payment_transaction_id: text('Transaction ID', 40),
  client_name: text('Client Name', 28),
  client_phone: text('Client Phone', 14),
  kind: text('Type', 10),
  method: text('Method', 12),
  provider_reference: text('Reference', 24),
  reason: text('Reason', 30),
  amount: money('Amount', 14),
  therapist_id: text('Therapist ID', 12),
  therapist_name: text('Therapist Name', 26),
  service_id: text('Service ID', 10),
  payment_status: text('Payment Status', 16),
  cancelled: text('Cancelled', 10),
  amount_paid: money('Paid', 14),
  amount_refunded: money('Refunded', 14),
  total_sessions: text('Total Sessions', 14),
  completed_sessions: text('Completed Sessions', 18),
  missed_or_cancelled_sessions: text('Missed/Cancelled Sessions', 24),
  attended_sessions: text('Attended', 10),
  no_show_sessions: text('No-show', 10),
  total_income: money('Total Income', 16),
  total_refunded: money('Total Refunded', 16),
  session_time: text('Session Time', 12),
  payment_methods: text('Payment Method', 18),
  attendance: text('Attendance', 12),
  cash_up_method: text('Method', 14),
  taken: money('Taken', 14),
  refunded: money('Refunded', 14),
  net: money('Net', 14),
  time: text('Time (IST)', 10),
  session_date: text('Session Date', 14),
  paid_with: text('Paid With', 12),
  recorded_by: text('Recorded By', 18),
  package_name: text('Package', 28),
  sales: text('Sold', 8),
  sessions: text('Sessions', 10),
  figure: text('Figure', 34),
  value: text('Value', 14),
  sale_id: text('Sale ID', 10),
  expires_on: text('Expires On', 14),
  sessions_left: text('Sessions Left', 14),
} satisfies Record<string, Omit<Column, 'key'>>;

/** A sheet's columns, in order, by the fields they show. */
const columns = (...keys: (keyof typeof COLUMNS)[]): Column[] => keys.map((key) => ({ key, ...COLUMNS[key] }));

/** The inventory sheet: every row of the payments ledger (refunds negative), newest booking first. */
export function inventoryExport(today: string): Export {
  return {
    fileName: `Inventory_Report_${today}.xlsx`,
    sheetName: 'Inventory',
    columns: columns(
      'booking_date',
      'booking_id',
      'payment_transaction_id',
      'client_name',
      'client_phone',
      'kind',
      'method',
      'provider_reference',
      'reason',
      'amount',
    ),
    rows: 'ledger',
  };
}

export function inventoryRow(p: PaymentDto): Row {
  return {
    booking_date: p.booking_date,
    booking_id: p.booking_id ?? `Package sale ${p.package_sale_id}`,
    payment_transaction_id: p.payment_transaction_id ?? '',
    client_name: p.client_name,
    client_phone: p.client_phone,
    kind: p.kind === 'PAYMENT' ? 'Payment' : 'Refund',
    method: p.method,
    provider_reference: p.provider_reference,
    reason: p.reason ?? '',
    amount: p.amount,
  };
}

export function eodExport(report: EodReport): Export {
  return {
    fileName: `EOD_Report_${report.report_date}.xlsx`,
    sheetName: 'End_of_Day',
    columns: columns(
      'booking_id',
      'session_time',
      'client_name',
      'therapist_id',
      'therapist_name',
      'service_id',
      'payment_status',
      'cancelled',
      'amount',
      'amount_paid',
      'amount_refunded',
      'payment_methods',
      'attendance',
    ),
    rows: report.details.map((d) => ({
      ...d,
      service_id: d.service_id ?? '',
      cancelled: d.cancelled ? 'Yes' : 'No',
      payment_methods: d.payment_methods.map((m) => CASH_UP_METHOD_LABELS[m]).join(', '),
      attendance: d.attendance ? ATTENDANCE_WORDS[d.attendance] : '',
    })),
  };
}

/**
 * The cash-up: the first sheet each method's money (Taken, Refunded, Net) with the desk's and the
 * day's totals under them, the second every movement (refunds negative). No movement, no workbook.
 */
export function cashUpExport(report: CashUpReport): Export {
  const total = (label: string, t: CashUpReport['total']): Row => ({ cash_up_method: label, ...t });
  return {
    fileName: `Cash_Up_${report.date}.xlsx`,
    sheetName: 'Cash_Up',
    columns: columns('cash_up_method', 'taken', 'refunded', 'net'),
    rows: report.movements.length
      ? [
          ...report.methods.map((m) => ({ cash_up_method: m.label, taken: m.taken, refunded: m.refunded, net: m.net })),
          total('At the desk', report.at_desk),
          total('Total', report.total),
        ]
      : [],
    more: [
      {
        sheetName: 'Movements',
        columns: columns('time', 'booking_id', 'client_name', 'session_date', 'session_time', 'kind', 'cash_up_method', 'paid_with', 'amount', 'recorded_by'),
        rows: report.movements.map((m) => ({
          time: m.time,
          booking_id: m.booking_id ?? `Package sale ${m.package_sale_id}`,
          client_name: m.client_name,
          session_date: m.session_date ?? '',
          session_time: m.session_time ?? '',
          kind: m.kind === 'PAYMENT' ? 'Payment' : 'Refund',
          cash_up_method: CASH_UP_METHOD_LABELS[m.method],
          paid_with: m.paid_with,
          amount: m.amount,
          recorded_by: m.recorded_by,
        })),
      },
    ],
  };
}

export function monthlyExport(report: TherapistMonthlyReport): Export {
  return {
    fileName: `Therapist_Monthly_Report_${report.year}-${pad2(report.month)}.xlsx`,
    sheetName: 'Therapist_Monthly',
    columns: columns(
      'therapist_id',
      'therapist_name',
      'total_sessions',
      'completed_sessions',
      'missed_or_cancelled_sessions',
      'attended_sessions',
      'no_show_sessions',
      'total_income',
      'total_refunded',
    ),
    rows: report.therapist_performance.map((t) => ({ ...t })),
  };
}

/**
 * The packages report (issue 34): packages sold in the period, then the credits and deferred income now,
 * then the sales expiring within 30 days. Always a workbook: its figures stand even with no sale.
 */
export function packagesExport(report: PackagesReport): Export {
  return {
    fileName: `Packages_Report_${report.from}_${report.to}.xlsx`,
    sheetName: 'Packages_Sold',
    columns: columns('package_name', 'sales', 'sessions', 'amount'),
    rows: [
      ...report.sold.map((r) => ({ package_name: r.package_name, sales: r.sales, sessions: r.sessions, amount: r.amount })),
      { package_name: 'Total', sales: report.totals.sales, sessions: report.totals.sessions_sold, amount: report.totals.amount },
    ],
    more: [
      {
        sheetName: 'Credits',
        columns: columns('figure', 'value'),
        rows: [
          { figure: 'Sessions used', value: report.credits.used },
          { figure: 'Sessions left', value: report.credits.left },
          { figure: 'Sessions expired', value: report.credits.expired },
          { figure: 'Sessions refunded', value: report.credits.refunded },
          { figure: 'Deferred income (₹, sessions not yet given)', value: report.deferred },
        ],
      },
      {
        sheetName: 'Expiring_30_Days',
        columns: columns('sale_id', 'client_name', 'package_name', 'expires_on', 'sessions_left'),
        rows: report.expiring.map((e) => ({
          sale_id: e.sale_id,
          client_name: e.client_full_name,
          package_name: e.package_name,
          expires_on: e.expires_on,
          sessions_left: e.sessions_left,
        })),
      },
    ],
  };
}
