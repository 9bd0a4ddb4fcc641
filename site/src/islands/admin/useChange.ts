/** A change made from an admin screen (save, add, remove): its outcome in words, then the screen read again. */
import { useState } from 'react';
import { errorMessage } from '../../lib/admin-api.ts';

export type RunChange = <R>(change: Promise<R>, ok: (answer: R) => string) => void;

/**
 * `run(change, ok)` clears the last outcome, then says `ok(answer)` (and calls `after`, which reads
 * the screen again) or why the change failed, `failed` when the server did not say.
 */
export function useChange(failed: string, after?: () => void): { message: string | null; failure: string | null; run: RunChange } {
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run: RunChange = (change, ok) => {
    setMessage(null);
    setFailure(null);
    change.then(
      (answer) => {
        setMessage(ok(answer));
        after?.();
      },
      (err: unknown) => setFailure(errorMessage(err, failed)),
    );
  };
  return { message, failure, run };
}
