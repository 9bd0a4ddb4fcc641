/**
 * The dashboard's "needs attention" sections (Payments needing attention, Jobs that failed): one
 * frame for a list the admins work through, with its heading and open count, the message of the last
 * action beside it, and its loading, error (with Retry) and empty states. Each section brings its
 * own items and actions.
 */
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { errorMessage } from '../../lib/admin-api.ts';
import { Loading, Notice } from './ui.tsx';

/** A section's answer from the server: loaded on mount, and again whenever `load` is called. */
export function useAttentionList<T>(fetch: () => Promise<T>, failedMessage: string) {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    setError(null);
    try {
      setData(await fetch());
    } catch (err) {
      setError(errorMessage(err, failedMessage));
    } finally {
      setLoading(false);
    }
  }, [fetch, failedMessage]);
  useEffect(() => {
    void load();
  }, [load]);
  return { data, loading, error, load };
}

export function AttentionPanel(props: {
  title: string;
  /** Open items, for the badge beside the heading. */
  openCount: number;
  /** What the last action said, shown beside the list until dismissed. */
  message: string | null;
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
