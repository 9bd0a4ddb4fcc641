import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { API_MESSAGES } from '../../../shared/contract/messages.ts';
import { AppError, isConnectionFailure } from '../../../shared/core/errors.ts';

/** Unknown routes answer 404 in the same shape as every other error. */
export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json({ detail: API_MESSAGES.notFound });
};

/** Seconds, matching API_MESSAGES.unavailable's "a minute"; clients and proxies that honour Retry-After wait that long. */
export const RETRY_AFTER_SECONDS = 60;

/** Body-parser's own failures, mapped to clear 4xx answers. */
function bodyParserError(err: { type?: string; status?: number }): AppError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError('validation', API_MESSAGES.malformedJson);
    case 'entity.too.large':
      return new AppError('payload_too_large', API_MESSAGES.payloadTooLarge);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported_media_type', API_MESSAGES.unsupportedEncoding);
    case 'request.aborted':
    case 'request.size.invalid':
    case 'parameters.too.many':
      return new AppError('validation', API_MESSAGES.unreadableBody);
    default:
      return undefined;
  }
}

/**
 * Any other error that says the request was at fault the http-errors way: a 4xx `status` (or
 * `statusCode`) with `expose` set, as body-parser's inflate failures on a corrupt gzip or deflate body
 * are (they have no `type`), or the router's URIError for an undecodable path parameter (`%FF`), which
 * it gives status 400. `expose` keeps out errors that merely carry a status, such as a payment SDK's
 * 401 for our own key: those stay 500s. Their messages quote what the client sent, so the answer says
 * it in our words instead.
 */
function clientError(err: { status?: unknown; statusCode?: unknown; expose?: unknown }): { status: number; detail: string } | undefined {
  const status = typeof err.status === 'number' ? err.status : err.statusCode;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 499) return undefined;
  if (err instanceof URIError) return { status: 400, detail: API_MESSAGES.invalidAddress };
  if (err.expose !== true) return undefined;
  const detail: Record<number, string> = {
    400: API_MESSAGES.unreadableRequest,
    404: API_MESSAGES.notFound,
    413: API_MESSAGES.payloadTooLarge,
    415: API_MESSAGES.unsupportedEncoding,
  };
  return { status, detail: detail[status] ?? API_MESSAGES.refused };
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const known = err instanceof AppError ? err : bodyParserError(err ?? {});
  if (known) {
    // Not the message as the line's msg: a provider's message may quote what it was sent (the err serializer scrubs it).
    if (known.status >= 500) req.log?.warn({ err }, 'request failed');
    if (known.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(known.retryAfterSeconds))));
    res.status(known.status).json(known.fields ? { detail: known.message, errors: known.fields } : { detail: known.message });
    return;
  }
  const refused = clientError(err ?? {});
  if (refused) {
    if (!res.headersSent) res.status(refused.status).json({ detail: refused.detail });
    return;
  }
  const requestId = String(req.id ?? randomUUID());
  // PostgreSQL (or another dependency) out of reach: the request may succeed in a moment, so say so.
  if (isConnectionFailure(err)) {
    req.log?.warn({ err }, 'dependency unavailable');
    if (res.headersSent) return;
    res.status(503).set('Retry-After', String(RETRY_AFTER_SECONDS)).json({ detail: API_MESSAGES.unavailable, request_id: requestId });
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  if (res.headersSent) return;
  res.status(500).json({ detail: API_MESSAGES.internal, request_id: requestId });
};
