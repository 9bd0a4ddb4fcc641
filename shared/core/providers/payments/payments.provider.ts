import { createHmac, timingSafeEqual } from 'node:crypto';

/** What the product needs from a card-payment provider (Razorpay Payment Links, or the local sandbox). */
export type PaymentLinkStatus = 'created' | 'partially_paid' | 'paid' | 'expired' | 'cancelled';

export type CreatePaymentLinkInput = {
  /** Our booking id; sent as reference_id so the provider's records point back to the booking. */
  referenceId: string;
  amountPaise: number;
  description: string;
  customer: { name: string; email: string; contact: string };
  /** Where the provider sends the client after paying (GET, with signed query parameters). */
  callbackUrl: string;
  /** When an unpaid link stops accepting payment; ends the slot hold. */
  expireBy: Date;
};

export type PaymentLink = {
  id: string;
  shortUrl: string;
  status: PaymentLinkStatus;
  amountPaise: number;
  referenceId: string;
  /** The captured payment, once paid. */
  paymentId?: string;
};

export type CallbackParams = {
  razorpay_payment_link_id: string;
  razorpay_payment_link_reference_id: string;
  razorpay_payment_link_status: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
};

export interface PaymentsProvider {
  readonly name: 'razorpay' | 'sandbox';
  createPaymentLink(input: CreatePaymentLinkInput): Promise<PaymentLink>;
  fetchPaymentLink(id: string): Promise<PaymentLink>;
  /** The link made earlier for a reference id (reference ids are unique at Razorpay), so a retried creation finds it. */
  findPaymentLinkByReference(referenceId: string): Promise<PaymentLink | undefined>;
  /** Stops an unpaid link from accepting payment; answers the link as it now stands (it may have been paid meanwhile). */
  cancelPaymentLink(id: string): Promise<PaymentLink>;
  /** HMAC-SHA256 over payment_link_id|reference_id|status|payment_id with the key secret. */
  verifyCallback(params: CallbackParams): boolean;
  /** HMAC-SHA256 over the raw body with the webhook secret. */
  verifyWebhook(rawBody: Buffer, signature: string): boolean;
}

/** Razorpay's callback signature: HMAC-SHA256(key secret, link_id|reference_id|status|payment_id), hex. */
export function callbackSignature(secret: string, p: Omit<CallbackParams, 'razorpay_signature'>): string {
  const payload = `${p.razorpay_payment_link_id}|${p.razorpay_payment_link_reference_id}|${p.razorpay_payment_link_status}|${p.razorpay_payment_id}`;
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export function webhookSignature(secret: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** Constant-time comparison of two hex signatures. */
export function sameSignature(expected: string, given: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given.toLowerCase(), 'hex'));
}

/** Razorpay refuses an expire_by closer than 15 minutes; one more minute absorbs clock skew. */
export const MIN_LINK_LIFETIME_MS = 16 * 60_000;
