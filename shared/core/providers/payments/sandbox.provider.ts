import { randomBytes } from 'node:crypto';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { jobIds } from '../../jobs/jobs.ts';
import { enqueueInTx, intent } from '../../jobs/outbox.ts';
import {
  assertRefundInput,
  callbackSignature,
  sameSignature,
  webhookSignature,
  type CallbackParams,
  type PaymentLink,
  type PaymentsProvider,
  type ProviderRefund,
  type RefundInput,
} from './payments.provider.ts';
import {
  cancelLiveSandboxLink,
  insertSandboxLink,
  insertSandboxRefund,
  lockSandboxLinkOfPayment,
  markSandboxLinkPaid,
  paidSandboxLinkOfPayment,
  refundedSandboxPaise,
  sandboxLinkById,
  sandboxLinkByReference,
  sandboxRefundByKey,
  sandboxRefundsOfPayment,
  type SandboxLink,
  type SandboxRefund,
} from '../../repositories/sandbox-payments.repository.ts';

/** A link as the sandbox keeps it: what its checkout page shows. */
export type { SandboxLink };

/** The sandbox's answers, as Razorpay's would read, and its checkout page's. */
export const SANDBOX_MESSAGES = {
  linkNotFound: 'Payment link not found.',
  paymentNotFound: 'Payment not found.',
  linkClosed: 'This payment link has expired or was cancelled.',
} as const;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Razorpay-shaped ids (prefix + 14 base62 characters), unguessable. */
export function providerId(prefix: string): string {
  const bytes = randomBytes(14);
  return `${prefix}_${[...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

const toRefund = (r: SandboxRefund): ProviderRefund => ({ id: r.id, paymentId: r.paymentId, amountPaise: r.amountPaise, status: r.status });

/** Notes compared whatever order their keys come back in (jsonb sorts them its own way). */
const sameNotes = (a: Record<string, string>, b: Record<string, string>): boolean => {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
};

/** A used key answers its refund only for the same request, as Razorpay's X-Refund-Idempotency does. */
function sameRequest(r: SandboxRefund, input: RefundInput): ProviderRefund {
  if (r.paymentId !== input.paymentId || r.amountPaise !== input.amountPaise || !sameNotes(r.notes, input.notes ?? {})) {
    throw new AppError('conflict', 'A different refund was already made with this idempotency key.');
  }
  return toRefund(r);
}

export type SandboxPayments = PaymentsProvider & {
  readonly name: 'sandbox';
  getLink(id: string): Promise<SandboxLink | undefined>;
  /** The client pressed Pay: the link is paid, the signed webhook is queued; answers the signed callback URL. */
  pay(id: string): Promise<string>;
  /** The client pressed Fail: nothing is captured; answers the callback URL with status failed. */
  fail(id: string): Promise<string>;
};

type SandboxDeps = { db: Db; secret: string; publicBaseUrl: string; now: () => Date; webhookUrl?: string };

/**
 * A local stand-in for Razorpay Payment Links with the same contract: hosted checkout, signed
 * callback query, signed webhooks delivered to /api/payment/webhook. Links live in PostgreSQL.
 */
export function sandboxProvider(deps: SandboxDeps): SandboxPayments {
  const { db, secret } = deps;

  const effectiveStatus = (l: SandboxLink): PaymentLink['status'] =>
    l.status === 'created' && l.expireBy.getTime() <= deps.now().getTime() ? 'expired' : l.status;

  const toLink = (l: SandboxLink): PaymentLink => ({
    id: l.id,
    shortUrl: `${deps.publicBaseUrl}/sandbox/checkout/${l.id}`,
    status: effectiveStatus(l),
    amountPaise: l.amountPaise,
    referenceId: l.referenceId,
    ...(l.paymentId ? { paymentId: l.paymentId } : {}),
  });

  async function mustGet(id: string): Promise<SandboxLink> {
    const row = await sandboxLinkById(db, id);
    if (!row) throw new AppError('not_found', SANDBOX_MESSAGES.linkNotFound);
    return row;
  }

  async function queueWebhook(tx: DbOrTx, event: string, link: SandboxLink): Promise<void> {
    const eventId = providerId('evt');
    const createdAt = Math.floor(deps.now().getTime() / 1000);
    const linkEntity = {
      id: link.id,
      entity: 'payment_link',
      amount: link.amountPaise,
      amount_paid: link.status === 'paid' ? link.amountPaise : 0,
      currency: 'INR',
      accept_partial: false,
      reference_id: link.referenceId,
      description: link.description,
      short_url: `${deps.publicBaseUrl}/sandbox/checkout/${link.id}`,
      status: link.status,
      expire_by: Math.floor(link.expireBy.getTime() / 1000),
      created_at: Math.floor(link.createdAt.getTime() / 1000),
    };
    const payload: Record<string, unknown> = { payment_link: { entity: linkEntity } };
    if (link.paymentId) {
      payload.payment = {
        entity: {
          id: link.paymentId,
          entity: 'payment',
          amount: link.amountPaise,
          currency: 'INR',
          status: 'captured',
          method: 'card',
          captured: true,
          created_at: createdAt,
        },
      };
    }
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_sandbox',
      event,
      contains: Object.keys(payload),
      payload,
      created_at: createdAt,
    });
    await enqueueInTx(
      tx,
      [
        intent('payments.sandbox-webhook', jobIds.sandboxWebhook(eventId), {
          url: deps.webhookUrl ?? `${deps.publicBaseUrl}/api/payment/webhook`,
          body,
          eventId,
        }),
      ],
      deps.now(),
    );
  }

  function callbackUrl(link: SandboxLink, status: 'paid' | 'failed', paymentId: string): string {
    const params = {
      razorpay_payment_id: paymentId,
      razorpay_payment_link_id: link.id,
      razorpay_payment_link_reference_id: link.referenceId,
      razorpay_payment_link_status: status,
    };
    const url = new URL(link.callbackUrl);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    url.searchParams.set('razorpay_signature', callbackSignature(secret, params));
    return url.toString();
  }

  return {
    name: 'sandbox',
    async createPaymentLink(input) {
      // Razorpay keeps reference_id unique across an account's links and refuses a second one (400).
      if (await this.findPaymentLinkByReference(input.referenceId)) {
        throw new AppError('conflict', `A payment link with reference_id ${input.referenceId} already exists.`);
      }
      const row = await insertSandboxLink(db, {
        id: providerId('plink'),
        referenceId: input.referenceId,
        amountPaise: input.amountPaise,
        description: input.description,
        customer: input.customer,
        callbackUrl: input.callbackUrl,
        expireBy: input.expireBy,
      });
      return toLink(row);
    },
    async fetchPaymentLink(id) {
      return toLink(await mustGet(id));
    },
    async findPaymentLinkByReference(referenceId) {
      const row = await sandboxLinkByReference(db, referenceId);
      return row ? toLink(row) : undefined;
    },
    async cancelPaymentLink(id) {
      return db.transaction(async (tx) => {
        // Only a live link: one paid or expired meanwhile is answered as it stands, as Razorpay's cancel does.
        const cancelled = await cancelLiveSandboxLink(tx, id, deps.now());
        if (!cancelled) return toLink(await mustGet(id));
        await queueWebhook(tx, 'payment_link.cancelled', cancelled);
        return toLink(cancelled);
      });
    },
    async refundPayment(input) {
      assertRefundInput(input);
      return db.transaction(async (tx) => {
        // The paid link holds the payment; locking it makes refunds of one payment take turns, so two at
        // once cannot both fit in what is left.
        const link = await lockSandboxLinkOfPayment(tx, input.paymentId);
        // Read after the lock: a retry that waited for the first attempt sees its refund and answers it.
        const byKey = () => sandboxRefundByKey(tx, input.idempotencyKey);
        const earlier = await byKey();
        if (earlier) return sameRequest(earlier, input);
        // Razorpay answers 400 to a payment it did not capture; the Razorpay provider makes that a conflict.
        if (link?.status !== 'paid') throw new AppError('conflict', `Payment ${input.paymentId} was not captured, so there is nothing to refund.`);
        const left = link.amountPaise - (await refundedSandboxPaise(tx, input.paymentId));
        if (input.amountPaise > left) {
          throw new AppError('conflict', `A refund of ${input.amountPaise} paise is more than the ${left} paise left of payment ${input.paymentId}.`);
        }
        await insertSandboxRefund(tx, {
          id: providerId('rfnd'),
          paymentId: input.paymentId,
          amountPaise: input.amountPaise,
          idempotencyKey: input.idempotencyKey,
          notes: input.notes ?? {},
          createdAt: deps.now(),
        });
        // Another payment's refund may have taken the key meanwhile: the row read back decides.
        return sameRequest((await byKey())!, input);
      });
    },
    async fetchPayment(paymentId) {
      const link = await paidSandboxLinkOfPayment(db, paymentId);
      if (!link) throw new AppError('not_found', SANDBOX_MESSAGES.paymentNotFound);
      const refunded = await refundedSandboxPaise(db, paymentId);
      return {
        id: paymentId,
        amountPaise: link.amountPaise,
        // Razorpay's words: a payment stays captured through partial refunds and is refunded once all of it is.
        status: refunded >= link.amountPaise ? 'refunded' : 'captured',
        // The sandbox checkout's Pay button stands for a card payment (its webhook says method card).
        method: 'CARD',
        amountRefundedPaise: refunded,
        // pay() stamps updated_at when it captures, and a paid link is never updated again.
        capturedAt: link.updatedAt,
      };
    },
    async listPaymentRefunds(paymentId) {
      // As fetchPayment: only a captured payment is known (Razorpay answers "does not exist" otherwise).
      if (!(await paidSandboxLinkOfPayment(db, paymentId))) throw new AppError('not_found', SANDBOX_MESSAGES.paymentNotFound);
      return (await sandboxRefundsOfPayment(db, paymentId)).map(toRefund);
    },
    getLink: (id) => sandboxLinkById(db, id),
    async pay(id) {
      return db.transaction(async (tx) => {
        const paid = await markSandboxLinkPaid(tx, id, providerId('pay'), deps.now());
        if (paid) {
          await queueWebhook(tx, 'payment_link.paid', paid);
          return callbackUrl(paid, 'paid', paid.paymentId!);
        }
        const link = await mustGet(id);
        // Pressing Pay again (a reload) sends the client back with the same signed answer.
        if (link.status === 'paid') return callbackUrl(link, 'paid', link.paymentId!);
        throw new AppError('conflict', SANDBOX_MESSAGES.linkClosed);
      });
    },
    async fail(id) {
      const link = await mustGet(id);
      if (effectiveStatus(link) !== 'created') throw new AppError('conflict', SANDBOX_MESSAGES.linkClosed);
      return callbackUrl(link, 'failed', providerId('pay'));
    },
    verifyCallback(params: CallbackParams) {
      return sameSignature(callbackSignature(secret, params), params.razorpay_signature);
    },
    verifyWebhook(rawBody, signature) {
      return sameSignature(webhookSignature(secret, rawBody), signature);
    },
  };
}
