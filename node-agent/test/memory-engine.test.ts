// The real agent on the in-memory engine (what the fleet bench runs a thousand of): no Docker,
// fixed host facts, a host of its own for the port checks.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContainerInfo__Output, HostInfo__Output } from '@gpucloud/proto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningAgent, startAgent } from '../src/agent.js';
import { MemoryContainerClient } from '../src/docker/memory-container-client.js';
import { bearer, freeHostPort, newClient, unaryCall } from './helpers.js';

const IMAGE = 'gpucloud-test/memory:1';

describe('an agent on the in-memory engine', () => {
  let agent: RunningAgent;
  let engine: MemoryContainerClient;
  let dir: string;
  const token = 'memory-engine-token-0123456789';
  const md = bearer(token);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-memory-agent-'));
    mkdirSync(path.join(dir, 'proc', 'net'), { recursive: true });
    writeFileSync(path.join(dir, 'proc', 'net', 'tcp'), '  sl  local_address rem_address   st\n');
    engine = new MemoryContainerClient({ images: [{ ref: IMAGE, serves: { 22: 'SSH-2.0-memory\r\n' } }] });
    agent = await startAgent(
      {
        token,
        listen: '127.0.0.1:0',
        simulateGpus: '2xRTX4090',
        toolboxDir: inject('toolboxDir'),
        bindAddress: '127.0.0.1',
        publicHost: '127.0.0.1',
        portRange: '30000-30999',
        volumeRoot: path.join(dir, 'volumes'),
        stateDir: path.join(dir, 'state'),
        nodeName: 'memory-node',
        tenantIsolation: 'off',
      },
      {
        log: () => undefined,
        containerClient: engine,
        procRoot: path.join(dir, 'proc'),
        hostFacts: {
          hostname: 'fleet-host',
          os: 'Ubuntu 24.04',
          kernel: '6.8.0',
          arch: 'x64',
          cpuModel: 'AMD EPYC',
          cpuCores: 64,
          memoryTotalBytes: 256 * 1024 ** 3,
        },
      },
    );
  });
  afterAll(async () => {
    await agent?.close(200);
    engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports the given host facts and the engine, and creates, lists and stops containers', async () => {
    const client = newClient(agent.address);
    try {
      const info: HostInfo__Output = await unaryCall((cb) => client.getHostInfo({}, md, cb));
      expect(info).toMatchObject({ hostname: 'fleet-host', cpuCores: 64, dockerAvailable: true });
      expect(info.dockerVersion).toMatch(/memory/);
      expect(info.gpus).toHaveLength(2);

      const hostPort = await freeHostPort(30000, 30999);
      const created: ContainerInfo__Output = await unaryCall((cb) =>
        client.createContainer(
          {
            spec: {
              containerId: 'mem-1',
              ownerId: 'owner1',
              ownerName: 'Alice',
              displayName: 'mem 1',
              image: IMAGE,
              gpuDeviceIds: [info.gpus[0]!.uuid],
              ports: [{ containerPort: 22, hostPort, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
              mounts: [],
              resources: {},
              env: {},
              labels: {},
              command: [],
            },
            start: true,
            rootPassword: 'Secret-123456',
          },
          md,
          cb,
        ),
      );
      // Started and reachable (the engine answers on the published port as sshd would).
      expect(created.state).toBe('CONTAINER_STATE_RUNNING');
      expect(created.startError ?? '').toBe('');
      expect(engine.counts().running).toBe(1);

      const listed: { containers: ContainerInfo__Output[] } = await unaryCall((cb) =>
        client.listContainers({}, md, cb),
      );
      expect(listed.containers.map((c) => c.containerId)).toEqual(['mem-1']);
      expect(listed.containers[0]?.gpuDeviceIds).toEqual([info.gpus[0]!.uuid]);

      const stopped: ContainerInfo__Output = await unaryCall((cb) =>
        client.stopContainer({ containerId: 'mem-1', timeoutSeconds: 1 }, md, cb),
      );
      expect(stopped.state).toBe('CONTAINER_STATE_EXITED');
    } finally {
      client.close();
    }
  });
});
