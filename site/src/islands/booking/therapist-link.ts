import { DEFAULT_SERVICE_ID } from '../../../../shared/domain/session.ts';
import { THERAPIST_TYPE } from '../../../../shared/domain/therapist.ts';
import { setBookingType, setLocation, setStep, setTherapist, type BookingType } from '../../stores/booking.ts';
import { loadLocations, loadServices, loadTherapists } from './data.ts';
import { stepOf } from './flow.ts';

/**
 * Chooses the therapist and what follows from them, and moves to the date and time step. False (the
 * wizard starts as usual) when the therapist is not offered, or an in-person therapist's centre is not.
 */
export async function chooseTherapistFromLink(id: number): Promise<boolean> {
  const [therapists, services] = await Promise.all([loadTherapists(), loadServices()]);
  const therapist = therapists.find((t) => t.id === id);
  if (!therapist) return false;
  const type: BookingType | null = therapist.type === THERAPIST_TYPE.ONLINE ? 'online' : therapist.type === THERAPIST_TYPE.OFFLINE ? 'offline' : null;
  if (!type) return false;
  const location = type === 'offline' ? (await loadLocations()).find((l) => l.id === therapist.locations) : undefined;
  if (type === 'offline' && !location) return false;
  setBookingType(type);
  if (location) setLocation(location);
  setTherapist(therapist, services.find((s) => s.id === DEFAULT_SERVICE_ID) ?? null);
  setStep(stepOf('slot', type));
  return true;
}
