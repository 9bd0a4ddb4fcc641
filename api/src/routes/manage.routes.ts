import { Router } from 'express';
import { manageBookAgainSchema, manageRescheduleSchema, manageTokenParam } from '../../../shared/contract/manage.ts';
import {
  cancelManagedBooking,
  getManagedBooking,
  getManagedSessionIcs,
  rescheduleManagedBooking,
  type ManageDeps,
} from '../../../shared/core/services/manage.service.ts';
import { bookAgain } from '../../../shared/core/services/book-again.service.ts';
import type { AppDeps } from '../deps.ts';
import { privateAnswer, tokenOf } from '../middleware/private-link.ts';
import { parseOr400 } from '../middleware/validate.ts';
import { publicBookingOptions } from './public.routes.ts';

/** The client's own Manage booking calls (issue 21), keyed only by the private token from their e-mail. */
export function manageRoutes(deps: AppDeps): Router {
  const r = Router();
  const manageDeps = (): ManageDeps => ({ db: deps.db, config: deps.config, payments: deps.payments, logger: deps.logger, now: deps.now });

  r.use('/api/manage', privateAnswer);

  r.get('/api/manage/:token', async (req, res) => {
    res.json(await getManagedBooking(manageDeps(), tokenOf(manageTokenParam, req.params)));
  });

  r.get('/api/manage/:token/session.ics', async (req, res) => {
    const { filename, ics } = await getManagedSessionIcs(manageDeps(), tokenOf(manageTokenParam, req.params));
    res.attachment(filename);
    res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
    res.send(ics);
  });

  r.post('/api/manage/:token/reschedule', async (req, res) => {
    const token = tokenOf(manageTokenParam, req.params);
    const input = parseOr400(manageRescheduleSchema, req.body);
    const { therapistId, ...result } = await rescheduleManagedBooking(manageDeps(), token, input);
    // Read-your-writes here; other processes drop it when the commit's notification reaches them.
    deps.readCache.changed(`therapist:${therapistId}`);
    res.json(result);
  });

  r.post('/api/manage/:token/cancel', async (req, res) => {
    const token = tokenOf(manageTokenParam, req.params);
    const { therapistId, ...result } = await cancelManagedBooking(manageDeps(), token);
    deps.readCache.changed(`therapist:${therapistId}`);
    res.json(result);
  });

  const bookingOptions = publicBookingOptions(deps);
  r.post('/api/manage/:token/book-again', async (req, res) => {
    const token = tokenOf(manageTokenParam, req.params);
    const input = parseOr400(manageBookAgainSchema, req.body);
    const { therapistId, ...created } = await bookAgain(manageDeps(), token, input, bookingOptions(req.ip ?? req.socket.remoteAddress ?? 'unknown'));
    deps.readCache.changed(`therapist:${therapistId}`);
    res.json(created);
  });

  return r;
}
