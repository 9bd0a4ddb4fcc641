import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { accessLogOf } from '../../shared/core/logger.ts';
import type { SandboxPayments } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { apiMetrics } from '../../shared/core/services/metrics.service.ts';
import type { AppDeps } from './deps.ts';
import { mountBullBoard } from './bull-board.ts';
import { compressAnswers } from './http/compress.ts';
import { bearerAdminActor, queuesGuard } from './middleware/auth.ts';
import { errorHandler, notFound } from './middleware/errors.ts';
import { rejectNul } from './middleware/reject-nul.ts';
import { requestLog } from './middleware/request-log.ts';
import { SECURITY_POLICY, securityHeaders } from './middleware/security-headers.ts';
import { htmlNotFound, staticSite } from './middleware/static-site.ts';
import { adminRoutes } from './routes/admin.routes.ts';
import { catalogueRoutes } from './routes/catalogue.routes.ts';
import { paymentRoutes } from './routes/payment.routes.ts';
import { sandboxRoutes } from './routes/sandbox.routes.ts';
import { healthRoutes } from './routes/health.routes.ts';
import { metricsRoutes } from './routes/metrics.routes.ts';
import { jobFailureRoutes } from './routes/job-failures.routes.ts';
import { waitlistRoutes } from './routes/waitlist.routes.ts';
import { packageRoutes } from './routes/package.routes.ts';
import { manageRoutes } from './routes/manage.routes.ts';
import { openApiRoutes } from './routes/openapi.routes.ts';
import { cachedPublicReads } from './routes/public-reads.ts';
import { publicRoutes } from './routes/public.routes.ts';
import { reportRoutes } from './routes/report.routes.ts';
import { whatsappRoutes } from './routes/whatsapp.routes.ts';

/** Builds the Express app without listening, so tests can import it. */
export function buildApp(input: AppDeps): express.Express {
  const deps: AppDeps = { ...input };
  deps.authenticateAdmin ??= bearerAdminActor(deps);
  // Gathered only where someone may read them (METRICS_TOKEN): otherwise no request pays for them.
  const metrics = deps.config.metricsToken ? (deps.metrics ?? apiMetrics({ db: deps.db, queues: deps.jobs.queues })) : undefined;
  accessLogOf(deps.logger).observe = metrics?.observeRequest;
  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-For is believed only from the proxies TRUST_PROXY names: from anyone else it is the
  // caller's own choice, and believing it would let one caller pose as many to the sign-in throttle.
  app.set('trust proxy', deps.config.trustProxy.length ? [...deps.config.trustProxy] : false);
  app.set('query parser', 'simple');

  // Ahead of everything: a cached public read is answered before Express handles the request at all
  // (answerEarly, below), with the same headers and log line. Every other request, a public booking
  // included, comes in here.
  app.use(requestLog(deps.logger));
  app.use(securityHeaders(SECURITY_POLICY));
  app.use(compressAnswers());
  // The webhook's signature covers the exact bytes sent, so that route gets the raw body.
  app.use('/api/payment/webhook', express.raw({ type: 'application/json', limit: '256kb' }));
  // Meta's signature too (X-Hub-Signature-256); its deliveries batch statuses, hence the larger limit.
  app.use('/api/whatsapp/webhook', express.raw({ type: 'application/json', limit: '1mb' }));
  // The one JSON body limit: the public booking is read here too, like every other route's body.
  app.use(express.json({ limit: '32kb', strict: true }));
  app.use(express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 20 }));
  app.use(rejectNul);

  // First: the busiest calls. Every router a request passes through costs it allocations (Express's
  // router builds its state per router entered), and a manual booking is passed on to adminRoutes.
  app.use(publicRoutes(deps));
  app.use(healthRoutes(deps));
  app.use(metricsRoutes(deps, metrics));
  app.use(openApiRoutes(deps));
  // Before the admin routes: the wizard confirms its payment link under /api/admin without a token.
  app.use(paymentRoutes(deps));
  app.use(manageRoutes(deps));
  app.use(waitlistRoutes(deps));
  app.use(reportRoutes(deps));
  if (deps.config.whatsapp) app.use(whatsappRoutes(deps));
  // Ahead of adminRoutes, whose /api/admin guard would refuse the set-password link (it has no session).
  app.use(catalogueRoutes(deps));
  app.use(jobFailureRoutes(deps));
  app.use(packageRoutes(deps));
  app.use(adminRoutes(deps));
  if (deps.payments.name === 'sandbox') app.use(sandboxRoutes(deps, deps.payments as SandboxPayments));
  mountBullBoard(app, deps.jobs.queues, deps.queuesGuard ?? queuesGuard(deps), deps.config.publicBaseUrl);

  if (deps.siteDir) {
    app.use(staticSite(deps.siteDir));
    app.use(htmlNotFound(deps.siteDir));
  }
  app.use(notFound);
  app.use(errorHandler);
  return answerEarly(app, cachedPublicReads(deps.readCache, deps));
}

type Handle = (req: IncomingMessage, res: ServerResponse, callback?: unknown) => void;

type Early = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * Puts the cached public reads in front of the app's own handling: Express's app.handle gives req and
 * res its own prototypes (Object.setPrototypeOf, which also leaves both objects slower to use) and walks
 * the router to the first middleware; for a cached read that was a tenth of its CPU
 * (docs/performance.md). The early answer sees the plain Node request and answers it or passes it on to
 * the app. Mounted in another app, or listening itself, the app calls app.handle, so every request
 * passes here. Only reads are answered here: a public booking goes through the routers, body parsers
 * and error handler like every other request (issue 33).
 */
function answerEarly(app: express.Express, early: Early): express.Express {
  const target = app as unknown as { handle: Handle };
  const handle = target.handle.bind(app);
  target.handle = (req, res, callback) => early(req, res, () => handle(req, res, callback));
  return app;
}
