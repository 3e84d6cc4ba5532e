// A real Docker registry on 127.0.0.1 for the pull tests: Debian's `docker-registry` package
// (the CNCF distribution registry), with htpasswd basic auth or open like a public registry, on
// a free port, storing under a temporary folder. Docker treats 127.0.0.0/8 registries as
// insecure (plain HTTP) by default, so the engine pushes and pulls without TLS and without the
// internet. `throttleBytesPerSecond` puts a proxy in front that sends what the registry answers
// at that rate per connection, so a pull lasts long enough to be watched.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { freeLoopbackPort } from '../../scripts/lib/free-port.mjs';

export const REGISTRY_BINARY = process.env.DOCKER_REGISTRY_BIN ?? '/usr/bin/docker-registry';
const HTPASSWD_BINARY = '/usr/bin/htpasswd';

export interface Credentials {
  username: string;
  password: string;
}

export interface LocalRegistryOptions {
  /** Basic auth; an open registry without. */
  credentials?: Credentials;
  /** The rate per connection at which pulls receive the registry's answers. */
  throttleBytesPerSecond?: number;
}

export interface LocalRegistry {
  /** 127.0.0.1:port (the throttling proxy's, when there is one) */
  address: string;
  /** Pushes a local image to `<address>/<repository>:<tag>` with the registry's credentials. */
  push(docker: Docker, image: string, repository: string, tag: string): Promise<string>;
  close(): Promise<void>;
}

/** Fails with what to install when a prerequisite is missing: these tests never skip. */
function requireBinaries(withAuth: boolean): void {
  const missing = [
    existsSync(REGISTRY_BINARY) ? '' : `${REGISTRY_BINARY} (apt-get install docker-registry)`,
    !withAuth || existsSync(HTPASSWD_BINARY) ? '' : `${HTPASSWD_BINARY} (apt-get install apache2-utils)`,
  ].filter(Boolean);
  if (missing.length > 0) {
    throw new Error(`The registry tests need a real registry; missing: ${missing.join(', ')}`);
  }
}

async function waitUntilServing(
  address: string,
  child: ChildProcess,
  output: () => string,
  withAuth: boolean,
): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`docker-registry exited with ${child.exitCode}:\n${output()}`);
    }
    try {
      // Without credentials the API root answers 401 where the registry checks auth, else 200.
      const res = await fetch(`http://${address}/v2/`);
      if (res.status === (withAuth ? 401 : 200)) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`docker-registry did not start on ${address}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function pushImage(docker: Docker, ref: string, credentials: Credentials | undefined, address: string) {
  const stream = await docker
    .getImage(ref)
    // Docker wants the auth header even for an open registry.
    .push({ authconfig: { ...(credentials ?? {}), serveraddress: address } });
  const events = await new Promise<Array<{ error?: string }>>((resolve, reject) =>
    docker.modem.followProgress(stream, (err: Error | null, result: Array<{ error?: string }>) =>
      err ? reject(err) : resolve(result),
    ),
  );
  const failed = events.find((e) => e.error);
  if (failed) throw new Error(`pushing ${ref} failed: ${failed.error}`);
}

/**
 * A TCP proxy to `target` that forwards what the client sends at once and what the target
 * answers at `bytesPerSecond` per connection (in slices every 50 ms).
 */
async function throttlingProxy(
  target: string,
  bytesPerSecond: number,
): Promise<{ address: string; close(): Promise<void> }> {
  const [host, port] = [
    target.slice(0, target.lastIndexOf(':')),
    Number(target.slice(target.lastIndexOf(':') + 1)),
  ];
  const slice = Math.max(1, Math.floor(bytesPerSecond / 20));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    sockets.add(client).add(upstream);
    const queue: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const drain = () => {
      let budget = slice;
      while (budget > 0 && queue.length > 0) {
        const head = queue[0] as Buffer;
        const part = head.subarray(0, budget);
        client.write(part);
        budget -= part.length;
        if (part.length === head.length) queue.shift();
        else queue[0] = head.subarray(part.length);
      }
      timer = queue.length > 0 ? setTimeout(drain, 50) : undefined;
      if (queue.length === 0 && upstream.readableEnded) client.end();
    };
    upstream.on('data', (chunk: Buffer) => {
      queue.push(chunk);
      timer ??= setTimeout(drain, 50);
    });
    upstream.on('end', () => {
      if (queue.length === 0) client.end();
    });
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    client.on('end', () => upstream.end());
    const close = () => {
      if (timer) clearTimeout(timer);
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', () => {
      if (queue.length === 0) close();
    });
  });
  const proxyPort = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
  return {
    address: `127.0.0.1:${proxyPort}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export async function startLocalRegistry(
  credentialsOrOptions: Credentials | LocalRegistryOptions = {},
): Promise<LocalRegistry> {
  const options: LocalRegistryOptions =
    'username' in credentialsOrOptions ? { credentials: credentialsOrOptions } : credentialsOrOptions;
  const { credentials } = options;
  requireBinaries(Boolean(credentials));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-registry-'));
  const registryAddress = `127.0.0.1:${await freeLoopbackPort()}`;
  const auth: string[] = [];
  if (credentials) {
    const htpasswd = execFileSync(HTPASSWD_BINARY, ['-Bbn', credentials.username, credentials.password], {
      encoding: 'utf8',
    });
    await fs.writeFile(path.join(dir, 'htpasswd'), htpasswd);
    auth.push('auth:', '  htpasswd:', '    realm: gpucloud-test', `    path: ${path.join(dir, 'htpasswd')}`);
  }
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
      `  addr: ${registryAddress}`,
      ...auth,
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
  let proxy: { address: string; close(): Promise<void> } | undefined;
  const close = async () => {
    await proxy?.close();
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await fs.rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(registryAddress, child, () => output, Boolean(credentials));
    if (options.throttleBytesPerSecond) {
      proxy = await throttlingProxy(registryAddress, options.throttleBytesPerSecond);
    }
  } catch (err) {
    await close();
    throw err;
  }
  const address = proxy?.address ?? registryAddress;
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

/**
 * An image of `layers` layers on top of `base`, each adding `bytesPerLayer` random bytes (so a
 * pull downloads each layer), keeping the base's command; tagged `ref`. Built with commits,
 * without a registry or the internet.
 */
export async function buildLayeredImage(
  docker: Docker,
  base: string,
  ref: string,
  layers: number,
  bytesPerLayer: number,
  labels: Record<string, string> = {},
): Promise<void> {
  const cmd = (await docker.getImage(base).inspect()).Config.Cmd;
  let from = base;
  const [repo, tag] = [ref.slice(0, ref.lastIndexOf(':')), ref.slice(ref.lastIndexOf(':') + 1)];
  for (let i = 0; i < layers; i++) {
    const builder = await docker.createContainer({
      Image: from,
      Entrypoint: ['/bin/sh', '-c'],
      Cmd: [`head -c ${bytesPerLayer} /dev/urandom > /layer-${i}.bin`],
      Labels: labels,
    });
    await builder.start();
    await builder.wait();
    await builder.commit({ repo, tag, changes: [`CMD ${JSON.stringify(cmd)}`, 'ENTRYPOINT []'] });
    await builder.remove({ force: true });
    from = ref;
  }
}
