import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding, compressAnswers } from '../../api/src/http/compress.ts';
import { precompressSite } from '../../shared/core/precompress.ts';
import { staticSite } from '../../api/src/middleware/static-site.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { ReadCache } from '../../shared/core/services/read-cache.service.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';

let database: TestDatabase;
let cache: ReadCache;
let cached: ReturnType<typeof testApp>;
let uncached: ReturnType<typeof testApp>;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  cache = new ReadCache(database.url, createLogger({ level: 'silent' }));
  await cache.start();
  const now = fixedClock(MONDAY_MORNING_IST).now;
  cached = testApp(database, { now, readCache: cache });
  uncached = testApp(database, { now });
});
afterAll(async () => {
  await cache.stop();
  await database.drop();
});

type Raw = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** The bytes of an answer exactly as sent: supertest's client would undo the compression itself. */
async function raw(app: Pick<ReturnType<typeof testApp>, 'listen'>, path: string, acceptEncoding: string | undefined): Promise<Raw> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<Raw>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path, headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  } finally {
    server.close();
  }
}

const decode = (res: Raw): string => {
  const encoding = res.headers['content-encoding'];
  return (encoding === 'br' ? brotliDecompressSync(res.body) : encoding === 'gzip' ? gunzipSync(res.body) : res.body).toString('utf8');
};

describe('compressed answers', () => {
  it('chooses Brotli, then gzip, and honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('gzip;q=0')).toBeUndefined();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0, identity')).toBeUndefined();
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
    // Asked again (a header seen before is answered from memory), the same choices.
    for (const [header, chosen] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip;q=0', undefined],
      ['identity', undefined],
      [['gzip;q=0', 'br'], 'br'],
      [`${'x;q=1, '.repeat(60)}gzip`, 'gzip'],
    ] as const) {
      expect(chooseEncoding(header as string | string[])).toBe(chosen);
      expect(chooseEncoding(header as string | string[])).toBe(chosen);
    }
  });

  it('a cached public read goes out in the encoding asked for, the same JSON in each, varying by Accept-Encoding', async () => {
    for (const app of [cached, uncached]) {
      for (const path of ['/therapists', '/api/slots?therapist_id=1']) {
        await request(app).get(path).expect(200); // fills the cache
        const plain = await raw(app, path, undefined);
        expect(plain.status).toBe(200);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.headers.vary).toMatch(/Accept-Encoding/);
        const json = decode(plain);
        expect(json.length).toBeGreaterThan(1024);
        for (const [asked, sent] of [
          ['gzip, deflate, br', 'br'],
          ['gzip', 'gzip'],
          ['br;q=0, gzip', 'gzip'],
          ['gzip;q=0', undefined],
        ] as const) {
          const res = await raw(app, path, asked);
          expect(res.status).toBe(200);
          expect(res.headers['content-encoding']).toBe(sent);
          expect(res.headers.vary).toMatch(/Accept-Encoding/);
          expect(decode(res)).toBe(json);
          if (sent) expect(res.body.length).toBeLessThan(json.length / 2);
        }
      }
    }
  });

  it('other answers are compressed as they are written over 1 KB; small ones are not', async () => {
    const big = await raw(uncached, '/availability-slots', 'gzip, br');
    const small = await raw(uncached, '/healthz', 'gzip, br');
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode(big))).toEqual(expect.any(Array));
    expect(decode(big).length).toBeGreaterThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(decode(small))).toEqual(expect.any(Object));
  });
});

describe('the built site, pre-compressed', () => {
  let dir: string;
  let site: express.Express;
  const script = `export const steps = [${Array.from({ length: 400 }, (_, i) => `"step ${i}"`).join(',')}];\n`;
  const page = `<!doctype html><html><head><title>Book</title></head><body>${'<p>Book a session with a therapist.</p>'.repeat(80)}</body></html>`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'site-'));
    mkdirSync(path.join(dir, '_astro'));
    mkdirSync(path.join(dir, 'book'));
    writeFileSync(path.join(dir, '_astro', 'wizard.abc123.js'), script);
    writeFileSync(path.join(dir, 'book', 'index.html'), page);
    writeFileSync(path.join(dir, 'tiny.css'), 'body{margin:0}');
    writeFileSync(path.join(dir, 'photo.png'), Buffer.alloc(4096, 7));
    expect(await precompressSite(dir)).toBe(2);
    site = express();
    site.use(compressAnswers());
    site.use(staticSite(dir));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes .br and .gz beside text files over 1 KB only', () => {
    for (const f of ['_astro/wizard.abc123.js', 'book/index.html']) {
      expect(existsSync(path.join(dir, `${f}.br`))).toBe(true);
      expect(existsSync(path.join(dir, `${f}.gz`))).toBe(true);
    }
    expect(existsSync(path.join(dir, 'tiny.css.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'photo.png.br'))).toBe(false);
  });

  it('serves the stored variant the browser accepts, with the original type and caching', async () => {
    for (const [asked, sent] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
      ['br;q=0, gzip;q=0', undefined],
    ] as const) {
      const js = await raw(site, '/_astro/wizard.abc123.js', asked);
      expect(js.status).toBe(200);
      expect(js.headers['content-encoding']).toBe(sent);
      expect(js.headers['content-type']).toMatch(/javascript/);
      expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(js.headers.vary).toMatch(/Accept-Encoding/);
      expect(decode(js)).toBe(script);
      if (sent) expect(js.body.length).toBeLessThan(script.length / 3);

      const html = await raw(site, '/book', asked);
      expect(html.status).toBe(200);
      expect(html.headers['content-encoding']).toBe(sent);
      expect(html.headers['content-type']).toMatch(/^text\/html/);
      expect(html.headers['cache-control']).toBe('no-cache');
      expect(html.headers['content-security-policy']).toMatch(/script-src/);
      expect(decode(html)).toBe(page);
    }
  });

  it('does not serve the variants as files of their own, nor anything outside the site', async () => {
    expect((await raw(site, '/_astro/wizard.abc123.js.br', 'br')).status).toBe(404);
    expect((await raw(site, '/book/index.html.gz', 'gzip')).status).toBe(404);
    expect((await raw(site, '/..%2f..%2fetc%2fpasswd', 'br')).status).toBe(404);
  });
});
