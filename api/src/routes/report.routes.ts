import type { Writable } from 'node:stream';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { eodQuerySchema, incomeQuerySchema, monthlyQuerySchema } from '../../../shared/contract/admin.ts';
import { cashUpQuerySchema } from '../../../shared/contract/cash-up.ts';
import { centreNow } from '../../../shared/domain/time.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { cashUpReport } from '../../../shared/core/services/cash-up.service.ts';
import { cashUpExport, eodExport, inventoryExport, monthlyExport } from '../../../shared/core/services/report-export.service.ts';
import { eodReport, incomeHeader, incomePage, therapistMonthlyReport } from '../../../shared/core/services/report.service.ts';
import { pageOf } from '../../../shared/core/services/paging.ts';
import { databaseUrlOf, eachPaymentJsonPiece } from '../../../shared/core/services/income.service.ts';
import type { AppDeps } from '../deps.ts';
import { encodedAnswer } from '../http/compress.ts';
import { WholeListGate } from '../http/whole-list-gate.ts';
import { sendWorkbook } from '../exports/send-workbook.ts';
import { requireAdmin, requireSuperadmin } from '../middleware/auth.ts';
import { parseOr400 } from '../middleware/validate.ts';

const noQuery = z.strictObject({});

/**
 * The whole income / inventory list (IncomeReport), the spec's answer when no page is asked for,
 * written as it is read: the payments' JSON text in pieces of bytes as PostgreSQL copies it out
 * (eachPaymentJsonPiece), compressed here (encodedAnswer). Each piece is handed to the compressor once
 * it has taken in the one before, so the next piece is read while the last is compressed and sent; when
 * the client reads slower than we write, the copy waits. A few pieces at a time, never a year of
 * payments (14 MB of JSON), whoever asks for it and however slowly. It carries client names and phones,
 * so no cache may keep it.
 */
async function sendPayments(req: Request, res: Response, db: AppDeps['db'], gate: WholeListGate): Promise<void> {
  const leave = gate.enter();
  res.once('close', leave);
  res.status(200);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  let out: Writable | undefined;
  let left = false;
  // The write under way: settled when out is done with its bytes (or can take more), or the client left.
  let waiting: ((err?: Error) => void) | undefined;
  const settle = (err?: Error | null) => {
    const w = waiting;
    waiting = undefined;
    w?.(err ?? undefined);
  };
  res.once('close', () => {
    left = true;
    settle(new Error(LEFT));
  });
  // Started at the first piece, so a failure before it (no database) is answered as any other error.
  const start = (): Writable => {
    const stream = encodedAnswer(req, res);
    // One listener for the whole answer: the compression middleware moves 'drain' listeners to its
    // compressor, where res.off() cannot reach them, so a listener per wait would pile up.
    if (stream === res) res.on('drain', () => settle());
    // From here on the answer is this list, or cut short (below).
    res.flushHeaders();
    return stream;
  };
  // Resolves once the bytes may be reused (eachPaymentJsonPiece reuses its pieces) and more written.
  const write = (bytes: Buffer) =>
    new Promise<void>((resolve, reject) => {
      out ??= start();
      if (left) return reject(new Error(LEFT));
      // A reader that takes nothing for the gate's stall time is let go, and with it the connection.
      const stalled = setTimeout(() => res.destroy(), gate.stallMs);
      waiting = (err) => {
        clearTimeout(stalled);
        if (err) reject(err);
        else resolve();
      };
      if (out === res) {
        // compressAnswers' res.write takes no callback: a copy goes, and 'drain' says when to write more.
        if (res.write(Buffer.from(bytes))) settle();
      } else {
        // The compressor's callback comes once it has taken the bytes in.
        out.write(bytes, settle);
      }
    });
  try {
    await eachPaymentJsonPiece(db, async (json, totals) => {
      // The header is the report's own JSON with its list cut open, so its fields stay in one place.
      if (!out) await write(Buffer.from(JSON.stringify(incomeHeader(totals, [])).slice(0, -2)));
      await write(json);
    });
  } catch (err) {
    // An admin who left is no failure of ours (the copy ends with its connection); the access
    // log records the answer as aborted.
    if (left) return;
    // Once part of the list is sent a JSON error is impossible: cut the answer short instead.
    if (res.headersSent) res.destroy(err as Error);
    throw err;
  }
  if (out) out.end(']}');
  else res.end(JSON.stringify(incomeHeader({ netPaise: 0, collectedPaise: 0, refundedPaise: 0 }, [])));
}

const LEFT = 'the client left before the income list was sent';

/** GET income / inventory: the whole list as the spec has it, or one page with the ledger's totals. */
async function sendIncome(req: Request, res: Response, db: AppDeps['db'], gate: WholeListGate): Promise<void> {
  const paging = pageOf(parseOr400(incomeQuerySchema, req.query));
  if (!paging) return sendPayments(req, res, db, gate);
  res.setHeader('Cache-Control', 'no-store');
  res.json(await incomePage(db, paging));
}

/** Income and every report, super admins only (spec section 6, enforced here); the cash-up, any admin (the desk's report). */
export function reportRoutes(deps: AppDeps): Router {
  const { db } = deps;
  // The workbook process reads the same database as this pool, whatever the configuration says.
  const databaseUrl = () => databaseUrlOf(db, deps.config.databaseUrl);
  const r = Router();
  const guard = [requireAdmin(deps), requireSuperadmin];
  const today = () => centreNow(deps.now()).date;
  /** A report's day (`name` in the query), today at the centre when left out, in the years 2020 to this one plus 5. */
  const reportDay = (given: string | undefined, name: string): string => {
    const date = given ?? today();
    const year = Number(date.slice(0, 4));
    const max = Number(today().slice(0, 4)) + 5;
    if (year < 2020 || year > max) throw new AppError('validation', `${name} must be in the years 2020 to ${max}`);
    return date;
  };
  const eodDate = (query: unknown): string => reportDay(parseOr400(eodQuerySchema, query).report_date, 'report_date');
  const cashUpDate = (query: unknown): string => reportDay(parseOr400(cashUpQuerySchema, query).date, 'date');
  const monthOf = (query: unknown): [number, number] => {
    const now = today();
    const q = parseOr400(monthlyQuerySchema(Number(now.slice(0, 4))), query);
    return [q.year ?? Number(now.slice(0, 4)), q.month ?? Number(now.slice(5, 7))];
  };

  // One gate for both: they are the same list (WHOLE_LIST_LIMITS, per API process).
  const wholeLists = deps.wholeListGate ?? new WholeListGate();
  r.get('/api/admin/income', ...guard, (req, res) => sendIncome(req, res, db, wholeLists));
  r.get('/api/admin/reports/inventory', ...guard, (req, res) => sendIncome(req, res, db, wholeLists));
  r.get('/api/admin/reports/inventory.xlsx', ...guard, async (req, res) => {
    parseOr400(noQuery, req.query);
    await sendWorkbook(res, inventoryExport(today()), databaseUrl());
  });
  r.get('/api/admin/reports/eod', ...guard, async (req, res) => {
    res.json(await eodReport(db, eodDate(req.query), deps.now()));
  });
  r.get('/api/admin/reports/eod.xlsx', ...guard, async (req, res) => {
    await sendWorkbook(res, eodExport(await eodReport(db, eodDate(req.query), deps.now())), databaseUrl());
  });
  r.get('/api/admin/reports/cash-up', requireAdmin(deps), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await cashUpReport(db, cashUpDate(req.query)));
  });
  r.get('/api/admin/reports/cash-up.xlsx', requireAdmin(deps), async (req, res) => {
    await sendWorkbook(res, cashUpExport(await cashUpReport(db, cashUpDate(req.query))), databaseUrl());
  });
  r.get('/api/admin/reports/therapist-monthly', ...guard, async (req, res) => {
    const [year, month] = monthOf(req.query);
    res.json(await therapistMonthlyReport(db, year, month, deps.now()));
  });
  r.get('/api/admin/reports/therapist-monthly.xlsx', ...guard, async (req, res) => {
    const [year, month] = monthOf(req.query);
    await sendWorkbook(res, monthlyExport(await therapistMonthlyReport(db, year, month, deps.now())), databaseUrl());
  });
  return r;
}
