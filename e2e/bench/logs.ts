/**
 * A container's log through the platform (Docker → agent → gRPC → control plane → WebSocket)
 * against `docker logs -f` of the same container, measured in the same run.
 *
 *   npm run bench:logs -w @gpucloud/e2e     (or npx tsx e2e/bench/logs.ts)
 *   BENCH_RUNS=10 BENCH_LINES=200000 npx tsx e2e/bench/logs.ts
 *
 * Starts the services of the e2e suite (the test Docker engine, the toolbox, the test images, an
 * embedded PostgreSQL of its own: GPUCLOUD_TEST_PG=name:port, else pg-bench-logs on 33450), the
 * node agent in a child process (logs-agent.ts, so that its CPU time is its own; containers'
 * ports from 33000-33399, json-file logs of 4 MB × 4 files) and the control plane in this
 * process. A user buys one container of a writer image (the Debian test image with a bash
 * script as its command) that idles until the bench drops an order into /tmp/go with
 * `docker exec`, then prints `begin <round>`, the lines, `end <round>`:
 *
 *   fast    `seq 1 N` (N = BENCH_LINES, 200,000 by default: ~15 MB of json-file, ≥ 3 rotations
 *           of the 4 MB files), as fast as Docker takes it;
 *   paced   `<i> <$EPOCHREALTIME>` lines, 20 every 10 ms (2,000 lines/s) for 5 s.
 *
 * Each round has one follower, started before the order (and seen to deliver the last line,
 * tail=1, before it): ours, the console's WebSocket /api/containers/ws/{id}/logs?tail=1; or the
 * baseline, `docker logs -f --tail 1 <id>` with the docker CLI (DOCKER_HOST set). Rounds
 * alternate ours / baseline, BENCH_RUNS (10) fast rounds of each and 1 paced round of each.
 *
 * Reported: lines/s from `begin` to `end` as the follower received them (median of the fast
 * rounds; goal ours/baseline ≥ 0.8); complete rounds (every number 1..N once, in order; goal:
 * all of ours); p99 of (receipt time − the writer's timestamp) in the paced rounds (goal
 * < 500 ms; docker's p99 in the note); CPU time of the agent process (utime+stime from
 * /proc/<pid>/stat, from the order until `end` reached the WebSocket) against that of the
 * `docker logs -f` process over its own round (goal ≤ 1.2). Neither counts dockerd nor the control
 * plane (in this process, with the WebSocket client). Where the agent may read the json-file
 * itself (here: as root, on the engine's host) it does, and dockerd does no work for our side;
 * the baseline's dockerd decodes the JSON for `docker logs -f`. Note that `docker logs -f` loses
 * lines across fast rotations on this engine, so its lines/s and CPU are for the lines it got.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type RunningControlPlane, startControlPlane } from '@gpucloud/control-plane/platform';
import WebSocket from 'ws';
import { ensureDockerEngine, removeStaleTestContainers } from '../../scripts/lib/docker-engine.mjs';
import { ensurePostgres } from '../../scripts/lib/postgres.mjs';
import { ensureTestImages } from '../../scripts/lib/test-images.mjs';
import { testToolboxDir } from '../../scripts/lib/test-services.mjs';
import { controlPlaneConfig } from '../test/control-plane-config.js';
import { createDatabase } from '../test/databases.js';
import { Api, PlatformLog, setupLog } from './common.js';
import { median, percentile, report } from './results.js';

const DATA_DIR = fileURLToPath(new URL('../../.data', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const LINES = Number(process.env.BENCH_LINES ?? 200_000);
const PACED_RATE = 2000;
const PACED_SECONDS = 5;
const LOG_MAX_SIZE = '4m';
const LOG_MAX_FILES = 4;
const AGENT_PORT_RANGE = '33000-33399';
const [PG_NAME, PG_PORT] = (process.env.GPUCLOUD_TEST_PG ?? 'pg-bench-logs:33450').split(':');
/** A round whose follower receives nothing new for this long is over (lines were lost). */
const STALL_MS = 20_000;
const WRITER_IMAGE = 'gpucloud-bench/log-writer:local';
const ADMIN = { username: 'admin', password: randomBytes(12).toString('hex') };
const CLOCK_TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux
const execFileAsync = promisify(execFile);

// The writer: idles until /tmp/go holds an order `<mode> <round>`, then runs it.
const WRITER_SCRIPT = `
echo "writer ready"
while :; do
  if [ -s /tmp/go ]; then
    read -r mode round < /tmp/go
    rm -f /tmp/go
    echo "begin $round"
    case $mode in
      fast) seq 1 ${LINES} ;;
      paced)
        i=0
        while [ $i -lt ${PACED_RATE * PACED_SECONDS} ]; do
          for ((j = 0; j < ${PACED_RATE / 100}; j++)); do i=$((i + 1)); echo "$i $EPOCHREALTIME"; done
          sleep 0.01
        done ;;
    esac
    echo "end $round"
  fi
  sleep 0.05
done
`;

const platformLog = new PlatformLog(200);
const keepLog = platformLog.add;

// ---------------------------------------------------------------------------------------------
// The platform.

interface Platform {
  cp: RunningControlPlane;
  agentPid: number;
  dockerHost: string;
  close(): Promise<void>;
}

function docker(dockerHost: string, args: string[]) {
  return execFileAsync('docker', args, { env: { ...process.env, DOCKER_HOST: dockerHost } });
}

/** The agent in a child process; resolves with its address once it listens. */
function spawnAgent(options: object): Promise<{ child: ChildProcess; address: string; nodeName: string }> {
  const script = fileURLToPath(new URL('./logs-agent.ts', import.meta.url));
  // BENCH_AGENT_PROFILE=<dir>: a V8 CPU profile of the agent, written there when it exits.
  const profile = process.env.BENCH_AGENT_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_AGENT_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script, JSON.stringify(options)], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line) keepLog(line);
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => {
      try {
        const { address, nodeName } = JSON.parse(line) as { address: string; nodeName: string };
        resolve({ child, address, nodeName });
      } catch (err) {
        reject(err);
      }
    });
    child.once('exit', (code) => reject(new Error(`the agent exited (${code}) before it listened`)));
  });
}

async function startPlatform(): Promise<Platform> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch((err: unknown) => console.error(err));
  };
  try {
    const engine = await ensureDockerEngine({ dataDir: DATA_DIR, log: setupLog });
    await removeStaleTestContainers(engine.socketPath);
    const images = await ensureTestImages({
      dockerHost: engine.dockerHost,
      dataDir: DATA_DIR,
      log: setupLog,
    });
    // The writer image: the Debian test image with the script as its command.
    const base = (await docker(engine.dockerHost, ['create', images.debian, 'true'])).stdout.trim();
    try {
      await docker(engine.dockerHost, [
        'commit',
        '--change',
        `CMD ${JSON.stringify(['bash', '-c', WRITER_SCRIPT])}`,
        base,
        WRITER_IMAGE,
      ]);
    } finally {
      await docker(engine.dockerHost, ['rm', '-f', base]);
    }
    const toolboxDir = testToolboxDir();
    const pg = await ensurePostgres({
      dataDir: DATA_DIR,
      name: PG_NAME,
      port: Number(PG_PORT),
      database: 'postgres',
      fresh: !process.env.DATABASE_URL,
      log: setupLog,
    });
    closers.push(() => pg.stop());

    const volumeRoot = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-bench-volumes-'));
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-bench-state-'));
    closers.push(async () => {
      rmSync(volumeRoot, { recursive: true, force: true });
      rmSync(stateDir, { recursive: true, force: true });
    });
    const token = randomBytes(18).toString('hex');
    const agent = await spawnAgent({
      token,
      listen: '127.0.0.1:0',
      simulateGpus: '8xRTX4090',
      dockerHost: engine.dockerHost,
      toolboxDir,
      bindAddress: '127.0.0.1',
      publicHost: '127.0.0.1',
      portRange: AGENT_PORT_RANGE,
      volumeRoot,
      stateDir,
      nodeName: `test-bench-${token.slice(0, 6)}`,
      heartbeatIntervalMs: 1000,
      logMaxSize: LOG_MAX_SIZE,
      logMaxFiles: LOG_MAX_FILES,
    });
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          if (agent.child.exitCode !== null) return resolve();
          agent.child.once('exit', () => resolve());
          agent.child.kill('SIGTERM');
        }),
    );
    closers.push(async () => {
      const filter = `label=gpucloud.node=${agent.nodeName}`;
      const { stdout } = await docker(engine.dockerHost, ['ps', '-aq', '--filter', filter]);
      const ids = stdout.split('\n').filter(Boolean);
      if (ids.length > 0) await docker(engine.dockerHost, ['rm', '-f', ...ids]);
      const networks = await docker(engine.dockerHost, ['network', 'ls', '-q', '--filter', filter]);
      const netIds = networks.stdout.split('\n').filter(Boolean);
      if (netIds.length > 0) await docker(engine.dockerHost, ['network', 'rm', ...netIds]);
    });
    const config = controlPlaneConfig({
      databaseUrl: await createDatabase(pg.url, 'bench_logs'),
      adminUsername: ADMIN.username,
      adminPassword: ADMIN.password,
      sessionTtlHours: 24,
      bootstrapNode: {
        name: 'local',
        address: agent.address,
        token,
        region: '本地',
        publicHost: '127.0.0.1',
      },
      agentCallTimeoutMs: 60_000,
      nodeOfflineAfterMs: 30_000,
      monitorSyncIntervalMs: 10_000,
      heartbeatIntervalMs: 1_000,
    });
    const cp = await startControlPlane(config, platformLog.controlPlane);
    closers.push(() => cp.close());
    if (agent.child.pid === undefined) throw new Error('the agent has no pid');
    return { cp, agentPid: agent.child.pid, dockerHost: engine.dockerHost, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A user who bought one running container of the writer image: its platform id and Docker id. */
async function buyWriter(platform: Platform): Promise<{ user: Api; id: string; dockerId: string }> {
  const admin = new Api(platform.cp.url);
  admin.token = (await admin.call<{ token: string }>('POST', '/api/auth/login', ADMIN)).token;
  const framework = await admin.call<{ id: number }>('POST', '/api/admin/frameworks', {
    name: 'Bench log writer',
    ports: { ssh: 22 },
  });
  const version = await admin.call<{ id: number }>('POST', `/api/admin/frameworks/${framework.id}/versions`, {
    version: 'bench',
    image: WRITER_IMAGE,
    cuda_version: '12.4',
    ports: { ssh: 22 },
  });
  const user = new Api(platform.cp.url);
  const email = 'bench-logs@example.com';
  await user.call('POST', '/api/auth/send-email-verify-code', { email });
  const outbox = await admin.call<{ items: { to: string; code: string | null }[] }>(
    'GET',
    `/api/admin/outbox?to=${encodeURIComponent(email)}`,
  );
  const code = outbox.items.find((m) => m.to === email)?.code;
  if (!code) throw new Error(`no verification code for ${email}`);
  user.token = (
    await user.call<{ token: string }>('POST', '/api/auth/register', {
      username: 'bench_logs',
      password: 'bench-secret-1',
      email,
      email_verify_code: code,
    })
  ).token;
  const products = await user.call<{ items: { id: number; price: number }[] }>('GET', '/api/cloud-products');
  const product = products.items[0];
  if (!product) throw new Error('no cloud product');
  const bought = await user.call<{ container_id: string; start_error?: string }>(
    'POST',
    `/api/cloud-products/${product.id}/purchase`,
    {
      instanceName: 'bench-logs',
      gpuCount: 1,
      framework: framework.id,
      frameworkVersion: version.id,
      agreeTerms: true,
      billing_type: 'hourly',
      duration: 1,
      total_price: Math.round(product.price * 100) / 100,
    },
  );
  if (bought.start_error) throw new Error(`the writer did not start: ${bought.start_error}`);
  const id = bought.container_id;
  for (let status = ''; status !== 'running'; ) {
    if (['error', 'failed', 'deleted', 'stopped'].includes(status))
      throw new Error(`the writer is ${status}`);
    const query = status ? `?while=${encodeURIComponent(status)}&wait=5` : '';
    status = (await user.call<{ status: string }>('GET', `/api/containers/${id}/status${query}`)).status;
  }
  const { stdout } = await docker(platform.dockerHost, [
    'ps',
    '-q',
    '--no-trunc',
    '--filter',
    `label=gpucloud.container-id=${id}`,
  ]);
  let dockerId = stdout.trim();
  if (!dockerId) {
    // The label's name is the agent's business: find the one container of the writer image.
    const all = await docker(platform.dockerHost, [
      'ps',
      '-q',
      '--no-trunc',
      '--filter',
      `ancestor=${WRITER_IMAGE}`,
    ]);
    dockerId = all.stdout.trim();
  }
  if (!dockerId || dockerId.includes('\n'))
    throw new Error(`no single Docker container for ${id}: ${dockerId}`);
  return { user, id, dockerId };
}

// ---------------------------------------------------------------------------------------------
// Followers and rounds.

interface Follower {
  /** Every complete line, with the time it was received. */
  onLine(handler: (line: string, atMs: number) => void): void;
  /** The follower's process CPU time now, in seconds (undefined: measured elsewhere). */
  cpuSeconds(): number;
  close(): void;
}

/** Splits text chunks into lines, keeping a partial line for the next chunk. */
function lineSplitter(emit: (line: string, atMs: number) => void): (text: string) => void {
  let rest = '';
  return (text) => {
    const at = performance.timeOrigin + performance.now();
    let start = 0;
    let data = rest + text;
    for (let nl = data.indexOf('\n'); nl >= 0; nl = data.indexOf('\n', start)) {
      emit(data.slice(start, nl), at);
      start = nl + 1;
    }
    rest = data.slice(start);
    data = '';
  };
}

function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command (which may hold spaces) start at state (field 3).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
}

function ourFollower(platform: Platform, user: Api, id: string): Follower {
  const url = `${platform.cp.url.replace(/^http/, 'ws')}/api/containers/ws/${id}/logs?tail=1&token=${encodeURIComponent(user.token ?? '')}`;
  const ws = new WebSocket(url);
  let handler: (line: string, atMs: number) => void = () => {};
  const feed = lineSplitter((line, at) => handler(line, at));
  ws.on('message', (data: Buffer, isBinary: boolean) =>
    feed(isBinary ? data.toString('utf8') : data.toString()),
  );
  ws.on('error', (err) => keepLog(`websocket: ${err.message}`));
  return {
    onLine: (h) => {
      handler = h;
    },
    cpuSeconds: () => processCpuSeconds(platform.agentPid),
    close: () => ws.close(),
  };
}

function dockerFollower(platform: Platform, dockerId: string): Follower {
  const child = spawn('docker', ['logs', '-f', '--tail', '1', dockerId], {
    env: { ...process.env, DOCKER_HOST: platform.dockerHost },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let handler: (line: string, atMs: number) => void = () => {};
  const feed = lineSplitter((line, at) => handler(line, at));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', feed);
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', feed);
  return {
    onLine: (h) => {
      handler = h;
    },
    cpuSeconds: () => processCpuSeconds(child.pid as number),
    close: () => child.kill('SIGTERM'),
  };
}

interface RoundResult {
  side: 'ours' | 'docker';
  mode: 'fast' | 'paced';
  lines: number;
  /** Lines per second between `begin` and `end` as received. */
  rate: number;
  complete: boolean;
  missing: number;
  outOfOrder: number;
  /** CPU seconds of the agent (ours) or of `docker logs -f` (docker) during the round. */
  cpu: number;
  latenciesMs: number[];
  seconds: number;
}

async function runRound(
  platform: Platform,
  side: 'ours' | 'docker',
  mode: 'fast' | 'paced',
  round: string,
  follower: Follower,
  dockerId: string,
): Promise<RoundResult> {
  const expected = mode === 'fast' ? LINES : PACED_RATE * PACED_SECONDS;
  let state: 'waiting' | 'armed' | 'in' | 'done' = 'waiting';
  let next = 1;
  let missing = 0;
  let outOfOrder = 0;
  let received = 0;
  let beginAt = 0;
  let endAt = 0;
  let lastProgress = Date.now();
  const latencies: number[] = [];
  let onFirst: () => void = () => {};
  let onEnd: () => void = () => {};
  const first = new Promise<void>((resolve) => {
    onFirst = resolve;
  });
  const ended = new Promise<void>((resolve) => {
    onEnd = resolve;
  });
  follower.onLine((line, at) => {
    lastProgress = Date.now();
    if (state === 'waiting') {
      state = 'armed';
      onFirst();
    }
    if (state === 'armed') {
      if (line === `begin ${round}`) {
        state = 'in';
        beginAt = at;
      }
      return;
    }
    if (state !== 'in') return;
    if (line === `end ${round}`) {
      state = 'done';
      endAt = at;
      onEnd();
      return;
    }
    const space = line.indexOf(' ');
    const n = Number(space < 0 ? line : line.slice(0, space));
    received += 1;
    if (n === next) next += 1;
    else if (n > next) {
      missing += n - next;
      next = n + 1;
    } else outOfOrder += 1;
    if (mode === 'paced' && space > 0) latencies.push(at - Number(line.slice(space + 1)) * 1000);
  });
  // The follower delivers the last line (tail=1) once its stream is established.
  await Promise.race([first, new Promise((r) => setTimeout(r, 15_000))]);
  if (state === 'waiting') throw new Error(`the ${side} follower received nothing in 15 s`);
  const cpuBefore = follower.cpuSeconds();
  await docker(platform.dockerHost, [
    'exec',
    dockerId,
    'sh',
    '-c',
    `echo '${mode} ${round}' > /tmp/go.new && mv /tmp/go.new /tmp/go`,
  ]);
  lastProgress = Date.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (Date.now() - lastProgress > STALL_MS) {
        clearInterval(timer);
        resolve();
      }
    }, 250);
    void ended.then(() => {
      clearInterval(timer);
      resolve();
    });
  });
  const cpu = follower.cpuSeconds() - cpuBefore;
  if (state !== 'done') {
    missing += expected - (next - 1);
    endAt = performance.timeOrigin + performance.now();
  } else if (next - 1 < expected) missing += expected - (next - 1);
  const seconds = (endAt - beginAt) / 1000;
  return {
    side,
    mode,
    lines: received,
    rate: received / seconds,
    complete: state === 'done' && missing === 0 && outOfOrder === 0 && received === expected,
    missing,
    outOfOrder,
    cpu,
    latenciesMs: latencies,
    seconds,
  };
}

async function round(
  platform: Platform,
  writer: { user: Api; id: string; dockerId: string },
  side: 'ours' | 'docker',
  mode: 'fast' | 'paced',
  name: string,
): Promise<RoundResult> {
  const follower =
    side === 'ours'
      ? ourFollower(platform, writer.user, writer.id)
      : dockerFollower(platform, writer.dockerId);
  try {
    const result = await runRound(platform, side, mode, name, follower, writer.dockerId);
    const status = result.complete
      ? 'complete'
      : `INCOMPLETE (${result.missing} missing, ${result.outOfOrder} out of order)`;
    const lat =
      mode === 'paced'
        ? `, latency p50 ${percentile(result.latenciesMs, 50).toFixed(0)} ms p99 ${percentile(result.latenciesMs, 99).toFixed(0)} ms`
        : '';
    console.log(
      `${name.padEnd(10)} ${side.padEnd(6)} ${mode.padEnd(5)} ${Math.round(result.rate).toLocaleString('en-US').padStart(8)} lines/s ` +
        `${result.seconds.toFixed(2)} s, cpu ${result.cpu.toFixed(2)} s, ${status}${lat}`,
    );
    return result;
  } finally {
    follower.close();
  }
}

async function main() {
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a positive integer: ${RUNS}`);
  const platform = await startPlatform();
  try {
    const writer = await buyWriter(platform);
    console.log(
      `Logs: ${LINES.toLocaleString('en-US')} lines per fast round, json-file ${LOG_MAX_SIZE} × ${LOG_MAX_FILES}, ` +
        `${RUNS} fast rounds of each side, interleaved; ${os.cpus().length} CPUs (${new Date().toISOString()})`,
    );
    // Warm-up of each side, not counted.
    await round(platform, writer, 'ours', 'fast', 'warm-ours');
    await round(platform, writer, 'docker', 'fast', 'warm-dock');
    const results: RoundResult[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const sides: ('ours' | 'docker')[] = i % 2 === 0 ? ['ours', 'docker'] : ['docker', 'ours'];
      for (const side of sides)
        results.push(await round(platform, writer, side, 'fast', `r${i + 1}-${side}`));
    }
    const pacedOurs = await round(platform, writer, 'ours', 'paced', 'paced-ours');
    const pacedDocker = await round(platform, writer, 'docker', 'paced', 'paced-dock');

    const ours = results.filter((r) => r.side === 'ours');
    const theirs = results.filter((r) => r.side === 'docker');
    const oursRate = median(ours.map((r) => r.rate));
    const dockerRate = median(theirs.map((r) => r.rate));
    const oursComplete = ours.filter((r) => r.complete).length;
    const dockerComplete = theirs.filter((r) => r.complete).length;
    const oursCpu = median(ours.map((r) => r.cpu));
    const dockerCpu = median(theirs.map((r) => r.cpu));
    const lost = ours.reduce((sum, r) => sum + r.missing, 0);
    const p99 = percentile(pacedOurs.latenciesMs, 99);
    const dockerP99 = percentile(pacedDocker.latenciesMs, 99);
    report('logs', [
      {
        what: 'log lines/s over WebSocket (fast writer)',
        unit: 'lines/s',
        ours: oursRate,
        baseline: { label: 'docker logs -f', value: dockerRate },
        goal: { op: '>=', value: 0.8 },
        note: `median of ${RUNS} rounds of ${LINES.toLocaleString('en-US')} lines`,
      },
      {
        what: 'complete and in order across ≥ 3 json-file rotations',
        unit: 'rounds',
        ours: oursComplete,
        goal: { op: '>=', value: RUNS },
        note: `of ${RUNS}; ${lost} lines lost in all; docker logs -f complete in ${dockerComplete} of ${RUNS}`,
      },
      {
        what: 'log line latency p99 (paced writer, 2,000 lines/s)',
        unit: 'ms',
        ours: p99,
        goal: { op: '<', value: 500 },
        note: `p50 ${percentile(pacedOurs.latenciesMs, 50).toFixed(0)} ms; docker logs -f p99 ${dockerP99.toFixed(0)} ms`,
      },
      {
        what: 'agent CPU time per fast round',
        unit: 's',
        ours: oursCpu,
        baseline: { label: 'docker logs -f process', value: dockerCpu },
        goal: { op: '<=', value: 1.2 },
        note: 'utime+stime from /proc/<pid>/stat: the agent process alone vs the docker CLI alone',
      },
    ]);
  } finally {
    await platform.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  if (platformLog.lines.length > 0)
    console.error(`\nLast platform log lines:\n${platformLog.lines.join('\n')}`);
  process.exitCode = 1;
});
