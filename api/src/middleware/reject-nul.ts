import type { RequestHandler } from 'express';
import { AppError } from '../../../shared/core/errors.ts';

export const NUL_MESSAGE = 'The request contains a character that is not allowed (NUL or a broken UTF-16 surrogate).';

/** U+0000, or half of a surrogate pair (JSON's "\ud800"): PostgreSQL's text and jsonb take neither. */
const unstorable = (s: string) => s.includes('\u0000') || !s.isWellFormed();

/**
 * Whether any string in `value` (keys included) holds a character PostgreSQL cannot store. Iterative:
 * a 32 kB JSON body can nest thousands of levels deep, more than the call stack would take.
 */
export function holdsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (unstorable(v)) return true;
    } else if (Array.isArray(v)) {
      pending.push(...v);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      // for…in, not Object.entries: an array of pairs per object was most of a booking's check.
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        if (unstorable(key)) return true;
        pending.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * PostgreSQL's text cannot hold U+0000 ("invalid byte sequence for encoding UTF8: 0x00"), so a NUL
 * that reached a query failed it as a 500, and no field of this API has a use for one. Refused here,
 * once, for every route (admin calls and the sign-in form too) over the parsed body (JSON or form),
 * the query and the path, so no route's schema has to remember it. The webhook's raw body (a Buffer) is its
 * signature's business and is left as sent.
 */
export const rejectNul: RequestHandler = (req, _res, next) => {
  // Node's HTTP parser refuses a raw NUL in the request line, so in the path or the query it can only
  // arrive as %00: looking for that spares parsing the query here.
  if (req.url.includes('%00') || holdsNul(req.body)) {
    return next(new AppError('validation', NUL_MESSAGE));
  }
  next();
};
