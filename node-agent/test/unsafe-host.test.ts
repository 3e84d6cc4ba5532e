// A real agent and Docker with the GPU side replaced: a GPU probe that reports a Tesla T4 (the
// numbers of a real capture, test/fixtures/nvidia-smi) and the toolkit probe running on
// programs that print what real toolkits printed. The test engine has no GPUs and no toolkit,
// so GPU containers are created but never started here; what Docker was asked is checked.
import { readFileSync } from 'node:fs';
import type { ContainerInfo__Output, HostInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GpuDevice, GpuInventory, GpuProbe } from '../src/gpu/gpu-probe.js';
import { type CommandRunner, ToolkitProbe } from '../src/gpu/toolkit.js';
import { createRequest, grpcError, startTestAgent, type TestAgent, testSpec, unaryCall } from './helpers.js';

const fixture = (dir: string, name: string) =>
  readFileSync(new URL(`fixtures/${dir}/${name}`, import.meta.url), 'utf8');
const CONFIG = fixture('nvidia-container-toolkit', 'config.toml__v1.20.0-default.toml');

const T4_UUID = 'GPU-3f2a1b7c-0000-0000-0000-000000000000';
const T4_UUID_2 = 'GPU-3f2a1b7c-0000-0000-0000-000000000001';

/** A Tesla T4 as nvidia-smi reported it (tesla-t4__580.82.07__nvidia-smi.txt), healthy unless told. */
const t4 = (index: number, uuid: string, extra: Partial<GpuDevice> = {}): GpuDevice => ({
  index,
  uuid,
  model: 'Tesla T4',
  memoryTotalMib: 15360,
  memoryUsedMib: 0,
  utilizationPercent: 0,
  memoryUtilizationPercent: 0,
  temperatureC: 36,
  powerDrawW: 9,
  powerLimitW: 70,
  pciBusId: `00000000:0${index}:04.0`,
  healthProblem: '',
  persistenceMode: false,
  migEnabled: false,
  fabricState: '',
  numaNode: -1,
  nvlinkPeers: [],
  ...extra,
});

class T4Host implements GpuProbe {
  readonly simulated = false;
  constructor(private readonly gpus: GpuDevice[]) {}
  async inventory(): Promise<GpuInventory> {
    return {
      gpus: this.gpus.map((g) => ({ ...g })),
      driverVersion: '580.82.07',
      cudaVersion: '13.0',
      simulated: false,
      warnings: ['GPU 0 (GPU-3f2a1b7c-0000-0000-0000-000000000000) 未开启持久模式 (persistence mode is off)'],
      probeError: '',
    };
  }
  cachedInventory(): Promise<GpuInventory> {
    return this.inventory();
  }
  async sample(): Promise<GpuDevice[]> {
    return this.gpus;
  }
}

/** Toolkit programs printing what real ones printed: `version` for all four parts. */
function toolkitAt(version: 'old' | 'current'): CommandRunner {
  const outputs: Record<string, string> =
    version === 'old'
      ? {
          'nvidia-ctk': fixture('nvidia-smi', 'nvidia-ctk__1.16.1__version.txt'),
          'nvidia-container-cli': fixture(
            'nvidia-container-toolkit',
            'nvidia-container-cli__1.16.1__version.txt',
          ),
          'nvidia-container-runtime-hook': 'NVIDIA Container Runtime Hook version 1.16.1\n',
          'nvidia-cdi-hook': 'NVIDIA CDI Hook version 1.16.1\n',
        }
      : {
          'nvidia-ctk': 'NVIDIA Container Toolkit CLI version 1.20.0\ncommit: d34b3046\n',
          'nvidia-container-cli': 'cli-version: 1.20.0\nlib-version: 1.20.0\n',
          'nvidia-container-runtime-hook': 'NVIDIA Container Runtime Hook version 1.20.0\n',
          'nvidia-cdi-hook': 'NVIDIA CDI Hook version 1.20.0\n',
        };
  return async (file) => {
    const out = outputs[file];
    if (out === undefined) throw Object.assign(new Error(`spawn ${file} ENOENT`), { code: 'ENOENT' });
    return { stdout: out, stderr: '' };
  };
}

const hostInfo = (t: TestAgent): Promise<HostInfo__Output> =>
  unaryCall((cb) => t.client.getHostInfo({}, t.md, cb));

describe('a host whose NVIDIA Container Toolkit is older than the floor', () => {
  let t: TestAgent;
  beforeAll(async () => {
    t = await startTestAgent(
      { simulateGpus: undefined },
      {
        gpuProbe: new T4Host([t4(0, T4_UUID)]),
        toolkitProbe: new ToolkitProbe({ run: toolkitAt('old'), readFile: async () => CONFIG }),
      },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports itself unsafe, with every part, the mode, the path and the GPU facts', async () => {
    const info = await hostInfo(t);
    expect(info.simulated).toBe(false);
    expect(info.containerToolkitVersion).toBe('1.16.1');
    expect(info.nvidiaContainerCliVersion).toBe('1.16.1');
    expect(info.nvidiaContainerRuntimeHookVersion).toBe('1.16.1');
    expect(info.nvidiaCdiHookVersion).toBe('1.16.1');
    expect(info.containerToolkitMode).toBe('auto');
    expect(info.gpuDevicePath).toBe('legacy'); // the test engine (Docker 20.10) lists no CDI devices
    expect(info.nvidiaDriverVersion).toBe('580.82.07');
    expect(info.unsafeReason).toMatch(/^NVIDIA Container Toolkit 1\.16\.1 存在容器逃逸漏洞/);
    expect(info.unsafeReason).toMatch(/需升级到 1\.19\.1 或更高/);
    // The GPU's warning first; the host's own (a writable layer the driver cannot limit) may follow.
    expect(info.warnings[0]).toContain('persistence mode is off');
    expect(info.warnings.slice(1).every((w) => !w.includes('GPU'))).toBe(true);
    expect(info.gpuProbeError).toBe('');
    expect(info.gpus).toEqual([
      expect.objectContaining({
        index: 0,
        uuid: T4_UUID,
        model: 'Tesla T4',
        pciBusId: '00000000:00:04.0',
        healthProblem: '',
        persistenceMode: false,
        migEnabled: false,
        numaNode: -1,
        nvlinkPeers: [],
      }),
    ]);
  });

  it('gets no GPU work: a container with a GPU is refused and nothing is left behind', async () => {
    const spec = testSpec(t, { gpuDeviceIds: [T4_UUID] });
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

describe('a host with a current toolkit', () => {
  let t: TestAgent;
  beforeAll(async () => {
    t = await startTestAgent(
      { simulateGpus: undefined },
      {
        gpuProbe: new T4Host([
          t4(0, T4_UUID),
          t4(1, T4_UUID_2, { healthProblem: 'Xid 79 (GPU 已从总线上掉线, GPU has fallen off the bus)' }),
        ]),
        toolkitProbe: new ToolkitProbe({ run: toolkitAt('current'), readFile: async () => CONFIG }),
      },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is safe and asks Docker for the GPU by UUID through the legacy hook, with pinned capabilities', async () => {
    expect((await hostInfo(t)).unsafeReason).toBe('');
    const created = await createRequest(t, {
      spec: testSpec(t, {
        gpuDeviceIds: ['0'], // an index, as containers created before UUIDs name their GPUs
        extraDriverCapabilities: ['video'],
      }),
      start: false,
    });
    expect(created.gpuDeviceIds).toEqual([T4_UUID]);
    const inspected = await t.docker.getContainer(created.dockerId).inspect();
    expect(inspected.HostConfig.DeviceRequests).toEqual([
      expect.objectContaining({ Driver: 'nvidia', DeviceIDs: [T4_UUID], Capabilities: [['gpu']] }),
    ]);
    expect(inspected.Config.Env).toContain(`NVIDIA_VISIBLE_DEVICES=${T4_UUID}`);
    expect(inspected.Config.Env).toContain('NVIDIA_DRIVER_CAPABILITIES=compute,utility,video');
    expect(inspected.Config.Labels['gpucloud.gpus']).toBe(T4_UUID);
  });

  it('refuses an unhealthy GPU, a driver capability not allowed and an NVIDIA_* variable', async () => {
    const sick = await grpcError(
      createRequest(t, { spec: testSpec(t, { gpuDeviceIds: [T4_UUID_2] }), start: false }),
    );
    expect(sick.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(sick.details).toBe(
      `GPU 1 (${T4_UUID_2}) 不可用: Xid 79 (GPU 已从总线上掉线, GPU has fallen off the bus)`,
    );
    const all = await grpcError(
      createRequest(t, {
        spec: testSpec(t, { gpuDeviceIds: [T4_UUID], extraDriverCapabilities: ['all'] }),
        start: false,
      }),
    );
    expect(all.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(all.details).toMatch(/^不支持的 NVIDIA 驱动能力 "all"/);
    const env = await grpcError(
      createRequest(t, { spec: testSpec(t, { env: { NVIDIA_DRIVER_CAPABILITIES: 'all' } }), start: false }),
    );
    expect(env.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(env.details).toMatch(/^环境变量 NVIDIA_DRIVER_CAPABILITIES 由平台设置/);
  });
});

describe('a toolkit in CDI mode on a Docker that lists no CDI devices', () => {
  let t: TestAgent;
  beforeAll(async () => {
    t = await startTestAgent(
      { simulateGpus: undefined },
      {
        gpuProbe: new T4Host([t4(0, T4_UUID)]),
        toolkitProbe: new ToolkitProbe({
          run: toolkitAt('current'),
          readFile: async () => CONFIG.replace('mode = "auto"', 'mode = "cdi"'),
        }),
      },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports the CDI path unusable, says to generate the spec, and takes no GPU work', async () => {
    const info = await hostInfo(t);
    expect(info.containerToolkitMode).toBe('cdi');
    expect(info.gpuDevicePath).toBe('cdi');
    expect(info.unsafeReason).toMatch(/CDI 模式, 但 Docker 未列出 nvidia\.com\/gpu CDI 设备/);
    expect(info.unsafeReason).toContain('nvidia-ctk cdi generate');
    const err = await grpcError(
      createRequest(t, { spec: testSpec(t, { gpuDeviceIds: [T4_UUID] }), start: false }),
    );
    expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(err.details).toContain('nvidia-ctk cdi generate');
  });
});
