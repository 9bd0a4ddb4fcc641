import path from 'node:path';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { SHIPPED_IMAGES_DIR } from '../../../shared/core/images.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { storedPhoto } from '../../../shared/core/services/photo.service.ts';
import type { AppDeps } from '../deps.ts';
import { isManualBookingPayload } from './admin.routes.ts';
import { BOOKING_ANSWER_CACHE_CONTROL, publicBooking } from './public-booking.ts';
import { addPublicReads } from './public-reads.ts';

// One plain file name: no separators, no leading dot, a known image type.
const IMAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}\.(png|jpe?g|webp|svg)$/;
const IMAGE_CACHE = { maxAge: '1d', immutable: false, dotfiles: 'deny' as const, fallthrough: false };
const IMAGE_CACHE_CONTROL = 'public, max-age=86400';

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
  const book = publicBooking(deps);
  addPublicReads(r, deps);

  r.post('/confirm-booking', async (req, res, next) => {
    // A manual booking is the admin router's, further down the app.
    if (isManualBookingPayload(req.body)) return next('router');
    const answer = await book(req, req.body, req.ip ?? req.socket.remoteAddress ?? 'unknown');
    res.set('Cache-Control', BOOKING_ANSWER_CACHE_CONTROL).json(answer);
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
