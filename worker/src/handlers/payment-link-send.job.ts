import { sendLinkOfNewBooking } from '../../../shared/core/services/payment-link-send.service.ts';
import type { JobHandler } from './handler.ts';

/** A manual online booking made unpaid: its payment link, made if needed and sent to the client once. */
export const paymentLinkSendJob: JobHandler<'payments.send-link'> = async (p, deps) => ({ result: await sendLinkOfNewBooking(deps, p.bookingId) });
