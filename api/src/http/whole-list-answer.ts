import type { Writable } from 'node:stream';
import type { Request, Response } from 'express';
import type { ListOut } from '../../../shared/core/services/income.service.ts';
import { encodedAnswer } from './compress.ts';
import type { WholeListGate } from './whole-list-gate.ts';

const LEFT = 'the client left before the whole list was sent';

/**
 * Answers with a whole list (the income / inventory list: JSON carrying client names and phones, so no
 * cache may keep it) that `write` writes to the ListOut it is given as the list is read, through
 * `gate` (a 429 when it is full, before anything is read). The answer starts (its headers, its
 * compression: encodedAnswer) at the first write, so a failure before it (no database) is answered as
 * any other error; a list ended without a write before (the empty one) goes whole, as any small answer.
 * Each write resolves once its bytes were taken in; a reader that takes nothing for the gate's stall
 * time is let go, and with it the connection. A failure once the list is under way cuts the answer
 * short; a client who left is no failure of ours (the access log records the answer as aborted).
 */
export async function sendWholeList(req: Request, res: Response, gate: WholeListGate, write: (out: ListOut) => Promise<void>): Promise<void> {
  const leave = gate.enter();
  res.once('close', leave);
  res.status(200);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  let stream: Writable | undefined;
  let left = false;
  // The write under way: settled when the stream took its bytes, or the client left.
  let waiting: ((err?: Error | null) => void) | undefined;
  const settle = (err?: Error | null) => {
    const w = waiting;
    waiting = undefined;
    w?.(err);
  };
  res.once('close', () => {
    left = true;
    settle(new Error(LEFT));
  });
  const out: ListOut = {
    write: (bytes) =>
      new Promise<void>((resolve, reject) => {
        if (left) return reject(new Error(LEFT));
        if (!stream) {
          stream = encodedAnswer(req, res);
          res.flushHeaders();
        }
        const stalled = setTimeout(() => res.destroy(), gate.stallMs);
        waiting = (err) => {
          clearTimeout(stalled);
          if (err) reject(err);
          else resolve();
        };
        stream.write(bytes, settle);
      }),
    end: (bytes) => (stream ? stream.end(bytes) : res.end(bytes)),
  };
  try {
    await write(out);
  } catch (err) {
    if (left) return;
    if (res.headersSent) res.destroy(err as Error);
    throw err;
  }
}
