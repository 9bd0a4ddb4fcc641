/**
 * The components project's setup file: a test whose mocked answers do not match the contract
 * (tests/support/mock-contract.ts) fails, with each call and why.
 */
import { afterEach } from 'vitest';
import { mockFailures } from './mock-contract.ts';

afterEach(() => {
  if (mockFailures.length === 0) return;
  const report = [...new Set(mockFailures)].map((line) => `  ${line}`).join('\n');
  mockFailures.length = 0;
  throw new Error(`Mocked answers the API would not give (shared/contract/routes.ts):\n${report}`);
});
