import { eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { adminTokenRevocations, adminUsers } from '../db/schema.ts';

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

/**
 * The admin a token names, and whether that token (by its jti) was revoked: one query, since every
 * admin request makes it.
 */
export async function findAdminForToken(db: Db, id: number, jti: string): Promise<{ admin: AdminUser; revoked: boolean } | undefined> {
  const [row] = await db
    .select({
      admin: adminUsers,
      revoked: sql<boolean>`exists (select 1 from ${adminTokenRevocations} where ${adminTokenRevocations.jti} = ${jti})`.mapWith(Boolean),
    })
    .from(adminUsers)
    .where(eq(adminUsers.id, id));
  return row;
}

/** Revokes one token until it expires; revoking it twice is the same as once. */
export async function insertTokenRevocation(db: Db, r: typeof adminTokenRevocations.$inferInsert): Promise<void> {
  await db.insert(adminTokenRevocations).values(r).onConflictDoNothing();
}

/** Revocations of tokens that have expired anyway: the expiry refuses them now. */
export async function deleteExpiredRevocations(db: Db, now: Date): Promise<void> {
  await db.delete(adminTokenRevocations).where(lt(adminTokenRevocations.expiresAt, now));
}

export async function insertAdminUser(tx: Pick<Db, 'insert'>, values: typeof adminUsers.$inferInsert): Promise<AdminUser> {
  const [row] = await tx.insert(adminUsers).values(values).returning();
  return row!;
}

/** The admin of that username (any case), row-locked for a change; undefined without one. */
export async function lockAdminByUsername(tx: Pick<Db, 'select'>, username: string): Promise<AdminUser | undefined> {
  const [row] = await tx
    .select()
    .from(adminUsers)
    .where(eq(sql`lower(${adminUsers.username})`, username.trim().toLowerCase()))
    .for('update');
  return row;
}

/**
 * Writes `set` to one admin; with `endSessions` the session version moves on too, so every token
 * issued so far is refused (tokens carry the session version they were issued under).
 */
export async function updateAdminUser(
  tx: Pick<Db, 'update'>,
  id: number,
  set: Partial<Pick<typeof adminUsers.$inferInsert, 'isActive' | 'passwordHash' | 'updatedAt'>>,
  endSessions: boolean,
): Promise<AdminUser> {
  const [row] = await tx
    .update(adminUsers)
    .set({ ...set, ...(endSessions ? { sessionVersion: sql`${adminUsers.sessionVersion} + 1` } : {}) })
    .where(eq(adminUsers.id, id))
    .returning();
  return row!;
}
