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
  /** Under 18: a parent or guardian agrees to the booking (the terms' eligibility rule). */
  guardianConsent: boolean;
  /** Opted in to the WhatsApp reminder (WHATSAPP_CONSENT); unticked until the client ticks it. */
  whatsappReminders: boolean;
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
  /** The date the slot step shows: kept when a chosen slot is lost, so the client returns to it. */
  slotDate: string | null;
  /**
   * The booking being paid for: the idempotency key its request carries (so a request whose answer was
   * lost is sent again with the same key and finds the same booking), and, once the server answered, the
   * booking's id and the token that proves it is this client's. Any change of choice forgets all three.
   */
  pending: PendingBooking | null;
};

export type PendingBooking = {
  transactionId: string;
  bookingId: number | null;
  bookingToken: string | null;
  /** The booking's payment link, once the server made it: the failed-payment page reopens it. */
  linkUrl?: string | null;
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
  // Consent is the client's own act (India's DPDP Act): the box starts unticked, unlike the spec's
  // default of true. The README lists this among the departures from the spec.
  termsAccepted: false,
  guardianConsent: false,
  whatsappReminders: false,
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
    termsAccepted: false,
    paymentComplete: false,
    slotNotice: null,
    slotDate: null,
    pending: null,
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
    const state = { ...fallback, ...saved, clientInfo: { ...fallback.clientInfo, ...(saved.clientInfo ?? {}) } };
    // A step past the last was saved as the page left for the checkout. A page loaded afresh (the
    // browser's Back from the checkout without its back/forward cache) is not redirecting: it shows
    // the payment step again, whose Pay finds the same booking and link.
    const last = state.bookingType === 'offline' ? 6 : 5;
    if (typeof state.currentStep !== 'number' || state.currentStep > last) state.currentStep = last;
    return state;
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

/** A change of what is booked: the booking asked for before (if any) is not this one. */
function rechoose(changes: Partial<BookingState>): void {
  patch({ ...changes, pending: null });
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
  rechoose({ bookingType, selectedLocation: null, selectedTherapist: null, selectedService: null, selectedTimeSlot: null, slotDate: null });
}

/** Another location means other therapists and other slots. */
export function setLocation(location: LocationDto): void {
  const s = $booking.get();
  if (s.selectedLocation?.id === location.id) {
    patch({ selectedLocation: location });
    return;
  }
  rechoose({ selectedLocation: location, selectedTherapist: null, selectedTimeSlot: null, slotDate: null });
}

export function setTherapist(therapist: TherapistDto, service: ServiceDto | null): void {
  const s = $booking.get();
  const same = s.selectedTherapist?.id === therapist.id;
  if (same && s.selectedService?.id === service?.id) {
    patch({ selectedTherapist: therapist });
    return;
  }
  rechoose({
    selectedTherapist: therapist,
    selectedService: service,
    selectedTimeSlot: same ? s.selectedTimeSlot : null,
    slotDate: same ? s.slotDate : null,
  });
}

export function setTimeSlot(slot: SelectedSlot | null): void {
  const s = $booking.get();
  if (s.selectedTimeSlot && slot && s.selectedTimeSlot.date === slot.date && s.selectedTimeSlot.start_time === slot.start_time) return;
  rechoose(slot ? { selectedTimeSlot: slot, slotDate: slot.date } : { selectedTimeSlot: null });
}

/** The date the slot step shows (a new date clears the chosen slot). */
export function setSlotDate(slotDate: string): void {
  const s = $booking.get();
  if (s.slotDate === slotDate) return;
  if (s.selectedTimeSlot && s.selectedTimeSlot.date !== slotDate) rechoose({ slotDate, selectedTimeSlot: null });
  else patch({ slotDate });
}

/** clientInfo updates merge into the existing value (spec section 3). */
export function updateClientInfo(changes: Partial<ClientInfo>): void {
  const s = $booking.get();
  const clientInfo = { ...s.clientInfo, ...changes };
  const same = (Object.keys(changes) as (keyof ClientInfo)[]).every((k) => s.clientInfo[k] === clientInfo[k]);
  (same ? patch : rechoose)({ clientInfo, termsAccepted: clientInfo.termsAccepted });
}

/** The booking's idempotency key, made once for what is chosen now and kept until a choice changes. */
export function pendingBooking(newKey: () => string): PendingBooking {
  const s = $booking.get();
  if (s.pending) return s.pending;
  const pending = { transactionId: newKey(), bookingId: null, bookingToken: null };
  patch({ pending });
  return pending;
}

/** The booking asked for can no longer be paid: the next attempt asks for a new one, with a new key. */
export function forgetPendingBooking(): void {
  patch({ pending: null });
}

/** The server's answer: the booking's id and the token that proves it is this client's. */
export function bookingMade(bookingId: number, bookingToken: string | null): void {
  const s = $booking.get();
  if (!s.pending) return;
  patch({ pending: { ...s.pending, bookingId, bookingToken } });
}

/** The booking's payment link, kept for "Try payment again". */
export function paymentLinkMade(linkUrl: string): void {
  const s = $booking.get();
  if (!s.pending) return;
  patch({ pending: { ...s.pending, linkUrl } });
}

export function setSlotNotice(slotNotice: string | null): void {
  patch({ slotNotice });
}

export function setPaymentComplete(paymentComplete: boolean): void {
  patch({ paymentComplete });
}
