import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { API_MESSAGES } from '../../shared/contract/messages.ts';
import type { LocationDto, ServiceDto, SlotOfferDto, TherapistDto } from '../../shared/contract/public.ts';
import { resetCatalogCache } from '../../site/src/islands/booking/data.ts';
import { resetNextAvailable } from '../../site/src/islands/booking/TherapistStep.tsx';
import { resetBooking } from '../../site/src/stores/booking.ts';
import { contractFetch, jsonResponse } from '../support/mock-contract.ts';
import { booking } from './admin-helpers.tsx';

export const LOCATIONS: LocationDto[] = [
  { id: 1, name: 'West Branch', description: 'Quiet rooms near the station.', address: 'S.V. Road, Borivali West, Mumbai', phone: '+91 98200 11111' },
  { id: 2, name: 'East Branch', description: 'Calm space in Kandivali East.', address: 'Thakur Village, Kandivali East, Mumbai', phone: '+91 98200 22222' },
];

export const SERVICES: ServiceDto[] = [
  { id: 1, name: 'Therapy Session (60 minutes)' },
  { id: 2, name: 'Anxiety (Generalised, Social, Panic)' },
  { id: 3, name: 'Depression' },
  { id: 4, name: 'Stress Management' },
  { id: 5, name: 'Grief and Loss' },
  { id: 6, name: 'Sleep Problems (Insomnia)' },
];

const therapist = (t: Partial<TherapistDto> & Pick<TherapistDto, 'id' | 'name' | 'type'>): TherapistDto => ({
  title: 'Clinical Psychologist',
  specialization: 'Anxiety and mood',
  bio: 'Warm, structured support.|CBT|12 years of experience|English',
  price: 1500,
  image_url: 'x.png',
  locations: null,
  offered_service_ids: [2, 3],
  email: 'x@example.in',
  ...t,
});

export const THERAPISTS: TherapistDto[] = [
  therapist({ id: 1, name: 'Dr. Asha Mehta', type: 1, offered_service_ids: [2, 3, 4, 5, 6] }),
  therapist({ id: 2, name: 'Ms. Priya Nair', type: 1, price: null, bio: 'Helps couples.|EFT|7 years of experience' }),
  therapist({ id: 5, name: 'Dr. Rohan Kapoor', type: 2, locations: 1, price: 1800 }),
  therapist({ id: 7, name: 'Dr. Vikram Desai', type: 2, locations: 2, price: 2500 }),
];

export const OFFER: SlotOfferDto = {
  therapist_id: 1,
  today: '2030-01-07',
  days: [
    { date: '2030-01-07', slots: [] },
    {
      date: '2030-01-08',
      slots: [
        { id: 11, start_time: '10:00', end_time: '11:00' },
        { id: 12, start_time: '14:00', end_time: '15:00' },
      ],
    },
    { date: '2030-01-09', slots: [{ id: 13, start_time: '17:00', end_time: '18:00' }] },
    { date: '2030-01-10', slots: [] },
    { date: '2030-01-11', slots: [{ id: 11, start_time: '10:00', end_time: '11:00' }] },
    { date: '2030-01-12', slots: [{ id: 11, start_time: '10:00', end_time: '11:00' }] },
    { date: '2030-01-14', slots: [{ id: 11, start_time: '10:00', end_time: '11:00' }] },
    { date: '2030-01-15', slots: [{ id: 11, start_time: '10:00', end_time: '11:00' }] },
  ],
};

type Reply = { status?: number; body?: unknown } | (() => { status?: number; body?: unknown });
export type Routes = Record<string, Reply>;

/**
 * A fetch double: 'GET /path' or 'POST /path' → reply; query strings are ignored for matching. Every
 * answer is checked against the route table (tests/support/mock-contract.ts).
 */
export function mockFetch(routes: Routes) {
  const calls: { method: string; url: string; body: unknown; headers: Record<string, string> }[] = [];
  const fn = vi.fn(
    contractFetch(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = (init?.method ?? 'GET').toUpperCase();
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url, body, headers: Object.fromEntries(new Headers(init?.headers).entries()) });
      const key = `${method} ${url.split('?')[0]}`;
      const found = routes[key];
      if (!found) return jsonResponse({ detail: 'Not found.' }, 404);
      const r = typeof found === 'function' ? found() : found;
      return jsonResponse(r.body ?? {}, r.status ?? 200);
    }),
  );
  globalThis.fetch = fn as unknown as typeof fetch;
  return { fn, calls };
}

/** What POST /api/admin/bookings/9/update-payment-link answers the wizard when it confirms the link it was given. */
export const LINK_SAVED: Reply = { body: { booking_id: 9, payment_link_url: 'https://pay.example/abc', message: 'Payment link updated successfully.' } };

/** What the API answers when it fails on its side (the error handler's 500). */
export const SERVER_ERROR: Reply = { status: 500, body: { detail: API_MESSAGES.internal } };

export const CATALOG: Routes = {
  'GET /locations': { body: LOCATIONS },
  'GET /services': { body: SERVICES },
  'GET /therapists': { body: THERAPISTS },
  'GET /api/slots': { body: OFFER },
};

/** jsdom has no matchMedia; `narrow` answers the under-768px query. */
export function setViewport(narrow: boolean): void {
  window.matchMedia = ((query: string) => ({
    matches: narrow && query.includes('max-width'),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

/**
 * Booking 9 as the server answers for it on the payment pages to a caller with proof (the whole record
 * of GET /api/get-razorpay-details); each test gives its payment state, and payment_state follows from
 * the fields given as the server computes it, unless given too.
 */
export function booking9(over: Record<string, unknown> = {}) {
  return {
    razorpay_payment_link_id: null,
    razorpay_payment_id: null,
    paid_at: null,
    payment_hold_seconds_left: null,
    manage_url: null,
    changes_open: false,
    ...booking({
      id: 9,
      booking_date: '2030-01-08',
      booking_time_slot_start: '10:00',
      client_full_name: 'Meera Sharma',
      therapist_name: 'Dr. Asha Mehta',
      booking_type: 'ONLINE',
      amount: 1500,
      google_meet_link: null,
      ...over,
    }),
  };
}

/**
 * The wizard loads every step after the first lazily (and a therapist link's choice): they are loaded
 * once up front, so no test waits on their first transform.
 */
export function loadWizardStepsUpFront(): void {
  beforeAll(async () => {
    await Promise.all([
      import('../../site/src/islands/booking/TherapistStep.tsx'),
      import('../../site/src/islands/booking/therapist-link.ts'),
      import('../../site/src/islands/booking/LocationStep.tsx'),
      import('../../site/src/islands/booking/SlotStep.tsx'),
      import('../../site/src/islands/booking/DetailsStep.tsx'),
      import('../../site/src/islands/booking/PaymentStep.tsx'),
    ]);
  });
}

/**
 * Each wizard test starts on /book at a wide screen with an empty booking and no cached catalogue,
 * and leaves no render or mock behind, its steps loaded up front.
 */
export function resetWizardAroundEachTest(): void {
  loadWizardStepsUpFront();
  beforeEach(() => {
    sessionStorage.clear();
    resetBooking();
    resetCatalogCache();
    resetNextAvailable();
    setViewport(false);
    history.replaceState(null, '', '/book');
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });
}
