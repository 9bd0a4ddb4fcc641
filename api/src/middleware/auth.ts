import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { ADMIN_MESSAGES as AM } from '../../../shared/contract/admin.ts';
import { AppError } from '../../../shared/core/errors.ts';
import type { AdminUser } from '../../../shared/core/repositories/admin.repository.ts';
import {
  adminFromToken,
  dummy,
  loginResponse,
  sessionFromToken,
  signIn,
  signOut,
  type AdminSession,
  type AdminTokenClaims,
} from '../../../shared/core/services/auth.service.ts';
import type { Actor } from '../../../shared/core/services/booking.service.ts';
import type { AppDeps } from '../deps.ts';

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/i;

function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string' || header.length > 4096) return undefined;
  return BEARER.exec(header.trim())?.[1];
}

/** The session of the request's bearer token, if sessionFromToken accepts it. */
async function sessionOf(deps: AppDeps, req: IncomingMessage): Promise<AdminSession | undefined> {
  const token = bearerToken(req);
  return token ? sessionFromToken(deps.db, token, deps.config.jwtSecret, deps.now()) : undefined;
}

export async function adminOf(deps: AppDeps, req: IncomingMessage): Promise<AdminUser | undefined> {
  return (await sessionOf(deps, req))?.admin;
}

/** The signed-in admin of a request that passed requireAdmin. */
export function currentAdmin(res: Response): AdminUser {
  return res.locals.admin as AdminUser;
}

/** The token a request that passed requireAdmin presented. */
export function currentToken(res: Response): AdminTokenClaims {
  return res.locals.adminToken as AdminTokenClaims;
}

/**
 * Answers that carry client records or a token: no browser or proxy may keep them (a desk computer is
 * shared, and its back button must not show the last admin's lists). requireAdmin and the sign-in set
 * it too.
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** A valid token of an admin who is active now; the admin row is re-read on every request. */
export function requireAdmin(deps: AppDeps): RequestHandler {
  return async (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    const session = await sessionOf(deps, req);
    if (!session) return next(new AppError('unauthorized', AM.unauthorized));
    res.locals.admin = session.admin;
    res.locals.adminToken = session.token;
    next();
  };
}

/** After requireAdmin: only a super admin passes; anyone else gets 403 with `message` (what they may not do). */
export function superadminOnly(message: string): RequestHandler {
  return (_req, res, next) => {
    if (!currentAdmin(res).isSuperadmin) return next(new AppError('forbidden', message));
    next();
  };
}

export const requireSuperadmin: RequestHandler = superadminOnly(AM.superadminOnly);

/** deps.authenticateAdmin: the bearer token's admin as a booking actor. */
export function bearerAdminActor(deps: AppDeps): (req: IncomingMessage) => Promise<Actor | undefined> {
  return async (req) => {
    const admin = await adminOf(deps, req);
    return admin ? { kind: 'admin', adminId: admin.id } : undefined;
  };
}

/**
 * The client's address: the socket's, or X-Forwarded-For's as read through the proxies TRUST_PROXY
 * names (app.ts sets Express's 'trust proxy'); any other caller could otherwise pick its own.
 */
function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * POST /api/admin/login through passport-local without sessions. The strategy signs in under the
 * throttle: an address over its limit is refused before any password is checked.
 */
export function loginHandler(deps: AppDeps): RequestHandler {
  // Hash the dummy password now, so the first unknown-user attempt is not the slow one.
  void dummy();
  const passport = new Passport();
  passport.use(
    new LocalStrategy({ usernameField: 'username', passwordField: 'password', session: false, passReqToCallback: true }, (req, username, password, done) => {
      signIn(deps.db, deps.loginThrottle, username, password, clientAddress(req)).then(
        (admin) => done(null, admin ?? false),
        (err: unknown) => done(err),
      );
    }),
  );
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (!username || !password || username.length > 254 || password.length > 256) {
      return next(new AppError('validation', AM.loginMissing));
    }
    passport.authenticate('local', { session: false }, (err: unknown, admin: AdminUser | false) => {
      if (err) return next(err);
      if (!admin) return next(new AppError('unauthorized', AM.loginFailed));
      res.json(loginResponse(admin, deps.config.jwtSecret, deps.config.jwtTtlSeconds, deps.now()));
    })(req, res, next);
  };
}

/** Bull Board is a page, so the browser cannot attach the bearer token: a scoped cookie carries it. */
export const QUEUES_COOKIE = 'admin_queues_token';
const QUEUES_PATH = '/admin/queues';
/** The panel's page that opens the board (site/src/pages/admin/open-queues.astro). */
export const QUEUES_OPENER_PATH = '/admin/open-queues';

function cookieToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string' || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === QUEUES_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/** POST /api/admin/queues-session: a super admin's token becomes an HttpOnly cookie for /admin/queues. */
export function queuesSessionHandler(deps: AppDeps): RequestHandler {
  return (req, res) => {
    const token = bearerToken(req)!;
    res.cookie(QUEUES_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: deps.config.publicBaseUrl.startsWith('https://'),
      path: QUEUES_PATH,
      maxAge: deps.config.jwtTtlSeconds * 1000,
    });
    res.json({ url: QUEUES_PATH });
  };
}

export const SIGNED_OUT = 'Signed out.';

/**
 * POST /api/admin/logout (behind requireAdmin): the presented token is refused from now on, here and
 * on Bull Board, whose cookie carries the same token and is dropped too.
 */
export function logoutHandler(deps: AppDeps): RequestHandler {
  return async (_req, res) => {
    await signOut(deps.db, currentToken(res), deps.now());
    res.clearCookie(QUEUES_COOKIE, { httpOnly: true, sameSite: 'strict', secure: deps.config.publicBaseUrl.startsWith('https://'), path: QUEUES_PATH });
    res.json({ message: SIGNED_OUT });
  };
}

/** Guard of /admin/queues: a super admin who is active now, by bearer header or the scoped cookie. */
export function queuesGuard(deps: AppDeps): RequestHandler {
  return async (req, res, next) => {
    try {
      const token = bearerToken(req) ?? cookieToken(req);
      const admin = token ? await adminFromToken(deps.db, token, deps.config.jwtSecret, deps.now()) : undefined;
      if (!admin) {
        // A typed or bookmarked address: the panel's page turns the signed-in admin's token into the
        // board's cookie and comes back (or asks them to sign in first).
        if (req.accepts(['json', 'html']) === 'html') return res.redirect(302, QUEUES_OPENER_PATH);
        return next(new AppError('unauthorized', AM.unauthorized));
      }
      if (!admin.isSuperadmin) return next(new AppError('forbidden', AM.superadminOnly));
      next();
    } catch (err) {
      next(err);
    }
  };
}
