/**
 * Data fetched from the API while the static site is being built.
 *
 * Everything here runs in Node during `astro build` only; nothing is shipped to
 * the browser. A failing or unreachable API must never break the build, so
 * every call degrades to an empty result.
 */

/** Therapist as returned by GET /therapists (spec section 3). */
export interface ApiTherapist {
  id: number | string;
  name: string;
  title?: string | null;
  specialization?: string | null;
  /** Pipe-separated: index 0 is the description, index 2 is the experience. */
  bio?: string | null;
  /** Rupees, or null when not set. */
  price?: number | null;
  /** File name; the image is served at /get_specific_image/{image_url}. */
  image_url?: string | null;
  /** 1 = online, 2 = offline (anything other than 1 is treated as offline). */
  type?: number | string | null;
}

/** Shape the /team page renders. */
export interface TeamMember {
  id: string;
  fullName: string;
  displayName: string;
  initials: string;
  title: string;
  specialization: string;
  description: string;
  experience: string;
  imageSrc: string | null;
  mode: 'online' | 'offline';
  modeLabel: 'Online' | 'In-person';
}

const DEFAULT_API_URL = 'http://127.0.0.1:3000';
const FETCH_TIMEOUT_MS = 8000;

function apiBaseUrl(): string {
  const raw = process.env.BUILD_API_URL ?? DEFAULT_API_URL;
  return raw.replace(/\/+$/, '');
}

function isTherapist(value: unknown): value is ApiTherapist {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    (typeof v.id === 'number' || typeof v.id === 'string') &&
    typeof v.name === 'string' &&
    v.name.trim() !== ''
  );
}

/**
 * GET {BUILD_API_URL}/therapists. Returns [] when the API is unreachable,
 * answers with a non-OK status, or returns something that is not a list.
 */
export async function fetchTherapistsForBuild(): Promise<ApiTherapist[]> {
  const url = `${apiBaseUrl()}/therapists`;
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) {
      console.warn(`[build-data] ${url} answered HTTP ${response.status}; building /team without therapists.`);
      return [];
    }
    const body: unknown = await response.json();
    if (!Array.isArray(body)) {
      console.warn(`[build-data] ${url} did not return a list; building /team without therapists.`);
      return [];
    }
    return body.filter(isTherapist);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`[build-data] could not fetch ${url} (${reason}); building /team without therapists.`);
    return [];
  }
}

/** The displayed name is the part after the first period, trimmed (drops "Dr." and similar). */
export function therapistDisplayName(name: string): string {
  const dot = name.indexOf('.');
  const rest = dot === -1 ? name : name.slice(dot + 1);
  const trimmed = rest.trim();
  return trimmed === '' ? name.trim() : trimmed;
}

/** Splits the pipe-separated bio: index 0 is the description, index 2 the experience. */
export function parseBio(bio: string | null | undefined): { description: string; experience: string } {
  const parts = (bio ?? '').split('|').map((part) => part.trim());
  const description = parts[0] ?? '';
  let experience = parts[2] ?? '';
  if (/^\d+(\.\d+)?\+?$/.test(experience)) {
    experience = `${experience} ${experience === '1' ? 'year' : 'years'}`;
  }
  return { description, experience };
}

/** Therapist photo URL (same origin as the site). */
export function therapistImageSrc(imageUrl: string | null | undefined): string | null {
  const file = (imageUrl ?? '').trim();
  if (file === '') return null;
  return `/get_specific_image/${encodeURIComponent(file)}`;
}

function initialsOf(name: string): string {
  const words = name.split(/\s+/).filter((w) => /^[\p{L}]/u.test(w));
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase() || '?';
}

export function toTeamMember(t: ApiTherapist): TeamMember {
  const displayName = therapistDisplayName(t.name);
  const { description, experience } = parseBio(t.bio);
  const online = Number(t.type) === 1;
  return {
    id: String(t.id),
    fullName: t.name.trim(),
    displayName,
    initials: initialsOf(displayName),
    title: (t.title ?? '').trim(),
    specialization: (t.specialization ?? '').trim(),
    description,
    experience,
    imageSrc: therapistImageSrc(t.image_url),
    mode: online ? 'online' : 'offline',
    modeLabel: online ? 'Online' : 'In-person',
  };
}

/** A centre as GET /locations answers it. */
export interface ApiLocation {
  id: number;
  name: string;
  address: string;
  phone: string;
}

/**
 * GET {BUILD_API_URL}/locations, so the Contact page shows each centre's own phone as the wizard
 * does. [] when the API cannot be reached; the page then uses the configured branches.
 */
export async function fetchLocationsForBuild(): Promise<ApiLocation[]> {
  const url = `${apiBaseUrl()}/locations`;
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!response.ok) return [];
    const body: unknown = await response.json();
    if (!Array.isArray(body)) return [];
    return body.filter(
      (l): l is ApiLocation => typeof l === 'object' && l !== null && typeof l.name === 'string' && typeof l.phone === 'string' && l.phone.trim() !== '',
    );
  } catch (error) {
    console.warn(`[build-data] could not fetch ${url} (${error instanceof Error ? error.message : String(error)}); using the configured centres' phones.`);
    return [];
  }
}
