/**
 * Opens the job queues (Bull Board) for a typed or bookmarked /admin/queues: the board is a page of
 * its own, so the signed-in super admin's token becomes its cookie first, then the browser goes
 * there, once the board has answered with that cookie: a browser that did not keep it gets a
 * message here instead of going round between the two pages.
 */
import { useEffect } from 'react';
import { adminApi, errorMessage } from '../../lib/admin-api.ts';
import { ADMIN_ROUTES, adminNav } from '../../lib/admin-nav.ts';
import { useQuery } from '../../lib/query.ts';
import { Loading } from './ui.tsx';

/** The board's address once it has taken the cookie; null when the browser did not keep it. */
async function openBoard(): Promise<string | null> {
  const { url } = await adminApi.openQueues();
  return (await adminApi.queuesCookieWorks()) ? url : null;
}

export default function OpenQueues() {
  const board = useQuery('open-queues', {}, openBoard);
  const error =
    board.data === null
      ? 'The job queues did not accept the sign-in. Please allow cookies for this site, then try again.'
      : board.error
        ? errorMessage(board.error, 'The job queues could not be opened.')
        : null;
  useEffect(() => {
    if (board.data) adminNav.replace(board.data);
  }, [board.data]);
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
