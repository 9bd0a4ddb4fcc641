import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { type AccessLog, accessLogOf, type Logger } from '../../../shared/core/logger.ts';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id: the caller's X-Request-Id when well formed, else a new UUID. */
    id: string;
    /** The process logger bound to this request's id, method and path. */
    log: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The header that carries the request id, the caller's and the answer's. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** The request's id: the caller's X-Request-Id when well formed, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Logs one line when the response is done: error for 5xx, warn for 4xx, info otherwise; a request the
 * client abandoned is logged as aborted. The query string and secret path segments never reach the log. A response emits
 * 'close' both after it finished and when its connection went first, so one listener tells both.
 */
export function logWhenDone(
  access: AccessLog,
  req: IncomingMessage & { originalUrl?: string },
  res: ServerResponse,
  id: string,
  started: number,
  path = loggedPath(req.originalUrl ?? req.url ?? ''),
  /** The route's template when the caller knows it (the cached read's own path); else Express's matched route. */
  route?: string,
): void {
  // 'on', not 'once': a response emits 'close' once (Node's emitCloseNT), and once's wrapper cost a
  // cached read more than the listener.
  res.on('close', () => {
    const status = res.statusCode;
    const completed = res.writableFinished;
    const level = !completed ? 'warn' : status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    const ms = performance.now() - started;
    access.write(level, { id, method: req.method ?? '', url: path, status, responseTime: Math.round(ms), completed });
    access.observe?.(req.method ?? '', route ?? routeTemplate(req), status, ms / 1000);
  });
}

/**
 * The route a request matched, as its template (`/api/admin/bookings/:id/cancel`): never the path a
 * caller typed, which would make one time series per booking id or token. Anything no route took (the
 * site's files, a 404) is one label.
 */
function routeTemplate(req: IncomingMessage & { route?: { path?: unknown }; baseUrl?: string }): string {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : '(no route)';
}

/**
 * A secret in a path: the client's Manage booking token (/api/manage/{token}) and any other capability
 * carried in a path, wherever it stands (`/api/manage/{token}.`, `{token}%20`, `{token}.ics`): any run
 * of 32+ URL-safe characters, which no route's ordinary segment has.
 */
const TOKEN_RUN = /[A-Za-z0-9_-]{32,}/g;
const HAS_TOKEN_RUN = /[A-Za-z0-9_-]{32,}/;

/**
 * The path as logged: no query string, and no secret. A token written with percent-escapes is still
 * one to the router, so an escaped path whose decoded form holds a run is logged decoded, redacted.
 */
export function loggedPath(url: string): string {
  const path = (url.split('?')[0] ?? '').replace(TOKEN_RUN, '[token]');
  if (!path.includes('%')) return path;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return path;
  }
  return HAS_TOKEN_RUN.test(decoded) ? decoded.replace(TOKEN_RUN, '[token]') : path;
}

// Express's originalUrl is the URL before a router trimmed its mount path.
const requestFields = (req: IncomingMessage & { originalUrl?: string }, id: string) => ({
  req: { id, method: req.method, url: loggedPath(req.originalUrl ?? req.url ?? '') },
});

/**
 * Tags each request with an id (echoed as X-Request-Id), gives it `req.log` and logs it when done
 * (logWhenDone). `req.log` is created on first use: pino-http made a child logger per request and ran
 * the PII redaction over it even when nothing was written, a third of a cheap request's cost.
 */
export function requestLog(logger: Logger): RequestHandler {
  const access = accessLogOf(logger);
  return (req, res, next) => {
    const id = requestIdOf(req);
    res.setHeader(REQUEST_ID_HEADER, id);
    req.id = id;
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { configurable: true, enumerable: false, get: () => (child ??= logger.child(requestFields(req, id))) });
    logWhenDone(access, req, res, id, performance.now());
    next();
  };
}
