import { pino, type Logger } from 'pino';

/** Client PII and secrets never reach the log, whatever object they sit in. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  'passwordHash',
  '*.passwordHash',
  'access_token',
  '*.access_token',
  ...['client_full_name', 'client_email', 'client_mobile', 'clientFullName', 'clientEmail', 'clientMobile', 'customer_name', 'customer_email', 'customer_phone'].flatMap(
    (k) => [k, `*.${k}`, `*.*.${k}`],
  ),
  // Generic keys only below the top level, where pino keeps its own `name`.
  ...['email', 'mobile', 'phone', 'name', 'to'].flatMap((k) => [`*.${k}`, `*.*.${k}`]),
];

/** A process logger; `destination` defaults to stdout (tests pass a stream to read the lines). */
export function createLogger(options: { level?: string; name?: string } = {}, destination?: pino.DestinationStream): Logger {
  const opts = {
    name: options.name ?? 'booking',
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(opts, destination) : pino(opts);
}

export type { Logger };
