import type { Knex } from 'knex';

/**
 * One bind parameter holding a whole list, sent as a PostgreSQL array (node-postgres writes a JS
 * array as an array literal; nulls stay NULL). Set-based statements take their rows this way —
 * `= any(?::bigint[])`, `unnest(?::bigint[], ?::varchar[])` — so any number of rows is a fixed
 * number of parameters (a list expanded into one parameter each stops at 65,535). Only for
 * `knex.raw` bindings: whereIn expands arrays.
 */
export function sqlArray(values: readonly (string | number | Date | null)[]): Knex.Value {
  return values as unknown as Knex.Value;
}
