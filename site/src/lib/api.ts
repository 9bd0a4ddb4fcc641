/**
 * The one typed client of the API for the browser (spec section 7). Same origin: the API
 * server also serves this site. For any non-OK answer it throws an ApiError whose message
 * contains the HTTP status; POST calls use the server's detail or message instead.
 */
import type { BookingCreate, BookingCreateResponse } from '../../../shared/contract/booking.ts';
import { BOOKING_TOKEN_HEADER } from '../../../shared/contract/headers.ts';
import type { ManageBookingDto, ManageChangeResultDto, ManageRescheduleBody } from '../../../shared/contract/manage.ts';
import type { BookingDetailsResponse, BookingRecord, GenerateLinkInput, PaymentLinkResponse, PaymentLinkSaved } from '../../../shared/contract/payment-link.ts';
import type { LocationDto, ServiceDto, SlotOfferDto, TherapistDto } from '../../../shared/contract/public.ts';
import type {
  ClientPackageDto,
  PackageBookInput,
  PackageBookResponse,
  PackagePurchaseInput,
  PackagePurchaseResponse,
  PublicPackageDto,
} from '../../../shared/contract/packages.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  constructor(message: string, status: number, fields?: Record<string, string>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
  }
}

type ErrorLike = { detail?: unknown; message?: unknown; errors?: unknown };

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return undefined;
  }
}

async function get<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(path, { headers: { Accept: 'application/json', ...headers } });
  if (!res.ok) throw new ApiError(`HTTP error! status: ${res.status}`, res.status);
  return (await res.json()) as T;
}

async function post<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const data = (await readJson(res)) as (T & ErrorLike) | undefined;
  if (!res.ok) {
    const text = typeof data?.detail === 'string' ? data.detail : typeof data?.message === 'string' ? data.message : undefined;
    const fields = data?.errors && typeof data.errors === 'object' ? (data.errors as Record<string, string>) : undefined;
    throw new ApiError(text ?? `HTTP error! status: ${res.status}`, res.status, fields);
  }
  return data as T;
}

export const getLocations = () => get<LocationDto[]>('/locations');
export const getServices = () => get<ServiceDto[]>('/services');
export const getTherapists = () => get<TherapistDto[]>('/therapists');
export const getSlotOffer = (therapistId: number) => get<SlotOfferDto>(`/api/slots?therapist_id=${encodeURIComponent(therapistId)}`);

export const confirmBooking = (payload: BookingCreate) => post<Partial<BookingCreateResponse>>('/confirm-booking', payload);

export type { PaymentLinkResponse };
/** What the wizard sends for its payment link (only booking_id counts: the server prices the booking). */
export type PaymentLinkRequest = GenerateLinkInput;

/** The booking's token proves the caller is the client who made it; nobody else gets its link or details. */
const tokenHeader = (bookingToken: string | null | undefined): Record<string, string> => (bookingToken ? { [BOOKING_TOKEN_HEADER]: bookingToken } : {});

export const generatePaymentLink = (req: PaymentLinkRequest, bookingToken: string | null) =>
  post<Partial<PaymentLinkResponse>>('/api/payment/generate-link', req, tokenHeader(bookingToken));

/** No auth header: with the booking's token the server only confirms the link it already stored. */
export const updatePaymentLink = (bookingId: number, paymentLinkUrl: string, bookingToken: string | null) =>
  post<PaymentLinkSaved>(
    `/api/admin/bookings/${encodeURIComponent(bookingId)}/update-payment-link`,
    { payment_link_url: paymentLinkUrl },
    tokenHeader(bookingToken),
  );

/** The booking record the confirmation page shows (the caller proved it is theirs). */
export type BookingDetails = BookingRecord;

/**
 * The confirmation lookup; `params` carries payment_status and the provider's callback params, whose
 * signature (or the booking's token) lets the server answer the booking record; without either it
 * answers the payment status alone.
 */
export const getBookingDetails = (bookingId: string, params: Record<string, string>, bookingToken?: string | null) =>
  get<BookingDetailsResponse>(
    `/api/get-razorpay-details/${encodeURIComponent(bookingId)}?${new URLSearchParams(params).toString()}`,
    tokenHeader(bookingToken),
  );

/**
 * The client's own booking, keyed only by the private token from their confirmation e-mail. A 404
 * (unknown or expired token) throws an ApiError with status 404; a refused change (409) carries the
 * server's words in its message.
 */
const managePath = (token: string) => `/api/manage/${encodeURIComponent(token)}`;
export const getManagedBooking = (token: string) => get<ManageBookingDto>(managePath(token));
export const rescheduleManagedBooking = (token: string, body: ManageRescheduleBody) => post<ManageChangeResultDto>(`${managePath(token)}/reschedule`, body);
export const cancelManagedBooking = (token: string) => post<ManageChangeResultDto>(`${managePath(token)}/cancel`, {});
/** "Add to calendar": the session's invitation from the server, the same event as the e-mailed one (a download, not a fetch). */
export const sessionIcsPath = (token: string) => `${managePath(token)}/session.ics`;
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
export type { ClientPackageDto, PublicPackageDto };
export const getPackages = () => get<PublicPackageDto[]>('/api/packages');
export const purchasePackage = (body: PackagePurchaseInput) => post<PackagePurchaseResponse>('/api/packages/purchase', body);
/** The client's package; `search` passes the payment provider's return on (it settles the payment). */
export const getMyPackage = (token: string, search = '') =>
  get<ClientPackageDto>(`/api/packages/${encodeURIComponent(token)}${search && !search.startsWith('?') ? `?${search}` : search}`);
export const bookFromPackage = (token: string, body: PackageBookInput) => post<PackageBookResponse>(`/api/packages/${encodeURIComponent(token)}/book`, body);
