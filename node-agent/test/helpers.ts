// Shared test plumbing: a real agent on 127.0.0.1 port 0, a real gRPC client, direct Docker
// access for assertions, and cleanup of everything a test run created.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import {
  AUTH_METADATA_KEY,
  type ContainerInfo__Output,
  type ContainerSpec,
  type CreateContainerRequest,
  type HostInfo__Output,
  loadAgentProto,
  type NodeAgentClient,
} from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import Docker from 'dockerode';
import { inject } from 'vitest';
import { type AgentOptions, type AgentRuntime, type RunningAgent, startAgent } from '../src/index.js';

export const RUN_LABEL = 'gpucloud-test.run';

export interface TestAgent {
  agent: RunningAgent;
  client: NodeAgentClient;
  /** Metadata with the right token. */
  md: grpc.Metadata;
  token: string;
  volumeRoot: string;
  /** The agent's own files (--state-dir): access staged for starts under access/<container id>. */
  stateDir: string;
  /** Unique per agent; every container a test creates carries it as RUN_LABEL. */
  runId: string;
  docker: Docker;
  image: string;
  close(): Promise<void>;
}

export function bearer(token: string): grpc.Metadata {
  const md = new grpc.Metadata();
  md.set(AUTH_METADATA_KEY, `Bearer ${token}`);
  return md;
}

export function testDocker(): Docker {
  const host = inject('dockerHost');
  if (host.startsWith('unix://')) return new Docker({ socketPath: host.slice('unix://'.length) });
  const url = new URL(host.replace(/^tcp:\/\//, 'http://'));
  return new Docker({ host: url.hostname, port: url.port });
}

export function newClient(address: string): NodeAgentClient {
  const { NodeAgent } = loadAgentProto().gpucloud.agent.v1;
  return new NodeAgent(address, grpc.credentials.createInsecure());
}

export async function startTestAgent(
  overrides: Partial<AgentOptions> = {},
  runtime: Omit<AgentRuntime, 'log'> = {},
): Promise<TestAgent> {
  const token = randomBytes(16).toString('hex');
  const volumeRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-volumes-'));
  const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-state-'));
  const runId = randomBytes(6).toString('hex');
  const agent = await startAgent(
    {
      token,
      listen: '127.0.0.1:0',
      dockerHost: inject('dockerHost'),
      toolboxDir: inject('toolboxDir'),
      simulateGpus: '8xRTX4090',
      bindAddress: '127.0.0.1',
      publicHost: '127.0.0.1',
      volumeRoot,
      stateDir,
      dockerTimeoutMs: 20_000,
      // The node-agent suite's band (see freeHostPort).
      portRange: '28800-30999',
      // A node of its own: its tenant networks are its own (agents of parallel files share the
      // engine), and an interrupted run's containers are swept (`test-…`, docker-engine.mjs).
      nodeName: `test-${runId}`,
      // A node name per agent: a network kept for later would outlive the test.
      tenantNetworkIdle: 0,
      ...overrides,
    },
    { log: () => undefined, ...runtime },
  );
  const client = newClient(agent.address);
  const docker = testDocker();
  return {
    agent,
    client,
    md: bearer(token),
    token,
    volumeRoot,
    stateDir,
    runId,
    docker,
    image: inject('testImage'),
    close: async () => {
      await removeRunContainers(docker, runId);
      await removeTenantNetworks(docker, agent.config.nodeName);
      client.close();
      await agent.close(500);
      await fs.rm(volumeRoot, { recursive: true, force: true });
      await fs.rm(stateDir, { recursive: true, force: true });
    },
  };
}

export async function removeRunContainers(docker: Docker, runId: string): Promise<void> {
  const list = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${runId}`] } });
  for (const c of list) {
    await docker.getContainer(c.Id).remove({ force: true });
    if (c.Image.startsWith('gpucloud/commit:'))
      await docker
        .getImage(c.Image)
        .remove()
        .catch(() => undefined);
  }
}

/** Removes the tenant networks of a test node that no container uses any more. */
export async function removeTenantNetworks(docker: Docker, nodeName: string): Promise<void> {
  const networks = await docker.listNetworks({
    filters: { label: ['gpucloud.tenant-network=true', `gpucloud.node=${nodeName}`] },
  });
  for (const network of networks) {
    const users = await docker.listContainers({ all: true, filters: { network: [network.Name] } });
    if (users.length > 0) continue;
    const removed = await docker
      .getNetwork(network.Id)
      .remove()
      .then(() => true)
      .catch(() => false);
    const bridge = network.Options?.['com.docker.network.bridge.name'];
    if (removed && bridge) {
      // The agent's rule for traffic within the bridge goes with it (the agent's remove does the same).
      spawnSync('iptables', [
        '-w',
        '5',
        '-D',
        'GPUCLOUD-ISOLATION',
        '-i',
        bridge,
        '-o',
        bridge,
        '-j',
        'RETURN',
      ]);
    }
  }
}

/** Promise of a unary call. */
export function unaryCall<T>(invoke: (callback: grpc.requestCallback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    invoke((err, value) =>
      err ? reject(err) : value === undefined ? reject(new Error('no response')) : resolve(value),
    );
  });
}

/** The gRPC error a call failed with (fails the test when it succeeded). */
export async function grpcError(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await promise;
  } catch (err) {
    return err as grpc.ServiceError;
  }
  throw new Error('the call was expected to fail');
}

function canBind(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * A port that is free now, below the kernel's ephemeral ports, in the node-agent suite's band
 * (28800-30999): the suites share one Docker engine and run side by side, and the control plane's
 * and e2e's agents allocate from bands of their own (control-plane/test/agents.ts).
 */
export async function freeHostPort(start = 28800, end = 30999): Promise<number> {
  // A created or stopped container holds its published ports in Docker without binding them:
  // those are skipped too, as are the ports this process handed out already.
  const published = new Set<number>();
  const docker = testDocker();
  for (const c of await docker.listContainers({ all: true })) {
    for (const p of c.Ports ?? []) if (p.PublicPort) published.add(p.PublicPort);
    if (c.State === 'running') continue;
    // Docker lists the ports of running containers only; a stopped one still holds its bindings.
    const bindings = await docker
      .getContainer(c.Id)
      .inspect()
      .then((i) => Object.values(i.HostConfig.PortBindings ?? {}))
      .catch(() => []);
    for (const list of bindings) {
      for (const b of (list ?? []) as { HostPort?: string }[])
        if (b.HostPort) published.add(Number(b.HostPort));
    }
  }
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = start + Math.floor(Math.random() * (end - start + 1));
    if (published.has(port) || handedOut.has(port)) continue;
    if ((await canBind(port, '127.0.0.1')) && (await canBind(port, '0.0.0.0'))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port found');
}
const handedOut = new Set<number>();

let counter = 0;
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${randomBytes(3).toString('hex')}`;
}

/** A spec for the local test image with this run's label; override what the test needs. */
export function testSpec(t: TestAgent, overrides: Partial<ContainerSpec> = {}): ContainerSpec {
  const containerId = overrides.containerId ?? uniqueId('c');
  return {
    containerId,
    ownerId: 'owner1',
    ownerName: 'Alice',
    displayName: `test ${containerId}`,
    image: t.image,
    gpuDeviceIds: [],
    ports: [],
    mounts: [],
    resources: {},
    env: {},
    labels: { [RUN_LABEL]: t.runId },
    command: [],
    ...overrides,
  };
}

export function createRequest(t: TestAgent, request: CreateContainerRequest): Promise<ContainerInfo__Output> {
  return unaryCall((cb) => t.client.createContainer(request, t.md, cb));
}

/** The UUIDs of the agent's GPUs, by index (simulated GPUs have stable fake UUIDs). */
export async function gpuUuids(t: TestAgent): Promise<string[]> {
  const info = await unaryCall<HostInfo__Output>((cb) => t.client.getHostInfo({}, t.md, cb));
  return [...info.gpus].sort((a, b) => a.index - b.index).map((g) => g.uuid);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a value (not undefined) or the time is up. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Runs `script` with sh in a container through Docker itself; stdout and stderr, as one text. */
export async function execIn(t: TestAgent, dockerId: string, script: string): Promise<string> {
  const exec = await t.docker
    .getContainer(dockerId)
    .exec({ Cmd: ['sh', '-c', script], AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  t.docker.modem.demuxStream(stream, sink, sink);
  await new Promise((resolve) => stream.on('end', resolve));
  return Buffer.concat(chunks).toString();
}

/** Log lines of the image's own command: without our init's `[gpucloud] …` lines (timestamped or not). */
export function withoutInitLines(lines: string[]): string[] {
  return lines.filter((line) => !/^(\S+ )?\[gpucloud\] /.test(line));
}
