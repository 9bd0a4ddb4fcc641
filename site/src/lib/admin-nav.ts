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
  cashUp: '/admin/cash-up',
  waitlist: '/admin/waitlist',
  packages: '/admin/packages',
  auditLog: '/admin/audit-log',
  queues: '/admin/queues',
  therapists: '/admin/therapists',
  centre: '/admin/centre',
  staff: '/admin/staff',
  account: '/admin/account',
  setPassword: '/admin/set-password',
  /** The panel's page that opens the board for a typed or bookmarked /admin/queues. */
  openQueues: '/admin/open-queues',
} as const;

/**
 * Where to go after signing in: `next` when it is one of the panel's own pages (never another
 * site's address), else the dashboard.
 */
export function afterSignIn(search: string): string {
  const next = new URLSearchParams(search).get('next');
  const pages: string[] = Object.values(ADMIN_ROUTES).filter((p) => p !== ADMIN_ROUTES.login);
  return next && pages.includes(next) ? next : ADMIN_ROUTES.dashboard;
}

export function clientsSearchUrl(name: string): string {
  return `${ADMIN_ROUTES.clients}?search=${encodeURIComponent(name)}`;
}
