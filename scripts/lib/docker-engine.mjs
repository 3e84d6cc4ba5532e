// Finds a reachable Docker engine, or starts a private dockerd under .data/docker when the
// machine has one installed and we are root. Used by `npm start` and `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/** Resolves true when the engine behind `socketPath` answers /_ping. */
export function pingDocker(socketPath, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const req = http.request({ socketPath, path: '/_ping', method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

function dockerApi(socketPath, method, apiPath) {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: apiPath, method, timeout: 30_000 }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`${method} ${apiPath}: timeout`)));
    req.end();
  });
}

/**
 * Removes containers that test agents (node names `test-…`) created more than `olderThanMs`
 * ago: a suite that was interrupted leaves them behind, and their restart policy brings them
 * back with every engine start. Containers of `npm start` (node "local") are never touched.
 */
export async function removeStaleTestContainers(socketPath, olderThanMs = 60 * 60_000) {
  const filters = encodeURIComponent(JSON.stringify({ label: ['gpucloud.node'] }));
  const list = await dockerApi(socketPath, 'GET', `/containers/json?all=true&filters=${filters}`);
  if (list.status !== 200) return 0;
  let removed = 0;
  for (const c of JSON.parse(list.body)) {
    const node = c.Labels?.['gpucloud.node'] ?? '';
    if (!node.startsWith('test-') || Date.now() - c.Created * 1000 < olderThanMs) continue;
    const r = await dockerApi(socketPath, 'DELETE', `/containers/${c.Id}?force=true&v=true`);
    if (r.status === 204 || r.status === 404) removed++;
  }
  await removeStaleTestNetworks(socketPath, olderThanMs);
  return removed;
}

/**
 * Tenant networks of test agents (`test-…` nodes) made more than `olderThanMs` ago that no
 * container (of any state) uses: an interrupted run leaves them, and each holds a bridge, a /24
 * of the tenant pool and a firewall rule.
 */
async function removeStaleTestNetworks(socketPath, olderThanMs) {
  const filters = encodeURIComponent(JSON.stringify({ label: ['gpucloud.tenant-network=true'] }));
  const list = await dockerApi(socketPath, 'GET', `/networks?filters=${filters}`);
  if (list.status !== 200) return;
  for (const n of JSON.parse(list.body)) {
    const node = n.Labels?.['gpucloud.node'] ?? '';
    if (!node.startsWith('test-') || Date.now() - Date.parse(n.Created) < olderThanMs) continue;
    const users = encodeURIComponent(JSON.stringify({ network: [n.Name] }));
    const on = await dockerApi(socketPath, 'GET', `/containers/json?all=true&filters=${users}`);
    if (on.status !== 200 || JSON.parse(on.body).length > 0) continue;
    await dockerApi(socketPath, 'DELETE', `/networks/${n.Id}`);
  }
}

function socketFromDockerHost(value) {
  if (!value) return undefined;
  if (value.startsWith('unix://')) return value.slice('unix://'.length);
  return undefined;
}

function which(bin) {
  const r = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function ip(args) {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')} failed: ${r.stderr.trim()}`);
  return r.stdout;
}

/**
 * A private engine gets a bridge and subnet of its own, never docker0: two engines on one
 * machine (a developer's `npm start` and a clean clone's `npm test`, say) would otherwise hand
 * out the same container addresses on the same bridge, and a published port would reach the
 * other engine's container. The subnet is picked from 172.18-31.x.0/24 by the data folder's
 * hash, skipping any already routed on this machine.
 */
function ensureBridge(name, rootHash) {
  const existing = spawnSync('ip', ['-o', '-4', 'addr', 'show', 'dev', name], { encoding: 'utf8' });
  if (existing.status === 0 && /inet \d/.test(existing.stdout)) {
    ip(['link', 'set', name, 'up']);
    return name;
  }
  if (existing.status !== 0) ip(['link', 'add', 'name', name, 'type', 'bridge']);
  const routes = ip(['-o', '-4', 'route', 'show']);
  const seed = Number.parseInt(rootHash.slice(10, 14), 16);
  for (let i = 0; i < 14 * 256; i++) {
    const n = (seed + i) % (14 * 256);
    const prefix = `172.${18 + Math.floor(n / 256)}.${n % 256}.`;
    if (routes.includes(prefix) || routes.includes(`172.${18 + Math.floor(n / 256)}.0.0/16`)) continue;
    ip(['addr', 'add', `${prefix}1/24`, 'dev', name]);
    ip(['link', 'set', name, 'up']);
    return name;
  }
  throw new Error('no free 172.18-31.x.0/24 subnet for the private Docker bridge');
}

/**
 * After its dockerd has exited: the firewall rules dockerd made for the private bridge (it leaves
 * them behind: FORWARD, DOCKER-ISOLATION-*, the NAT masquerade) and the bridge itself. The next
 * start makes both again, with the same subnet unless another network took it meanwhile.
 */
function removeBridge(name) {
  for (const table of ['filter', 'nat']) {
    const rules = spawnSync('iptables', ['-t', table, '-S'], { encoding: 'utf8' });
    if (rules.status !== 0) continue;
    for (const line of rules.stdout.split('\n')) {
      const words = line.trim().split(/\s+/);
      if (words[0] !== '-A' || !words.includes(name)) continue;
      spawnSync('iptables', ['-t', table, '-D', ...words.slice(1)], { stdio: 'ignore' });
    }
  }
  spawnSync('ip', ['link', 'delete', name, 'type', 'bridge'], { stdio: 'ignore' });
}

/**
 * Where the private engine of the data folder `dir` lives: its folder, socket, exec-root (the
 * containerd sockets, whose paths must stay short: one per data folder, so two checkouts — a
 * developer's and a clean clone — never share a containerd) and bridge.
 */
export function privateEngine(dir) {
  const root = path.join(path.resolve(dir), 'docker');
  const rootHash = createHash('sha256').update(root).digest('hex');
  return {
    root,
    rootHash,
    socketPath: path.join(root, 'docker.sock'),
    dataRoot: path.join(root, 'data'),
    execRoot: `/tmp/gpucloud-docker-${rootHash.slice(0, 12)}`,
    bridge: `gpc${rootHash.slice(0, 10)}`,
  };
}

/**
 * Returns `{ socketPath, dockerHost, private, started, stop() }` or throws an Error saying what is missing.
 * `dataDir` is the repo's .data folder. `privateOnly` skips DOCKER_HOST and /var/run/docker.sock
 * (`GPUCLOUD_DOCKER=private npm start`); `onSpawn(pid)` hears of a dockerd started here at once.
 */
export async function ensureDockerEngine({
  dataDir: dir,
  log = console.log,
  allowPrivate = true,
  privateOnly = false,
  onSpawn = () => {},
}) {
  // Absolute: the engine's socket path is how tools (ss, the stream-leak test) recognise it.
  const engine = privateEngine(dir);
  const privateSocket = engine.socketPath;
  const candidates = privateOnly
    ? []
    : [socketFromDockerHost(process.env.DOCKER_HOST), '/var/run/docker.sock'].filter(Boolean);
  candidates.push(privateSocket);
  for (const socketPath of candidates) {
    if (existsSync(socketPath) && (await pingDocker(socketPath))) {
      return {
        socketPath,
        dockerHost: `unix://${socketPath}`,
        private: socketPath === privateSocket,
        started: false, // running before us: left alone
        stop: async () => {},
      };
    }
  }
  if (!allowPrivate) throw new Error('没有可用的 Docker 引擎 (no Docker engine reachable)');
  const dockerd = which('dockerd');
  if (!dockerd) {
    throw new Error(
      'No Docker engine is reachable and dockerd is not installed. Install the Docker engine ' +
        '(Debian: apt-get install docker.io) or set DOCKER_HOST to a reachable engine.',
    );
  }
  if (process.getuid && process.getuid() !== 0) {
    throw new Error(
      'No Docker engine is reachable and a private dockerd needs root. Start Docker or set DOCKER_HOST.',
    );
  }
  const { root, rootHash, execRoot } = engine;
  mkdirSync(root, { recursive: true });
  const logFile = path.join(root, 'dockerd.log');
  const out = openSync(logFile, 'a');
  const bridge = ensureBridge(engine.bridge, rootHash);
  const child = spawn(
    dockerd,
    [
      '--data-root',
      engine.dataRoot,
      '--exec-root',
      execRoot,
      '--pidfile',
      path.join(root, 'dockerd.pid'),
      '--bridge',
      bridge,
      '-H',
      `unix://${privateSocket}`,
      '--log-level',
      'warn',
      // A second engine beside another on one host (a test of npm start beside the test engine):
      // a dockerd setting up iptables flushes the NAT DOCKER chain the other engine's published
      // ports live in. GPUCLOUD_DOCKERD_IPTABLES=off leaves the firewall to the first.
      ...(process.env.GPUCLOUD_DOCKERD_IPTABLES === 'off' ? ['--iptables=false'] : []),
    ],
    { stdio: ['ignore', out, out], detached: true },
  );
  child.unref();
  closeSync(out);
  if (child.pid) onSpawn(child.pid);
  log(`启动私有 Docker 引擎 (dockerd pid ${child.pid}, log ${logFile})`);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await pingDocker(privateSocket)) {
      return {
        socketPath: privateSocket,
        dockerHost: `unix://${privateSocket}`,
        private: true,
        started: true,
        // dockerd stops its containers (its shutdown timeout is 15 s) and its containerd before it
        // exits: wait for that, then remove its bridge and firewall rules; say so if it still runs.
        stop: async () => {
          const exited = () => child.exitCode !== null || child.signalCode !== null;
          if (!exited()) {
            log('停止私有 Docker 引擎…');
            child.kill('SIGTERM');
            const until = Date.now() + 60_000;
            while (!exited() && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
            if (!exited()) {
              log(`私有 Docker 引擎 (pid ${child.pid}) 60 秒内未退出，请查看 ${logFile}`);
              return;
            }
          }
          removeBridge(bridge);
        },
      };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill('SIGTERM'); // one that never answered is not left running
  const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
  throw new Error(`The private dockerd did not come up. Last lines of ${logFile}:\n${tail}`);
}
