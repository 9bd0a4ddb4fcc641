import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Express, RequestHandler } from 'express';
import type { Queues } from '../../shared/core/jobs/queues.ts';

export const BULL_BOARD_PATH = '/admin/queues';
export const PANEL_PATH = '/admin/dashboard';

/** A bar above the board with the way back to the admin panel (the board's own menu has it too). */
export const BACK_TO_PANEL =
  `<nav aria-label="Admin panel" style="padding:0.5rem 1rem;background:#163c3a;font:600 0.9rem/1.4 system-ui,sans-serif">` +
  `<a href="${PANEL_PATH}" style="color:#ffffff">← Back to the admin panel</a></nav>`;

/** Puts BACK_TO_PANEL at the top of the board's page (its HTML entry; the API's JSON is left alone). */
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
