import { eq, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { adminUsers } from '../db/schema.ts';

export type AdminUser = typeof adminUsers.$inferSelect;

/** Finds an admin by username or e-mail, case-insensitively. */
export async function findAdminByLogin(db: Db, login: string): Promise<AdminUser | undefined> {
  const key = login.trim().toLowerCase();
  const [row] = await db
    .select()
    .from(adminUsers)
    .where(or(eq(sql`lower(${adminUsers.username})`, key), eq(sql`lower(${adminUsers.email})`, key)))
    .limit(1);
  return row;
}

export async function findAdminById(db: Db, id: number): Promise<AdminUser | undefined> {
  const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, id));
  return row;
}
