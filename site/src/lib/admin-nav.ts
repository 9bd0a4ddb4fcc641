/** Page navigation for the admin island, in one place so tests can observe it. */
export const adminNav = {
  go(url: string): void {
    window.location.assign(url);
  },
  replace(url: string): void {
    window.location.replace(url);
  },
};

export const ADMIN_ROUTES = {
  login: '/admin/login',
  dashboard: '/admin/dashboard',
  calendar: '/admin/calendar',
  patients: '/admin/patients',
  clients: '/admin/clients',
  reports: '/admin/Reports',
  income: '/admin/Income',
  auditLog: '/admin/audit-log',
  queues: '/admin/queues',
  therapists: '/admin/therapists',
  centre: '/admin/centre',
  staff: '/admin/staff',
  account: '/admin/account',
  setPassword: '/admin/set-password',
} as const;

export function clientsSearchUrl(name: string): string {
  return `${ADMIN_ROUTES.clients}?search=${encodeURIComponent(name)}`;
}
