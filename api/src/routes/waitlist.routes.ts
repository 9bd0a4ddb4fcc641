import { Router, type RequestHandler } from 'express';
import { API_MESSAGES as M } from '../../../shared/contract/messages.ts';
import { adminWaitlistQuerySchema, waitlistClaimSchema, waitlistJoinSchema, waitlistTokenParam } from '../../../shared/contract/waitlist.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { addressKey } from '../../../shared/core/services/auth.service.ts';
import { clientAddressHasher } from '../../../shared/core/services/booking-token.ts';
import {
  adminWaitlist,
  claimWaitlistOffer,
  getWaitlistEntry,
  joinWaitlist,
  leaveWaitlist,
  type WaitlistDeps,
} from '../../../shared/core/services/waitlist.service.ts';
import type { AppDeps } from '../deps.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { parseOr400 } from '../middleware/validate.ts';

/** The private link's answers: as the Manage booking calls, nothing may keep them or pass the address on. */
const privateAnswer: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

function tokenOf(params: unknown): string {
  const parsed = waitlistTokenParam.safeParse(params);
  if (!parsed.success) throw new AppError('not_found', M.notFound);
  return parsed.data.token;
}

/** The waitlist (issue 34): joining, the client's private link, and the panel's list. */
export function waitlistRoutes(deps: AppDeps): Router {
  const r = Router();
  const waitlistDeps = (): WaitlistDeps => ({ db: deps.db, config: deps.config, logger: deps.logger, now: deps.now });
  const addressHash = clientAddressHasher(deps.config.jwtSecret);

  r.post('/api/waitlist', privateAnswer, async (req, res) => {
    const input = parseOr400(waitlistJoinSchema, req.body);
    // The hold limits' address, as the wizard's booking counts it (IPv6 by its /64).
    const address = addressHash(addressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown'));
    res.json(await joinWaitlist(waitlistDeps(), input, deps.config.holds, address));
  });

  r.get('/api/waitlist/:token', privateAnswer, async (req, res) => {
    res.json(await getWaitlistEntry(waitlistDeps(), tokenOf(req.params)));
  });

  r.post('/api/waitlist/:token/claim', privateAnswer, async (req, res) => {
    const token = tokenOf(req.params);
    const input = parseOr400(waitlistClaimSchema, req.body);
    const { therapistId, ...created } = await claimWaitlistOffer(waitlistDeps(), token, input, deps.config.paymentHoldMinutes);
    deps.readCache.changed(`therapist:${therapistId}`);
    res.json(created);
  });

  r.post('/api/waitlist/:token/leave', privateAnswer, async (req, res) => {
    const { therapistId, message } = await leaveWaitlist(waitlistDeps(), tokenOf(req.params));
    deps.readCache.changed(`therapist:${therapistId}`);
    res.json({ message });
  });

  r.get('/api/admin/waitlist', requireAdmin(deps), async (req, res) => {
    const { therapist_id } = parseOr400(adminWaitlistQuerySchema, req.query);
    res.json(await adminWaitlist(deps.db, therapist_id, deps.now()));
  });

  return r;
}
