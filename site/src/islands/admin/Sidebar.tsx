/** The admin side menu: Reports and Income (and the super-admin tools) only for super admins; Cash-up for every admin. */
import { useId, useState, type MouseEvent } from 'react';
import type { AdminUser } from '../../stores/admin-session.ts';
import { ADMIN_ROUTES } from '../../lib/admin-nav.ts';
import { adminApi } from '../../lib/admin-api.ts';

/** The queues page needs the token as a cookie first; a failure (e.g. 401) is handled by the client. */
function openQueues(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  void adminApi.openQueues().then(
    ({ url }) => window.location.assign(url),
    () => {},
  );
}

export type AdminRoute =
  | 'login'
  | 'dashboard'
  | 'calendar'
  | 'patients'
  | 'clients'
  | 'cash-up'
  | 'packages'
  | 'reports'
  | 'income'
  | 'audit-log'
  | 'therapists'
  | 'centre'
  | 'staff'
  | 'account'
  | 'set-password'
  | 'queues'
  | 'waitlist';

type Item = { key: string; label: string; href: string; superOnly?: boolean; routes: AdminRoute[]; external?: boolean };

const ITEMS: Item[] = [
  { key: 'dashboard', label: 'Dashboard', href: ADMIN_ROUTES.dashboard, routes: ['dashboard'] },
  { key: 'calendar', label: 'Calendar View', href: ADMIN_ROUTES.calendar, routes: ['calendar'] },
  { key: 'clients', label: 'Client List', href: ADMIN_ROUTES.patients, routes: ['patients', 'clients'] },
  { key: 'cash-up', label: 'Cash-up', href: ADMIN_ROUTES.cashUp, routes: ['cash-up'] },
  { key: 'waitlist', label: 'Waitlist', href: ADMIN_ROUTES.waitlist, routes: ['waitlist'] },
  { key: 'packages', label: 'Packages', href: ADMIN_ROUTES.packages, routes: ['packages'] },
  { key: 'reports', label: 'Reports', href: ADMIN_ROUTES.reports, routes: ['reports'], superOnly: true },
  { key: 'income', label: 'Income', href: ADMIN_ROUTES.income, routes: ['income'], superOnly: true },
  { key: 'audit', label: 'Audit Log', href: ADMIN_ROUTES.auditLog, routes: ['audit-log'], superOnly: true },
  { key: 'therapists', label: 'Therapists', href: ADMIN_ROUTES.therapists, routes: ['therapists'], superOnly: true },
  { key: 'centre', label: 'Centre', href: ADMIN_ROUTES.centre, routes: ['centre'], superOnly: true },
  { key: 'staff', label: 'Staff', href: ADMIN_ROUTES.staff, routes: ['staff'], superOnly: true },
  { key: 'queues', label: 'Job Queues', href: ADMIN_ROUTES.queues, routes: ['queues'], superOnly: true, external: true },
  { key: 'account', label: 'My Account', href: ADMIN_ROUTES.account, routes: ['account'] },
];

export function Sidebar(props: { route: AdminRoute; user: AdminUser; onLogout: () => void }) {
  const { route, user, onLogout } = props;
  const [open, setOpen] = useState(false);
  const navId = useId();
  const items = ITEMS.filter((i) => !i.superOnly || user.is_superadmin);
  return (
    <aside className="adm-sidebar">
      <div className="adm-sidebar__top">
        <a className="adm-brand" href={ADMIN_ROUTES.dashboard}>
          <span className="adm-brand__mark" aria-hidden="true">
            W
          </span>
          <span>Admin Panel</span>
        </a>
        <button type="button" className="adm-menu-toggle" aria-expanded={open} aria-controls={navId} onClick={() => setOpen((o) => !o)}>
          <span aria-hidden="true">{open ? '×' : '☰'}</span>
          <span className="visually-hidden">{open ? 'Close menu' : 'Open menu'}</span>
        </button>
      </div>
      <nav id={navId} aria-label="Admin" className={`adm-nav${open ? ' is-open' : ''}`}>
        <ul>
          {items.map((item) => {
            const current = item.routes.includes(route);
            return (
              <li key={item.key}>
                <a
                  href={item.href}
                  aria-current={current ? 'page' : undefined}
                  className={current ? 'is-current' : undefined}
                  onClick={item.key === 'queues' ? openQueues : undefined}
                >
                  {item.label}
                </a>
              </li>
            );
          })}
        </ul>
        <div className="adm-nav__foot">
          <p className="adm-user">
            Signed in as <strong>{user.username}</strong>
            {user.is_superadmin ? <span className="adm-user__role">Super admin</span> : null}
          </p>
          <button type="button" className="btn btn-secondary btn-block" onClick={onLogout}>
            Logout
          </button>
        </div>
      </nav>
    </aside>
  );
}
