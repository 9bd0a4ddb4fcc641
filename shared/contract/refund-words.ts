/**
 * The client's words about their money after a cancel (issue 31): one place for the Manage booking page,
 * the API's answers and the e-mails. Kept apart from the refunds' zod shapes (refunds.ts) so the
 * client's page does not load zod, whose compiled parsers need the eval the site's CSP refuses.
 */
import { formatPrice } from '../domain/money.ts';

/** How the client reaches the centre. */
export type CentreContact = { phone: string; email: string };

/**
 * The client's words about a refund, one home for the Manage booking page, the API's answers and the
 * e-mails. Amounts in rupees.
 */
export const REFUND_WORDS = {
  /** Money that went back through the payments provider. */
  toOriginalMethod: (rupees: number, o: { done: boolean; full: boolean }) =>
    `${formatPrice(rupees)} ${o.done ? 'has been' : 'is being'} refunded${o.full ? ' in full' : ''} to your original payment method; it usually reaches you within 5–7 working days.`,
  /** Money taken at the centre: handed back there. */
  atCentre: (rupees: number, contact: CentreContact) =>
    `Your refund of ${formatPrice(rupees)} will be handed back to you at the centre, where it was paid: please call ${contact.phone} or write to ${contact.email} to arrange when to collect it.`,
  /** Handed back at the desk already. */
  handedBack: (rupees: number) => `${formatPrice(rupees)} has been handed back to you at the centre.`,
  /** A refund the centre's owner is deciding. */
  underReview: (rupees: number) =>
    `Your refund of ${formatPrice(rupees)} is being reviewed by the centre; we will write to you again as soon as it has been decided.`,
  approved: 'Your refund has been approved.',
  declined: (rupees: number, reason: string) => `After review, ${formatPrice(rupees)} is not refunded: ${reason}`,
  nothingPaid: 'Nothing was paid, so nothing is refunded.',
  /** Before the client cancels (Manage booking): what cancelling would return, and how. */
  onCancel: (rupees: number, atCentreRupees: number, contact: CentreContact): string => {
    const provider = rupees - atCentreRupees;
    const parts: string[] = [];
    if (provider > 0) parts.push(`${formatPrice(provider)} will be refunded to your original payment method.`);
    if (atCentreRupees > 0) {
      parts.push(
        `${formatPrice(atCentreRupees)} was paid at the centre and will be handed back to you there (call ${contact.phone} or write to ${contact.email} to arrange it).`,
      );
    }
    return parts.length ? parts.join(' ') : 'Nothing was paid, so nothing is refunded.';
  },
};
