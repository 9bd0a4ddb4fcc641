/**
 * The admin panel's calls (spec section 7, admin calls; issue 20's catalogue, staff and attendance),
 * made through the site's one API client (api.ts) as the signed-in admin: every call but the login,
 * the public centres and the set-password link sends the bearer token, and a 401 clears the session
 * and sends the admin to the login screen. Each call's request and answer types are its route's
 * (shared/contract/routes.ts); the names below are the contract's types under the islands' names.
 */
import type { AdminBookingDto, AdminTherapistDto, ClientBookingDto, DeskPaymentMethod, ManualBookingInput } from '../../../shared/contract/admin.ts';
import type { AffectedBookingDto } from '../../../shared/contract/catalogue.ts';
import type { SeriesConflictResponse } from '../../../shared/contract/series.ts';
import { API_MESSAGES } from '../../../shared/contract/messages.ts';
import type { LocationDto } from '../../../shared/contract/public.ts';
import type { RouteAnswer, RouteBody } from '../../../shared/contract/routes.ts';
import { clearSession, storedToken } from '../stores/admin-session.ts';
import { ADMIN_ROUTES, adminNav } from './admin-nav.ts';
import { ApiError, apiClient, type CallOptions } from './api.ts';

export const NO_DATA_TO_EXPORT = 'No data to export.';

// Every answer and request shape is the contract's (shared/contract), under the names the islands use.
export type { CancelRefund, LoginResponse, Paged, RecordPaymentResponse, SendPaymentLinkResponse } from '../../../shared/contract/admin.ts';
export type AdminTherapist = AdminTherapistDto;
export type AdminBooking = AdminBookingDto;
export type ClientBooking = ClientBookingDto;
export type Location = LocationDto;
/** The manual booking form's request, as manualBookingSchema reads it. */
export type ManualBookingPayload = ManualBookingInput;

// Report, income, audit and slot-state answers are the server's own contract types.
export type {
  AdminSlotStateEntry,
  AuditEntryDto as AuditEntry,
  IncomePage,
  PaymentAttentionItem,
  PaymentDto as Payment,
} from '../../../shared/contract/admin.ts';
export type { RefundDueItem, RefundOptionsResponse, RefundReviewItem } from '../../../shared/contract/refunds.ts';
export type { ApproveRefundInput, DeskPaymentMethod } from '../../../shared/contract/admin.ts';
export type { JobFailureDto as JobFailure } from '../../../shared/contract/job-failures.ts';
export type { CashUpMovement, CashUpReport } from '../../../shared/contract/cash-up.ts';
export type { AdminWaitlistDto as AdminWaitlist } from '../../../shared/contract/waitlist.ts';
export type { AffectedBookingDto, CatalogueTherapistDto, HolidayDto, StaffDto, WeeklyHours } from '../../../shared/contract/catalogue.ts';
export type { LocationDto, ServiceDto } from '../../../shared/contract/public.ts';

/** How the desk takes money (record-payment, a manual booking paid now). */
export type PaymentMethod = DeskPaymentMethod;

/**
 * What GET /api/admin/bookings is asked for: dates at the centre (inclusive), a therapist, payment
 * statuses (CANCELLED: every cancelled booking), the order by date and time, and a page.
 */
export type BookingsQuery = NonNullable<CallOptions<'get', '/api/admin/bookings'>['query']>;

/** What a therapist's add or change sends (as therapistCreateSchema reads it). */
export type TherapistBody = RouteBody<'post', '/api/admin/therapists'>;

export type { SeriesConflict, SeriesCreateInput, SeriesDetail } from '../../../shared/contract/series.ts';

/** A series call's answer: done, or (409) the dates that cannot be booked or moved to, nothing written. */
export type SeriesAnswer<T> = { ok: true; body: T } | { ok: false; conflict: SeriesConflictResponse };

/** The signed-in admin's calls: a refused token (401) ends the session, and the login screen says why. */
const admin = apiClient({
  token: storedToken,
  end: () => {
    clearSession(API_MESSAGES.unauthorized);
    adminNav.replace(ADMIN_ROUTES.login);
  },
  refusedMessage: API_MESSAGES.unauthorized,
});
/** The calls made before signing in (and the public centres). */
const anyone = apiClient();

/** A call whose 409 lists conflicts (a series): the list is the answer, not an error to show alone. */
async function seriesCall<T>(run: () => Promise<T>): Promise<SeriesAnswer<T>> {
  try {
    return { ok: true, body: await run() };
  } catch (e) {
    const body = e instanceof ApiError && e.status === 409 ? (e.body as Partial<SeriesConflictResponse> | undefined) : undefined;
    if (body && Array.isArray(body.conflicts)) return { ok: false, conflict: body as SeriesConflictResponse };
    throw e;
  }
}

// Lists whose route answers the whole list, or one page of it when a page is asked for.
type BookingsAnswer = RouteAnswer<'get', '/api/admin/bookings'>;
type ClientsAnswer = RouteAnswer<'get', '/api/admin/clients-with-therapists'>;
type LedgerAnswer = RouteAnswer<'get', '/api/admin/income'>;
type OnePage<A> = Extract<A, { items: unknown }>;

/** A report's workbook; the server's 404 means there is nothing to export. */
async function workbook(file: Promise<{ blob: Blob; fileName: string | undefined }>) {
  try {
    return await file;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw new ApiError(NO_DATA_TO_EXPORT, 404);
    throw err;
  }
}

export const adminApi = {
  /**
   * Sign-out on the server: the token is revoked at once, so no copy of it (a shared desk computer,
   * a stolen session) works on. Best effort: it never throws and never ends the session itself (a 401
   * here is not "please log in again"); the panel clears its session whatever the answer. keepalive
   * carries the request through the page change to the login screen.
   */
  async logout(token: string | null): Promise<void> {
    if (!token) return;
    try {
      await anyone.call('post', '/api/admin/logout', { headers: { Authorization: `Bearer ${token}` }, keepalive: true });
    } catch {
      // Offline or refused: the session ends here all the same, and the token at its expiry.
    }
  },
  /** Login has no token; its errors read the server's detail, then the status. */
  login: (username: string, password: string) => anyone.call('post', '/api/admin/login', { body: { username, password }, form: true }),
  therapists: () => admin.call('get', '/api/admin/therapists'),
  /** The bookings the query leaves, all of them (the calendar's month). */
  bookings: (query: Omit<BookingsQuery, 'page' | 'page_size'> = {}) =>
    admin.call('get', '/api/admin/bookings', { query }) as Promise<Exclude<BookingsAnswer, OnePage<BookingsAnswer>>>,
  /** One page of the bookings the query leaves, with their total. */
  bookingsPage: (query: BookingsQuery & { page: number; page_size: number }) =>
    admin.call('get', '/api/admin/bookings', { query }) as Promise<OnePage<BookingsAnswer>>,
  /** No body for unpaid bookings and blocks (the server answers 409 if it turns out to be paid). */
  cancelBooking: (id: number, refund?: RouteBody<'post', '/api/admin/bookings/{id}/cancel'>) =>
    admin.call('post', '/api/admin/bookings/{id}/cancel', { params: { id }, body: refund }),
  /** The spec's block call with the panel's intent: the server refuses rather than do the opposite. */
  setBlock: (therapistId: number, startTime: string, date: string, action: 'block' | 'unblock') =>
    admin.call('post', '/api/admin/availability/block', { body: { therapist_id: therapistId, start_time: startTime, date, action } }),
  /** The admin grid's states for one therapist: today's 15-day window unless told otherwise. */
  slotStates: (therapistId: number, from?: string, days?: number) =>
    admin.call('get', '/api/admin/therapists/{id}/slot-states', { params: { id: therapistId }, query: { from, days } }),
  /** A fee taken at the desk: in person, confirmed unrecorded, or online awaiting its link. */
  recordPayment: (bookingId: number, method: PaymentMethod, amount: number) =>
    admin.call('post', '/api/admin/bookings/{id}/record-payment', { params: { id: bookingId }, body: { method, amount } }),
  /** What this admin may decide about a booking's money if they cancel it now (issue 31). */
  refundOptions: (bookingId: number) => admin.call('get', '/api/admin/bookings/{id}/refund-options', { params: { id: bookingId } }),
  /** Money due at the counter handed back: how, and how much (all that is due when left out). */
  recordRefund: (bookingId: number, method: DeskPaymentMethod, amount?: number) =>
    admin.call('post', '/api/admin/bookings/{id}/record-refund', {
      params: { id: bookingId },
      body: amount === undefined ? { method } : { method, amount },
    }),
  /** Refunds due at the counter (every admin), oldest first. */
  refundsDue: () => admin.call('get', '/api/admin/refunds/due'),
  /** The owner's decisions on a refund request (super admins; 409 if it was decided meanwhile). */
  approveRefundRequest: (id: number, refund: RouteBody<'post', '/api/admin/refund-requests/{id}/approve'>) =>
    admin.call('post', '/api/admin/refund-requests/{id}/approve', { params: { id }, body: refund }),
  declineRefundRequest: (id: number, reason: string) => admin.call('post', '/api/admin/refund-requests/{id}/decline', { params: { id }, body: { reason } }),
  /** One page of the payments ledger, with the whole ledger's totals and row count. */
  incomePage: (page: number, pageSize: number) =>
    admin.call('get', '/api/admin/income', { query: { page, page_size: pageSize } }) as Promise<OnePage<LedgerAnswer>>,
  inventoryPage: (page: number, pageSize: number) =>
    admin.call('get', '/api/admin/reports/inventory', { query: { page, page_size: pageSize } }) as Promise<OnePage<LedgerAnswer>>,
  eodReport: (reportDate: string) => admin.call('get', '/api/admin/reports/eod', { query: { report_date: reportDate } }),
  /** The day's money by when it moved, per method and movement (any admin: the desk counts the till with it). */
  cashUp: (date: string) => admin.call('get', '/api/admin/reports/cash-up', { query: { date } }),
  /** A therapist's waitlist, first in line first (issue 34). */
  waitlist: (therapistId: number) => admin.call('get', '/api/admin/waitlist', { query: { therapist_id: therapistId } }),
  monthlyReport: (year: number, month: number) => admin.call('get', '/api/admin/reports/therapist-monthly', { query: { year, month } }),
  // The reports' spreadsheets, as the screens show them.
  inventoryWorkbook: () => workbook(admin.download('/api/admin/reports/inventory.xlsx')),
  eodWorkbook: (reportDate: string) => workbook(admin.download('/api/admin/reports/eod.xlsx', { query: { report_date: reportDate } })),
  cashUpWorkbook: (date: string) => workbook(admin.download('/api/admin/reports/cash-up.xlsx', { query: { date } })),
  monthlyWorkbook: (year: number, month: number) => workbook(admin.download('/api/admin/reports/therapist-monthly.xlsx', { query: { year, month } })),
  createShareableLink: (amount: number, bookingId: number, merchantTransactionId: string) =>
    admin.call('post', '/api/create-shareable-payment-link', {
      body: { amount, booking_id: bookingId, merchant_transaction_id: merchantTransactionId },
    }),
  /** Sends the client the booking's payment link (made if needed) by e-mail, and WhatsApp where they opted in. */
  sendPaymentLink: (bookingId: number) => admin.call('post', '/api/admin/bookings/{id}/send-payment-link', { params: { id: bookingId } }),
  updatePaymentLink: (bookingId: number, url: string) =>
    admin.call('post', '/api/admin/bookings/{id}/update-payment-link', { params: { id: bookingId }, body: { payment_link_url: url } }),
  clientsWithTherapists: (name?: string) =>
    admin.call('get', '/api/admin/clients-with-therapists', { query: { name: name || undefined } }) as Promise<Exclude<ClientsAnswer, OnePage<ClientsAnswer>>>,
  /** One page of the client list, filtered by name on the server. */
  clientsPage: (name: string, page: number, pageSize: number) =>
    admin.call('get', '/api/admin/clients-with-therapists', { query: { name: name.trim() || undefined, page, page_size: pageSize } }) as Promise<
      OnePage<ClientsAnswer>
    >,
  searchClients: (name: string) => admin.call('get', '/api/admin/search-clients', { query: { name } }),
  /** Bull Board is a page: the server turns the token into a cookie scoped to /admin/queues. */
  openQueues: () => admin.call('post', '/api/admin/queues-session'),
  /**
   * Whether the board answers with its cookie alone (no bearer token), as the board's own page will
   * ask: Bull Board's own API, not this API's, so not a call of the client.
   */
  async queuesCookieWorks(): Promise<boolean> {
    try {
      const res = await fetch('/admin/queues/api/queues', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      return res.ok;
    } catch {
      return false;
    }
  },
  auditLog: (page: number, pageSize: number) => admin.call('get', '/api/admin/audit-log', { query: { page, page_size: pageSize } }),
  /** What the ledger reconciliation found (super admins): open issues, and those resolved in the last 7 days. */
  paymentsAttention: () => admin.call('get', '/api/admin/payments/attention'),
  /** Marks an open payment issue reviewed with the super admin's note (409 if it was resolved meanwhile). */
  resolvePaymentIssue: (id: number, note: string) => admin.call('post', '/api/admin/payments/attention/{id}/resolve', { params: { id }, body: { note } }),
  /** Jobs that failed for good (every admin): open ones first, one page. */
  jobFailures: (page: number, pageSize: number) => admin.call('get', '/api/admin/job-failures', { query: { page, page_size: pageSize } }),
  /** Marks a failed job resolved (409 if it was resolved meanwhile). */
  resolveJobFailure: (id: number) => admin.call('post', '/api/admin/job-failures/{id}/resolve', { params: { id } }),
  locations: () => anyone.call('get', '/locations'),
  createManualBooking: (payload: ManualBookingPayload) => admin.call('post', '/confirm-booking', { body: payload }),
  createSeries: (payload: RouteBody<'post', '/api/admin/series'>) => seriesCall(() => admin.call('post', '/api/admin/series', { body: payload })),
  series: (id: number) => admin.call('get', '/api/admin/series/{id}', { params: { id } }),
  cancelSeries: (id: number, body: RouteBody<'post', '/api/admin/series/{id}/cancel'>) =>
    admin.call('post', '/api/admin/series/{id}/cancel', { params: { id }, body }),
  moveSeries: (id: number, body: RouteBody<'post', '/api/admin/series/{id}/move'>) =>
    seriesCall(() => admin.call('post', '/api/admin/series/{id}/move', { params: { id }, body })),
};

/** Managing the centre (issue 20): catalogue, staff, attendance, one's own password and the set-password link. */
export const catalogueApi = {
  therapists: () => admin.call('get', '/api/admin/catalogue/therapists'),
  createTherapist: (body: TherapistBody) => admin.call('post', '/api/admin/therapists', { body }),
  patchTherapist: (id: number, body: RouteBody<'patch', '/api/admin/therapists/{id}'>) =>
    admin.call('patch', '/api/admin/therapists/{id}', { params: { id }, body }),
  setActive: (id: number, active: boolean) =>
    active
      ? admin.call('post', '/api/admin/therapists/{id}/activate', { params: { id } })
      : admin.call('post', '/api/admin/therapists/{id}/deactivate', { params: { id } }),
  uploadPhoto: (id: number, file: Blob) => admin.call('put', '/api/admin/therapists/{id}/photo', { params: { id }, body: file }),
  setHours: (id: number, hours: RouteBody<'put', '/api/admin/therapists/{id}/hours'>) =>
    admin.call('put', '/api/admin/therapists/{id}/hours', { params: { id }, body: hours }),
  addTimeOff: (id: number, body: RouteBody<'post', '/api/admin/therapists/{id}/time-off'>) =>
    admin.call('post', '/api/admin/therapists/{id}/time-off', { params: { id }, body }),
  deleteTimeOff: (id: number, entry: number) => admin.call('delete', '/api/admin/therapists/{id}/time-off/{entry}', { params: { id, entry } }),
  holidays: () => admin.call('get', '/api/admin/holidays'),
  addHoliday: (body: RouteBody<'post', '/api/admin/holidays'>) => admin.call('post', '/api/admin/holidays', { body }),
  deleteHoliday: (id: number) => admin.call('delete', '/api/admin/holidays/{id}', { params: { id } }),
  services: () => admin.call('get', '/api/admin/services'),
  addService: (name: string) => admin.call('post', '/api/admin/services', { body: { name } }),
  renameService: (id: number, name: string) => admin.call('patch', '/api/admin/services/{id}', { params: { id }, body: { name } }),
  locations: () => admin.call('get', '/api/admin/locations'),
  patchLocation: (id: number, body: RouteBody<'patch', '/api/admin/locations/{id}'>) =>
    admin.call('patch', '/api/admin/locations/{id}', { params: { id }, body }),
  uploadLocationPhoto: (id: number, file: Blob) => admin.call('put', '/api/admin/locations/{id}/photo', { params: { id }, body: file }),
  users: () => admin.call('get', '/api/admin/users'),
  createUser: (body: RouteBody<'post', '/api/admin/users'>) => admin.call('post', '/api/admin/users', { body }),
  setUserActive: (id: number, active: boolean) =>
    active
      ? admin.call('post', '/api/admin/users/{id}/activate', { params: { id } })
      : admin.call('post', '/api/admin/users/{id}/deactivate', { params: { id } }),
  resetPassword: (id: number) => admin.call('post', '/api/admin/users/{id}/reset-password', { params: { id } }),
  changeMyPassword: (current: string, next: string) =>
    admin.call('post', '/api/admin/me/password', { body: { current_password: current, new_password: next } }),
  setPasswordWithLink: (token: string, password: string) => anyone.call('post', '/api/admin/set-password', { body: { token, password } }),
  markAttendance: (bookingId: number, status: 'ATTENDED' | 'NO_SHOW') =>
    admin.call('post', '/api/admin/bookings/{id}/attendance', { params: { id: bookingId }, body: { status } }),
};

/**
 * Packages of sessions (issue 34): packages (super admins define them), sales at the desk, a sale's
 * credits, extension and refund (super admins), the report and its workbook.
 */
export type { PackageDto, PackageSaleDto, PackageSaleListItem, PackagesReport } from '../../../shared/contract/packages.ts';
/** What the package form sends (rupees). */
export type PackageBody = RouteBody<'post', '/api/admin/packages'>;

export const packageApi = {
  packages: (activeOnly = false) => admin.call('get', '/api/admin/packages', { query: { active: activeOnly ? 'true' : undefined } }),
  createPackage: (body: PackageBody) => admin.call('post', '/api/admin/packages', { body }),
  updatePackage: (id: number, body: RouteBody<'patch', '/api/admin/packages/{id}'>) =>
    admin.call('patch', '/api/admin/packages/{id}', { params: { id }, body }),
  sales: (query: NonNullable<CallOptions<'get', '/api/admin/package-sales'>['query']> = {}) => admin.call('get', '/api/admin/package-sales', { query }),
  sell: (body: RouteBody<'post', '/api/admin/package-sales'>) => admin.call('post', '/api/admin/package-sales', { body }),
  sale: (id: number) => admin.call('get', '/api/admin/package-sales/{id}', { params: { id } }),
  extend: (id: number, expiresOn: string, reason: string) =>
    admin.call('post', '/api/admin/package-sales/{id}/extend', { params: { id }, body: { expires_on: expiresOn, ...(reason ? { reason } : {}) } }),
  refund: (id: number, method: DeskPaymentMethod | undefined) =>
    admin.call('post', '/api/admin/package-sales/{id}/refund', { params: { id }, body: method ? { method } : {} }),
  report: (from: string, to: string) => admin.call('get', '/api/admin/reports/packages', { query: { from, to } }),
  reportWorkbook: (from: string, to: string) => workbook(admin.download('/api/admin/reports/packages.xlsx', { query: { from, to } })),
};

/** "Wed 25 Nov, 10:00 — Meera Pillai (Dr. Asha Mehta)": how the panel lists a booking a change touches. */
export function affectedLine(b: AffectedBookingDto): string {
  return `#${b.id} ${b.booking_date} ${b.booking_time_slot_start} — ${b.client_full_name || 'client'} (${b.therapist_name})`;
}

/** Saves a blob under a file name through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}

export function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401;
}
