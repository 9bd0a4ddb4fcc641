import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { type BookingCreateResponse, bookingCreateSchema } from '../../../shared/contract/booking.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { addressKey } from '../../../shared/core/services/auth.service.ts';
import { createBooking, type CreateBookingOptions } from '../../../shared/core/services/booking.service.ts';
import { clientAddressHasher } from '../../../shared/core/services/booking-token.ts';
import type { AppDeps } from '../deps.ts';
import { NUL_MESSAGE, holdsNul } from '../middleware/reject-nul.ts';
import { accessLogOf } from '../../../shared/core/logger.ts';
import { handingOn, tagEarly } from '../middleware/request-log.ts';
import { SECURITY_POLICY, securityHeaderList, securityHeaderSetter } from '../middleware/security-headers.ts';
import { parseOr400 } from '../middleware/validate.ts';
import { isManualBookingPayload } from './admin.routes.ts';

/** A booking's answer holds the client's booking token: no cache, shared or the browser's, may keep it. */
export const BOOKING_ANSWER_CACHE_CONTROL = 'no-store';

/** The JSON body limit of the app's parser (express.json), which the early answer keeps too. */
export const BOOKING_BODY_LIMIT = 32 * 1024;
const PUBLIC = { kind: 'public' } as const;
const NOT_AN_OBJECT = 'Send the booking as a JSON object (Content-Type: application/json).';

/**
 * The terms a client's booking is made under, from the address it came from: the hold's length, the
 * token's secret, the hold limits and the keyed hash of the address they count. POST /confirm-booking
 * and "Book the same time next week" (POST /api/manage/{token}/book-again) book under the same.
 */
export function publicBookingOptions(deps: AppDeps): (address: string) => CreateBookingOptions {
  const addressHash = clientAddressHasher(deps.config.jwtSecret);
  return (address) => ({
    paymentHoldMinutes: deps.config.paymentHoldMinutes,
    tokenSecret: deps.config.jwtSecret,
    logger: deps.logger,
    holds: deps.config.holds,
    // IPv6 by its /64, which one client can rotate through.
    clientAddressHash: addressHash(addressKey(address)),
  });
}

/**
 * POST /confirm-booking for a public booking: the request's booking, checked and written by the
 * booking service, with the caller's admin session if it has one and the keyed hash of its address
 * (`address`: req.ip, the socket's unless TRUST_PROXY names the proxy in front) for the hold limits.
 * The route and the early answer both answer through this.
 */
export function publicBooking(deps: AppDeps): (req: IncomingMessage, body: unknown, address: string) => Promise<BookingCreateResponse> {
  const optionsFor = publicBookingOptions(deps);
  return async (req, body, address) => {
    const input = parseOr400(bookingCreateSchema, body, NOT_AN_OBJECT);
    // Without an Authorization header there is no session to look up (and no promise to wait for).
    const actor = (req.headers.authorization !== undefined && (await deps.authenticateAdmin?.(req))) || PUBLIC;
    const created = await createBooking(deps.db, input, actor, deps.now(), optionsFor(address));
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
function readBody(req: IncomingMessage, length: number): Promise<Buffer> {
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

const EARLY_ERROR = Symbol('early public booking error');
type EarlyRequest = IncomingMessage & { [EARLY_ERROR]?: unknown; body?: unknown };

/**
 * Answers a public booking ahead of Express, as cachedPublicReads answers a cached read: through
 * Express's router, body parsers and compression a booking cost the API about twice the CPU, and
 * through Express's app.handle and res.json a fifth more (the prototypes app.handle gives req and res,
 * the router's walk, a header set at a time, an ETag of the answer) than writing its answer with its
 * headers laid out once (docs/performance.md). It takes a POST /confirm-booking whose body reads as
 * plain JSON (readsAsPlainJson), tags and logs it as requestLog does and gives its answer
 * securityHeaders' headers and compression's Vary; the answer is the route's JSON, without the ETag
 * res.json adds (no cache keeps a POST's answer, nor asks again with If-None-Match). A refusal is handed
 * on to the app with its error, which earlyBookingErrors gives the error handler, as the route's are; a
 * manual booking (admin fields) is handed on with its body read, as body-parser leaves a body it parsed.
 * `address` is the client's address as Express's req.ip reads it. Tests hold its answers equal to the
 * routes'.
 */
export function earlyPublicBooking(
  deps: AppDeps,
  address: (req: IncomingMessage) => string,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const book = publicBooking(deps);
  const access = accessLogOf(deps.logger);
  const setSecurityHeaders = securityHeaderSetter(SECURITY_POLICY);
  const { headers, removed } = securityHeaderList(SECURITY_POLICY);
  // no-store: the answer carries the client's booking token (BOOKING_ANSWER_CACHE_CONTROL, as the route).
  const head = [
    'x-request-id',
    '',
    ...headers.flat(),
    'Cache-Control',
    BOOKING_ANSWER_CACHE_CONTROL,
    'Content-Type',
    'application/json; charset=utf-8',
    'Vary',
    'Accept-Encoding',
    'Content-Length',
    '',
  ];
  return (req: EarlyRequest, res, next) => {
    if (req.method !== 'POST' || req.url !== '/confirm-booking' || !readsAsPlainJson(req.headers)) return next();
    const id = tagEarly(access, req, res, '/confirm-booking');
    const handOn = (err?: unknown) => {
      handingOn(deps.logger, req, res);
      setSecurityHeaders(res);
      res.setHeader('Vary', 'Accept-Encoding');
      if (err !== undefined) req[EARLY_ERROR] = err;
      next();
    };
    readBody(req, Number(req.headers['content-length']))
      .then(async (raw) => {
        // UTF-8 as body-parser decodes it, a leading byte order mark dropped.
        const decoded = raw.toString('utf8');
        const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
        if (!STRICT_START.test(text)) return handOn(parseFailed());
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return handOn(parseFailed());
        }
        req.body = body;
        if (holdsNul(body)) return handOn(new AppError('validation', NUL_MESSAGE));
        // The admin router's: the routes take it from here, with the body as body-parser would leave it.
        if (isManualBookingPayload(body)) return handOn();
        const answer = JSON.stringify(await book(req, body, address(req)));
        for (const name of removed) res.removeHeader(name);
        const answerHead = head.slice();
        answerHead[1] = id;
        answerHead[answerHead.length - 1] = String(Buffer.byteLength(answer));
        res.writeHead(200, answerHead);
        res.end(answer);
      })
      .catch((err: unknown) => handOn(err ?? new Error('the early public booking failed')));
  };
}

/**
 * The app's first middleware: an early public booking's refusal, handed on with the request, goes to
 * the error handler as the route's would.
 */
export const earlyBookingErrors: RequestHandler = (req, _res, next) => {
  const early = req as EarlyRequest;
  if (!(EARLY_ERROR in early)) return next();
  const err = early[EARLY_ERROR];
  delete early[EARLY_ERROR];
  next(err);
};
