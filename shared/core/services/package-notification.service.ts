import { formatPrice, paiseToRupees } from '../../domain/money.ts';
import { formatLongDate } from '../../domain/time.ts';
import type { MailMessage } from '../providers/mail/mail.provider.ts';
import { STRAY_SALE_REFUND_REASON } from '../../contract/packages.ts';
import { saleRefundRows, saleWithTotals, type SaleListRow } from '../repositories/package.repository.ts';
import { packageUrlFor } from './booking-token.ts';
import { renderHtml, type NotificationDeps } from './notification.service.ts';

/**
 * The e-mails of a package (issue 34): its private link when it is sold, a reminder seven days before
 * it expires with sessions left, and what was refunded. The link is derived from the sale's id in the
 * worker (packageTokenFor), never stored. Each mail reads the sale as it is when the job runs.
 */

type MailDeps = Pick<NotificationDeps, 'db' | 'mailer' | 'config'>;

function sessions(n: number): string {
  return `${n} ${n === 1 ? 'session' : 'sessions'}`;
}

function closing(deps: MailDeps): string[] {
  return [`If you need anything, call ${deps.config.supportPhone} or write to ${deps.config.supportEmail}.`, `Warm regards,\n${deps.config.centreName}`];
}

export function packageSoldMail(s: SaleListRow, url: string, deps: MailDeps): MailMessage {
  const paragraphs = [
    `Dear ${s.clientFullName},`,
    `Thank you for buying the package "${s.packageName}": ${sessions(s.sold)}, to be used by ${formatLongDate(s.expiresOn!)}.`,
    `Book your sessions with your package's private link (keep it to yourself: it is how we recognise you):\n${url}`,
    ...closing(deps),
  ];
  return {
    to: s.clientEmail,
    subject: `Your package at ${deps.config.centreName}`,
    text: paragraphs.join('\n\n'),
    html: renderHtml('Your package', paragraphs, { href: url, text: 'Open your package' }),
  };
}

export function packageExpiringMail(s: SaleListRow, url: string, deps: MailDeps): MailMessage {
  const paragraphs = [
    `Dear ${s.clientFullName},`,
    `Your package "${s.packageName}" has ${sessions(s.left)} left, and they can be used until ${formatLongDate(s.expiresOn!)}. After that day they expire.`,
    `Book them with your package's link:\n${url}`,
    ...closing(deps),
  ];
  return {
    to: s.clientEmail,
    subject: `Your package expires on ${formatLongDate(s.expiresOn!)}`,
    text: paragraphs.join('\n\n'),
    html: renderHtml('Your package expires soon', paragraphs, { href: url, text: 'Book your sessions' }),
  };
}

export function packageRefundedMail(s: SaleListRow, refundedPaise: number, deps: MailDeps): MailMessage {
  const paragraphs = [
    `Dear ${s.clientFullName},`,
    `We have refunded ${formatPrice(paiseToRupees(refundedPaise))} for the ${sessions(s.refunded)} of your package "${s.packageName}" you did not use.`,
    s.paymentMethod && ['CASH', 'CARD', 'UPI', 'BANK_TRANSFER'].includes(s.paymentMethod) && s.channel === 'DESK'
      ? 'It was handed back to you at the centre.'
      : 'It goes back to your original payment method; banks usually take 5 to 7 working days.',
    ...closing(deps),
  ];
  return {
    to: s.clientEmail,
    subject: `Refund for your package "${s.packageName}"`,
    text: paragraphs.join('\n\n'),
    html: renderHtml('Your refund', paragraphs),
  };
}

/** The mail.package-sold job. */
export async function sendPackageSold(deps: MailDeps, saleId: number): Promise<'sent' | 'skipped'> {
  const s = await saleWithTotals(deps.db, saleId);
  if (s?.status !== 'PAID') return 'skipped';
  await deps.mailer.send(packageSoldMail(s, packageUrlFor(deps.config.publicBaseUrl, deps.config.jwtSecret, saleId), deps), `package-sold-${saleId}`);
  return 'sent';
}

/** The mail.package-expiring job: nothing once the sessions are used, refunded or expired meanwhile. */
export async function sendPackageExpiring(deps: MailDeps, saleId: number): Promise<'sent' | 'skipped'> {
  const s = await saleWithTotals(deps.db, saleId);
  if (s?.status !== 'PAID' || s.left <= 0) return 'skipped';
  await deps.mailer.send(packageExpiringMail(s, packageUrlFor(deps.config.publicBaseUrl, deps.config.jwtSecret, saleId), deps), `package-expiring-${saleId}`);
  return 'sent';
}

/** The mail.package-refunded job. */
export async function sendPackageRefunded(deps: MailDeps, saleId: number, strayPaymentId?: string): Promise<'sent' | 'skipped'> {
  const s = await saleWithTotals(deps.db, saleId);
  if (!s) return 'skipped';
  const refunds = await saleRefundRows(deps.db, saleId);
  if (strayPaymentId !== undefined) {
    // A second payment for the package, given back whole.
    const back = refunds.filter((r) => r.paymentId === strayPaymentId).reduce((n, r) => n - r.amountPaise, 0);
    if (back <= 0) return 'skipped';
    const paragraphs = [
      `Dear ${s.clientFullName},`,
      `We received a second payment of ${formatPrice(paiseToRupees(back))} for your package "${s.packageName}", which you had already paid for. We have refunded it in full.`,
      'It goes back to your original payment method; banks usually take 5 to 7 working days. Your package and its sessions are unchanged.',
      ...closing(deps),
    ];
    await deps.mailer.send(
      {
        to: s.clientEmail,
        subject: `Refund of a second payment for your package "${s.packageName}"`,
        text: paragraphs.join('\n\n'),
        html: renderHtml('Your refund', paragraphs),
      },
      `package-stray-refund-${saleId}`,
    );
    return 'sent';
  }
  if (s.refunded <= 0) return 'skipped';
  // The unused sessions' refund: a second payment given back is not part of it.
  const refundedPaise = refunds.filter((r) => r.reason !== STRAY_SALE_REFUND_REASON).reduce((n, r) => n - r.amountPaise, 0);
  await deps.mailer.send(packageRefundedMail(s, refundedPaise, deps), `package-refunded-${saleId}`);
  return 'sent';
}
