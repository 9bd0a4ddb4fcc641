import { API_MESSAGES } from '../../contract/messages.ts';
import type { SlotOfferDto } from '../../contract/public.ts';
import { clientOfferDates, clientSlotOffer } from '../../domain/slots.ts';
import { centreNow } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { getTherapist, listClosedRanges } from '../repositories/catalog.repository.ts';
import { listAvailability, listBookedSlots } from './public-catalogue.service.ts';

/** The server-computed offer for a therapist, from the same pure function the wizard uses. */
export async function slotOfferFor(db: Db, therapistId: number, now: Date): Promise<SlotOfferDto> {
  const therapist = await getTherapist(db, therapistId);
  if (!therapist) throw new AppError('not_found', API_MESSAGES.therapistNotFound);
  const today = centreNow(now);
  const dates = clientOfferDates(today.date);
  const [templates, booked, closed] = await Promise.all([
    listAvailability(db, therapistId),
    listBookedSlots(db, therapistId, today.date),
    listClosedRanges(db, therapistId, dates[0]!, dates.at(-1)!),
  ]);
  const days = clientSlotOffer({ today: today.date, nowMinutes: today.minutes, templates, booked, closed });
  return { therapist_id: therapistId, today: today.date, days };
}
