/**
 * "Jobs that failed" (every admin, on the dashboard): each background job that failed for good — a
 * meeting link, an e-mail, a reminder — said in words, with where to retry it (Job Queues, super
 * admins) and "Mark resolved" once it has been dealt with. Open ones first; a resolved one says who
 * resolved it, or that a later retry succeeded.
 */
import { useStore } from '@nanostores/react';
import { useState, type ReactNode } from 'react';
import { adminApi, errorMessage, type JobFailure } from '../../lib/admin-api.ts';
import { DEFAULT_PAGE_SIZE, formatInstant } from '../../lib/admin-format.ts';
import { ADMIN_ROUTES } from '../../lib/admin-nav.ts';
import { $adminSession } from '../../stores/admin-session.ts';
import { AttentionPanel, useAttentionList } from './AttentionPanel.tsx';
import { Pager, type NoticeMessage } from './ui.tsx';

const attemptsText = (n: number) => (n === 1 ? '1 attempt' : `${n} attempts`);

function Item(props: { item: JobFailure; action?: ReactNode }) {
  const { item, action } = props;
  return (
    <li className="adm-attn__item">
      <div className="adm-attn__body">
        <p className="adm-attn__what">{item.summary}</p>
        {item.resolved_at ? (
          <p className="adm-attn__resolution">
            <span className="adm-badge adm-badge--green">Resolved</span>
            <span className="muted">
              {' '}
              — {item.resolved_by ? `by ${item.resolved_by}` : 'a later retry succeeded'}, {formatInstant(item.resolved_at)}
            </span>
          </p>
        ) : null}
        <dl className="adm-attn__facts">
          <div>
            <dt>Failed</dt>
            <dd>{formatInstant(item.failed_at)}</dd>
          </div>
          <div>
            <dt>Tried</dt>
            <dd>{attemptsText(item.attempts)}</dd>
          </div>
          <div>
            <dt>Job</dt>
            <dd className="adm-attn__job">
              {item.queue} · {item.job_id}
            </dd>
          </div>
        </dl>
      </div>
      {action ? <div className="adm-attn__actions">{action}</div> : null}
    </li>
  );
}

export default function JobFailures() {
  const session = useStore($adminSession);
  const superadmin = !!session?.user.is_superadmin;
  const [page, setPage] = useState(1);
  const { data, loading, error, load } = useAttentionList(
    'job-failures',
    { page },
    (p) => adminApi.jobFailures(p.page, DEFAULT_PAGE_SIZE),
    'Failed to load the jobs that failed.',
  );
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  async function resolve(item: JobFailure) {
    setBusy(item.id);
    try {
      setMessage({ text: (await adminApi.resolveJobFailure(item.id)).message, kind: 'success' });
    } catch (err) {
      setMessage({ text: errorMessage(err, 'Unknown error'), kind: 'error' });
    } finally {
      setBusy(null);
      // Resolved or refused (a 409: someone resolved it meanwhile), the list shows how things now stand.
      await load();
    }
  }

  const items = data?.items ?? [];
  const open = items.filter((i) => !i.resolved_at);
  const resolved = items.filter((i) => i.resolved_at);
  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;

  return (
    <AttentionPanel
      title="Jobs that failed"
      openCount={data?.open ?? 0}
      message={message}
      onDismissMessage={() => setMessage(null)}
      loading={loading}
      loadingLabel="Loading the jobs that failed..."
      error={error}
      onRetry={() => void load()}
      emptyText="No job has failed."
      intro={
        <p className="muted adm-attn__intro">
          {superadmin ? (
            <>
              Retry a failed job in <a href={ADMIN_ROUTES.openQueues}>Job Queues</a>, then mark it resolved.
            </>
          ) : (
            'A super admin can retry a failed job in Job Queues; mark it resolved once it has been dealt with.'
          )}
        </p>
      }
      after={
        <>
          {resolved.length > 0 ? (
            <>
              <h3 className="adm-subhead">Resolved</h3>
              <ul className="adm-attn__list adm-attn__list--resolved" aria-label="Failed jobs resolved">
                {resolved.map((item) => (
                  <Item key={item.id} item={item} />
                ))}
              </ul>
            </>
          ) : null}
          <Pager page={page} totalPages={totalPages} onPage={setPage} label="Jobs that failed" />
        </>
      }
    >
      {open.length > 0 ? (
        <ul className="adm-attn__list" aria-label="Open failed jobs">
          {open.map((item) => (
            <Item
              key={item.id}
              item={item}
              action={
                <button
                  type="button"
                  className="btn btn-sm btn-primary"
                  disabled={busy !== null}
                  aria-label={`Mark failed job ${item.id} resolved`}
                  onClick={() => void resolve(item)}
                >
                  {busy === item.id ? 'Saving...' : 'Mark resolved'}
                </button>
              }
            />
          ))}
        </ul>
      ) : null}
    </AttentionPanel>
  );
}
