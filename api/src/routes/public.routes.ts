import path from 'node:path';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { SHIPPED_IMAGES_DIR } from '../../../shared/core/images.ts';
import { bookingCreateSchema } from '../../../shared/contract/booking.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { addressKey } from '../../../shared/core/services/auth.service.ts';
import { createBooking, type CreateBookingOptions } from '../../../shared/core/services/booking.service.ts';
import { clientAddressHasher } from '../../../shared/core/services/booking-token.ts';
import { storedPhoto } from '../../../shared/core/services/photo.service.ts';
import type { AppDeps } from '../deps.ts';
import { parseOr400 } from '../middleware/validate.ts';
import { isManualBookingPayload } from './admin.routes.ts';
import { addPublicReads } from './public-reads.ts';

// One plain file name: no separators, no leading dot, a known image type.
const IMAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}\.(png|jpe?g|webp|svg)$/;
const IMAGE_CACHE = { maxAge: '1d', immutable: false, dotfiles: 'deny' as const, fallthrough: false };
const IMAGE_CACHE_CONTROL = 'public, max-age=86400';

const PUBLIC = { kind: 'public' } as const;
const NOT_AN_OBJECT = 'Send the booking as a JSON object (Content-Type: application/json).';

/**
 * The terms a client's booking is made under, from the address it came from (req.ip: the socket's
 * unless TRUST_PROXY names the proxy in front): the hold's length, the token's secret, the hold limits
 * and the keyed hash of the address they count. POST /confirm-booking and "Book the same time next
 * week" (POST /api/manage/{token}/book-again) book under the same.
 */
export function publicBookingOptions(deps: AppDeps): (address: string) => CreateBookingOptions {
  const addressHash = clientAddressHasher(deps.config.jwtSecret);
  return (address) => ({
    paymentHoldMinutes: deps.config.paymentHoldMinutes,
    tokenSecret: deps.config.jwtSecret,
    logger: deps.logger,
    holds: deps.config.holds,
    // IPv6 by its /64, which one client can rotate through.
    clientAddressHash: addressHash(addressKey(address)),
  });
}

/** A photo the centre uploaded (the database), else the shipped one of that name, else 404. */
async function sendImage(req: Request, res: Response, next: NextFunction, deps: AppDeps, folder: 'therapists' | 'locations', name: string): Promise<void> {
  if (!IMAGE_NAME.test(name)) return next(new AppError('not_found', 'Image not found.'));
  const stored = await storedPhoto(deps.db, folder, name);
  if (stored) {
    res.set({ 'Content-Type': stored.contentType, 'Cache-Control': IMAGE_CACHE_CONTROL, ETag: stored.etag });
    if (req.fresh) return void res.status(304).end();
    return void res.send(stored.content);
  }
  res.sendFile(name, { ...IMAGE_CACHE, root: path.join(deps.imagesDir ?? SHIPPED_IMAGES_DIR, folder) }, (err) => {
    if (err) next(new AppError('not_found', 'Image not found.'));
  });
}

export function publicRoutes(deps: AppDeps): Router {
  const r = Router();
  const bookingOptions = publicBookingOptions(deps);
  addPublicReads(r, deps);

  // A public booking, checked and written by the booking service, with the caller's admin session if
  // it has one, under the terms of its address (publicBookingOptions). Its body is read by
  // express.json, as every route's is.
  r.post('/confirm-booking', async (req, res, next) => {
    // A manual booking is the admin router's, further down the app.
    if (isManualBookingPayload(req.body)) return next('router');
    const input = parseOr400(bookingCreateSchema, req.body, NOT_AN_OBJECT);
    // Without an Authorization header there is no session to look up (and no promise to wait for).
    const actor = (req.headers.authorization !== undefined && (await deps.authenticateAdmin?.(req))) || PUBLIC;
    const created = await createBooking(deps.db, input, actor, deps.now(), bookingOptions(req.ip ?? req.socket.remoteAddress ?? 'unknown'));
    // Read-your-writes here; other processes drop it when the announcement reaches them.
    deps.readCache.changed(`therapist:${input.therapist_id}`);
    // The answer holds the client's booking token: no cache, shared or the browser's, may keep it.
    res.set('Cache-Control', 'no-store').json(created);
  });

  r.get('/get_location_image/:file', async (req, res, next) => {
    const m = /^(\d{1,6})\.png$/.exec(req.params.file);
    if (!m) return next(new AppError('not_found', 'Image not found.'));
    await sendImage(req, res, next, deps, 'locations', `${Number(m[1])}.png`);
  });
  r.get('/get_specific_image/*image', async (req, res, next) => {
    const segments = (req.params as { image?: string[] }).image ?? [];
    if (segments.length !== 1) return next(new AppError('not_found', 'Image not found.'));
    await sendImage(req, res, next, deps, 'therapists', segments[0]!);
  });
  return r;
}
