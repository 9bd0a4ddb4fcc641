import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readAnswerHead, readHeaders } from '../../api/src/http/answer-head.ts';
import type { Encoding } from '../../shared/core/precompress.ts';
import { requestLog } from '../../api/src/middleware/request-log.ts';
import { inlineScriptHashes, pageSecurityPolicy, SECURITY_POLICY, securityHeaders } from '../../api/src/middleware/security-headers.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { htmlNotFound, staticSite } from '../../api/src/middleware/static-site.ts';

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
    expect(ours['content-security-policy']).toContain("script-src 'self';");
    expect(ours['content-security-policy']).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(ours['content-security-policy']).toMatch(/script-src-attr 'none'/);
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

/** A GET of `/` from a listening handler: status, headers (as sent, in order) and the raw bytes, nothing decoded. */
async function rawGet(handler: http.RequestListener, headers: Record<string, string>): Promise<{ status: number; headers: string[]; body: Buffer }> {
  const server = http.createServer(handler).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    return await new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', headers, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.rawHeaders, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  } finally {
    server.close();
  }
}

/** Header name and value pairs, lower-cased names, without those that differ between any two answers. */
const comparable = (raw: string[]) => {
  const pairs: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
  return pairs.filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)).sort(([a], [b]) => a.localeCompare(b));
};

describe('a public read’s headers, built in one place for both ways it leaves', () => {
  it.each([undefined, 'gzip', 'br'] as (Encoding | undefined)[])('the cached answer’s head equals the route’s headers (encoding %s)', async (encoding) => {
    const json = Buffer.from(JSON.stringify({ days: [{ date: '2026-11-24', slots: ['10:00', '11:00'] }] }));
    const body = encoding === 'br' ? brotliCompressSync(json) : encoding === 'gzip' ? gzipSync(json) : json;
    const etag = 'W/"2a-0123456789abcdefghijklmnopq"';
    // The route's way: requestLog and securityHeaders, then the read's own headers and res.send.
    const app = express();
    app.use(requestLog(createLogger({ level: 'silent' })));
    app.use(securityHeaders(SECURITY_POLICY));
    app.get('/', (_req, res) => {
      for (const [name, value] of readHeaders(etag, encoding)) res.setHeader(name, value);
      res.send(body);
    });
    // The cached answer's: one writeHead of the head laid out for it.
    const { removed, head } = readAnswerHead(SECURITY_POLICY);
    const early: http.RequestListener = (_req, res) => {
      for (const name of removed) res.removeHeader(name);
      res.writeHead(200, head('trace-0004-xyz', etag, encoding, body.length));
      res.end(body);
    };
    const asked = { 'x-request-id': 'trace-0004-xyz' };
    const [viaRoute, viaHead] = [await rawGet(app, asked), await rawGet(early, asked)];
    expect([viaHead.status, viaHead.body]).toEqual([viaRoute.status, viaRoute.body]);
    expect(comparable(viaHead.headers)).toEqual(comparable(viaRoute.headers));
    expect(Object.fromEntries(comparable(viaHead.headers))).toMatchObject({
      'x-request-id': 'trace-0004-xyz',
      etag,
      'content-type': 'application/json; charset=utf-8',
      vary: 'Accept-Encoding',
      'content-length': String(body.length),
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
  });
});

const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const LOADER = '(()=>{var e=async t=>{await(await t())()};(self.Astro||(self.Astro={})).only=e;})();';

describe('a built page allows its own inline scripts by hash, and nothing inline else', () => {
  it('hashes the text of each inline script exactly, skips scripts with a src', () => {
    const html = `<html><head><script type="module" src="/_astro/x.js"></script><script>${LOADER}</script></head><body><script>\n  window.location.replace('/admin/login');\n</script><script>${LOADER}</script></body></html>`;
    expect(inlineScriptHashes(html)).toEqual([sha(LOADER), sha("\n  window.location.replace('/admin/login');\n")].sort());
    const csp = pageSecurityPolicy(html);
    expect(csp).toContain(`script-src 'self' ${inlineScriptHashes(html).join(' ')};`);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it('staticSite and the 404 page send that policy with each page, and a rebuilt page gets its new hashes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'site-csp-'));
    try {
      await writeFile(path.join(dir, 'index.html'), `<!doctype html><script>${LOADER}</script>`);
      await writeFile(path.join(dir, '404.html'), `<!doctype html><script>let missing = 1;</script>`);
      const app = express();
      app.use(securityHeaders(SECURITY_POLICY));
      app.use(staticSite(dir));
      app.use(htmlNotFound(dir));
      const home = await request(app).get('/').expect(200);
      expect(home.headers['content-security-policy']).toContain(`script-src 'self' ${sha(LOADER)};`);
      const missing = await request(app).get('/nowhere').set('Accept', 'text/html').expect(404);
      expect(missing.headers['content-security-policy']).toContain(`script-src 'self' ${sha('let missing = 1;')};`);

      await writeFile(path.join(dir, 'index.html'), `<!doctype html><script>let rebuilt = 2;</script>`);
      await utimes(path.join(dir, 'index.html'), new Date(), new Date(Date.now() + 5_000));
      const again = await request(app).get('/').expect(200);
      expect(again.headers['content-security-policy']).toContain(`script-src 'self' ${sha('let rebuilt = 2;')};`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
