import { AppError } from '../../../shared/core/errors.ts';

/**
 * The whole income / inventory list is copied out of PostgreSQL as it is sent, so each download holds
 * one of the pool's connections for as long as its reader takes (issue 32: twenty unread downloads
 * held twenty, and every other call waited out the pool and answered 503). So, per API process:
 * - at most `concurrent` whole lists at once; the next is a 429 with Retry-After, before any
 *   connection is taken;
 * - a download whose reader takes nothing for `stallMs` is ended (stallTimer), and its connection
 *   given back.
 * Pages of the list (`page`, `page_size`) are short queries and are not counted.
 */
export const WHOLE_LIST_LIMITS = { concurrent: 2, stallMs: 30_000 };

export const WHOLE_LIST_BUSY = 'Two full lists are being downloaded right now. Please try again in a minute, or ask for it page by page.';

export class WholeListGate {
  private running = 0;
  readonly concurrent: number;
  readonly stallMs: number;

  constructor(limits: { concurrent?: number; stallMs?: number } = {}) {
    this.concurrent = limits.concurrent ?? WHOLE_LIST_LIMITS.concurrent;
    this.stallMs = limits.stallMs ?? WHOLE_LIST_LIMITS.stallMs;
  }

  /** A place for one download, or a 429; the returned function gives the place back (once). */
  enter(): () => void {
    if (this.running >= this.concurrent) throw new AppError('rate_limited', WHOLE_LIST_BUSY, undefined, { retryAfterSeconds: 30 });
    this.running++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running--;
    };
  }
}
