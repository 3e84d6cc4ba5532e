import type { Knex } from 'knex';
import * as foundation from './20261121000001_foundation.js';

/**
 * Every migration, in order. Listed statically (instead of read from the folder) so they load
 * the same way under tsx, vitest and a bundler.
 */
const MIGRATIONS: Record<string, Knex.Migration> = {
  '20261121000001_foundation': foundation,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = MIGRATIONS[name];
    if (!migration) throw new Error(`unknown migration ${name}`);
    return migration;
  },
};
