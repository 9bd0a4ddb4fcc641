import { randomUUID } from 'node:crypto';
import express, { type Request } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Redis } from 'ioredis';
import type { Config } from '../../shared/core/config.ts';
import type { Db } from '../../shared/core/db/client.ts';
import type { Logger } from '../../shared/core/logger.ts';
import type { Actor } from '../../shared/core/services/booking.service.ts';
import { errorHandler, notFound } from './middleware/errors.ts';
import { htmlNotFound, staticSite } from './middleware/static-site.ts';
import { healthRoutes } from './routes/health.routes.ts';
import { publicRoutes } from './routes/public.routes.ts';

export type AppDeps = {
  config: Config;
  db: Db;
  redis: Pick<Redis, 'ping'>;
  logger: Logger;
  /** The clock; tests pin it. */
  now: () => Date;
  /** Astro's build output; served after the API routes when present. */
  siteDir?: string;
  /** Resolves an admin bearer token to an actor; absent until admin sign-in exists. */
  authenticateAdmin?: (req: Request) => Promise<Actor | undefined>;
};

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Builds the Express app without listening, so tests can import it. */
export function buildApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'simple');

  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Astro's island loader is an inline script; everything else comes from this origin.
          'script-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:'],
        },
      },
    }),
  );
  app.use(express.json({ limit: '32kb', strict: true }));
  app.use(express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 20 }));

  app.use(healthRoutes(deps));
  app.use(publicRoutes(deps));

  if (deps.siteDir) {
    app.use(staticSite(deps.siteDir));
    app.use(htmlNotFound(deps.siteDir));
  }
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
