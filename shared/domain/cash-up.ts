/**
 * The cash-up's words (issue 31), pure and light: the panel, the API and the workbook say them alike.
 * The report's shape is shared/contract/cash-up.ts; its rules, shared/core/services/cash-up.service.ts.
 */
import type { CashUpMethod } from '../contract/admin.ts';

/** Each method in words, as the panel and the workbook say it. */
export const CASH_UP_METHOD_LABELS: Record<CashUpMethod, string> = {
  CASH: 'Cash',
  CARD: 'Card',
  UPI: 'UPI',
  BANK_TRANSFER: 'Bank transfer',
  ONLINE: 'Online',
  OTHER: 'Other',
};

/**
 * Who recorded a movement when no admin did: the client paying (or being refunded) through the payment
 * provider, the ledger reconciliation finding what the provider had and the ledger lacked, or the
 * system itself (a counter entry written with no admin, by an older cancel).
 */
export const CASH_UP_RECORDED_BY = { online: 'Online', reconciliation: 'Reconciliation', system: 'System' } as const;
