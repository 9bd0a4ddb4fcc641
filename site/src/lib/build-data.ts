/**
 * Data fetched from the API while the static site is being built.
 *
 * Everything here runs in Node during `astro build` only; nothing is shipped to
 * the browser. A failing or unreachable API must never break the build, so
 * every call degrades to an empty result.
 */
import { z } from 'zod';
import { locationDtoSchema, therapistDtoSchema, type LocationDto, type TherapistDto } from '../../../shared/contract/public.ts';
import { displayName } from '../../../shared/domain/therapist.ts';

/**
 * A therapist as GET /therapists answers it: the contract's TherapistDto (bio pipe-separated, index 0
 * the description and 2 the experience; image_url a file served at /get_specific_image/{image_url};
 * type 1 online, anything else in person).
 */
export type ApiTherapist = TherapistDto;

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

/**
 * The contract's shapes, read leniently: a field the build does not know is dropped rather than
 * costing the page its therapists, and an entry that does not fit is left out.
 */
const therapistForBuild = z.object(therapistDtoSchema.shape).refine((t) => t.name.trim() !== '');
const locationForBuild = z.object(locationDtoSchema.shape);

function fitting<T>(schema: z.ZodType<T>, list: unknown[]): T[] {
  return list.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
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
    return fitting(therapistForBuild, body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`[build-data] could not fetch ${url} (${reason}); building /team without therapists.`);
    return [];
  }
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
  const name = displayName(t.name);
  const { description, experience } = parseBio(t.bio);
  const online = Number(t.type) === 1;
  return {
    id: String(t.id),
    fullName: t.name.trim(),
    displayName: name,
    initials: initialsOf(name),
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
export type ApiLocation = LocationDto;

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
    return fitting(locationForBuild, body).filter((l) => l.phone.trim() !== '');
  } catch (error) {
    console.warn(`[build-data] could not fetch ${url} (${error instanceof Error ? error.message : String(error)}); using the configured centres' phones.`);
    return [];
  }
}
