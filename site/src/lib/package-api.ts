/**
 * The panel's calls for packages of sessions (issue 34): packages (super admins define them), sales at
 * the desk, a sale's credits, extension and refund (super admins), the report. Types from the contract.
 */
import type { DeskPaymentMethod } from '../../../shared/contract/admin.ts';
import type { PackageDto, PackageSaleDto, PackageSaleListItem, PackagesReport } from '../../../shared/contract/packages.ts';
import { call } from './catalogue-api.ts';

export type { PackageDto, PackageSaleDto, PackageSaleListItem, PackagesReport };

/** What the package form sends (rupees). */
export type PackageBody = {
  name: string;
  sessions_count: number;
  price: number;
  validity_days: number;
  session_types: ('ONLINE' | 'OFFLINE')[];
  therapist_ids: number[];
  is_active: boolean;
};

type Saved<K extends string, T> = { [k in K]: T } & { message: string };

const query = (params: Record<string, string | undefined>) => {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) sp.set(k, v);
  const s = sp.toString();
  return s ? `?${s}` : '';
};

export const packageApi = {
  packages: (activeOnly = false) => call<PackageDto[]>('GET', `/api/admin/packages${activeOnly ? '?active=true' : ''}`),
  createPackage: (body: PackageBody) => call<Saved<'package', PackageDto>>('POST', '/api/admin/packages', body),
  updatePackage: (id: number, body: Partial<PackageBody>) => call<Saved<'package', PackageDto>>('PATCH', `/api/admin/packages/${id}`, body),
  sales: (q: { q?: string; status?: PackageSaleDto['status'] } = {}) =>
    call<PackageSaleListItem[]>('GET', `/api/admin/package-sales${query({ q: q.q, status: q.status })}`),
  sell: (body: { package_id: number; client_full_name: string; client_email: string; client_mobile: string; payment_method: DeskPaymentMethod }) =>
    call<Saved<'sale', PackageSaleDto>>('POST', '/api/admin/package-sales', body),
  sale: (id: number) => call<PackageSaleDto>('GET', `/api/admin/package-sales/${id}`),
  extend: (id: number, expiresOn: string, reason: string) =>
    call<Saved<'sale', PackageSaleDto>>('POST', `/api/admin/package-sales/${id}/extend`, { expires_on: expiresOn, ...(reason ? { reason } : {}) }),
  refund: (id: number, method: DeskPaymentMethod | undefined) =>
    call<{ sale: PackageSaleDto; refund: { amount: number; sessions: number; status: string }; message: string }>(
      'POST',
      `/api/admin/package-sales/${id}/refund`,
      method ? { method } : {},
    ),
  report: (from: string, to: string) => call<PackagesReport>('GET', `/api/admin/reports/packages${query({ from, to })}`),
};
