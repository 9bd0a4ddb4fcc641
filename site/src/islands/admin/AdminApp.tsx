/**
 * The admin island. One per admin page (client:only), told which screen to show. On start it reads
 * the stored session and applies the access rules of spec section 2: signed-out visitors go to
 * /admin/login, signed-in admins on /admin/login go to the dashboard.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $adminSession, clearSession, loadSession, storedToken } from '../../stores/admin-session.ts';
import { adminApi } from '../../lib/admin-api.ts';
import { ADMIN_ROUTES, adminNav, afterSignIn } from '../../lib/admin-nav.ts';
import { MESSAGES } from '../../lib/admin-format.ts';
import { Sidebar, type AdminRoute } from './Sidebar.tsx';
import { Loading } from './ui.tsx';

const Login = lazy(() => import('./Login.tsx'));
const Dashboard = lazy(() => import('./Dashboard.tsx'));
const Calendar = lazy(() => import('./Calendar.tsx'));
const Patients = lazy(() => import('./Patients.tsx'));
const Clients = lazy(() => import('./Clients.tsx'));
const Reports = lazy(() => import('./Reports.tsx'));
const CashUp = lazy(() => import('./CashUp.tsx'));
const Waitlist = lazy(() => import('./Waitlist.tsx'));
const Packages = lazy(() => import('./Packages.tsx'));
const Income = lazy(() => import('./Income.tsx'));
const AuditLog = lazy(() => import('./AuditLog.tsx'));
const Therapists = lazy(() => import('./Therapists.tsx'));
const Centre = lazy(() => import('./Centre.tsx'));
const Staff = lazy(() => import('./Staff.tsx'));
const Account = lazy(() => import('./Account.tsx'));
const SetPassword = lazy(() => import('./SetPassword.tsx'));
const OpenQueues = lazy(() => import('./OpenQueues.tsx'));

const SUPER_ONLY: AdminRoute[] = ['reports', 'income', 'audit-log', 'therapists', 'centre', 'staff', 'queues'];

export type ScreenProps = { onLogout: () => void };

function Screen({ route, onLogout }: { route: AdminRoute } & ScreenProps) {
  switch (route) {
    case 'dashboard':
      return <Dashboard onLogout={onLogout} />;
    case 'calendar':
      return <Calendar onLogout={onLogout} />;
    case 'patients':
      return <Patients />;
    case 'clients':
      return <Clients onLogout={onLogout} />;
    case 'cash-up':
      return <CashUp />;
    case 'waitlist':
      return <Waitlist />;
    case 'packages':
      return <Packages />;
    case 'reports':
      return <Reports />;
    case 'income':
      return <Income />;
    case 'audit-log':
      return <AuditLog />;
    case 'therapists':
      return <Therapists />;
    case 'centre':
      return <Centre />;
    case 'staff':
      return <Staff />;
    case 'account':
      return <Account />;
    case 'queues':
      return <OpenQueues />;
    default:
      return null;
  }
}

export default function AdminApp(props: { route: AdminRoute; onLogout?: () => void }) {
  const { route, onLogout: parentLogout } = props;
  const [checked, setChecked] = useState(false);
  const session = useStore($adminSession);

  useEffect(() => {
    // The set-password link works without a session (the link is the proof).
    if (route === 'set-password') return setChecked(true);
    const s = loadSession();
    if (route === 'login' && s) adminNav.replace(afterSignIn(window.location.search));
    // The job queues were asked for by address: back to them after signing in.
    else if (route === 'queues' && !s) adminNav.replace(`${ADMIN_ROUTES.login}?next=${encodeURIComponent(ADMIN_ROUTES.openQueues)}`);
    else if (route !== 'login' && !s) adminNav.replace(ADMIN_ROUTES.login);
    else setChecked(true);
  }, [route]);

  const logout = useCallback(() => {
    // The token goes with the request before the session is cleared; the panel does not wait for the
    // answer, so a slow or failed sign-out still leaves this browser signed out.
    void adminApi.logout(storedToken());
    clearSession();
    parentLogout?.();
    adminNav.replace(ADMIN_ROUTES.login);
  }, [parentLogout]);

  if (!checked) return <Loading />;
  if (route === 'set-password') {
    return (
      <Suspense fallback={<Loading />}>
        <SetPassword />
      </Suspense>
    );
  }
  if (route === 'login') {
    return (
      <Suspense fallback={<Loading />}>
        <Login />
      </Suspense>
    );
  }
  if (!session) return <Loading />;

  const refused = SUPER_ONLY.includes(route) && !session.user.is_superadmin;
  return (
    <div className="adm-shell">
      <Sidebar route={route} user={session.user} onLogout={logout} />
      <main id="main" className="adm-main" tabIndex={-1}>
        {refused ? (
          <div className="adm-page">
            <header className="adm-page__head">
              <h1>Access denied</h1>
            </header>
            <div className="adm-error card" role="alert">
              <p>{MESSAGES.forbidden}</p>
              <p>
                <a href={ADMIN_ROUTES.dashboard}>Back to the dashboard</a>
              </p>
            </div>
          </div>
        ) : (
          <Suspense fallback={<Loading />}>
            <Screen route={route} onLogout={logout} />
          </Suspense>
        )}
      </main>
    </div>
  );
}
