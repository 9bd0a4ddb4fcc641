/**
 * The centre managed from the panel (issue 20): catalogue and staff (super admins), attendance and
 * one's own password (any admin), and the set-password link (no session). Thin routes: parse with
 * zod, call one service, answer.
 */
import express, { Router, type Response } from 'express';
import { z } from 'zod';
import { idParam, noQuery, idParams } from '../../../shared/contract/admin.ts';
import {
  attendanceSchema,
  holidaySchema,
  locationPatchSchema,
  mePasswordSchema,
  serviceSchema,
  setPasswordSchema,
  staffCreateSchema,
  therapistCreateSchema,
  therapistPatchSchema,
  timeOffSchema,
  weeklyHoursSchema,
} from '../../../shared/contract/catalogue.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { listServices, listLocations } from '../../../shared/core/services/public-catalogue.service.ts';
import { markAttendance } from '../../../shared/core/services/attendance.service.ts';
import { loginResponse } from '../../../shared/core/services/auth.service.ts';
import {
  addHoliday,
  addTimeOff,
  createService,
  createTherapist,
  deleteHoliday,
  deleteTimeOff,
  listCatalogueTherapists,
  listHolidays,
  patchLocation,
  patchTherapist,
  renameService,
  setLocationPhoto,
  setTherapistActive,
  setTherapistPhoto,
  setWeeklyHours,
} from '../../../shared/core/services/catalogue.service.ts';
import { PHOTO_MAX_BYTES, PHOTO_TYPES_MESSAGE } from '../../../shared/core/services/photo.service.ts';
import {
  changeOwnPassword,
  createStaff,
  listStaff,
  resetStaffPassword,
  setPasswordWithLink,
  setStaffActive,
} from '../../../shared/core/services/staff.service.ts';
import type { AppDeps } from '../deps.ts';
import { currentAdmin, noStore, requireAdmin, requireSuperadmin } from '../middleware/auth.ts';
import { parseOr400 } from '../middleware/validate.ts';

const therapistId = idParams('Therapist ID');
const timeOffParams = z.object({ id: idParam('Therapist ID'), entry: idParam('Time off ID') });

/** Catalogue and staff writes are the super admins'; a plain admin gets 403 with this detail. */
export const SUPERADMIN_ONLY = 'Only super admins may manage the catalogue and staff.';

/** A photo's bytes as sent (any type: the server decodes them, and refuses what is not an image). */
const rawPhoto = express.raw({ type: () => true, limit: PHOTO_MAX_BYTES });

export function catalogueRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const r = Router();
  const auth = requireAdmin(deps);
  const superOnly: express.RequestHandler = (req, res, next) =>
    requireSuperadmin(req, res, (err?: unknown) => next(err ? new AppError('forbidden', SUPERADMIN_ONLY) : undefined));
  const boss = [auth, superOnly];
  const actor = (res: Response) => ({ adminId: currentAdmin(res).id });
  const changed = () => deps.readCache.changed('all');

  // ---- Therapists
  r.get('/api/admin/catalogue/therapists', ...boss, async (req, res) => {
    parseOr400(noQuery, req.query);
    res.json(await listCatalogueTherapists(db, deps.now()));
  });
  r.post('/api/admin/therapists', ...boss, async (req, res) => {
    const input = parseOr400(therapistCreateSchema, req.body);
    const created = await createTherapist(db, input, actor(res), deps.now());
    changed();
    res.status(201).json(created);
  });
  r.patch('/api/admin/therapists/:id', ...boss, async (req, res) => {
    const { id } = parseOr400(therapistId, req.params);
    const input = parseOr400(therapistPatchSchema, req.body);
    const updated = await patchTherapist(db, id, input, actor(res), deps.now());
    changed();
    res.json(updated);
  });
  for (const action of ['activate', 'deactivate'] as const) {
    r.post(`/api/admin/therapists/:id/${action}`, ...boss, async (req, res) => {
      const { id } = parseOr400(therapistId, req.params);
      const done = await setTherapistActive(db, id, action === 'activate', actor(res), deps.now());
      changed();
      res.json(done);
    });
  }
  r.put('/api/admin/therapists/:id/photo', ...boss, rawPhoto, async (req, res) => {
    const { id } = parseOr400(therapistId, req.params);
    if (!Buffer.isBuffer(req.body)) throw new AppError('unsupported_media_type', PHOTO_TYPES_MESSAGE);
    const done = await setTherapistPhoto(db, id, req.body, actor(res), deps.now());
    changed();
    res.json(done);
  });
  r.put('/api/admin/therapists/:id/hours', ...boss, async (req, res) => {
    const { id } = parseOr400(therapistId, req.params);
    const hours = parseOr400(weeklyHoursSchema, req.body);
    const done = await setWeeklyHours(db, id, hours, actor(res), deps.now());
    deps.readCache.changed(`therapist:${id}`);
    res.json(done);
  });
  r.post('/api/admin/therapists/:id/time-off', ...boss, async (req, res) => {
    const { id } = parseOr400(therapistId, req.params);
    const input = parseOr400(timeOffSchema, req.body);
    const done = await addTimeOff(db, id, input, actor(res), deps.now());
    deps.readCache.changed(`therapist:${id}`);
    res.status(201).json(done);
  });
  r.delete('/api/admin/therapists/:id/time-off/:entry', ...boss, async (req, res) => {
    const { id, entry } = parseOr400(timeOffParams, req.params);
    const done = await deleteTimeOff(db, id, entry, actor(res));
    deps.readCache.changed(`therapist:${id}`);
    res.json(done);
  });

  // ---- Holidays
  r.get('/api/admin/holidays', auth, async (req, res) => {
    parseOr400(noQuery, req.query);
    res.json(await listHolidays(db, deps.now()));
  });
  r.post('/api/admin/holidays', ...boss, async (req, res) => {
    const input = parseOr400(holidaySchema, req.body);
    const done = await addHoliday(db, input, actor(res), deps.now());
    changed();
    res.status(201).json(done);
  });
  r.delete('/api/admin/holidays/:id', ...boss, async (req, res) => {
    const { id } = parseOr400(idParams('Holiday ID'), req.params);
    const done = await deleteHoliday(db, id, actor(res));
    changed();
    res.json(done);
  });

  // ---- Services and centres
  r.get('/api/admin/services', auth, async (req, res) => {
    parseOr400(noQuery, req.query);
    res.json(await listServices(db));
  });
  r.post('/api/admin/services', ...boss, async (req, res) => {
    const { name } = parseOr400(serviceSchema, req.body);
    const done = await createService(db, name, actor(res));
    changed();
    res.status(201).json(done);
  });
  r.patch('/api/admin/services/:id', ...boss, async (req, res) => {
    const { id } = parseOr400(idParams('Service ID'), req.params);
    const { name } = parseOr400(serviceSchema, req.body);
    const done = await renameService(db, id, name, actor(res));
    changed();
    res.json(done);
  });
  r.get('/api/admin/locations', auth, async (req, res) => {
    parseOr400(noQuery, req.query);
    res.json(await listLocations(db));
  });
  r.patch('/api/admin/locations/:id', ...boss, async (req, res) => {
    const { id } = parseOr400(idParams('Location ID'), req.params);
    const input = parseOr400(locationPatchSchema, req.body);
    const done = await patchLocation(db, id, input, actor(res), deps.now());
    changed();
    res.json(done);
  });
  r.put('/api/admin/locations/:id/photo', ...boss, rawPhoto, async (req, res) => {
    const { id } = parseOr400(idParams('Location ID'), req.params);
    if (!Buffer.isBuffer(req.body)) throw new AppError('unsupported_media_type', PHOTO_TYPES_MESSAGE);
    const done = await setLocationPhoto(db, id, req.body, actor(res), deps.now());
    changed();
    res.json(done);
  });

  // ---- Staff
  r.get('/api/admin/users', ...boss, async (req, res) => {
    parseOr400(noQuery, req.query);
    res.json(await listStaff(db, deps.now()));
  });
  r.post('/api/admin/users', ...boss, async (req, res) => {
    const input = parseOr400(staffCreateSchema, req.body);
    res.status(201).json(await createStaff(db, input, actor(res), deps.config.jwtSecret, deps.now()));
  });
  for (const action of ['activate', 'deactivate'] as const) {
    r.post(`/api/admin/users/:id/${action}`, ...boss, async (req, res) => {
      const { id } = parseOr400(idParams('Admin ID'), req.params);
      res.json(await setStaffActive(db, id, action === 'activate', actor(res), deps.now()));
    });
  }
  r.post('/api/admin/users/:id/reset-password', ...boss, async (req, res) => {
    const { id } = parseOr400(idParams('Admin ID'), req.params);
    res.json(await resetStaffPassword(db, id, actor(res), deps.config.jwtSecret, deps.now()));
  });
  r.post('/api/admin/me/password', auth, async (req, res) => {
    const input = parseOr400(mePasswordSchema, req.body);
    const admin = await changeOwnPassword(db, currentAdmin(res), input.current_password, input.new_password, deps.now(), {
      throttle: deps.loginThrottle,
      address: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    });
    // Every session of this admin ended with the change; this one carries on with a new token.
    res.json({
      message: 'Password changed. Your other sessions are signed out.',
      ...loginResponse(admin, deps.config.jwtSecret, deps.config.jwtTtlSeconds, deps.now()),
    });
  });
  r.post('/api/admin/set-password', noStore, async (req, res) => {
    const input = parseOr400(setPasswordSchema, req.body);
    const admin = await setPasswordWithLink(db, input.token, input.password, deps.now());
    res.json({ message: 'Password set. You can sign in now.', username: admin.username });
  });

  // ---- Sessions
  r.post('/api/admin/bookings/:id/attendance', auth, async (req, res) => {
    const { id } = parseOr400(idParams('Booking ID'), req.params);
    const { status } = parseOr400(attendanceSchema, req.body);
    res.json(await markAttendance(db, id, status, actor(res), deps.now()));
  });

  return r;
}
