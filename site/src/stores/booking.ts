import { atom } from 'nanostores';
import type { LocationDto, ServiceDto, TherapistDto } from '../../../shared/contract/public.ts';

/**
 * The booking wizard's state (spec section 3), shared by every step and by /payment-status.
 * Kept in sessionStorage so a reload in the middle of a booking keeps the client's progress;
 * it lives only as long as the tab, which suits personal details.
 */
export type BookingType = 'online' | 'offline';
export type SessionType = 'individual' | 'couple';

export type ClientInfo = {
  fullName: string;
  email: string;
  mobile: string;
  /** null while the field is empty. */
  age: number | null;
  state: string;
  city: string;
  notes: string;
  termsAccepted: boolean;
  sessionType: SessionType | '';
};

export type SelectedSlot = { id: number; date: string; start_time: string; end_time: string };

export type BookingState = {
  currentStep: number;
  bookingType: BookingType | null;
  selectedLocation: LocationDto | null;
  selectedService: ServiceDto | null;
  selectedTherapist: TherapistDto | null;
  selectedTimeSlot: SelectedSlot | null;
  clientInfo: ClientInfo;
  termsAccepted: boolean;
  paymentComplete: boolean;
  /** A message for the slot step, e.g. after the chosen slot was taken meanwhile. */
  slotNotice: string | null;
};

export const STORAGE_KEY = 'booking-state';

export const DEFAULT_CLIENT_INFO: ClientInfo = {
  fullName: '',
  email: '',
  mobile: '',
  age: null,
  state: '',
  city: '',
  notes: '',
  termsAccepted: true,
  sessionType: 'individual',
};

export function defaultBookingState(): BookingState {
  return {
    currentStep: 1,
    bookingType: null,
    selectedLocation: null,
    selectedService: null,
    selectedTherapist: null,
    selectedTimeSlot: null,
    clientInfo: { ...DEFAULT_CLIENT_INFO },
    termsAccepted: true,
    paymentComplete: false,
    slotNotice: null,
  };
}

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // storage blocked by the browser
  }
}

function load(): BookingState {
  const fallback = defaultBookingState();
  const raw = storage()?.getItem(STORAGE_KEY);
  if (!raw) return fallback;
  try {
    const saved = JSON.parse(raw) as Partial<BookingState>;
    if (typeof saved !== 'object' || saved === null) return fallback;
    return { ...fallback, ...saved, clientInfo: { ...fallback.clientInfo, ...(saved.clientInfo ?? {}) } };
  } catch {
    return fallback;
  }
}

export const $booking = atom<BookingState>(load());

$booking.listen((state) => {
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // quota or privacy mode: the wizard still works, it just will not survive a reload
  }
});

function patch(changes: Partial<BookingState>): void {
  $booking.set({ ...$booking.get(), ...changes });
}

/** Re-reads sessionStorage (tests and other tabs of the same session). */
export function reloadBooking(): void {
  $booking.set(load());
}

export function resetBooking(): void {
  $booking.set(defaultBookingState());
}

export function setStep(step: number): void {
  patch({ currentStep: step });
}

/** Choosing another type forgets the choices that depended on it. */
export function setBookingType(bookingType: BookingType): void {
  const s = $booking.get();
  if (s.bookingType === bookingType) return;
  patch({ bookingType, selectedLocation: null, selectedTherapist: null, selectedService: null, selectedTimeSlot: null });
}

/** Another location means other therapists and other slots. */
export function setLocation(location: LocationDto): void {
  const s = $booking.get();
  if (s.selectedLocation?.id === location.id) return patch({ selectedLocation: location });
  patch({ selectedLocation: location, selectedTherapist: null, selectedTimeSlot: null });
}

export function setTherapist(therapist: TherapistDto, service: ServiceDto | null): void {
  const s = $booking.get();
  const same = s.selectedTherapist?.id === therapist.id;
  patch({ selectedTherapist: therapist, selectedService: service, selectedTimeSlot: same ? s.selectedTimeSlot : null });
}

export function setTimeSlot(slot: SelectedSlot | null): void {
  patch({ selectedTimeSlot: slot });
}

/** clientInfo updates merge into the existing value (spec section 3). */
export function updateClientInfo(changes: Partial<ClientInfo>): void {
  const s = $booking.get();
  const clientInfo = { ...s.clientInfo, ...changes };
  patch({ clientInfo, termsAccepted: clientInfo.termsAccepted });
}

export function setSlotNotice(slotNotice: string | null): void {
  patch({ slotNotice });
}

export function setPaymentComplete(paymentComplete: boolean): void {
  patch({ paymentComplete });
}
