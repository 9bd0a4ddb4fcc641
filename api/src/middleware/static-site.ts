import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';

/**
 * Serves Astro's static build. Astro writes /about as about/index.html; requests arrive without the
 * slash, so extension-less paths are looked up as directories first. Hashed assets are immutable.
 */
export function staticSite(dir: string): RequestHandler {
  const serve = express.static(dir, {
    index: 'index.html',
    redirect: false,
    dotfiles: 'ignore',
    setHeaders: (res, file) => {
      const immutable = file.includes(`${path.sep}_astro${path.sep}`);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const original = req.url;
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
      res.status(404).setHeader('Cache-Control', 'no-cache').sendFile(page);
      return;
    }
    next();
  };
}
