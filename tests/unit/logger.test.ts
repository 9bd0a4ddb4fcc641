import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACT_PATHS } from '../../shared/core/logger.ts';

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
