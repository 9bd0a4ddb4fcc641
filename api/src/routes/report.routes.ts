import { Router, type Response } from 'express';
import { z } from 'zod';
import { eodQuerySchema, monthlyQuerySchema } from '../../../shared/contract/admin.ts';
import { centreNow } from '../../../shared/domain/time.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { eodExport, inventoryExport, monthlyExport } from '../../../shared/core/services/report-export.service.ts';
import { eodReport, incomeHeader, therapistMonthlyReport } from '../../../shared/core/services/report.service.ts';
import { eachLedgerEntry } from '../../../shared/core/repositories/income.repository.ts';
import type { AppDeps } from '../app.ts';
import { sendWorkbook } from '../exports/send-workbook.ts';
import { requireAdmin, requireSuperadmin } from '../middleware/auth.ts';
import { parseOr400 } from '../middleware/validate.ts';

const noQuery = z.strictObject({});

/**
 * The income / inventory list (IncomeReport), written as the rows arrive rather than built whole: a
 * year of payments is megabytes of JSON, and holding it, its rows and its bytes at once is what grew
 * the API's memory. It carries client names and phones, so no cache may keep it.
 */
async function sendPayments(res: Response, db: AppDeps['db']): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  let chunk = '';
  let count = 0;
  try {
    await eachLedgerEntry(db.$client, (payment, totals) => {
      if (count++ === 0) {
        // The header is the report's own JSON with its list cut open, so its fields stay in one place.
        const empty = JSON.stringify(incomeHeader(totals, []));
        chunk += empty.slice(0, -2);
      } else {
        chunk += ',';
      }
      chunk += JSON.stringify(payment);
      if (chunk.length >= 64 * 1024) {
        res.write(chunk);
        chunk = '';
      }
    });
  } catch (err) {
    // Once part of the list is sent a JSON error is impossible: cut the answer short instead.
    if (res.headersSent) res.destroy(err as Error);
    throw err;
  }
  res.end(count === 0 ? JSON.stringify(incomeHeader({ netPaise: 0, collectedPaise: 0, refundedPaise: 0 }, [])) : `${chunk}]}`);
}

/** Income and every report, super admins only (spec section 6, enforced here). */
export function reportRoutes(deps: AppDeps): Router {
  const { db } = deps;
  // The workbook process reads the same database as this pool, whatever the configuration says.
  const databaseUrl = () => db.$client.options.connectionString ?? deps.config.databaseUrl;
  const r = Router();
  const guard = [requireAdmin(deps), requireSuperadmin];
  const today = () => centreNow(deps.now()).date;
  const eodDate = (query: unknown): string => {
    const q = parseOr400(eodQuerySchema, query);
    const date = q.report_date ?? today();
    const year = Number(date.slice(0, 4));
    const max = Number(today().slice(0, 4)) + 5;
    if (year < 2020 || year > max) throw new AppError('validation', `report_date must be in the years 2020 to ${max}`);
    return date;
  };
  const monthOf = (query: unknown): [number, number] => {
    const now = today();
    const q = parseOr400(monthlyQuerySchema(Number(now.slice(0, 4))), query);
    return [q.year ?? Number(now.slice(0, 4)), q.month ?? Number(now.slice(5, 7))];
  };

  r.get('/api/admin/income', ...guard, async (req, res) => {
    parseOr400(noQuery, req.query);
    await sendPayments(res, db);
  });
  r.get('/api/admin/reports/inventory', ...guard, async (req, res) => {
    parseOr400(noQuery, req.query);
    await sendPayments(res, db);
  });
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
