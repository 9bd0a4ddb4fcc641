/**
 * Opens the job queues (Bull Board) for a typed or bookmarked /admin/queues: the board is a page of
 * its own, so the signed-in super admin's token becomes its cookie first, then the browser goes
 * there, once the board has answered with that cookie: a browser that did not keep it gets a
 * message here instead of going round between the two pages.
 */
import { useEffect, useState } from 'react';
import { adminApi, errorMessage } from '../../lib/admin-api.ts';
import { ADMIN_ROUTES, adminNav } from '../../lib/admin-nav.ts';
import { Loading } from './ui.tsx';

export default function OpenQueues() {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void (async () => {
      try {
        const { url } = await adminApi.openQueues();
        if (!(await adminApi.queuesCookieWorks())) {
          setError('The job queues did not accept the sign-in. Please allow cookies for this site, then try again.');
          return;
        }
        adminNav.replace(url);
      } catch (err) {
        setError(errorMessage(err, 'The job queues could not be opened.'));
      }
    })();
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
