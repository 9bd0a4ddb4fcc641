import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * Focus follows navigation: when the client moves to another step, the new step's heading takes
 * focus (so screen readers announce it and keyboard users start at the top of the step). The
 * first render after a page load does not steal focus.
 */
let focusPending = false;
export function requestHeadingFocus(): void {
  focusPending = true;
}

export function StepHeading({ children, id }: { children: ReactNode; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusPending && ref.current) {
      focusPending = false;
      ref.current.focus();
    }
  }, []);
  return (
    <h2 ref={ref} id={id} tabIndex={-1} className="step-title">
      {children}
    </h2>
  );
}

export function NavButtons({
  onBack,
  onContinue,
  continueDisabled = false,
  continueLabel = 'Continue',
  continueType = 'button',
}: {
  onBack?: (() => void) | undefined;
  onContinue?: (() => void) | undefined;
  continueDisabled?: boolean;
  continueLabel?: string;
  continueType?: 'button' | 'submit';
}) {
  return (
    <div className="wizard-nav">
      {onBack ? (
        <button type="button" className="btn btn-secondary" onClick={onBack}>
          Back
        </button>
      ) : (
        <span />
      )}
      {(onContinue || continueType === 'submit') && (
        <button type={continueType} className="btn btn-primary" disabled={continueDisabled} onClick={onContinue}>
          {continueLabel}
        </button>
      )}
    </div>
  );
}

export function Loading({ text }: { text: string }) {
  return (
    <div className="state-view" role="status">
      <span className="spinner" aria-hidden="true" />
      <p>{text}</p>
    </div>
  );
}

export function StateView({
  title,
  children,
  tone = 'neutral',
  alert = false,
}: {
  title: string;
  children?: ReactNode;
  tone?: 'neutral' | 'error';
  alert?: boolean;
}) {
  const id = useId();
  return (
    <section className={`state-view state-view--${tone}`} role={alert ? 'alert' : undefined} aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

export type Loadable<T> = { status: 'loading' } | { status: 'error'; error: Error } | { status: 'done'; data: T };

/** Loads data for a step; `key` changes reload it. Late answers for an old key are dropped. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loadable<T> & { reload: () => void } {
  const [state, setState] = useState<Loadable<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: key and attempt are the triggers (other data, Try again); the loader is read through its ref.
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    loadRef.current().then(
      (data) => live && setState({ status: 'done', data }),
      (error: unknown) => live && setState({ status: 'error', error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}

/** Caches a catalogue call for the page's lifetime; a failed call is forgotten so Retry works. */
export function cached<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => {
    p ??= fn().catch((e: unknown) => {
      p = undefined;
      throw e;
    });
    return p;
  };
}

/** A refusal beside the button that caused it, in the server's words, read out as it appears. */
export function ErrorBeside({ message }: { message: string }) {
  return (
    <div className="manage-error" aria-live="assertive" aria-atomic="true">
      {message && (
        <p className="notice notice--error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
