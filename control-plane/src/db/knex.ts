import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { migrationSource } from './migrations/index.js';

// bigint ids and fen amounts stay far below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/**
 * The pool of one control plane. Objection's global `Model.knex` is deliberately left unset:
 * every repository binds its own (`XModel.query(trx ?? this.knex)`), so two control planes in one
 * process (the replica tests) never share a connection, and a query that forgets to bind fails
 * at once instead of running on another database.
 */
export function createKnex(databaseUrl: string, pool = { min: 0, max: 20 }): Knex {
  const knex = knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool,
    migrations: { migrationSource, tableName: 'knex_migrations' },
  });
  return knex;
}

export async function migrateLatest(knex: Knex): Promise<void> {
  await knex.migrate.latest();
}
