import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WAITLIST_WHATSAPP_CONSENT } from '../../shared/contract/booking.ts';
import { WAITLIST_MESSAGES } from '../../shared/contract/waitlist.ts';
import { BookingWizard } from '../../site/src/islands/booking/BookingWizard.tsx';
import { resetCatalogCache } from '../../site/src/islands/booking/data.ts';
import { WAITLIST_TEXT } from '../../site/src/islands/booking/WaitlistJoin.tsx';
import { resetBooking, setBookingType, setStep, setTherapist, updateClientInfo } from '../../site/src/stores/booking.ts';
import { CATALOG, loadWizardStepsUpFront, mockFetch, SERVICES, setViewport, THERAPISTS } from './booking-fixtures.ts';

loadWizardStepsUpFront();

/** Monday 23 November 2026 at the centre: the client may book from today to Wednesday 9 December. */
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T10:30:00+05:30'));
  sessionStorage.clear();
  resetBooking();
  resetCatalogCache();
  setViewport(true);
  setBookingType('online');
  setTherapist(THERAPISTS[0]!, SERVICES[0]!);
  setStep(3);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function openForm() {
  render(<BookingWizard />);
  // The first render in a fresh worker passes through the lazily loaded slot step and its waitlist
  // (a second or more on a loaded machine): a ceiling on the wait, not on the wizard's speed.
  fireEvent.click(await screen.findByRole('button', { name: WAITLIST_TEXT.open }, { timeout: 5000 }));
  return screen.getByRole('form', { name: WAITLIST_TEXT.title });
}

describe('Join the waitlist, on the date and time step', () => {
  it('asks the range within the booking window, the times of day and the contact details (those the wizard knows filled in)', async () => {
    updateClientInfo({ fullName: 'Meera Pillai', email: 'meera@example.com' });
    mockFetch(CATALOG);
    await openForm();
    const from = screen.getByLabelText('From') as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    expect([from.value, from.min, to.value, to.max]).toEqual(['2026-11-23', '2026-11-23', '2026-12-09', '2026-12-09']);
    expect(screen.getByRole('group', { name: 'Times of day' })).toBeTruthy();
    expect(screen.getByLabelText('Morning (before 12 noon)')).toBeTruthy();
    expect((screen.getByLabelText('Full name') as HTMLInputElement).value).toBe('Meera Pillai');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('meera@example.com');
  });

  it('sends the request, and says the client is on the list', async () => {
    const { calls } = mockFetch({ ...CATALOG, 'POST /api/waitlist': { body: { entry_id: 5, message: WAITLIST_MESSAGES.joined } } });
    await openForm();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-25' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-28' } });
    fireEvent.click(screen.getByLabelText('Evening (from 5 PM)'));
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Meera Pillai' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'meera@example.com' } });
    fireEvent.change(screen.getByLabelText('Mobile number'), { target: { value: '+91 98765 43210' } });
    fireEvent.click(screen.getByRole('button', { name: WAITLIST_TEXT.submit }));
    expect((await screen.findByRole('status')).textContent).toBe(WAITLIST_MESSAGES.joined);
    expect(calls.find((c) => c.url === '/api/waitlist')!.body).toEqual({
      therapist_id: THERAPISTS[0]!.id,
      from_date: '2026-11-25',
      to_date: '2026-11-28',
      times: ['evening'],
      client_full_name: 'Meera Pillai',
      client_email: 'meera@example.com',
      client_mobile: '9876543210',
    });
  });

  it('asks the WhatsApp opt-in as the wizard does (unticked, its wording beside it); ticked, the request says so', async () => {
    const { calls } = mockFetch({ ...CATALOG, 'POST /api/waitlist': { body: { entry_id: 6, message: WAITLIST_MESSAGES.joined } } });
    updateClientInfo({ fullName: 'Meera Pillai', email: 'meera@example.com', mobile: '9876543210' });
    await openForm();
    const box = screen.getByRole('checkbox', { name: `${WAITLIST_WHATSAPP_CONSENT.label} (optional)` }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(document.getElementById(box.getAttribute('aria-describedby')!)!.textContent).toBe(WAITLIST_WHATSAPP_CONSENT.detail);
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: WAITLIST_TEXT.submit }));
    await screen.findByRole('status');
    expect(calls.find((c) => c.url === '/api/waitlist')!.body).toMatchObject({ whatsapp_offers: true });
  });

  it('checks the fields before sending: each error beside its field, nothing sent', async () => {
    const { calls } = mockFetch(CATALOG);
    await openForm();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-28' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-25' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByLabelText('Mobile number'), { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: WAITLIST_TEXT.submit }));
    expect(screen.getByText(WAITLIST_TEXT.rangeOrder)).toBeTruthy();
    expect(screen.getByText(WAITLIST_TEXT.nameRequired)).toBeTruthy();
    expect(screen.getByText(WAITLIST_TEXT.emailInvalid)).toBeTruthy();
    expect(screen.getByText(WAITLIST_TEXT.mobileInvalid)).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Email').getAttribute('aria-describedby')).toMatch(/-email-err$/);
    expect(calls.some((c) => c.url === '/api/waitlist')).toBe(false);
  });

  it('a refusal (a hold limit) is shown in the server’s words, and the form stays for another try', async () => {
    mockFetch({ ...CATALOG, 'POST /api/waitlist': { status: 429, body: { detail: WAITLIST_MESSAGES.perClient(2) } } });
    updateClientInfo({ fullName: 'Meera Pillai', email: 'meera@example.com', mobile: '9876543210' });
    await openForm();
    fireEvent.click(screen.getByRole('button', { name: WAITLIST_TEXT.submit }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(WAITLIST_MESSAGES.perClient(2)));
    expect((screen.getByRole('button', { name: WAITLIST_TEXT.submit }) as HTMLButtonElement).disabled).toBe(false);
  });
});
