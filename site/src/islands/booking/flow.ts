import type { BookingType } from '../../stores/booking.ts';

/**
 * The wizard's screens in order. currentStep is the 1-based position in the flow, which is
 * the numbering of the spec's screen-to-screen rules: online type 1, therapist 2, slot 3,
 * details 4, payment 5; offline type 1, location 2, therapist 3, slot 4, details 5, payment 6.
 * Navigation is written as "the previous / next screen", so the spec's other reading of the
 * numbers (therapist 3/4, slot 4/5, details 5/6) lands on the very same screens.
 */
export type Screen = 'type' | 'location' | 'therapist' | 'slot' | 'details' | 'payment';

export const ONLINE_FLOW: readonly Screen[] = ['type', 'therapist', 'slot', 'details', 'payment'];
export const OFFLINE_FLOW: readonly Screen[] = ['type', 'location', 'therapist', 'slot', 'details', 'payment'];

export const SCREEN_LABELS: Record<Screen, string> = {
  type: 'Booking Type',
  location: 'Location',
  therapist: 'Therapist',
  slot: 'Date & Time',
  details: 'Your Details',
  payment: 'Payment',
};

export function flowOf(type: BookingType | null): readonly Screen[] {
  return type === 'offline' ? OFFLINE_FLOW : ONLINE_FLOW;
}

/** The screen for a step, or 'processing' past the last step. */
export function screenAt(step: number, type: BookingType | null): Screen | 'processing' {
  const flow = flowOf(type);
  if (step > flow.length) return 'processing';
  return flow[Math.max(1, Math.floor(step)) - 1] ?? 'type';
}

export function stepOf(screen: Screen, type: BookingType | null): number {
  const i = flowOf(type).indexOf(screen);
  return i === -1 ? 1 : i + 1;
}
