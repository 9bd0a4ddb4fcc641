import { afterAll } from 'vitest';
import { closeTestDependencies } from './app.ts';

// After every other afterAll of the file (hooks run in reverse): the test apps' shared Redis clients.
afterAll(closeTestDependencies);
