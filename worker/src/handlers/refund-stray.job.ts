import { refundStraySalePayment } from '../../../shared/core/services/package-refund.service.ts';
import { refundStrayPayment } from '../../../shared/core/services/payment.service.ts';
import type { JobHandler } from './handler.ts';

/**
 * A payment for a booking that cannot take it, or a second one for a package sale already paid, goes
 * back in full; the same job id per payment, and the provider's idempotency key, make it once.
 */
export const refundStrayJob: JobHandler<'payments.refund-stray'> = async (p, deps) => ({
  result: 'saleId' in p ? await refundStraySalePayment(deps, p.saleId, p.paymentId) : await refundStrayPayment(deps, p.bookingId, p.paymentId),
});
