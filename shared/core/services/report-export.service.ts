import type { EodReport, PaymentDto, TherapistMonthlyReport } from '../../contract/admin.ts';
import { pad2 } from '../../domain/time.ts';

/**
 * What each Excel download holds. A workbook is written by its own short-lived process
 * (api/src/exports), which is handed one of these as JSON, so everything here is plain data.
 */

export const RUPEE_FORMAT = '"₹"#,##0.00';

type Column = { header: string; key: string; width: number; numFmt?: string };
export type Row = Record<string, string | number>;
/** 'ledger': the workbook process reads the payments ledger itself, as PostgreSQL sends it. */
export type Export = { fileName: string; sheetName: string; columns: Column[]; rows: Row[] | 'ledger' };

/** How the workbook process says it found no rows (and wrote nothing). */
export const NO_ROWS_EXIT_CODE = 3;

/** The inventory sheet: every row of the payments ledger (refunds negative), newest booking first. */
export function inventoryExport(today: string): Export {
  return {
    fileName: `Inventory_Report_${today}.xlsx`,
    sheetName: 'Inventory',
    columns: [
      { header: 'Booking Date', key: 'booking_date', width: 14 },
      { header: 'Booking ID', key: 'booking_id', width: 12 },
      { header: 'Transaction ID', key: 'payment_transaction_id', width: 40 },
      { header: 'Client Name', key: 'client_name', width: 28 },
      { header: 'Client Phone', key: 'client_phone', width: 14 },
      { header: 'Type', key: 'kind', width: 10 },
      { header: 'Method', key: 'method', width: 12 },
      { header: 'Reference', key: 'provider_reference', width: 24 },
      { header: 'Reason', key: 'reason', width: 30 },
      { header: 'Amount', key: 'amount', width: 14, numFmt: RUPEE_FORMAT },
    ],
    rows: 'ledger',
  };
}

export function inventoryRow(p: PaymentDto): Row {
  return {
    booking_date: p.booking_date,
    booking_id: p.booking_id,
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
    columns: [
      { header: 'Booking ID', key: 'booking_id', width: 12 },
      { header: 'Client Name', key: 'client_name', width: 28 },
      { header: 'Therapist ID', key: 'therapist_id', width: 12 },
      { header: 'Therapist Name', key: 'therapist_name', width: 26 },
      { header: 'Service ID', key: 'service_id', width: 10 },
      { header: 'Payment Status', key: 'payment_status', width: 16 },
      { header: 'Cancelled', key: 'cancelled', width: 10 },
      { header: 'Amount', key: 'amount', width: 14, numFmt: RUPEE_FORMAT },
      { header: 'Paid', key: 'amount_paid', width: 14, numFmt: RUPEE_FORMAT },
      { header: 'Refunded', key: 'amount_refunded', width: 14, numFmt: RUPEE_FORMAT },
    ],
    rows: report.details.map((d) => ({ ...d, service_id: d.service_id ?? '', cancelled: d.cancelled ? 'Yes' : 'No' })),
  };
}

export function monthlyExport(report: TherapistMonthlyReport): Export {
  return {
    fileName: `Therapist_Monthly_Report_${report.year}-${pad2(report.month)}.xlsx`,
    sheetName: 'Therapist_Monthly',
    columns: [
      { header: 'Therapist ID', key: 'therapist_id', width: 12 },
      { header: 'Therapist Name', key: 'therapist_name', width: 26 },
      { header: 'Total Sessions', key: 'total_sessions', width: 14 },
      { header: 'Completed Sessions', key: 'completed_sessions', width: 18 },
      { header: 'Missed/Cancelled Sessions', key: 'missed_or_cancelled_sessions', width: 24 },
      { header: 'Attended', key: 'attended_sessions', width: 10 },
      { header: 'No-show', key: 'no_show_sessions', width: 10 },
      { header: 'Total Income', key: 'total_income', width: 16, numFmt: RUPEE_FORMAT },
      { header: 'Total Refunded', key: 'total_refunded', width: 16, numFmt: RUPEE_FORMAT },
    ],
    rows: report.therapist_performance.map((t) => ({ ...t })),
  };
}
