/**
 * The API's hot path against a bare Node `http` server answering the same bytes, measured with
 * autocannon in the same run. Goals (on the ratio ours / bare): GET /api/health ≥ 0.6,
 * GET /api/billing/balance (bearer token) ≥ 0.3, GET /api/containers (bearer token, 3 containers
 * with a GPU each) ≥ 0.2, GET /login (the console's HTML) ≥ 0.5; and at 70% of our measured peak,
 * p99 < 20 ms.
 *
 *   npm run bench:api -w @gpucloud/e2e      (or npx tsx e2e/bench/api.ts from the repository root)
 *   BENCH_ROUNDS=5 BENCH_SECONDS=8 npx tsx e2e/bench/api.ts
 *   BENCH_ONLY=containers BENCH_API_PROFILE=/tmp/prof npx tsx e2e/bench/api.ts
 *     (only the paths containing `containers`; our server writes a V8 CPU profile there on exit)
 *   BENCH_API_NODE_FLAGS='--max-semi-space-size=32' npx tsx e2e/bench/api.ts   (flags for our server)
 *
 * Starts an embedded PostgreSQL of its own (.data/pg-bench-api), a control plane in a child
 * process (as `npm start` runs it: tsx, its jobs running, the built console from web/dist when
 * there is one) and a bare `http` server in another child process, which answers each measured
 * path with the status, content type and body our server gave for it. The bench process only
 * runs autocannon, so neither server shares its event loop with the load generator.
 *
 *   peak      for each path, BENCH_ROUNDS rounds (3 by default) of BENCH_SECONDS (5) seconds at
 *             10 connections, ours and the bare server alternating which goes first; the figure
 *             is the median of the rounds' mean req/s. Every answer must be a 2xx.
 *   p99       then BENCH_ROUNDS runs of ours at a fixed rate of 0.7 × our peak (autocannon
 *             overallRate): the median of their p99 latencies (each run's p99 and our server's
 *             longest event-loop stall during it in the note, to tell our stalls from the machine's).
 *
 * The user signs up through the API (sandbox e-mail code, read from the admin outbox); its
 * containers are rows written directly to the database (a node nobody dials, one GPU each, a
 * sealed password): no Docker.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { ensurePostgres } from '../../scripts/lib/postgres.mjs';
import { createDatabase } from '../test/databases.js';
import { type Measurement, median, report } from './results.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DATA_DIR = path.join(ROOT, '.data');
const WEB_DIST = path.join(ROOT, 'web', 'dist');
const SELF = fileURLToPath(import.meta.url);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const LOAD_SHARE = 0.7;
const P99_GOAL_MS = 20;
const ADMIN = { username: 'admin', password: randomBytes(12).toString('hex') };

interface ServerSettings {
  databaseUrl: string;
  secretKeyHex: string;
  adminPassword: string;
  webDist: string | undefined;
}

/** What the bare server answers for a path: what ours answered. */
interface Answer {
  status: number;
  contentType: string;
  bodyBase64: string;
}

// ---------------------------------------------------------------------------------------------
// The two servers, each in its own process: `tsx api.ts serve-ours` / `serve-bare`.

async function serveOurs(settings: ServerSettings): Promise<void> {
  const { loadConfig } = await import('@gpucloud/control-plane/config');
  const { startControlPlane } = await import('@gpucloud/control-plane/platform');
  const defaults = loadConfig({ DATABASE_URL: 'postgres://set-below', SECRET_KEY: settings.secretKeyHex });
  const cp = await startControlPlane(
    {
      ...defaults,
      port: 0,
      host: '127.0.0.1',
      databaseUrl: settings.databaseUrl,
      secretKey: Buffer.from(settings.secretKeyHex, 'hex'),
      adminUsername: ADMIN.username,
      adminPassword: settings.adminPassword,
      webDist: settings.webDist,
      bootstrapNode: undefined,
      agentTls: undefined,
      // No image registry process beside it (the default would spawn one on port 5000).
      registry: { kind: 'off' },
    },
    () => {},
  );
  process.stdout.write(`READY ${cp.url}\n`);
  // SIGUSR2: the longest event-loop stall and the longest GC pause since the last one (ms).
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let gcMax = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => {
    process.stdout.write(`LOOP ${(loop.max / 1e6).toFixed(1)} ${gcMax.toFixed(1)}\n`);
    loop.reset();
    gcMax = 0;
  });
  process.on('SIGTERM', () => {
    cp.close().finally(() => process.exit(0));
  });
}

async function serveBare(answersFile: string): Promise<void> {
  const answers = new Map<string, { status: number; contentType: string; body: Buffer }>();
  for (const [p, a] of Object.entries(
    JSON.parse(readFileSync(answersFile, 'utf8')) as Record<string, Answer>,
  ))
    answers.set(p, {
      status: a.status,
      contentType: a.contentType,
      body: Buffer.from(a.bodyBase64, 'base64'),
    });
  const server = http.createServer((req, res) => {
    const answer = answers.get((req.url ?? '/').split('?')[0] as string);
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, {
      'content-type': answer.contentType,
      'content-length': answer.body.length,
    });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

interface Child {
  url: string;
  pid: number;
  /** Our server only: its longest event-loop stall and GC pause (ms) since the previous call. */
  loopStall(): Promise<{ stall: number; gc: number }>;
  stop(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// CPU time (Linux /proc), to tell where a request's time goes on a machine others share too.

const TICK_MS = 10; // USER_HZ = 100

/** utime + stime of a process in ms, and its parent's pid; undefined once it is gone. */
function procStat(pid: number): { cpuMs: number; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return undefined;
  }
}

/** CPU ms of PostgreSQL's postmaster and all its processes (backends, writers). */
function postgresCpuMs(clusterDir: string | undefined): number {
  if (!clusterDir) return 0;
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return 0;
  }
  let total = procStat(postmaster)?.cpuMs ?? 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat?.ppid === postmaster) total += stat.cpuMs;
  }
  return total;
}

/** Starts this file in a role; resolves once it printed its URL. */
function startChild(args: string[], env: Record<string, string>, nodeFlags: string[] = []): Promise<Child> {
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', SELF, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(chunk.toString());
    if (tail.length > 50) tail.shift();
  };
  child.stderr?.on('data', keep);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\S+)\n/.exec(out);
      if (match) {
        child.stdout?.removeAllListeners('data');
        child.stdout?.on('data', keep);
        resolve({
          url: match[1] as string,
          pid: child.pid as number,
          loopStall: () =>
            new Promise<{ stall: number; gc: number }>((done) => {
              let line = '';
              const read = (chunk: Buffer) => {
                line += chunk.toString();
                const stall = /LOOP (\S+) (\S+)\n/.exec(line);
                if (!stall) return;
                child.stdout?.off('data', read);
                done({ stall: Number(stall[1]), gc: Number(stall[2]) });
              };
              child.stdout?.on('data', read);
              child.kill('SIGUSR2');
            }),
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited (${code}):\n${tail.join('')}${out}`)));
  });
}

// ---------------------------------------------------------------------------------------------
// The data: a signed-up user with three containers.

async function call<T>(base: string, method: string, p: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(base + p, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** AES-256-GCM, as the control plane seals container passwords (framework/secret-box.ts). */
async function seal(key: Buffer, plain: string): Promise<string> {
  const { createCipheriv } = await import('node:crypto');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(
    ':',
  );
}

async function prepareUser(base: string, databaseUrl: string, key: Buffer): Promise<string> {
  const admin = (
    await call<{ token: string }>(base, 'POST', '/api/auth/login', {
      username: ADMIN.username,
      password: ADMIN.password,
    })
  ).token;
  const email = 'bench-api@example.com';
  await call(base, 'POST', '/api/auth/send-email-verify-code', { email });
  const outbox = await call<{ items: { to: string; code: string | null }[] }>(
    base,
    'GET',
    `/api/admin/outbox?to=${encodeURIComponent(email)}`,
    undefined,
    admin,
  );
  const code = outbox.items.find((m) => m.to === email)?.code;
  if (!code) throw new Error(`no verification code for ${email}`);
  const { token } = await call<{ token: string }>(base, 'POST', '/api/auth/register', {
    username: 'benchapi',
    password: 'bench-password',
    email,
    email_verify_code: code,
  });

  const knex = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 } });
  try {
    const user = await knex('users').where({ username: 'benchapi' }).first('id');
    const [node] = await knex('nodes')
      .insert({ name: 'bench-node', address: '127.0.0.1:1', token: 'x'.repeat(20), region: '本地' })
      .returning('id');
    for (let i = 0; i < 3; i++) {
      const id = `c-bench-${i}`;
      const uuid = `GPU-bench-${i}`;
      await knex('node_gpus').insert({
        node_id: node.id,
        gpu_index: i,
        uuid,
        model: 'RTX 4090',
        memory_total_mib: 24_564,
      });
      await knex('containers').insert({
        id,
        user_id: user.id,
        node_id: node.id,
        name: `bench-${i}`,
        image: 'gpucloud/pytorch:2.4',
        status: 'running',
        billing_type: 'hourly',
        price_fen: 199,
        gpu_count: 1,
        gpu_type: 'RTX 4090',
        password_encrypted: await seal(key, randomBytes(9).toString('base64url')),
        ports: JSON.stringify([
          { name: 'ssh', container_port: 22, host_port: 30_000 + i * 2, custom: false },
          { name: 'jupyter', container_port: 8888, host_port: 30_001 + i * 2, custom: false },
        ]),
        started_at: new Date(),
      });
      await knex('gpu_allocations').insert({ node_id: node.id, container_id: id, gpu_uuid: uuid });
    }
  } finally {
    await knex.destroy();
  }
  return token;
}

// ---------------------------------------------------------------------------------------------
// Measuring.

interface Target {
  what: string;
  path: string;
  token?: string;
  goal: number;
}

interface Run {
  rps: number;
  p99: number;
  /** CPU µs per request of the server, and of PostgreSQL. */
  serverUs: number;
  postgresUs: number;
}

/** What `load` reads the CPU time of: the server measured and the PostgreSQL cluster. */
interface Watched {
  server: Child;
  clusterDir: string | undefined;
}

async function load(
  url: string,
  token: string | undefined,
  opts: { duration: number; rate?: number; watch?: Watched },
): Promise<Run> {
  const serverBefore = opts.watch ? (procStat(opts.watch.server.pid)?.cpuMs ?? 0) : 0;
  const postgresBefore = postgresCpuMs(opts.watch?.clusterDir);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: opts.duration,
    ...(opts.rate ? { overallRate: opts.rate } : {}),
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  const served = Math.max(1, result.requests.total);
  const serverMs = opts.watch ? (procStat(opts.watch.server.pid)?.cpuMs ?? 0) - serverBefore : 0;
  const postgresMs = postgresCpuMs(opts.watch?.clusterDir) - postgresBefore;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    serverUs: (serverMs * 1000) / served,
    postgresUs: (postgresMs * 1000) / served,
  };
}

async function answerOf(base: string, target: Target): Promise<Answer> {
  const res = await fetch(base + target.path, {
    headers: target.token ? { authorization: `Bearer ${target.token}` } : {},
  });
  if (!res.ok) throw new Error(`GET ${target.path}: ${res.status}`);
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    bodyBase64: Buffer.from(await res.arrayBuffer()).toString('base64'),
  };
}

async function main(): Promise<void> {
  const closers: (() => Promise<void>)[] = [];
  const log = (line: string) => console.error(`[api] ${line}`);
  try {
    const pg = await ensurePostgres({
      dataDir: DATA_DIR,
      name: 'pg-bench-api',
      port: 5448,
      database: 'postgres',
      fresh: true,
      log,
    });
    closers.push(() => pg.stop());
    const key = randomBytes(32);
    const webDist = existsSync(path.join(WEB_DIST, 'index.html')) ? WEB_DIST : undefined;
    if (!webDist) log('web/dist has no build: GET /login is not measured (cd web && npx vite build)');
    const settings: ServerSettings = {
      databaseUrl: await createDatabase(pg.url, 'bench_api'),
      secretKeyHex: key.toString('hex'),
      adminPassword: ADMIN.password,
      webDist,
    };
    const profile = process.env.BENCH_API_PROFILE;
    const ours = await startChild(['serve-ours'], { BENCH_API_SETTINGS: JSON.stringify(settings) }, [
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
      ...(process.env.BENCH_API_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    ]);
    closers.push(() => ours.stop());
    const token = await prepareUser(ours.url, settings.databaseUrl, key);

    const only = process.env.BENCH_ONLY;
    const targets: Target[] = [
      { what: 'GET /api/health', path: '/api/health', goal: 0.6 },
      { what: 'GET /api/billing/balance (token)', path: '/api/billing/balance', token, goal: 0.3 },
      { what: 'GET /api/containers (token, 3 containers)', path: '/api/containers', token, goal: 0.2 },
      ...(webDist ? [{ what: 'GET /login (console HTML)', path: '/login', goal: 0.5 }] : []),
    ].filter((t) => !only || t.path.includes(only));
    const answers: Record<string, Answer> = {};
    for (const t of targets) answers[t.path] = await answerOf(ours.url, t);
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-bench-api-'));
    closers.push(async () => rmSync(tmp, { recursive: true, force: true }));
    const answersFile = path.join(tmp, 'answers.json');
    writeFileSync(answersFile, JSON.stringify(answers));
    const bare = await startChild(['serve-bare', answersFile], {});
    closers.push(() => bare.stop());

    const measurements: Measurement[] = [];
    for (const t of targets) {
      // Warm-up of both (JIT, pools, caches).
      await load(ours.url + t.path, t.token, { duration: 1 });
      await load(bare.url + t.path, t.token, { duration: 1 });
      const mine: Run[] = [];
      const theirs: Run[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours'];
        for (const side of order) {
          const server = side === 'ours' ? ours : bare;
          const run = await load(server.url + t.path, t.token, {
            duration: SECONDS,
            watch: { server, clusterDir: pg.clusterDir },
          });
          (side === 'ours' ? mine : theirs).push(run);
        }
      }
      const peak = median(mine.map((r) => r.rps));
      const bareRps = median(theirs.map((r) => r.rps));
      const rate = Math.max(1, Math.round(peak * LOAD_SHARE));
      const fixed: { p99: number; stall: number; gc: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        await ours.loopStall();
        const { p99 } = await load(ours.url + t.path, t.token, { duration: SECONDS, rate });
        fixed.push({ p99, ...(await ours.loopStall()) });
      }
      const stalls = fixed.map((f) => `${f.stall} (GC ${f.gc})`).join('/');
      const fixedP99 = median(fixed.map((f) => f.p99));
      const cpu = {
        ours: Math.round(median(mine.map((r) => r.serverUs))),
        postgres: Math.round(median(mine.map((r) => r.postgresUs))),
        bare: Math.round(median(theirs.map((r) => r.serverUs))),
      };
      log(
        `${t.what}: ours ${mine.map((r) => Math.round(r.rps)).join('/')} req/s, bare ${theirs
          .map((r) => Math.round(r.rps))
          .join('/')} req/s, at ${rate} req/s p99 ${fixed.map((f) => f.p99).join('/')} ms (longest stall ` +
          `${stalls} ms); CPU per request: ours ${cpu.ours} µs ` +
          `+ PostgreSQL ${cpu.postgres} µs, bare ${cpu.bare} µs`,
      );
      measurements.push({
        what: t.what,
        unit: 'req/s',
        ours: peak,
        baseline: { label: 'bare Node http', value: bareRps },
        goal: { op: '>=', value: t.goal },
        note:
          `${CONNECTIONS} connections, median of ${ROUNDS}×${SECONDS} s; p99 at peak ${median(mine.map((r) => r.p99))} ms ` +
          `(bare ${median(theirs.map((r) => r.p99))} ms); CPU per request ${cpu.ours} µs + PostgreSQL ` +
          `${cpu.postgres} µs (bare ${cpu.bare} µs)`,
      });
      measurements.push({
        what: `${t.what}: p99 at 70% of peak`,
        unit: 'ms',
        ours: fixedP99,
        goal: { op: '<', value: P99_GOAL_MS },
        note:
          `${rate} req/s, median of ${ROUNDS}×${SECONDS} s: p99 ${fixed.map((f) => f.p99).join('/')} ms; ` +
          `our longest event-loop stall ${stalls} ms`,
      });
    }
    // A partial run (BENCH_ONLY) is printed, not recorded over the full one.
    if (only)
      for (const m of measurements) log(`${m.what}: ${m.ours} ${m.unit} (${m.baseline?.value ?? '-'})`);
    else report('api', measurements);
  } finally {
    for (const close of closers.reverse()) await close().catch((err: unknown) => console.error(err));
  }
}

const role = process.argv[2];
if (role === 'serve-ours') {
  await serveOurs(JSON.parse(process.env.BENCH_API_SETTINGS ?? '{}') as ServerSettings);
} else if (role === 'serve-bare') {
  await serveBare(process.argv[3] as string);
} else {
  await main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
