import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ManageBookingDto, ManageChangeResultDto } from '../../shared/contract/manage.ts';
import { API_MESSAGES } from '../../shared/contract/messages.ts';
import { PaymentStatus } from '../../site/src/islands/booking/PaymentStatus.tsx';
import { BOOK_AGAIN_TEXT } from '../../site/src/islands/manage/BookAgain.tsx';
import { ManageBooking } from '../../site/src/islands/manage/ManageBooking.tsx';
import { resetBooking } from '../../site/src/stores/booking.ts';
import { booking9, mockFetch, OFFER, setViewport, type Routes } from './booking-fixtures.ts';

const TOKEN = 'mT0k3n_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ';
const PATH = `/api/manage/${TOKEN}`;
const SUPPORT = {
  supportPhone: '+91 98200 00000',
  supportPhoneHref: 'tel:+919820000000',
  supportEmail: 'care@wellbeingcentre.in',
  supportEmailHref: 'mailto:care@wellbeingcentre.in',
};

const BOOKING: ManageBookingDto = {
  booking_reference: 'B-1042',
  therapist: { id: 1, name: 'Dr. Asha Mehta', title: 'Clinical Psychologist' },
  session_type: 'Individual therapy',
  booking_type: 'ONLINE',
  centre: null,
  booking_date: '2030-01-10',
  booking_time_slot_start: '11:00',
  booking_time_slot_end: '12:00',
  amount: 1800,
  payment_status: 'COMPLETED',
  payment_state: 'PAID',
  cancelled: false,
  meeting_link: 'https://meet.example/abc-defg-hij',
  can_reschedule: true,
  can_cancel: true,
  can_book_again: true,
  closed_reason: null,
  policy: 'Changes and cancellations can be made online up to 24 hours before the session.',
  // 11:00 IST on 9 January 2030.
  changes_close_at: '2030-01-09T05:30:00.000Z',
  reschedules_left: 2,
  refund_on_cancel: 1800,
  refund_on_cancel_at_centre: 0,
  support: { phone: '+91 98200 00000', email: 'care@wellbeingcentre.in' },
};

function renderPage(routes: Routes, search = `?token=${TOKEN}`) {
  const mock = mockFetch(routes);
  render(<ManageBooking search={search} {...SUPPORT} />);
  return mock;
}

beforeEach(() => {
  sessionStorage.clear();
  resetBooking();
  setViewport(true);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the summary', () => {
  it('shows therapist, session type, where, date, time in IST, amount in ₹, payment in words and the meeting link', async () => {
    const { calls } = renderPage({ [`GET ${PATH}`]: { body: BOOKING } });
    expect(screen.getByText('Loading your booking...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Your session' })).toBeTruthy();
    expect(calls[0]!.url).toBe(PATH);
    const row = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(row('Booking reference')).toBe('B-1042');
    expect(row('Therapist')).toBe('Asha MehtaClinical Psychologist');
    expect(row('Session')).toBe('Individual therapy');
    expect(row('Where')).toBe('Online (video call)');
    expect(row('Date')).toBe('Thursday, January 10, 2030');
    expect(row('Time')).toBe('11:00 AM – 12:00 PM IST');
    expect(row('Amount')).toBe('₹1,800');
    expect(row('Payment status')).toBe('Paid');
    expect(screen.getByRole('link', { name: /meet\.example/ }).getAttribute('href')).toBe('https://meet.example/abc-defg-hij');
    expect(
      screen.getByText(
        /You can change or cancel your session online until 11:00 AM IST on Wednesday, January 9, 2030\. You can move this session 2 more times\./,
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Change date or time' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel session' })).toBeTruthy();
  });

  it('Add to calendar downloads the server’s invitation for this session (one event with the e-mailed one)', async () => {
    renderPage({ [`GET ${PATH}`]: { body: BOOKING } });
    await screen.findByRole('heading', { name: 'Your session' });
    const link = screen.getByRole('link', { name: 'Add to calendar (.ics)' });
    expect(link.getAttribute('href')).toBe(`${PATH}/session.ics`);
    expect(link.getAttribute('download')).toBe('therapy-session-B-1042.ics');
  });

  it('a session of a series: the series’ sessions listed, this one marked, each other opening its own page', async () => {
    const url = (n: number) => `https://booking.example.in/manage-booking?token=t${n}`;
    const inSeries: ManageBookingDto = {
      ...BOOKING,
      series_sessions: [
        { booking_date: '2030-01-03', booking_time_slot_start: '11:00', cancelled: true, current: false, manage_url: url(1) },
        { booking_date: '2030-01-10', booking_time_slot_start: '11:00', cancelled: false, current: true, manage_url: url(2) },
        { booking_date: '2030-01-17', booking_time_slot_start: '11:00', cancelled: false, current: false, manage_url: url(3) },
      ],
    };
    renderPage({ [`GET ${PATH}`]: { body: inSeries } });
    const list = within(await screen.findByRole('region', { name: 'Your sessions in this series' })).getByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('aria-current'))).toEqual([null, 'true', null]);
    expect(items[0]!.textContent).toContain('cancelled');
    expect(within(items[1]!).queryByRole('link')).toBeNull();
    expect(within(items[2]!).getByRole('link').getAttribute('href')).toBe(url(3));
  });

  it('in person: the centre and its address, and the amount to be paid there', async () => {
    const offline: ManageBookingDto = {
      ...BOOKING,
      booking_type: 'OFFLINE',
      centre: { name: 'West Branch', address: 'S.V. Road, Borivali West, Mumbai' },
      meeting_link: null,
      payment_status: 'PENDING',
      payment_state: 'PAY_AT_CENTRE',
      refund_on_cancel: 0,
    };
    renderPage({ [`GET ${PATH}`]: { body: offline } });
    await screen.findByRole('heading', { name: 'Your session' });
    expect(screen.getByText('West Branch, S.V. Road, Borivali West, Mumbai')).toBeTruthy();
    expect(screen.getByText('Pay at centre')).toBeTruthy();
    expect(screen.queryByText('Meeting link')).toBeNull();
  });
});

describe('moving the session', () => {
  const moved: ManageChangeResultDto = {
    booking: { ...BOOKING, booking_date: '2030-01-09', booking_time_slot_start: '17:00', booking_time_slot_end: '18:00', reschedules_left: 1 },
    message: 'Your session has been moved to Wednesday, January 9, 2030 at 5:00 PM IST.',
  };

  it('opens the wizard’s slot picker for the same therapist, posts the chosen slot and shows the updated summary with focus on its heading', async () => {
    const { calls } = renderPage({ [`GET ${PATH}`]: { body: BOOKING }, 'GET /api/slots': { body: OFFER }, [`POST ${PATH}/reschedule`]: { body: moved } });
    fireEvent.click(await screen.findByRole('button', { name: 'Change date or time' }));
    const title = screen.getByRole('heading', { name: 'Choose a new date and time' });
    expect(document.activeElement).toBe(title);
    await screen.findByText(/Available times on/);
    expect(calls.find((c) => c.url.startsWith('/api/slots'))!.url).toBe('/api/slots?therapist_id=1');
    const confirm = screen.getByRole('button', { name: 'Confirm new time' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /Wednesday, January 9, 2030, 1 free time/ }));
    fireEvent.click(screen.getByRole('radio', { name: '5:00 PM' }));
    expect(screen.getByText(/New time:/).textContent).toBe('New time: Wednesday, January 9, 2030 at 5:00 PM IST');
    fireEvent.click(confirm);

    await screen.findByText(moved.message);
    const heading = screen.getByRole('heading', { name: 'Your session' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ booking_date: '2030-01-09', booking_time_slot_start: '17:00' });
    expect(screen.getByRole('status').textContent).toBe(moved.message);
    expect(screen.getByText('Wednesday, January 9, 2030', { selector: 'dd' })).toBeTruthy();
    expect(screen.getByText('5:00 PM – 6:00 PM IST')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Choose a new date and time' })).toBeNull();
    expect(screen.getByText(/You can move this session once more\./)).toBeTruthy();
  });

  it('a slot taken meanwhile: the server’s 409 message beside the button, and the free times asked again', async () => {
    const { calls } = renderPage({
      [`GET ${PATH}`]: { body: BOOKING },
      'GET /api/slots': { body: OFFER },
      [`POST ${PATH}/reschedule`]: { status: 409, body: { detail: API_MESSAGES.slotTaken } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Change date or time' }));
    fireEvent.click(await screen.findByRole('radio', { name: '2:00 PM' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm new time' }));
    const message = await screen.findByText(API_MESSAGES.slotTaken);
    expect(message.closest('[aria-live]')).toBeTruthy();
    // Still picking, the summary unchanged, the choice cleared and the slots loaded again.
    expect(screen.getByRole('heading', { name: 'Choose a new date and time' })).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/api/slots')).length).toBe(2));
    await screen.findByText(/Available times on Tuesday, January 8, 2030/);
    expect((screen.getByRole('button', { name: 'Confirm new time' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('11:00 AM – 12:00 PM IST')).toBeTruthy();
  });

  it('Keep current time closes the picker without asking the server', async () => {
    const { calls } = renderPage({ [`GET ${PATH}`]: { body: BOOKING }, 'GET /api/slots': { body: OFFER } });
    fireEvent.click(await screen.findByRole('button', { name: 'Change date or time' }));
    await screen.findByText(/Available times on/);
    fireEvent.click(screen.getByRole('button', { name: 'Keep current time' }));
    expect(screen.queryByRole('heading', { name: 'Choose a new date and time' })).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

describe('cancelling', () => {
  const cancelledResult = (
    b: ManageBookingDto,
    message = 'Your booking has been cancelled. We have sent you an e-mail to confirm it.',
  ): ManageChangeResultDto => ({
    booking: {
      ...b,
      cancelled: true,
      // What the server says from the ledger: a paid session's money went back.
      payment_state: b.payment_state === 'PAID' ? 'REFUNDED' : 'CANCELLED',
      can_cancel: false,
      can_reschedule: false,
      closed_reason: 'CANCELLED',
      refund_on_cancel: 0,
      meeting_link: null,
    },
    message,
  });
  const refundedMessage =
    'Your booking has been cancelled. ₹1,800 has been refunded in full to your original payment method; it usually reaches you within 5–7 working days. We have sent you an e-mail to confirm it.';

  it('asks first, stating the refund; Keep my session changes nothing', async () => {
    const { calls } = renderPage({ [`GET ${PATH}`]: { body: BOOKING } });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel session' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel this session?' });
    expect(within(dialog).getByText('₹1,800 will be refunded to your original payment method.')).toBeTruthy();
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    // Focus starts on the safe choice.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep my session' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep my session' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('keyboard: Escape closes the dialog and focus goes back to Cancel session', async () => {
    renderPage({ [`GET ${PATH}`]: { body: BOOKING } });
    const opener = await screen.findByRole('button', { name: 'Cancel session' });
    opener.focus();
    fireEvent.click(opener);
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('Yes, cancel: the cancelled state with the refund stated and focus on its heading', async () => {
    const { calls } = renderPage({ [`GET ${PATH}`]: { body: BOOKING }, [`POST ${PATH}/cancel`]: { body: cancelledResult(BOOKING) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel session' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my session' }));
    const heading = await screen.findByRole('heading', { name: 'Session cancelled' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([`${PATH}/cancel`]);
    expect(screen.getByText('₹1,800 will be refunded to your original payment method.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Your booking has been cancelled. We have sent you an e-mail to confirm it.');
    // Refunded, not "Cancelled": the payment row says what became of the money.
    expect(screen.getByText('Payment status', { selector: 'dt' }).nextElementSibling!.textContent).toBe('Refunded');
    expect(screen.queryByRole('link', { name: 'Add to calendar (.ics)' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel session' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change date or time' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Book a new session' }).getAttribute('href')).toBe('/book');
  });

  it('the server’s message naming the refund made is shown once, not repeated in the page’s own words', async () => {
    renderPage({ [`GET ${PATH}`]: { body: BOOKING }, [`POST ${PATH}/cancel`]: { body: cancelledResult(BOOKING, refundedMessage) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel session' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my session' }));
    await screen.findByRole('heading', { name: 'Session cancelled' });
    expect(screen.getByRole('status').textContent).toBe(refundedMessage);
    expect(screen.queryByText(/will be refunded/)).toBeNull();
  });

  it('nothing paid (in person): nothing is refunded, in the dialog and after', async () => {
    const unpaid: ManageBookingDto = {
      ...BOOKING,
      booking_type: 'OFFLINE',
      centre: { name: 'West Branch', address: 'Borivali West' },
      meeting_link: null,
      payment_status: 'PENDING',
      payment_state: 'PAY_AT_CENTRE',
      refund_on_cancel: 0,
    };
    renderPage({ [`GET ${PATH}`]: { body: unpaid }, [`POST ${PATH}/cancel`]: { body: cancelledResult(unpaid) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel session' }));
    expect(within(screen.getByRole('alertdialog')).getByText('Nothing was paid, so nothing is refunded.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my session' }));
    await screen.findByRole('heading', { name: 'Session cancelled' });
    expect(screen.getByText('Nothing was paid, so nothing is refunded.')).toBeTruthy();
  });

  it('paid at the centre (issue 31): the dialog says it is handed back there and how to arrange it, and the answer says so once', async () => {
    const atCentre: ManageBookingDto = {
      ...BOOKING,
      booking_type: 'OFFLINE',
      centre: { name: 'West Branch', address: 'Borivali West' },
      meeting_link: null,
      refund_on_cancel_at_centre: 1800,
    };
    const message =
      'Your booking has been cancelled. Your refund of ₹1,800 will be handed back to you at the centre, where it was paid: please call +91 98200 00000 or write to care@wellbeingcentre.in to arrange when to collect it. We have sent you an e-mail to confirm it.';
    renderPage({ [`GET ${PATH}`]: { body: atCentre }, [`POST ${PATH}/cancel`]: { body: cancelledResult(atCentre, message) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel session' }));
    const dialog = screen.getByRole('alertdialog');
    expect(
      within(dialog).getByText(
        '₹1,800 was paid at the centre and will be handed back to you there (call +91 98200 00000 or write to care@wellbeingcentre.in to arrange it).',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/original payment method/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my session' }));
    await screen.findByRole('heading', { name: 'Session cancelled' });
    expect(screen.getByRole('status').textContent).toBe(message);
    expect(screen.queryByText(/original payment method/)).toBeNull();
  });

  it('refused inside the notice window: the server’s words inside the dialog, read out', async () => {
    const detail = 'Changes close 24 hours before the session. Please call +91 98200 00000 or e-mail care@wellbeingcentre.in.';
    renderPage({ [`GET ${PATH}`]: { body: BOOKING }, [`POST ${PATH}/cancel`]: { status: 409, body: { detail } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel session' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my session' }));
    const dialog = screen.getByRole('alertdialog');
    const message = await within(dialog).findByText(detail);
    expect(message.closest('[aria-live]')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Session cancelled' })).toBeNull();
  });
});

describe('when changes are closed', () => {
  it('inside the notice window: the policy and the reason in words instead of the buttons, with phone and e-mail links', async () => {
    const closed: ManageBookingDto = { ...BOOKING, can_reschedule: false, can_cancel: false, closed_reason: 'NOTICE_WINDOW' };
    renderPage({ [`GET ${PATH}`]: { body: closed } });
    const section = (await screen.findByRole('heading', { name: 'Changes are closed' })).closest('section')!;
    expect(screen.queryByRole('button', { name: 'Change date or time' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel session' })).toBeNull();
    expect(within(section).getByText('Online changes closed at 11:00 AM IST on Wednesday, January 9, 2030, as your session is now close.')).toBeTruthy();
    expect(within(section).getByText(BOOKING.policy)).toBeTruthy();
    expect(within(section).getByRole('link', { name: '+91 98200 00000' }).getAttribute('href')).toBe('tel:+919820000000');
    expect(within(section).getByRole('link', { name: 'care@wellbeingcentre.in' }).getAttribute('href')).toBe('mailto:care@wellbeingcentre.in');
  });

  it('moves used up: cancelling is still offered, moving is not, and why', async () => {
    renderPage({ [`GET ${PATH}`]: { body: { ...BOOKING, can_reschedule: false, closed_reason: 'RESCHEDULE_LIMIT', reschedules_left: 0 } } });
    await screen.findByRole('heading', { name: 'Changing the time is closed' });
    expect(screen.queryByRole('button', { name: 'Change date or time' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel session' })).toBeTruthy();
    expect(screen.getByText('This session has already been moved as many times as can be done online.')).toBeTruthy();
    expect(screen.getByText(/^You can cancel your session online until 11:00 AM IST on Wednesday, January 9, 2030\.$/)).toBeTruthy();
  });
});

describe('a link that finds no booking', () => {
  it('404: clear words and the centre’s phone and e-mail', async () => {
    renderPage({ [`GET ${PATH}`]: { status: 404, body: { detail: 'Not found' } } });
    expect(await screen.findByRole('heading', { name: 'We could not find this booking' })).toBeTruthy();
    expect(screen.getByText(/This Manage booking link is not valid or has expired\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: '+91 98200 00000' }).getAttribute('href')).toBe('tel:+919820000000');
    expect(screen.getByRole('link', { name: 'care@wellbeingcentre.in' }).getAttribute('href')).toBe('mailto:care@wellbeingcentre.in');
  });

  it('no token in the address: the same page, without asking the server', async () => {
    const { calls } = renderPage({}, '');
    expect(screen.getByRole('heading', { name: 'We could not find this booking' })).toBeTruthy();
    expect(screen.getByText(/private Manage booking link in your confirmation e-mail/)).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('the server failing: says so and offers Try again', async () => {
    let fail = true;
    renderPage({ [`GET ${PATH}`]: () => (fail ? { status: 500, body: { detail: 'x' } } : { body: BOOKING }) });
    await screen.findByRole('heading', { name: 'We could not load your booking' });
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Your session' })).toBeTruthy();
  });

  it('a token that stops working before a change: the not-found page', async () => {
    renderPage({ [`GET ${PATH}`]: { body: BOOKING }, [`POST ${PATH}/cancel`]: { status: 404, body: { detail: 'Not found' } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel session' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel my session' }));
    const heading = await screen.findByRole('heading', { name: 'We could not find this booking' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });
});

describe('payment-status page', () => {
  const details = booking9({ payment_status: 'COMPLETED', payment_state: 'PAID', google_meet_link: 'https://meet.example/abc', changes_open: true });
  const search =
    '?razorpay_payment_id=pay_1&razorpay_payment_link_id=plink_1&razorpay_payment_link_reference_id=9&razorpay_payment_link_status=paid&razorpay_signature=sig';

  it('a confirmed booking with manage_url shows the Manage booking link', async () => {
    const url = `http://localhost:3000/manage-booking?token=${TOKEN}`;
    mockFetch({ 'GET /api/get-razorpay-details/9': { body: { data: { ...details, manage_url: url } } } });
    render(<PaymentStatus search={search} />);
    await screen.findByRole('heading', { name: 'Booking Confirmed!' });
    expect(screen.getByRole('link', { name: 'Manage booking' }).getAttribute('href')).toBe(url);
  });

  it('booked within the notice (changes_open false): no Manage booking link, the short-notice words instead, Add to calendar kept', async () => {
    const url = `http://localhost:3000/manage-booking?token=${TOKEN}`;
    mockFetch({ 'GET /api/get-razorpay-details/9': { body: { data: { ...details, manage_url: url, changes_open: false } } } });
    render(<PaymentStatus search={search} supportPhone="+91 98200 00000" supportEmail="care@wellbeingcentre.in" />);
    await screen.findByRole('heading', { name: 'Booking Confirmed!' });
    expect(screen.queryByRole('link', { name: 'Manage booking' })).toBeNull();
    expect(
      screen.getByText(
        'Your session starts in less than 24 hours, so it cannot be moved or cancelled online: changes can only be made by the centre (call +91 98200 00000 or write to care@wellbeingcentre.in), and the cancellation policy applies: 100% of the session fee is charged.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download .ics' }).getAttribute('href')).toBe(`/api/manage/${TOKEN}/session.ics`);
  });

  it('without manage_url (or with one that is not a web address) there is no link', async () => {
    mockFetch({ 'GET /api/get-razorpay-details/9': { body: { data: { ...details, manage_url: 'javascript:alert(1)' } } } });
    render(<PaymentStatus search={search} />);
    await screen.findByRole('heading', { name: 'Booking Confirmed!' });
    expect(screen.queryByRole('link', { name: 'Manage booking' })).toBeNull();
  });
});

/** The page with its navigation observed ("Book the same time next week" goes to the checkout). */
function renderWithNavigate(routes: Routes, booking: ManageBookingDto = BOOKING) {
  const navigate = vi.fn();
  const mock = mockFetch({ [`GET ${PATH}`]: { body: booking }, ...routes });
  render(<ManageBooking search={`?token=${TOKEN}`} {...SUPPORT} navigate={navigate} />);
  return { ...mock, navigate };
}

describe('Book the same time next week', () => {
  it('offers next week and in two weeks, with their dates', async () => {
    renderWithNavigate({});
    expect(await screen.findByRole('heading', { name: BOOK_AGAIN_TEXT.title })).toBeTruthy();
    expect(screen.getByText(/11:00 AM IST on Thursday, January 17, 2030 or Thursday, January 24, 2030/)).toBeTruthy();
    expect(screen.getByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek })).toBeTruthy();
    expect(screen.getByRole('button', { name: BOOK_AGAIN_TEXT.inTwoWeeks })).toBeTruthy();
  });

  it('online: books a week later, then goes to the new booking’s payment link with its token', async () => {
    const { calls, navigate } = renderWithNavigate({
      [`POST ${PATH}/book-again`]: { body: { booking_id: 77, message: API_MESSAGES.bookingCreated, booking_token: 'new-token' } },
      'POST /api/payment/generate-link': { body: { short_url: 'https://pay.example/abc', payment_link_id: 'plink_1' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://pay.example/abc'));
    const again = calls.find((c) => c.url === `${PATH}/book-again`)!;
    expect(again.body).toMatchObject({ weeks_ahead: 1 });
    expect((again.body as { payment_transaction_id: string }).payment_transaction_id).toMatch(/^[0-9a-f-]{36}$/);
    const link = calls.find((c) => c.url === '/api/payment/generate-link')!;
    expect(link.body).toMatchObject({ booking_id: 77 });
    expect(link.headers['x-booking-token']).toBe('new-token');
  });

  it('in person: books in two weeks and goes to the in-person confirmation', async () => {
    const { navigate } = renderWithNavigate(
      { [`POST ${PATH}/book-again`]: { body: { booking_id: 78, message: API_MESSAGES.bookingCreated, booking_token: 't' } } },
      { ...BOOKING, booking_type: 'OFFLINE', centre: { name: 'West Branch', address: 'Bandra' } },
    );
    fireEvent.click(await screen.findByRole('button', { name: BOOK_AGAIN_TEXT.inTwoWeeks }));
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    expect(navigate.mock.calls[0]![0]).toMatch(/^\/payment-status\?.*booking_id=78/);
  });

  it('a refusal is shown in the server’s words beside the buttons, and nothing is navigated', async () => {
    const { navigate } = renderWithNavigate({ [`POST ${PATH}/book-again`]: { status: 409, body: { detail: API_MESSAGES.slotTaken } } });
    fireEvent.click(await screen.findByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek }));
    expect((await screen.findByRole('alert')).textContent).toBe(API_MESSAGES.slotTaken);
    expect(navigate).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('is not offered for a desk’s booking without the client’s age or session type', async () => {
    renderWithNavigate({}, { ...BOOKING, can_book_again: false });
    expect(await screen.findByRole('heading', { name: 'Your session' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: BOOK_AGAIN_TEXT.title })).toBeNull();
    expect(screen.queryByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek })).toBeNull();
  });

  it('is not offered for a cancelled session', async () => {
    renderWithNavigate({}, { ...BOOKING, cancelled: true, payment_state: 'CANCELLED', can_cancel: false, can_reschedule: false, closed_reason: 'CANCELLED' });
    expect(await screen.findByRole('heading', { name: 'Session cancelled' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: BOOK_AGAIN_TEXT.nextWeek })).toBeNull();
  });
});
