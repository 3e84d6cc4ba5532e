// SaveImage on the in-memory engine (what the simulated fleets of the control plane's tests and
// benches run): the saved image is "pushed" into the engine's registry, and a container of
// another agent on the same engine can be created from it by digest.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContainerInfo__Output, SaveImageProgress__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { imageContents } from '../../control-plane/src/modules/images/contract.js';
import { type RunningAgent, startAgent } from '../src/agent.js';
import { MemoryContainerClient } from '../src/docker/memory-container-client.js';
import { bearer, newClient, unaryCall } from './helpers.js';

const IMAGE = 'gpucloud-test/memory:1';

describe('saving an image on the in-memory engine', () => {
  let agent: RunningAgent;
  let engine: MemoryContainerClient;
  let dir: string;
  const token = 'memory-save-token-0123456789';
  const md = bearer(token);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-memory-save-'));
    mkdirSync(path.join(dir, 'proc', 'net'), { recursive: true });
    writeFileSync(path.join(dir, 'proc', 'net', 'tcp'), '  sl  local_address rem_address   st\n');
    engine = new MemoryContainerClient({
      images: [{ ref: IMAGE, config: { env: ['PATH=/bin', 'CUDA_VERSION=12.1.1'], command: ['bash'] } }],
    });
    agent = await startAgent(
      {
        token,
        listen: '127.0.0.1:0',
        simulateGpus: '1xRTX4090',
        toolboxDir: inject('toolboxDir'),
        bindAddress: '127.0.0.1',
        publicHost: '127.0.0.1',
        portRange: '31000-31999',
        volumeRoot: path.join(dir, 'volumes'),
        stateDir: path.join(dir, 'state'),
        nodeName: 'memory-save-node',
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
          cpuCores: 16,
          memoryTotalBytes: 64 * 1024 ** 3,
        },
      },
    );
  });
  afterAll(async () => {
    await agent?.close(200);
    engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits, records, pushes, and a container starts from the pushed digest', async () => {
    const client = newClient(agent.address);
    try {
      const spec = (containerId: string, image: string) => ({
        containerId,
        ownerId: 'owner1',
        ownerName: 'Alice',
        displayName: containerId,
        image,
        gpuDeviceIds: [],
        ports: [],
        mounts: [],
        resources: {},
        env: { MY_VAR: 'mine' },
        labels: {},
        command: [],
      });
      const created: ContainerInfo__Output = await unaryCall((cb) =>
        client.createContainer(
          { spec: spec('mem-save-1', IMAGE), start: true, rootPassword: 'Mem-Pass-1' },
          md,
          cb,
        ),
      );
      expect(created.state).toBe('CONTAINER_STATE_RUNNING');
      const progress = await new Promise<SaveImageProgress__Output[]>((resolve, reject) => {
        const out: SaveImageProgress__Output[] = [];
        const call = client.saveImage(
          {
            containerId: 'mem-save-1',
            repository: 'registry.local:5000/u1/img1',
            tag: 'v1',
            baseImage: IMAGE,
            description: 'd',
          },
          md,
        );
        call.on('data', (p: SaveImageProgress__Output) => out.push(p));
        call.on('end', () => resolve(out));
        call.on('error', (err: grpc.ServiceError) => reject(err));
      });
      const last = progress.at(-1);
      expect(last?.done).toBe(true);
      const contents = imageContents.parse(JSON.parse(last?.contentsJson ?? ''));
      expect(contents.cuda).toBe('12.1.1');
      expect(contents.layers.filter((l) => l.added)).toHaveLength(1);
      const saved = await engine.imageDetails('registry.local:5000/u1/img1:v1');
      expect(saved?.config.Env).toEqual(['PATH=/bin', 'CUDA_VERSION=12.1.1', 'MY_VAR=mine']);
      expect(saved?.config.Cmd).toEqual(['bash']);

      await engine.removeImage('registry.local:5000/u1/img1:v1');
      const copy: ContainerInfo__Output = await unaryCall((cb) =>
        client.createContainer(
          { spec: spec('mem-save-2', `registry.local:5000/u1/img1@${last?.digest}`), start: true },
          md,
          cb,
        ),
      );
      expect(copy.state).toBe('CONTAINER_STATE_RUNNING');

      const error = await new Promise<grpc.ServiceError | undefined>((resolve) => {
        const call = client.saveImage(
          { containerId: 'mem-save-1', repository: 'Bad Repo', tag: 'v1', baseImage: '', description: '' },
          md,
        );
        call.on('data', () => undefined);
        call.on('end', () => resolve(undefined));
        call.on('error', resolve);
      });
      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    } finally {
      client.close();
    }
  });
});
