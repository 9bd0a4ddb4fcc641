import { createRequire } from 'node:module';
import type Razorpay from 'razorpay';
import { AppError } from '../../errors.ts';
import {
  assertRefundInput,
  callbackSignature,
  paymentMethod,
  sameSignature,
  webhookSignature,
  type CallbackParams,
  type CreatePaymentLinkInput,
  type PaymentLink,
  type PaymentLinkStatus,
  type PaymentsProvider,
  type ProviderPayment,
  type ProviderRefund,
} from './payments.provider.ts';

type RazorpayLink = {
  id: string;
  short_url: string;
  status: string;
  amount: number | string;
  reference_id: string;
  payments?: { payment_id: string; status: string }[] | null;
};

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

type RazorpayRefund = { id: string; payment_id: string; amount: number | string; status: string };
type RazorpayPayment = {
  id: string;
  amount: number | string;
  status: string;
  method?: string | null;
  amount_refunded?: number | string | null;
  captured?: boolean;
  created_at: number;
};

function toRefund(r: RazorpayRefund): ProviderRefund {
  // Anything but Razorpay's three states is read as pending: never call money returned before Razorpay says so.
  const status = r.status === 'processed' || r.status === 'failed' ? r.status : 'pending';
  return { id: r.id, paymentId: r.payment_id, amountPaise: Number(r.amount), status };
}

function toPayment(p: RazorpayPayment): ProviderPayment {
  const captured = p.captured === true || p.status === 'captured' || p.status === 'refunded';
  return {
    id: p.id,
    amountPaise: Number(p.amount),
    status: p.status,
    method: paymentMethod(p.method),
    amountRefundedPaise: Number(p.amount_refunded ?? 0),
    // The payment entity has no capture time, only created_at; Payment Links capture automatically
    // when the client pays, so for a captured payment that is the moment the money was taken.
    capturedAt: captured ? new Date(p.created_at * 1000) : undefined,
  };
}

/** What the SDK's own calls use: its axios instance, with Razorpay's base URL, basic auth and User-Agent. */
type SdkHttp = { post(url: string, data: unknown, config: { headers: Record<string, string> }): Promise<{ data: unknown }> };

/**
 * The SDK's payments.refund cannot send X-Refund-Idempotency: its api.post takes no headers, and the
 * constructor's headers option keeps only X-Razorpay-Account and Content-Type (razorpay 2.9.x,
 * dist/api.js). So the refund goes through the SDK's own HTTP client (api.rq) with the header added
 * for that one request; a later SDK without it fails loudly here instead of refunding without the key.
 */
function sdkHttp(client: Razorpay): SdkHttp {
  const rq = (client.api as unknown as { rq?: Partial<SdkHttp> }).rq;
  if (typeof rq?.post !== 'function')
    throw new AppError('bad_gateway', 'Razorpay: the SDK no longer exposes its HTTP client, so a refund cannot carry its idempotency key.');
  return rq as SdkHttp;
}

/** An axios failure in the SDK's own shape ({ statusCode, error }), as its api.js normalizes them. */
function sdkError(err: unknown): unknown {
  const res = (err as { response?: { status?: number; data?: { error?: unknown } } }).response;
  return res ? { statusCode: res.status, error: res.data?.error } : err;
}

function providerError(err: unknown): AppError {
  const e = err as { statusCode?: number; error?: { description?: string } };
  return new AppError('bad_gateway', `Razorpay: ${e.error?.description ?? (err as Error).message ?? 'request failed'} (${e.statusCode ?? 'no status'})`);
}

/**
 * Razorpay answers an id it does not know with 400 BAD_REQUEST_ERROR "The id provided does not exist"
 * (not 404). Reconciliation must tell that apart from an outage: a payment Razorpay does not know is
 * a discrepancy to show, an outage only a check to try again later. Anything else stays bad_gateway.
 */
function lookupError(err: unknown, what: string): AppError {
  const e = err as { statusCode?: number; error?: { code?: string; description?: string } };
  if (e?.statusCode === 400 && /does not exist/i.test(e.error?.description ?? '')) {
    return new AppError('not_found', `Razorpay does not know ${what}.`);
  }
  return providerError(err);
}

/** Razorpay's most refunds one page of GET /v1/payments/{id}/refunds holds (its default is 10). */
const REFUNDS_PAGE = 100;

/**
 * The SDK, loaded when a Razorpay provider is made: it brings axios, about 5 MB of heap that the API
 * and the worker carry for nothing when the sandbox takes the payments (README, Performance).
 */
const loadSdk = (): typeof Razorpay => createRequire(import.meta.url)('razorpay');

/** Razorpay Payment Links through the official SDK. */
export function razorpayProvider(opts: { keyId: string; keySecret: string; webhookSecret: string }): PaymentsProvider {
  const Sdk = loadSdk();
  const client = new Sdk({ key_id: opts.keyId, key_secret: opts.keySecret });
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
    async refundPayment(input) {
      assertRefundInput(input);
      const http = sdkHttp(client);
      let refund: RazorpayRefund;
      try {
        const res = await http.post(
          `/v1/payments/${encodeURIComponent(input.paymentId)}/refund`,
          // speed normal: instant refunds cost a fee; the same body on every retry, as the key requires.
          { amount: input.amountPaise, speed: 'normal', notes: input.notes ?? {} },
          { headers: { 'X-Refund-Idempotency': input.idempotencyKey } },
        );
        refund = res.data as RazorpayRefund;
      } catch (err) {
        const e = sdkError(err) as { statusCode?: number; error?: { description?: string } };
        // Razorpay answers 400 to a refund it will not make: more than is left of the payment, a payment
        // not captured, or another request under a used key. Retrying cannot help, so it is a conflict.
        // (Its 409 means the same key is still being processed: that one is worth retrying.)
        if (e?.statusCode === 400) {
          throw new AppError(
            'conflict',
            `Razorpay refused to refund ${input.amountPaise} paise of ${input.paymentId} (is it more than is left of the payment?): ${e.error?.description ?? 'bad request'}`,
          );
        }
        throw providerError(e);
      }
      return toRefund(refund);
    },
    async fetchPayment(paymentId) {
      try {
        return toPayment((await client.payments.fetch(paymentId)) as unknown as RazorpayPayment);
      } catch (err) {
        throw lookupError(err, `payment ${paymentId}`);
      }
    },
    async listPaymentRefunds(paymentId) {
      const refunds: ProviderRefund[] = [];
      // Page by page: by default Razorpay answers only the last 10 refunds of a payment.
      for (let skip = 0; ; skip += REFUNDS_PAGE) {
        let page: { items?: RazorpayRefund[] };
        try {
          page = (await client.payments.fetchMultipleRefund(paymentId, { count: REFUNDS_PAGE, skip })) as unknown as { items?: RazorpayRefund[] };
        } catch (err) {
          throw lookupError(err, `payment ${paymentId}`);
        }
        const items = page.items ?? [];
        refunds.push(...items.map(toRefund));
        if (items.length < REFUNDS_PAGE) return refunds;
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
