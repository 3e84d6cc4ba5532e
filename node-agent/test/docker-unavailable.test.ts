import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent__Output, HostInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, grpcError, startTestAgent, type TestAgent, testSpec, unaryCall } from './helpers.js';

describe('when the Docker engine is down', () => {
  let t: TestAgent;
  beforeAll(async () => {
    t = await startTestAgent({ dockerHost: 'unix:///nonexistent/docker.sock' });
  });
  afterAll(async () => {
    await t?.close().catch(() => undefined);
  });

  it('still starts and answers host info with the reason', async () => {
    const info: HostInfo__Output = await unaryCall((cb) => t.client.getHostInfo({}, t.md, cb));
    expect(info.dockerAvailable).toBe(false);
    expect(info.dockerVersion).toBe('');
    expect(info.dockerError).toContain('节点的 Docker 服务不可用');
    expect(info.dockerError).toContain('/nonexistent/docker.sock');
    expect(info.gpus).toHaveLength(8);
  });

  it('fails container calls with UNAVAILABLE instead of pretending', async () => {
    const create = await grpcError(createRequest(t, { spec: testSpec(t), start: true }));
    expect(create.code).toBe(grpc.status.UNAVAILABLE);
    const list = await grpcError(unaryCall((cb) => t.client.listContainers({ all: true }, t.md, cb)));
    expect(list.code).toBe(grpc.status.UNAVAILABLE);
    const ports = await grpcError(unaryCall((cb) => t.client.listOccupiedPorts({}, t.md, cb)));
    expect(ports.code).toBe(grpc.status.UNAVAILABLE);
  });

  it('keeps sending heartbeats that say Docker is unavailable', async () => {
    const call = t.client.watchEvents({ heartbeatIntervalMs: 100 }, t.md);
    const beats: AgentEvent__Output[] = [];
    await new Promise<void>((resolve, reject) => {
      call.on('data', (e: AgentEvent__Output) => {
        if (e.heartbeat) beats.push(e);
        if (beats.length >= 2) resolve();
      });
      call.on('error', reject);
    });
    call.cancel();
    expect(beats.every((b) => b.heartbeat?.dockerAvailable === false)).toBe(true);
  });
});

describe('when the Docker engine hangs', () => {
  let t: TestAgent;
  let server: net.Server;
  let dir: string;
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-hung-'));
    const socketPath = path.join(dir, 'docker.sock');
    // Accepts connections and never answers.
    server = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    t = await startTestAgent({ dockerHost: `unix://${socketPath}`, dockerTimeoutMs: 500 });
  });
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    for (const s of sockets) s.destroy();
    server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('answers host info within the deadline', async () => {
    const started = Date.now();
    const info: HostInfo__Output = await unaryCall((cb) => t.client.getHostInfo({}, t.md, cb));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(info.dockerAvailable).toBe(false);
    expect(info.dockerError).toMatch(/did not answer in time/);
  });

  it('fails a container call with DEADLINE_EXCEEDED', async () => {
    const started = Date.now();
    const err = await grpcError(
      unaryCall((cb) => t.client.inspectContainer({ containerId: 'abc' }, t.md, cb)),
    );
    expect(err.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
