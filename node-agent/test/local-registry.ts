// A real Docker registry on 127.0.0.1 for the pull tests: Debian's `docker-registry` package
// (the CNCF distribution registry) with htpasswd basic auth, on a free port, storing under a
// temporary folder. Docker treats 127.0.0.0/8 registries as insecure (plain HTTP) by default,
// so the engine pushes and pulls without TLS and without the internet.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';

export const REGISTRY_BINARY = process.env.DOCKER_REGISTRY_BIN ?? '/usr/bin/docker-registry';
const HTPASSWD_BINARY = '/usr/bin/htpasswd';

export interface Credentials {
  username: string;
  password: string;
}

export interface LocalRegistry {
  /** 127.0.0.1:port */
  address: string;
  /** Pushes a local image to `<address>/<repository>:<tag>` with the registry's credentials. */
  push(docker: Docker, image: string, repository: string, tag: string): Promise<string>;
  close(): Promise<void>;
}

/** Fails with what to install when a prerequisite is missing: these tests never skip. */
function requireBinaries(): void {
  const missing = [
    existsSync(REGISTRY_BINARY) ? '' : `${REGISTRY_BINARY} (apt-get install docker-registry)`,
    existsSync(HTPASSWD_BINARY) ? '' : `${HTPASSWD_BINARY} (apt-get install apache2-utils)`,
  ].filter(Boolean);
  if (missing.length > 0) {
    throw new Error(`The registry tests need a real registry; missing: ${missing.join(', ')}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(address: string, child: ChildProcess, output: () => string): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`docker-registry exited with ${child.exitCode}:\n${output()}`);
    }
    try {
      // Without credentials the API root answers 401: the registry is up and checks auth.
      const res = await fetch(`http://${address}/v2/`);
      if (res.status === 401) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`docker-registry did not start on ${address}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function pushImage(docker: Docker, ref: string, credentials: Credentials, address: string) {
  const stream = await docker.getImage(ref).push({ authconfig: { ...credentials, serveraddress: address } });
  const events = await new Promise<Array<{ error?: string }>>((resolve, reject) =>
    docker.modem.followProgress(stream, (err: Error | null, result: Array<{ error?: string }>) =>
      err ? reject(err) : resolve(result),
    ),
  );
  const failed = events.find((e) => e.error);
  if (failed) throw new Error(`pushing ${ref} failed: ${failed.error}`);
}

export async function startLocalRegistry(credentials: Credentials): Promise<LocalRegistry> {
  requireBinaries();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-registry-'));
  const htpasswd = execFileSync(HTPASSWD_BINARY, ['-Bbn', credentials.username, credentials.password], {
    encoding: 'utf8',
  });
  await fs.writeFile(path.join(dir, 'htpasswd'), htpasswd);
  const address = `127.0.0.1:${await freePort()}`;
  await fs.writeFile(
    path.join(dir, 'config.yml'),
    [
      'version: 0.1',
      'log:',
      '  level: warn',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${path.join(dir, 'data')}`,
      'http:',
      `  addr: ${address}`,
      'auth:',
      '  htpasswd:',
      '    realm: gpucloud-test',
      `    path: ${path.join(dir, 'htpasswd')}`,
      '',
    ].join('\n'),
  );
  const child = spawn(REGISTRY_BINARY, ['serve', path.join(dir, 'config.yml')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await fs.rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(address, child, () => output);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    address,
    push: async (docker, image, repository, tag) => {
      const ref = `${address}/${repository}:${tag}`;
      await docker.getImage(image).tag({ repo: `${address}/${repository}`, tag });
      await pushImage(docker, ref, credentials, address);
      return ref;
    },
    close,
  };
}
