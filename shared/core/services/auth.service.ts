import { createHash, createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import { isIPv6 } from 'node:net';
import jwt from 'jsonwebtoken';
import type { Redis } from 'ioredis';
import { ADMIN_MESSAGES as AM, type LoginResponse } from '../../contract/admin.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { deleteExpiredRevocations, findAdminByLogin, findAdminForToken, insertTokenRevocation, type AdminUser } from '../repositories/admin.repository.ts';
import { hashPassword, verifyPassword } from './admin-user.service.ts';

const ISSUER = 'wellbeing-booking';
const AUDIENCE = 'admin';

/** An admin allowed to use the admin API right now. */
export function mayUseAdminApi(a: AdminUser): boolean {
  return a.isActive && (a.isAdmin || a.isSuperadmin);
}

/** What a valid admin token says: whose it is, which of their sessions, its own id and its end. */
export type AdminTokenClaims = { adminId: number; sessionVersion: number; jti: string; expiresAt: Date };

/**
 * A token for `admin`'s current session version (sv): raising the version (deactivation, a new
 * password) refuses every token issued before. Its jti lets one token be revoked (sign-out).
 */
export function signAdminToken(admin: Pick<AdminUser, 'id' | 'sessionVersion'>, secret: string, ttlSeconds: number, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  return jwt.sign({ sub: String(admin.id), iat, sv: admin.sessionVersion }, signingKey(secret), {
    algorithm: 'HS256',
    expiresIn: ttlSeconds,
    issuer: ISSUER,
    audience: AUDIENCE,
    jwtid: randomUUID(),
  });
}

/**
 * The secret as the key jsonwebtoken makes of it, made once per secret. Given the string, jsonwebtoken
 * first tries to read it as a PEM public key, which throws, on every request an admin makes.
 */
const signingKeys = new Map<string, KeyObject>();
function signingKey(secret: string): KeyObject {
  let key = signingKeys.get(secret);
  if (!key) signingKeys.set(secret, (key = createSecretKey(Buffer.from(secret))));
  return key;
}

const JTI = /^[A-Za-z0-9_-]{16,64}$/;
/** The longest lifetime config.ts allows JWT_TTL_SECONDS. */
const MAX_TOKEN_LIFETIME_MS = 7 * 24 * 3600_000;

/** The claims of a token signed by us with HS256 and still fresh, or undefined for anything else. */
export function verifyAdminToken(token: string, secret: string, now: Date): AdminTokenClaims | undefined {
  try {
    const p = jwt.verify(token, signingKey(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      clockTimestamp: Math.floor(now.getTime() / 1000),
    });
    if (typeof p !== 'object' || typeof p.sub !== 'string' || !/^\d{1,9}$/.test(p.sub)) return undefined;
    // jsonwebtoken checks exp only when there is one: a token without it would never expire. Nor may
    // one claim longer than the longest lifetime we ever issue (JWT_TTL_SECONDS is at most 7 days).
    if (typeof p.exp !== 'number' || !Number.isFinite(p.exp) || p.exp * 1000 > now.getTime() + MAX_TOKEN_LIFETIME_MS) return undefined;
    if (typeof p.jti !== 'string' || !JTI.test(p.jti)) return undefined;
    if (!Number.isSafeInteger(p.sv) || (p.sv as number) < 1) return undefined;
    return { adminId: Number(p.sub), sessionVersion: p.sv as number, jti: p.jti, expiresAt: new Date(p.exp * 1000) };
  } catch {
    return undefined;
  }
}

export type AdminSession = { admin: AdminUser; token: AdminTokenClaims };

/**
 * Resolves a token to its admin's session, checked against the admin row as it is now: the admin is
 * active, the token's session version is theirs and the token was not revoked. Every way in (bearer
 * header, Bull Board's cookie) comes through here.
 */
export async function sessionFromToken(db: Db, token: string, secret: string, now: Date): Promise<AdminSession | undefined> {
  const claims = verifyAdminToken(token, secret, now);
  if (!claims) return undefined;
  const row = await findAdminForToken(db, claims.adminId, claims.jti);
  if (!row || row.revoked || row.admin.sessionVersion !== claims.sessionVersion || !mayUseAdminApi(row.admin)) return undefined;
  return { admin: row.admin, token: claims };
}

/** The admin of a token that sessionFromToken accepts. */
export async function adminFromToken(db: Db, token: string, secret: string, now: Date): Promise<AdminUser | undefined> {
  return (await sessionFromToken(db, token, secret, now))?.admin;
}

/** Sign-out: the token is refused from now until it expires. Old revocations are swept on the way. */
export async function signOut(db: Db, token: AdminTokenClaims, now: Date): Promise<void> {
  await insertTokenRevocation(db, { jti: token.jti, adminId: token.adminId, expiresAt: token.expiresAt });
  await deleteExpiredRevocations(db, now);
}

export type RateLimitRedis = Pick<Redis, 'multi'>;

export type ThrottleOptions = {
  /** Key prefix, so deployments and tests sharing a Redis do not mix counters (see loginThrottlePrefix). */
  prefix: string;
  windowSeconds: number;
  /** Failures for one account from one address before that address may not try that account again. */
  maxFailuresPerAccountAddress: number;
  /** Failures from one address, whatever the accounts, before that address may not sign in at all. */
  maxFailuresPerAddress: number;
  /** Failures for an account, from any address, before its failed answers are slowed. */
  slowAfter: number;
  /** Added delay per failure past slowAfter, capped at maxDelayMs. */
  delayStepMs: number;
  maxDelayMs: number;
};

export const DEFAULT_THROTTLE: Omit<ThrottleOptions, 'prefix'> = {
  windowSeconds: 15 * 60,
  maxFailuresPerAccountAddress: 5,
  maxFailuresPerAddress: 20,
  slowAfter: 2,
  delayStepMs: 500,
  maxDelayMs: 3000,
};

/** The throttle's keys sit next to the job queues' under QUEUE_PREFIX, so one Redis can serve several deployments. */
export function loginThrottlePrefix(queuePrefix: string): string {
  return `${queuePrefix}:login:`;
}

/**
 * The part of a client address that one client controls. An IPv6 client usually holds a whole /64,
 * so counting its single addresses would let it try 2^64 times: IPv6 counts by /64. An IPv4 address
 * reached over IPv6 (::ffff:a.b.c.d) counts as the IPv4 address.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address.slice(0, 64);
  const plain = address.toLowerCase().split('%')[0]!;
  const [head = '', tail] = plain.split('::') as [string, string | undefined];
  const split = (part: string) => (part ? part.split(':') : []);
  // A dotted IPv4 tail stands for two groups.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const left = split(head);
  const right = split(tail ?? '');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - width(left) - width(right)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Failed sign-in counters in Redis, shared by every API process. It throttles guessing, not the
 * owner: failures count per (account, address) and per address, so an attacker elsewhere cannot
 * lock the owner's clean address out. Failures per account only slow the failed answers.
 */
export class LoginThrottle {
  readonly redis: RateLimitRedis;
  readonly options: ThrottleOptions;
  readonly sleep: (ms: number) => Promise<void>;
  constructor(redis: RateLimitRedis, options: Partial<ThrottleOptions> & Pick<ThrottleOptions, 'prefix'>, sleep?: (ms: number) => Promise<void>) {
    this.redis = redis;
    this.options = { ...DEFAULT_THROTTLE, ...options };
    this.sleep = sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** [account at address, address] */
  private keys(account: string, address: string): [string, string] {
    const p = this.options.prefix;
    const addr = addressKey(address);
    return [`${p}acct:${account}:addr:${addr}`, `${p}addr:${addr}`];
  }

  /** Runs counter commands in one transaction; any failure is a 503 (we cannot tell an attack from a user). */
  private async run(build: (m: ReturnType<RateLimitRedis['multi']>) => unknown): Promise<number[]> {
    try {
      const m = this.redis.multi();
      build(m);
      const res = await m.exec();
      if (!res || res.some(([err]) => err)) throw new Error('counter command failed');
      return res.map(([, v]) => Number(v));
    } catch {
      throw new AppError('unavailable', AM.loginUnavailable);
    }
  }

  /**
   * Counts the attempt before any password is checked, and refuses with 429 once this address is past
   * its limit for this account or for all. Counting first (not checking, then counting failures) means
   * a burst of simultaneous guesses cannot all pass the check while the first ones are still being
   * verified. A refused attempt counts too, but the window does not move: it runs from the first.
   */
  async attempt(account: string, address: string): Promise<void> {
    const [pairKey, addrKey] = this.keys(account, address);
    const w = this.options.windowSeconds;
    const [pair = 0, , addr = 0] = await this.run((m) => m.incr(pairKey).expire(pairKey, w, 'NX').incr(addrKey).expire(addrKey, w, 'NX'));
    if (pair > this.options.maxFailuresPerAccountAddress || addr > this.options.maxFailuresPerAddress) {
      throw new AppError('rate_limited', AM.loginThrottled, undefined, { retryAfterSeconds: w });
    }
  }

  /** A failed attempt (already counted) slows the answer as failures for that account pile up from anywhere. */
  async fail(account: string): Promise<void> {
    const accountKey = `${this.options.prefix}acct:${account}`;
    const [accountFailures = 0] = await this.run((m) => m.incr(accountKey).expire(accountKey, this.options.windowSeconds, 'NX'));
    const over = accountFailures - this.options.slowAfter;
    if (over > 0 && this.options.delayStepMs > 0) await this.sleep(Math.min(over * this.options.delayStepMs, this.options.maxDelayMs));
  }

  /**
   * A success is not a failure: it takes back its own count from the address (so colleagues behind one
   * office address can all sign in) and clears this address's count for this account. The address's
   * other failures stay (an admin who signs in to their own account must not reset their guesses at
   * others), and so does the account's count. Should the address key have expired meanwhile, DECR
   * makes it anew: EXPIRE NX gives it a window too.
   */
  async succeed(account: string, address: string): Promise<void> {
    const [pairKey, addrKey] = this.keys(account, address);
    await this.run((m) => m.del(pairKey).decr(addrKey).expire(addrKey, this.options.windowSeconds, 'NX')).catch(() => {});
  }
}

/** The throttle of a deployment: keys under its QUEUE_PREFIX. */
export function createLoginThrottle(redis: RateLimitRedis, cfg: Pick<Config, 'queuePrefix'>, options: Partial<ThrottleOptions> = {}): LoginThrottle {
  return new LoginThrottle(redis, { ...options, prefix: loginThrottlePrefix(cfg.queuePrefix) });
}

let dummyHash: Promise<string> | undefined;
/** A real argon2id hash to verify against when the user does not exist, so timing does not tell. */
export function dummy(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-0123456789');
  return dummyHash;
}

/**
 * The throttle's name for what a login names. A username and an e-mail of one admin are one account,
 * so each does not get its own allowance; an unknown login is hashed, so no typed e-mail sits in Redis.
 */
export function throttleAccount(admin: AdminUser | undefined, login: string): string {
  return admin ? `id${admin.id}` : `h${createHash('sha256').update(login.trim().toLowerCase()).digest('base64url').slice(0, 32)}`;
}

/**
 * A sign-in attempt from `address`: the admin, or undefined for any failure (wrong password, unknown
 * or inactive admin), with the same work done whether or not the user exists. Throws 429 when the
 * throttle refuses the address (before any password is checked) and 503 when it cannot count.
 */
export async function signIn(db: Db, throttle: LoginThrottle | undefined, login: string, password: string, address: string): Promise<AdminUser | undefined> {
  const admin = await findAdminByLogin(db, login);
  const account = throttleAccount(admin, login);
  await throttle?.attempt(account, address);
  const ok = await verifyPassword(admin?.passwordHash ?? (await dummy()), password);
  if (ok && admin && mayUseAdminApi(admin)) {
    await throttle?.succeed(account, address);
    return admin;
  }
  await throttle?.fail(account);
  return undefined;
}

export function loginResponse(admin: AdminUser, secret: string, ttlSeconds: number, now: Date): LoginResponse {
  return {
    access_token: signAdminToken(admin, secret, ttlSeconds, now),
    token_type: 'bearer',
    username: admin.username,
    is_superadmin: admin.isSuperadmin,
    is_admin: admin.isAdmin,
    is_active: admin.isActive,
  };
}
