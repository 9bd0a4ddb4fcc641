/**
 * Issue 31, items 8 and 9 in the wizard: the review step warns before Pay about a session that starts
 * within the notice (it cannot be moved or cancelled online once booked), the details step states the
 * policy in its one wording, and /book?therapist={id} starts with that therapist chosen.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changePolicyText, shortNoticeText } from '../../shared/contract/policy.ts';
import { addDays, centreNow, pad2 } from '../../shared/domain/time.ts';
import { BookingWizard } from '../../site/src/islands/booking/BookingWizard.tsx';
import { $booking, setBookingType, setStep, setTherapist, setTimeSlot, updateClientInfo } from '../../site/src/stores/booking.ts';
import { CATALOG, mockFetch, SERVICES, THERAPISTS, resetWizardAroundEachTest } from './booking-fixtures.ts';

resetWizardAroundEachTest();

const SUPPORT = { phone: '+91 98200 00000', email: 'care@wellbeingcentre.in' };

/** A slot `hoursAhead` from now at the centre, on the quarter hour. */
function slotIn(hoursAhead: number): { id: number; date: string; start_time: string; end_time: string } {
  const at = centreNow(new Date(Date.now() + hoursAhead * 3600_000));
  const minutes = Math.ceil(at.minutes / 15) * 15;
  const date = minutes >= 24 * 60 ? addDays(at.date, 1) : at.date;
  const m = minutes % (24 * 60);
  const start = `${pad2(Math.floor(m / 60))}:${pad2(m % 60)}`;
  const end = `${pad2((Math.floor(m / 60) + 1) % 24)}:${pad2(m % 60)}`;
  return { id: 11, date, start_time: start, end_time: end };
}

function atReview(slot: ReturnType<typeof slotIn>): void {
  setBookingType('online');
  setTherapist(THERAPISTS[0]!, SERVICES[0]!);
  setTimeSlot(slot);
  updateClientInfo({
    fullName: 'Meera Sharma',
    email: 'meera@example.in',
    mobile: '9876543210',
    age: 34,
    state: 'Maharashtra',
    city: 'Mumbai',
    termsAccepted: true,
  });
  setStep(5);
}

describe('short notice: the review step says so before Pay', () => {
  it('a session starting within CHANGE_NOTICE_HOURS: cannot be moved or cancelled online, in the one wording', async () => {
    mockFetch(CATALOG);
    atReview(slotIn(3));
    render(<BookingWizard changePolicy={{ noticeHours: 24, maxReschedules: 2 }} support={SUPPORT} />);
    await screen.findByRole('heading', { name: 'Review and Pay' });
    const note = screen.getByRole('note');
    expect(note.textContent).toBe(shortNoticeText({ noticeHours: 24, maxReschedules: 2 }, SUPPORT));
    expect(note.textContent).toBe(
      'Your session starts in less than 24 hours, so it cannot be moved or cancelled online: changes can only be made by the centre (call +91 98200 00000 or write to care@wellbeingcentre.in), and the cancellation policy applies: 100% of the session fee is charged.',
    );
    // Before the Pay button.
    const pay = screen.getByRole('button', { name: /^Pay / });
    expect(note.compareDocumentPosition(pay) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('the notice hours come from the configuration: the same session with 2 hours’ notice is not short', async () => {
    mockFetch(CATALOG);
    atReview(slotIn(3));
    render(<BookingWizard changePolicy={{ noticeHours: 2, maxReschedules: 2 }} support={SUPPORT} />);
    await screen.findByRole('heading', { name: 'Review and Pay' });
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('a session days away: no notice', async () => {
    mockFetch(CATALOG);
    atReview(slotIn(72));
    render(<BookingWizard support={SUPPORT} />);
    await screen.findByRole('heading', { name: 'Review and Pay' });
    expect(screen.queryByText(/cannot be moved or cancelled online/)).toBeNull();
  });
});

describe('one policy wording on the details step', () => {
  it('states how to move or cancel as the e-mails and the Manage booking page do', async () => {
    mockFetch(CATALOG);
    atReview(slotIn(72));
    setStep(4);
    render(<BookingWizard changePolicy={{ noticeHours: 48, maxReschedules: 1 }} support={SUPPORT} />);
    await screen.findByRole('heading', { name: 'Your Information' });
    const words = changePolicyText({ noticeHours: 48, maxReschedules: 1 }, SUPPORT);
    expect(words).toContain('(at most once)');
    expect(words).toContain('until 48 hours before it starts');
    expect(screen.getByText(words)).toBeTruthy();
  });
});

describe('/book?therapist={id}: "Book with {name}" from the team page', () => {
  it('an online therapist: online chosen, the therapist chosen, on the date and time step; Back goes to the therapists with them selected', async () => {
    mockFetch(CATALOG);
    history.replaceState(null, '', '/book?therapist=1');
    render(<BookingWizard />);
    expect(await screen.findByRole('heading', { name: 'Select Date & Time' })).toBeTruthy();
    const s = $booking.get();
    expect(s).toMatchObject({ bookingType: 'online', currentStep: 3, selectedTherapist: { id: 1 }, selectedService: { id: 1 } });
    expect(screen.getByText('Asha Mehta')).toBeTruthy();
    // The address keeps the step, not the therapist asked for: a reload keeps the client's own progress.
    await waitFor(() => expect(location.search).toBe('?step=slot'));
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Select Your Therapist' })).toBeTruthy();
    // The therapists step loads lazily, then reads the (cached) catalogue.
    expect((await screen.findByRole('heading', { name: /Asha Mehta/ })).textContent).toContain('Selected');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'How would you like to meet?' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: /Online Session/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('an in-person therapist: in person and their centre chosen, on the date and time step (step 4)', async () => {
    mockFetch(CATALOG);
    history.replaceState(null, '', '/book?therapist=7');
    render(<BookingWizard />);
    expect(await screen.findByRole('heading', { name: 'Select Date & Time' })).toBeTruthy();
    expect($booking.get()).toMatchObject({ bookingType: 'offline', currentStep: 4, selectedLocation: { id: 2 }, selectedTherapist: { id: 7 } });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Select Your Therapist' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Select Location' })).toBeTruthy();
  });

  it('a therapist who is not offered: the wizard starts as usual', async () => {
    mockFetch(CATALOG);
    history.replaceState(null, '', '/book?therapist=99');
    render(<BookingWizard />);
    expect(await screen.findByRole('heading', { name: 'How would you like to meet?' })).toBeTruthy();
    expect($booking.get().selectedTherapist).toBeNull();
    await waitFor(() => expect(location.search).toBe(''));
  });
});
