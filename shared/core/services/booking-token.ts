import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The booking token: the one secret that proves a caller is the client who made a booking, handed to
 * that client in the answer of POST /confirm-booking; the database keeps only its SHA-256, so neither
 * a leaked backup nor an admin screen can reveal it. 256 bits keyed on the server's secret and the
 * booking's idempotency key (unique per booking), so a retried request that finds its booking answers
 * the very token the lost answer carried: duplicates all hold a working token, and nobody can swap the
 * client's token for another.
 */
export function bookingTokenFor(secret: string, transactionId: string): { token: string; hash: string } {
  const key = createHmac('sha256', secret).update('booking-token').digest();
  const token = createHmac('sha256', key).update(transactionId, 'utf8').digest('base64url');
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
  const token = createHmac('sha256', manageKey(secret)).update(String(bookingId), 'utf8').digest('base64url');
  return { token, hash: hashBookingToken(token) };
}

function manageKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('manage-booking-token').digest();
}

/**
 * The manage token's HMAC key as RFC 2104's inner and outer padded keys (hex), so the booking insert can
 * derive the token's hash in SQL from the id it has just drawn, with PostgreSQL's own sha256():
 * sha256(outer || sha256(inner || id)) is HMAC-SHA256(key, id). The batch statement cannot know an id
 * before it runs, and the hash belongs in the statement that writes the booking.
 */
export function manageTokenPads(secret: string): { inner: string; outer: string } {
  const key = Buffer.alloc(64);
  manageKey(secret).copy(key);
  const xor = (byte: number) => Buffer.from(key.map((b) => b ^ byte)).toString('hex');
  return { inner: xor(0x36), outer: xor(0x5c) };
}

/**
 * The SQL expression of a booking's manage_token_hash from its id, given the pads of manageTokenPads as
 * hex text expressions: the base64url of the HMAC (PostgreSQL's base64 padded and without line breaks
 * for 32 bytes), then its SHA-256 in hex, as hashBookingToken.
 */
export function manageTokenHashSql(id: string, inner: string, outer: string): string {
  const mac = `sha256(decode(${outer}, 'hex') || sha256(decode(${inner}, 'hex') || convert_to((${id})::text, 'UTF8')))`;
  const token = `rtrim(translate(encode(${mac}, 'base64'), '+/', '-_'), '=')`;
  return `encode(sha256(convert_to(${token}, 'UTF8')), 'hex')`;
}

/** The client's private Manage booking address. */
export function manageUrlFor(publicBaseUrl: string, secret: string, bookingId: number): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/manage-booking?token=${manageTokenFor(secret, bookingId).token}`;
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
  const key = createHmac('sha256', secret).update('client-address-hash').digest();
  return (address) => createHmac('sha256', key).update(address).digest('base64url');
}
