/**
 * A simulated fleet: FLEET_NODES agents (1,000 by default) and FLEET_CONTAINERS_PER_NODE
 * containers on each (10: 10k in all), all in one child process, against one control plane in
 * the bench's own process (so the agents do not share the control plane's event loop: on a real
 * fleet they run on other machines).
 *
 *   npx tsx e2e/bench/fleet.ts                      (1,000 nodes, 10k containers)
 *   FLEET_NODES=100 npx tsx e2e/bench/fleet.ts      (a quick run)
 *
 * Each agent is the real node agent (startAgent: its gRPC server, container service, event
 * watch, reconciler) on its own 127.0.0.1 port, with 8 simulated GPUs, fixed host facts and an
 * in-memory engine (MemoryContainerClient) in place of Docker (the agents' process is this file
 * run as `tsx fleet.ts agents`, driven over IPC); containers it starts publish
 * their SSH port on the node's own loopback address (127.10.x.y), where the engine answers with
 * an SSH banner, so a purchase waits for reachability as on a real node. The control plane runs
 * in-process on an embedded PostgreSQL of its own (.data/pg-bench-fleet), with the settlement
 * jobs off (their cost is the settlement bench's).
 *
 * Set-up: the agents start with their containers already in their engines (6 holding a GPU, the
 * rest none), the nodes are registered through the admin API (the control plane probes each),
 * every node gets its default product, and the containers' rows are written (as purchases leave
 * them). The bench then waits until every node has reported its containers once more.
 *
 * Measured:
 *   heartbeat writes  rows written to nodes and node_gpus (INSERT/UPDATE, counted from the
 *                     rows each statement reports through knex's query-response event) over
 *                     FLEET_WINDOW_MS (60 s: every report kind comes at least once, the GPU
 *                     inventory reads every 30 s, the agents' reconcile reports every 60 s), per
 *                     node per heartbeat interval. Goal ≤ 1.
 *   pool waits        the most queries waiting for a connection of the control plane's pool at
 *                     any 100 ms sample of the window (0: the pool is never short).
 *   heartbeat age     the oldest last_heartbeat_at of the online nodes, sampled every 500 ms in
 *                     the window: how far behind the monitor's view of the fleet is. Goal ≤ 2
 *                     heartbeat intervals (a node goes offline after 6).
 *   container events  FLEET_CRASHES containers (100) end at once in their engines; the time until
 *                     each row shows it (Docker event → agent → monitor → row). Goal p99 ≤ 1 s.
 *   market            GET /api/cloud-products (the 算力市场's list: every product with its free
 *                     GPUs), one request after the other for FLEET_MARKET_MS (30 s: three of the
 *                     node monitor's syncs, an inventory round, half of the agents' reconcile
 *                     reports), by a client in a process of its own (as a browser: keep-alive,
 *                     gzip accepted, no cached copy), until its last byte (as HTTP benchmarks time
 *                     an answer; until the list is unzipped and parsed, in the note). Goal p99 < 20 ms.
 *   mutating API      FLEET_PURCHASES purchases (1 GPU, hourly) on random nodes, 4 at a time,
 *                     until the API answers; then a stop of each, and a delete. Goal p99 ≤ 1 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import {
  REPLY_CHANNELS,
  type RunningControlPlane,
  startControlPlane,
} from '@gpucloud/control-plane/platform';
import {
  containerName,
  MemoryContainerClient,
  managedLabels,
  type RunningAgent,
  type StaticHostFacts,
  simulatedUuid,
  startAgent,
} from '@gpucloud/node-agent';
import { freeLoopbackPort } from '../../scripts/lib/free-port.mjs';
import { ensurePostgres } from '../../scripts/lib/postgres.mjs';
import { testToolboxDir } from '../../scripts/lib/test-services.mjs';
import { controlPlaneConfig } from '../test/control-plane-config.js';
import { createDatabase } from '../test/databases.js';
import { Api, PlatformLog } from './common.js';
import { median, percentile, report } from './results.js';

const DATA_DIR = fileURLToPath(new URL('../../.data', import.meta.url));
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const NODES = env('FLEET_NODES', 1000);
const PER_NODE = env('FLEET_CONTAINERS_PER_NODE', 10);
const GPU_HOLDERS = Math.min(6, PER_NODE);
const HEARTBEAT_MS = env('FLEET_HEARTBEAT_MS', 5000);
const RECONCILE_MS = env('FLEET_RECONCILE_MS', 60_000);
const WINDOW_MS = env('FLEET_WINDOW_MS', 60_000);
const MARKET_MS = env('FLEET_MARKET_MS', 30_000);
/** Market requests before the measured ones (the first reads the database: reported apart). */
const MARKET_WARMUP = 5;
/** A market request slower than this is explained in the log (what the control plane did meanwhile). */
const MARKET_SLOW_MS = 20;
const PURCHASES = env('FLEET_PURCHASES', 40);
const CRASHES = env('FLEET_CRASHES', 100);
const GPU_MODEL = 'RTX4090';
const IMAGE = 'gpucloud-bench/fleet:1';
const BANNER = 'SSH-2.0-dropbear_2024.86\r\n';
const ADMIN = { username: 'admin', password: randomBytes(12).toString('hex') };
const FACTS: StaticHostFacts = {
  hostname: 'fleet',
  os: 'Ubuntu 24.04',
  kernel: '6.8.0',
  arch: 'x64',
  cpuModel: 'AMD EPYC 9654',
  cpuCores: 96,
  memoryTotalBytes: 512 * 1024 ** 3,
};

const platformLog = new PlatformLog(300);
const keepLog = platformLog.add;
const say = (line: string) => console.error(`[fleet] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` over `items`, `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T, i);
      }
    }),
  );
  return out;
}

interface AgentNode {
  index: number;
  name: string;
  token: string;
  address: string;
  engine: MemoryContainerClient;
  agent: RunningAgent;
  /** Seeded containers: platform id → Docker id (in the engine). */
  containers: Map<string, string>;
}

/** A node as the bench's process knows it (its agent and engine live in the agents' process). */
interface FleetNode {
  index: number;
  name: string;
  token: string;
  address: string;
  /** Seeded containers: platform id → Docker id (in the engine). */
  containers: Map<string, string>;
  id?: number;
}

/** node i publishes its containers' ports on 127.10+(i/256).(i%256).1: nodes never clash. */
const loopbackOf = (i: number) => `127.${10 + (i >> 8)}.${i & 255}.1`;
const containerIdOf = (node: number, j: number) => `fleet${node}x${j}`;

async function startNode(i: number, root: string, toolboxDir: string): Promise<AgentNode> {
  const name = `fleet-${i}`;
  const token = randomBytes(18).toString('hex');
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'volumes'), { recursive: true });
  mkdirSync(path.join(dir, 'state'), { recursive: true });
  // The node's own host sockets (none): the agents share this machine's, which are not theirs.
  mkdirSync(path.join(dir, 'proc', 'net'), { recursive: true });
  writeFileSync(
    path.join(dir, 'proc', 'net', 'tcp'),
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n',
  );
  const engine = new MemoryContainerClient({ images: [{ ref: IMAGE, serves: { 22: BANNER } }] });
  // The node's containers, in its engine before the agent starts (as after a restart of the agent).
  const containers = new Map<string, string>();
  for (let j = 0; j < PER_NODE; j++) {
    const containerId = containerIdOf(i, j);
    const gpus = j < GPU_HOLDERS ? [simulatedUuid(name, GPU_MODEL, j)] : [];
    const dockerId = await engine.createContainer({
      name: containerName(containerId),
      image: IMAGE,
      env: [],
      labels: managedLabels(
        {
          containerId,
          ownerId: '1',
          ownerName: 'fleet',
          displayName: containerId,
          node: name,
          image: IMAGE,
          generation: 0,
          gpuDeviceIds: gpus,
          ports: [],
          mounts: [],
        },
        {},
      ),
      command: [],
      ports: [],
      binds: [],
      nvidiaDeviceIds: [],
      resources: { memoryBytes: 8 << 30, nanoCpus: 8e9, pidsLimit: 4096, shmSizeBytes: 1 << 30 },
      logLimits: { maxSize: '10m', maxFiles: 3 },
    });
    await engine.startContainer(dockerId);
    containers.set(containerId, dockerId);
  }
  const agent = await startAgent(
    {
      token,
      listen: '127.0.0.1:0',
      simulateGpus: `8x${GPU_MODEL}`,
      toolboxDir,
      bindAddress: loopbackOf(i),
      publicHost: loopbackOf(i),
      portRange: '20000-29999',
      volumeRoot: path.join(dir, 'volumes'),
      stateDir: path.join(dir, 'state'),
      nodeName: name,
      tenantIsolation: 'off',
      heartbeatIntervalMs: HEARTBEAT_MS,
      reconcileIntervalMs: RECONCILE_MS,
    },
    { log: keepLog, containerClient: engine, hostFacts: FACTS, procRoot: path.join(dir, 'proc') },
  );
  return { index: i, name, token, address: agent.address, engine, agent, containers };
}

// ---------------------------------------------------------------------------------------------
// What the database sees: row writes to the node tables, pool waits.

const NODE_TABLES = /^\s*(update|insert\s+into)\s+"?(nodes|node_gpus)"?[\s(]/i;

function rowsOf(response: unknown): number {
  if (typeof response === 'number') return response;
  if (Array.isArray(response)) return response.length;
  if (response && typeof response === 'object' && 'rowCount' in response) {
    return Number((response as { rowCount: unknown }).rowCount) || 0;
  }
  return 1;
}

function watchWrites(cp: RunningControlPlane) {
  const counts = { statements: 0, rows: 0, queries: 0 };
  /** Rows by statement (its first words, without the values). */
  const byKind = new Map<string, number>();
  const onResponse = (response: unknown, q: { sql?: string }) => {
    counts.queries++;
    if (q.sql && NODE_TABLES.test(q.sql)) {
      counts.statements++;
      const rows = rowsOf(response);
      counts.rows += rows;
      const kind = q.sql.replace(/\s+/g, ' ').trim().split(' ').slice(0, 5).join(' ');
      byKind.set(kind, (byKind.get(kind) ?? 0) + rows);
    }
  };
  cp.knex.on('query-response', onResponse);
  return { counts, byKind, stop: () => cp.knex.off('query-response', onResponse) };
}

interface Happenings {
  /** The control plane's GC pauses and its market list's reloads meanwhile (epoch ms; ms). */
  gcs: { at: number; ms: number; kind: string }[];
  reloads: number[];
  changes: number[];
  stop(): void;
}

/**
 * What the control plane does while the market is asked, that may hold a request up: its GC
 * pauses (it runs in this process), the market_changed announcements it hears, and the reloads
 * of the market's list.
 */
function watchControlPlane(cp: RunningControlPlane): Happenings {
  const out: Happenings = { gcs: [], reloads: [], changes: [], stop: () => {} };
  const kinds: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as { detail?: { kind?: number } }).detail?.kind ?? 0;
      out.gcs.push({
        at: performance.timeOrigin + e.startTime,
        ms: e.duration,
        kind: kinds[kind] ?? String(kind),
      });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const cache = cp.services.marketCache;
  const get = cache.get;
  cache.get = (key, load) =>
    get.call(cache, key, () => {
      out.reloads.push(Date.now());
      return load();
    });
  let listening = true;
  cp.services.replyChanges.subscribe(REPLY_CHANNELS.market, {
    changed: () => void (listening && out.changes.push(Date.now())),
    reset: () => {},
  });
  out.stop = () => {
    observer.disconnect();
    cache.get = get;
    listening = false;
  };
  return out;
}

/** The requests slower than MARKET_SLOW_MS (after the first `skip`), each with what overlapped it. */
function explainSlow(run: MarketRun, h: Happenings, skip: number): { lines: string[]; summary: string } {
  const lines: string[] = [];
  let byGc = 0;
  let byReload = 0;
  let slowCount = 0;
  for (let i = skip; i < run.answers.length; i++) {
    const ms = run.answers[i] as number;
    const from = run.starts[i] as number;
    const to = from + ms;
    if (ms <= MARKET_SLOW_MS) continue;
    slowCount++;
    const gcs = h.gcs.filter((g) => g.at < to && g.at + g.ms > from);
    const reloads = h.reloads.filter((t) => t >= from - 5 && t <= to);
    if (gcs.length > 0) byGc++;
    if (reloads.length > 0) byReload++;
    lines.push(
      `slow market request ${i}: ${ms.toFixed(1)} ms (headers ${(run.heads[i] as number).toFixed(1)}, parsed ${(run.parsed[i] as number).toFixed(1)}); GC ${gcs.map((g) => `${g.kind} ${g.ms.toFixed(1)} ms`).join(', ') || 'none'}; list reloads ${reloads.length}`,
    );
  }
  const gcTotal = h.gcs.reduce((sum, g) => sum + g.ms, 0);
  const longest = h.gcs.reduce((m, g) => Math.max(m, g.ms), 0);
  return {
    lines,
    summary: `paused for GC ${h.gcs.length} times (${gcTotal.toFixed(0)} ms in all, longest ${longest.toFixed(1)} ms), heard ${h.changes.length} market changes and reloaded the list ${h.reloads.length} times; of the ${slowCount} requests over ${MARKET_SLOW_MS} ms, ${byGc} overlapped a GC pause and ${byReload} a reload`,
  };
}

/** Heartbeats the node monitor hands the nodes service (each agent's, as they arrive). */
function countHeartbeats(cp: RunningControlPlane) {
  const nodes = cp.services.nodes;
  const heartbeat = nodes.heartbeat;
  const counter = {
    received: 0,
    stop: () => {
      nodes.heartbeat = heartbeat;
    },
  };
  nodes.heartbeat = (...args) => {
    counter.received++;
    return heartbeat.apply(nodes, args);
  };
  return counter;
}

interface PoolLike {
  numPendingAcquires(): number;
  numUsed(): number;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch((err: unknown) => console.error(err));
  };
  try {
    const toolboxDir = testToolboxDir();
    const pg = await ensurePostgres({
      dataDir: DATA_DIR,
      name: 'pg-bench-fleet',
      port: 5449,
      database: 'postgres',
      fresh: !process.env.DATABASE_URL,
      log: say,
    });
    closers.push(() => pg.stop());
    const root = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-fleet-'));
    closers.push(async () => rmSync(root, { recursive: true, force: true }));

    let t = performance.now();
    const agents = await startAgentsProcess(root, toolboxDir);
    closers.push(() => agents.close());
    const nodes = agents.nodes;
    say(
      `${NODES} agents with ${NODES * PER_NODE} containers started in ${Math.round(performance.now() - t)} ms`,
    );

    const config = controlPlaneConfig({
      port: await freeLoopbackPort(),
      databaseUrl: await createDatabase(pg.url, 'fleet'),
      adminUsername: ADMIN.username,
      adminPassword: ADMIN.password,
      heartbeatIntervalMs: HEARTBEAT_MS,
      billingJobs: false,
    });
    const cp = await startControlPlane(config, platformLog.controlPlane);
    closers.push(() => cp.close());

    // ------------------------------------------------------------------ registration
    const admin = new Api(cp.url);
    admin.token = (await admin.call<{ token: string }>('POST', '/api/auth/login', ADMIN)).token;
    t = performance.now();
    await pool(nodes, 8, async (n) => {
      const add = () =>
        admin.call<{ id: number }>('POST', '/api/admin/nodes', {
          name: n.name,
          address: n.address,
          token: n.token,
          region: `区域${n.index % 4}`,
          public_host: loopbackOf(n.index),
        });
      // The probe has 5 s: on a machine this busy one may miss it; the operator would try again.
      const view = await add()
        .catch(() => sleep(1000).then(add))
        .catch(() => sleep(3000).then(add));
      n.id = view.id;
      const row = await cp.services.nodes.require(view.id);
      await cp.services.products.ensureDefaultProduct(row, 199);
    });
    say(`nodes registered in ${Math.round(performance.now() - t)} ms`);

    // The containers' rows, as purchases leave them (one owner; a product per node).
    const [owner] = await cp
      .knex('users')
      .insert({ username: 'fleet_owner', password_hash: 'x', email: 'fleet@example.com' })
      .returning('id');
    const ownerId = (owner as { id: number }).id;
    const products = new Map<number, number>(
      (await cp.knex('cloud_products').select('id', 'node_id')).map((p: { id: number; node_id: number }) => [
        p.node_id,
        p.id,
      ]),
    );
    const seededAt = new Date();
    for (const n of nodes) {
      const rows = [...n.containers.keys()].map((id, j) => ({
        id,
        user_id: ownerId,
        node_id: n.id,
        cloud_product_id: products.get(n.id as number),
        name: id,
        image: IMAGE,
        status: 'running',
        billing_type: 'hourly',
        price_fen: 199,
        gpu_count: j < GPU_HOLDERS ? 1 : 0,
        password_encrypted: 'x',
        started_at: seededAt,
      }));
      const gpus = rows
        .filter((_, j) => j < GPU_HOLDERS)
        .map((r, j) => ({
          node_id: n.id,
          gpu_uuid: simulatedUuid(n.name, GPU_MODEL, j),
          container_id: r.id,
        }));
      await cp.knex.transaction(async (trx) => {
        await trx('containers').insert(rows);
        if (gpus.length > 0) await trx('gpu_allocations').insert(gpus);
      });
    }
    // Until every node has reported its containers after their rows existed (none unknown).
    t = performance.now();
    for (;;) {
      const { rows } = await cp.knex.raw(
        `select count(*) filter (where reconciled_at is null or reconciled_at < ?
                                     or jsonb_array_length(unknown_containers) > 0) as behind,
                count(*) filter (where status = 'online') as online
           from nodes`,
        [seededAt],
      );
      const { behind, online } = rows[0] as { behind: string; online: string };
      if (Number(behind) === 0 && Number(online) === NODES) break;
      if (performance.now() - t > RECONCILE_MS * 3 + 60_000) {
        throw new Error(`${behind} nodes not reconciled, ${online} of ${NODES} online`);
      }
      await sleep(1000);
    }
    say(`every node reconciled ${Math.round(performance.now() - t)} ms after the rows were written`);

    // ------------------------------------------------------------------ the quiet fleet
    // The window starts and ends with the heartbeats waiting for their tick written: the rows
    // counted are those of the heartbeats received in it (a heartbeat received just before the
    // window is not written in it, and one received at its end is).
    await cp.services.nodes.flushHeartbeats();
    const writes = watchWrites(cp);
    const beats = countHeartbeats(cp);
    const knexPool = (cp.knex.client as { pool: PoolLike }).pool;
    let maxPending = 0;
    let maxUsed = 0;
    const poolTimer = setInterval(() => {
      maxPending = Math.max(maxPending, knexPool.numPendingAcquires());
      maxUsed = Math.max(maxUsed, knexPool.numUsed());
    }, 100);
    const ages: number[] = [];
    const windowStart = performance.now();
    let cpuStart = process.cpuUsage();
    const agentsCpuStart = await agents.cpuUs();
    while (performance.now() - windowStart < WINDOW_MS) {
      const [row] = (
        await cp.knex.raw(
          `select extract(epoch from now() - min(last_heartbeat_at)) * 1000 as age,
                  count(*) filter (where status <> 'online') as offline
             from nodes`,
        )
      ).rows as { age: number; offline: string }[];
      ages.push(Number(row?.age ?? 0));
      await sleep(500);
    }
    const windowMs = performance.now() - windowStart;
    beats.stop();
    await cp.services.nodes.flushHeartbeats();
    writes.stop();
    const cpu = process.cpuUsage(cpuStart);
    const agentsCpuUs = (await agents.cpuUs()) - agentsCpuStart;
    clearInterval(poolTimer);
    const intervals = windowMs / HEARTBEAT_MS;
    // Each node sends one heartbeat per interval: the rows each heartbeat cost is the rows per
    // node per interval (the count of heartbeats, not the window's length, is the denominator).
    const rowsPerHeartbeat = writes.counts.rows / Math.max(1, beats.received);
    const beatsPerNodeInterval = beats.received / NODES / intervals;
    say(`rows by statement: ${JSON.stringify(Object.fromEntries(writes.byKind))}`);
    say(
      `window ${Math.round(windowMs)} ms: ${writes.counts.rows} rows in ${writes.counts.statements} statements on nodes/node_gpus, ${writes.counts.queries} queries in all, pool max used ${maxUsed} pending ${maxPending}`,
    );

    // ------------------------------------------------------------------ container events
    const victims = nodes
      .flatMap((n) => [...n.containers].map(([id, dockerId]) => ({ n, id, dockerId })))
      .sort(() => Math.random() - 0.5)
      .slice(0, CRASHES);
    const crashedAt = performance.now();
    await agents.crash(victims.map((v) => ({ node: v.n.index, dockerId: v.dockerId })));
    const eventLag = new Map<string, number>();
    while (eventLag.size < victims.length && performance.now() - crashedAt < 60_000) {
      const rows = await cp
        .knex('containers')
        .whereIn(
          'id',
          victims.map((v) => v.id).filter((id) => !eventLag.has(id)),
        )
        .whereNot('status', 'running')
        .select('id');
      const now = performance.now() - crashedAt;
      for (const r of rows as { id: string }[]) eventLag.set(r.id, now);
      await sleep(20);
    }
    const lags = [...eventLag.values()];
    say(`${lags.length} of ${victims.length} crashes seen, p50 ${median(lags).toFixed(0)} ms`);

    // ------------------------------------------------------------------ user side
    const user = new Api(cp.url);
    const email = 'fleet@example.net';
    await user.call('POST', '/api/auth/send-email-verify-code', { email });
    const outbox = await admin.call<{ items: { to: string; code: string | null }[] }>(
      'GET',
      `/api/admin/outbox?to=${encodeURIComponent(email)}`,
    );
    const code = outbox.items.find((m) => m.to === email)?.code;
    if (!code) throw new Error(`no verification code for ${email}`);
    user.token = (
      await user.call<{ token: string }>('POST', '/api/auth/register', {
        username: 'fleet_user',
        password: 'fleet-secret-1',
        email,
        email_verify_code: code,
      })
    ).token;
    const me = await user.call<{ id: number }>('GET', '/api/user/info');
    await admin.call('POST', `/api/admin/users/${me.id}/balance`, { amount: 100000, reason: 'fleet bench' });

    // Market: the list the 算力市场 shows, asked by a client in a process of its own (a browser
    // is not in the control plane's process either: its reading and parsing are not the server's).
    const marketLoop = monitorEventLoopDelay({ resolution: 10 });
    marketLoop.enable();
    const profile = await profiler(process.env.FLEET_PROFILE);
    const happenings = watchControlPlane(cp);
    const marketRun = await marketClient(cp.url, user.token, MARKET_WARMUP, MARKET_MS);
    happenings.stop();
    await profile.stop();
    marketLoop.disable();
    const slow = explainSlow(marketRun, happenings, MARKET_WARMUP);
    for (const line of slow.lines.slice(0, 30)) say(line);
    if (slow.lines.length > 30) say(`… and ${slow.lines.length - 30} more slow market requests`);
    // The first request reads the database (the list cached per replica between changes).
    const marketFirst = marketRun.answers[0] ?? 0;
    const market = marketRun.answers.slice(MARKET_WARMUP);
    const marketHead = marketRun.heads.slice(MARKET_WARMUP);
    const marketParsed = marketRun.parsed.slice(MARKET_WARMUP);
    const productCount = marketRun.products;
    // The same list in-process (no HTTP, no session): what the products service itself costs.
    const inProcess: number[] = [];
    for (let i = 0; i < 25; i++) {
      const s = performance.now();
      await cp.services.products.list({});
      if (i >= 5) inProcess.push(performance.now() - s);
    }
    say(
      `market: ${productCount} products (${marketRun.bytes} bytes, ${marketRun.encoding}), p50 ${median(market).toFixed(1)} ms p99 ${percentile(market, 99).toFixed(1)} ms (headers p50 ${median(marketHead).toFixed(1)} p99 ${percentile(marketHead, 99).toFixed(1)} ms, parsed p50 ${median(marketParsed).toFixed(1)} p99 ${percentile(marketParsed, 99).toFixed(1)} ms; the control plane's event loop delay meanwhile p99 ${(marketLoop.percentile(99) / 1e6).toFixed(0)} ms, max ${(marketLoop.max / 1e6).toFixed(0)} ms); in-process list p50 ${median(inProcess).toFixed(1)} ms`,
    );

    // Mutating API: purchases, stops, deletes through HTTP against the fleet. The control
    // plane's event loop delay meanwhile.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const framework = await admin.call<{ id: number }>('POST', '/api/admin/frameworks', {
      name: 'Fleet',
      ports: { ssh: 22 },
    });
    const version = await admin.call<{ id: number }>(
      'POST',
      `/api/admin/frameworks/${framework.id}/versions`,
      {
        version: '1',
        image: IMAGE,
        cuda_version: '12.4',
        ports: { ssh: 22 },
      },
    );
    const targets = [...nodes].sort(() => Math.random() - 0.5).slice(0, PURCHASES);
    const purchaseMs: number[] = [];
    const stopMs: number[] = [];
    const runningMs: number[] = [];
    const deleteMs: number[] = [];
    await pool(targets, 4, async (n, i) => {
      const productId = products.get(n.id as number) as number;
      let s = performance.now();
      const bought = await user.call<{ container_id: string; start_error?: string }>(
        'POST',
        `/api/cloud-products/${productId}/purchase`,
        {
          instanceName: `fleet-buy-${i}`,
          gpuCount: 1,
          framework: framework.id,
          frameworkVersion: version.id,
          agreeTerms: true,
          billing_type: 'hourly',
          duration: 1,
          total_price: 1.99,
        },
      );
      purchaseMs.push(performance.now() - s);
      if (bought.start_error) throw new Error(`purchase on ${n.name}: ${bought.start_error}`);
      // Until it runs (the status request the console makes, held until the status changes).
      const readyBy = performance.now();
      let status = (await user.call<{ status: string }>('GET', `/api/containers/${bought.container_id}`))
        .status;
      while (status !== 'running') {
        if (
          ['error', 'failed', 'deleted', 'stopped'].includes(status) ||
          performance.now() - readyBy > 60_000
        ) {
          throw new Error(`container ${bought.container_id} on ${n.name} is ${status}`);
        }
        const query = `while=${encodeURIComponent(status)}&wait=5`;
        status = (
          await user.call<{ status: string }>('GET', `/api/containers/${bought.container_id}/status?${query}`)
        ).status;
      }
      runningMs.push(performance.now() - s);
      s = performance.now();
      await user.call('POST', `/api/containers/${bought.container_id}/stop`);
      stopMs.push(performance.now() - s);
      s = performance.now();
      await user.call('DELETE', `/api/containers/${bought.container_id}`);
      deleteMs.push(performance.now() - s);
    });
    loopDelay.disable();
    const loopP99 = loopDelay.percentile(99) / 1e6;
    const loopMax = loopDelay.max / 1e6;
    const mutating = [...purchaseMs, ...stopMs, ...deleteMs];
    say(
      `purchases p50 ${median(purchaseMs).toFixed(0)} p99 ${percentile(purchaseMs, 99).toFixed(0)} ms (running p99 ${percentile(runningMs, 99).toFixed(0)} ms); stops p99 ${percentile(stopMs, 99).toFixed(0)} ms; deletes p99 ${percentile(deleteMs, 99).toFixed(0)} ms`,
    );

    const scale = `${NODES} nodes, ${NODES * PER_NODE} containers`;
    report(`fleet-${NODES}`, [
      {
        what: 'heartbeats: rows written to nodes/node_gpus per heartbeat (one per node per interval)',
        unit: 'rows',
        ours: rowsPerHeartbeat,
        goal: { op: '<=', value: 1 },
        note: `${scale}; ${writes.counts.rows} rows in ${writes.counts.statements} statements for ${beats.received} heartbeats received over ${Math.round(windowMs / 1000)} s at a ${HEARTBEAT_MS / 1000} s interval (${beatsPerNodeInterval.toFixed(3)} per node per interval); ${writes.counts.queries} queries in all; CPU: control plane ${((cpu.user + cpu.system) / 1000 / windowMs).toFixed(2)} cores, agents ${(agentsCpuUs / 1000 / windowMs).toFixed(2)} cores`,
      },
      {
        what: 'DB pool: most queries waiting for a connection (100 ms samples)',
        unit: 'queries',
        ours: maxPending,
        note: `${scale}; most connections in use ${maxUsed}`,
      },
      {
        what: 'node monitor: oldest heartbeat of the fleet, p99 of 500 ms samples',
        unit: 'ms',
        ours: percentile(ages, 99),
        goal: { op: '<=', value: 2 * HEARTBEAT_MS },
        note: `${scale}; max ${Math.round(Math.max(...ages))} ms, interval ${HEARTBEAT_MS} ms`,
      },
      {
        what: 'node monitor: container exit → its row, p99',
        unit: 'ms',
        ours: lags.length === victims.length ? percentile(lags, 99) : Number.POSITIVE_INFINITY,
        goal: { op: '<=', value: 1000 },
        note: `${scale}; ${victims.length} containers ended at once, ${lags.length} seen, p50 ${Math.round(median(lags))} ms`,
      },
      {
        what: 'market GET /api/cloud-products, p99 (until the last byte)',
        unit: 'ms',
        ours: percentile(market, 99),
        goal: { op: '<', value: 20 },
        note: `${scale}; ${productCount} products, ${market.length} requests one after the other over ${Math.round(MARKET_MS / 1000)} s from a client process of its own (gzip, ${marketRun.bytes} bytes of JSON), p50 ${median(market).toFixed(1)} ms, headers p99 ${percentile(marketHead, 99).toFixed(1)} ms; until the client had unzipped and parsed the list (on the same 2 cores) p50 ${median(marketParsed).toFixed(1)} ms p99 ${percentile(marketParsed, 99).toFixed(1)} ms; the products service alone (in-process) p50 ${median(inProcess).toFixed(1)} ms; the first request (list read from the database) ${Math.round(marketFirst)} ms; meanwhile the control plane ${slow.summary}`,
      },
      {
        what: 'mutating API (purchase, stop, delete), p99',
        unit: 'ms',
        ours: percentile(mutating, 99),
        goal: { op: '<=', value: 1000 },
        note: `${scale}; ${PURCHASES} each, 4 at a time; purchase p50 ${Math.round(median(purchaseMs))} p99 ${Math.round(percentile(purchaseMs, 99))} (running p99 ${Math.round(percentile(runningMs, 99))}), stop p99 ${Math.round(percentile(stopMs, 99))}, delete p99 ${Math.round(percentile(deleteMs, 99))}; the control plane's event loop delay meanwhile p99 ${Math.round(loopP99)} ms, max ${Math.round(loopMax)} ms (the agents run in a process of their own)`,
      },
    ]);
    cpuStart = process.cpuUsage();
  } catch (err) {
    console.error(platformLog.lines.slice(-60).join('\n'));
    throw err;
  } finally {
    await close();
  }
}

// ---------------------------------------------------------------------------------------------
// The agents' process: `tsx fleet.ts agents <root> <toolboxDir>`, driven over IPC.

type ToAgents =
  | { type: 'crash'; items: { node: number; dockerId: string }[] }
  | { type: 'cpu' }
  | { type: 'close' };
type FromAgents =
  | {
      type: 'ready';
      nodes: {
        index: number;
        name: string;
        token: string;
        address: string;
        containers: [string, string][];
      }[];
    }
  | { type: 'crashed' }
  | { type: 'cpu'; us: number }
  | { type: 'error'; message: string };

interface AgentsProcess {
  nodes: FleetNode[];
  /** Ends these containers in their engines (exit code 1), as a crash would. */
  crash(items: { node: number; dockerId: string }[]): Promise<void>;
  /** The agents' process's CPU time so far (user + system, µs). */
  cpuUs(): Promise<number>;
  close(): Promise<void>;
}

async function startAgentsProcess(root: string, toolboxDir: string): Promise<AgentsProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), 'agents', root, toolboxDir],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: process.env },
  );
  const waiting: ((m: FromAgents) => void)[] = [];
  let failed: Error | undefined;
  child.on('message', (m: FromAgents) => {
    if (m.type === 'error') failed = new Error(`the agents' process: ${m.message}`);
    waiting.shift()?.(m);
  });
  child.once('exit', (code) => {
    failed ??= new Error(`the agents' process exited (${code})`);
    for (const w of waiting.splice(0)) w({ type: 'error', message: failed.message });
  });
  const next = (): Promise<FromAgents> =>
    failed ? Promise.reject(failed) : new Promise((resolve) => waiting.push(resolve));
  const ask = async <T extends FromAgents['type']>(message: ToAgents | undefined, type: T) => {
    const answer = next();
    if (message) child.send(message);
    const m = await answer;
    if (m.type !== type) throw failed ?? new Error(`the agents' process answered ${m.type}, not ${type}`);
    return m as Extract<FromAgents, { type: T }>;
  };
  const ready = await ask(undefined, 'ready');
  return {
    nodes: ready.nodes.map((n) => ({ ...n, containers: new Map(n.containers) })),
    crash: async (items) => {
      await ask({ type: 'crash', items }, 'crashed');
    },
    cpuUs: async () => (await ask({ type: 'cpu' }, 'cpu')).us,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'close' } satisfies ToAgents);
        setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
      }),
  };
}

/**
 * The control plane's CPU profile while the market is asked (FLEET_PROFILE=file.cpuprofile;
 * open it in Chrome's DevTools): what keeps its event loop busy then.
 */
async function profiler(file: string | undefined): Promise<{ stop(): Promise<void> }> {
  if (!file) return { stop: async () => {} };
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      say(`CPU profile of the market's requests: ${file}`);
    },
  };
}

interface MarketRun {
  /** Each request's start (ms since the epoch: the clock both processes share). */
  starts: number[];
  /**
   * Each request's time until its headers came, until its last byte came (the answer, as HTTP
   * benchmarks time it), and until the client had unzipped and parsed the list (ms).
   */
  heads: number[];
  answers: number[];
  parsed: number[];
  products: number;
  bytes: number;
  encoding: string;
}

/** Asks for the market's list `count` times, one after the other, from a process of its own. */
function marketClient(
  url: string,
  token: string | undefined,
  warmup: number,
  durationMs: number,
): Promise<MarketRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        'market',
        url,
        token ?? '',
        String(warmup),
        String(durationMs),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
    );
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the market client exited (${code})`));
      resolve(JSON.parse(out) as MarketRun);
    });
  });
}

/**
 * The market client's process: asks as a browser would (keep-alive, gzip accepted, no cached
 * copy) with node:http (fetch's web streams cost more than a browser's network stack), unzips,
 * parses, times.
 */
async function runMarketClient(
  url: string,
  token: string,
  warmup: number,
  durationMs: number,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const run: MarketRun = {
    starts: [],
    heads: [],
    answers: [],
    parsed: [],
    products: 0,
    bytes: 0,
    encoding: '',
  };
  let measuredFrom = Number.POSITIVE_INFINITY;
  for (let i = 0; i < warmup || performance.now() - measuredFrom < durationMs; i++) {
    if (i === warmup) measuredFrom = performance.now();
    const s = performance.now();
    run.starts.push(performance.timeOrigin + s);
    const { status, encoding, body } = await new Promise<{ status: number; encoding: string; body: Buffer }>(
      (resolve, reject) => {
        const req = http.get(
          `${url}/api/cloud-products`,
          { agent, headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' } },
          (res) => {
            run.heads.push(performance.now() - s);
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              run.answers.push(performance.now() - s);
              resolve({
                status: res.statusCode ?? 0,
                encoding: res.headers['content-encoding'] ?? 'identity',
                body: Buffer.concat(chunks),
              });
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
      },
    );
    const text = (encoding === 'gzip' ? gunzipSync(body) : body).toString();
    if (status !== 200) throw new Error(`GET /api/cloud-products: ${status} ${text}`);
    const list = JSON.parse(text) as { items: unknown[] };
    run.parsed.push(performance.now() - s);
    run.products = list.items.length;
    run.bytes = text.length;
    run.encoding = encoding;
  }
  agent.destroy();
  process.stdout.write(JSON.stringify(run));
}

async function runAgents(root: string, toolboxDir: string): Promise<void> {
  const send = (m: FromAgents) => process.send?.(m);
  const nodes: AgentNode[] = [];
  try {
    for (let i = 0; i < NODES; i += 50) {
      const batch = Array.from({ length: Math.min(50, NODES - i) }, (_, k) => i + k);
      nodes.push(...(await Promise.all(batch.map((k) => startNode(k, root, toolboxDir)))));
    }
  } catch (err) {
    console.error(platformLog.lines.slice(-60).join('\n'));
    send({ type: 'error', message: String(err) });
    process.exit(1);
  }
  const byIndex = new Map(nodes.map((n) => [n.index, n]));
  process.on('message', async (m: ToAgents) => {
    if (m.type === 'crash') {
      for (const item of m.items) byIndex.get(item.node)?.engine.crash(item.dockerId, 1);
      send({ type: 'crashed' });
    } else if (m.type === 'cpu') {
      const usage = process.cpuUsage();
      send({ type: 'cpu', us: usage.user + usage.system });
    } else if (m.type === 'close') {
      await Promise.all(nodes.map((n) => n.agent.close(200)));
      for (const n of nodes) n.engine.close();
      process.exit(0);
    }
  });
  // The bench went away without closing us.
  process.on('disconnect', () => process.exit(0));
  send({
    type: 'ready',
    nodes: nodes.map((n) => ({
      index: n.index,
      name: n.name,
      token: n.token,
      address: n.address,
      containers: [...n.containers],
    })),
  });
}

if (process.argv[2] === 'agents') {
  await runAgents(process.argv[3] as string, process.argv[4] as string);
} else if (process.argv[2] === 'market') {
  await runMarketClient(
    process.argv[3] as string,
    process.argv[4] as string,
    Number(process.argv[5]),
    Number(process.argv[6]),
  );
} else {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
