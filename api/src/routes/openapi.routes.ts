import { createHash } from 'node:crypto';
import { Router } from 'express';
import { buildOpenApiDocument } from '../../../shared/contract/openapi.ts';
import { centreNow } from '../../../shared/domain/time.ts';
import type { AppDeps } from '../deps.ts';

/**
 * GET /api/openapi.json: the API's OpenAPI 3.1 document, generated from shared/contract. Public and
 * the same for everyone (no secrets: it names the calls, never a key), so caches may keep it for an
 * hour; built once per process, on the first request, with an ETag for revalidation.
 */
export function openApiRoutes(deps: Pick<AppDeps, 'config' | 'now'>): Router {
  const r = Router();
  let built: { body: string; etag: string } | undefined;
  r.get('/api/openapi.json', (_req, res) => {
    if (!built) {
      const body = JSON.stringify(buildOpenApiDocument({ year: Number(centreNow(deps.now()).date.slice(0, 4)), serverUrl: deps.config.publicBaseUrl }));
      built = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    }
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.setHeader('ETag', built.etag);
    // res.send answers 304 itself when the request's If-None-Match is this ETag.
    res.type('application/json').send(built.body);
  });
  return r;
}
