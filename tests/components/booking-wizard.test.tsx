import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BookingWizard } from '../../site/src/islands/booking/BookingWizard.tsx';
import { PACKAGES_CHOICE } from '../../site/src/islands/booking/TypeStep.tsx';
import { resetCatalogCache } from '../../site/src/islands/booking/data.ts';
import { screenAt, stepOf } from '../../site/src/islands/booking/flow.ts';
import {
  $booking,
  resetBooking,
  setBookingType,
  setLocation,
  setStep,
  setTherapist,
  setTimeSlot,
  STORAGE_KEY,
  updateClientInfo,
} from '../../site/src/stores/booking.ts';
import { API_MESSAGES } from '../../shared/contract/messages.ts';
import { CATALOG, LOCATIONS, loadWizardStepsUpFront, mockFetch, OFFER, SERVER_ERROR, SERVICES, setViewport, THERAPISTS } from './booking-fixtures.ts';

loadWizardStepsUpFront();
beforeEach(() => {
  sessionStorage.clear();
  resetBooking();
  resetCatalogCache();
  setViewport(false);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const continueBtn = () => screen.getByRole('button', { name: 'Continue' });

describe('step numbering', () => {
  it('online has 5 steps and offline 6; Back and Continue land on the same screens in both readings', () => {
    expect([1, 2, 3, 4, 5].map((n) => screenAt(n, 'online'))).toEqual(['type', 'therapist', 'slot', 'details', 'payment']);
    expect([1, 2, 3, 4, 5, 6].map((n) => screenAt(n, 'offline'))).toEqual(['type', 'location', 'therapist', 'slot', 'details', 'payment']);
    // Slot: Continue → 4 (online) / 5 (offline) = details; Back → 2 / 3 = therapist.
    expect(screenAt(stepOf('slot', 'online') + 1, 'online')).toBe('details');
    expect(screenAt(stepOf('slot', 'offline') + 1, 'offline')).toBe('details');
    expect(screenAt(2, 'online')).toBe('therapist');
    expect(screenAt(3, 'offline')).toBe('therapist');
    // Details: Back → 3 / 4 = slot; Continue to Payment → 5 / 6 = payment.
    expect(screenAt(3, 'online')).toBe('slot');
    expect(screenAt(4, 'offline')).toBe('slot');
    expect(screenAt(5, 'online')).toBe('payment');
    expect(screenAt(6, 'offline')).toBe('payment');
    expect(screenAt(7, 'offline')).toBe('processing');
  });

  it('a step past the last shows the redirect message', () => {
    mockFetch(CATALOG);
    setBookingType('online');
    setStep(6);
    render(<BookingWizard />);
    expect(screen.getByRole('heading', { name: 'Processing payment and redirecting...' })).toBeTruthy();
  });
});

describe('booking type step', () => {
  it('shows the heading, both cards and Step 1 of 5; Continue waits for a choice; offline makes it 6 steps', async () => {
    mockFetch(CATALOG);
    render(<BookingWizard />);
    expect(screen.getByRole('heading', { name: 'How would you like to meet?' })).toBeTruthy();
    expect(screen.getByText('Step 1 of 5')).toBeTruthy();
    expect(screen.getByText('Online Session')).toBeTruthy();
    expect((continueBtn() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: /In-Person Session/ }));
    expect(screen.getByText('Step 1 of 6')).toBeTruthy();
    expect((continueBtn() as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(continueBtn());
    const heading = await screen.findByRole('heading', { name: 'Select Location' });
    expect(document.activeElement).toBe(heading); // focus moves to the new step's heading
    expect($booking.get().currentStep).toBe(2);
  });
});

describe('the packages choice (issue 34)', () => {
  it('is a third card of the same radio group, reached with the arrow keys; Continue takes the client to the packages page', async () => {
    mockFetch(CATALOG);
    const navigate = vi.fn();
    render(<BookingWizard navigate={navigate} />);
    const group = screen.getByRole('group', { name: 'Session format' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => (r as HTMLInputElement).name)).toEqual(['booking-type', 'booking-type', 'booking-type']);
    const card = within(group).getByRole('radio', { name: new RegExp(PACKAGES_CHOICE.title) }) as HTMLInputElement;
    expect(card.checked).toBe(false);
    // The old plain link is gone: the card is the one way.
    expect(screen.queryByRole('link', { name: /packages/i })).toBeNull();
    fireEvent.click(card);
    expect(card.checked).toBe(true);
    expect((continueBtn() as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(continueBtn());
    expect(navigate).toHaveBeenCalledWith('/packages');
    // Choosing a format again leaves the packages card and continues in the wizard.
    fireEvent.click(screen.getByRole('radio', { name: /Online Session/ }));
    expect(card.checked).toBe(false);
    fireEvent.click(continueBtn());
    expect(navigate).toHaveBeenCalledTimes(1);
    expect($booking.get().currentStep).toBe(2);
  });
});

describe('location step', () => {
  beforeEach(() => {
    setBookingType('offline');
    setStep(2);
  });

  it('loads, then lists centres in reverse API order with image, address and phone', async () => {
    mockFetch(CATALOG);
    render(<BookingWizard />);
    expect(screen.getByText('Loading available locations...')).toBeTruthy();
    const radios = await screen.findAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.querySelector('.choice-title')?.textContent)).toEqual(['East Branch', 'West Branch']);
    expect(document.querySelector('img[src="/get_location_image/2.png"]')).toBeTruthy();
    expect(screen.getByText('Phone: +91 98200 11111')).toBeTruthy();
    expect((continueBtn() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(radios[1]!);
    expect($booking.get().selectedLocation?.id).toBe(1);
    fireEvent.click(continueBtn());
    await screen.findByRole('heading', { name: 'Select Your Therapist' });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByRole('heading', { name: 'Select Location' });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('heading', { name: 'How would you like to meet?' })).toBeTruthy();
  });

  it('shows the error texts', async () => {
    mockFetch({ ...CATALOG, 'GET /locations': { status: 500, body: { detail: 'x' } } });
    render(<BookingWizard />);
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load locations. Please try again later.');
    expect(screen.getByText('Please check your internet connection or try again.')).toBeTruthy();
  });

  it('shows the empty state', async () => {
    mockFetch({ ...CATALOG, 'GET /locations': { body: [] } });
    render(<BookingWizard />);
    expect(await screen.findByRole('heading', { name: 'No Locations Available' })).toBeTruthy();
  });
});

describe('therapist step', () => {
  it('online: type 1 only, display name, title, bio, experience, ₹ price, 3 tags and +N more; selecting picks service 1 and advances', async () => {
    mockFetch(CATALOG);
    setBookingType('online');
    setStep(2);
    render(<BookingWizard />);
    await screen.findByRole('heading', { name: 'Asha Mehta' });
    expect(screen.queryByText('Rohan Kapoor')).toBeNull();
    const card = screen.getByRole('heading', { name: 'Asha Mehta' }).closest('li')!;
    const c = within(card);
    expect(c.getByText('Clinical Psychologist')).toBeTruthy();
    expect(c.getByText('Anxiety and mood')).toBeTruthy();
    expect(c.getByText('Warm, structured support.')).toBeTruthy();
    expect(c.getByText('12 years of experience')).toBeTruthy();
    expect(c.getByText('₹1,500')).toBeTruthy();
    expect(c.getByText('Anxiety')).toBeTruthy(); // text before '('
    expect(c.getByText('Depression')).toBeTruthy();
    expect(c.getByText('Stress Management')).toBeTruthy();
    expect(c.queryByText('Grief and Loss')).toBeNull();
    expect(c.getByText('+2 more')).toBeTruthy();
    expect(card.querySelector('img')?.getAttribute('src')).toBe('/get_specific_image/x.png');
    expect((continueBtn() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(c.getByRole('button', { name: 'Select Asha Mehta' }));
    expect($booking.get().selectedTherapist?.id).toBe(1);
    expect($booking.get().selectedService).toEqual(SERVICES[0]);
    expect(await screen.findByRole('heading', { name: 'Select Date & Time' })).toBeTruthy();
  });

  it('offline: type 2 at the chosen location only', async () => {
    mockFetch(CATALOG);
    setBookingType('offline');
    setLocation(LOCATIONS[1]!);
    setStep(3);
    render(<BookingWizard />);
    await screen.findByRole('heading', { name: 'Vikram Desai' });
    expect(screen.queryByText('Rohan Kapoor')).toBeNull();
    expect(screen.queryByText('Asha Mehta')).toBeNull();
  });

  it('warns and selects no service when service 1 is missing', async () => {
    mockFetch({ ...CATALOG, 'GET /services': { body: SERVICES.slice(1) } });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    setBookingType('online');
    setStep(2);
    render(<BookingWizard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Select Asha Mehta' }));
    expect(warn).toHaveBeenCalled();
    expect($booking.get().selectedService).toBeNull();
  });

  it('shows Location Not Selected, No Therapists Found and the load error', async () => {
    mockFetch(CATALOG);
    setBookingType('offline');
    setStep(3);
    const { unmount } = render(<BookingWizard />);
    expect(screen.getByRole('heading', { name: 'Location Not Selected' })).toBeTruthy();
    unmount();

    mockFetch({ ...CATALOG, 'GET /therapists': { body: THERAPISTS.filter((t) => t.type === 2) } });
    resetCatalogCache();
    setBookingType('online');
    setStep(2);
    const second = render(<BookingWizard />);
    expect(await screen.findByRole('heading', { name: 'No Therapists Found' })).toBeTruthy();
    second.unmount();

    mockFetch({ ...CATALOG, 'GET /therapists': SERVER_ERROR });
    resetCatalogCache();
    render(<BookingWizard />);
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load therapists. Please try again later.');
  });
});

function atSlotStep() {
  setBookingType('online');
  setTherapist(THERAPISTS[0]!, SERVICES[0]!);
  setStep(3);
}

describe('date and time step', () => {
  it('summary card, 6 dates on wide screens, first date with slots chosen, 12-hour times; a new date clears the slot', async () => {
    mockFetch(CATALOG);
    atSlotStep();
    render(<BookingWizard />);
    await screen.findByText('10:00 AM');
    expect(screen.getByText('Therapy Session')).toBeTruthy();
    expect(screen.getByText(/60 minutes/)).toBeTruthy();
    const dates = document.querySelectorAll('.date-btn');
    expect(dates.length).toBe(6);
    expect(document.querySelector('.date-btn[aria-pressed="true"]')?.getAttribute('aria-label')).toMatch(/^Tuesday, January 8, 2030/);
    expect(screen.getByText('2:00 PM')).toBeTruthy();
    expect((continueBtn() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: '2:00 PM' }));
    expect($booking.get().selectedTimeSlot).toEqual({ id: 12, date: '2030-01-08', start_time: '14:00', end_time: '15:00' });
    expect((continueBtn() as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: /^Thursday, January 10, 2030/ }));
    expect($booking.get().selectedTimeSlot).toBeNull();
    expect(screen.getByText('No available time slots for this date.')).toBeTruthy();
    // Arrows shift by one date.
    fireEvent.click(screen.getByRole('button', { name: 'Later dates' }));
    expect(document.querySelector('.date-btn')?.getAttribute('aria-label')).toMatch(/^Tuesday, January 8/);
    fireEvent.click(screen.getByRole('button', { name: 'Earlier dates' }));
    expect(document.querySelector('.date-btn')?.getAttribute('aria-label')).toMatch(/^Monday, January 7/);
  });

  it('shows 4 dates under 768px', async () => {
    setViewport(true);
    mockFetch(CATALOG);
    atSlotStep();
    render(<BookingWizard />);
    await screen.findByText('10:00 AM');
    expect(document.querySelectorAll('.date-btn').length).toBe(4);
  });

  it('shows No Available Slots, and the error view with Go Back and Try Again', async () => {
    mockFetch({ ...CATALOG, 'GET /api/slots': { body: { ...OFFER, days: OFFER.days.map((d) => ({ ...d, slots: [] })) } } });
    atSlotStep();
    const { unmount } = render(<BookingWizard />);
    expect(await screen.findByRole('heading', { name: 'No Available Slots' })).toBeTruthy();
    unmount();

    mockFetch({ ...CATALOG, 'GET /api/slots': SERVER_ERROR });
    render(<BookingWizard />);
    expect(await screen.findByRole('heading', { name: 'Failed to load time slots.' })).toBeTruthy();
    expect(screen.getByText(API_MESSAGES.internal)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go Back and Try Again' }));
    expect(await screen.findByRole('heading', { name: 'Select Your Therapist' })).toBeTruthy();
  });

  it('changing the therapist clears the slot; Selection Incomplete without a therapist', () => {
    atSlotStep();
    setTimeSlot({ id: 11, date: '2030-01-08', start_time: '10:00', end_time: '11:00' });
    setTherapist(THERAPISTS[1]!, SERVICES[0]!);
    expect($booking.get().selectedTimeSlot).toBeNull();
    mockFetch(CATALOG);
    $booking.set({ ...$booking.get(), selectedTherapist: null });
    render(<BookingWizard />);
    expect(screen.getByRole('heading', { name: 'Selection Incomplete' })).toBeTruthy();
  });
});

describe('store', () => {
  it('persists to sessionStorage, merges clientInfo updates and resets to step 1', () => {
    setBookingType('online');
    updateClientInfo({ fullName: 'Meera' });
    updateClientInfo({ email: 'm@example.in' });
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY)!);
    expect(saved.clientInfo).toMatchObject({ fullName: 'Meera', email: 'm@example.in', termsAccepted: false, sessionType: 'individual' });
    act(() => resetBooking());
    expect($booking.get().currentStep).toBe(1);
    expect($booking.get().clientInfo.fullName).toBe('');
  });
});
