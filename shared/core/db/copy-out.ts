import type { Duplex } from 'node:stream';
import type pg from './pg-types.ts';

/**
 * `COPY … TO STDOUT` through pg, which has no API of its own for it. pg-copy-streams, the usual add-on,
 * is not used: it makes a new buffer of every socket read, 14 MB more outside V8's heap for a year's
 * income list, which V8 counts towards its next full collection (docs/performance.md, issue 22).
 *
 * What pg publishes (and types) is half of what this needs: `client.query(submittable)` runs any object
 * with a `submit(connection)` as the client's active query, and `connection.stream` is its socket. The
 * other half is pg's contract with the queries it runs, which pg-cursor, pg-query-stream and
 * pg-copy-streams (all by pg's author) rely on: the client hands the active query the server's messages
 * by calling its handle… methods (lib/client.js: `activeQuery.handleCopyData(msg, connection)` and the
 * rest). That half is untyped, so it is confined to this file; tests/integration/copy-out.test.ts fails
 * if a version of pg stops calling these methods so (no rows, no end, or an error not reported).
 */
class CopyOutQuery implements pg.Submittable {
  readonly done: Promise<void>;
  private socket: Duplex | undefined;
  private paused = false;
  private settled = false;
  private resolve!: () => void;
  private reject!: (err: unknown) => void;

  private readonly text: string;
  private readonly onRow: (row: Buffer) => void;

  constructor(text: string, onRow: (row: Buffer) => void) {
    this.text = text;
    this.onRow = onRow;
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: pg.Connection): void {
    this.socket = connection.stream;
    if (this.paused) this.socket.pause();
    connection.query(this.text);
  }

  pause(): void {
    if (this.paused || this.settled) return;
    this.paused = true;
    this.socket?.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.socket?.resume();
  }

  // pg's CopyData message: one row, a view of pg's parser's buffer, good only until this returns.
  handleCopyData(message: { chunk: Buffer }): void {
    if (this.settled) return;
    try {
      this.onRow(message.chunk);
    } catch (err) {
      // Thrown here it would land in pg's socket handler; the copy goes on, its rows unread, until
      // the caller closes the connection.
      this.fail(err);
    }
  }

  handleCommandComplete(): void {}

  // The server's error, or the connection's: pg has let go of this query, and no ReadyForQuery follows.
  handleError(err: Error): void {
    this.fail(err);
  }

  handleReadyForQuery(): void {
    if (this.settle()) this.resolve();
  }

  private fail(err: unknown): void {
    if (this.settle()) this.reject(err);
  }

  /**
   * Marks the copy ended, once (true the first time). Its socket is the client's: never left paused,
   * or the client's next query would wait for an answer nobody reads (the end can be read with the
   * last rows, after a pause).
   */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.resume();
    return true;
  }
}

/**
 * A copy under way: `done` settles when it ends; `pause` holds it at its socket until `resume` or its
 * end.
 */
export type CopyOut = Pick<CopyOutQuery, 'done' | 'pause' | 'resume'>;

/**
 * Runs `text` (a `COPY … TO STDOUT`) on `client`, handing each row's bytes to `onRow` as pg parses them:
 * a view good only until `onRow` returns (copy what you keep). `done` resolves once PostgreSQL is ready
 * for the next query, and rejects with its error (the client is then ready again) or the connection's.
 * While paused, the socket is not read: rows already read still come, then PostgreSQL waits.
 */
export function copyOut(client: pg.ClientBase, text: string, onRow: (row: Buffer) => void): CopyOut {
  const query = new CopyOutQuery(text, onRow);
  client.query(query);
  return query;
}
