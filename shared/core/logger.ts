import fs from 'node:fs';
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
  ...[
    'client_full_name',
    'client_email',
    'client_mobile',
    'clientFullName',
    'clientEmail',
    'clientMobile',
    'customer_name',
    'customer_email',
    'customer_phone',
  ].flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
  // Generic keys only below the top level, where pino keeps its own `name`.
  ...['email', 'mobile', 'phone', 'name', 'to'].flatMap((k) => [`*.${k}`, `*.*.${k}`]),
];

const REDACTED = '[redacted]';

/**
 * An error's text with the values it quotes taken out. Errors quote what they were given: Drizzle's
 * "Failed query: … params: <every bound value>", PostgreSQL's `invalid input syntax for type integer:
 * "…"` and `Key (client_email)=(…) already exists`, JSON.parse's `Unexpected token … "…"`, the
 * router's `Failed to decode param '…'`. So: the params tail goes, a Key detail keeps its columns, and
 * anything in double or single quotes goes (an unclosed quote to the end). The SQL of a Drizzle query
 * is kept readable: it holds placeholders, not values.
 */
export function scrubErrorText(text: string): string {
  const params = text.search(/(^|\s)params:/);
  const head = params === -1 ? text : `${text.slice(0, params)} params: ${REDACTED}`;
  if (head.startsWith('Failed query: ')) return head;
  return head
    .replace(/\)=\(.*$/gm, `)=(${REDACTED})`)
    .replace(/"[^"]*("|$)/gm, `"${REDACTED}"`)
    .replace(/(^|[^A-Za-z])'[^']*('|$)/gm, `$1'${REDACTED}'`);
}

/** Only the frames of a stack: its first lines repeat the message, values and all. */
function framesOf(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length ? frames.join('\n') : undefined;
}

/** Fields that name things (a SQLSTATE, a constraint, a table), never a value, copied when they are short words. */
const NAMING_FIELDS = ['code', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine', 'severity', 'syscall'] as const;
const NAME_LIKE = /^[\w.$-]{1,128}$/;

type SafeError = Record<string, unknown>;

/**
 * pino's `err` serializer. pino's own copied every enumerable field of an error, Drizzle's `params`
 * (name, e-mail, mobile) and PostgreSQL's `detail` and `where` among them. This keeps the type, the
 * naming fields, Drizzle's SQL without its params, a scrubbed message (none for a PL/pgSQL RAISE,
 * whose text is whatever its author put in) and the stack's frames, and follows `cause` and an
 * AggregateError's `errors`. A string under `err` (many call sites log `err: e.message`) is scrubbed.
 */
export function serializeError(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubErrorText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 4) return { type: 'Error', message: '[cause chain cut]' };
  const e = value as Record<string, unknown> & { constructor?: { name?: unknown } };
  const out: SafeError = {};
  const ctor = typeof e.constructor === 'function' ? e.constructor.name : undefined;
  out.type = ctor && ctor !== 'Object' ? ctor : typeof e.name === 'string' ? e.name : 'Error';
  for (const field of NAMING_FIELDS) {
    const v = e[field];
    if (typeof v === 'string' && NAME_LIKE.test(v)) out[field] = v;
    else if (typeof v === 'number') out[field] = v;
  }
  for (const field of ['status', 'statusCode', 'errno', 'port'] as const) if (typeof e[field] === 'number') out[field] = e[field];
  if (typeof e.query === 'string') out.query = scrubErrorText(`Failed query: ${e.query}`).slice('Failed query: '.length);
  const sqlstate = typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined;
  const raised = sqlstate?.startsWith('P0') && typeof e.severity === 'string';
  if (typeof e.message === 'string' && !raised) {
    // Drizzle's message is its query and params again; the query is above.
    out.message = typeof e.query === 'string' ? 'Failed query' : scrubErrorText(e.message);
  }
  const stack = framesOf(e.stack);
  if (stack) out.stack = stack;
  if (Array.isArray(e.errors)) out.errors = e.errors.slice(0, 10).map((inner) => serializeError(inner, depth + 1));
  if (e.cause !== undefined && e.cause !== value) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/**
 * pino makes an error's own message the line's `msg` when a call gives none (`log.error(err)`,
 * `log.error({ err })`), past the serializer: such a call gets the scrubbed message instead.
 */
function logMethod(this: Logger, args: unknown[], method: (...a: unknown[]) => void): void {
  const first = args[0];
  if (args.length === 1 && first !== null && typeof first === 'object') {
    const err = first instanceof Error ? first : (first as { err?: unknown; msg?: unknown }).msg === undefined ? (first as { err?: unknown }).err : undefined;
    const message = (err as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string') {
      method.apply(this, [first, scrubErrorText(message)]);
      return;
    }
  }
  method.apply(this, args);
}

/**
 * A process logger; `destination` defaults to stdout (tests pass a stream to read the lines).
 * Stdout is written asynchronously (LogBuffer): lines are gathered and handed to the kernel in the
 * background. A synchronous write per line (pino's default) held every request's answer behind its
 * access-log line, a third of the API's throughput at the default level. What is still held is written
 * by flushLogSync, which every exit path calls, and on the process's exit.
 */
export function createLogger(options: { level?: string; name?: string } = {}, destination?: pino.DestinationStream): Logger {
  const opts = {
    name: options.name ?? 'booking',
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    // `error` too: the same values under the other name an error is often logged by.
    serializers: { err: serializeError, error: serializeError },
    hooks: { logMethod },
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return pino(opts, destination ?? new LogBuffer(1));
}

/** Stays blocked for a moment, as sonic-boom does, while a full pipe refuses a synchronous write. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `bytes` to `fd` now, waiting out a pipe that is full for a second at most. */
function writeAllSync(fd: number, bytes: Buffer): void {
  let waits = 0;
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(fs.writeSync(fd, bytes));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'EAGAIN' && code !== 'EBUSY') || ++waits > 100) throw err;
      Atomics.wait(PAUSE, 0, 0, 10);
    }
  }
}

const atExit = new Set<WeakRef<LogBuffer>>();

/** One listener for every buffer (a logger each, in tests), holding none of them alive. */
function flushedAtExit(buffer: LogBuffer): void {
  if (atExit.size === 0) {
    process.once('exit', () => {
      for (const ref of atExit) {
        try {
          ref.deref()?.flushSync();
        } catch {
          // A closed or broken stdout has nowhere to take the lines; exiting must not fail on that.
        }
      }
    });
  }
  atExit.add(new WeakRef(buffer));
}

/**
 * A log destination: lines are gathered as bytes and handed to sonic-boom, which writes them in the
 * background, 32 KB at a time or 20 ms after the first line it holds. sonic-boom given strings
 * measured the UTF-8 length of the string it was gathering on every line (flattening it each time) and
 * encoded every written string twice; given bytes it does neither (docs/performance.md). Under load
 * that is a few hundred writes a second through libuv's thread pool rather than one per turn of the
 * event loop, and no line lives on in V8's heap while it waits. flushSync writes what sonic-boom and
 * this buffer hold at once, synchronously, and runs at the process's exit too: an asynchronous write
 * started then would never finish. (A write sonic-boom already has under way is left to libuv's pool,
 * as pino's own asynchronous destination leaves it.)
 */
export class LogBuffer implements pino.DestinationStream {
  static readonly SIZE = 32 * 1024;
  static readonly DELAY_MS = 20;
  #bytes = Buffer.allocUnsafe(LogBuffer.SIZE);
  #used = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #fd: number;
  readonly #target: ReturnType<typeof pino.destination>;

  /** `fd`: a file descriptor open for writing (stdout's is 1). */
  constructor(fd: number) {
    this.#fd = fd;
    this.#target = pino.destination({ dest: fd, sync: false, contentMode: 'buffer' });
    flushedAtExit(this);
  }

  write(line: string): void {
    const length = Buffer.byteLength(line);
    if (length > LogBuffer.SIZE - this.#used) {
      this.#pass();
      if (length > LogBuffer.SIZE) {
        this.#hand(Buffer.from(line));
        return;
      }
    }
    this.#used += this.#bytes.write(line, this.#used);
    if (this.#used >= LogBuffer.SIZE - 512) this.#pass();
    else this.#timer ??= setTimeout(this.#pass, LogBuffer.DELAY_MS).unref();
  }

  /** What the buffer holds, taken out of it (and the timer stopped). */
  #take(): Buffer {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const held = this.#bytes.subarray(0, this.#used);
    this.#bytes = Buffer.allocUnsafe(LogBuffer.SIZE);
    this.#used = 0;
    return held;
  }

  readonly #pass = (): void => {
    if (this.#used > 0) this.#hand(this.#take());
  };

  #hand(bytes: Buffer): void {
    // After end() sonic-boom would throw (its types do not declare `destroyed`, which it sets); in
    // buffer mode it takes Buffers, though its types know only strings.
    if (!(this.#target as { destroyed?: boolean }).destroyed) this.#target.write(bytes as unknown as string);
  }

  flushSync(): void {
    // pino ends sonic-boom before a natural exit ('beforeExit'), after which this buffer's lines go
    // to the descriptor directly.
    if (!(this.#target as { destroyed?: boolean }).destroyed) this.#target.flushSync();
    if (this.#used > 0) writeAllSync(this.#fd, this.#take());
  }

  flush(cb?: (err?: Error) => void): void {
    this.#pass();
    this.#target.flush(cb);
  }

  end(): void {
    this.#pass();
    this.#target.end();
  }
}

const ACCESS_LEVELS = { info: 30, warn: 40, error: 50 } as const;
export type AccessLevel = keyof typeof ACCESS_LEVELS;

/** One request's access line: what api/src/middleware/request-log.ts puts in it, and nothing else. */
export type AccessLine = { id: string; method: string; url: string; status: number; responseTime: number; completed: boolean };

export type AccessLog = {
  enabled: (level: AccessLevel) => boolean;
  write: (level: AccessLevel, line: AccessLine) => void;
  /** Each answered request, for the metrics (set by the API when METRICS_TOKEN is; otherwise nothing runs). */
  observe?: ((method: string, route: string, status: number, seconds: number) => void) | undefined;
};

const accessLogs = new WeakMap<Logger, AccessLog>();

let isoMs = Number.NaN;
let iso = '';
/** pino's isoTime, worked out once a millisecond: toISOString took half a microsecond a line. */
function isoTimeNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    iso = new Date(ms).toISOString();
  }
  return iso;
}

/**
 * The access log: the logger's destination, level, name and pid, and the line pino would write for
 * `{ req: { id, method, url }, res: { statusCode }, responseTime }` with the message, byte for byte
 * (tests/unit/logger.test.ts), built directly. An access line holds only those fields, so pino's
 * redaction has nothing to find there (its wildcard paths cost 20+ µs a line), and its generic
 * serialising was a tenth of a cached slot read's CPU.
 */
export function accessLogOf(logger: Logger): AccessLog {
  let log = accessLogs.get(logger);
  if (!log) {
    const stream = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym]!;
    const base = JSON.stringify({ pid: process.pid, ...logger.bindings() }).slice(1, -1);
    const enabled = (level: AccessLevel) => ACCESS_LEVELS[level] >= logger.levelVal;
    log = {
      enabled,
      write(level, l) {
        if (!enabled(level)) return;
        stream.write(
          `{"level":${ACCESS_LEVELS[level]},"time":"${isoTimeNow()}",${base},"req":{"id":${JSON.stringify(l.id)},"method":${JSON.stringify(l.method)},"url":${JSON.stringify(l.url)}},"res":{"statusCode":${l.status}},"responseTime":${l.responseTime},"msg":"${l.completed ? 'request completed' : 'request aborted'}"}\n`,
        );
      },
    };
    accessLogs.set(logger, log);
  }
  return log;
}

/** Writes out whatever the logger's asynchronous destination still holds, before the process exits. */
export function flushLogSync(logger: Logger): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as { flushSync?: () => void } | undefined;
  try {
    stream?.flushSync?.();
  } catch {
    // A closed or broken stdout has nowhere to take the lines; exiting must not fail on that.
  }
}

/**
 * Exits after the last lines are out: on a graceful stop, and on an error nothing caught, which is
 * logged as fatal first (a crash's reason is the line most worth keeping).
 */
export function exitAfterLogs(logger: Logger, code: number): never {
  flushLogSync(logger);
  process.exit(code);
}

export function exitOnUncaught(logger: Logger): void {
  const die = (err: unknown, what: string) => {
    logger.fatal({ err }, what);
    exitAfterLogs(logger, 1);
  };
  process.on('uncaughtException', (err) => die(err, 'uncaught exception'));
  process.on('unhandledRejection', (err) => die(err, 'unhandled promise rejection'));
}

export type { Logger };
