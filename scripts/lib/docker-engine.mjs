// Finds a reachable Docker engine, or starts a private dockerd under .data/docker when the
// machine has one installed and we are root. Used by `npm start` and `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
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

function socketFromDockerHost(value) {
  if (!value) return undefined;
  if (value.startsWith('unix://')) return value.slice('unix://'.length);
  return undefined;
}

function which(bin) {
  const r = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * Returns `{ socketPath, dockerHost, private, stop() }` or throws an Error saying what is missing.
 * `dataDir` is the repo's .data folder.
 */
export async function ensureDockerEngine({ dataDir, log = console.log, allowPrivate = true }) {
  const candidates = [socketFromDockerHost(process.env.DOCKER_HOST), '/var/run/docker.sock'].filter(Boolean);
  const privateSocket = path.join(dataDir, 'docker', 'docker.sock');
  candidates.push(privateSocket);
  for (const socketPath of candidates) {
    if (existsSync(socketPath) && (await pingDocker(socketPath))) {
      return {
        socketPath,
        dockerHost: `unix://${socketPath}`,
        private: socketPath === privateSocket,
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
  const root = path.join(dataDir, 'docker');
  mkdirSync(root, { recursive: true });
  const logFile = path.join(root, 'dockerd.log');
  const out = openSync(logFile, 'a');
  // exec-root holds containerd sockets whose paths must stay short; one per data folder, so two
  // checkouts (a developer's and a clean clone) never share a containerd.
  const execRoot = `/tmp/gpucloud-docker-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`;
  const child = spawn(
    dockerd,
    [
      '--data-root',
      path.join(root, 'data'),
      '--exec-root',
      execRoot,
      '--pidfile',
      path.join(root, 'dockerd.pid'),
      '-H',
      `unix://${privateSocket}`,
      '--log-level',
      'warn',
    ],
    { stdio: ['ignore', out, out], detached: true },
  );
  child.unref();
  log(`启动私有 Docker 引擎 (dockerd pid ${child.pid}, log ${logFile})`);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await pingDocker(privateSocket)) {
      return {
        socketPath: privateSocket,
        dockerHost: `unix://${privateSocket}`,
        private: true,
        stop: async () => {
          try {
            process.kill(child.pid, 'SIGTERM');
          } catch {
            return; // already gone
          }
          const until = Date.now() + 20_000;
          while (Date.now() < until) {
            try {
              process.kill(child.pid, 0);
            } catch {
              return;
            }
            await new Promise((r) => setTimeout(r, 200));
          }
        },
      };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
  throw new Error(`The private dockerd did not come up. Last lines of ${logFile}:\n${tail}`);
}
