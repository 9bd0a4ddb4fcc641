import { offerFreedSlot, expireWaitlistOffer } from '../../../shared/core/services/waitlist.service.ts';
import { sendWaitlistMail } from '../../../shared/core/services/waitlist-mail.service.ts';
import type { JobHandler } from './handler.ts';

/** A live booking's slot was freed (the bookings trigger, migration 0027): offered to the first waiting for it. */
export const waitlistSlotFreedJob: JobHandler<'waitlist.slot-freed'> = async (p, deps) => offerFreedSlot(deps, p);

/** An offer's hold ends: unclaimed, its slot is freed, and so passes to the next. */
export const waitlistOfferExpiryJob: JobHandler<'waitlist.offer-expiry'> = async (p, deps) => ({ result: await expireWaitlistOffer(deps, p.offerId) });

export const waitlistMailJob: JobHandler<'mail.waitlist'> = async (p, deps) => ({ result: await sendWaitlistMail(deps, p) });
