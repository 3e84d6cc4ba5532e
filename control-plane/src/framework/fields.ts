// Field rules the request schemas share (modules/*/schema.ts). Only zod here: the console
// type-checks the schema files and what they import (src/api.ts).
import { z } from 'zod';

/** The largest id a request may name (bigint in PostgreSQL; a double keeps it exact). */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
/** The last page a list query may ask for, and the largest offset (`skip`). */
export const MAX_PAGE = 1_000_000;
export const MAX_OFFSET = 100_000_000;

/**
 * An id in a body or a query: a positive safe integer (1e308, 1.5, -1 and "abc" are refused with
 * `message`). `coerce` also takes a numeric string (a query, or a client that sends ids as text).
 */
export function idField(message: string, opts: { coerce?: boolean } = {}) {
  const base = opts.coerce
    ? z.coerce.number({ required_error: message, invalid_type_error: message })
    : z.number({ required_error: message, invalid_type_error: message });
  return base.int(message).positive(message).max(MAX_ID, message);
}

const MSG_PAGE = `页码为 1-${MAX_PAGE}`;
const MSG_OFFSET = `偏移量为 0-${MAX_OFFSET}`;

/** `page` of a list query: 1 to MAX_PAGE, 1 when absent. */
export const pageField = () =>
  z.coerce
    .number({ invalid_type_error: MSG_PAGE })
    .int(MSG_PAGE)
    .min(1, MSG_PAGE)
    .max(MAX_PAGE, MSG_PAGE)
    .default(1);

/** `skip` of a list query: 0 to MAX_OFFSET, 0 when absent. */
export const offsetField = () =>
  z.coerce
    .number({ invalid_type_error: MSG_OFFSET })
    .int(MSG_OFFSET)
    .min(0, MSG_OFFSET)
    .max(MAX_OFFSET, MSG_OFFSET)
    .default(0);

/** A page size that must be one of `sizes`. */
export const pageSizeField = (sizes: number[], fallback: number) => {
  const message = `每页条数只能是${sizes.join('、')}`;
  return z.coerce
    .number({ invalid_type_error: message })
    .int(message)
    .refine((n) => sizes.includes(n), message)
    .default(fallback);
};

/** Dates PostgreSQL keeps and people mean: years 1970-9999 (JS reaches ±275760, PostgreSQL not). */
export function isSaneDate(d: Date): boolean {
  const t = d.getTime();
  return !Number.isNaN(t) && t >= Date.UTC(1970, 0, 1) && t < Date.UTC(10000, 0, 1);
}
