import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Express, RequestHandler } from 'express';
import type { Queues } from '../../shared/core/jobs/queues.ts';

export const BULL_BOARD_PATH = '/admin/queues';

/** Bull Board for the job queues, behind `guard` (the super-admin check). Mount before the 404 handler. */
export function mountBullBoard(app: Express, queues: Queues, guard: RequestHandler): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({ queues: Object.values(queues).map((q) => new BullMQAdapter(q)), serverAdapter });
  app.use(BULL_BOARD_PATH, guard, serverAdapter.getRouter());
}
