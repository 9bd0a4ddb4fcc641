import { refundStrayPayment } from '../../../shared/core/services/payment.service.ts';
import type { JobHandler } from './handler.ts';

/** A payment for a booking that cannot take it goes back in full; the same job id per payment, and the provider's idempotency key, make it once. */
export const refundStrayJob: JobHandler<'payments.refund-stray'> = async (p, deps) => ({ result: await refundStrayPayment(deps, p.bookingId, p.paymentId) });
