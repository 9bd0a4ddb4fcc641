/**
 * Uploaded photos: decoded and re-encoded on the server (sharp), never stored as sent, so a file that
 * only claims to be an image (or carries metadata such as a phone's GPS position) never reaches a page.
 * They are stored in PostgreSQL (the photos table), never under the source tree.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { default as SharpFn, Sharp } from 'sharp';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { findPhoto } from '../repositories/photo.repository.ts';

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

/**
 * A photo as the routes send it: its bytes, type and ETag; from the database (what the centre uploaded)
 * or, for the demo centre's photos that ship with the code, undefined here and read from the shipped
 * folder by the route.
 */
export type StoredPhoto = { content: Buffer; contentType: string; etag: string };

/** The stored photo under `folder/name`, if the centre uploaded one there. */
export async function storedPhoto(db: Db, folder: 'therapists' | 'locations', name: string): Promise<StoredPhoto | undefined> {
  const row = await findPhoto(db, photoKey(folder, name));
  return row && { content: row.content, contentType: row.contentType, etag: `"${row.etag}"` };
}

/** A re-encoded photo ready to store: its key's type and a hash of its bytes for the ETag. */
export function photoRecord(key: string, content: Buffer): { key: string; content: Buffer; contentType: string; etag: string } {
  const contentType = key.endsWith('.png') ? 'image/png' : 'image/webp';
  return { key, content, contentType, etag: createHash('sha256').update(content).digest('base64url').slice(0, 27) };
}

export function photoKey(folder: 'therapists' | 'locations', name: string): string {
  return `${folder}/${name}`;
}

/** A fresh file name for a therapist's uploaded photo (a new name, so no browser keeps the old one). */
export function therapistPhotoName(therapistId: number): string {
  return `upload-${therapistId}-${randomBytes(6).toString('hex')}.webp`;
}
