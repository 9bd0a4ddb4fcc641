import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PaymentCallback } from '../../../contract/payment-callback.ts';
import { AppError } from '../../errors.ts';

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

/** The provider's signed callback query (shared/contract/payment-callback.ts). */
export type CallbackParams = PaymentCallback;

export type RefundInput = {
  /** The captured payment to return money from (pay_...). */
  paymentId: string;
  /** Integer paise, more than zero, at most what is left of the payment after earlier refunds. */
  amountPaise: number;
  /**
   * The same key answers the same refund instead of making a second one (Razorpay's X-Refund-Idempotency:
   * at least 10 characters, only letters, digits, hyphens and underscores). A retry must send the same payment,
   * amount and notes; a different request under a used key is refused.
   */
  idempotencyKey: string;
  notes?: Record<string, string>;
};

export type ProviderRefund = { id: string; paymentId: string; amountPaise: number; status: 'pending' | 'processed' | 'failed' };

/** How the client paid, as the ledger records it. */
export type PaymentMethod = 'UPI' | 'CARD' | 'NETBANKING' | 'WALLET' | 'OTHER';

export type ProviderPayment = {
  id: string;
  amountPaise: number;
  /** The provider's word: created, authorized, captured, refunded (fully) or failed. */
  status: string;
  method: PaymentMethod;
  amountRefundedPaise: number;
  /** When the money was captured; undefined while it is not. */
  capturedAt: Date | undefined;
};

/** Razorpay's payment methods mapped to the ledger's; emi, cardless_emi, paylater and the like are OTHER. */
export function paymentMethod(method: string | null | undefined): PaymentMethod {
  switch (method) {
    case 'upi':
      return 'UPI';
    case 'card':
      return 'CARD';
    case 'netbanking':
      return 'NETBANKING';
    case 'wallet':
      return 'WALLET';
    default:
      return 'OTHER';
  }
}

/**
 * Refuses what Razorpay would refuse before sending anything, so the sandbox refuses it too:
 * a non-integer or non-positive amount, and a key outside Razorpay's rules for X-Refund-Idempotency.
 */
export function assertRefundInput(input: RefundInput): void {
  if (!Number.isSafeInteger(input.amountPaise) || input.amountPaise <= 0) {
    throw new AppError('validation', 'A refund is a whole number of paise, more than zero.', {
      amountPaise: 'A refund is a whole number of paise, more than zero.',
    });
  }
  if (!/^[A-Za-z0-9_-]{10,}$/.test(input.idempotencyKey)) {
    const message = 'The refund idempotency key is at least 10 letters, digits, hyphens or underscores.';
    throw new AppError('validation', message, { idempotencyKey: message });
  }
}

export interface PaymentsProvider {
  readonly name: 'razorpay' | 'sandbox';
  createPaymentLink(input: CreatePaymentLinkInput): Promise<PaymentLink>;
  fetchPaymentLink(id: string): Promise<PaymentLink>;
  /** The link made earlier for a reference id (reference ids are unique at Razorpay), so a retried creation finds it. */
  findPaymentLinkByReference(referenceId: string): Promise<PaymentLink | undefined>;
  /** Stops an unpaid link from accepting payment; answers the link as it now stands (it may have been paid meanwhile). */
  cancelPaymentLink(id: string): Promise<PaymentLink>;
  /**
   * Returns money from a captured payment. The same idempotency key answers the same refund; a refund
   * larger than what is left of the payment is refused with AppError('conflict').
   */
  refundPayment(input: RefundInput): Promise<ProviderRefund>;
  /**
   * The payment as the provider has it now: amount, method, how much was refunded, when it was captured.
   * A payment the provider does not know is AppError('not_found'); any other failure is bad_gateway.
   */
  fetchPayment(paymentId: string): Promise<ProviderPayment>;
  /**
   * Every refund of a payment the provider has, whatever its state (Razorpay's
   * GET /v1/payments/{id}/refunds, every page), in no promised order. A payment the provider does not
   * know is AppError('not_found'). Reconciliation compares them with the ledger's refunds of the payment.
   */
  listPaymentRefunds(paymentId: string): Promise<ProviderRefund[]>;
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

/** A link's reference_id and the booking it points to: one rule, in shared/domain (the payment-status page reads it too). */
export { bookingOfReference, linkReference } from '../../../domain/payment-link-reference.ts';

/** Razorpay refuses an expire_by closer than 15 minutes; one more minute absorbs clock skew. */
export const MIN_LINK_LIFETIME_MS = 16 * 60_000;
