import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'components',
          include: ['tests/components/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // mock-contract-setup fails a test whose mocked answers do not match the route table (tests/support/mock-contract.ts).
          setupFiles: ['tests/support/mock-contract-setup.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          // integration-setup closes each file's Redis clients; contract-setup fails a file whose answers do not
          // match the OpenAPI document (tests/support/contract-check.ts).
          setupFiles: ['tests/support/integration-setup.ts', 'tests/support/contract-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/e2e-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One browser at a time: the machine has two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
