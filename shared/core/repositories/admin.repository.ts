import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { adminInvitations, adminTokenRevocations, adminUsers } from '../db/schema.ts';

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

export type AdminInvitation = typeof adminInvitations.$inferSelect;

/** Every admin, by id, and whether each has an invitation still usable at `now`. */
export async function listAdminsWithPendingInvitation(db: Db, now: Date): Promise<{ a: AdminUser; pending: boolean }[]> {
  return db
    .select({
      a: adminUsers,
      pending:
        sql<boolean>`exists (select 1 from admin_invitations i where i.admin_id = admin_users.id and i.used_at is null and i.expires_at > ${now.toISOString()}::timestamptz)`.mapWith(
          Boolean,
        ),
    })
    .from(adminUsers)
    .orderBy(asc(adminUsers.id));
}

/** The admin of that id, row-locked for a change; undefined without one. */
export async function lockAdminById(tx: Pick<Db, 'select'>, id: number): Promise<AdminUser | undefined> {
  const [row] = await tx.select().from(adminUsers).where(eq(adminUsers.id, id)).for('update');
  return row;
}

/** Locks every super admin's row, in id order (so two callers cannot deadlock). */
export async function lockSuperadmins(tx: Pick<Db, 'select'>): Promise<void> {
  await tx.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.isSuperadmin, true)).orderBy(asc(adminUsers.id)).for('update');
}

/** How many active super admins there are besides `id`. */
export async function countOtherActiveSuperadmins(tx: Pick<Db, 'select'>, id: number): Promise<number> {
  const [others] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(adminUsers)
    .where(and(eq(adminUsers.isSuperadmin, true), eq(adminUsers.isActive, true), sql`${adminUsers.id} <> ${id}`));
  return others?.n ?? 0;
}

/** Marks the admin's unused invitations used (they stop working) and adds a new one. */
export async function replaceInvitation(
  tx: Pick<Db, 'update' | 'insert'>,
  invitation: typeof adminInvitations.$inferInsert & { createdAt: Date },
): Promise<void> {
  await tx
    .update(adminInvitations)
    .set({ usedAt: invitation.createdAt })
    .where(and(eq(adminInvitations.adminId, invitation.adminId), isNull(adminInvitations.usedAt)));
  await tx.insert(adminInvitations).values(invitation);
}

/** The unused, unexpired invitation with that token hash, and its admin. */
export async function findUsableInvitation(db: Db, tokenHash: string, now: Date): Promise<{ i: AdminInvitation; a: AdminUser } | undefined> {
  const [found] = await db
    .select({ i: adminInvitations, a: adminUsers })
    .from(adminInvitations)
    .innerJoin(adminUsers, eq(adminUsers.id, adminInvitations.adminId))
    .where(and(eq(adminInvitations.tokenHash, tokenHash), isNull(adminInvitations.usedAt), gt(adminInvitations.expiresAt, now)));
  return found;
}

/** Marks an invitation used, only if it was not; answers whether this call did (one use, even for two requests at once). */
export async function useInvitation(tx: Pick<Db, 'update'>, id: string, now: Date): Promise<boolean> {
  const used = await tx
    .update(adminInvitations)
    .set({ usedAt: now })
    .where(and(eq(adminInvitations.id, id), isNull(adminInvitations.usedAt)))
    .returning({ id: adminInvitations.id });
  return used.length > 0;
}

/** An invitation by id, and its admin. */
export async function findInvitation(db: Db, id: string): Promise<{ i: AdminInvitation; a: AdminUser } | undefined> {
  const [row] = await db
    .select({ i: adminInvitations, a: adminUsers })
    .from(adminInvitations)
    .innerJoin(adminUsers, eq(adminUsers.id, adminInvitations.adminId))
    .where(eq(adminInvitations.id, id));
  return row;
}
