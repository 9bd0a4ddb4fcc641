import { z } from 'zod';

/**
 * The query string the payment provider sends the client back with after a payment link
 * (Razorpay's callback; the sandbox sends the same), signed over link id | reference id | status |
 * payment id. The one declaration: the payment service parses with it and the providers verify it.
 */
export const paymentCallbackSchema = z.object({
  razorpay_payment_link_id: z.string().min(1).max(64),
  razorpay_payment_link_reference_id: z.string().min(1).max(64),
  razorpay_payment_link_status: z.string().min(1).max(32),
  razorpay_payment_id: z.string().min(1).max(64),
  razorpay_signature: z.string().min(1).max(128),
});

export type PaymentCallback = z.infer<typeof paymentCallbackSchema>;
