import type { Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/** The site's security headers: helmet's defaults, with the scripts and images the pages need. */
export const SECURITY_POLICY: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      // Astro's island loader is an inline script; everything else comes from this origin.
      'script-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
    },
  },
};

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

/** Sets helmet's headers for these options on every response. */
export function securityHeaders(options: HelmetOptions): RequestHandler {
  const { headers, removed } = securityHeaderList(options);
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
