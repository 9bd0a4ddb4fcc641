/**
 * The dashboard's "needs attention" sections (Payments needing attention, Jobs that failed): one
 * frame for a list the admins work through, with its heading and open count, the message of the last
 * action beside it, and its loading, error (with Retry) and empty states. Each section brings its
 * own items and actions.
 */
import { useId, type ReactNode } from 'react';
import { errorMessage } from '../../lib/admin-api.ts';
import { useQuery } from '../../lib/query.ts';
import { Loading, Notice, type NoticeMessage } from './ui.tsx';

/**
 * A section's answer from the server, through the panel's data layer (lib/query.ts): fetched on
 * mount and whenever `params` change, and again when `load` is called. Loading is shown only until
 * the first answer, so a reload after an action keeps the list in place.
 */
export function useAttentionList<P, T>(name: string, params: P, fetch: (params: P) => Promise<T>, failedMessage: string) {
  const query = useQuery(name, params, fetch);
  const loading = query.data === undefined && query.error == null;
  const error = query.error == null ? null : errorMessage(query.error, failedMessage);
  return { data: query.data ?? null, loading, error, load: query.refresh };
}

export function AttentionPanel(props: {
  title: string;
  /** Open items, for the badge beside the heading. */
  openCount: number;
  /** What the last action said, and its kind, shown beside the list until dismissed. */
  message: NoticeMessage | null;
  onDismissMessage: () => void;
  loading: boolean;
  loadingLabel: string;
  error: string | null;
  onRetry: () => void;
  /** Shown instead of the list when nothing is open. */
  emptyText: string;
  /** Under the heading, before the list (e.g. what to do about an item). */
  intro?: ReactNode;
  /** The open items (a list), rendered when loaded, without error and with something open. */
  children: ReactNode;
  /** After the open items when loaded without error (e.g. what was resolved recently). */
  after?: ReactNode;
  className?: string;
}) {
  const headingId = useId();
  const { title, openCount, message, onDismissMessage, loading, loadingLabel, error, onRetry, emptyText, intro, children, after, className } = props;
  return (
    <section className={`adm-panel card adm-attn${className ? ` ${className}` : ''}`} aria-labelledby={headingId}>
      <div className="adm-panel__head">
        <h2 id={headingId}>{title}</h2>
        {openCount > 0 ? <span className="adm-badge adm-badge--red">{openCount} open</span> : null}
      </div>
      {intro}
      {/* Beside the list whose action it reports; a polite live region even while empty. */}
      <Notice message={message} onDismiss={onDismissMessage} />
      {loading ? (
        <Loading label={loadingLabel} />
      ) : error ? (
        <div className="adm-attn__error" role="alert">
          <p className="error-text">{error}</p>
          <button type="button" className="btn btn-sm btn-secondary" onClick={onRetry}>
            Retry
          </button>
        </div>
      ) : openCount === 0 ? (
        <p className="adm-empty">{emptyText}</p>
      ) : (
        children
      )}
      {!loading && !error ? after : null}
    </section>
  );
}
