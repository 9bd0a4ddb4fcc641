import { createLinkForBooking } from '../../../shared/core/services/payment.service.ts';
import type { JobHandler } from './handler.ts';

/** Makes (or finds) the booking's payment link; the API waits for this result in POST /api/payment/generate-link. */
export const paymentLinkJob: JobHandler<'payments.create-link'> = (p, deps) => createLinkForBooking(deps, p.bookingId);
