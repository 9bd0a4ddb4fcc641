import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, type NextFunction, type Response } from 'express';
import { z } from 'zod';
import { bookingCreateSchema } from '../../../shared/contract/booking.ts';
import { centreNow } from '../../../shared/domain/time.ts';
import { AppError } from '../../../shared/core/errors.ts';
import {
  listAvailability,
  listBookedSlots,
  listLocations,
  listServices,
  listTherapists,
} from '../../../shared/core/repositories/catalog.repository.ts';
import { createBooking } from '../../../shared/core/services/booking.service.ts';
import { slotOfferFor } from '../../../shared/core/services/slot-offer.service.ts';
import type { AppDeps } from '../app.ts';
import { parseOr400 } from '../middleware/validate.ts';
import { isManualBookingPayload } from './admin.routes.ts';

export const IMAGES_DIR = fileURLToPath(new URL('../../images/', import.meta.url));

const therapistIdQuery = z.strictObject({
  therapist_id: z
    .string({ error: 'therapist_id is required' })
    .regex(/^\d{1,9}$/, { error: 'therapist_id must be a positive whole number' })
    .transform(Number)
    .refine((n) => n > 0, { error: 'therapist_id must be a positive whole number' }),
});
const optionalTherapistIdQuery = therapistIdQuery.partial();

// One plain file name: no separators, no leading dot, a known image type.
const IMAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}\.(png|jpe?g|webp|svg)$/;
const IMAGE_CACHE = { maxAge: '1d', immutable: false, dotfiles: 'deny' as const, fallthrough: false };

function sendImage(res: Response, next: NextFunction, folder: string, name: string): void {
  if (!IMAGE_NAME.test(name)) return next(new AppError('not_found', 'Image not found.'));
  res.sendFile(name, { ...IMAGE_CACHE, root: path.join(IMAGES_DIR, folder) }, (err) => {
    if (err) next(new AppError('not_found', 'Image not found.'));
  });
}

export function publicRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const r = Router();

  /** Answers a read call, from the process cache when one is listening for changes. */
  async function sendRead(res: Response, key: string, tag: string, stamp: string, compute: () => Promise<unknown>): Promise<void> {
    if (!deps.readCache) {
      res.json(await compute());
      return;
    }
    const { body, etag } = await deps.readCache.json(key, tag, stamp, compute);
    if (etag) res.setHeader('ETag', etag);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.send(body);
  }

  r.get('/locations', async (_req, res) => {
    await sendRead(res, 'locations', 'all', '', () => listLocations(db));
  });
  r.get('/services', async (_req, res) => {
    await sendRead(res, 'services', 'all', '', () => listServices(db));
  });
  r.get('/therapists', async (_req, res) => {
    await sendRead(res, 'therapists', 'all', '', () => listTherapists(db));
  });
  r.get('/availability-slots', async (req, res) => {
    const { therapist_id: id } = parseOr400(optionalTherapistIdQuery, req.query);
    await sendRead(res, `availability:${id ?? '*'}`, id ? `therapist:${id}` : 'all', '', () => listAvailability(db, id));
  });
  r.get('/booked-slots', async (req, res) => {
    const { therapist_id: id } = parseOr400(therapistIdQuery, req.query);
    const today = centreNow(deps.now()).date;
    await sendRead(res, `booked:${id}`, `therapist:${id}`, today, () => listBookedSlots(db, id, today));
  });
  r.get('/api/slots', async (req, res) => {
    const { therapist_id: id } = parseOr400(therapistIdQuery, req.query);
    const now = deps.now();
    const { date, time } = centreNow(now);
    // The offer changes when a booking changes and when a slot's start passes: stamp it by the minute.
    await sendRead(res, `offer:${id}`, `therapist:${id}`, `${date} ${time}`, () => slotOfferFor(db, id, now));
  });
  r.post('/confirm-booking', async (req, res, next) => {
    // A manual booking is the admin router's, further down the app.
    if (isManualBookingPayload(req.body)) return next('router');
    const input = parseOr400(bookingCreateSchema, req.body, 'Send the booking as a JSON object (Content-Type: application/json).');
    const actor = (await deps.authenticateAdmin?.(req)) ?? { kind: 'public' as const };
    const created = await createBooking(db, input, actor, deps.now(), { paymentHoldMinutes: deps.config.paymentHoldMinutes, logger: deps.logger });
    // Read-your-writes here; other processes drop it when the announcement reaches them.
    deps.readCache?.changed(`therapist:${input.therapist_id}`);
    res.json(created);
  });

  r.get('/get_location_image/:file', (req, res, next) => {
    const m = /^(\d{1,6})\.png$/.exec(req.params.file);
    if (!m) return next(new AppError('not_found', 'Image not found.'));
    sendImage(res, next, 'locations', `${Number(m[1])}.png`);
  });
  r.get('/get_specific_image/*image', (req, res, next) => {
    const segments = (req.params as { image?: string[] }).image ?? [];
    if (segments.length !== 1) return next(new AppError('not_found', 'Image not found.'));
    sendImage(res, next, 'therapists', segments[0]!);
  });
  return r;
}
