/**
 * Staff accounts from the panel (issue 20): super admins list, create, deactivate and activate admins
 * and send password-reset links; any admin changes their own password. The command line
 * (shared/core/admin.cli.ts) stays for the first account.
 *
 * A new account without a password gets an invitation: a set-password link valid for 48 hours, sent
 * by e-mail through the outbox. The link's token is never stored: it is derived from the server's
 * secret and the invitation's random id (HMAC), and only its SHA-256 is kept to find it again.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { STAFF_MESSAGES, type StaffCreate, type StaffDto } from '../../contract/catalogue.ts';
import { isCommonPassword } from '../../domain/passwords.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError, fieldError, isUniqueViolation } from '../errors.ts';
import { jobIds } from '../jobs/jobs.ts';
import { enqueueInTx, intent } from '../jobs/outbox.ts';
import {
  countOtherActiveSuperadmins,
  findInvitation,
  findUsableInvitation,
  insertAdminUser,
  listAdminsWithPendingInvitation,
  lockAdminById,
  lockSuperadmins,
  replaceInvitation,
  updateAdminUser,
  useInvitation,
  type AdminUser,
} from '../repositories/admin.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { auditableAdmin, hashPassword, verifyPassword } from './admin-user.service.ts';
import { throttleAccount, type LoginThrottle } from './auth.service.ts';

export const INVITATION_HOURS = 48;
export type StaffActor = { adminId: number };
const who = (a: StaffActor) => ({ adminId: a.adminId, actor: `admin:${a.adminId}` });

/** The link's token for an invitation id: HMAC of the server's secret, so neither the table nor the outbox holds it. */
export function invitationToken(secret: string, invitationId: string): string {
  return createHmac('sha256', secret).update(`admin-invitation:${invitationId}`).digest('base64url');
}
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export function checkPasswordPolicy(password: string, field: string, username?: string): void {
  if (isCommonPassword(password) || (username && password.toLowerCase().includes(username.toLowerCase()) && password.length - username.length < 8)) {
    throw fieldError(field, STAFF_MESSAGES.commonPassword);
  }
}

function toStaffDto(a: AdminUser, pending: boolean): StaffDto {
  return {
    id: a.id,
    username: a.username,
    email: a.email,
    is_superadmin: a.isSuperadmin,
    is_active: a.isActive,
    invitation_pending: pending,
    created_at: a.createdAt.toISOString(),
  };
}

/** GET /api/admin/users. */
export async function listStaff(db: Db, now: Date): Promise<StaffDto[]> {
  const rows = await listAdminsWithPendingInvitation(db, now);
  return rows.map((r) => toStaffDto(r.a, r.pending));
}

/** A new invitation for `admin` (older unused ones stop working) and its e-mail, in the caller's transaction. */
async function invite(tx: DbOrTx, admin: AdminUser, kind: 'invite' | 'reset', secret: string, now: Date): Promise<void> {
  const id = randomUUID();
  await replaceInvitation(tx, {
    id,
    adminId: admin.id,
    tokenHash: tokenHash(invitationToken(secret, id)),
    expiresAt: new Date(now.getTime() + INVITATION_HOURS * 3600_000),
    createdAt: now,
  });
  await enqueueInTx(tx as Parameters<typeof enqueueInTx>[0], [intent('mail.staff-invitation', jobIds.staffInvitation(id), { invitationId: id, kind })], now);
}

/** An unusable password hash for an account that has no password yet (argon2 of random bytes nobody keeps). */
const unusableHash = () => hashPassword(randomBytes(32).toString('base64url'));

/** POST /api/admin/users: with a password, a ready account; without, an invitation e-mail. */
export async function createStaff(db: Db, input: StaffCreate, by: StaffActor, secret: string, now: Date): Promise<StaffDto> {
  if (input.password !== undefined) checkPasswordPolicy(input.password, 'password', input.username);
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : await unusableHash();
  try {
    return await db.transaction(async (tx) => {
      const row = await insertAdminUser(tx, {
        username: input.username,
        email: input.email,
        passwordHash,
        isSuperadmin: input.is_superadmin,
        createdAt: now,
        updatedAt: now,
      });
      if (input.password === undefined) await invite(tx, row, 'invite', secret, now);
      await insertAudit(tx, {
        ...who(by),
        action: 'admin_user.create',
        entityType: 'admin_user',
        entityId: row.id,
        before: null,
        after: { ...auditableAdmin(row), invited: input.password === undefined },
      });
      return toStaffDto(row, input.password === undefined);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('conflict', STAFF_MESSAGES.exists);
    throw err;
  }
}

async function lockById(tx: DbOrTx, id: number): Promise<AdminUser> {
  const row = await lockAdminById(tx, id);
  if (!row) throw new AppError('not_found', STAFF_MESSAGES.notFound(id));
  return row;
}

/**
 * POST /api/admin/users/{id}/deactivate and /activate. Deactivation ends every session of the admin
 * (the session version rises, as `npm run admin -- deactivate` does). The last active super admin
 * cannot be deactivated: every super admin row is locked first, so two deactivations at once cannot
 * both pass the count.
 */
export async function setStaffActive(db: Db, id: number, active: boolean, by: StaffActor, now: Date): Promise<StaffDto> {
  return db.transaction(async (tx) => {
    if (!active) await lockSuperadmins(tx);
    const before = await lockById(tx, id);
    if (!active && before.isSuperadmin && before.isActive) {
      if ((await countOtherActiveSuperadmins(tx, id)) === 0) throw new AppError('conflict', STAFF_MESSAGES.lastSuperadmin);
    }
    const row = await updateAdminUser(tx, id, { isActive: active, updatedAt: now }, !active);
    await insertAudit(tx, {
      ...who(by),
      action: active ? 'admin_user.activate' : 'admin_user.deactivate',
      entityType: 'admin_user',
      entityId: id,
      before: auditableAdmin(before),
      after: auditableAdmin(row),
    });
    return toStaffDto(row, false);
  });
}

/**
 * POST /api/admin/users/{id}/reset-password: the old password stops working and every session ends;
 * the admin gets a link (48 hours) to set a new one.
 */
export async function resetStaffPassword(db: Db, id: number, by: StaffActor, secret: string, now: Date): Promise<{ id: number; message: string }> {
  const passwordHash = await unusableHash();
  return db.transaction(async (tx) => {
    const before = await lockById(tx, id);
    if (!before.isActive) throw new AppError('conflict', STAFF_MESSAGES.inactive);
    const row = await updateAdminUser(tx, id, { passwordHash, updatedAt: now }, true);
    await invite(tx, row, 'reset', secret, now);
    await insertAudit(tx, {
      ...who(by),
      action: 'admin_user.password_reset',
      entityType: 'admin_user',
      entityId: id,
      before: auditableAdmin(before),
      after: auditableAdmin(row),
    });
    return { id, message: `A link to set a new password was sent to ${row.email}; it works for ${INVITATION_HOURS} hours.` };
  });
}

/**
 * POST /api/admin/me/password: the admin's own password; every session of theirs ends, this one gets a
 * new token from the route. The current password is a guess like a sign-in's (a stolen session could
 * try it over and over), so it is counted under the same throttle, for the same account and address.
 */
export async function changeOwnPassword(
  db: Db,
  me: AdminUser,
  current: string,
  next: string,
  now: Date,
  guard?: { throttle: LoginThrottle | undefined; address: string },
): Promise<AdminUser> {
  const account = throttleAccount(me, me.username);
  await guard?.throttle?.attempt(account, guard.address);
  if (!(await verifyPassword(me.passwordHash, current))) {
    await guard?.throttle?.fail(account);
    throw fieldError('current_password', STAFF_MESSAGES.wrongCurrent);
  }
  await guard?.throttle?.succeed(account, guard.address);
  if (current === next) throw fieldError('new_password', STAFF_MESSAGES.samePassword);
  checkPasswordPolicy(next, 'new_password', me.username);
  const passwordHash = await hashPassword(next);
  return db.transaction(async (tx) => {
    const before = await lockById(tx, me.id);
    // The password changed under us (another tab, a reset): the current one given is no longer it.
    if (before.passwordHash !== me.passwordHash) throw fieldError('current_password', STAFF_MESSAGES.wrongCurrent);
    const row = await updateAdminUser(tx, me.id, { passwordHash, updatedAt: now }, true);
    await insertAudit(tx, {
      ...who({ adminId: me.id }),
      action: 'admin_user.password_change',
      entityType: 'admin_user',
      entityId: me.id,
      before: auditableAdmin(before),
      after: auditableAdmin(row),
    });
    return row;
  });
}

/** POST /api/admin/set-password (no session: the link is the proof): one use, within 48 hours. */
export async function setPasswordWithLink(db: Db, token: string, password: string, now: Date): Promise<AdminUser> {
  const hash = tokenHash(token);
  const found = await findUsableInvitation(db, hash, now);
  if (!found) throw new AppError('validation', STAFF_MESSAGES.linkInvalid);
  if (!found.a.isActive) throw new AppError('conflict', STAFF_MESSAGES.inactive);
  checkPasswordPolicy(password, 'password', found.a.username);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // One use, even for two requests at once: only the one that marks the row goes on.
    if (!(await useInvitation(tx, found.i.id, now))) throw new AppError('validation', STAFF_MESSAGES.linkInvalid);
    const before = await lockById(tx, found.a.id);
    const row = await updateAdminUser(tx, found.a.id, { passwordHash, updatedAt: now }, true);
    await insertAudit(tx, {
      adminId: found.a.id,
      actor: `admin:${found.a.id}`,
      action: 'admin_user.password_set',
      entityType: 'admin_user',
      entityId: found.a.id,
      before: auditableAdmin(before),
      after: auditableAdmin(row),
    });
    return row;
  });
}

/** What the invitation mail needs: whose, which kind, and the link's token (derived, never stored). */
export async function invitationForMail(
  db: Db,
  invitationId: string,
  secret: string,
): Promise<{ admin: AdminUser; token: string; expiresAt: Date; used: boolean } | undefined> {
  const row = await findInvitation(db, invitationId);
  if (!row) return undefined;
  return { admin: row.a, token: invitationToken(secret, invitationId), expiresAt: row.i.expiresAt, used: row.i.usedAt !== null };
}
