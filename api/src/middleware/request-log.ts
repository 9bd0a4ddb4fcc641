import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../../../shared/core/logger.ts';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id: the caller's X-Request-Id when well formed, else a new UUID. */
    id: string;
    /** The process logger bound to this request's id, method and path. */
    log: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Tags each request with an id (echoed as X-Request-Id) and logs one line when it ends: error for 5xx,
 * warn for 4xx, info otherwise; a request the client abandoned is logged as aborted. The query string
 * never reaches the log. `req.log` is created on first use: pino-http made a child logger per request
 * and ran the PII redaction over it even when nothing was written, a third of a cheap request's cost.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', id);
    req.id = id;
    const started = performance.now();
    const fields = () => ({ req: { id, method: req.method, url: req.originalUrl.split('?')[0] } });
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { configurable: true, enumerable: false, get: () => (child ??= logger.child(fields())) });

    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const status = res.statusCode;
      const level = !res.writableFinished ? 'warn' : status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line = { ...fields(), res: { statusCode: status }, responseTime: Math.round(performance.now() - started) };
      logger[level](line, res.writableFinished ? 'request completed' : 'request aborted');
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
