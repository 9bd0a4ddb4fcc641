// Apart from the wizard's payment step (whose checks bring zod) so Manage booking can use it: zod's
// JIT trips the public pages' CSP (no eval).
/**
 * In person there is no payment link: the booking's own transaction id stands in for it, and the
 * server finds the booking by it (a bare booking number would let anyone read others' bookings).
 */
export function offlineStatusUrl(bookingId: number, transactionId: string): string {
  const q = new URLSearchParams({
    razorpay_payment_link_id: transactionId,
    razorpay_payment_link_status: 'pending',
    booking_id: String(bookingId),
  });
  return `/payment-status?${q.toString()}`;
}
