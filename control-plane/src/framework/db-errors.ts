import { ForeignKeyViolationError, UniqueViolationError } from 'objection';

// What a refused write means, whether it came from knex (pg's error, with its SQLSTATE `code`)
// or from an Objection model (db-errors' wrapper, the pg error on `nativeError`).

function sqlState(err: unknown): unknown {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; nativeError?: { code?: unknown } };
  return e.code ?? e.nativeError?.code;
}

/** A unique constraint refused the write (23505). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof UniqueViolationError || sqlState(err) === '23505';
}

/** A foreign key names a row that does not exist (23503). */
export function isForeignKeyViolation(err: unknown): boolean {
  return err instanceof ForeignKeyViolationError || sqlState(err) === '23503';
}
