/**
 * The admin session (spec section 3): the bearer token and the signed-in admin's details, kept in
 * the browser's session storage under two keys and mirrored in a nanostore for the islands.
 */
import { atom } from 'nanostores';

export const ADMIN_TOKEN_KEY = 'adminToken';
export const ADMIN_USER_KEY = 'adminUser';
/** A one-shot message for the login screen (e.g. after a 401 elsewhere). */
export const ADMIN_FLASH_KEY = 'adminFlash';

export type AdminUser = {
  username: string;
  is_superadmin: boolean;
  is_admin: boolean;
  is_active: boolean;
};

export type AdminSession = { token: string; user: AdminUser };

export const $adminSession = atom<AdminSession | null>(null);

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

function parseUser(raw: string | null): AdminUser | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<AdminUser> | null;
    if (!v || typeof v !== 'object' || typeof v.username !== 'string') return null;
    return {
      username: v.username,
      is_superadmin: v.is_superadmin === true,
      is_admin: v.is_admin === true,
      is_active: v.is_active === true,
    };
  } catch {
    return null;
  }
}

/**
 * Reads the stored session on start. A token without an active stored user (or a user without a
 * token) is not a session: both keys are cleared.
 */
export function loadSession(): AdminSession | null {
  const s = storage();
  const token = s?.getItem(ADMIN_TOKEN_KEY) ?? null;
  const user = parseUser(s?.getItem(ADMIN_USER_KEY) ?? null);
  if (!token || !user?.is_active) {
    s?.removeItem(ADMIN_TOKEN_KEY);
    s?.removeItem(ADMIN_USER_KEY);
    $adminSession.set(null);
    return null;
  }
  const session = { token, user };
  $adminSession.set(session);
  return session;
}

export function saveSession(token: string, user: AdminUser): AdminSession {
  const s = storage();
  s?.setItem(ADMIN_TOKEN_KEY, token);
  s?.setItem(ADMIN_USER_KEY, JSON.stringify(user));
  const session = { token, user };
  $adminSession.set(session);
  return session;
}

/** Clears both keys; `flash` is shown once on the login screen. */
export function clearSession(flash?: string): void {
  const s = storage();
  s?.removeItem(ADMIN_TOKEN_KEY);
  s?.removeItem(ADMIN_USER_KEY);
  if (flash) s?.setItem(ADMIN_FLASH_KEY, flash);
  $adminSession.set(null);
}

export function takeFlash(): string | null {
  const s = storage();
  const msg = s?.getItem(ADMIN_FLASH_KEY) ?? null;
  if (msg) s?.removeItem(ADMIN_FLASH_KEY);
  return msg;
}

export function storedToken(): string | null {
  return storage()?.getItem(ADMIN_TOKEN_KEY) ?? null;
}
