/**
 * Purchase → SSH accepting, for an image already on the node, against a raw `docker run` of the
 * same image with its own sshd, measured in the same run. Target: ours ≤ 1.2× the baseline.
 *
 *   npm run bench:purchase-ssh -w @gpucloud/e2e     (or npx tsx e2e/bench/purchase-ssh.ts)
 *   npm run bench                                   (every bench in e2e/bench)
 *   BENCH_RUNS=11 npx tsx e2e/bench/purchase-ssh.ts (runs per side after the warm-up; 7 by default)
 *
 * Starts what the e2e suite's globalSetup starts (an embedded PostgreSQL of its own under
 * .data/pg-bench, the test Docker engine, the agent toolbox, the test images), then the platform
 * in-process as e2e/test/platform.ts does (an agent with 8 simulated GPUs on that engine and a
 * control plane), with the Debian test image (gpucloud-test/debian-bash:local: a Debian rootfs,
 * CMD bash, no sshd) in the catalogue as a framework version with ports {ssh: 22}.
 *
 *   ours      a user's POST /api/cloud-products/{id}/purchase (1 GPU, hourly), then, as the
 *             console does, GET /api/containers/{id}/status?while=<shown>&wait=5 (the server
 *             answers the moment the status changes) until it says running (运行中: the
 *             platform has seen the banner), then until the container's published SSH port
 *             sends its banner line ("SSH-2.0-…") to a new connection. DELETE
 *             /api/containers/{id} after each run. (Polling the API every few milliseconds
 *             instead costs the 2-core machine's Docker daemon ~80 ms of the start.)
 *   baseline  `docker run -d -p 127.0.0.1:<free port>:22 -v <toolbox>:/.gpucloud:ro <image>
 *             sh -c 'mkdir -p /etc/dropbear && exec /.gpucloud/bin/dropbear -F -R -p 22'`
 *             with the docker CLI, until the same banner; `docker rm -f` after each run. The
 *             toolbox's Dropbear carries its own loader; -R makes the host keys at the first
 *             connection, into /etc/dropbear (the mkdir: without it the banner comes but no
 *             key exchange can follow).
 *
 * The banner is polled every 10 ms with a new TCP connection to 127.0.0.1:<port> (Docker's proxy
 * accepts on a published port before anything listens behind it, then closes). One warm-up of
 * each side (also checking that a real SSH session works: a password login into ours, a key
 * exchange with the baseline), then BENCH_RUNS rounds, ours and the baseline interleaved with
 * alternating order. Prints min/median/max of each and the ratio of the medians; never fails on
 * the ratio (a measurement), exits non-zero when anything breaks.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type RunningControlPlane, startControlPlane } from '@gpucloud/control-plane/platform';
import { type RunningAgent, startAgent } from '@gpucloud/node-agent';
import { Client } from 'ssh2';
import { ensureDockerEngine, removeStaleTestContainers } from '../../scripts/lib/docker-engine.mjs';
import { freeLoopbackPort } from '../../scripts/lib/free-port.mjs';
import { ensurePostgres } from '../../scripts/lib/postgres.mjs';
import { ensureTestImages } from '../../scripts/lib/test-images.mjs';
import { testToolboxDir } from '../../scripts/lib/test-services.mjs';
import { controlPlaneConfig } from '../test/control-plane-config.js';
import { createDatabase } from '../test/databases.js';
import { sshExec } from '../test/ssh.js';
import { Api, PlatformLog, setupLog } from './common.js';
import { report } from './results.js';

const DATA_DIR = fileURLToPath(new URL('../../.data', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_RATIO = 1.2;
const POLL_MS = 10;
/** How long a status request may wait for a change (the console's value). */
const STATUS_WAIT_SECONDS = 5;
const BANNER_TIMEOUT_MS = 120_000;
// Below the kernel's ephemeral ports and above the ranges of the e2e suite's agents (20000-31699).
const AGENT_PORT_RANGE = '32000-32499';
const ADMIN = { username: 'admin', password: randomBytes(12).toString('hex') };
const execFileAsync = promisify(execFile);

// ---------------------------------------------------------------------------------------------
// Logs of the platform: kept quiet, printed when the bench fails.

const platformLog = new PlatformLog(200);
const keepLog = platformLog.add;

// ---------------------------------------------------------------------------------------------
// What the API answers.

interface ContainerView {
  container_id: string;
  status: string;
  ssh_server: string;
  ssh_port: number | null;
  password: string;
}

interface Purchase {
  product: { id: number; price: number };
  frameworkId: number;
  versionId: number;
}

// ---------------------------------------------------------------------------------------------
// The platform, as e2e/test/platform.ts starts it, on services this script provides itself.

interface Bench {
  cp: RunningControlPlane;
  agent: RunningAgent;
  dockerHost: string;
  toolboxDir: string;
  image: string;
  close(): Promise<void>;
}

async function startBench(): Promise<Bench> {
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
    const toolboxDir = testToolboxDir();
    const pg = await ensurePostgres({
      dataDir: DATA_DIR,
      name: 'pg-bench',
      port: 5447,
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
    const agent = await startAgent(
      {
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
        // A test- name: containers an interrupted run leaves are removed by a later test run.
        nodeName: `test-bench-${token.slice(0, 6)}`,
        heartbeatIntervalMs: 1000,
      },
      { log: keepLog },
    );
    closers.push(() => agent.close());
    // Whatever a failed run left on the engine (run after the control plane has stopped).
    closers.push(async () => {
      const env = { ...process.env, DOCKER_HOST: engine.dockerHost };
      const filter = `label=gpucloud.node=${agent.config.nodeName}`;
      const { stdout } = await execFileAsync('docker', ['ps', '-aq', '--filter', filter], { env });
      const ids = stdout.split('\n').filter(Boolean);
      if (ids.length > 0) await execFileAsync('docker', ['rm', '-f', ...ids], { env });
      // The agent keeps a user's network for an hour after their last container (the default):
      // the bench's go with it.
      const networks = await execFileAsync('docker', ['network', 'ls', '-q', '--filter', filter], { env });
      const netIds = networks.stdout.split('\n').filter(Boolean);
      if (netIds.length > 0) await execFileAsync('docker', ['network', 'rm', ...netIds], { env });
    });
    const config = controlPlaneConfig({
      databaseUrl: await createDatabase(pg.url, 'bench'),
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
    return { cp, agent, dockerHost: engine.dockerHost, toolboxDir, image: images.debian, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The Debian image as a framework version (admin API), and a user with credit to buy it. */
async function prepareCatalogue(bench: Bench): Promise<{ user: Api; purchase: Purchase }> {
  const admin = new Api(bench.cp.url);
  admin.token = (
    await admin.call<{ token: string }>('POST', '/api/auth/login', {
      username: ADMIN.username,
      password: ADMIN.password,
    })
  ).token;
  const framework = await admin.call<{ id: number }>('POST', '/api/admin/frameworks', {
    name: 'Bench Debian',
    ports: { ssh: 22 },
  });
  const version = await admin.call<{ id: number }>('POST', `/api/admin/frameworks/${framework.id}/versions`, {
    version: 'bookworm',
    image: bench.image,
    cuda_version: '12.4',
    ports: { ssh: 22 },
  });

  // A new user (e-mail code from the sandbox outbox); the sign-up credit pays for hourly runs.
  const user = new Api(bench.cp.url);
  const email = 'bench@example.com';
  await user.call('POST', '/api/auth/send-email-verify-code', { email });
  const outbox = await admin.call<{ items: { to: string; code: string | null }[] }>(
    'GET',
    `/api/admin/outbox?to=${encodeURIComponent(email)}`,
  );
  const code = outbox.items.find((m) => m.to === email)?.code;
  if (!code) throw new Error(`no verification code for ${email}: ${JSON.stringify(outbox)}`);
  user.token = (
    await user.call<{ token: string }>('POST', '/api/auth/register', {
      username: 'bench_user',
      password: 'bench-secret-1',
      email,
      email_verify_code: code,
    })
  ).token;
  const products = await user.call<{ items: { id: number; price: number }[] }>('GET', '/api/cloud-products');
  const product = products.items[0];
  if (!product) throw new Error('no cloud product');
  return { user, purchase: { product, frameworkId: framework.id, versionId: version.id } };
}

// ---------------------------------------------------------------------------------------------
// Measuring.

/**
 * Resolves with the first line a new connection to 127.0.0.1:port sends, once that is an SSH
 * banner. A new attempt starts every POLL_MS, without waiting for a slow one to give up.
 */
function waitForBanner(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sockets = new Set<net.Socket>();
    let settled = false;
    const finish = (error: Error | undefined, line = '') => {
      if (settled) return;
      settled = true;
      clearInterval(ticker);
      clearTimeout(deadline);
      for (const socket of sockets) socket.destroy();
      if (error) reject(error);
      else resolve(line);
    };
    const attempt = () => {
      const socket = net.connect({ host: '127.0.0.1', port });
      sockets.add(socket);
      let received = '';
      socket.setTimeout(2000, () => socket.destroy());
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        const end = received.indexOf('\n');
        if (end < 0) return;
        const line = received.slice(0, end).trim();
        if (line.startsWith('SSH-')) finish(undefined, line);
        else socket.destroy();
      });
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    };
    const ticker = setInterval(attempt, POLL_MS);
    const deadline = setTimeout(
      () => finish(new Error(`no SSH banner on 127.0.0.1:${port} within ${BANNER_TIMEOUT_MS} ms`)),
      BANNER_TIMEOUT_MS,
    );
    attempt();
  });
}

/** Resolves when an SSH key exchange with 127.0.0.1:port completes (authentication may fail). */
function sshHandshake(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const conn = new Client();
    let done = false;
    conn
      .on('handshake', () => {
        done = true;
        conn.end();
        resolve();
      })
      .on('error', (err) => {
        if (!done) reject(new Error(`SSH key exchange with 127.0.0.1:${port} failed: ${err.message}`));
      })
      .connect({
        host: '127.0.0.1',
        port,
        username: 'root',
        password: 'not-a-password',
        readyTimeout: 10_000,
        hostVerifier: () => true,
      });
  });
}

interface Timing {
  /** Until the purchase request / `docker run -d` answered. */
  answeredMs: number;
  /** Until the SSH banner. */
  bannerMs: number;
  banner: string;
}

async function measureOurs(user: Api, p: Purchase, name: string, check: boolean): Promise<Timing> {
  const started = performance.now();
  const bought = await user.call<{ container_id: string; started: boolean; start_error?: string }>(
    'POST',
    `/api/cloud-products/${p.product.id}/purchase`,
    {
      instanceName: name,
      gpuCount: 1,
      framework: p.frameworkId,
      frameworkVersion: p.versionId,
      agreeTerms: true,
      billing_type: 'hourly',
      duration: 1,
      total_price: Math.round(p.product.price * 100) / 100,
    },
  );
  const answeredMs = performance.now() - started;
  const id = bought.container_id;
  try {
    if (bought.start_error) throw new Error(`container ${id} did not start: ${bought.start_error}`);
    // As the console does: wait for 运行中 with the status request the server holds until the
    // status changes, then connect (polling the port earlier makes the kernel hold the first
    // SYNs to the not yet started container for a neighbour lookup, ~0.5 s).
    const container = await user.call<ContainerView>('GET', `/api/containers/${id}`);
    let status = container.status;
    while (status !== 'running') {
      if (['error', 'failed', 'deleted', 'stopped'].includes(status)) {
        throw new Error(`container ${id} is ${status}`);
      }
      const query = `while=${encodeURIComponent(status)}&wait=${STATUS_WAIT_SECONDS}`;
      status = (await user.call<{ status: string }>('GET', `/api/containers/${id}/status?${query}`)).status;
    }
    if (container.ssh_port === null) throw new Error(`container ${id} has no SSH port`);
    const banner = await waitForBanner(container.ssh_port);
    const bannerMs = performance.now() - started;
    if (check) {
      const out = await sshExec({
        host: container.ssh_server,
        port: container.ssh_port,
        password: container.password,
        command: 'echo bench-$((40+2))',
      });
      if (!out.includes('bench-42')) throw new Error(`SSH into ${id} answered ${JSON.stringify(out)}`);
    }
    return { answeredMs, bannerMs, banner };
  } finally {
    await user.call('DELETE', `/api/containers/${id}`);
  }
}

async function measureDockerRun(
  bench: Bench,
  name: string,
  check: boolean,
  network?: string,
): Promise<Timing> {
  const env = { ...process.env, DOCKER_HOST: bench.dockerHost };
  const port = await freeLoopbackPort();
  const started = performance.now();
  try {
    await execFileAsync(
      'docker',
      [
        'run',
        '-d',
        '--name',
        name,
        '--label',
        'gpucloud.bench=purchase-ssh',
        ...(network ? ['--network', network] : []),
        '-p',
        `127.0.0.1:${port}:22`,
        '-v',
        `${bench.toolboxDir}:/.gpucloud:ro`,
        bench.image,
        'sh',
        '-c',
        'mkdir -p /etc/dropbear && exec /.gpucloud/bin/dropbear -F -R -p 22',
      ],
      { env },
    );
    const answeredMs = performance.now() - started;
    const banner = await waitForBanner(port);
    const bannerMs = performance.now() - started;
    if (check) await sshHandshake(port);
    return { answeredMs, bannerMs, banner };
  } finally {
    await execFileAsync('docker', ['rm', '-f', name], { env });
  }
}

// ---------------------------------------------------------------------------------------------
// Reporting.

interface Stats {
  min: number;
  median: number;
  max: number;
}

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n % 2 ? (sorted[(n - 1) / 2] ?? 0) : ((sorted[n / 2 - 1] ?? 0) + (sorted[n / 2] ?? 0)) / 2;
  return { min: sorted[0] ?? 0, median, max: sorted[n - 1] ?? 0 };
}

const ms = (value: number) => `${Math.round(value)} ms`;
const range = (s: Stats) => `median ${ms(s.median)} (${Math.round(s.min)}..${Math.round(s.max)})`;

function row(cells: string[], widths: number[]): string {
  return cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
    .join('  ');
}

async function main() {
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a positive integer: ${RUNS}`);
  const setupStarted = performance.now();
  const bench = await startBench();
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const { user, purchase } = await prepareCatalogue(bench);
    const setupMs = performance.now() - setupStarted;
    const tag = randomBytes(3).toString('hex');

    // A bridge network of its own for the second baseline: what Docker itself costs a container
    // that is kept apart from others the way ours are (a user-defined bridge brings Docker's
    // embedded DNS, set up in the container's namespace at each start).
    const env = { ...process.env, DOCKER_HOST: bench.dockerHost };
    const ownNetwork = `gpucloud-bench-net-${tag}`;
    await execFileAsync(
      'docker',
      ['network', 'create', '--label', 'gpucloud.bench=purchase-ssh', ownNetwork],
      {
        env,
      },
    );
    // Warm-up: one of each, with a real SSH session, not counted.
    const warmOurs = await measureOurs(user, purchase, 'bench-warmup', true);
    const warmDocker = await measureDockerRun(bench, `gpucloud-bench-${tag}-warmup`, true);

    const ours: Timing[] = [];
    const docker: Timing[] = [];
    const dockerOwnNet: Timing[] = [];
    const measuredStarted = performance.now();
    try {
      for (let i = 0; i < RUNS && !interrupted; i += 1) {
        // Rotate which side goes first, so none always follows another's cleanup.
        const sides = [
          async () => ours.push(await measureOurs(user, purchase, `bench-${i + 1}`, false)),
          async () => docker.push(await measureDockerRun(bench, `gpucloud-bench-${tag}-${i + 1}`, false)),
          async () =>
            dockerOwnNet.push(
              await measureDockerRun(bench, `gpucloud-bench-${tag}-net-${i + 1}`, false, ownNetwork),
            ),
        ];
        for (let k = 0; k < sides.length; k += 1) await sides[(i + k) % sides.length]?.();
      }
    } finally {
      await execFileAsync('docker', ['network', 'rm', ownNetwork], { env });
    }
    if (interrupted) throw new Error('interrupted');
    const measuredMs = performance.now() - measuredStarted;

    const oursStats = stats(ours.map((m) => m.bannerMs));
    const dockerStats = stats(docker.map((m) => m.bannerMs));
    const ownNetStats = stats(dockerOwnNet.map((m) => m.bannerMs));
    const ratios = stats(ours.map((m, i) => m.bannerMs / (docker[i]?.bannerMs ?? Number.NaN)));
    const ratio = oursStats.median / dockerStats.median;

    console.log(
      `Purchase → SSH banner on ${os.hostname()} (${os.cpus().length} CPUs), Docker ${bench.dockerHost}, image ${bench.image}; ` +
        `${RUNS} runs of each after 1 warm-up, interleaved (${new Date().toISOString()})\n`,
    );
    const widths = [6, 16, 12, 20, 18, 7, 22];
    console.log(
      row(
        [
          'run',
          'purchase answer',
          'ours banner',
          'docker run answer',
          'docker run banner',
          'ratio',
          'own-network banner',
        ],
        widths,
      ),
    );
    for (let i = 0; i < RUNS; i += 1) {
      const o = ours[i];
      const d = docker[i];
      const n = dockerOwnNet[i];
      if (!o || !d || !n) continue;
      console.log(
        row(
          [
            String(i + 1),
            ms(o.answeredMs),
            ms(o.bannerMs),
            ms(d.answeredMs),
            ms(d.bannerMs),
            `${(o.bannerMs / d.bannerMs).toFixed(2)}×`,
            ms(n.bannerMs),
          ],
          widths,
        ),
      );
    }
    console.log(
      `\nWarm-up (not counted; ours includes making the user's network, a first purchase on a node): ours ${ms(warmOurs.bannerMs)}, docker run + sshd ${ms(warmDocker.bannerMs)}; ` +
        `banners: ours "${warmOurs.banner}", baseline "${warmDocker.banner}"`,
    );
    console.log(
      `Purchase request answered: ${range(stats(ours.map((m) => m.answeredMs)))}; ` +
        `docker run -d answered: ${range(stats(docker.map((m) => m.answeredMs)))}`,
    );
    console.log(
      `Set-up ${(setupMs / 1000).toFixed(1)} s, ${RUNS} rounds ${(measuredMs / 1000).toFixed(1)} s\n`,
    );
    console.log(
      `purchase → SSH banner (debian image on the node): ours ${range(oursStats)}, ` +
        `docker run + sshd ${range(dockerStats)}, ratio ${ratio.toFixed(2)}× ` +
        `(per round ${ratios.min.toFixed(2)}..${ratios.max.toFixed(2)}×) (target ≤ ${TARGET_RATIO}×: ` +
        `${ratio <= TARGET_RATIO ? 'met' : 'not met'})`,
    );
    console.log(
      `docker run + sshd on a bridge network of its own (Docker's embedded DNS set up at start, as for ours): ` +
        `${range(ownNetStats)}; ours against it ${(oursStats.median / ownNetStats.median).toFixed(2)}×`,
    );
    const answered = stats(ours.map((m) => m.answeredMs));
    const dockerAnswered = stats(docker.map((m) => m.answeredMs));
    report('purchase', [
      {
        what: 'purchase answered (POST …/purchase)',
        unit: 'ms',
        ours: answered.median,
        baseline: { label: 'docker run -d', value: dockerAnswered.median },
        goal: { op: '<=', value: TARGET_RATIO },
        note: `median of ${RUNS}`,
      },
      {
        what: 'purchase → SSH banner',
        unit: 'ms',
        ours: oursStats.median,
        baseline: { label: 'docker run + sshd', value: dockerStats.median },
        goal: { op: '<=', value: TARGET_RATIO },
        note: `median of ${RUNS}`,
      },
      {
        what: 'purchase → SSH banner, baseline on a network of its own',
        unit: 'ms',
        ours: oursStats.median,
        baseline: { label: 'docker run + sshd, own bridge', value: ownNetStats.median },
        goal: { op: '<=', value: TARGET_RATIO },
        note: "Docker's embedded DNS, set up for a user-defined bridge, as ours has",
      },
    ]);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await bench.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  if (platformLog.lines.length > 0)
    console.error(`\nLast platform log lines:\n${platformLog.lines.join('\n')}`);
  process.exitCode = 1;
});
