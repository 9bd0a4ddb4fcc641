import { useEffect, useRef } from 'react';
import { $booking, setStep } from '../../stores/booking.ts';
import { requestHeadingFocus } from './common.tsx';
import type { Screen } from './flow.ts';

/** What a wizard step's history entry carries: its step, and the step of the entry before it. */
type Entry = { wizardStep?: unknown; wizardPrev?: unknown };

const entry = (): Entry | null => (typeof history.state === 'object' ? (history.state as Entry | null) : null);

/** The page's address for a screen: `?step=therapist`; the first screen has the plain address. */
function urlFor(screen: Screen): string {
  const u = new URL(location.href);
  if (screen === 'type') u.searchParams.delete('step');
  else u.searchParams.set('step', screen);
  return `${u.pathname}${u.search}`;
}

/**
 * Each wizard step is a history entry with its own address, so the browser's (and Android's) Back
 * goes to the previous step and Forward returns. The store stays the truth: an entry only says
 * which step to show. The wizard's own Back button, when the entry before is that very step, goes
 * back through history instead of piling up entries. Returns that Back.
 */
export function useStepHistory(step: number, screen: Screen | 'processing', previous: number): () => void {
  const mounted = useRef(false);
  /** A history.back() on its way to this step: no entry is pushed for it. */
  const travelling = useRef<number | null>(null);

  useEffect(() => {
    // Redirecting to the checkout is no step of its own: Back from there returns to the payment step.
    if (screen === 'processing') return;
    const url = urlFor(screen);
    const current = entry();
    if (!mounted.current || current?.wizardStep === step) {
      mounted.current = true;
      history.replaceState({ ...(current ?? {}), wizardStep: step }, '', url);
      return;
    }
    if (travelling.current === step) return;
    history.pushState({ wizardStep: step, wizardPrev: current?.wizardStep }, '', url);
  }, [step, screen]);

  useEffect(() => {
    const onPop = (e: PopStateEvent) => {
      travelling.current = null;
      const to = (e.state as Entry | null)?.wizardStep;
      if (typeof to !== 'number' || to === $booking.get().currentStep) return;
      requestHeadingFocus();
      setStep(to);
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  return () => {
    requestHeadingFocus();
    const current = entry();
    if (current?.wizardStep === step && current.wizardPrev === previous) {
      travelling.current = previous;
      history.back();
    }
    setStep(previous);
  };
}
