import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { SECURITY_POLICY, securityHeaders } from '../../api/src/middleware/security-headers.ts';

const appWith = (middleware: express.RequestHandler) => {
  const app = express();
  app.use(middleware);
  app.get('/', (_req, res) => res.json({ ok: true }));
  return app;
};

const headersOf = async (app: express.Express) => {
  const { headers } = await request(app).get('/').expect(200);
  const { date: _date, etag: _etag, ...rest } = headers;
  return rest;
};

describe('security headers', () => {
  it('are exactly the headers helmet sets for the same policy, on every answer', async () => {
    const ours = await headersOf(appWith(securityHeaders(SECURITY_POLICY)));
    expect(ours).toEqual(await headersOf(appWith(helmet(SECURITY_POLICY))));
    expect(ours['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    expect(ours['content-security-policy']).toContain("img-src 'self' data:");
    expect(ours['x-content-type-options']).toBe('nosniff');
    expect(ours['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(ours['x-powered-by']).toBeUndefined();
    // A second answer gets them too: they are set per response, not once.
    expect(await headersOf(appWith(securityHeaders(SECURITY_POLICY)))).toEqual(ours);
  });

  it('refuses a policy whose headers would depend on the request', () => {
    const nonce = () => "'nonce-abc'";
    expect(() => securityHeaders({ contentSecurityPolicy: { directives: { 'script-src': ["'self'", nonce] } } })).toThrow(/per request/);
  });
});
