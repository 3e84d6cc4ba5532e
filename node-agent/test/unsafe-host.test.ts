import { readFileSync } from 'node:fs';
import type { ContainerInfo__Output, HostInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandRunner, NvidiaSmiProbe } from '../src/gpu/nvidia-smi-probe.js';
import { createRequest, grpcError, startTestAgent, type TestAgent, testSpec, unaryCall } from './helpers.js';

const fixture = (name: string) =>
  readFileSync(new URL(`fixtures/nvidia-smi/${name}`, import.meta.url), 'utf8');

/**
 * The real nvidia-smi probe reading what a Tesla T4 host with NVIDIA Container Toolkit 1.16.1
 * printed (test/fixtures/nvidia-smi); the query row carries that capture's numbers in the
 * agent's field order.
 */
const oldToolkitHost: CommandRunner = async (file, args) => {
  if (file === 'nvidia-smi' && args.length > 0) {
    return {
      stdout: '0, GPU-3f2a1b7c-0000-0000-0000-000000000000, Tesla T4, 15360, 0, 0, 0, 36, 9.00, 70.00\n',
      stderr: '',
    };
  }
  if (file === 'nvidia-smi') return { stdout: fixture('tesla-t4__580.82.07__nvidia-smi.txt'), stderr: '' };
  if (file === 'nvidia-ctk') return { stdout: fixture('nvidia-ctk__1.16.1__version.txt'), stderr: '' };
  throw Object.assign(new Error(`spawn ${file} ENOENT`), { code: 'ENOENT' });
};

describe('a host whose NVIDIA Container Toolkit is older than 1.17.8', () => {
  let t: TestAgent;
  beforeAll(async () => {
    t = await startTestAgent({ simulateGpus: undefined }, { gpuProbe: new NvidiaSmiProbe(oldToolkitHost) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports itself unsafe, with the toolkit version and why', async () => {
    const info: HostInfo__Output = await unaryCall((cb) => t.client.getHostInfo({}, t.md, cb));
    expect(info.simulated).toBe(false);
    expect(info.containerToolkitVersion).toBe('1.16.1');
    expect(info.nvidiaDriverVersion).toBe('580.82.07');
    expect(info.gpus.map((g) => g.model)).toEqual(['Tesla T4']);
    expect(info.unsafeReason).toMatch(/1\.16\.1/);
    expect(info.unsafeReason).toMatch(/1\.17\.8/);
  });

  it('gets no GPU work: a container with a GPU is refused and nothing is left behind', async () => {
    const spec = testSpec(t, { gpuDeviceIds: ['0'] });
    const err = await grpcError(createRequest(t, { spec, start: true }));
    expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(err.details).toMatch(/1\.16\.1/);
    const left = await t.docker.listContainers({
      all: true,
      filters: { label: [`gpucloud.container-id=${spec.containerId}`] },
    });
    expect(left).toEqual([]);
  });

  it('still runs containers without GPUs, and refuses to give one a GPU later', async () => {
    const plain = await createRequest(t, { spec: testSpec(t), start: true });
    expect(plain.state).toBe('CONTAINER_STATE_RUNNING');
    const err = await grpcError(
      unaryCall((cb) =>
        t.client.reconfigureContainer(
          { containerId: plain.containerId, setGpus: true, gpuDeviceIds: ['0'], restartIfRunning: true },
          t.md,
          cb,
        ),
      ),
    );
    expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
    const after: ContainerInfo__Output = await unaryCall((cb) =>
      t.client.inspectContainer({ containerId: plain.containerId }, t.md, cb),
    );
    expect(after.dockerId).toBe(plain.dockerId);
    expect(after.gpuDeviceIds).toEqual([]);
    expect(after.state).toBe('CONTAINER_STATE_RUNNING');
  });
});
