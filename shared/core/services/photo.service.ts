/**
 * Uploaded photos: decoded and re-encoded on the server (sharp), never stored as sent, so a file that
 * only claims to be an image (or carries metadata such as a phone's GPS position) never reaches a page.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { default as SharpFn, Sharp } from 'sharp';
import { AppError } from '../errors.ts';

export const PHOTO_MAX_BYTES = 2 * 1024 * 1024;
const ACCEPTED = new Set(['png', 'jpeg', 'webp']);
export const PHOTO_TYPES_MESSAGE = 'Send a PNG, JPEG or WebP image.';

/**
 * sharp, loaded the first time a photo arrives: libvips is 7 MB of resident code and data in a process
 * that may never see a photo (the API starts about 10 MB smaller without it; README, Performance).
 */
let sharpLoaded: Promise<typeof SharpFn> | undefined;
const loadSharp = () => (sharpLoaded ??= import('sharp').then((m) => m.default));

/** Decodes `input` (PNG, JPEG or WebP only) and re-encodes it at `width`×`height`, cropped to fill. */
export async function reencodePhoto(input: Buffer, size: { width: number; height: number }, format: 'webp' | 'png'): Promise<Buffer> {
  if (input.length === 0) throw new AppError('unsupported_media_type', PHOTO_TYPES_MESSAGE);
  if (input.length > PHOTO_MAX_BYTES) throw new AppError('payload_too_large', 'The photo must be at most 2 MB.');
  const sharp = await loadSharp();
  try {
    const image: Sharp = sharp(input, { failOn: 'error', limitInputPixels: 40_000_000, animated: false });
    const meta = await image.metadata();
    if (!meta.format || !ACCEPTED.has(meta.format)) throw new AppError('unsupported_media_type', PHOTO_TYPES_MESSAGE);
    const resized = image.rotate().resize(size.width, size.height, { fit: 'cover', position: 'attention' });
    return await (format === 'webp' ? resized.webp({ quality: 82 }) : resized.png({ compressionLevel: 9 })).toBuffer();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('unsupported_media_type', `The file could not be read as an image. ${PHOTO_TYPES_MESSAGE}`);
  }
}

/** Writes a file whole or not at all: a temp file in the same folder, then renamed over the name. */
export async function writeAtomically(dir: string, name: string, data: Buffer): Promise<void> {
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, data);
    await rename(temp, path.join(dir, name));
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}

/** A fresh file name for a therapist's uploaded photo (a new name, so no browser keeps the old one). */
export function therapistPhotoName(therapistId: number): string {
  return `upload-${therapistId}-${randomBytes(6).toString('hex')}.webp`;
}
