/** Display rules for therapists and services (spec section 3). */

/**
 * A therapist's name as every page, e-mail and checkout shows it to clients (the one home of it): the
 * part after the first period, trimmed, "Dr. Asha Mehta" → "Asha Mehta" (spec section 3); the whole
 * name when nothing follows the period. The panel's calendar adds its own "Dr." as the spec asks.
 */
export function displayName(name: string): string {
  const i = name.indexOf('.');
  const rest = (i === -1 ? name : name.slice(i + 1)).trim();
  return rest === '' ? name.trim() : rest;
}

/** Bio is pipe-separated: index 0 the description, index 2 the experience. */
export function bioDescription(bio: string | null | undefined): string {
  return (bio ?? '').split('|')[0]?.trim() ?? '';
}

export function bioExperience(bio: string | null | undefined): string {
  return (bio ?? '').split('|')[2]?.trim() ?? '';
}

/** Only the part before '(' of a service name is shown. */
export function serviceLabel(name: string): string {
  return name.split('(')[0]!.trim();
}

export const THERAPIST_TYPE = { ONLINE: 1, OFFLINE: 2 } as const;

/** The admin side treats any type other than 1 as offline. */
export function isOnlineType(type: number): boolean {
  return type === THERAPIST_TYPE.ONLINE;
}

/** Bio index 3, when present, lists the languages the therapist works in ("English, Hindi"). */
export function bioLanguages(bio: string | null | undefined): string {
  return (bio ?? '').split('|')[3]?.trim() ?? '';
}
