/**
 * What a money test file starts from: a seeded database, the sandbox payments provider and the payment
 * service's dependencies in this process, the desk's admins, and the app on a fixed clock.
 */
import type { Express } from 'express';
import type { Config } from '../../shared/core/config.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import type { JobsClient } from '../../shared/core/jobs/queues.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import type { PaymentDeps } from '../../shared/core/services/payment.service.ts';
import { createAdmins, type Admins } from './admin.ts';
import { testApp } from './app.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { configFor, inProcessPayments } from './jobs.ts';

export type PaymentsTestApp = {
  database: TestDatabase;
  config: Config;
  payments: SandboxPayments;
  deps: PaymentDeps;
  jobs: JobsClient;
  admins: Admins;
  app: Express;
};

/** The caller drops `database` when its tests are done. */
export async function paymentsTestApp(now: () => Date): Promise<PaymentsTestApp> {
  const database = await createTestDatabase();
  await seedDemoData(database.db);
  const config = configFor({ PUBLIC_BASE_URL: 'http://127.0.0.1:9' });
  const { payments, deps, jobs } = inProcessPayments(database, config, now);
  const admins = await createAdmins(database.db);
  const app = testApp(database, { config, now, payments, jobs });
  return { database, config, payments, deps, jobs, admins, app };
}
