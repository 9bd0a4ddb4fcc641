/**
 * The site's one client of the API (spec section 7), for the wizard, Manage booking and the admin
 * panel alike. Same origin: the API server also serves this site. A call names its method and its
 * path as the route table lists them (shared/contract/routes.ts), and its path parameters, query,
 * body and answer have that route's types: a call the table does not list, or a body or query it
 * would refuse, does not compile. Only types come from the contract, so no zod reaches the browser.
 *
 * Any answer but a 2xx throws an ApiError with the HTTP status and the server's `detail` (and its
 * per-field `errors`), else "HTTP error! status: N". A call made as the signed-in admin (a Session)
 * carries the bearer token, and a 401 ends the session.
 */
import { BOOKING_TOKEN_HEADER } from '../../../shared/contract/headers.ts';
import type { BookingRecord } from '../../../shared/contract/payment-link.ts';
import type { HttpMethod, RouteAnswer, RouteBody, RouteBodyRequired, RouteParams, RoutePath, RouteQuery } from '../../../shared/contract/routes.ts';

export class ApiError extends Error {
  readonly status: number;
  /** The server's message per field of the body, when it refused some. */
  readonly fields: Record<string, string> | undefined;
  /** The whole error answer, for the calls whose refusal carries more than words (a series' conflicts). */
  readonly body: unknown;
  constructor(message: string, status: number, fields?: Record<string, string>, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
    this.body = body;
  }
}

export const NO_TOKEN_MESSAGE = 'No admin authentication token found.';

/**
 * Who a call is made as: the admin's bearer token, what a refused one (401) does to the session, and
 * the words the refused call throws (the admin client's: the public pages load no message table).
 */
export type Session = { token: () => string | null; end: () => void; refusedMessage: string };

/** A query as the server reads it, every part optional here (a list may be a read-only one). */
type QueryOf<Q> = { [K in keyof Q]?: Q[K] extends (infer E)[] | undefined ? readonly E[] : Q[K] };

type Parts<M extends HttpMethod, P> = ([RouteParams<M, P>] extends [never] ? unknown : { params: RouteParams<M, P> }) &
  ([RouteQuery<M, P>] extends [never] ? unknown : { query?: QueryOf<RouteQuery<M, P>> }) &
  ([RouteBody<M, P>] extends [never] ? unknown : RouteBodyRequired<M, P> extends true ? { body: RouteBody<M, P> } : { body?: RouteBody<M, P> });

export type CallOptions<M extends HttpMethod, P> = Parts<M, P> & {
  /** Headers of this call (a booking's token). */
  headers?: Record<string, string>;
  /** The body as an HTML form would send it (the login, as the spec's panel does). */
  form?: boolean;
  /** The request outlives the page (the sign-out, sent as the page changes). */
  keepalive?: boolean;
};
/** The options are optional when the call needs none. */
type OptionsArg<M extends HttpMethod, P> = Record<never, never> extends CallOptions<M, P> ? [options?: CallOptions<M, P>] : [options: CallOptions<M, P>];

type Loose = {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  form?: boolean;
  keepalive?: boolean;
};

/** `/a/{id}/b` with its parameters, and the query: numbers as digits, a list comma-separated, unset or empty ones left out. */
function urlOf(path: string, { params, query }: Loose): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params?.[name])));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    search.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const s = search.toString();
  return s ? `${filled}?${s}` : filled;
}

async function send(method: HttpMethod, path: string, opts: Loose, session: Session | undefined): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (session) {
    const token = session.token();
    if (!token) throw new ApiError(NO_TOKEN_MESSAGE, 401);
    headers.Authorization = `Bearer ${token}`;
  }
  let body: BodyInit | undefined;
  if (opts.body instanceof Blob) {
    headers['Content-Type'] = opts.body.type || 'application/octet-stream';
    body = opts.body;
  } else if (opts.body !== undefined && opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.body as Record<string, string>).toString();
  } else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(urlOf(path, opts), { method: method.toUpperCase(), headers, body, keepalive: opts.keepalive });
  if (res.status === 401 && session) {
    session.end();
    throw new ApiError(session.refusedMessage, 401);
  }
  if (!res.ok) throw await errorOf(res);
  return res;
}

/** The server's error answer ({detail, errors?}) as an ApiError. */
async function errorOf(res: Response): Promise<ApiError> {
  let body: { detail?: unknown; errors?: unknown } | undefined;
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // not JSON (a proxy's error page)
  }
  const detail = typeof body?.detail === 'string' && body.detail ? body.detail : `HTTP error! status: ${res.status}`;
  const fields = body?.errors && typeof body.errors === 'object' ? (body.errors as Record<string, string>) : undefined;
  return new ApiError(detail, res.status, fields, body);
}

/**
 * The calls, made as `session` (or as nobody): `call(method, path, options)` answers the route's JSON,
 * `download(path, options)` a file with the name the server gave it.
 */
export function apiClient(session?: Session) {
  return {
    async call<M extends HttpMethod, P extends RoutePath<M>>(method: M, path: P, ...[options]: OptionsArg<M, P>): Promise<RouteAnswer<M, P>> {
      const res = await send(method, path, (options ?? {}) as Loose, session);
      const text = await res.text();
      return (text ? JSON.parse(text) : undefined) as RouteAnswer<M, P>;
    },
    async download<P extends RoutePath<'get'>>(path: P, ...[options]: OptionsArg<'get', P>): Promise<{ blob: Blob; fileName: string | undefined }> {
      const res = await send('get', path, (options ?? {}) as Loose, session);
      const disposition = res.headers.get('Content-Disposition') ?? '';
      const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
      return { blob: await res.blob(), fileName: m?.[1] ? decodeURIComponent(m[1]) : undefined };
    },
  };
}

// ---- The public calls: the wizard, the confirmation page and Manage booking.
const api = apiClient();

export const getLocations = () => api.call('get', '/locations');
export const getServices = () => api.call('get', '/services');
export const getTherapists = () => api.call('get', '/therapists');
export const getSlotOffer = (therapistId: number) => api.call('get', '/api/slots', { query: { therapist_id: therapistId } });

export const confirmBooking = (payload: RouteBody<'post', '/confirm-booking'>) => api.call('post', '/confirm-booking', { body: payload });

/** The waitlist (issue 34): joining, and the client's private link's calls. */
export const joinWaitlist = (body: RouteBody<'post', '/api/waitlist'>) => api.call('post', '/api/waitlist', { body });
export const getWaitlistEntry = (token: string) => api.call('get', '/api/waitlist/{token}', { params: { token } });
export const claimWaitlistOffer = (token: string, body: RouteBody<'post', '/api/waitlist/{token}/claim'>) =>
  api.call('post', '/api/waitlist/{token}/claim', { params: { token }, body });
export const leaveWaitlist = (token: string) => api.call('post', '/api/waitlist/{token}/leave', { params: { token } });

/** The booking's token proves the caller is the client who made it; nobody else gets its link or details. */
const tokenHeader = (bookingToken: string | null | undefined): Record<string, string> => (bookingToken ? { [BOOKING_TOKEN_HEADER]: bookingToken } : {});

/** The wizard's payment link (only booking_id counts: the server prices the booking). */
export const generatePaymentLink = (req: RouteBody<'post', '/api/payment/generate-link'>, bookingToken: string | null) =>
  api.call('post', '/api/payment/generate-link', { body: req, headers: tokenHeader(bookingToken) });

/** No auth header: with the booking's token the server only confirms the link it already stored. */
export const updatePaymentLink = (bookingId: number, paymentLinkUrl: string, bookingToken: string | null) =>
  api.call('post', '/api/admin/bookings/{id}/update-payment-link', {
    params: { id: bookingId },
    body: { payment_link_url: paymentLinkUrl },
    headers: tokenHeader(bookingToken),
  });

/** The booking record the confirmation page shows (the caller proved it is theirs). */
export type BookingDetails = BookingRecord;

/**
 * The confirmation lookup; `params` carries payment_status and the provider's callback params, whose
 * signature (or the booking's token) lets the server answer the booking record; without either it
 * answers the payment status alone.
 */
export const getBookingDetails = (bookingId: string, params: Record<string, string>, bookingToken?: string | null) =>
  api.call('get', '/api/get-razorpay-details/{id}', { params: { id: bookingId }, query: params, headers: tokenHeader(bookingToken) });

/**
 * The client's own booking, keyed only by the private token from their confirmation e-mail. A 404
 * (unknown or expired token) throws an ApiError with status 404; a refused change (409) carries the
 * server's words in its message.
 */
export const getManagedBooking = (token: string) => api.call('get', '/api/manage/{token}', { params: { token } });
export const rescheduleManagedBooking = (token: string, body: RouteBody<'post', '/api/manage/{token}/reschedule'>) =>
  api.call('post', '/api/manage/{token}/reschedule', { params: { token }, body });
export const cancelManagedBooking = (token: string) => api.call('post', '/api/manage/{token}/cancel', { params: { token } });
/** "Book the same time next week": answered as /confirm-booking (the new booking's token for the payment calls). */
export const bookAgainManaged = (token: string, body: RouteBody<'post', '/api/manage/{token}/book-again'>) =>
  api.call('post', '/api/manage/{token}/book-again', { params: { token }, body });
/** "Add to calendar": the session's invitation from the server, the same event as the e-mailed one (a download, not a fetch). */
export const sessionIcsPath = (token: string) => `/api/manage/${encodeURIComponent(token)}/session.ics`;
/** The token of a Manage booking address (/manage-booking?token=…), or null. */
export function manageTokenOf(manageUrl: unknown): string | null {
  if (typeof manageUrl !== 'string' || !manageUrl) return null;
  try {
    const token = new URL(manageUrl, 'http://x').searchParams.get('token');
    return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
  } catch {
    return null;
  }
}

export const locationImage = (id: number) => `/get_location_image/${id}.png`;
export const therapistImage = (imageUrl: string) => `/get_specific_image/${encodeURIComponent(imageUrl)}`;

// ---- Packages of sessions (issue 34): on sale, bought through a payment link, used by their private link.
export type { ClientPackageDto, PublicPackageDto } from '../../../shared/contract/packages.ts';
export const getPackages = () => api.call('get', '/api/packages');
export const purchasePackage = (body: RouteBody<'post', '/api/packages/purchase'>) => api.call('post', '/api/packages/purchase', { body });
/** The client's package; `search` passes the payment provider's return on (it settles the payment). */
export const getMyPackage = (token: string, search = '') =>
  api.call('get', '/api/packages/{token}', { params: { token }, query: Object.fromEntries(new URLSearchParams(search)) });
export const bookFromPackage = (token: string, body: RouteBody<'post', '/api/packages/{token}/book'>) =>
  api.call('post', '/api/packages/{token}/book', { params: { token }, body });
