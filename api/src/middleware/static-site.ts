import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, type Response } from 'express';
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
 * slash, so extension-less paths are looked up as directories first. Hashed assets are immutable.
 */
export function staticSite(dir: string): RequestHandler {
  const serve = express.static(dir, {
    index: 'index.html',
    redirect: false,
    dotfiles: 'ignore',
    setHeaders: (res, file, stat) => {
      // Its inline scripts (Astro's island loader) are allowed by hash, for this page only.
      if (file.endsWith('.html')) setPagePolicy(res, file, stat);
      const immutable = file.includes(`${path.sep}_astro${path.sep}`);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
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
