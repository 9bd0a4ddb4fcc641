import argon2 from 'argon2';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { adminUsers } from '../db/schema.ts';
import { AppError, isUniqueViolation } from '../errors.ts';
import type { AdminUser } from '../repositories/admin.repository.ts';

/** argon2id with OWASP's recommended memory and time costs. */
export const PASSWORD_HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const newAdminSchema = z.strictObject({
  username: z
    .string()
    .trim()
    .min(3, { error: 'Username must be at least 3 characters' })
    .max(50)
    .regex(/^[A-Za-z0-9._-]+$/, { error: 'Username may hold letters, digits, dot, dash and underscore only' }),
  email: z.email({ error: 'Please enter a valid email address' }).max(254),
  password: z.string().min(12, { error: 'Password must be at least 12 characters' }).max(256),
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

export async function createAdminUser(db: Db, input: z.input<typeof newAdminSchema>): Promise<AdminUser> {
  const data = newAdminSchema.parse(input);
  try {
    const [row] = await db
      .insert(adminUsers)
      .values({
        username: data.username,
        email: data.email.toLowerCase(),
        passwordHash: await hashPassword(data.password),
        isSuperadmin: data.isSuperadmin,
      })
      .returning();
    return row!;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('conflict', 'An admin with this username or email already exists.');
    throw err;
  }
}

export async function setAdminActive(db: Db, username: string, active: boolean): Promise<AdminUser> {
  const [row] = await db
    .update(adminUsers)
    .set({ isActive: active, updatedAt: new Date() })
    .where(eq(sql`lower(${adminUsers.username})`, username.trim().toLowerCase()))
    .returning();
  if (!row) throw new AppError('not_found', `No admin named ${username}.`);
  return row;
}
