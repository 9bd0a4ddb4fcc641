/**
 * Every answer the integration tests receive from testApp is checked against the contract: the
 * route table (shared/contract/routes.ts) that the OpenAPI document is built from. The bytes are
 * taken as they leave (after compression, so the cached early answer of the public reads is seen
 * too), decoded, and the JSON validated with the zod schema the document lists for that route and
 * status; a 4xx or 5xx with the error schema. Failures are recorded here and fail the test file
 * (tests/support/contract-setup.ts, the integration project's setup file).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Express } from 'express';
import type { z } from 'zod';
import { routeMatcher } from '../../shared/contract/openapi.ts';
import { errorBodySchema } from '../../shared/contract/public.ts';
import { apiRoutes, type ApiRoute } from '../../shared/contract/routes.ts';

export type ContractFailure = { call: string; status: number; problem: string };

/** What did not match, in the order seen; the setup file reports and clears it after each file. */
export const contractFailures: ContractFailure[] = [];
/** How many JSON answers were checked (the report says so, so an empty check is visible). */
export const contractChecked = { count: 0 };

const routes = apiRoutes(2026);
/** The route a call is for (path without its query), if the table lists it. */
export const findRoute = routeMatcher(routes);

/** The schema an answer must match: the route's own for the status, else the error body for 4xx/5xx. */
export function schemaFor(route: ApiRoute, status: number): { schema?: z.ZodType; media?: string } | undefined {
  const answer = route.responses[status];
  if (answer) return 'json' in answer ? { schema: answer.json } : { media: answer.media };
  if (status >= 400) return { schema: errorBodySchema };
  return undefined;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding) {
    case 'gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      return body;
  }
}

/**
 * The field paths and messages of a failed parse: never the values (they may be a client's details).
 * A union that matched no option says why its nearest option failed.
 */
export function issuesOf(error: z.ZodError): string {
  return describe(error.issues, []);
}

function describe(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): string {
  return issues
    .slice(0, 5)
    .map((i) => {
      const path = [...prefix, ...i.path];
      if (i.code === 'invalid_union' && i.errors.length > 0) {
        // The nearest option: one the answer has the shape of (not refused outright), then the fewest problems.
        const cost = (option: readonly z.core.$ZodIssue[]) => (option.some((o) => o.path.length === 0 && o.code === 'invalid_type') ? 1e6 : 0) + option.length;
        const nearest = i.errors.reduce((a, b) => (cost(b) < cost(a) ? b : a));
        return describe(nearest, path);
      }
      return `${path.join('.') || '(root)'}: ${i.message}${i.code === 'unrecognized_keys' ? ` (${i.keys.join(', ')})` : ''}`;
    })
    .join('; ');
}

function check(method: string, url: string, res: ServerResponse, chunks: Buffer[], header: (name: string) => string): void {
  const status = res.statusCode;
  if (method === 'HEAD' || status === 204 || status === 304) return;
  const path = url.split('?')[0]!;
  const route = findRoute(method, path);
  if (!route) return;
  const call = `${method} ${route.path}`;
  const fail = (problem: string): void => void contractFailures.push({ call, status, problem });
  const expected = schemaFor(route, status);
  if (!expected) {
    fail(`status ${status} is not in the document`);
    return;
  }
  const type = header('content-type');
  const isJson = /^application\/json\b/.test(type);
  if (!expected.schema) {
    if (isJson) fail(`answered JSON where the document says ${expected.media}`);
    return;
  }
  if (!isJson) {
    fail(`answered ${type || 'no content type'} where the document says application/json`);
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(decode(Buffer.concat(chunks), header('content-encoding') || undefined).toString('utf8'));
  } catch (err) {
    fail(`the body is not JSON (${(err as Error).message})`);
    return;
  }
  contractChecked.count++;
  const parsed = expected.schema.safeParse(body);
  if (!parsed.success) fail(issuesOf(parsed.error));
}

function watch(req: IncomingMessage, res: ServerResponse): void {
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else chunks.push(Buffer.from(chunk as Uint8Array));
  };
  // The cached early answer passes its headers to writeHead as a flat list, which getHeader does not see.
  const direct = new Map<string, string>();
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((a) => Array.isArray(a) || (typeof a === 'object' && a !== null));
    const pairs: [unknown, unknown][] = Array.isArray(headers)
      ? headers.flatMap((_, i) => (i % 2 === 0 ? [[headers[i], headers[i + 1]] as [unknown, unknown]] : []))
      : Object.entries((headers ?? {}) as Record<string, unknown>);
    for (const [name, value] of pairs) direct.set(String(name).toLowerCase(), String(value));
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  const write = res.write;
  const end = res.end;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse['end'];
  res.once('finish', () => check(method, url, res, chunks, (name) => String(res.getHeader(name) ?? direct.get(name) ?? '')));
}

/** Watches every answer of an app built by testApp; returns the same app. */
export function checkAnswers<T extends Express>(app: T): T {
  // Express's app function calls app.handle, and so does an app it is mounted in: one place sees all.
  type Handle = (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  const target = app as unknown as { handle: Handle };
  const handle = target.handle.bind(app);
  target.handle = (req, res, next) => {
    watch(req, res);
    return handle(req, res, next);
  };
  return app;
}
