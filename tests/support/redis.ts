import { randomBytes } from 'node:crypto';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A BullMQ key prefix of its own, so parallel test files never share queues. */
export function testPrefix(): string {
  return `test-${randomBytes(5).toString('hex')}`;
}
