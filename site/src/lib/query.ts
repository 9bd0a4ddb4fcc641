/**
 * The admin screens' one data-fetching layer: loading, error and refresh state for what a screen
 * reads from the API, on @nanostores/query. A screen says what it wants (a name and the parameters
 * of the request) and how to fetch it; the layer fetches again when the parameters change, draws only
 * the answer for the parameters now asked (a late answer for an old page or filter is dropped), and
 * fetches again on `refresh()`.
 */
import { nanoquery, type FetcherValue } from '@nanostores/query';
import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { useCallback, useEffect, useId, useState } from 'react';

type CacheEntry = { data?: unknown; error?: unknown; retryCount?: number; created?: number; expires?: number };

/** A screen's keys all start `name#instance#`; what follows is its request's parameters. */
const screenOf = (key: string) => key.slice(0, key.indexOf('#', key.indexOf('#') + 1) + 1);

/**
 * One answer per screen on the page: the latest. An answer is fetched again whenever the screen asks
 * for other parameters (another page, a filter, the version after an action) or refreshes, never
 * taken from an earlier visit; the one kept is the one it shows, so the cache does not grow with
 * every page looked at, and a closed screen's answer goes with it.
 */
class LatestAnswerPerScreen extends Map<string, CacheEntry> {
  private readonly closed = new Set<string>();
  override set(key: string, entry: CacheEntry): this {
    const screen = screenOf(key);
    // An answer arriving after its screen closed is not kept.
    if (this.closed?.has(screen)) return this;
    for (const other of this.keys()) if (other !== key && other.startsWith(screen)) this.delete(other);
    return super.set(key, entry);
  }
  close(screen: string): void {
    this.closed.add(screen);
    for (const key of this.keys()) if (key.startsWith(screen)) this.delete(key);
  }
}

const cache = new LatestAnswerPerScreen();
const [createFetcherStore] = nanoquery({
  cache,
  // A request's answer is its screen's until the screen asks again (refresh() always fetches); a
  // failure waits for Retry rather than retrying behind the screen's error message; and no refetch
  // on focus or reconnect, so nothing changes under the receptionist's pointer.
  dedupeTime: Infinity,
  cacheLifetime: Infinity,
  onErrorRetry: false,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
});

export type Query<T> = {
  /** The latest answer; while a new one loads, the one before it (none after a failure). */
  data: T | undefined;
  /** Why the latest request failed, or null. */
  error: unknown;
  loading: boolean;
  /** Fetch the same request again (after an action, or from a Retry button). */
  refresh: () => void;
};

/** What a screen with nothing to fetch yet reads. */
const $idle = atom<FetcherValue>({ loading: false });

/**
 * What a screen reads: `params` (null: nothing to fetch yet) and `load`, which gets them. `load` is
 * taken from the first render and must depend on nothing but its parameters: what it needs goes in
 * `params`, so that a change of it is a new request.
 */
export function useQuery<P, T>(name: string, params: P | null, load: (params: P) => Promise<T>): Query<T> {
  // One instance's requests are its own: a key names the instance, so two screens (or two tests)
  // never share an answer.
  const screen = `${name}#${useId()}#`;
  const [loadParams] = useState(() => load);
  useEffect(() => () => cache.close(screen), [screen]);
  const key = params === null ? null : JSON.stringify(params);
  // A store per request: the screen listens only to the one for what it now asks, so a late answer
  // for other parameters is never drawn. A new request starts after the screen has drawn what led to
  // it (an action's message, a new page's buttons), as a request made from an effect would.
  const open = useCallback(
    (k: string | null) =>
      k === null ? null : createFetcherStore<T>([screen, k], { fetcher: (...parts: unknown[]) => loadParams(JSON.parse(String(parts[1])) as P) }),
    [screen, loadParams],
  );
  const [current, setCurrent] = useState(() => ({ key, $query: open(key) }));
  useEffect(() => {
    if (current.key !== key) setCurrent({ key, $query: open(key) });
  }, [current.key, key, open]);
  const { $query } = current;
  const { data, error, loading } = useStore<FetcherValue<T>>($query ?? $idle);

  // What was shown stays while the next answer loads (another page, or a refresh after an action),
  // so a table does not empty and refill; a failure clears it.
  const [shown, setShown] = useState<T | undefined>(data);
  if (data !== undefined && data !== shown) setShown(data);
  if (error !== undefined && shown !== undefined) setShown(undefined);

  return { data: data ?? (error === undefined ? shown : undefined), error: error ?? null, loading, refresh: () => $query?.revalidate() };
}
