import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { adminNav } from '../../site/src/lib/admin-nav.ts';
import { API_MESSAGES } from '../../shared/contract/messages.ts';
import { paymentState } from '../../shared/domain/payment-state.ts';
import { saveSession } from '../../site/src/stores/admin-session.ts';
import { contractFetch, jsonResponse } from '../support/mock-contract.ts';

type Handler = (url: URL, init: RequestInit | undefined) => unknown;

/**
 * Mocks fetch with a table of 'METHOD /path' → JSON body (or [status, body], or a Response of another
 * kind, such as a workbook). Every answer is checked against the route table (tests/support/mock-contract.ts).
 */
export function mockFetch(routes: Record<string, Handler | unknown>) {
  const calls: { method: string; url: URL; init: RequestInit | undefined }[] = [];
  const fn = vi.fn(
    contractFetch(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      calls.push({ method, url, init });
      const route = routes[`${method} ${url.pathname}`];
      if (route === undefined) return jsonResponse({ detail: 'Not found.' }, 404);
      let out = typeof route === 'function' ? (route as Handler)(url, init) : route;
      if (out instanceof Response) return out;
      let status = 200;
      if (Array.isArray(out) && out.length === 2 && typeof out[0] === 'number') [status, out] = out as [number, unknown];
      return jsonResponse(out, status);
    }),
  );
  vi.stubGlobal('fetch', fn);
  return { fn, calls };
}

/** A workbook's media type, as the reports' .xlsx routes answer. */
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What the API answers when it fails on its side (the error handler's 500). */
export const SERVER_ERROR: [number, { detail: string }] = [500, { detail: API_MESSAGES.internal }];

/** A reverse proxy's own error page, the API behind it down: not JSON, not the API's words. */
export const gatewayError = () => new Response('<html><body>502 Bad Gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } });

export function signIn(superadmin = true) {
  saveSession('test-token', { username: superadmin ? 'owner' : 'staff', is_superadmin: superadmin, is_admin: true, is_active: true });
}

/**
 * A booking record as the server answers it. A COMPLETED booking is paid (its money in the ledger)
 * unless amount_paid says otherwise, and payment_state follows from both as the server computes it.
 */
export function booking(over: Record<string, unknown> = {}) {
  const b = bookingFields(over);
  const given = b as Record<string, unknown>;
  const paid = Number(given.amount_paid ?? (b.payment_status === 'COMPLETED' ? b.amount : 0));
  const state = paymentState({
    bookingType: b.booking_type as 'ONLINE' | 'OFFLINE' | 'ADMIN_BLOCK',
    paymentStatus: String(b.payment_status),
    cancelled: Boolean(b.cancelled),
    amountPaise: Math.round(Number(b.amount) * 100),
    paidPaise: Math.round(paid * 100),
    refundedPaise: Math.round(Number(given.amount_refunded ?? 0) * 100),
  });
  return { amount_paid: paid, payment_state: state, payment_link_sent_at: null, payment_link_sent_to: null, ...b };
}

function bookingFields(over: Record<string, unknown>) {
  return {
    id: 1,
    booking_date: '2026-11-24',
    booking_time_slot_start: '10:00:00',
    client_full_name: 'Meera Pillai',
    client_email: 'meera@example.com',
    client_mobile: '9876543210',
    therapist_id: 1,
    therapist_name: 'Dr. Asha Mehta',
    booking_type: 'ONLINE',
    payment_status: 'COMPLETED',
    payment_link_url: null,
    payment_transaction_id: 'tx-1',
    amount: 1500,
    cancelled: false,
    google_meet_link: 'https://meet.google.com/abc-defg-hij',
    location_id: null,
    location_name: null,
    location_address: null,
    client_note: 'First session',
    client_change: null,
    service_id: 1,
    session_type: 'individual',
    admin_confirmed: false,
    amount_refunded: 0,
    payment_note: null,
    attendance: null,
    payment_hold_expires_at: null,
    ...over,
  };
}

/** A row of GET /api/admin/clients-with-therapists: the booking, the client's place, and the spec's `data` summary of it. */
export function clientBooking(over: Record<string, unknown> & { data?: Record<string, unknown> } = {}) {
  const { data, ...rest } = over;
  const b = booking(rest);
  return {
    client_city: 'Mumbai',
    client_state: 'Maharashtra',
    ...b,
    data: {
      booking_type: b.booking_type,
      client_note: b.client_note,
      therapist_details: { name: b.therapist_name },
      booking_date: b.booking_date,
      booking_time_slot_start: b.booking_time_slot_start,
      location_address: b.location_address,
      ...data,
    },
  };
}

/** A therapist as GET /api/admin/therapists lists them: `type_label` follows the type. */
export function adminTherapist(t: { id: number; name: string; type: number } & Record<string, unknown>) {
  return {
    title: 'Clinical Psychologist',
    specialization: 'Anxiety and mood',
    bio: 'Warm, structured support.',
    price: 1500,
    image_url: `${t.id}.png`,
    type_label: t.type === 1 ? 'online' : 'offline',
    locations: null,
    offered_service_ids: [1],
    email: [],
    ...t,
  };
}

/** The demo centre's therapists as the panel's tests list them: two online, one in person at the West Branch. */
export const ASHA = adminTherapist({ id: 1, name: 'Dr. Asha Mehta', type: 1, price: 1500, locations: null, email: ['asha@example.in'] });
export const PRIYA = adminTherapist({ id: 2, name: 'Ms. Priya Nair', type: 1, price: 1200, locations: null, email: ['priya@example.in'] });
export const ROHAN = adminTherapist({ id: 5, name: 'Dr. Rohan Kapoor', type: 2, price: 1800, locations: 1, email: ['rohan@example.in'] });

type Row = Record<string, unknown> & {
  id: number;
  booking_date: string;
  booking_time_slot_start: string;
  therapist_id: number;
  payment_status: string;
  cancelled: boolean;
};

/**
 * GET /api/admin/bookings as the server answers it: the rows narrowed by from, to, therapist_id and
 * status (CANCELLED: any cancelled booking; others: that status, not cancelled), sorted by order,
 * and one page of them with the total when page or page_size is asked for.
 */
export function bookingsServer(rows: Record<string, unknown>[] | (() => Record<string, unknown>[])) {
  return (url: URL) => {
    const p = url.searchParams;
    const list = ((typeof rows === 'function' ? rows() : rows) as Row[]).filter((b) => {
      const date = b.booking_date.slice(0, 10);
      if (p.get('from') && date < p.get('from')!) return false;
      if (p.get('to') && date > p.get('to')!) return false;
      if (p.get('therapist_id') && b.therapist_id !== Number(p.get('therapist_id'))) return false;
      const statuses = p.get('status')?.split(',');
      if (statuses && !statuses.some((s) => (s === 'CANCELLED' ? b.cancelled || b.payment_status === 'CANCELLED' : b.payment_status === s && !b.cancelled)))
        return false;
      return true;
    });
    const key = (b: Row) => `${b.booking_date}|${b.booking_time_slot_start}|${String(b.id).padStart(9, '0')}`;
    list.sort((a, b) => (p.get('order') === 'asc' ? key(a).localeCompare(key(b)) : key(b).localeCompare(key(a))));
    if (!p.has('page') && !p.has('page_size')) return list;
    const page = Number(p.get('page') ?? 1);
    const size = Number(p.get('page_size') ?? 10);
    return { page, page_size: size, total: list.length, items: list.slice((page - 1) * size, page * size) };
  };
}

/**
 * An action's message as drawn on the page (not its copy in the page's live region, which a screen
 * reader announces and which is hidden from sight).
 */
export const NOTICE = '.adm-notice > span';
export const findNotice = (text: string | RegExp) => screen.findByText(text, { selector: NOTICE });
export const getNotice = (text: string | RegExp) => screen.getByText(text, { selector: NOTICE });

/**
 * GET /api/admin/income or /api/admin/reports/inventory as the server answers it: the rows in the
 * order given, one page of them with the whole list's totals when page or page_size is asked for,
 * else the spec's whole report.
 */
export function ledgerServer(payments: { amount: number; kind: string }[]) {
  return (url: URL) => {
    const p = url.searchParams;
    const cents = (kind?: string) => payments.filter((x) => !kind || x.kind === kind).reduce((n, x) => n + Math.round(x.amount * 100), 0);
    const totals = { total_amount: cents() / 100, total_collected: cents('PAYMENT') / 100, total_refunded: -cents('REFUND') / 100 };
    if (!p.has('page') && !p.has('page_size')) return { ...totals, payments };
    const page = Number(p.get('page') ?? 1);
    const size = Number(p.get('page_size') ?? 10);
    return { page, page_size: size, total: payments.length, items: payments.slice((page - 1) * size, page * size), ...totals };
  };
}

/** Today's date at the centre (YYYY-MM-DD). */
export const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
export const addDays = (d: string, n: number) => {
  const x = new Date(`${d}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + n);
  return x.toISOString().slice(0, 10);
};

/** The server's slot states: 15 days from today, 10:00–12:00 free unless listed as `date|HH:MM`. */
export function statesFor(therapistId: number, held: Record<string, { state: string; booking_id: number | null }> = {}) {
  return {
    therapist_id: therapistId,
    today,
    days: Array.from({ length: 15 }, (_, i) => {
      const date = addDays(today, i);
      return {
        date,
        slots: ['10:00', '11:00', '12:00'].map((start) => ({
          start_time: start,
          end_time: `${start.slice(0, 2)}:59`,
          state: 'free',
          booking_id: null,
          ...held[`${date}|${start}`],
        })),
      };
    }),
  };
}

/** Each test starts signed out with the panel's navigation stubbed, and leaves no render, stub or mock behind. */
export function resetPanelAroundEachTest() {
  beforeEach(() => {
    sessionStorage.clear();
    vi.spyOn(adminNav, 'replace').mockImplementation(() => {});
    vi.spyOn(adminNav, 'go').mockImplementation(() => {});
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

/** One row of GET /api/admin/package-sales: a paid sale of "Eight weeks" with 6 of 8 sessions left. */
export function packageSaleItem(over: Record<string, unknown> = {}) {
  return {
    id: 21,
    package_id: 3,
    package_name: 'Eight weeks',
    client_full_name: 'Meera Pillai',
    client_email: 'meera@example.com',
    client_mobile: '9876543210',
    channel: 'DESK',
    status: 'PAID',
    price: 9600,
    payment_method: 'CASH',
    sold_at: '2026-11-23T04:00:00.000Z',
    sessions_total: 8,
    sessions_used: 2,
    sessions_left: 6,
    sessions_expired: 0,
    sessions_refunded: 0,
    expires_on: '2027-02-20',
    paid: 9600,
    refunded: 0,
    refundable: 7200,
    ...over,
  };
}
