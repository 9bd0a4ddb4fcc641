import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Express, RequestHandler } from 'express';
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

/** Bull Board for the job queues, behind `guard` (the super-admin check). Mount before the 404 handler. */
export function mountBullBoard(app: Express, queues: Queues, guard: RequestHandler): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: Object.values(queues).map((q) => new BullMQAdapter(q)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Job Queues', miscLinks: [{ text: 'Back to the admin panel', url: PANEL_PATH }] } },
  });
  app.use(BULL_BOARD_PATH, guard, withBackLink, serverAdapter.getRouter());
}
