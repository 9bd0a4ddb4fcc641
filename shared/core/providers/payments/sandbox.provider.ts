import { randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sandboxPaymentLinks } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { jobIds } from '../../jobs/jobs.ts';
import { enqueueInTx, intent, type DbOrTx } from '../../jobs/outbox.ts';
import {
  callbackSignature,
  sameSignature,
  webhookSignature,
  type CallbackParams,
  type PaymentLink,
  type PaymentsProvider,
} from './payments.provider.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Razorpay-shaped ids (prefix + 14 base62 characters), unguessable. */
export function providerId(prefix: string): string {
  const bytes = randomBytes(14);
  return `${prefix}_${[...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

export type SandboxLink = typeof sandboxPaymentLinks.$inferSelect;

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
    const [row] = await db.select().from(sandboxPaymentLinks).where(eq(sandboxPaymentLinks.id, id));
    if (!row) throw new AppError('not_found', 'Payment link not found.');
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
        entity: { id: link.paymentId, entity: 'payment', amount: link.amountPaise, currency: 'INR', status: 'captured', method: 'card', captured: true, created_at: createdAt },
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
    await enqueueInTx(tx, [
      intent('payments.sandbox-webhook', jobIds.sandboxWebhook(eventId), { url: deps.webhookUrl ?? `${deps.publicBaseUrl}/api/payment/webhook`, body, eventId }),
    ], deps.now());
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
      const [row] = await db
        .insert(sandboxPaymentLinks)
        .values({
          id: providerId('plink'),
          referenceId: input.referenceId,
          amountPaise: input.amountPaise,
          description: input.description,
          customer: input.customer,
          callbackUrl: input.callbackUrl,
          expireBy: input.expireBy,
        })
        .returning();
      return toLink(row!);
    },
    async fetchPaymentLink(id) {
      return toLink(await mustGet(id));
    },
    async findPaymentLinkByReference(referenceId) {
      const [row] = await db.select().from(sandboxPaymentLinks).where(eq(sandboxPaymentLinks.referenceId, referenceId)).limit(1);
      return row ? toLink(row) : undefined;
    },
    async cancelPaymentLink(id) {
      return db.transaction(async (tx) => {
        const [cancelled] = await tx
          .update(sandboxPaymentLinks)
          .set({ status: 'cancelled', updatedAt: sql`now()` })
          .where(and(eq(sandboxPaymentLinks.id, id), eq(sandboxPaymentLinks.status, 'created')))
          .returning();
        if (!cancelled) return toLink(await mustGet(id));
        await queueWebhook(tx, 'payment_link.cancelled', cancelled);
        return toLink(cancelled);
      });
    },
    getLink: async (id) => (await db.select().from(sandboxPaymentLinks).where(eq(sandboxPaymentLinks.id, id)))[0],
    async pay(id) {
      return db.transaction(async (tx) => {
        const [paid] = await tx
          .update(sandboxPaymentLinks)
          .set({ status: 'paid', paymentId: providerId('pay'), updatedAt: sql`now()` })
          .where(and(eq(sandboxPaymentLinks.id, id), eq(sandboxPaymentLinks.status, 'created'), gt(sandboxPaymentLinks.expireBy, deps.now())))
          .returning();
        if (paid) {
          await queueWebhook(tx, 'payment_link.paid', paid);
          return callbackUrl(paid, 'paid', paid.paymentId!);
        }
        const link = await mustGet(id);
        // Pressing Pay again (a reload) sends the client back with the same signed answer.
        if (link.status === 'paid') return callbackUrl(link, 'paid', link.paymentId!);
        throw new AppError('conflict', 'This payment link has expired or was cancelled.');
      });
    },
    async fail(id) {
      const link = await mustGet(id);
      if (effectiveStatus(link) !== 'created') throw new AppError('conflict', 'This payment link has expired or was cancelled.');
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
