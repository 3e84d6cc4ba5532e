// A byte relay between an agent and the real Docker engine, on a unix socket of its own, that
// can cut the connections of log follows and hold a request back: how a test breaks a Docker
// stream or makes Docker late under a running agent without touching the engine.
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface DockerProxy {
  /** unix:///… for the agent's dockerHost. */
  dockerHost: string;
  /** Log follows opened through the proxy so far. */
  followsOpened(): number;
  /** Destroys every open log-follow connection; returns how many. */
  cutFollows(): number;
  /** Holds the next request whose first line matches `requestLine` for `ms` before passing it on. */
  delayNext(requestLine: RegExp, ms: number): void;
  close(): Promise<void>;
}

function engineTarget(dockerHost: string): net.NetConnectOpts {
  if (dockerHost.startsWith('unix://')) return { path: dockerHost.slice('unix://'.length) };
  const url = new URL(dockerHost.replace(/^tcp:\/\//, 'http://'));
  return { host: url.hostname, port: Number(url.port) };
}

export async function startDockerProxy(engineHost: string): Promise<DockerProxy> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-proxy-'));
  const socketPath = path.join(dir, 'docker.sock');
  const follows = new Set<net.Socket>();
  const all = new Set<net.Socket>();
  let opened = 0;
  const delays: Array<{ requestLine: RegExp; ms: number }> = [];
  const server = net.createServer((client) => {
    const engine = net.connect(engineTarget(engineHost));
    all.add(client);
    all.add(engine);
    const forget = () => {
      client.destroy();
      engine.destroy();
      follows.delete(client);
      all.delete(client);
      all.delete(engine);
    };
    client.on('close', forget);
    engine.on('close', forget);
    client.on('error', forget);
    engine.on('error', forget);
    client.on('data', (chunk: Buffer) => {
      const head = chunk.toString('latin1', 0, 512);
      // A request line like `GET /v1.41/containers/<id>/logs?…follow=true…`.
      if (/^GET \S*\/logs\?\S*follow=(true|1)/.test(head)) {
        follows.add(client);
        opened += 1;
      }
      const index = delays.findIndex((d) => d.requestLine.test(head));
      const delay = index < 0 ? undefined : delays.splice(index, 1)[0];
      if (!delay) {
        engine.write(chunk);
        return;
      }
      client.pause(); // what follows waits behind the held chunk
      setTimeout(() => {
        if (!engine.destroyed) engine.write(chunk);
        client.resume();
      }, delay.ms);
    });
    client.on('end', () => engine.end());
    engine.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    dockerHost: `unix://${socketPath}`,
    followsOpened: () => opened,
    delayNext: (requestLine, ms) => {
      delays.push({ requestLine, ms });
    },
    cutFollows: () => {
      const cut = follows.size;
      for (const socket of follows) socket.destroy();
      return cut;
    },
    close: async () => {
      for (const socket of all) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
