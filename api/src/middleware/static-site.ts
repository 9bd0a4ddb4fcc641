import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { ENCODED_SUFFIX, PRECOMPRESSIBLE, type Encoding } from '../../../shared/core/precompress.ts';
import { chooseEncoding } from '../http/compress.ts';
import { pageSecurityPolicy } from './security-headers.ts';

/**
 * Each page's Content-Security-Policy, by file and modification time: read once, and again when a
 * new build replaced the page (`npm start` builds the site after the API started).
 */
const pagePolicies = new Map<string, { mtimeMs: number; csp: string }>();

function setPagePolicy(res: Response, file: string, stat: Pick<Stats, 'mtimeMs'>): void {
  let cached = pagePolicies.get(file);
  if (!cached || cached.mtimeMs !== stat.mtimeMs) {
    cached = { mtimeMs: stat.mtimeMs, csp: pageSecurityPolicy(readFileSync(file, 'utf8')) };
    pagePolicies.set(file, cached);
  }
  res.setHeader('Content-Security-Policy', cached.csp);
}

function cacheControl(res: Response, file: string): void {
  const immutable = file.includes(`${path.sep}_astro${path.sep}`);
  res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/** A request for the stored variants themselves (x.js.br) is not a page of the site. */
const ENCODED_FILE = /\.(br|gz)$/i;

/**
 * The built file a request names, and its pre-compressed variant in the encoding the client accepts
 * (written by the build, shared/core/precompress.ts), when there is one. Only inside `dir`, never a
 * dotfile, like express.static.
 */
function encodedVariant(dir: string, req: Request): { file: string; encoded: string; encoding: Encoding } | undefined {
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  if (!encoding) return undefined;
  let relative: string;
  try {
    relative = decodeURIComponent(req.path);
  } catch {
    return undefined;
  }
  if (relative.includes('\0') || relative.split('/').some((part) => part.startsWith('.'))) return undefined;
  let file = path.join(dir, relative);
  if (!file.startsWith(dir + path.sep)) return undefined;
  if (relative.endsWith('/')) file = path.join(file, 'index.html');
  if (!PRECOMPRESSIBLE.test(file)) return undefined;
  const encoded = file + ENCODED_SUFFIX[encoding];
  try {
    if (!statSync(encoded).isFile() || !statSync(file).isFile()) return undefined;
  } catch {
    return undefined;
  }
  return { file, encoded, encoding };
}

/**
 * Addresses the spec links to that differ from a page's own only in letter case (the sidebar links
 * /admin/Reports for the page at /admin/reports). A build cannot hold both as folders: on a
 * case-insensitive disk (macOS, Windows) they are one folder, so a checkout or build there would lose
 * a page. Each page is built once, under its lower-case name, and its other spelling is a redirect.
 * Matched with its exact case, since on such a disk the static lookup would match either spelling.
 */
export const PAGE_ALIASES: ReadonlyMap<string, string> = new Map([
  ['/admin/Reports', '/admin/reports'],
  ['/admin/Income', '/admin/income'],
]);

/**
 * Serves Astro's static build. Astro writes /about as about/index.html; requests arrive without the
 * slash, so extension-less paths are looked up as directories first. Hashed assets are immutable. A
 * browser that accepts Brotli or gzip gets the build's pre-compressed file, with the original's type.
 */
export function staticSite(dir: string): RequestHandler {
  const root = path.resolve(dir);
  const serve = express.static(dir, {
    index: 'index.html',
    redirect: false,
    dotfiles: 'ignore',
    setHeaders: (res, file, stat) => {
      // Its inline scripts (Astro's island loader) are allowed by hash, for this page only.
      if (file.endsWith('.html')) setPagePolicy(res, file, stat);
      if (PRECOMPRESSIBLE.test(file)) res.setHeader('Vary', 'Accept-Encoding');
      cacheControl(res, file);
    },
  });
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const original = req.url;
    const alias = PAGE_ALIASES.get(req.path.endsWith('/') ? req.path.slice(0, -1) : req.path);
    if (alias) {
      res.redirect(301, alias + original.slice(req.path.length));
      return;
    }
    if (!path.extname(req.path) && !req.path.endsWith('/')) {
      const query = original.slice(req.path.length);
      req.url = `${req.path}/${query}`;
    }
    if (ENCODED_FILE.test(req.path)) {
      req.url = original;
      return next();
    }
    const variant = encodedVariant(root, req);
    if (variant) {
      const { file, encoded, encoding } = variant;
      req.url = original;
      if (file.endsWith('.html')) setPagePolicy(res, file, statSync(file));
      cacheControl(res, file);
      res.type(path.extname(file));
      res.setHeader('Content-Encoding', encoding);
      res.setHeader('Vary', 'Accept-Encoding');
      res.sendFile(encoded, (err?: Error & { code?: string }) => {
        // A browser that went away (a page left while its scripts loaded) is not an error of ours.
        if (!err || err.code === 'ECONNABORTED' || req.destroyed) return;
        if (!res.headersSent) next(err);
      });
      return;
    }
    serve(req, res, () => {
      req.url = original;
      next();
    });
  };
}

/** The site's own 404 page for browsers; JSON for everything else. */
export function htmlNotFound(dir: string): RequestHandler {
  const page = path.join(dir, '404.html');
  return (req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && req.accepts(['json', 'html']) === 'html' && existsSync(page)) {
      setPagePolicy(res, page, statSync(page));
      res.status(404).setHeader('Cache-Control', 'no-cache').sendFile(page);
      return;
    }
    next();
  };
}
