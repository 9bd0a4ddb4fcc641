import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, type NextFunction, type Response } from 'express';
import { bookingCreateSchema } from '../../../shared/contract/booking.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { createBooking } from '../../../shared/core/services/booking.service.ts';
import { addressKey } from '../../../shared/core/services/auth.service.ts';
import { clientAddressHasher } from '../../../shared/core/services/booking-token.ts';
import type { AppDeps } from '../deps.ts';
import { parseOr400 } from '../middleware/validate.ts';
import { isManualBookingPayload } from './admin.routes.ts';
import { addPublicReads } from './public-reads.ts';

export const IMAGES_DIR = fileURLToPath(new URL('../../images/', import.meta.url));

// One plain file name: no separators, no leading dot, a known image type.
const IMAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}\.(png|jpe?g|webp|svg)$/;
const IMAGE_CACHE = { maxAge: '1d', immutable: false, dotfiles: 'deny' as const, fallthrough: false };

function sendImage(res: Response, next: NextFunction, dir: string, folder: string, name: string): void {
  if (!IMAGE_NAME.test(name)) {
    next(new AppError('not_found', 'Image not found.'));
    return;
  }
  res.sendFile(name, { ...IMAGE_CACHE, root: path.join(dir, folder) }, (err) => {
    if (err) next(new AppError('not_found', 'Image not found.'));
  });
}

export function publicRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const r = Router();
  const addressHash = clientAddressHasher(deps.config.jwtSecret);
  addPublicReads(r, deps);

  r.post('/confirm-booking', async (req, res, next) => {
    // A manual booking is the admin router's, further down the app.
    if (isManualBookingPayload(req.body)) return next('router');
    const input = parseOr400(bookingCreateSchema, req.body, 'Send the booking as a JSON object (Content-Type: application/json).');
    const actor = (await deps.authenticateAdmin?.(req)) ?? { kind: 'public' as const };
    const created = await createBooking(db, input, actor, deps.now(), {
      paymentHoldMinutes: deps.config.paymentHoldMinutes,
      tokenSecret: deps.config.jwtSecret,
      logger: deps.logger,
      holds: deps.config.holds,
      // req.ip is the socket's address unless TRUST_PROXY names the proxy in front; IPv6 by its /64,
      // which one client can rotate through.
      clientAddressHash: addressHash(addressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown')),
    });
    // Read-your-writes here; other processes drop it when the announcement reaches them.
    deps.readCache.changed(`therapist:${input.therapist_id}`);
    res.json(created);
  });

  r.get('/get_location_image/:file', (req, res, next) => {
    const m = /^(\d{1,6})\.png$/.exec(req.params.file);
    if (!m) return next(new AppError('not_found', 'Image not found.'));
    sendImage(res, next, deps.imagesDir ?? IMAGES_DIR, 'locations', `${Number(m[1])}.png`);
  });
  r.get('/get_specific_image/*image', (req, res, next) => {
    const segments = (req.params as { image?: string[] }).image ?? [];
    if (segments.length !== 1) return next(new AppError('not_found', 'Image not found.'));
    sendImage(res, next, deps.imagesDir ?? IMAGES_DIR, 'therapists', segments[0]!);
  });
  return r;
}
