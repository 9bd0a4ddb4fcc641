import { recentFromAddress } from '../repositories/address-window.ts';
import { randomBytes } from 'node:crypto';
import { paymentCallbackSchema } from '../../contract/payment-callback.ts';
import { PACKAGE_MESSAGES as PM, type ClientPackageDto, type PackagePurchase } from '../../contract/packages.ts';
import { saleLinkReference, saleOfReference } from '../../domain/payment-link-reference.ts';
import { AppError, isUniqueViolation } from '../errors.ts';
import { jobIds } from '../jobs/jobs.ts';
import { enqueueInTx, intent } from '../jobs/outbox.ts';
import type { DbOrTx } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import type { PaymentLink } from '../providers/payments/payments.provider.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { recordCapture } from '../repositories/ledger.repository.ts';
import {
  awaitingSaleIds,
  awaitingSalesOfClient,
  findSaleByRequestKey,
  getSale,
  insertSale,
  saleForUpdate,
  updateSaleRow,
  type SaleRow,
} from '../repositories/package.repository.ts';
import type { HoldLimits } from '../repositories/booking-batch/booking-batch.ts';
import { MIN_LINK_LIFETIME_MS } from '../providers/payments/payments.provider.ts';
import { packageTokenFor } from './booking-token.ts';
import { enforceHoldLimits } from './hold-limits.ts';
import { clientPackageView, packageOnSale, saleOfToken, saleTerms, settleSalePaid } from './package.service.ts';
import type { CapturedPayment, PaymentDeps } from './payment-deps.ts';

/**
 * A package bought online (issue 34): the wizard's Packages choice makes the sale, waiting for its
 * payment, and one payment link for its price (the same provider and link machinery as a booking's,
 * its reference `pkg-{sale}-…` so no booking takes its payment). The sale is paid, its credits sold and
 * the client e-mailed, only when the payment is captured, and exactly once whichever of the client's
 * return, the webhook or the reconciliation reports it first: the ledger's unique capture and the
 * sale's row lock decide. A link that ends unpaid leaves the sale LAPSED; a payment that still arrives
 * on it completes the sale (nothing else was waiting for it).
 */

/** How long the link of an online purchase takes payment. */
export const SALE_LINK_TTL_MS = 24 * 3600_000;

/** Who paid an online sale, as the audit log and the credits ledger name it. */
const PROVIDER_ACTOR = { adminId: null, actor: 'payments' };

/** POST /api/packages/purchase: the sale and its payment link; a retried request (its request_key) answers the same. */
export async function purchaseOnline(
  deps: PaymentDeps,
  input: PackagePurchase,
  /** The hold limits (config.holds), applied to a new purchase as to a new hold; a retried request is not counted again. */
  limits: HoldLimits,
  /** The keyed hash of the address the request came from (clientAddressHasher). */
  clientAddressHash: string | undefined,
): Promise<{ sale_id: number; payment_link_url: string; token: string; message: string }> {
  const now = deps.now();
  let sale = await findSaleByRequestKey(deps.db, input.request_key);
  if (!sale) {
    const p = await packageOnSale(deps.db, input.package_id);
    try {
      const client = { clientEmail: input.client_email.toLowerCase(), clientMobile: input.client_mobile, clientAddressHash: clientAddressHash ?? null };
      sale = await deps.db.transaction(async (tx) => {
        await enforceHoldLimits(
          tx,
          client,
          limits,
          {
            // A sale waits until it is paid or its link ends (SALE_LINK_TTL_MS after it was made).
            ofClient: async () => {
              const live = await awaitingSalesOfClient(tx, client.clientEmail, client.clientMobile, new Date(now.getTime() - SALE_LINK_TTL_MS));
              const ends = (live.oldest ?? now).getTime() + SALE_LINK_TTL_MS;
              return { count: live.count, retryAfterSeconds: Math.max(1, Math.ceil((ends - now.getTime()) / 1000)) };
            },
            fromAddress: (hash, minutes) => recentFromAddress(tx, { table: 'package_sales', at: 'created_at' }, hash, minutes, now),
          },
          { perClient: (limit) => PM.purchasesPerClient(limit), perAddress: PM.purchasesPerAddress },
        );
        const made = await insertSale(tx, {
          ...saleTerms(p),
          clientFullName: input.client_full_name,
          ...client,
          channel: 'ONLINE',
          status: 'AWAITING_PAYMENT',
          requestKey: input.request_key,
          createdAt: now,
          updatedAt: now,
        });
        const withToken = (await updateSaleRow(tx, made.id, { tokenHash: packageTokenFor(deps.config.jwtSecret, made.id).hash }))!;
        await insertAudit(tx, {
          adminId: null,
          actor: 'client',
          action: 'package_sale.create',
          entityType: 'package_sale',
          entityId: made.id,
          before: null,
          after: { id: made.id, package_id: made.packageId, channel: 'ONLINE', status: made.status, price_paise: made.pricePaise },
        });
        return withToken;
      });
    } catch (err) {
      if (!isUniqueViolation(err, 'package_sales_request_key_uq')) throw err;
      sale = (await findSaleByRequestKey(deps.db, input.request_key))!;
    }
  }
  if (sale.packageId !== input.package_id || sale.clientEmail !== input.client_email.toLowerCase() || sale.channel !== 'ONLINE') {
    throw new AppError('conflict', PM.requestReused);
  }
  const token = packageTokenFor(deps.config.jwtSecret, sale.id).token;
  const url = sale.paymentLinkUrl ?? (await linkForSale(deps, sale, token));
  return { sale_id: sale.id, payment_link_url: url, token, message: PM.purchaseStarted };
}

/** The sale's one payment link, made at the provider and stored once (a link made by a racing retry is found by its sale). */
async function linkForSale(deps: PaymentDeps, sale: SaleRow, token: string): Promise<string> {
  const now = deps.now();
  let link: PaymentLink;
  try {
    link = await deps.payments.createPaymentLink({
      referenceId: saleLinkReference(sale.id, randomBytes(6).toString('hex')),
      amountPaise: sale.pricePaise,
      description: `${deps.config.centreName}: package of ${sale.sessionsTotal} sessions (purchase ${sale.id})`,
      customer: { name: sale.clientFullName, email: sale.clientEmail, contact: `+91${sale.clientMobile}` },
      // The client comes back to their package's page, which settles the payment as the payment-status page does.
      callbackUrl: `${deps.config.publicBaseUrl}/my-package?token=${token}`,
      expireBy: new Date(now.getTime() + Math.max(SALE_LINK_TTL_MS, MIN_LINK_LIFETIME_MS)),
    });
  } catch {
    throw new AppError('bad_gateway', PM.linkFailed);
  }
  const stored = await deps.db.transaction(async (tx) => {
    const current = (await saleForUpdate(tx, sale.id))!;
    if (current.paymentLinkUrl) return current.paymentLinkUrl;
    await updateSaleRow(tx, sale.id, { paymentLinkUrl: link.shortUrl, razorpayPaymentLinkId: link.id, updatedAt: now });
    return link.shortUrl;
  });
  // A retry raced this one and stored its own link: this one must take no money.
  if (stored !== link.shortUrl) await deps.payments.cancelPaymentLink(link.id).catch(() => undefined);
  return stored;
}

/**
 * A captured payment for a package sale: recorded in the ledger once (the provider's payment id), and
 * the sale paid with its credits sold, once. Holds the sale's row lock. A second payment for a sale
 * already paid is recorded too, and a payments.refund-stray job gives it back through the provider.
 */
export async function markSalePaid(tx: DbOrTx, saleId: number, payment: CapturedPayment, now: Date, logger: Logger): Promise<boolean> {
  const sale = await saleForUpdate(tx, saleId);
  if (!sale) {
    logger.error({ saleId, paymentId: payment.paymentId }, 'payment for an unknown package sale: refund needed');
    return false;
  }
  const recorded = await recordCapture(tx, {
    packageSaleId: saleId,
    provider: payment.provider,
    paymentId: payment.paymentId,
    linkId: payment.linkId,
    amountPaise: payment.amountPaise ?? sale.pricePaise,
    method: payment.method ?? 'OTHER',
    occurredAt: now,
  });
  if (sale.status === 'PAID') {
    // The payment that paid the sale was recorded when it did (in that transaction, under this lock):
    // one newly recorded now is a second payment. It goes back in full, once: the job is written with
    // its capture, under the payment's id (refundStraySalePayment).
    if (recorded) {
      logger.warn({ saleId, paymentId: payment.paymentId }, 'a second payment for a package sale already paid: refund');
      await enqueueInTx(tx, [intent('payments.refund-stray', jobIds.strayRefund(payment.paymentId), { saleId, paymentId: payment.paymentId })], now);
    }
    return false;
  }
  await settleSalePaid(tx, sale, { method: payment.method ?? 'OTHER' }, PROVIDER_ACTOR, now);
  logger.info({ saleId }, 'package sale paid');
  return true;
}

/** An unpaid sale whose link ended: LAPSED, once, and only while it still waits. */
async function lapseSale(deps: PaymentDeps, saleId: number): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const sale = await saleForUpdate(tx, saleId);
    if (sale?.status !== 'AWAITING_PAYMENT') return;
    await updateSaleRow(tx, saleId, { status: 'LAPSED', updatedAt: now });
    await insertAudit(tx, {
      ...PROVIDER_ACTOR,
      action: 'package_sale.lapse',
      entityType: 'package_sale',
      entityId: saleId,
      before: { status: sale.status },
      after: { status: 'LAPSED' },
    });
  });
}

const paidOf = (deps: PaymentDeps, link: PaymentLink): CapturedPayment | undefined =>
  link.status === 'paid' && link.paymentId
    ? { provider: deps.payments.name, linkId: link.id, paymentId: link.paymentId, amountPaise: link.amountPaise }
    : undefined;

/** Asks the provider about one waiting sale: paid, ended unpaid (LAPSED), or still open. */
export async function reconcileSale(deps: PaymentDeps, saleId: number): Promise<'completed' | 'lapsed' | 'pending' | 'noop'> {
  const sale = await getSale(deps.db, saleId);
  if (sale?.status !== 'AWAITING_PAYMENT') return 'noop';
  const now = deps.now();
  const overdue = now.getTime() - sale.createdAt.getTime() > SALE_LINK_TTL_MS;
  if (!sale.razorpayPaymentLinkId) {
    // Its link was never made (the provider failed the purchase): nothing can pay it.
    if (!overdue) return 'pending';
    await lapseSale(deps, saleId);
    return 'lapsed';
  }
  let link = await deps.payments.fetchPaymentLink(sale.razorpayPaymentLinkId);
  if (link.status !== 'paid' && overdue && link.status !== 'expired' && link.status !== 'cancelled') {
    link = await deps.payments.cancelPaymentLink(link.id);
  }
  const paid = paidOf(deps, link);
  if (paid) {
    await deps.db.transaction((tx) => markSalePaid(tx, saleId, paid, now, deps.logger));
    return 'completed';
  }
  if (link.status === 'expired' || link.status === 'cancelled') {
    await lapseSale(deps, saleId);
    return 'lapsed';
  }
  return 'pending';
}

/** The payments.reconcile job's part for package sales: every one waiting for its payment. */
export async function reconcileSales(deps: PaymentDeps): Promise<Record<'completed' | 'lapsed' | 'pending' | 'noop', number>> {
  const counts = { completed: 0, lapsed: 0, pending: 0, noop: 0 };
  let lastError: unknown;
  for (const id of await awaitingSaleIds(deps.db)) {
    try {
      counts[await reconcileSale(deps, id)]++;
    } catch (err) {
      lastError = err;
      deps.logger.warn({ saleId: id, err: (err as Error).message }, 'reconcile: package sale check failed');
    }
  }
  if (lastError) throw lastError;
  return counts;
}

/** A webhook about a package sale's link: paid records it; expired or cancelled lapses the sale (its own link only). */
export async function saleWebhook(
  tx: DbOrTx,
  deps: Pick<PaymentDeps, 'logger'>,
  event: string,
  link: { id: string; reference_id?: string | undefined },
  payment: CapturedPayment | undefined,
  now: Date,
): Promise<'processed' | 'ignored'> {
  const saleId = saleOfReference(link.reference_id);
  if (saleId === undefined) return 'ignored';
  if (event === 'payment_link.paid') {
    if (!payment) return 'ignored';
    await markSalePaid(tx, saleId, payment, now, deps.logger);
    return 'processed';
  }
  if (event === 'payment_link.expired' || event === 'payment_link.cancelled') {
    const sale = await saleForUpdate(tx, saleId);
    if (sale?.status !== 'AWAITING_PAYMENT' || sale.razorpayPaymentLinkId !== link.id) return 'ignored';
    await updateSaleRow(tx, saleId, { status: 'LAPSED', updatedAt: now });
    await insertAudit(tx, {
      ...PROVIDER_ACTOR,
      action: 'package_sale.lapse',
      entityType: 'package_sale',
      entityId: saleId,
      before: { status: sale.status },
      after: { status: 'LAPSED' },
    });
    return 'processed';
  }
  return 'ignored';
}

/**
 * GET /api/packages/{token}: the client's package. A sale still waiting for its payment is settled
 * first: the provider's signed callback for this sale's link is believed, otherwise the provider asked.
 */
export async function clientPackage(deps: PaymentDeps, token: unknown, query: Record<string, unknown>): Promise<ClientPackageDto> {
  let sale = await saleOfToken(deps.db, token);
  if (sale.status === 'AWAITING_PAYMENT' && sale.razorpayPaymentLinkId) {
    const callback = paymentCallbackSchema.safeParse(query);
    const c = callback.success ? callback.data : undefined;
    let paid: CapturedPayment | undefined;
    if (
      c &&
      c.razorpay_payment_link_status === 'paid' &&
      c.razorpay_payment_link_id === sale.razorpayPaymentLinkId &&
      saleOfReference(c.razorpay_payment_link_reference_id) === sale.id &&
      deps.payments.verifyCallback(c)
    ) {
      paid = { provider: deps.payments.name, linkId: c.razorpay_payment_link_id, paymentId: c.razorpay_payment_id };
    } else {
      paid = paidOf(deps, await deps.payments.fetchPaymentLink(sale.razorpayPaymentLinkId));
    }
    if (paid) {
      const captured = paid;
      await deps.db.transaction((tx) => markSalePaid(tx, sale.id, captured, deps.now(), deps.logger));
      sale = (await getSale(deps.db, sale.id))!;
    }
  }
  return clientPackageView(deps.db, sale);
}
