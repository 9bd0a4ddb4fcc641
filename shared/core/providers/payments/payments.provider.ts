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
  /** HMAC-SHA256 over payment_link_id|reference_id|status|payment_id with the key secret. */
  verifyCallback(params: CallbackParams): boolean;
  /** HMAC-SHA256 over the raw body with the webhook secret. */
  verifyWebhook(rawBody: Buffer, signature: string): boolean;
}
