import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { EodReport, PaymentDto, TherapistMonthlyReport } from '../../contract/admin.ts';
import { pad2 } from '../../domain/time.ts';

export const RUPEE_FORMAT = '"₹"#,##0.00';

type Column = { header: string; key: string; width: number; numFmt?: string };

type Row = Record<string, string | number>;
/** Hands each row to `add` as it is produced (from the database, say), instead of as a whole list. */
export type RowSource = (add: (row: Row) => void) => Promise<unknown>;
export type Export = { fileName: string; sheetName: string; columns: Column[]; rows: Row[] | RowSource };

/** The inventory sheet; `eachPayment` hands the payments over one by one (eachCompletedPayment). */
export function inventoryExport(eachPayment: (onPayment: (payment: PaymentDto) => void) => Promise<unknown>, today: string): Export {
  return {
    fileName: `Inventory_Report_${today}.xlsx`,
    sheetName: 'Inventory',
    columns: [
      { header: 'Booking Date', key: 'booking_date', width: 14 },
      { header: 'Transaction ID', key: 'payment_transaction_id', width: 40 },
      { header: 'Client Name', key: 'client_name', width: 28 },
      { header: 'Client Phone', key: 'client_phone', width: 14 },
      { header: 'Amount', key: 'amount', width: 14, numFmt: RUPEE_FORMAT },
    ],
    rows: (add) => eachPayment((p) => add({ ...p, payment_transaction_id: p.payment_transaction_id ?? '' })),
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
      { header: 'Total Income', key: 'total_income', width: 16, numFmt: RUPEE_FORMAT },
    ],
    rows: report.therapist_performance.map((t) => ({ ...t })),
  };
}

/**
 * Streams the workbook row by row, so a year of bookings never sits in memory as a workbook. Nothing is
 * written until the first row, and `begin` is called just before it; without rows the answer is false
 * and the stream untouched.
 */
export async function writeWorkbook(e: Export, stream: Writable, begin: () => void = () => {}): Promise<boolean> {
  let sheet: { wb: ExcelJS.stream.xlsx.WorkbookWriter; ws: ExcelJS.Worksheet } | undefined;
  const add = (row: Row) => {
    if (!sheet) {
      begin();
      const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
      const ws = wb.addWorksheet(e.sheetName);
      ws.columns = e.columns.map((c) => ({ header: c.header, key: c.key, width: c.width, ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}) }));
      ws.getRow(1).font = { bold: true };
      ws.getRow(1).commit();
      sheet = { wb, ws };
    }
    sheet.ws.addRow(row).commit();
  };
  if (Array.isArray(e.rows)) e.rows.forEach(add);
  else await e.rows(add);
  if (!sheet) return false;
  sheet.ws.commit();
  await sheet.wb.commit();
  return true;
}
