import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { type RunningControlPlane, startControlPlane } from '@gpucloud/control-plane/platform';
import { ensurePostgres } from '../../scripts/lib/postgres.mjs';
import { controlPlaneConfig } from '../test/control-plane-config.js';
import { createDatabase } from '../test/databases.js';
import { type Measurement, report } from './results.js';

const DATA_DIR = fileURLToPath(new URL('../../.data', import.meta.url));
/** Containers per user: most users run a few. */
const PER_USER = 4;
/** How long the meters have run when the pass settles them. */
const RUNNING_MS = 10 * 60_000;
const GOALS: Record<number, number> = { 10000: 1000, 100000: 5000 };

const sizes = (process.env.SETTLEMENT_SIZES ?? '10000,100000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);

/** Users, their accounts, one node, `count` running hourly containers with orders and open meters. */
async function generate(cp: RunningControlPlane, count: number, now: Date): Promise<void> {
  const k = cp.knex;
  const users = Math.ceil(count / PER_USER);
  const since = new Date(now.getTime() - RUNNING_MS);
  await k.raw(
    `insert into users (username, password_hash)
     select 'bench_' || i, 'x' from generate_series(1, ?) i`,
    [users],
  );
  // Enough for the pass (a few users run dry: they go to the lifecycle's stop queue).
  await k.raw(
    `insert into billing_accounts (user_id, balance_fen)
     select id, case when id % 1000 = 0 then 50 else 10000000 end from users where username like 'bench\\_%'
     on conflict (user_id) do update set balance_fen = excluded.balance_fen`,
  );
  const [node] = await k('nodes')
    .insert({ name: 'bench-node', address: '127.0.0.1:1', token: 'x'.repeat(20), region: '测试区' })
    .returning('id');
  await k.raw(
    `insert into containers (id, user_id, node_id, name, image, status, billing_type, price_fen,
                             no_gpu_price_fen, gpu_count, password_encrypted, started_at)
     select 'b-' || lpad(i::text, 8, '0'), u.id, ?, 'bench-' || i, 'fake', 'running', 'hourly',
            100 + (i % 50) * 37, 50, 1 + i % 4, 'x', ?
       from generate_series(1, ?) i
       join users u on u.username = 'bench_' || (1 + (i - 1) / ?)`,
    [node.id, since, count, PER_USER],
  );
  await k.raw(
    `insert into container_orders (order_no, user_id, container_id, order_type, billing_type,
                                   product_name, gpu_count, unit_price_fen, status, start_time)
     select 'OB' || lpad(substr(c.id, 3), 12, '0'), c.user_id, c.id, 'purchase', 'hourly',
            'RTX 4090', c.gpu_count, c.price_fen, 'running', ?
       from containers c where c.id like 'b-%'`,
    [since],
  );
  await k.raw(
    `insert into container_meters (container_id, user_id, order_id, rate_fen_per_hour, running_since)
     select c.id, c.user_id, o.id, c.price_fen * c.gpu_count, ?
       from containers c join container_orders o on o.container_id = c.id
      where c.id like 'b-%'`,
    [since],
  );
  await k.raw('analyze');
}

/** CPU milliseconds used so far by this cluster's processes (Linux /proc; 0 where unreadable). */
async function postgresCpuMs(cp: RunningControlPlane): Promise<number> {
  const { rows } = await cp.knex.raw<{ rows: { pid: number }[] }>('select pid from pg_stat_activity');
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      // Fields 14 and 15 (utime, stime), counted after the command name's closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone meanwhile, or not Linux.
    }
  }
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

async function benchSize(base: string, count: number): Promise<Measurement> {
  const config = controlPlaneConfig({
    databaseUrl: await createDatabase(base, 'settle'),
    adminUsername: 'admin',
    adminPassword: 'admin-password-for-bench',
    // The bench runs the pass itself: the timer never asks for one meanwhile.
    meteringIntervalMs: 24 * 3_600_000,
  });
  const cp = await startControlPlane(config, () => {});
  try {
    const now = new Date();
    const t0 = performance.now();
    await generate(cp, count, now);
    console.log(`  ${count} meters generated in ${Math.round(performance.now() - t0)} ms`);
    const settlement = cp.jobs.settlement;
    if (!settlement) throw new Error('no settlement job (billing jobs off?)');
    let queries = 0;
    // SETTLEMENT_PROFILE=1: the time of each statement, the slowest printed.
    const started = new Map<string, number>();
    const spent = new Map<string, number>();
    const onQuery = (q: { __knexQueryUid: string }) => {
      queries++;
      started.set(q.__knexQueryUid, performance.now());
    };
    const onResponse = (_r: unknown, q: { __knexQueryUid: string; sql: string }) => {
      const t = started.get(q.__knexQueryUid);
      const key = q.sql.replace(/\s+/g, ' ').slice(0, 90);
      if (t !== undefined) spent.set(key, (spent.get(key) ?? 0) + performance.now() - t);
    };
    cp.knex.on('query', onQuery);
    if (process.env.SETTLEMENT_PROFILE) cp.knex.on('query-response', onResponse);
    const pgCpu0 = await postgresCpuMs(cp);
    const nodeCpu0 = process.cpuUsage();
    const start = performance.now();
    const ran = await settlement.settle(1, now);
    const ms = performance.now() - start;
    const nodeCpu = process.cpuUsage(nodeCpu0);
    const cpu = {
      postgres: Math.round((await postgresCpuMs(cp)) - pgCpu0),
      node: Math.round((nodeCpu.user + nodeCpu.system) / 1000),
    };
    cp.knex.off('query', onQuery);
    cp.knex.off('query-response', onResponse);
    for (const [sql, t] of [...spent].sort((a, b) => b[1] - a[1]).slice(0, 12))
      console.log(`    ${Math.round(t)} ms  ${sql}`);
    if (process.env.SETTLEMENT_PROFILE) {
      await new Promise((r) => setTimeout(r, 1000)); // statistics are flushed by the backends
      const { rows } = await cp.knex.raw(
        `select relname, n_tup_upd, n_tup_hot_upd from pg_stat_user_tables
          where relname in ('containers', 'container_meters', 'container_orders', 'billing_accounts')`,
      );
      for (const r of rows)
        console.log(`    ${r.relname}: ${r.n_tup_upd} updates, ${r.n_tup_hot_upd} on the page`);
    }
    if (!ran) throw new Error('the slot was not settled');
    const [check] = (
      await cp.knex.raw(
        `select (select count(*) from container_meters where updated_at = ?)::int as settled,
                (select count(*) from billing_accounts a
                  where a.balance_fen <> coalesce((select sum(amount_fen) from ledger_entries l where l.user_id = a.user_id), 0)
                    + case when a.user_id in (select user_id from container_meters) then
                        (case when a.user_id % 1000 = 0 then 50 else 10000000 end) else 0 end)::int as off,
                (select coalesce(sum(charged_fen), 0) from container_meters)::bigint as charged`,
        [now],
      )
    ).rows;
    if (check.settled !== count) throw new Error(`${check.settled} of ${count} meters settled`);
    if (check.off !== 0) throw new Error(`${check.off} balances differ from their ledger`);
    console.log(
      `  ${count}: ${Math.round(ms)} ms, ${queries} queries, ${check.charged} fen charged; CPU: postgres ${cpu.postgres} ms, node ${cpu.node} ms`,
    );
    return {
      what: `settlement, ${count.toLocaleString('en')} running hourly containers`,
      unit: 'ms',
      ours: Math.round(ms),
      goal: { op: '<', value: GOALS[count] ?? 5000 },
      note: `${queries} queries, ${Math.ceil(count / PER_USER)} users; CPU: postgres ${cpu.postgres} ms, node ${cpu.node} ms`,
    };
  } finally {
    await cp.close();
  }
}

async function main() {
  const [ownName, ownPort] = (process.env.GPUCLOUD_TEST_PG ?? '').split(':');
  const pg = await ensurePostgres({
    dataDir: DATA_DIR,
    name: ownName || 'pg-bench-settlement',
    port: ownPort ? Number(ownPort) : 5448,
    database: 'postgres',
    fresh: !process.env.DATABASE_URL,
    log: () => {},
  });
  try {
    const measurements: Measurement[] = [];
    for (const n of sizes) measurements.push(await benchSize(pg.url, n));
    report('settlement', measurements);
  } finally {
    await pg.stop();
  }
}

await main();
