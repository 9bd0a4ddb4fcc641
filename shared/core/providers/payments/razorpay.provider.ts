import Razorpay from 'razorpay';
import { AppError } from '../../errors.ts';
import {
  callbackSignature,
  sameSignature,
  webhookSignature,
  type CallbackParams,
  type CreatePaymentLinkInput,
  type PaymentLink,
  type PaymentLinkStatus,
  type PaymentsProvider,
} from './payments.provider.ts';

type RazorpayLink = { id: string; short_url: string; status: string; amount: number | string; reference_id: string; payments?: { payment_id: string; status: string }[] | null };

function toPaymentLink(l: RazorpayLink): PaymentLink {
  const captured = l.payments?.find((p) => p.status === 'captured') ?? l.payments?.[0];
  return {
    id: l.id,
    shortUrl: l.short_url,
    status: l.status as PaymentLinkStatus,
    amountPaise: Number(l.amount),
    referenceId: l.reference_id,
    ...(captured ? { paymentId: captured.payment_id } : {}),
  };
}

function providerError(err: unknown): AppError {
  const e = err as { statusCode?: number; error?: { description?: string } };
  return new AppError('bad_gateway', `Razorpay: ${e.error?.description ?? (err as Error).message ?? 'request failed'} (${e.statusCode ?? 'no status'})`);
}

/** Razorpay Payment Links through the official SDK. */
export function razorpayProvider(opts: { keyId: string; keySecret: string; webhookSecret: string }): PaymentsProvider {
  const client = new Razorpay({ key_id: opts.keyId, key_secret: opts.keySecret });
  return {
    name: 'razorpay',
    async createPaymentLink(input: CreatePaymentLinkInput) {
      try {
        const link = await client.paymentLink.create({
          amount: input.amountPaise,
          currency: 'INR',
          accept_partial: false,
          reference_id: input.referenceId,
          description: input.description,
          customer: { name: input.customer.name, email: input.customer.email, contact: input.customer.contact },
          notify: { sms: false, email: false },
          reminder_enable: false,
          callback_url: input.callbackUrl,
          callback_method: 'get',
          expire_by: Math.floor(input.expireBy.getTime() / 1000),
        });
        return toPaymentLink(link as unknown as RazorpayLink);
      } catch (err) {
        throw providerError(err);
      }
    },
    async fetchPaymentLink(id) {
      try {
        return toPaymentLink((await client.paymentLink.fetch(id)) as unknown as RazorpayLink);
      } catch (err) {
        throw providerError(err);
      }
    },
    async findPaymentLinkByReference(referenceId) {
      try {
        const res = (await client.paymentLink.all({ reference_id: referenceId } as never)) as unknown as { payment_links?: RazorpayLink[] };
        const link = res.payment_links?.find((l) => l.reference_id === referenceId);
        return link ? toPaymentLink(link) : undefined;
      } catch (err) {
        throw providerError(err);
      }
    },
    async cancelPaymentLink(id) {
      try {
        return toPaymentLink((await client.paymentLink.cancel(id)) as unknown as RazorpayLink);
      } catch (err) {
        // A link that was paid or expired meanwhile cannot be cancelled; its state is the answer.
        const link = await this.fetchPaymentLink(id);
        if (link.status !== 'created') return link;
        throw providerError(err);
      }
    },
    verifyCallback(params: CallbackParams) {
      return sameSignature(callbackSignature(opts.keySecret, params), params.razorpay_signature);
    },
    verifyWebhook(rawBody, signature) {
      return sameSignature(webhookSignature(opts.webhookSecret, rawBody), signature);
    },
  };
}
