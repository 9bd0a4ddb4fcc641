import { webhookSignature } from '../../../shared/core/providers/payments/payments.provider.ts';
import type { JobHandler } from './handler.ts';

/** The sandbox provider delivering its signed webhook, as Razorpay would: retried until a 2xx answer. */
export const sandboxWebhookJob: JobHandler<'payments.sandbox-webhook'> = async (p, deps) => {
  if (deps.config.payments.provider !== 'sandbox') return { skipped: 'not the sandbox provider' };
  const res = await deps.fetch(p.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': webhookSignature(deps.config.payments.secret, p.body),
      'x-razorpay-event-id': p.eventId,
    },
    body: p.body,
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`webhook endpoint answered ${res.status}`);
  return { status: res.status };
};
