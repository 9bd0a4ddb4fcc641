import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { accessLogOf, type AccessLevel, createLogger, LogBuffer, REDACT_PATHS, scrubErrorText } from '../../shared/core/logger.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream), lines };
}

describe('logger', () => {
  it('redacts client PII and secrets wherever they sit', () => {
    const { logger, lines } = capture();
    logger.info({
      client_email: 'meera@example.com',
      booking: { client_full_name: 'Meera Pillai', client_mobile: '9876543210', amount: 1500 },
      customer: { email: 'meera@example.com', phone: '9876543210', name: 'Meera' },
      req: { headers: { authorization: 'Bearer abc.def.ghi' } },
      password: 'hunter2-hunter2',
    });
    const line = lines.join('');
    for (const secret of ['meera@example.com', 'Meera', '9876543210', 'abc.def.ghi', 'hunter2']) expect(line).not.toContain(secret);
    expect(line).toContain('"amount":1500');
  });
});

describe('logger: errors', () => {
  const NAME = 'Ishaan Varadarajan';
  const EMAIL = 'ishaan.v4410@example.net';
  const MOBILE = '9811044107';
  const VALUES = [NAME, 'Ishaan', EMAIL, MOBILE];

  function captureLines() {
    const lines: Record<string, any>[] = [];
    const logger = createLogger({ level: 'trace' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const text = () => JSON.stringify(lines);
    return { logger, lines, text };
  }

  const drizzleError = () => {
    const pgError = Object.assign(new Error(`invalid input syntax for type integer: "${NAME}"`), {
      code: '22P02',
      severity: 'ERROR',
      routine: 'pg_strtoint32_safe',
      detail: `Key (client_email)=(${EMAIL}) already exists.`,
      where: `unnamed portal parameter $2 = '${NAME}'`,
    });
    return new DrizzleQueryError(
      'insert into "bookings" ("client_full_name", "client_email", "client_mobile") values ($1, $2, $3)',
      [NAME, EMAIL, MOBILE],
      pgError,
    );
  };

  it('an error object keeps its type, SQLSTATE, SQL and frames, and none of the values', () => {
    const { logger, lines, text } = captureLines();
    logger.error({ err: drizzleError() }, 'unhandled error');
    for (const v of VALUES) expect(text()).not.toContain(v);
    expect(lines[0]!.err).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query',
      query: 'insert into "bookings" ("client_full_name", "client_email", "client_mobile") values ($1, $2, $3)',
      cause: { type: 'Error', code: '22P02', routine: 'pg_strtoint32_safe', message: 'invalid input syntax for type integer: "[redacted]"' },
    });
    expect(lines[0]!.err.stack).toMatch(/^\s+at /);
    expect(lines[0]!.err).not.toHaveProperty('params');
    expect(lines[0]!.err.cause).not.toHaveProperty('detail');
    expect(lines[0]!.err.cause).not.toHaveProperty('where');
  });

  it('an error logged bare or as { err } without a message: pino would make its raw message the msg', () => {
    const { logger, lines, text } = captureLines();
    logger.error(drizzleError());
    logger.warn({ err: new Error(`Unexpected token 'I', "${NAME}" is not valid JSON`) });
    for (const v of VALUES) expect(text()).not.toContain(v);
    expect(lines[1]!.msg).toBe(`Unexpected token '[redacted]', "[redacted]" is not valid JSON`);
  });

  it.each([
    ['Drizzle message', `Failed query: insert into "bookings" ("client_email") values ($1)\nparams: ${NAME},${EMAIL},${MOBILE}`],
    ['params on one line', `Failed query: select 1 params: ${EMAIL}`],
    ['PostgreSQL detail', `Key (client_email, client_mobile)=(${EMAIL}, ${MOBILE}) already exists.`],
    ['quoted value', `value "${MOBILE}99" is out of range for type integer`],
    ['unclosed quote', `invalid input syntax for type integer: "${NAME}`],
    ['single quotes', `Failed to decode param '${NAME}%FF'`],
  ])('a string logged under err is scrubbed: %s', (_label, message) => {
    const { logger, text } = captureLines();
    logger.warn({ err: message }, 'something failed');
    for (const v of VALUES) expect(text()).not.toContain(v);
  });

  it('keeps what names the fault in a string: the SQL before params, the words around quotes', () => {
    expect(scrubErrorText(`Failed query: select "id" from "bookings" where "client_email" = $1\nparams: ${EMAIL}`)).toBe(
      'Failed query: select "id" from "bookings" where "client_email" = $1 params: [redacted]',
    );
    expect(scrubErrorText(`Key (client_email)=(${EMAIL}) already exists.`)).toBe('Key (client_email)=([redacted])');
    expect(scrubErrorText('connect ECONNREFUSED 127.0.0.1:5432')).toBe('connect ECONNREFUSED 127.0.0.1:5432');
    expect(scrubErrorText("can't reach the server")).toBe("can't reach the server");
  });

  it('follows cause chains and aggregate errors, and stops at a loop', () => {
    const { logger, lines, text } = captureLines();
    const inner = Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:5432 "${EMAIL}"`), { code: 'ECONNREFUSED', syscall: 'connect', port: 5432 });
    const aggregate = new AggregateError([inner, inner], `all "${NAME}" failed`);
    const looped = new Error('outer', { cause: aggregate }) as Error & { cause: unknown };
    (aggregate as Error & { cause?: unknown }).cause = looped;
    logger.error({ err: looped }, 'unhandled error');
    for (const v of VALUES) expect(text()).not.toContain(v);
    expect(lines[0]!.err.cause.errors[0]).toMatchObject({ code: 'ECONNREFUSED', syscall: 'connect', port: 5432 });
  });
});

describe('the access log', () => {
  const TIME = /"time":"[^"]+"/;
  const lines = [
    { id: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6', method: 'GET', url: '/api/slots', status: 200, responseTime: 0, completed: true },
    { id: 'caller.id_0001', method: 'POST', url: '/confirm-booking', status: 409, responseTime: 12, completed: true },
    { id: 'abcdefgh', method: 'DELETE', url: '/api/admin/x"y\\z/\u0001\u007f/é/😀/%22', status: 500, responseTime: 3, completed: true },
    { id: 'abcdefgh-2', method: 'GET', url: '/payment-status', status: 200, responseTime: 7, completed: false },
  ];
  const levelOf = (l: (typeof lines)[number]): AccessLevel => (!l.completed ? 'warn' : l.status >= 500 ? 'error' : l.status >= 400 ? 'warn' : 'info');

  it('writes, byte for byte, the line pino wrote for the same fields, bar the time', () => {
    const written: string[] = [];
    const logger = createLogger({ name: 'api', level: 'info' }, { write: (line: string) => void written.push(line) });
    const byPino: string[] = [];
    const reference = pino(
      { level: 'info', base: { pid: process.pid, name: 'api' }, timestamp: pino.stdTimeFunctions.isoTime },
      { write: (line: string) => void byPino.push(line) },
    );
    const access = accessLogOf(logger);
    for (const l of lines) {
      access.write(levelOf(l), l);
      reference[levelOf(l)](
        { req: { id: l.id, method: l.method, url: l.url }, res: { statusCode: l.status }, responseTime: l.responseTime },
        l.completed ? 'request completed' : 'request aborted',
      );
    }
    expect(written).toHaveLength(lines.length);
    expect(written.map((w) => w.replace(TIME, '"time":"T"'))).toEqual(byPino.map((w) => w.replace(TIME, '"time":"T"')));
    for (const w of written) expect(JSON.parse(w).time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("keeps to the logger's level, as it is now", () => {
    const written: string[] = [];
    const logger = createLogger({ name: 'api', level: 'warn' }, { write: (line: string) => void written.push(line) });
    const access = accessLogOf(logger);
    expect([access.enabled('info'), access.enabled('warn'), access.enabled('error')]).toEqual([false, true, true]);
    for (const l of lines) access.write(levelOf(l), l);
    expect(written.map((w) => JSON.parse(w).req.id)).toEqual(['caller.id_0001', 'abcdefgh', 'abcdefgh-2']);
    logger.level = 'error';
    access.write('warn', lines[1]!);
    expect(written).toHaveLength(3);
  });
});

describe('LogBuffer', () => {
  function logFile() {
    const dir = mkdtempSync(path.join(tmpdir(), 'log-buffer-'));
    const file = path.join(dir, 'log');
    const fd = openSync(file, 'a');
    const read = () => readFileSync(file, 'utf8');
    /** The file once it holds `bytes` bytes (the background write is under way). */
    const settled = async (bytes: number) => {
      for (let i = 0; i < 200 && Buffer.byteLength(read()) < bytes; i++) await sleep(10);
      return read();
    };
    return { fd, read, settled, done: () => rmSync(dir, { recursive: true, force: true }) };
  }

  it('holds the lines for a moment, then writes them in order; flushSync writes what it holds at once', async () => {
    const log = logFile();
    try {
      const lines = new LogBuffer(log.fd);
      lines.write('one\n');
      lines.write('two ✓\n');
      await nextTurn();
      expect(log.read()).toBe('');
      expect(await log.settled(10)).toBe('one\ntwo ✓\n');
      lines.write('three\n');
      lines.flushSync();
      expect(log.read()).toBe('one\ntwo ✓\nthree\n');
      lines.end();
    } finally {
      log.done();
    }
  });

  it('passes its 32 KB on when they are full, and a longer line whole, every byte in order', async () => {
    const log = logFile();
    try {
      const lines = new LogBuffer(log.fd);
      const expected: string[] = [];
      for (let i = 0; i < 70; i++) expected.push(`${String(i).padStart(3, '0')} ${'é'.repeat(497)}\n`); // 999 bytes each
      expected.push(`${'x'.repeat(LogBuffer.SIZE + 10)}\n`, 'last\n');
      for (const line of expected) lines.write(line);
      expect(await log.settled(Buffer.byteLength(expected.join('')))).toBe(expected.join(''));
      lines.end();
    } finally {
      log.done();
    }
  });

  it('writes what it holds when the process exits without anyone flushing it', () => {
    const script = `
      const { LogBuffer } = await import('./shared/core/logger.ts');
      const lines = new LogBuffer(1);
      for (let i = 0; i < 5000; i++) lines.write('line ' + i + '\\n');
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(out.split('\n').filter(Boolean)).toEqual(Array.from({ length: 5000 }, (_, i) => `line ${i}`));
  });
});
