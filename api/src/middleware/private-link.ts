import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { API_MESSAGES as M } from '../../../shared/contract/messages.ts';
import { AppError } from '../../../shared/core/errors.ts';

/**
 * A private link's token (Manage booking, the waitlist, a package) is the client's whole credential and
 * sits in the address: nothing may keep the answer (no-store) or pass the address on to another site
 * (no-referrer; the page's links to the meeting, for instance).
 */
export const privateAnswer: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/** The token of a private link's path; a malformed one is answered as an unknown one: 404, the same words. */
export function tokenOf(schema: z.ZodType<{ token: string }>, params: unknown): string {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new AppError('not_found', M.notFound);
  return parsed.data.token;
}
