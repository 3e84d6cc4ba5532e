import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';

/** A fresh database on the PostgreSQL server of `base`; returns its URL. */
export async function createDatabase(base: string, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`CREATE DATABASE ${name}`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}
