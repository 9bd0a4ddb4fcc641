import { createHash, createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * The key derived from the server's secret for one purpose, worked out once per secret and label. As a
 * KeyObject: createHmac with a Buffer key prepares a key object per call, which cost a public booking
 * 13 µs per HMAC (two of them) against 2 with the KeyObject (docs/performance.md).
 */
const derivedKeys = new Map<string, KeyObject>();
function derivedKey(secret: string, label: string): KeyObject {
  const id = `${label}\0${secret}`;
  let key = derivedKeys.get(id);
  if (!key) derivedKeys.set(id, (key = createSecretKey(createHmac('sha256', secret).update(label).digest())));
  return key;
}

/**
 * The booking token: the one secret that proves a caller is the client who made a booking, handed to
 * that client in the answer of POST /confirm-booking; the database keeps only its SHA-256, so neither
 * a leaked backup nor an admin screen can reveal it. 256 bits keyed on the server's secret and the
 * booking's idempotency key (unique per booking), so a retried request that finds its booking answers
 * the very token the lost answer carried: duplicates all hold a working token, and nobody can swap the
 * client's token for another.
 */
export function bookingTokenFor(secret: string, transactionId: string): { token: string; hash: string } {
  const token = createHmac('sha256', derivedKey(secret, 'booking-token')).update(transactionId, 'utf8').digest('base64url');
  return { token, hash: hashBookingToken(token) };
}

export function hashBookingToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether `token` is the one whose hash the booking keeps; the comparison takes the same time either way. */
export function bookingTokenMatches(token: unknown, storedHash: string | null | undefined): boolean {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token) || !storedHash) return false;
  const given = Buffer.from(hashBookingToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * The Manage booking token (issue 21): the private link in the client's e-mails and on the payment
 * page. 256 bits keyed on the server's secret and the booking's id, so the worker can put the same link
 * in every message without anyone storing it; the database keeps only its SHA-256 (`manage_token_hash`,
 * unique). Its own derivation label, so it never equals a booking token.
 */
export function manageTokenFor(secret: string, bookingId: number): { token: string; hash: string } {
  const token = createHmac('sha256', derivedKey(secret, 'manage-booking-token')).update(String(bookingId), 'utf8').digest('base64url');
  return { token, hash: hashBookingToken(token) };
}

/** The client's private Manage booking address. */
export function manageUrlFor(publicBaseUrl: string, secret: string, bookingId: number): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/manage-booking?token=${manageTokenFor(secret, bookingId).token}`;
}

/**
 * A package sale's private token (issue 34): the client's link to their package, by which the wizard
 * recognises them (never by e-mail alone). Keyed on the server's secret and the sale's id, its own
 * label, so the worker puts the same link in every e-mail; the database keeps only its SHA-256.
 */
export function packageTokenFor(secret: string, saleId: number): { token: string; hash: string } {
  const token = createHmac('sha256', derivedKey(secret, 'package-sale-token')).update(String(saleId), 'utf8').digest('base64url');
  return { token, hash: hashBookingToken(token) };
}

/** The client's private package address. */
export function packageUrlFor(publicBaseUrl: string, secret: string, saleId: number): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/my-package?token=${packageTokenFor(secret, saleId).token}`;
}

/** Whether a string has the shape of a token at all (43 base64url characters), before any lookup. */
export function isTokenShaped(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_SHAPE.test(token);
}

/**
 * The per-address hold limit needs to recognise an address, not to know it: a keyed hash (the key
 * derived from the server's signing secret) that an IPv4 brute force over the table cannot reverse.
 */
export function clientAddressHasher(secret: string): (address: string) => string {
  const key = derivedKey(secret, 'client-address-hash');
  return (address) => createHmac('sha256', key).update(address).digest('base64url');
}

/**
 * A waitlist entry's private link token (issue 34): 256 bits keyed on the server's secret and the
 * entry's id, so the worker puts the same link in every e-mail without anyone storing it; the database
 * keeps only its SHA-256 (waitlist_entries.token_hash, unique). Its own derivation label.
 */
export function waitlistTokenFor(secret: string, entryId: number): { token: string; hash: string } {
  const token = createHmac('sha256', derivedKey(secret, 'waitlist-token')).update(String(entryId), 'utf8').digest('base64url');
  return { token, hash: hashBookingToken(token) };
}

/** The client's private waitlist address: their place on the list, the slot held for them, claim and leave. */
export function waitlistUrlFor(publicBaseUrl: string, secret: string, entryId: number): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/waitlist?token=${waitlistTokenFor(secret, entryId).token}`;
}
