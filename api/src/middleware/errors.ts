import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { API_MESSAGES } from '../../../shared/contract/messages.ts';
import { AppError } from '../../../shared/core/errors.ts';

/** Unknown routes answer 404 in the same shape as every other error. */
export const notFound: RequestHandler = (_req, res) => {
  res.status(404).json({ detail: API_MESSAGES.notFound });
};

/** Body-parser's own failures, mapped to clear 4xx answers. */
function bodyParserError(err: { type?: string; status?: number }): AppError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError('validation', API_MESSAGES.malformedJson);
    case 'entity.too.large':
      return new AppError('payload_too_large', API_MESSAGES.payloadTooLarge);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported_media_type', 'Unsupported request encoding.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'parameters.too.many':
      return new AppError('validation', 'The request body could not be read.');
    default:
      return undefined;
  }
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const known = err instanceof AppError ? err : bodyParserError(err ?? {});
  if (known) {
    if (known.status >= 500) req.log?.warn({ err }, known.message);
    if (known.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(known.retryAfterSeconds))));
    res.status(known.status).json(known.fields ? { detail: known.message, errors: known.fields } : { detail: known.message });
    return;
  }
  const requestId = String(req.id ?? randomUUID());
  req.log?.error({ err }, 'unhandled error');
  if (res.headersSent) return;
  res.status(500).json({ detail: API_MESSAGES.internal, request_id: requestId });
};
