/**
 * The typed admin API client (spec section 7, admin calls). Every call but login sends the bearer
 * token. Non-OK answers raise AdminApiError carrying the HTTP status and the server's detail or
 * message; a 401 clears the session and sends the admin to the login screen.
 */
import type {
  AdminBookingDto,
  AdminBookingsQuery,
  AdminSlotStatesResponse,
  AdminTherapistDto,
  AuditPage,
  BlockSlotResponse,
  ApproveRefundInput,
  CancelRefund,
  CancelResponse,
  ClientBookingDto,
  DeskPaymentMethod,
  ClientSearchResult,
  EodReport,
  IncomePage,
  LoginResponse,
  ManualBookingInput,
  Paged,
  PaymentsAttentionResponse,
  QueuesSessionResponse,
  RecordPaymentResponse,
  ResolveDiscrepancyResponse,
  SendPaymentLinkResponse,
  ShareableLinkResponse,
  TherapistMonthlyReport,
} from '../../../shared/contract/admin.ts';
import type { CashUpReport } from '../../../shared/contract/cash-up.ts';
import type { JobFailuresPage, ResolveJobFailureResponse } from '../../../shared/contract/job-failures.ts';
import type { RecordRefundResponse, RefundOptionsResponse, RefundReviewDecisionResponse, RefundsDueResponse } from '../../../shared/contract/refunds.ts';
import type { BookingCreateResponse } from '../../../shared/contract/booking.ts';
import type { PaymentLinkSaved } from '../../../shared/contract/payment-link.ts';
import { API_MESSAGES } from '../../../shared/contract/messages.ts';
import type { LocationDto } from '../../../shared/contract/public.ts';
import { clearSession, storedToken } from '../stores/admin-session.ts';
import { ADMIN_ROUTES, adminNav } from './admin-nav.ts';

export const NO_TOKEN_MESSAGE = 'No admin authentication token found.';
export const NO_DATA_TO_EXPORT = 'No data to export.';

export class AdminApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'AdminApiError';
    this.status = status;
  }
}

// Every answer and request shape is the contract's (shared/contract), under the names the islands use.
export type { CancelRefund, LoginResponse, Paged, RecordPaymentResponse, SendPaymentLinkResponse };
export type AdminTherapist = AdminTherapistDto;
export type AdminBooking = AdminBookingDto;
export type ClientBooking = ClientBookingDto;
export type Location = LocationDto;
/** The manual booking form's request, as manualBookingSchema reads it. */
export type ManualBookingPayload = ManualBookingInput;
export type CancelBookingResponse = CancelResponse;

/**
 * What GET /api/admin/bookings is asked for: dates at the centre (inclusive), a therapist, payment
 * statuses (CANCELLED: every cancelled booking), the order by date and time, and a page.
 */
export type BookingsQuery = Omit<AdminBookingsQuery, 'status'> & { status?: readonly string[] };

// Report, income, audit and slot-state answers are the server's own contract types.
export type {
  AdminSlotStateEntry,
  AdminSlotStatesResponse,
  AuditEntryDto as AuditEntry,
  AuditPage,
  ClientSearchResult,
  EodReport,
  IncomePage,
  PaymentAttentionItem,
  PaymentDto as Payment,
  PaymentsAttentionResponse,
  ResolveDiscrepancyResponse,
  TherapistMonthlyReport,
} from '../../../shared/contract/admin.ts';
export type {
  RecordRefundResponse,
  RefundDueItem,
  RefundOptionsResponse,
  RefundReviewDecisionResponse,
  RefundReviewItem,
  RefundsDueResponse,
} from '../../../shared/contract/refunds.ts';
export type { ApproveRefundInput, DeskPaymentMethod } from '../../../shared/contract/admin.ts';

export type { JobFailureDto as JobFailure, JobFailuresPage, ResolveJobFailureResponse } from '../../../shared/contract/job-failures.ts';
export type { CashUpMovement, CashUpReport } from '../../../shared/contract/cash-up.ts';
import type { AdminWaitlistDto } from '../../../shared/contract/waitlist.ts';
export type AdminWaitlist = AdminWaitlistDto;

/** How the desk takes money (record-payment, a manual booking paid now). */
export type PaymentMethod = DeskPaymentMethod;

type RequestOptions = {
  method?: 'GET' | 'POST';
  json?: unknown;
  form?: Record<string, string>;
  auth?: boolean;
};

function messageOf(body: unknown): string | null {
  if (body && typeof body === 'object') {
    const b = body as { detail?: unknown; message?: unknown };
    if (typeof b.detail === 'string' && b.detail) return b.detail;
    if (typeof b.message === 'string' && b.message) return b.message;
  }
  return null;
}

/** A 401 anywhere ends the session: the login screen then shows the message. */
export function handleUnauthorized(): never {
  clearSession(API_MESSAGES.unauthorized);
  adminNav.replace(ADMIN_ROUTES.login);
  throw new AdminApiError(API_MESSAGES.unauthorized, 401);
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const auth = opts.auth ?? true;
  if (auth) {
    const token = storedToken();
    if (!token) throw new AdminApiError(NO_TOKEN_MESSAGE, 401);
    headers.Authorization = `Bearer ${token}`;
  }
  let body: BodyInit | undefined;
  if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(path, { method: opts.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  if (res.status === 401 && auth) handleUnauthorized();
  return res;
}

async function errorFrom(res: Response): Promise<AdminApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // not JSON
  }
  return new AdminApiError(messageOf(body) ?? `HTTP error! status: ${res.status}`, res.status);
}

async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await send(path, opts);
  if (!res.ok) throw await errorFrom(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

const q = (params: Record<string, string | number | undefined>): string => {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : '';
};

function bookingsQuery(query: BookingsQuery): string {
  return q({
    from: query.from,
    to: query.to,
    therapist_id: query.therapist_id,
    status: query.status?.length ? query.status.join(',') : undefined,
    order: query.order,
    page: query.page,
    page_size: query.page_size,
  });
}

export type ExcelFile = { blob: Blob; fileName: string };

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
      await fetch('/api/admin/logout', { method: 'POST', headers: { Accept: 'application/json', Authorization: `Bearer ${token}` }, keepalive: true });
    } catch {
      // Offline or refused: the session ends here all the same, and the token at its expiry.
    }
  },
  /** Login has no token; its errors read the server's detail, then the status. */
  async login(username: string, password: string): Promise<LoginResponse> {
    return request<LoginResponse>('/api/admin/login', { method: 'POST', form: { username, password }, auth: false });
  },
  therapists: () => request<AdminTherapist[]>('/api/admin/therapists'),
  /** The bookings the query leaves, all of them (the calendar's month). */
  bookings: (query: Omit<BookingsQuery, 'page' | 'page_size'> = {}) => request<AdminBooking[]>(`/api/admin/bookings${bookingsQuery(query)}`),
  /** One page of the bookings the query leaves, with their total. */
  bookingsPage: (query: BookingsQuery & { page: number; page_size: number }) => request<Paged<AdminBooking>>(`/api/admin/bookings${bookingsQuery(query)}`),
  /** No body for unpaid bookings and blocks (the server answers 409 if it turns out to be paid). */
  cancelBooking: (id: number, refund?: CancelRefund) =>
    request<CancelBookingResponse | undefined>(`/api/admin/bookings/${id}/cancel`, refund ? { method: 'POST', json: refund } : { method: 'POST' }),
  /** The spec's block call with the panel's intent: the server refuses rather than do the opposite. */
  setBlock: (therapistId: number, startTime: string, date: string, action: 'block' | 'unblock') =>
    request<BlockSlotResponse>('/api/admin/availability/block', { method: 'POST', json: { therapist_id: therapistId, start_time: startTime, date, action } }),
  /** The admin grid's states for one therapist: today's 15-day window unless told otherwise. */
  slotStates: (therapistId: number, from?: string, days?: number) =>
    request<AdminSlotStatesResponse>(`/api/admin/therapists/${therapistId}/slot-states${q({ from, days })}`),
  /** A fee taken at the desk: in person, confirmed unrecorded, or online awaiting its link. */
  recordPayment: (bookingId: number, method: PaymentMethod, amount: number) =>
    request<RecordPaymentResponse>(`/api/admin/bookings/${bookingId}/record-payment`, { method: 'POST', json: { method, amount } }),
  /** What this admin may decide about a booking's money if they cancel it now (issue 31). */
  refundOptions: (bookingId: number) => request<RefundOptionsResponse>(`/api/admin/bookings/${bookingId}/refund-options`),
  /** Money due at the counter handed back: how, and how much (all that is due when left out). */
  recordRefund: (bookingId: number, method: DeskPaymentMethod, amount?: number) =>
    request<RecordRefundResponse>(`/api/admin/bookings/${bookingId}/record-refund`, {
      method: 'POST',
      json: amount === undefined ? { method } : { method, amount },
    }),
  /** Refunds due at the counter (every admin), oldest first. */
  refundsDue: () => request<RefundsDueResponse>('/api/admin/refunds/due'),
  /** The owner's decisions on a refund request (super admins; 409 if it was decided meanwhile). */
  approveRefundRequest: (id: number, refund: ApproveRefundInput) =>
    request<RefundReviewDecisionResponse>(`/api/admin/refund-requests/${id}/approve`, { method: 'POST', json: refund }),
  declineRefundRequest: (id: number, reason: string) =>
    request<RefundReviewDecisionResponse>(`/api/admin/refund-requests/${id}/decline`, { method: 'POST', json: { reason } }),
  /** One page of the payments ledger, with the whole ledger's totals and row count. */
  incomePage: (page: number, pageSize: number) => request<IncomePage>(`/api/admin/income${q({ page, page_size: pageSize })}`),
  inventoryPage: (page: number, pageSize: number) => request<IncomePage>(`/api/admin/reports/inventory${q({ page, page_size: pageSize })}`),
  eodReport: (reportDate: string) => request<EodReport>(`/api/admin/reports/eod${q({ report_date: reportDate })}`),
  /** The day's money by when it moved, per method and movement (any admin: the desk counts the till with it). */
  cashUp: (date: string) => request<CashUpReport>(`/api/admin/reports/cash-up${q({ date })}`),
  /** A therapist's waitlist, first in line first (issue 34). */
  waitlist: (therapistId: number) => request<AdminWaitlistDto>(`/api/admin/waitlist${q({ therapist_id: therapistId })}`),
  monthlyReport: (year: number, month: number) => request<TherapistMonthlyReport>(`/api/admin/reports/therapist-monthly${q({ year, month })}`),
  createShareableLink: (amount: number, bookingId: number, merchantTransactionId: string) =>
    request<ShareableLinkResponse>('/api/create-shareable-payment-link', {
      method: 'POST',
      json: { amount, booking_id: bookingId, merchant_transaction_id: merchantTransactionId },
    }),
  /** Sends the client the booking's payment link (made if needed) by e-mail, and WhatsApp where they opted in. */
  sendPaymentLink: (bookingId: number) => request<SendPaymentLinkResponse>(`/api/admin/bookings/${bookingId}/send-payment-link`, { method: 'POST', json: {} }),
  updatePaymentLink: (bookingId: number, url: string) =>
    request<PaymentLinkSaved>(`/api/admin/bookings/${bookingId}/update-payment-link`, { method: 'POST', json: { payment_link_url: url } }),
  clientsWithTherapists: (name?: string) => request<ClientBooking[]>(`/api/admin/clients-with-therapists${q({ name: name || undefined })}`),
  /** One page of the client list, filtered by name on the server. */
  clientsPage: (name: string, page: number, pageSize: number) =>
    request<Paged<ClientBooking>>(`/api/admin/clients-with-therapists${q({ name: name.trim() || undefined, page, page_size: pageSize })}`),
  searchClients: (name: string) => request<ClientSearchResult[]>(`/api/admin/search-clients${q({ name })}`),
  /** Bull Board is a page: the server turns the token into a cookie scoped to /admin/queues. */
  openQueues: () => request<QueuesSessionResponse>('/api/admin/queues-session', { method: 'POST' }),
  /** Whether the board answers with its cookie alone (no bearer token), as the board's own page will ask. */
  async queuesCookieWorks(): Promise<boolean> {
    try {
      const res = await fetch('/admin/queues/api/queues', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      return res.ok;
    } catch {
      return false;
    }
  },
  auditLog: (page: number, pageSize: number) => request<AuditPage>(`/api/admin/audit-log${q({ page, page_size: pageSize })}`),
  /** What the ledger reconciliation found (super admins): open issues, and those resolved in the last 7 days. */
  paymentsAttention: () => request<PaymentsAttentionResponse>('/api/admin/payments/attention'),
  /** Marks an open payment issue reviewed with the super admin's note (409 if it was resolved meanwhile). */
  resolvePaymentIssue: (id: number, note: string) =>
    request<ResolveDiscrepancyResponse>(`/api/admin/payments/attention/${id}/resolve`, { method: 'POST', json: { note } }),
  /** Jobs that failed for good (every admin): open ones first, one page. */
  jobFailures: (page: number, pageSize: number) => request<JobFailuresPage>(`/api/admin/job-failures${q({ page, page_size: pageSize })}`),
  /** Marks a failed job resolved (409 if it was resolved meanwhile). */
  resolveJobFailure: (id: number) => request<ResolveJobFailureResponse>(`/api/admin/job-failures/${id}/resolve`, { method: 'POST', json: {} }),
  locations: () => request<Location[]>('/locations', { auth: false }),
  createManualBooking: (payload: ManualBookingPayload) => request<BookingCreateResponse>('/confirm-booking', { method: 'POST', json: payload }),

  /**
   * A report's spreadsheet from the server (the same path with .xlsx). A 404 means there is nothing
   * to export and raises NO_DATA_TO_EXPORT.
   */
  async downloadExcel(path: string, fallbackName: string): Promise<ExcelFile> {
    const res = await send(path, {});
    if (res.status === 404) throw new AdminApiError(NO_DATA_TO_EXPORT, 404);
    if (!res.ok) throw await errorFrom(res);
    const disposition = res.headers.get('Content-Disposition') ?? '';
    const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
    const fileName = m?.[1] ? decodeURIComponent(m[1]) : fallbackName;
    return { blob: await res.blob(), fileName };
  },
};

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
  return (err instanceof AdminApiError && err.status === 401) || (err instanceof Error && err.message.includes('Unauthorized'));
}
