import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The booking token: the one secret that proves a caller is the client who made a booking. 256 random
 * bits, handed to that client once (the answer of POST /confirm-booking); the database keeps only its
 * SHA-256, so neither a leaked backup nor an admin screen can reveal it.
 */
export function newBookingToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
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
 * The per-address hold limit needs to recognise an address, not to know it: a keyed hash (the key
 * derived from the server's signing secret) that an IPv4 brute force over the table cannot reverse.
 */
export function clientAddressHasher(secret: string): (address: string) => string {
  const key = createHmac('sha256', secret).update('client-address-hash').digest();
  return (address) => createHmac('sha256', key).update(address).digest('base64url');
}
