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

/** The request's id: the caller's X-Request-Id when well formed, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
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
  /** The route's template when the caller knows it (an early answer's fixed path); else Express's matched route. */
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
 * Tags the request with an id (echoed as X-Request-Id), gives it `req.log` and logs it when done
 * (logWhenDone). `req.log` is created on first use: pino-http made a child logger per request and ran
 * the PII redaction over it even when nothing was written, a third of a cheap request's cost.
 */
export function tagRequest(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  const id = requestIdOf(req);
  res.setHeader('x-request-id', id);
  req.id = id;
  giveRequestLog(logger, req, id);
  logWhenDone(accessLogOf(logger), req, res, id, performance.now());
}

function giveRequestLog(logger: Logger, req: IncomingMessage, id: string): void {
  let child: Logger | undefined;
  Object.defineProperty(req, 'log', { configurable: true, enumerable: false, get: () => (child ??= logger.child(requestFields(req, id))) });
}

/**
 * For an answer made ahead of the app (the public booking's): the request's id and its access line
 * when done, as tagRequest gives them, without the header (the early answer lays out its own) or
 * `req.log`. If the request is handed on to the app after all, handingOn gives it those.
 */
export function tagEarly(access: AccessLog, req: IncomingMessage, res: ServerResponse, path: string): string {
  const id = requestIdOf(req);
  req.id = id;
  logWhenDone(access, req, res, id, performance.now(), path, path);
  return id;
}

/** An early-tagged request handed on to the app: what tagRequest gives that tagEarly did not. */
export function handingOn(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('x-request-id', req.id);
  giveRequestLog(logger, req, req.id);
}

/**
 * Every request, tagged and logged by tagRequest; one an early answer already tagged (the public
 * booking's, which hands a manual booking on to the routes) is not tagged or logged twice.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (req.id === undefined) tagRequest(logger, req, res);
    next();
  };
}
