import type { z } from 'zod';
import { fieldErrorsOf } from '../../../shared/contract/booking.ts';
import { AppError } from '../../../shared/core/errors.ts';

/** Parses input with a zod schema or throws a 400 whose detail is the first field's message. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown, notAnObject = 'Send a JSON object (Content-Type: application/json).'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  if (input === undefined || input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new AppError('validation', notAnObject);
  }
  const fields = fieldErrorsOf(result.error);
  const first = Object.values(fields)[0] ?? 'Invalid input.';
  throw new AppError('validation', first, fields as Record<string, string>);
}
