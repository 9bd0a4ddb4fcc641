/**
 * A payment link's reference_id, which Razorpay keeps unique across all of an account's links: the
 * booking's first link (the wizard's) is the booking id, so a retried creation finds it again by that
 * id; every later link (shareable, or after the first was closed) adds a suffix of its own. Pure and
 * browser-safe: the payment-status page reads the booking from it too.
 */
export function linkReference(bookingId: number, later?: string): string {
  return later ? `${bookingId}-${later}` : String(bookingId);
}

/** The booking a reference_id points to (either form of linkReference), or undefined. */
export function bookingOfReference(reference: string | null | undefined): number | undefined {
  const m = reference ? /^([1-9]\d{0,8})(?:-[A-Za-z0-9]{1,16})?$/.exec(reference) : null;
  return m ? Number(m[1]) : undefined;
}

/**
 * A package sale's link (issue 34): `pkg-{sale id}-{suffix}`, which no booking reference matches, so a
 * payment for a package is never taken for a booking's.
 */
export function saleLinkReference(saleId: number, suffix: string): string {
  return `pkg-${saleId}-${suffix}`;
}

/** The package sale a reference_id points to, or undefined. */
export function saleOfReference(reference: string | null | undefined): number | undefined {
  const m = reference ? /^pkg-([1-9]\d{0,8})-[A-Za-z0-9]{1,16}$/.exec(reference) : null;
  return m ? Number(m[1]) : undefined;
}
