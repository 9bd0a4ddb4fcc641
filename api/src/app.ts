import { randomUUID } from 'node:crypto';
import express, { type Request, type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Redis } from 'ioredis';
import type { Config } from '../../shared/core/config.ts';
import type { Db } from '../../shared/core/db/client.ts';
import type { Logger } from '../../shared/core/logger.ts';
import type { Actor } from '../../shared/core/services/booking.service.ts';
import type { JobsClient } from '../../shared/core/jobs/queues.ts';
import type { PaymentsProvider } from '../../shared/core/providers/payments/payments.provider.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { mountBullBoard } from './bull-board.ts';
import { errorHandler, notFound } from './middleware/errors.ts';
import { paymentRoutes } from './routes/payment.routes.ts';
import { sandboxRoutes } from './routes/sandbox.routes.ts';
import { healthRoutes } from './routes/health.routes.ts';
import { publicRoutes } from './routes/public.routes.ts';

export type AppDeps = {
  config: Config;
  db: Db;
  redis: Pick<Redis, 'ping'>;
  logger: Logger;
  /** The clock; tests pin it. */
  now: () => Date;
  /** Resolves an admin bearer token to an actor; absent until admin sign-in exists. */
  authenticateAdmin?: (req: Request) => Promise<Actor | undefined>;
  /** BullMQ producers; POST /api/payment/generate-link waits on its job through them. */
  jobs?: JobsClient;
  /** The payments provider (razorpay or sandbox); the sandbox also serves its checkout page. */
  payments?: PaymentsProvider;
  /** Guards Bull Board at /admin/queues (super admins only); no guard, no board. */
  queuesGuard?: RequestHandler;
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
  // The webhook's signature covers the exact bytes sent, so that route gets the raw body.
  app.use('/api/payment/webhook', express.raw({ type: 'application/json', limit: '256kb' }));
  app.use(express.json({ limit: '32kb', strict: true }));
  app.use(express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 20 }));

  app.use(healthRoutes(deps));
  app.use(publicRoutes(deps));
  app.use(paymentRoutes(deps));
  if (deps.payments?.name === 'sandbox') app.use(sandboxRoutes(deps, deps.payments as SandboxPayments));
  if (deps.jobs && deps.queuesGuard) mountBullBoard(app, deps.jobs.queues, deps.queuesGuard);

  app.use(notFound);
  app.use(errorHandler);
  return app;
}
