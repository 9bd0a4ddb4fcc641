/**
 * The ledger's disagreements with the payments provider, as reconciliation finds them and the super
 * admin's "Payments needing attention" list names them.
 */
export const DISCREPANCY_KINDS = ['MISSING_CAPTURE', 'MISSING_REFUND', 'AMOUNT_MISMATCH', 'NOT_AT_PROVIDER'] as const;
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

export type PaymentsProviderName = 'razorpay' | 'sandbox';

/** Longest note a super admin may leave when marking an issue reviewed. */
export const REVIEW_NOTE_MAX = 500;

/** The provider as a sentence names it. */
export function providerLabel(provider: PaymentsProviderName): string {
  return provider === 'razorpay' ? 'Razorpay' : 'the sandbox';
}

/** What is wrong, in the words the list shows above the detail. */
export function discrepancyHeadline(kind: DiscrepancyKind, provider: PaymentsProviderName): string {
  switch (kind) {
    case 'MISSING_CAPTURE':
      return 'Payment taken but not recorded';
    case 'MISSING_REFUND':
      return `Refund at ${providerLabel(provider)} not in the ledger`;
    case 'AMOUNT_MISMATCH':
      return 'Amounts differ';
    case 'NOT_AT_PROVIDER':
      return 'Not found at the provider';
  }
}
