import { formatRupees, paiseToRupees } from './money.ts';

/**
 * What the panel shows beside a booking's payment status when its money says more than the status:
 * a payment that arrived for a booking that was not going to take place (cancelled, or its hold over
 * and the slot gone), and whether it went back; refunds of a paid booking. Null when the status says it.
 */
export function paymentNote(b: { paymentStatus: string; cancelled: boolean; paidPaise: number; refundedPaise: number }): string | null {
  if (b.paidPaise <= 0) return null;
  const stray = b.paymentStatus !== 'COMPLETED';
  if (stray) {
    const what = b.cancelled ? 'Paid after cancellation' : 'Paid after the booking ended';
    return b.refundedPaise >= b.paidPaise ? `${what} — refunded` : `${what} — refund due`;
  }
  if (b.refundedPaise <= 0) return null;
  const amount = formatRupees(paiseToRupees(b.refundedPaise));
  return b.refundedPaise >= b.paidPaise ? `Refunded ${amount}` : `Partly refunded ${amount}`;
}
