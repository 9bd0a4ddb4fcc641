import jwt from 'jsonwebtoken';
import type { Redis } from 'ioredis';
import { ADMIN_MESSAGES as AM, type LoginResponse } from '../../contract/admin.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { findAdminById, findAdminByLogin, type AdminUser } from '../repositories/admin.repository.ts';
import { hashPassword, verifyPassword } from './admin-user.service.ts';

const ISSUER = 'wellbeing-booking';
const AUDIENCE = 'admin';

/** An admin allowed to use the admin API right now. */
export function mayUseAdminApi(a: AdminUser): boolean {
  return a.isActive && (a.isAdmin || a.isSuperadmin);
}

export function signAdminToken(adminId: number, secret: string, ttlSeconds: number, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  return jwt.sign({ sub: String(adminId), iat }, secret, { algorithm: 'HS256', expiresIn: ttlSeconds, issuer: ISSUER, audience: AUDIENCE });
}

/** The admin id a token carries, or undefined for anything not signed by us with HS256 and still fresh. */
export function verifyAdminToken(token: string, secret: string, now: Date): number | undefined {
  try {
    const payload = jwt.verify(token, secret, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      clockTimestamp: Math.floor(now.getTime() / 1000),
    });
    if (typeof payload !== 'object' || typeof payload.sub !== 'string' || !/^\d{1,9}$/.test(payload.sub)) return undefined;
    return Number(payload.sub);
  } catch {
    return undefined;
  }
}

/** Resolves a bearer token to an admin who is active now (deactivation bites on the next request). */
export async function adminFromToken(db: Db, token: string, secret: string, now: Date): Promise<AdminUser | undefined> {
  const id = verifyAdminToken(token, secret, now);
  if (id === undefined) return undefined;
  const admin = await findAdminById(db, id);
  return admin && mayUseAdminApi(admin) ? admin : undefined;
}

export type RateLimitRedis = Pick<Redis, 'multi' | 'mget' | 'del' | 'ttl'>;

export type ThrottleOptions = {
  /** Key prefix, so tests and deployments sharing a Redis do not mix counters. */
  prefix: string;
  windowSeconds: number;
  maxFailuresPerUser: number;
  maxFailuresPerAddress: number;
  /** Failures per username before answers are slowed. */
  slowAfter: number;
  /** Added delay per failure past slowAfter, capped at maxDelayMs. */
  delayStepMs: number;
  maxDelayMs: number;
};

export const DEFAULT_THROTTLE: ThrottleOptions = {
  prefix: 'booking:login:',
  windowSeconds: 15 * 60,
  maxFailuresPerUser: 5,
  maxFailuresPerAddress: 20,
  slowAfter: 2,
  delayStepMs: 500,
  maxDelayMs: 3000,
};

/** Failed sign-in counters in Redis, shared by every API process. */
export class LoginThrottle {
  readonly redis: RateLimitRedis;
  readonly options: ThrottleOptions;
  readonly sleep: (ms: number) => Promise<void>;
  constructor(redis: RateLimitRedis, options: Partial<ThrottleOptions> = {}, sleep?: (ms: number) => Promise<void>) {
    this.redis = redis;
    this.options = { ...DEFAULT_THROTTLE, ...options };
    this.sleep = sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  private keys(username: string, address: string): [string, string] {
    const p = this.options.prefix;
    return [`${p}user:${username.trim().toLowerCase()}`, `${p}addr:${address}`];
  }

  /** Refuses with 429 while either counter is at its limit. */
  async check(username: string, address: string): Promise<void> {
    const [userKey, addrKey] = this.keys(username, address);
    let counts: (string | null)[];
    try {
      counts = await this.redis.mget(userKey, addrKey);
    } catch {
      // Without the counters we cannot tell an attack from a user: refuse rather than allow guessing.
      throw new AppError('unavailable', AM.loginUnavailable);
    }
    const user = Number(counts[0] ?? 0);
    const addr = Number(counts[1] ?? 0);
    if (user >= this.options.maxFailuresPerUser || addr >= this.options.maxFailuresPerAddress) {
      throw new AppError('rate_limited', AM.loginThrottled);
    }
  }

  /** Counts a failure and slows the answer as failures for that username pile up. */
  async fail(username: string, address: string): Promise<void> {
    const [userKey, addrKey] = this.keys(username, address);
    const w = this.options.windowSeconds;
    let userFailures = 0;
    try {
      const res = await this.redis.multi().incr(userKey).expire(userKey, w, 'NX').incr(addrKey).expire(addrKey, w, 'NX').exec();
      userFailures = Number(res?.[0]?.[1] ?? 0);
    } catch {
      throw new AppError('unavailable', AM.loginUnavailable);
    }
    const over = userFailures - this.options.slowAfter;
    if (over > 0 && this.options.delayStepMs > 0) await this.sleep(Math.min(over * this.options.delayStepMs, this.options.maxDelayMs));
  }

  async succeed(username: string): Promise<void> {
    const [userKey] = this.keys(username, '');
    await this.redis.del(userKey).catch(() => {});
  }
}

let dummyHash: Promise<string> | undefined;
/** A real argon2id hash to verify against when the user does not exist, so timing does not tell. */
export function dummy(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-0123456789');
  return dummyHash;
}

/** Checks credentials; undefined for any failure, with the same work done whether or not the user exists. */
export async function checkCredentials(db: Db, login: string, password: string): Promise<AdminUser | undefined> {
  const admin = await findAdminByLogin(db, login);
  const ok = await verifyPassword(admin?.passwordHash ?? (await dummy()), password);
  return ok && admin && mayUseAdminApi(admin) ? admin : undefined;
}

export function loginResponse(admin: AdminUser, secret: string, ttlSeconds: number, now: Date): LoginResponse {
  return {
    access_token: signAdminToken(admin.id, secret, ttlSeconds, now),
    token_type: 'bearer',
    username: admin.username,
    is_superadmin: admin.isSuperadmin,
    is_admin: admin.isAdmin,
    is_active: admin.isActive,
  };
}
