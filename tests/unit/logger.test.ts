import { Writable } from 'node:stream';
import { pino } from 'pino';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACT_PATHS, scrubErrorText } from '../../shared/core/logger.ts';

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
