import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, type NextFunction, type Response } from 'express';
import { AppError } from '../../../shared/core/errors.ts';
import type { AppDeps } from '../deps.ts';
import { isManualBookingPayload } from './admin.routes.ts';
import { BOOKING_ANSWER_CACHE_CONTROL, publicBooking } from './public-booking.ts';
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
  const r = Router();
  const book = publicBooking(deps);
  addPublicReads(r, deps);

  r.post('/confirm-booking', async (req, res, next) => {
    // A manual booking is the admin router's, further down the app.
    if (isManualBookingPayload(req.body)) return next('router');
    const answer = await book(req, req.body, req.ip ?? req.socket.remoteAddress ?? 'unknown');
    res.set('Cache-Control', BOOKING_ANSWER_CACHE_CONTROL).json(answer);
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
