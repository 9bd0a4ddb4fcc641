import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { centreNow } from '../../../shared/domain/time.ts';
import type { Db } from '../../../shared/core/db/client.ts';
import { listAvailability, listBookedSlots, listLocations, listServices, listTherapists } from '../../../shared/core/services/public-catalogue.service.ts';
import type { CachedEntry, ReadCache } from '../../../shared/core/services/read-cache.service.ts';
import { accessLogOf } from '../../../shared/core/logger.ts';
import { slotOfferFor } from '../../../shared/core/services/slot-offer.service.ts';
import type { AppDeps } from '../deps.ts';
import { readAnswerHead, readHeaders } from '../http/answer-head.ts';
import type { Encoding } from '../../../shared/core/precompress.ts';
import { chooseEncoding, encodedBody } from '../http/compress.ts';
import { logWhenDone, requestIdOf } from '../middleware/request-log.ts';
import { SECURITY_POLICY } from '../middleware/security-headers.ts';
import { parseOr400 } from '../middleware/validate.ts';

const therapistIdQuery = z.strictObject({
  therapist_id: z
    .string({ error: 'therapist_id is required' })
    .regex(/^\d{1,9}$/, { error: 'therapist_id must be a positive whole number' })
    .transform(Number)
    .refine((n) => n > 0, { error: 'therapist_id must be a positive whole number' }),
});
const optionalTherapistIdQuery = therapistIdQuery.partial();

type CacheEntry = { key: string; tag: string; stamp: string };

/** A public read call: what it answers, and under which cache key, tag and stamp. */
type PublicRead = {
  /** Whether it takes ?therapist_id=. */
  therapist: 'none' | 'optional' | 'required';
  entry: (id: number | undefined, now: Date) => CacheEntry;
  compute: (db: Db, id: number | undefined, now: Date) => Promise<unknown>;
};

const READS = new Map<string, PublicRead>(
  Object.entries({
    '/locations': { therapist: 'none', entry: () => ({ key: 'locations', tag: 'all', stamp: '' }), compute: (db) => listLocations(db) },
    '/services': { therapist: 'none', entry: () => ({ key: 'services', tag: 'all', stamp: '' }), compute: (db) => listServices(db) },
    '/therapists': { therapist: 'none', entry: () => ({ key: 'therapists', tag: 'all', stamp: '' }), compute: (db) => listTherapists(db) },
    '/availability-slots': {
      therapist: 'optional',
      entry: (id) => ({ key: `availability:${id ?? '*'}`, tag: id ? `therapist:${id}` : 'all', stamp: '' }),
      compute: (db, id) => listAvailability(db, id),
    },
    '/booked-slots': {
      therapist: 'required',
      entry: (id, now) => ({ key: `booked:${id}`, tag: `therapist:${id}`, stamp: centreNow(now).date }),
      compute: (db, id, now) => listBookedSlots(db, id!, centreNow(now).date),
    },
    '/api/slots': {
      therapist: 'required',
      // The offer changes when a booking changes and when a slot's start passes: stamp it by the minute.
      entry: (id, now) => {
        const { date, time } = centreNow(now);
        return { key: `offer:${id}`, tag: `therapist:${id}`, stamp: `${date} ${time}` };
      },
      compute: (db, id, now) => slotOfferFor(db, id!, now),
    },
  } satisfies Record<string, PublicRead>),
);

/**
 * The bytes of an entry for a request, and their encoding: compressed when the client accepts it and
 * the entry is large enough (encodedBody), else as they are. Both ways a read leaves choose them here,
 * so both send the same bytes and headers.
 */
function answerOf(entry: CachedEntry, acceptEncoding: string | string[] | undefined): { body: Buffer; encoding: Encoding | undefined } {
  const encoding = chooseEncoding(acceptEncoding);
  const encoded = encodedBody(entry, encoding);
  return encoded ? { body: encoded, encoding } : { body: entry.body, encoding: undefined };
}

/**
 * Adds the public read calls to a router, validated and answered through the process cache when one
 * is listening. Added to the caller's router rather than nested in one of their own: a request that
 * passes through a router without a match waits a setImmediate turn.
 */
export function addPublicReads(r: Router, deps: AppDeps): void {
  async function send(req: Request, res: Response, read: PublicRead, id: number | undefined): Promise<void> {
    const now = deps.now();
    const compute = () => read.compute(deps.db, id, now);
    const { key, tag, stamp } = read.entry(id, now);
    const entry = await deps.readCache.json(key, tag, stamp, compute);
    // Compressed here, so the compression middleware passes an answer that already has its encoding.
    const { body, encoding } = answerOf(entry, req.headers['accept-encoding']);
    for (const [name, value] of readHeaders(entry.etag, encoding)) res.setHeader(name, value);
    res.send(body);
  }
  for (const [path, read] of READS) {
    const schema = read.therapist === 'required' ? therapistIdQuery : read.therapist === 'optional' ? optionalTherapistIdQuery : undefined;
    r.get(path, async (req, res) => {
      await send(req, res, read, schema ? parseOr400(schema, req.query).therapist_id : undefined);
    });
  }
}

const THERAPIST_QUERY = /^therapist_id=([1-9]\d{0,8})$/;

/**
 * Answers a public read straight from the process cache, before Express handles the request (app.ts,
 * answerEarly), so ahead of its routers, body parsers and res.send: through them a cached slot offer
 * cost three times as much, and their garbage (26 KB a request against 13) set its p99 (README,
 * Performance). It answers only a GET whose URL is a read's
 * canonical form, whose entry is cached and current, and that asks no If-None-Match; anything else
 * goes on to the routes addPublicReads adds, which validate and answer it in full. Its headers are the
 * route's, from the same builder (readAnswerHead); its id and log line are the ones requestLog gives
 * every other answer.
 */
export function cachedPublicReads(
  readCache: ReadCache,
  deps: Pick<AppDeps, 'logger' | 'now'>,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const access = accessLogOf(deps.logger);
  const { removed, head } = readAnswerHead(SECURITY_POLICY);
  return (req, res, next) => {
    if (req.method !== 'GET' || req.headers['if-none-match'] !== undefined) return next();
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const read = READS.get(path);
    if (!read) return next();
    let id: number | undefined;
    if (q !== -1) {
      const m = read.therapist === 'none' ? null : THERAPIST_QUERY.exec(url.slice(q + 1));
      if (!m) return next();
      id = Number(m[1]);
    } else if (read.therapist === 'required') {
      return next();
    }
    const { key, stamp } = read.entry(id, deps.now());
    const hit = readCache.peek(key, stamp);
    if (!hit) return next();
    const started = performance.now();
    const requestId = requestIdOf(req);
    for (const name of removed) res.removeHeader(name);
    const { body, encoding } = answerOf(hit, req.headers['accept-encoding']);
    res.writeHead(200, head(requestId, hit.etag, encoding, body.length));
    // The path is a read's own, so it is the logged path (loggedPath) as it stands.
    logWhenDone(access, req, res, requestId, started, path, path);
    res.end(body);
  };
}
