import { expect } from 'vitest';
import type { z } from 'zod';

/**
 * The served reply is exactly what its contract (src/modules/<module>/contract.ts, the console's
 * types) says: the schema accepts it, and parsing it keeps every field (zod drops the keys a
 * schema does not know, so a field served but not written down fails too).
 */
export function expectServed(schema: z.ZodTypeAny, body: unknown): void {
  expect(schema.parse(body)).toEqual(body);
}
