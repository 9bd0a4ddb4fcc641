import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

const SCRIPT_SRC = ["'self'"];
const DIRECTIVES = { 'img-src': ["'self'", 'data:'] };

/**
 * The security headers of every answer: helmet's defaults, with the images the pages need. Scripts
 * only from this origin, never inline: a site page's own inline scripts (Astro's island loader) are
 * allowed by their hashes, in the header staticSite sets on that page (pageSecurityPolicy).
 */
export const SECURITY_POLICY: HelmetOptions = {
  contentSecurityPolicy: { directives: { 'script-src': SCRIPT_SRC, ...DIRECTIVES } },
};

/**
 * The CSP source of each inline script of an HTML page: 'sha256-…' of its text exactly as written,
 * which is what the browser hashes. A script element ends at the first </script, as in the browser.
 * Scripts with a src are this origin's files; data blocks (JSON) are hashed too, harmlessly.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script/gi)) {
    if (/\ssrc\s*=/i.test(` ${attrs}`)) continue;
    hashes.add(
      `'sha256-${createHash('sha256')
        .update(body ?? '', 'utf8')
        .digest('base64')}'`,
    );
  }
  return [...hashes].sort();
}

/** The Content-Security-Policy of a built page: SECURITY_POLICY's, with that page's inline scripts allowed by hash. */
export function pageSecurityPolicy(html: string): string {
  const { headers } = securityHeaderList({
    contentSecurityPolicy: { directives: { 'script-src': [...SCRIPT_SRC, ...inlineScriptHashes(html)], ...DIRECTIVES } },
  });
  const csp = headers.find(([name]) => name.toLowerCase() === 'content-security-policy');
  if (!csp) throw new Error('helmet set no Content-Security-Policy');
  return csp[1];
}

/**
 * helmet's headers for these options, worked out once, in the order helmet sets them, with the headers
 * helmet removes. None of them depends on the request here (no CSP nonces), so running helmet's chain of
 * a dozen middlewares per request only cost time and garbage.
 */
export function securityHeaderList(options: HelmetOptions): { headers: [string, string][]; removed: string[] } {
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  if (directives.some((v) => typeof v === 'function' || (Array.isArray(v) && v.some((x) => typeof x === 'function')))) {
    throw new Error('securityHeaders: a CSP directive is worked out per request (a function); use helmet itself');
  }
  const headers: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  let finished = false;
  helmet(options)({} as Request, recorder as unknown as Response, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not set its headers synchronously; they may depend on the request');
  return { headers, removed };
}

/**
 * Sets helmet's headers for these options on every response (worked out once, set per response). A
 * public read answered ahead of Express lays out the same list in its head (api/src/http/answer-head.ts).
 */
export function securityHeaders(options: HelmetOptions): RequestHandler {
  const { headers, removed } = securityHeaderList(options);
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
