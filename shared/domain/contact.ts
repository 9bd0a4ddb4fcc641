/**
 * A client's contact details as people in India write them. Pure and browser-safe: the wizard, the
 * admin form and the server's zod schemas share these, so what the browser accepts the server stores.
 */

/** Spaces, dashes, dots and brackets people put in a number (`+91 98765-43210`, `(022) …`). */
const MOBILE_SEPARATORS = /[\s\-.()\u00a0]/g;
/** An optional +91, 0091 or 91 country code, then an optional trunk 0, then the 10 digits. */
const INDIAN_MOBILE = /^(?:(?:\+|00)?91)?0?(\d{10})$/;

/**
 * The 10 digits of an Indian mobile number written in any common form: `09876543210`,
 * `+91 98765 43210`, `91-98765-43210` and `9876543210` all give `9876543210`. Anything that is
 * not such a number is returned with its separators removed, for the 10-digit rule to refuse.
 */
export function normaliseIndianMobile(raw: string): string {
  const compact = raw.trim().replace(MOBILE_SEPARATORS, '');
  return INDIAN_MOBILE.exec(compact)?.[1] ?? compact;
}

/**
 * What a mobile field shows once the person leaves it: the 10 digits when what was typed or pasted
 * is an Indian mobile in one of the forms above, else exactly what was typed, for the 10-digit rule
 * to refuse with its message (never a cut-off part of it, which could look like a valid number).
 * The wizard's field and every mobile field of the panel use this.
 */
export function tidyMobileInput(raw: string): string {
  const digits = normaliseIndianMobile(raw);
  return /^\d{10}$/.test(digits) ? digits : raw;
}

/** A saved mobile as a `tel:` link: the 10 digits dial as +91; anything else as written (digits and +). */
export function mobileTelHref(mobile: string): string {
  const digits = normaliseIndianMobile(mobile);
  return /^\d{10}$/.test(digits) ? `tel:+91${digits}` : `tel:${mobile.replace(/[^\d+]/g, '')}`;
}

/** A saved mobile as people read it aloud: `98765 43210`; anything else as written. */
export function formatMobile(mobile: string): string {
  const digits = normaliseIndianMobile(mobile);
  return /^\d{10}$/.test(digits) ? `${digits.slice(0, 5)} ${digits.slice(5)}` : mobile;
}

/** The hint under a mobile field, in the wizard and the panel alike. */
export const MOBILE_HINT = '10-digit mobile number; +91 or a leading 0 is fine';

// One label of a domain: letters, digits and inner hyphens (and any non-ASCII letter, for IDNs).
const DOMAIN_LABEL = /^[^\s@.\-_][^\s@._]*$/u;
const LOCAL_PART = /^[^\s@]+$/;

/**
 * Something an e-mail can be delivered to: local@domain.tld, no spaces, no empty part between
 * dots on either side (`user@example..com`, `.user@x.in`, `user.@x.in` are refused), no label
 * ending in a hyphen, and a top-level domain of at least two letters.
 */
export function isEmailAddress(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at <= 0 || at !== value.indexOf('@')) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!LOCAL_PART.test(local) || local.split('.').some((part) => part === '')) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((l) => DOMAIN_LABEL.test(l) && !l.endsWith('-'))) return false;
  return /^[\p{L}\p{M}]{2,}$/u.test(labels[labels.length - 1]!);
}
