import { Router } from 'express';
import { noQuery, idParams } from '../../../shared/contract/admin.ts';
import {
  PACKAGE_MESSAGES as PM,
  packageBookSchema,
  packageCreateSchema,
  packageExtendSchema,
  packagePatchSchema,
  packagePurchaseSchema,
  packageRefundSchema,
  packageSaleCreateSchema,
  packageSalesQuerySchema,
  packagesQuerySchema,
  packagesReportQuerySchema,
  packageTokenParam,
} from '../../../shared/contract/packages.ts';
import { addressKey } from '../../../shared/core/services/auth.service.ts';
import { clientAddressHasher } from '../../../shared/core/services/booking-token.ts';
import { bookWithCredit } from '../../../shared/core/services/package-booking.service.ts';
import { clientPackage, purchaseOnline } from '../../../shared/core/services/package-payment.service.ts';
import { refundSale } from '../../../shared/core/services/package-refund.service.ts';
import { packagesReport } from '../../../shared/core/services/package-report.service.ts';
import { createPackage, extendSale, listPackages, listSales, saleDetail, sellAtDesk, updatePackage } from '../../../shared/core/services/package.service.ts';
import { packagesExport } from '../../../shared/core/services/report-export.service.ts';
import { databaseUrlOf } from '../../../shared/core/services/income.service.ts';
import type { AppDeps } from '../deps.ts';
import { sendWorkbook } from '../exports/send-workbook.ts';
import { currentAdmin, requireAdmin, superadminOnly } from '../middleware/auth.ts';
import { privateAnswer, tokenOf } from '../middleware/private-link.ts';
import { parseOr400 } from '../middleware/validate.ts';

const packageIdParams = idParams('Package ID');
const saleIdParams = idParams('Package sale ID');

/**
 * Packages of sessions (issue 34, section 3): the panel's calls (any admin lists, sells and views; a
 * super admin defines, extends and refunds, and reads the report) and the client's (the packages on
 * sale, a purchase, their package by its private link, and a session booked with one of its credits).
 */
export function packageRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const r = Router();
  const admin = requireAdmin(deps);
  const owner = [admin, superadminOnly(PM.superadminOnly)];
  const actor = (res: import('express').Response) => ({ adminId: currentAdmin(res).id });
  const addressHash = clientAddressHasher(deps.config.jwtSecret);

  r.get('/api/admin/packages', admin, async (req, res) => {
    const q = parseOr400(packagesQuerySchema, req.query);
    res.json(await listPackages(db, q.active === 'true'));
  });
  r.post('/api/admin/packages', ...owner, async (req, res) => {
    const input = parseOr400(packageCreateSchema, req.body);
    res.status(201).json(await createPackage(db, input, actor(res), deps.now()));
  });
  r.patch('/api/admin/packages/:id', ...owner, async (req, res) => {
    const { id } = parseOr400(packageIdParams, req.params);
    const patch = parseOr400(packagePatchSchema, req.body);
    res.json(await updatePackage(db, id, patch, actor(res), deps.now()));
  });

  r.get('/api/admin/package-sales', admin, async (req, res) => {
    const q = parseOr400(packageSalesQuerySchema, req.query);
    res.json(await listSales(db, q));
  });
  r.post('/api/admin/package-sales', admin, async (req, res) => {
    const input = parseOr400(packageSaleCreateSchema, req.body);
    res.status(201).json(await sellAtDesk(db, input, actor(res), deps.now(), deps.config.jwtSecret));
  });
  r.get('/api/admin/package-sales/:id', admin, async (req, res) => {
    const { id } = parseOr400(saleIdParams, req.params);
    parseOr400(noQuery, req.query);
    res.json(await saleDetail(db, id));
  });
  r.post('/api/admin/package-sales/:id/extend', ...owner, async (req, res) => {
    const { id } = parseOr400(saleIdParams, req.params);
    const input = parseOr400(packageExtendSchema, req.body);
    res.json(await extendSale(db, id, input, actor(res), deps.now()));
  });
  r.post('/api/admin/package-sales/:id/refund', ...owner, async (req, res) => {
    const { id } = parseOr400(saleIdParams, req.params);
    const input = parseOr400(packageRefundSchema, req.body ?? {});
    res.json(await refundSale({ db, payments: deps.payments, logger: deps.logger, now: deps.now }, id, input, actor(res)));
  });

  r.get('/api/admin/reports/packages', ...owner, async (req, res) => {
    const q = parseOr400(packagesReportQuerySchema, req.query);
    res.json(await packagesReport(db, q, deps.now()));
  });
  r.get('/api/admin/reports/packages.xlsx', ...owner, async (req, res) => {
    const q = parseOr400(packagesReportQuerySchema, req.query);
    await sendWorkbook(res, packagesExport(await packagesReport(db, q, deps.now())), databaseUrlOf(db, deps.config.databaseUrl));
  });

  // ---- The client's side
  r.get('/api/packages', async (req, res) => {
    parseOr400(noQuery, req.query);
    res.json((await listPackages(db, true)).map(({ is_active: _active, ...p }) => p));
  });
  r.post('/api/packages/purchase', privateAnswer, async (req, res) => {
    const input = parseOr400(packagePurchaseSchema, req.body);
    // The hold limits' address, as the wizard's booking counts it (IPv6 by its /64).
    const address = addressHash(addressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown'));
    res.status(201).json(await purchaseOnline(deps, input, deps.config.holds, address));
  });
  r.get('/api/packages/:token', privateAnswer, async (req, res) => {
    res.json(await clientPackage(deps, tokenOf(packageTokenParam, req.params), req.query as Record<string, unknown>));
  });
  r.post('/api/packages/:token/book', privateAnswer, async (req, res) => {
    const token = tokenOf(packageTokenParam, req.params);
    const input = parseOr400(packageBookSchema, req.body);
    const booked = await bookWithCredit(deps, token, input);
    deps.readCache.changed(`therapist:${input.therapist_id}`);
    res.json(booked);
  });
  return r;
}
