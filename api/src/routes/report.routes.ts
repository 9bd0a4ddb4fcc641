import { Router, type Request, type Response } from 'express';
import { eodQuerySchema, incomeQuerySchema, monthlyQuerySchema, noQuery } from '../../../shared/contract/admin.ts';
import { cashUpQuerySchema } from '../../../shared/contract/cash-up.ts';
import { centreNow } from '../../../shared/domain/time.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { cashUpReport } from '../../../shared/core/services/cash-up.service.ts';
import { cashUpExport, eodExport, inventoryExport, monthlyExport } from '../../../shared/core/services/report-export.service.ts';
import { eodReport, incomePage, therapistMonthlyReport } from '../../../shared/core/services/report.service.ts';
import { pageOf } from '../../../shared/core/services/paging.ts';
import { databaseUrlOf, writeIncomeList } from '../../../shared/core/services/income.service.ts';
import type { AppDeps } from '../deps.ts';
import { sendWholeList } from '../http/whole-list-answer.ts';
import { WholeListGate } from '../http/whole-list-gate.ts';
import { sendWorkbook } from '../exports/send-workbook.ts';
import { requireAdmin, requireSuperadmin } from '../middleware/auth.ts';
import { parseOr400 } from '../middleware/validate.ts';

/** GET income / inventory: the whole list as the spec has it, or one page with the ledger's totals. */
async function sendIncome(req: Request, res: Response, db: AppDeps['db'], gate: WholeListGate): Promise<void> {
  const paging = pageOf(parseOr400(incomeQuerySchema, req.query));
  if (!paging) return sendWholeList(req, res, gate, (out) => writeIncomeList(db, out));
  // Client names and phones: no cache may keep it.
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
