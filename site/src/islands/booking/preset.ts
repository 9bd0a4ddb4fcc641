/**
 * /book?therapist={id}, from a "Book with {name}" link on /team: the wizard starts with that therapist
 * chosen, the session type (online or in person) and, in person, the centre taken from the therapist,
 * on the date and time step. Back still leads through the therapist, centre and type steps.
 * Choosing (therapist-link.ts) reads the catalogue, so it loads only when the address asks for it.
 */

export const THERAPIST_PARAM = 'therapist';

/** The therapist asked for in the address, if any. */
export function therapistInAddress(search: string): number | null {
  const raw = new URLSearchParams(search).get(THERAPIST_PARAM);
  return raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

/** The address without the therapist asked for: a reload later keeps the client's own progress. */
export function withoutTherapist(href: string): string {
  const u = new URL(href);
  u.searchParams.delete(THERAPIST_PARAM);
  return `${u.pathname}${u.search}${u.hash}`;
}
