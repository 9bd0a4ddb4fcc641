/**
 * Writes one Excel workbook and exits: the Export (report-export.service.ts) arrives as JSON on stdin,
 * the .xlsx leaves on stdout. Started by send-workbook.ts for each download.
 *
 * Why a process of its own: exceljs turning a year of the ledger into XML and zlib packing it leave the
 * API's malloc heap and V8's page pool 30-40 MB larger for good (README, Performance), and hold its
 * event loop for about a second. A process gives all of it back when it exits. It loads only pg and
 * exceljs, so it starts in a fraction of the export's time.
 */
import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import pg from '../../../shared/core/db/pg-types.ts';
import { eachPaymentBatch } from '../../../shared/core/services/income.service.ts';
import { inventoryRow, NO_ROWS_EXIT_CODE, type Export, type Row, type Sheet } from '../../../shared/core/services/report-export.service.ts';

/**
 * Streams the workbook batch by batch, so a year of bookings never sits in memory as a workbook: each
 * batch's rows are committed (written out as XML into the zip) and the next batch is asked for only
 * once `stream` has room again, so a slow download holds back the cursor instead of piling up here.
 * Nothing is written until the first row; without rows the answer is false and the stream untouched.
 */
async function writeWorkbook(e: Export, batches: (add: (rows: Row[]) => Promise<void>) => Promise<unknown>, stream: Writable): Promise<boolean> {
  let wb: ExcelJS.stream.xlsx.WorkbookWriter | undefined;
  let sheet: { ws: ExcelJS.Worksheet; styles: Partial<ExcelJS.Style>[] } | undefined;
  const openSheet = (s: Omit<Sheet, 'rows'>) => {
    wb ??= new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
    const ws = wb.addWorksheet(s.sheetName);
    ws.columns = s.columns.map((c) => ({ header: c.header, key: c.key, width: c.width, ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}) }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    return { ws, styles: s.columns.map((c) => (c.numFmt ? { numFmt: c.numFmt } : {})) };
  };
  const add = (row: Row) => {
    sheet ??= openSheet(e);
    const added = sheet.ws.addRow(row);
    // exceljs gives each cell a style object of its own and renders it to XML to find its style id;
    // the column's one object lets it remember the id instead (a third of the export's time).
    added.eachCell((cell, col) => (cell.style = sheet!.styles[col - 1]!));
    added.commit();
  };
  await batches(async (rows) => {
    rows.forEach(add);
    if (stream.writableNeedDrain) await once(stream, 'drain');
  });
  if (!sheet || !wb) return false;
  sheet.ws.commit();
  // Further sheets (a report's details) are small lists, written whole after the first.
  for (const more of e.more ?? []) {
    sheet = openSheet(more);
    more.rows.forEach(add);
    sheet.ws.commit();
  }
  await wb.commit();
  return true;
}

async function main(): Promise<number> {
  const e = JSON.parse(await text(process.stdin)) as Export;
  // exceljs waits for its stream's 'finish', which process.stdout never emits.
  const out = new PassThrough();
  out.pipe(process.stdout);
  if (Array.isArray(e.rows)) {
    const list = e.rows;
    return (await writeWorkbook(e, (add) => add(list), out)) ? 0 : NO_ROWS_EXIT_CODE;
  }
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1, application_name: 'booking-export' });
  try {
    // A server-side cursor, a thousand rows a FETCH: the year is never in this process's memory either.
    const written = await writeWorkbook(e, (add) => eachPaymentBatch(pool, (payments) => add(payments.map(inventoryRow))), out);
    return written ? 0 : NO_ROWS_EXIT_CODE;
  } finally {
    await pool.end();
  }
}

// The process ends by itself once stdout is flushed and the pool closed; process.exit() could cut the pipe short.
main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
