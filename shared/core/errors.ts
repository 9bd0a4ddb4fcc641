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
