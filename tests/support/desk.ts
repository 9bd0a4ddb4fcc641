/** The desk's side of an admin test file: a seeded database with its admins, and their tokens at Monday morning. */
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { bearer, createAdmins, tokenFor, type Admins } from './admin.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { MONDAY_MORNING_IST } from './factories.ts';

/** A database with the demo catalogue and the admins; the caller drops it when its tests are done. */
export async function seededWithAdmins(): Promise<{ database: TestDatabase; admins: Admins }> {
  const database = await createTestDatabase();
  await seedDemoData(database.db);
  return { database, admins: await createAdmins(database.db) };
}

/** Before a test: the clock back at Monday morning, and fresh tokens for the admin (desk) and the super admin (boss). */
export function mondayDesk(
  clock: { now: () => Date; set: (iso: string) => void },
  admins: Admins,
): { desk: Record<string, string>; boss: Record<string, string> } {
  clock.set(MONDAY_MORNING_IST);
  return { desk: bearer(tokenFor(admins.admin, clock.now())), boss: bearer(tokenFor(admins.superadmin, clock.now())) };
}
