/** One error type for expected failures; one table from its code to an HTTP status. */
export const ERROR_STATUS = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  bad_gateway: 502,
  unavailable: 503,
  timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;
  /** Sent as Retry-After: when a limit or an outage will let the same request through. */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: ErrorCode, message: string, fields?: Record<string, string>, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A validation failure on one field: the field's message is also the detail. */
export function fieldError(field: string, message: string): AppError {
  return new AppError('validation', message, { [field]: message });
}

/** A PostgreSQL error of SQLSTATE `code`, on the named constraint or index when one is given. */
function isPgError(err: unknown, code: string, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; cause?: unknown } | null;
  if (!e) return false;
  if (e.code === code && (!constraint || e.constraint === constraint)) return true;
  // Drizzle wraps driver errors; the driver's error is the cause.
  return e.cause !== undefined && e.cause !== e ? isPgError(e.cause, code, constraint) : false;
}

/** PostgreSQL's unique_violation on a named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  return isPgError(err, '23505', constraint);
}

/** PostgreSQL's foreign_key_violation on a named constraint. */
export function isForeignKeyViolation(err: unknown, constraint?: string): boolean {
  return isPgError(err, '23503', constraint);
}

/** Node's codes for a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/**
 * PostgreSQL's SQLSTATEs for "not now" rather than "not this": admin_shutdown, crash_shutdown,
 * cannot_connect_now and too_many_connections; the whole class 08 (connection exception) is matched apart.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres and its pool say these in words only, without a code. */
const CONNECTION_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * A dependency (PostgreSQL above all) that cannot be reached right now: the request was fine and may
 * succeed in a moment. Follows Drizzle's and the pool's cause chains and AggregateError's errors (a
 * host name that resolves to two addresses fails with one error per address).
 */
export function isConnectionFailure(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 8) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || UNAVAILABLE_SQLSTATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) return true;
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isConnectionFailure(inner, depth + 1))) return true;
  return e.cause !== undefined && e.cause !== err ? isConnectionFailure(e.cause, depth + 1) : false;
}
