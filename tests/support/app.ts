import type { Redis } from 'ioredis';
import type request from 'supertest';
import { buildApp, type AppDeps } from '../../api/src/app.ts';
import { parseConfig } from '../../shared/core/config.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { checkAnswers } from './contract-check.ts';
import type { TestDatabase } from './db.ts';

/**
 * Hold limits off: most tests book many holds for one client from one address. The limits have tests
 * of their own (tests/integration/booking-privacy.test.ts) that turn them on.
 */
export const testConfig = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', HOLDS_PER_CLIENT: '0', HOLDS_PER_IP: '0' });

/** A clock fixed at an instant, movable by tests. */
export function fixedClock(iso: string): { now: () => Date; set: (iso: string) => void } {
  let current = new Date(iso);
  return { now: () => new Date(current), set: (next) => (current = new Date(next)) };
}

export function testApp(database: TestDatabase, overrides: Partial<AppDeps> = {}) {
  const redis: Pick<Redis, 'ping'> = { ping: async () => 'PONG' };
  // Every answer is checked against the contract (the OpenAPI document's schemas): contract-check.ts.
  return checkAnswers(
    buildApp({
      config: testConfig,
      db: database.db,
      redis,
      logger: createLogger({ level: 'silent' }),
      now: () => new Date(),
      ...overrides,
    }),
  );
}

/** A supertest parser that keeps a binary answer (an .xlsx) as one Buffer. */
export const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  const stream = res as unknown as NodeJS.ReadableStream;
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => cb(null, Buffer.concat(chunks)));
};
