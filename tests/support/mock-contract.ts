/**
 * The component tests' fetch doubles answer as the API would: every mocked answer is checked against
 * the route table (shared/contract/routes.ts) as the integration tests check the server's real ones
 * (contract-check.ts): the JSON of a route's status against its schema, an error status against the
 * error body, a file route's answer not JSON. A mock that drifts from the contract fails its test
 * (mock-contract-setup.ts, the components project's setup file), with the call and what is wrong.
 */
import { ADMIN_ROUTES } from '../../site/src/lib/admin-nav.ts';
import { findRoute, issuesOf, schemaFor } from './contract-check.ts';

/** What did not match since the last test ended. */
export const mockFailures: string[] = [];

/** Checks one mocked answer (a copy of it: the caller's is left unread). */
async function check(method: string, url: URL, res: Response): Promise<void> {
  const status = res.status;
  if (method === 'HEAD' || status === 204 || status === 304) return;
  // Bull Board's own API, under the board's page: not this API's, so not in its table.
  if (url.pathname.startsWith(`${ADMIN_ROUTES.queues}/`)) return;
  const route = findRoute(method, url.pathname);
  const call = `${method} ${route?.path ?? url.pathname}`;
  const fail = (problem: string) => void mockFailures.push(`${call} → ${status}: ${problem}`);
  if (!route) return fail('the route table has no such call');
  const isJson = /^application\/json\b/.test(res.headers.get('Content-Type') ?? '');
  // A gateway's own error page (the API down behind the proxy) is not the API's answer.
  if (status >= 500 && !isJson) return;
  const expected = schemaFor(route, status);
  if (!expected) return fail(`status ${status} is not in the route table`);
  if (!expected.schema) return isJson ? fail(`answered JSON where the route answers ${expected.media}`) : undefined;
  if (!isJson) return fail(`answered ${res.headers.get('Content-Type') || 'no content type'} where the route answers JSON`);
  let body: unknown;
  try {
    body = JSON.parse(await res.text());
  } catch (err) {
    return fail(`the body is not JSON (${(err as Error).message})`);
  }
  const parsed = expected.schema.safeParse(body);
  if (!parsed.success) fail(issuesOf(parsed.error));
}

/** A fetch double whose every answer is checked against the contract; `answer` makes the Response. */
export function contractFetch(answer: (input: RequestInfo | URL, init?: RequestInit) => Response | Promise<Response>) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const res = await answer(input, init);
    await check((init?.method ?? 'GET').toUpperCase(), new URL(String(input), 'http://localhost'), res.clone());
    return res;
  };
}

/** A JSON answer as the API sends it. */
export const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
