/**
 * The admin panel's calls for managing the centre (issue 20): catalogue, staff, attendance, one's own
 * password and the set-password link. Same rules as admin-api.ts: the bearer token on every call but
 * the link's, the server's detail as the error's message, and a 401 ends the session.
 */
import type {
  AffectedBookingDto,
  AttendanceResponse,
  CatalogueTherapistDto,
  DeletedResponse,
  HolidayDto,
  HolidayResponse,
  LocationPhotoResponse,
  PasswordChangedResponse,
  ResetPasswordResponse,
  SetPasswordResponse,
  StaffDto,
  TherapistActiveResponse,
  TherapistPhotoResponse,
  TimeOffResponse,
  WeeklyHours,
  WeeklyHoursResponse,
} from '../../../shared/contract/catalogue.ts';
import type { LocationDto, ServiceDto } from '../../../shared/contract/public.ts';
import { storedToken } from '../stores/admin-session.ts';
import { AdminApiError, handleUnauthorized, NO_TOKEN_MESSAGE } from './admin-api.ts';

export type { AffectedBookingDto, CatalogueTherapistDto, HolidayDto, StaffDto, WeeklyHours, LocationDto, ServiceDto };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call of the panel's API (also package-api.ts's): the bearer token, the server's detail as the error. */
export async function call<T>(method: Method, path: string, body?: unknown, opts: { auth?: boolean; raw?: Blob } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const auth = opts.auth ?? true;
  if (auth) {
    const token = storedToken();
    if (!token) throw new AdminApiError(NO_TOKEN_MESSAGE, 401);
    headers.Authorization = `Bearer ${token}`;
  }
  let payload: BodyInit | undefined;
  if (opts.raw) {
    headers['Content-Type'] = opts.raw.type || 'application/octet-stream';
    payload = opts.raw;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(path, { method, headers, body: payload });
  if (res.status === 401 && auth) handleUnauthorized();
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const detail =
      parsed && typeof parsed === 'object' && typeof (parsed as { detail?: unknown }).detail === 'string' ? (parsed as { detail: string }).detail : null;
    throw new AdminApiError(detail ?? `HTTP error! status: ${res.status}`, res.status);
  }
  return parsed as T;
}

export type TherapistBody = {
  name: string;
  title: string;
  specialization: string;
  bio: { summary: string; approaches: string; experience: string; languages: string };
  price: number | null;
  type: 1 | 2;
  email: string[];
  location_id: number | null;
  service_ids: number[];
};

export const catalogueApi = {
  therapists: () => call<CatalogueTherapistDto[]>('GET', '/api/admin/catalogue/therapists'),
  createTherapist: (body: TherapistBody) => call<CatalogueTherapistDto>('POST', '/api/admin/therapists', body),
  patchTherapist: (id: number, body: Partial<TherapistBody>) => call<CatalogueTherapistDto>('PATCH', `/api/admin/therapists/${id}`, body),
  setActive: (id: number, active: boolean) => call<TherapistActiveResponse>('POST', `/api/admin/therapists/${id}/${active ? 'activate' : 'deactivate'}`),
  uploadPhoto: (id: number, file: Blob) => call<TherapistPhotoResponse>('PUT', `/api/admin/therapists/${id}/photo`, undefined, { raw: file }),
  setHours: (id: number, hours: WeeklyHours) => call<WeeklyHoursResponse>('PUT', `/api/admin/therapists/${id}/hours`, hours),
  addTimeOff: (id: number, body: { from_date: string; to_date: string; reason: string }) =>
    call<TimeOffResponse>('POST', `/api/admin/therapists/${id}/time-off`, body),
  deleteTimeOff: (id: number, entry: number) => call<DeletedResponse>('DELETE', `/api/admin/therapists/${id}/time-off/${entry}`),
  holidays: () => call<HolidayDto[]>('GET', '/api/admin/holidays'),
  addHoliday: (body: { date: string; reason: string }) => call<HolidayResponse>('POST', '/api/admin/holidays', body),
  deleteHoliday: (id: number) => call<DeletedResponse>('DELETE', `/api/admin/holidays/${id}`),
  services: () => call<ServiceDto[]>('GET', '/api/admin/services'),
  addService: (name: string) => call<ServiceDto>('POST', '/api/admin/services', { name }),
  renameService: (id: number, name: string) => call<ServiceDto>('PATCH', `/api/admin/services/${id}`, { name }),
  locations: () => call<LocationDto[]>('GET', '/api/admin/locations'),
  patchLocation: (id: number, body: Partial<Omit<LocationDto, 'id'>>) => call<LocationDto>('PATCH', `/api/admin/locations/${id}`, body),
  uploadLocationPhoto: (id: number, file: Blob) => call<LocationPhotoResponse>('PUT', `/api/admin/locations/${id}/photo`, undefined, { raw: file }),
  users: () => call<StaffDto[]>('GET', '/api/admin/users'),
  createUser: (body: { username: string; email: string; is_superadmin: boolean; password?: string }) => call<StaffDto>('POST', '/api/admin/users', body),
  setUserActive: (id: number, active: boolean) => call<StaffDto>('POST', `/api/admin/users/${id}/${active ? 'activate' : 'deactivate'}`),
  resetPassword: (id: number) => call<ResetPasswordResponse>('POST', `/api/admin/users/${id}/reset-password`),
  changeMyPassword: (current: string, next: string) =>
    call<PasswordChangedResponse>('POST', '/api/admin/me/password', { current_password: current, new_password: next }),
  setPasswordWithLink: (token: string, password: string) => call<SetPasswordResponse>('POST', '/api/admin/set-password', { token, password }, { auth: false }),
  markAttendance: (bookingId: number, status: 'ATTENDED' | 'NO_SHOW') =>
    call<AttendanceResponse>('POST', `/api/admin/bookings/${bookingId}/attendance`, { status }),
};

/** "Wed 25 Nov, 10:00 — Meera Pillai (Dr. Asha Mehta)": how the panel lists a booking a change touches. */
export function affectedLine(b: AffectedBookingDto): string {
  return `#${b.id} ${b.booking_date} ${b.booking_time_slot_start} — ${b.client_full_name || 'client'} (${b.therapist_name})`;
}
