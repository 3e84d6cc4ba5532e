// A read on the hot path as a named prepared statement, on a connection of the knex pool, without
// knex's query builder: PostgreSQL parses and plans it once per connection (then only binds and
// executes), and the request pays no builder, compiler or model hydration. For the few reads that
// run on nearly every request (the balance, the container list); everything else uses knex.
import type { Knex } from 'knex';
import type pg from 'pg';

/** A statement: its name (one per text, the same in every connection) and its SQL. */
export interface Prepared {
  name: string;
  text: string;
}

/** The rows of `statement` with these values, on a connection borrowed from `knex`'s pool. */
export async function preparedRows<R extends pg.QueryResultRow>(
  knex: Knex,
  statement: Prepared,
  values: unknown[],
): Promise<R[]> {
  const connection = (await knex.client.acquireConnection()) as pg.Client;
  try {
    const result = await connection.query<R>({ name: statement.name, text: statement.text, values });
    return result.rows;
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
