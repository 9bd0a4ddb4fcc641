import argon2 from 'argon2';
import { z } from 'zod';
import { newPassword, STAFF_MESSAGES, username as usernameSchema } from '../../contract/catalogue.ts';
import { FIELD_MESSAGES } from '../../contract/messages.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError, isUniqueViolation } from '../errors.ts';
import { insertAdminUser, lockAdminByUsername, updateAdminUser, type AdminUser } from '../repositories/admin.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';

/** argon2id with OWASP's recommended memory and time costs. */
export const PASSWORD_HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The command line's accounts follow the panel's rules and words (shared/contract/catalogue.ts). */
export const newAdminSchema = z.strictObject({
  username: usernameSchema,
  email: z.email({ error: FIELD_MESSAGES.emailInvalid }).max(254),
  password: newPassword,
  isSuperadmin: z.boolean().default(false),
});

export async function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, PASSWORD_HASH_OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Who made an admin-user change: the command line, or a signed-in admin. */
export type ChangeActor = { adminId: number | null; actor: string };
const CLI: ChangeActor = { adminId: null, actor: 'cli' };

/** The audit view of an admin user: never the password hash. */
export function auditableAdmin(a: AdminUser): Record<string, unknown> {
  return { id: a.id, username: a.username, email: a.email, is_superadmin: a.isSuperadmin, is_admin: a.isAdmin, is_active: a.isActive };
}

export async function createAdminUser(db: Db, input: z.input<typeof newAdminSchema>, by: ChangeActor = CLI): Promise<AdminUser> {
  const data = newAdminSchema.parse(input);
  const passwordHash = await hashPassword(data.password);
  try {
    return await db.transaction(async (tx) => {
      const row = await insertAdminUser(tx, { username: data.username, email: data.email.toLowerCase(), passwordHash, isSuperadmin: data.isSuperadmin });
      await insertAudit(tx, { ...by, action: 'admin_user.create', entityType: 'admin_user', entityId: row.id, before: null, after: auditableAdmin(row) });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('conflict', STAFF_MESSAGES.exists);
    throw err;
  }
}

async function lockAdmin(tx: DbOrTx, username: string): Promise<AdminUser> {
  const row = await lockAdminByUsername(tx, username);
  if (!row) throw new AppError('not_found', `No admin named ${username}.`);
  return row;
}

/** Deactivation also signs the admin out everywhere, so reactivation does not revive old tokens. */
export async function setAdminActive(db: Db, username: string, active: boolean, by: ChangeActor = CLI): Promise<AdminUser> {
  return db.transaction(async (tx) => {
    const before = await lockAdmin(tx, username);
    const row = await updateAdminUser(tx, before.id, { isActive: active, updatedAt: new Date() }, !active);
    await insertAudit(tx, {
      ...by,
      action: active ? 'admin_user.activate' : 'admin_user.deactivate',
      entityType: 'admin_user',
      entityId: before.id,
      before: auditableAdmin(before),
      after: auditableAdmin(row),
    });
    return row;
  });
}

/**
 * A new password; every session of the admin ends with it (a stolen token must not outlive the
 * password it was got with). The audit entry records the change, never the password or its hash.
 */
export async function setAdminPassword(db: Db, username: string, password: string, by: ChangeActor = CLI): Promise<AdminUser> {
  const data = z.strictObject({ password: newPassword }).parse({ password });
  const passwordHash = await hashPassword(data.password);
  return db.transaction(async (tx) => {
    const before = await lockAdmin(tx, username);
    // Every token issued so far is refused with the old password.
    const row = await updateAdminUser(tx, before.id, { passwordHash, updatedAt: new Date() }, true);
    await insertAudit(tx, {
      ...by,
      action: 'admin_user.password_change',
      entityType: 'admin_user',
      entityId: before.id,
      before: auditableAdmin(before),
      after: auditableAdmin(row),
    });
    return row;
  });
}
