import compression from 'compression';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULL_BOARD_PATH } from '../../api/src/bull-board.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '../../shared/contract/openapi.ts';
import { testApp, testConfig } from '../support/app.ts';
import { checkAnswers, contractChecked, contractFailures } from '../support/contract-check.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

/**
 * The OpenAPI document (GET /api/openapi.json) against the app itself: every route Express registers
 * is in it, and it has OpenAPI 3.1's shape. That every answer matches it is checked for every
 * integration test by tests/support/contract-check.ts.
 */

/**
 * What the document leaves out on purpose, by Express path, and why. Anything else registered and
 * undocumented fails the test below.
 */
const NOT_IN_THE_DOCUMENT: Record<string, string> = {
  'GET /sandbox/checkout/:id': "The sandbox payments provider's stand-in checkout page (HTML), mounted only with PAYMENTS_PROVIDER=sandbox",
  'POST /sandbox/checkout/:id/pay': 'The sandbox checkout\'s "Pay" form; answers a redirect, sandbox only',
  'POST /sandbox/checkout/:id/fail': 'The sandbox checkout\'s "Fail" form; answers a redirect, sandbox only',
};
type Layer = {
  name?: string;
  slash?: boolean;
  matchers?: ((path: string) => unknown)[];
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
};

/**
 * Every METHOD path Express will route, walking nested routers. Routers mounted at '/' are read; a
 * router or app mounted under a path hides that prefix from the walk, so each must be named: only Bull
 * Board is (its own page and JSON under /admin/queues, behind the super-admin guard, not this API).
 * The static site and its HTML 404 are plain middleware, not routes, and are not listed.
 */
function registeredRoutes(app: Express): { routes: string[]; hidden: string[] } {
  const routes: string[] = [];
  const hidden: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) routes.push(`${method.toUpperCase()} ${layer.route.path}`);
        continue;
      }
      // A router shows its stack; a mounted Express app (Express names its layer mounted_app) does not.
      const router = layer.handle?.stack;
      if (!router && layer.name !== 'mounted_app') continue;
      if (router && layer.slash) walk(router);
      else if (!layer.matchers?.some((m) => m(`${BULL_BOARD_PATH}/`))) hidden.push(layer.name ?? '(anonymous)');
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return { routes, hidden };
}

/** Express 5's `:param` and `*splat` are OpenAPI's `{param}`. */
const openApiPath = (expressPath: string) => expressPath.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

let database: TestDatabase;
let app: Express;
let doc: OpenApiDocument;

beforeAll(async () => {
  database = await createTestDatabase();
  // Everything a deployment can mount: WhatsApp's webhook, the sandbox checkout, Bull Board, the site.
  const whatsapp = {
    token: 'wa-token-kept-secret',
    phoneNumberId: '1',
    appSecret: 'wa-app-secret-kept-secret',
    verifyToken: 'wa-verify-token-kept-secret',
    templateName: 'session_reminder',
    templateLanguage: 'en',
    paymentLinkTemplateName: 'payment_link',
    paymentLinkTemplateLanguage: 'en',
    waitlistTemplateName: 'waitlist_offer',
    waitlistTemplateLanguage: 'en',
    graphUrl: 'http://127.0.0.1:9',
    graphVersion: 'v26.0',
    retryDelayMs: 60_000,
  };
  app = testApp(database, {
    config: { ...testConfig, whatsapp },
    payments: { name: 'sandbox' } as never,
    jobs: { queues: {} } as never,
    siteDir: '/nonexistent-site',
  });
  doc = buildOpenApiDocument({ year: 2026 });
});

afterAll(async () => {
  await database?.drop();
});

describe('the OpenAPI document', () => {
  it('lists every route the app registers, except those named with a reason', () => {
    const { routes, hidden } = registeredRoutes(app);
    expect(hidden).toEqual([]);
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((r) => {
      if (NOT_IN_THE_DOCUMENT[r]) return false;
      const [method, path] = r.split(' ') as [string, string];
      return !doc.paths[openApiPath(path)]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
    // And the exclusions are still real routes: a stale one would hide nothing and say something false.
    expect(Object.keys(NOT_IN_THE_DOCUMENT).filter((r) => !routes.includes(r))).toEqual([]);
  });

  it('documents no route the app lacks', () => {
    const registered = new Set(
      registeredRoutes(app).routes.map((r) => {
        const [method, path] = r.split(' ') as [string, string];
        return `${method} ${openApiPath(path)}`;
      }),
    );
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.filter((r) => !registered.has(r))).toEqual([]);
  });

  it('has the shape of OpenAPI 3.1', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    const schemas = doc.components.schemas;
    const operationIds = new Set<string>();
    const text = JSON.stringify(doc);
    // Every $ref points into components, at a schema that is there.
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(schemas[ref!.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
    expect(text).not.toContain('$defs');
    for (const [path, ops] of Object.entries(doc.paths)) {
      expect(path).toMatch(/^\/[A-Za-z0-9_./{}-]*$/);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(ops)) {
        expect(['get', 'post', 'put', 'patch', 'delete']).toContain(method);
        const operation = op as {
          operationId: string;
          summary: string;
          responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
          parameters?: { name: string; in: string; required: boolean }[];
          security?: unknown[];
        };
        expect(operationIds.has(operation.operationId), operation.operationId).toBe(false);
        operationIds.add(operation.operationId);
        expect(operation.summary).toBeTruthy();
        // Every path parameter is declared, required, and nothing else claims to be in the path.
        const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path');
        expect(pathParams.map((p) => p.name).sort(), `${method} ${path}`).toEqual([...templated].sort());
        for (const p of pathParams) expect(p.required).toBe(true);
        for (const p of operation.parameters ?? []) expect(['path', 'query', 'header']).toContain(p.in);
        // Answers: a success, the error answers, each with a description and a schema.
        const statuses = Object.keys(operation.responses);
        expect(
          statuses.some((s) => /^2\d\d$/.test(s)),
          `${method} ${path}`,
        ).toBe(true);
        expect(statuses).toEqual(expect.arrayContaining(['4XX', '5XX']));
        for (const s of statuses) expect(s).toMatch(/^([1-5]\d\d|[1-5]XX)$/);
        for (const answer of Object.values(operation.responses)) {
          expect(answer.description).toBeTruthy();
          for (const media of Object.values(answer.content ?? {})) expect(media.schema).toBeTypeOf('object');
        }
        for (const requirement of operation.security ?? []) {
          for (const scheme of Object.keys(requirement as object)) expect(doc.components.securitySchemes[scheme]).toBeDefined();
        }
      }
    }
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['detail'] });
  });

  it("catches an answer that is not the document's, compressed or not, and names the field (the harness's own check)", async () => {
    const liar = express();
    liar.get('/healthz', (_req, res) => void res.json({ status: 'fine', extra: 1 }));
    liar.get('/readyz', (_req, res) => void res.status(503).json({ status: 'ready', checks: {} }));
    liar.get('/locations', (_req, res) => void res.status(418).json({ message: 'no detail' }));
    liar.use(compression({ threshold: 0 }));
    liar.get('/services', (_req, res) => void res.json([{ id: 'one', name: 'x' }]));
    checkAnswers(liar);
    const before = contractChecked.count;
    await request(liar).get('/healthz').expect(200);
    await request(liar).get('/readyz').expect(503);
    await request(liar).get('/locations').expect(418);
    await request(liar).get('/services').set('Accept-Encoding', 'gzip').expect(200);
    const found = contractFailures.splice(0);
    expect(contractChecked.count - before).toBe(4);
    expect(found.map((f) => `${f.call} ${f.status}`)).toEqual(['GET /healthz 200', 'GET /readyz 503', 'GET /locations 418', 'GET /services 200']);
    expect(found[0]!.problem).toContain('status');
    expect(found[0]!.problem).toContain('extra');
    expect(found[2]!.problem).toContain('detail');
    expect(found[3]!.problem).toContain('0.id');
  });

  it('is served at GET /api/openapi.json to anyone, cacheable, revalidated by its ETag', async () => {
    const res = await request(app).get('/api/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(Object.keys(doc.paths));
    // No secret of the configuration is in it.
    for (const secret of [testConfig.jwtSecret, 'kept-secret']) expect(res.text).not.toContain(secret);
    await request(app).get('/api/openapi.json').set('If-None-Match', res.headers.etag!).expect(304);
  });
});
