import knexFactory, { type Knex } from 'knex';
import { Model } from 'objection';
import pg from 'pg';
import { migrationSource } from './migrations/index.js';

// bigint ids and fen amounts stay far below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function createKnex(databaseUrl: string, pool = { min: 0, max: 20 }): Knex {
  const knex = knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool,
    migrations: { migrationSource, tableName: 'knex_migrations' },
  });
  Model.knex(knex);
  return knex;
}

export async function migrateLatest(knex: Knex): Promise<void> {
  await knex.migrate.latest();
}
