import express, { type Express, type RequestHandler } from 'express';
import { AppError } from '../../shared/core/errors.ts';
import type { Queues } from '../../shared/core/jobs/queues.ts';

export const BULL_BOARD_PATH = '/admin/queues';
export const PANEL_PATH = '/admin/dashboard';

/**
 * The way back to the admin panel, kept on screen at the board's bottom left (its header is fixed at
 * the top and would cover anything put above it); the board's own header menu has the link too.
 */
export const BACK_TO_PANEL =
  `<nav aria-label="Admin panel" style="position:fixed;left:1rem;bottom:1rem;z-index:1000;font:600 0.9rem/1.4 system-ui,sans-serif">` +
  `<a href="${PANEL_PATH}" style="display:inline-block;padding:0.6rem 1rem;border-radius:999px;background:#163c3a;color:#ffffff;text-decoration:none;box-shadow:0 2px 8px rgb(0 0 0 / 0.25)">← Back to the admin panel</a></nav>`;

/** Puts BACK_TO_PANEL into the board's page (its HTML entry; the API's JSON is left alone). */
const withBackLink: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' || req.accepts(['json', 'html']) !== 'html') return next();
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    if (typeof body === 'string' && String(res.getHeader('Content-Type') ?? 'text/html').includes('html')) {
      return send(body.replace(/<body([^>]*)>/, `<body$1>${BACK_TO_PANEL}`));
    }
    return send(body);
  };
  next();
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The board's state-changing calls (retry, clean, pause, promote…) answer only to the board's own
 * pages. Its cookie is SameSite=Strict, which keeps it off cross-site requests in today's browsers;
 * Origin and Sec-Fetch-Site refuse the rest (an older browser, a sibling subdomain, a cross-origin page
 * of the same site). A caller that sends neither is no browser, and cannot be led by another page.
 */
export function sameOriginWrites(publicBaseUrl: string): RequestHandler {
  const publicOrigin = new URL(publicBaseUrl).origin;
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const ownOrigin = `${req.protocol}://${req.get('host')}`;
    const crossSite = site !== undefined && site !== 'same-origin' && site !== 'none';
    const foreignOrigin = origin !== undefined && origin !== publicOrigin && origin !== ownOrigin;
    if (crossSite || foreignOrigin) return next(new AppError('forbidden', 'Changes to the job queues are accepted only from the job queues page.'));
    next();
  };
}

/**
 * Bull Board for the job queues, behind `guard` (the super-admin check). Mount before the 404 handler.
 *
 * The board (its UI, templates and their dependencies) is loaded the first time a super admin opens
 * it, not when the API starts: most API processes never serve it, and loaded it is a few megabytes of
 * the API's resident memory for good (README, Performance). Until then an empty app holds its place.
 */
export function mountBullBoard(app: Express, queues: Queues, guard: RequestHandler, publicBaseUrl: string): void {
  const board = express();
  let loaded: Promise<void> | undefined;
  const loadBoard: RequestHandler = (_req, _res, next) => {
    loaded ??= buildBoard(queues).then(
      (router) => void board.use(router),
      (err: unknown) => {
        loaded = undefined; // the next visit tries again
        throw err;
      },
    );
    loaded.then(() => next(), next);
  };
  app.use(BULL_BOARD_PATH, guard, sameOriginWrites(publicBaseUrl), withBackLink, loadBoard, board);
}

async function buildBoard(queues: Queues): Promise<Express> {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: Object.values(queues).map((q) => new BullMQAdapter(q)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Job Queues', miscLinks: [{ text: 'Back to the admin panel', url: PANEL_PATH }] } },
  });
  return serverAdapter.getRouter() as Express;
}
