import { formatRupees, paiseToRupees } from '../../domain/money.ts';
import { providerLabel, type DiscrepancyKind } from '../../domain/payment-discrepancy.ts';
import { AppError } from '../errors.ts';
import type { DbOrTx } from '../db/client.ts';
import type { ProviderRefund } from '../providers/payments/payments.provider.ts';
import { saleForUpdate } from '../repositories/package.repository.ts';
import { openIntentOfSale } from '../repositories/refund-intent.repository.ts';
import { findBookingForUpdate, type BookingRow } from '../repositories/admin-booking.repository.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { hasProviderCapture, ledgerPaymentsSince, recordRefund, type LedgerPayment, type Owner } from '../repositories/ledger.repository.ts';
import {
  insertResolvedDiscrepancy,
  linksToReconcile,
  openDiscrepanciesFor,
  openDiscrepancy,
  resolveDiscrepancy,
  type Discrepancy,
  type DiscrepancyRow,
} from '../repositories/reconciliation.repository.ts';
import { markPaid, type PaymentDeps } from './payment.service.ts';
import { refundUnderWay } from './refund.service.ts';

/** How far back reconciliation compares the ledger with the provider (by the app's clock). */
export const RECONCILE_WINDOW_DAYS = 7;

/** The audit log's actor for what reconciliation does on its own (no admin: admin_id stays null). */
export const RECONCILIATION_ACTOR = { adminId: null, actor: 'worker:reconciliation' } as const;

export const RESOLVED_BY_RECORDING = 'Recorded from the provider by reconciliation';
export const RESOLVED_AGREE_AGAIN = 'The ledger and the provider agree again';
export const PROVIDER_REFUND_REASON = 'Refunded at the provider (found by reconciliation)';

/**
 * The kinds a run closes by itself once it no longer finds them. A missing capture is closed as it is
 * found (the run records the payment); a missing refund stays open even after the run records it: the
 * money went back behind the centre's back while the booking may still stand, so a person must look.
 */
const SELF_CLOSING: readonly DiscrepancyKind[] = ['AMOUNT_MISMATCH', 'NOT_AT_PROVIDER'];

export type LedgerReconcileReport = {
  /** Links asked about, and ledger payments asked about. */
  links: number;
  payments: number;
  /** Money the provider had and the ledger did not, now recorded. */
  recordedCaptures: number;
  recordedRefunds: number;
  /** Disagreements seen for the first time, and those closed because they are gone. */
  detected: number;
  resolved: number;
  /** Links or payments the provider could not be asked about: logged, tried again next run. */
  errors: number;
};

/** One run's state: what it counted, what it saw, and which sides it could compare. */
type Run = {
  deps: PaymentDeps;
  provider: 'razorpay' | 'sandbox';
  now: Date;
  report: LedgerReconcileReport;
  /** Keys of every disagreement this run found, open already or not. */
  seen: Set<string>;
  /** Payments whose provider record was read, and those whose refunds were listed too. */
  paymentsRead: Set<string>;
  refundsListed: Set<string>;
};

const keyOf = (d: Pick<Discrepancy, 'kind' | 'paymentId' | 'refundId'>) => `${d.kind}|${d.paymentId}|${d.refundId}`;
const rupees = (paise: number) => formatRupees(paiseToRupees(paise));
const isNotFound = (err: unknown) => err instanceof AppError && err.code === 'not_found';
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The audit view of a disagreement: amounts in rupees, as the list shows them. */
function auditableDiscrepancy(d: DiscrepancyRow): Record<string, unknown> {
  return {
    id: d.id,
    kind: d.kind,
    provider: d.provider,
    booking_id: d.bookingId,
    payment_id: d.paymentId,
    refund_id: d.refundId || null,
    ledger_amount: d.ledgerPaise === null ? null : paiseToRupees(d.ledgerPaise),
    provider_amount: d.providerPaise === null ? null : paiseToRupees(d.providerPaise),
    detail: d.detail,
    resolved_at: d.resolvedAt?.toISOString() ?? null,
    resolution: d.resolution,
  };
}

/** What became of a booking, for a detail a person reads. */
function bookingState(b: BookingRow | undefined): string {
  if (!b) return 'its booking is unknown';
  if (b.cancelled) return `booking ${b.id} is cancelled`;
  if (b.paymentStatus === 'COMPLETED') return `booking ${b.id} is still confirmed`;
  return `booking ${b.id} is ${b.paymentStatus.toLowerCase()}`;
}

/**
 * Ledger reconciliation: compares the ledger with the configured provider for the last
 * RECONCILE_WINDOW_DAYS days and records every disagreement on the super admin's "Payments needing
 * attention" list, with an audit row for each new one and each one that closes by itself.
 *
 * - Every link a booking was given in the window (replaced and cancelled ones too): a paid link whose
 *   payment the ledger lacks is recorded through markPaid, so its booking follows as for a late
 *   webhook (confirmed, or its money refunded automatically), and listed as resolved at once.
 * - Every capture of the provider recorded in the window: the provider's amount, whether it knows the
 *   payment, and its refunds, refund by refund, when its refunded total differs from the ledger's (or
 *   a refund of it is listed already). A processed refund the ledger lacks is recorded and stays open.
 * - A self-closing disagreement this run could check and no longer finds is closed.
 *
 * Idempotent, and safe with another run at the same time: every ledger row is written at most once
 * (unique provider ids), a disagreement is opened once (a unique index among open ones) and closed once
 * (only an open one is closed), and each audit row goes with the write that made it news. One item the
 * provider cannot answer about is logged (ids only, never client data) and the run goes on.
 */
export async function reconcileLedger(deps: PaymentDeps): Promise<LedgerReconcileReport> {
  const now = deps.now();
  const since = new Date(now.getTime() - RECONCILE_WINDOW_DAYS * 24 * 3600_000);
  const run: Run = {
    deps,
    provider: deps.payments.name,
    now,
    report: { links: 0, payments: 0, recordedCaptures: 0, recordedRefunds: 0, detected: 0, resolved: 0, errors: 0 },
    seen: new Set(),
    paymentsRead: new Set(),
    refundsListed: new Set(),
  };

  for (const link of await linksToReconcile(deps.db, since)) {
    run.report.links++;
    try {
      await checkLink(run, link);
    } catch (err) {
      run.report.errors++;
      deps.logger.warn({ linkId: link.linkId, bookingId: link.bookingId, err }, 'ledger reconciliation: could not check a payment link; next run tries again');
    }
  }

  // After the links: a capture just recorded from one is compared like any other.
  const payments = await ledgerPaymentsSince(deps.db, run.provider, since);
  const openBefore = await openDiscrepanciesFor(
    deps.db,
    run.provider,
    SELF_CLOSING,
    payments.map((p) => p.paymentId),
  );
  const refundIssues = new Set(openBefore.filter((d) => d.refundId !== '').map((d) => d.paymentId));
  for (const payment of payments) {
    run.report.payments++;
    try {
      await checkPayment(run, payment, refundIssues.has(payment.paymentId));
    } catch (err) {
      run.report.errors++;
      deps.logger.warn(
        { paymentId: payment.paymentId, bookingId: payment.bookingId, err },
        'ledger reconciliation: could not check a payment; next run tries again',
      );
    }
  }

  for (const d of openBefore) {
    const checked = d.refundId === '' ? run.paymentsRead.has(d.paymentId) : run.refundsListed.has(d.paymentId);
    if (!checked || run.seen.has(keyOf(d))) continue;
    try {
      if (await closeGone(run, d)) run.report.resolved++;
    } catch (err) {
      run.report.errors++;
      deps.logger.warn({ discrepancyId: d.id, err }, 'ledger reconciliation: could not close a settled discrepancy; next run tries again');
    }
  }

  const level = run.report.detected > 0 || run.report.errors > 0 ? 'warn' : 'info';
  deps.logger[level]({ ...run.report, provider: run.provider }, 'ledger reconciliation done');
  return run.report;
}

/** A link's payment, if the provider took one the ledger does not have: recorded, and listed as resolved. */
async function checkLink(run: Run, link: { linkId: string; bookingId: number }): Promise<void> {
  const { deps, provider, now } = run;
  const remote = await deps.payments.fetchPaymentLink(link.linkId);
  if (remote.status !== 'paid' || !remote.paymentId) return;
  const paymentId = remote.paymentId;
  if (await hasProviderCapture(deps.db, provider, paymentId)) return;
  // The payment itself, for what was taken and how (the link says neither for sure). Payment Links
  // capture at once; one not captured (yet) took no money, and a later run looks again.
  const payment = await deps.payments.fetchPayment(paymentId);
  if (!payment.capturedAt) return;
  const recorded = await deps.db.transaction(async (tx) => {
    // The booking's row lock orders every report of this payment (markPaid takes the same lock): of two
    // runs, or a run and a late webhook, the first records it and the later ones find it recorded.
    await findBookingForUpdate(tx, link.bookingId);
    if (await hasProviderCapture(tx, provider, paymentId)) return false;
    const completed = await markPaid(
      tx,
      link.bookingId,
      { provider, linkId: link.linkId, paymentId, amountPaise: payment.amountPaise, method: payment.method },
      now,
      deps.logger,
    );
    const booking = await findBookingForUpdate(tx, link.bookingId);
    const outcome = completed
      ? `It is now recorded and booking ${link.bookingId} is confirmed.`
      : `It is now recorded; ${bookingState(booking)}, so the money ${deps.config.autoRefundStrayPayments ? 'goes back in full automatically' : 'is a refund due (automatic refunds are off)'}.`;
    const row = await insertResolvedDiscrepancy(
      tx,
      {
        kind: 'MISSING_CAPTURE',
        provider,
        bookingId: link.bookingId,
        paymentId,
        refundId: '',
        ledgerPaise: null,
        providerPaise: payment.amountPaise,
        detail: `${capitalise(providerLabel(provider))} took ${rupees(payment.amountPaise)} (payment ${paymentId}) on link ${link.linkId}, and the ledger did not have it: neither the client's return nor the webhook recorded it. ${outcome}`,
      },
      now,
      RESOLVED_BY_RECORDING,
    );
    await audit(tx, 'payment_discrepancy.detect', row);
    return true;
  });
  if (recorded) {
    run.report.recordedCaptures++;
    run.report.detected++;
  }
}

/** A ledger capture against the provider's record of it: amount, existence, refunds. */
async function checkPayment(run: Run, p: LedgerPayment, refundIssueOpen: boolean): Promise<void> {
  const { deps, provider } = run;
  const name = providerLabel(provider);
  const about = { bookingId: p.bookingId, paymentId: p.paymentId, refundId: '' };
  let remote;
  try {
    remote = await deps.payments.fetchPayment(p.paymentId);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    run.paymentsRead.add(p.paymentId);
    await found(run, {
      ...about,
      kind: 'NOT_AT_PROVIDER',
      ledgerPaise: p.amountPaise,
      providerPaise: null,
      detail: `The ledger has payment ${p.paymentId} of ${rupees(p.amountPaise)}, and ${name} does not know it.`,
    });
    return;
  }
  run.paymentsRead.add(p.paymentId);
  if (!remote.capturedAt) {
    // Known, but no money taken (failed, or only authorized): as money, the provider does not have it.
    await found(run, {
      ...about,
      kind: 'NOT_AT_PROVIDER',
      ledgerPaise: p.amountPaise,
      providerPaise: null,
      detail: `The ledger has payment ${p.paymentId} of ${rupees(p.amountPaise)} as captured; ${name} has it as ${remote.status}, with no money taken.`,
    });
    return;
  }
  if (remote.amountPaise !== p.amountPaise) {
    await found(run, {
      ...about,
      kind: 'AMOUNT_MISMATCH',
      ledgerPaise: p.amountPaise,
      providerPaise: remote.amountPaise,
      detail: `The ledger has payment ${p.paymentId} as ${rupees(p.amountPaise)}; ${name} has ${rupees(remote.amountPaise)}.`,
    });
  }
  // The refunds one by one only when the totals differ (one more call per payment otherwise), or to
  // see whether a refund already listed is still wrong.
  const ledgerRefunded = p.refunds.reduce((n, r) => n + r.amountPaise, 0);
  if (remote.amountRefundedPaise === ledgerRefunded && !refundIssueOpen) return;
  const refunds = await deps.payments.listPaymentRefunds(p.paymentId);
  run.refundsListed.add(p.paymentId);

  for (const r of refunds) {
    const mine = p.refunds.find((l) => l.refundId === r.id);
    if (!mine) {
      // A pending refund is not money returned yet (a later run finds it processed); a failed one returned none.
      if (r.status === 'processed') await recordProviderRefund(run, p, r);
      continue;
    }
    const providerPaise = r.status === 'failed' ? 0 : r.amountPaise;
    if (providerPaise !== mine.amountPaise) {
      await found(run, {
        ...about,
        refundId: r.id,
        kind: 'AMOUNT_MISMATCH',
        ledgerPaise: mine.amountPaise,
        providerPaise,
        detail:
          r.status === 'failed'
            ? `The ledger has refund ${r.id} of ${rupees(mine.amountPaise)} (payment ${p.paymentId}) as made; ${name} says it failed, so the money did not go back.`
            : `The ledger has refund ${r.id} (payment ${p.paymentId}) as ${rupees(mine.amountPaise)}; ${name} has ${rupees(r.amountPaise)}.`,
      });
    }
  }
  for (const mine of p.refunds) {
    if (refunds.some((r) => r.id === mine.refundId)) continue;
    await found(run, {
      ...about,
      refundId: mine.refundId,
      kind: 'NOT_AT_PROVIDER',
      ledgerPaise: mine.amountPaise,
      providerPaise: null,
      detail: `The ledger has refund ${mine.refundId} of ${rupees(mine.amountPaise)} (payment ${p.paymentId}); ${name} has no such refund.`,
    });
  }
}

/**
 * A refund made at the provider that the ledger lacks (from the provider's dashboard, say): recorded
 * in the ledger, and a MISSING_REFUND opened with it in one transaction. Only the call that writes the
 * ledger row opens it, so neither a second run nor the cancel that made the refund doubles it. A
 * booking whose own refund is under way (its intent open: the provider asked, the answer not yet
 * recorded) is left to that refund, which records it and applies its change (a cancel, say); the
 * booking's row lock orders the two, and a later run looks again.
 */
async function recordProviderRefund(run: Run, p: LedgerPayment, r: ProviderRefund): Promise<void> {
  const { provider } = run;
  const made = `${capitalise(providerLabel(provider))} refunded ${rupees(r.amountPaise)} of payment ${p.paymentId} (refund ${r.id})`;
  if (p.bookingId === null) {
    // A package sale's payment (issue 34): recorded against the sale, under its row lock, and left to
    // the sale's own refund while that is under way. The unused sessions are not taken back: the
    // owner decides, from the discrepancy, what the client still has.
    const saleId = p.packageSaleId!;
    return recordMissingRefund(run, p, r, { packageSaleId: saleId }, async (tx) => {
      await saleForUpdate(tx, saleId);
      if (await openIntentOfSale(tx, saleId)) return null;
      return `${made} for package sale ${saleId} and the ledger did not have it; it is now recorded. Check what the client still has of the package.`;
    });
  }
  const bookingId = p.bookingId;
  return recordMissingRefund(run, p, r, { bookingId }, async (tx) => {
    const booking = await findBookingForUpdate(tx, bookingId);
    if (await refundUnderWay(tx, bookingId)) return null;
    return `${made} and the ledger did not have it; it is now recorded. ${capitalise(bookingState(booking))}: check whether it should still take place and whether the client was told.`;
  });
}

/**
 * The one transaction of recordProviderRefund for a booking's payment or a sale's: `lock` takes the
 * owner's row lock and answers the discrepancy's words, or null while the owner's own refund is under
 * way; the ledger row is written, and only the call that wrote it opens the MISSING_REFUND.
 */
async function recordMissingRefund(run: Run, p: LedgerPayment, r: ProviderRefund, owner: Owner, lock: (tx: DbOrTx) => Promise<string | null>): Promise<void> {
  const { deps, provider, now } = run;
  const outcome = await deps.db.transaction(async (tx) => {
    const detail = await lock(tx);
    if (detail === null) return { recorded: false, opened: false };
    const written = await recordRefund(tx, {
      ...owner,
      provider,
      paymentId: p.paymentId,
      refundId: r.id,
      amountPaise: r.amountPaise,
      reason: PROVIDER_REFUND_REASON,
      occurredAt: now,
    });
    if (!written) return { recorded: false, opened: false };
    const opened = await openAndAudit(run, tx, {
      kind: 'MISSING_REFUND',
      provider,
      bookingId: owner.bookingId ?? null,
      paymentId: p.paymentId,
      refundId: r.id,
      ledgerPaise: null,
      providerPaise: r.amountPaise,
      detail,
    });
    return { recorded: true, opened };
  });
  if (outcome.recorded) run.report.recordedRefunds++;
  if (outcome.opened) run.report.detected++;
}

/** A self-closing disagreement found by this run: opened (and audited) if new, its last sighting moved otherwise. */
async function found(run: Run, d: Omit<Discrepancy, 'provider'>): Promise<void> {
  const full = { ...d, provider: run.provider };
  run.seen.add(keyOf(full));
  if (await run.deps.db.transaction((tx) => openAndAudit(run, tx, full))) run.report.detected++;
}

/** Opens a disagreement; a new one gets its audit row in the same transaction. Answers whether it was new. */
async function openAndAudit(run: Run, tx: DbOrTx, d: Discrepancy): Promise<boolean> {
  const result = await openDiscrepancy(tx, d, run.now);
  if (!result?.opened) return false;
  await audit(tx, 'payment_discrepancy.detect', result.row);
  return true;
}

/** A self-closing disagreement this run checked and no longer found: closed once, audited once. */
async function closeGone(run: Run, d: DiscrepancyRow): Promise<boolean> {
  return run.deps.db.transaction(async (tx) => {
    const closed = await resolveDiscrepancy(tx, d.id, run.now, RESOLVED_AGREE_AGAIN, null);
    if (!closed) return false;
    await insertAudit(tx, {
      ...RECONCILIATION_ACTOR,
      action: 'payment_discrepancy.resolve',
      entityType: 'payment_discrepancy',
      entityId: d.id,
      before: auditableDiscrepancy(d),
      after: auditableDiscrepancy(closed),
    });
    return true;
  });
}

async function audit(tx: DbOrTx, action: string, row: DiscrepancyRow): Promise<void> {
  await insertAudit(tx, {
    ...RECONCILIATION_ACTOR,
    action,
    entityType: 'payment_discrepancy',
    entityId: row.id,
    before: null,
    after: auditableDiscrepancy(row),
  });
}
