import type { z } from 'zod';
import { badRequest, zodDetail } from './errors.js';

/** Parses `input` with `schema`; a failure is a 400 with the schema's Chinese message. */
export function parse<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw badRequest(zodDetail(result.error), 'VALIDATION_FAILED');
  return result.data;
}

/** A positive integer id from a route parameter. */
export function idParam(value: string | undefined): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw badRequest('无效的编号', 'BAD_ID');
  return id;
}
