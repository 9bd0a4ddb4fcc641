/**
 * A booking's payment in words, for every list the panel shows (issue 31): the one place that reads
 * a booking's status and its ledger money together and says what the desk needs to know. The spec's
 * status badge stays beside it; these words never decide anything the server does.
 */
export const PAYMENT_STATES = [
  'PAID',
  'PAY_AT_CENTRE',
  'AWAITING_PAYMENT',
  'HELD_FOR_WAITLIST',
  'PAYMENT_NOT_RECORDED',
  'NO_CHARGE',
  'NOT_PAID',
  'REFUND_DUE',
  'REFUND_REVIEW',
  'REFUNDED',
  'CANCELLED',
  'BLOCKED',
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

export const PAYMENT_STATE_WORDS: Record<PaymentState, string> = {
  PAID: 'Paid',
  PAY_AT_CENTRE: 'Pay at centre',
  AWAITING_PAYMENT: 'Awaiting payment',
  HELD_FOR_WAITLIST: 'Held for waitlist',
  PAYMENT_NOT_RECORDED: 'Payment not recorded',
  NO_CHARGE: 'No charge',
  NOT_PAID: 'Not paid',
  REFUND_DUE: 'Refund due at centre',
  REFUND_REVIEW: 'Refund under review',
  REFUNDED: 'Refunded',
  CANCELLED: 'Cancelled',
  BLOCKED: 'Blocked',
};

export type PaymentStateInput = {
  bookingType: 'ONLINE' | 'OFFLINE' | 'ADMIN_BLOCK';
  paymentStatus: string;
  cancelled: boolean;
  amountPaise: number;
  /** Captured in the ledger, and returned (positive). */
  paidPaise: number;
  refundedPaise: number;
  /**
   * An open refund decision on the booking's money (refund_requests), where it was read: money due back
   * at the counter, or a refund the owner has still to decide. Undefined: not read.
   */
  refundOpen?: 'AT_COUNTER' | 'REVIEW' | null | undefined;
  /** The booking is the hold of an open waitlist offer (issue 34), where it was read. */
  waitlistHold?: boolean | undefined;
};

export function paymentState(b: PaymentStateInput): PaymentState {
  if (b.bookingType === 'ADMIN_BLOCK') return 'BLOCKED';
  const held = b.paidPaise - b.refundedPaise;
  if (b.paidPaise > 0 && held <= 0) return 'REFUNDED';
  // A cancelled session's money still held is not "Paid": it is owed back, or waits for the owner.
  if (held > 0 && b.cancelled && b.refundOpen === 'AT_COUNTER') return 'REFUND_DUE';
  if (held > 0 && b.cancelled && b.refundOpen === 'REVIEW') return 'REFUND_REVIEW';
  if (held > 0) return 'PAID';
  if (b.cancelled || b.paymentStatus === 'CANCELLED') return 'CANCELLED';
  if (b.paymentStatus === 'FAILED') return 'NOT_PAID';
  if (b.paymentStatus === 'COMPLETED') return b.amountPaise > 0 ? 'PAYMENT_NOT_RECORDED' : 'NO_CHARGE';
  // PENDING in person is paid at the desk; PENDING online (a manual booking waiting on its link) and
  // INITIATED (the wizard's hold) wait for the link.
  if (b.paymentStatus === 'PENDING' && b.bookingType === 'OFFLINE') return 'PAY_AT_CENTRE';
  // A freed slot held for the client a waitlist offer went to: nothing is awaited of them until they claim it.
  if (b.paymentStatus === 'INITIATED' && b.waitlistHold) return 'HELD_FOR_WAITLIST';
  return 'AWAITING_PAYMENT';
}

/**
 * Whether the desk may record money taken for the booking (record-payment, the panel's Record payment):
 * in person and to be paid at the centre, confirmed with no money recorded, or an online booking the
 * centre made waiting on its payment link (PENDING; never the wizard's INITIATED hold, paid online).
 */
export function deskPaymentDue(state: PaymentState, paymentStatus: string): boolean {
  return state === 'PAY_AT_CENTRE' || state === 'PAYMENT_NOT_RECORDED' || (state === 'AWAITING_PAYMENT' && paymentStatus === 'PENDING');
}
