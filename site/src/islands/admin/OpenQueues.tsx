/**
 * Opens the job queues (Bull Board) for a typed or bookmarked /admin/queues: the board is a page of
 * its own, so the signed-in super admin's token becomes its cookie first, then the browser goes
 * there. A second arrival within moments means the browser did not keep the cookie: no loop, a message.
 */
import { useEffect, useState } from 'react';
import { adminApi, errorMessage } from '../../lib/admin-api.ts';
import { ADMIN_ROUTES, adminNav } from '../../lib/admin-nav.ts';
import { Loading } from './ui.tsx';

const ATTEMPT_KEY = 'adminQueuesOpenedAt';
const RETRY_WINDOW_MS = 10_000;

export default function OpenQueues() {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const last = Number(sessionStorage.getItem(ATTEMPT_KEY) ?? 0);
    if (Date.now() - last < RETRY_WINDOW_MS) {
      sessionStorage.removeItem(ATTEMPT_KEY);
      setError('The job queues did not accept the sign-in. Please allow cookies for this site, then try again.');
      return;
    }
    adminApi.openQueues().then(
      ({ url }) => {
        sessionStorage.setItem(ATTEMPT_KEY, String(Date.now()));
        adminNav.replace(url);
      },
      (err: unknown) => setError(errorMessage(err, 'The job queues could not be opened.')),
    );
  }, []);
  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Job Queues</h1>
          <p className="muted">The queues open in their own page.</p>
        </div>
      </header>
      {error ? (
        <div className="adm-error card" role="alert">
          <p>{error}</p>
          <p>
            <a href={ADMIN_ROUTES.queues}>Try again</a> · <a href={ADMIN_ROUTES.dashboard}>Back to the dashboard</a>
          </p>
        </div>
      ) : (
        <Loading label="Opening the job queues..." />
      )}
    </div>
  );
}
