import { Router } from 'express';
import { adminWaitlistQuerySchema, waitlistClaimSchema, waitlistJoinSchema, waitlistTokenParam } from '../../../shared/contract/waitlist.ts';
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
import { privateAnswer, tokenOf } from '../middleware/private-link.ts';
import { parseOr400 } from '../middleware/validate.ts';

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
    res.json(await getWaitlistEntry(waitlistDeps(), tokenOf(waitlistTokenParam, req.params)));
  });

  r.post('/api/waitlist/:token/claim', privateAnswer, async (req, res) => {
    const token = tokenOf(waitlistTokenParam, req.params);
    const input = parseOr400(waitlistClaimSchema, req.body);
    const { therapistId, ...created } = await claimWaitlistOffer(waitlistDeps(), token, input, deps.config.paymentHoldMinutes);
    deps.readCache.changed(`therapist:${therapistId}`);
    res.json(created);
  });

  r.post('/api/waitlist/:token/leave', privateAnswer, async (req, res) => {
    const { therapistId, message } = await leaveWaitlist(waitlistDeps(), tokenOf(waitlistTokenParam, req.params));
    deps.readCache.changed(`therapist:${therapistId}`);
    res.json({ message });
  });

  r.get('/api/admin/waitlist', requireAdmin(deps), async (req, res) => {
    const { therapist_id } = parseOr400(adminWaitlistQuerySchema, req.query);
    res.json(await adminWaitlist(deps.db, therapist_id, deps.now()));
  });

  return r;
}
