import type { IncomingHttpHeaders } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { type BookingCreateResponse, bookingCreateSchema } from '../../../shared/contract/booking.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { addressKey } from '../../../shared/core/services/auth.service.ts';
import { createBooking } from '../../../shared/core/services/booking.service.ts';
import { clientAddressHasher } from '../../../shared/core/services/booking-token.ts';
import type { AppDeps } from '../deps.ts';
import { NUL_MESSAGE, holdsNul } from '../middleware/reject-nul.ts';
import { tagRequest } from '../middleware/request-log.ts';
import { SECURITY_POLICY, securityHeaderSetter } from '../middleware/security-headers.ts';
import { parseOr400 } from '../middleware/validate.ts';
import { isManualBookingPayload } from './admin.routes.ts';

/** The JSON body limit of the app's parser (express.json), which the early answer keeps too. */
export const BOOKING_BODY_LIMIT = 32 * 1024;
const NOT_AN_OBJECT = 'Send the booking as a JSON object (Content-Type: application/json).';

/**
 * POST /confirm-booking for a public booking: the request's booking, checked and written by the
 * booking service, with the caller's admin session if it has one and the keyed hash of its address
 * for the hold limits. The route and the early answer both answer through this.
 */
export function publicBooking(deps: AppDeps): (req: Request, body: unknown) => Promise<BookingCreateResponse> {
  const addressHash = clientAddressHasher(deps.config.jwtSecret);
  return async (req, body) => {
    const input = parseOr400(bookingCreateSchema, body, NOT_AN_OBJECT);
    const actor = (await deps.authenticateAdmin?.(req)) ?? { kind: 'public' as const };
    const created = await createBooking(deps.db, input, actor, deps.now(), {
      paymentHoldMinutes: deps.config.paymentHoldMinutes,
      tokenSecret: deps.config.jwtSecret,
      logger: deps.logger,
      holds: deps.config.holds,
      // req.ip is the socket's address unless TRUST_PROXY names the proxy in front; IPv6 by its /64,
      // which one client can rotate through.
      clientAddressHash: addressHash(addressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown')),
    });
    // Read-your-writes here; other processes drop it when the announcement reaches them.
    deps.readCache.changed(`therapist:${input.therapist_id}`);
    return created;
  };
}

const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * Whether the early answer reads this body as express.json would: declared JSON in UTF-8, its whole
 * length given and within the limit, not compressed. Anything else (chunked, gzip, another charset, a
 * form, too large) goes to the routes and their parsers, which answer it as they always have.
 */
function readsAsPlainJson(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  const length = headers['content-length'];
  const coding = headers['content-encoding'];
  if (type === undefined || !PLAIN_JSON.test(type) || length === undefined || headers['transfer-encoding'] !== undefined) return false;
  if (coding !== undefined && coding.toLowerCase() !== 'identity') return false;
  const n = Number(length);
  return Number.isInteger(n) && n > 0 && n <= BOOKING_BODY_LIMIT;
}

/** The body, whole (Node's parser holds the request to its Content-Length); a client that goes first is body-parser's 'request.aborted'. */
function readBody(req: Request, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.allocUnsafe(length);
    let at = 0;
    req.on('data', (chunk: Buffer) => {
      at += chunk.copy(body, at);
    });
    req.once('end', () => resolve(at === length ? body : body.subarray(0, at)));
    req.once('error', () => reject(Object.assign(new Error('request aborted'), { type: 'request.aborted' })));
  });
}

/** The error express.json gives a body that is not JSON (or, strict, not an object or array). */
const parseFailed = () => Object.assign(new SyntaxError('The request body is not valid JSON.'), { type: 'entity.parse.failed', status: 400, expose: true });
const STRICT_START = /^[ \t\n\r]*[{[]/;

/**
 * Answers a public booking ahead of Express's routers, body parsers and compression, as
 * cachedPublicReads answers a cached read: through them a booking cost the API about twice the CPU,
 * most of it the router's layers, raw-body's streams and the compression wrapper around an answer too
 * small to compress (docs/performance.md). It takes a POST /confirm-booking whose body reads as plain
 * JSON (readsAsPlainJson), tags and logs it as requestLog does and gives it securityHeaders' headers and
 * compression's Vary. Its answer is the route's own (publicBooking, res.json); a refusal goes to the
 * app's error handler, as the route's does. A manual booking (admin fields) is handed on to the routes
 * with its body already read, as body-parser leaves a body it parsed. Tests hold its answers equal to
 * the routes'.
 */
export function earlyPublicBooking(deps: AppDeps): RequestHandler {
  const book = publicBooking(deps);
  const setSecurityHeaders = securityHeaderSetter(SECURITY_POLICY);
  return (req, res, next) => {
    if (req.method !== 'POST' || req.url !== '/confirm-booking' || !readsAsPlainJson(req.headers)) return next();
    tagRequest(deps.logger, req, res);
    setSecurityHeaders(res);
    res.setHeader('Vary', 'Accept-Encoding');
    readBody(req, Number(req.headers['content-length']))
      .then(async (raw) => {
        // UTF-8 as body-parser decodes it, a leading byte order mark dropped.
        const decoded = raw.toString('utf8');
        const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
        if (!STRICT_START.test(text)) return next(parseFailed());
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return next(parseFailed());
        }
        req.body = body;
        if (holdsNul(body)) return next(new AppError('validation', NUL_MESSAGE));
        // The admin router's: the routes take it from here, with the body as body-parser would leave it.
        if (isManualBookingPayload(body)) return next();
        res.json(await book(req, body));
      })
      .catch(next);
  };
}
