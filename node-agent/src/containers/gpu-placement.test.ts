// ContainerService's GPU rules with fakes in place of nvidia-smi, the toolkit and Docker: which
// GPUs a container may get, how Docker is asked for them, and what env it gets.
import { describe, expect, it } from 'vitest';
import type { ContainerClient, ContainerSummary, EngineInfo } from '../docker/container-client.js';
import { AgentError } from '../errors.js';
import type { GpuDevice, GpuInventory, GpuProbe } from '../gpu/gpu-probe.js';
import type { ToolkitInfo, ToolkitProbe } from '../gpu/toolkit.js';
import { GpuRuntime } from '../host/gpu-runtime.js';
import { ContainerService } from './container-service.js';
import { Semaphore } from './gpu-starts.js';
import type { ContainerServiceSettings, ContainerSpecInput } from './types.js';

const UUID = ['GPU-0a1b2c3d-0000-4000-8000-000000000000', 'GPU-0a1b2c3d-0000-4000-8000-000000000001'];

const gpu = (index: number, extra: Partial<GpuDevice> = {}): GpuDevice => ({
  index,
  uuid: UUID[index] ?? `GPU-x-${index}`,
  model: 'NVIDIA H100 80GB HBM3',
  memoryTotalMib: 81559,
  memoryUsedMib: 0,
  utilizationPercent: 0,
  memoryUtilizationPercent: 0,
  temperatureC: 30,
  powerDrawW: 70,
  powerLimitW: 700,
  pciBusId: `00000000:1${index}:00.0`,
  healthProblem: '',
  persistenceMode: true,
  migEnabled: false,
  fabricState: '',
  numaNode: 0,
  nvlinkPeers: [],
  ...extra,
});

class FakeProbe implements GpuProbe {
  readonly simulated = false;
  reads = 0;
  cachedReads = 0;
  constructor(
    public gpus: GpuDevice[],
    public probeError = '',
  ) {}
  async inventory(): Promise<GpuInventory> {
    this.reads += 1;
    return {
      gpus: this.gpus,
      driverVersion: '580.82.07',
      cudaVersion: '13.0',
      simulated: false,
      warnings: [],
      probeError: this.probeError,
    };
  }
  async cachedInventory(): Promise<GpuInventory> {
    this.cachedReads += 1;
    return this.inventory();
  }
  async sample(): Promise<GpuDevice[]> {
    return this.gpus;
  }
}

const toolkit = (mode = 'auto', unsafeReason = ''): ToolkitProbe =>
  ({
    info: async (): Promise<ToolkitInfo> => ({
      ctkVersion: '1.20.0',
      cliVersion: '1.20.0',
      runtimeHookVersion: '1.20.0',
      cdiHookVersion: '1.20.0',
      mode,
      unsafeReason,
    }),
  }) as unknown as ToolkitProbe;

function engine(cdiNames: string[] | undefined): EngineInfo {
  return {
    serverVersion: '28.3.2',
    dataRoot: '/var/lib/docker',
    cdiSpecDirs: ['/etc/cdi', '/var/run/cdi'],
    discoveredDevices: cdiNames?.map((n) => ({ source: 'cdi', id: `nvidia.com/gpu=${n}` })),
    runtimes: ['runc', 'nvidia'],
  };
}

interface Setup {
  gpus?: GpuDevice[];
  probeError?: string;
  mode?: string;
  toolkitUnsafe?: string;
  cdi?: string[];
  running?: ContainerSummary[];
  starts?: Array<() => Promise<void>>;
}

function service(setup: Setup = {}) {
  const probe = new FakeProbe(setup.gpus ?? [gpu(0), gpu(1)], setup.probeError);
  const engineInfos = { n: 0, cdi: setup.cdi };
  const started: string[] = [];
  const client = {
    engineInfo: async () => {
      engineInfos.n += 1;
      return engine(engineInfos.cdi);
    },
    listContainers: async () => setup.running ?? [],
    startContainer: async (id: string) => {
      started.push(id);
      const next = setup.starts?.shift();
      if (next) await next();
    },
  } as unknown as ContainerClient;
  const svc = new ContainerService({
    client,
    volumes: {} as never,
    gpus: probe,
    gpuRuntime: new GpuRuntime({ client, toolkit: toolkit(setup.mode, setup.toolkitUnsafe) }),
    gpuStarts: new Semaphore(2),
    occupiedPorts: async () => [],
    staged: { dir: (id: string) => `/var/lib/gpucloud/agent/access/${id}` } as never,
    recreates: {} as never,
    settings: {
      bindAddress: '127.0.0.1',
      nodeName: 'n1',
      portRange: { start: 20000, end: 29999 },
      simulatedGpus: false,
      defaultStopTimeoutSeconds: 10,
      logLimits: { maxSize: '10m', maxFiles: 3 },
      toolboxPath: '/var/lib/gpucloud/toolbox/current',
      readyTimeoutMs: 1000,
    } satisfies ContainerServiceSettings,
  });
  return { svc, probe, engineInfos, started };
}

async function refusal(promise: Promise<unknown>): Promise<AgentError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AgentError);
  expect((err as AgentError).code).toBe('FAILED_PRECONDITION');
  return err as AgentError;
}

const holding = (containerId: string, gpus: string): ContainerSummary => ({
  dockerId: `d-${containerId}`,
  name: `gpucloud-${containerId}`,
  labels: { 'gpucloud.container-id': containerId, 'gpucloud.gpus': gpus, 'gpucloud.node': 'n1' },
  state: 'running',
  publishedPorts: [],
});

describe('GPU placement', () => {
  it('places by UUID or index from the cached inventory, and reports the device path', async () => {
    const { svc, probe } = service();
    expect(await svc.checkGpus('c1', [UUID[1] as string], true)).toMatchObject({
      gpus: [{ index: 1, uuid: UUID[1] }],
      devicePath: 'legacy',
    });
    expect((await svc.checkGpus('c1', ['0'], false)).gpus.map((g) => g.uuid)).toEqual([UUID[0]]);
    expect(probe.cachedReads).toBe(2);
    expect(probe.reads).toBe(2); // the fake's cache always reads; no forced re-read happened
    expect(await svc.checkGpus('c1', [], true)).toEqual({ gpus: [], devicePath: '' });
  });

  it('reads the inventory again once for an unknown GPU, then refuses it', async () => {
    const { svc, probe } = service();
    const err = await refusal(svc.checkGpus('c1', ['GPU-missing'], true));
    expect(err.message).toMatch(/^GPU GPU-missing 在本节点不存在/);
    expect(probe.cachedReads).toBe(1);
    expect(probe.reads).toBe(2);
  });

  it('refuses an unhealthy GPU, a MIG GPU asked for whole, a failed probe and an unsafe toolkit', async () => {
    const sick = service({
      gpus: [gpu(0, { healthProblem: 'Xid 79 (GPU has fallen off the bus)' }), gpu(1)],
    });
    expect((await refusal(sick.svc.checkGpus('c1', [UUID[0] as string], true))).message).toBe(
      `GPU 0 (${UUID[0]}) 不可用: Xid 79 (GPU has fallen off the bus)`,
    );
    expect((await sick.svc.checkGpus('c1', [UUID[1] as string], true)).gpus).toHaveLength(1);
    const mig = service({ gpus: [gpu(0, { migEnabled: true })] });
    expect((await refusal(mig.svc.checkGpus('c1', ['0'], false))).message).toMatch(
      /已开启 MIG, 不能整卡分配/,
    );
    const failed = service({ probeError: 'nvidia-smi 运行失败 (exit 15)' });
    expect((await refusal(failed.svc.checkGpus('c1', ['0'], false))).message).toMatch(
      /^节点 GPU 状态读取失败, 暂不接受 GPU 任务 \(.*exit 15/,
    );
    const unsafe = service({ toolkitUnsafe: 'NVIDIA Container Toolkit 1.17.8 存在容器逃逸漏洞' });
    expect((await refusal(unsafe.svc.checkGpus('c1', ['0'], false))).message).toMatch(
      /1\.17\.8 存在容器逃逸漏洞/,
    );
  });

  it('finds a GPU busy by UUID, whether the other container named it by index or UUID', async () => {
    const byIndex = service({ running: [holding('other', '1')] });
    expect((await refusal(byIndex.svc.checkGpus('c1', [UUID[1] as string], true))).message).toMatch(
      /^GPU 1 \(GPU-[^)]+\) 正被容器 other 使用/,
    );
    const byUuid = service({ running: [holding('other', UUID[0] as string)] });
    await refusal(byUuid.svc.checkGpus('c1', ['0'], true));
    expect((await byUuid.svc.checkGpus('c1', ['1'], true)).gpus).toHaveLength(1);
    // Not about to run: a held GPU is fine; the container itself never blocks itself.
    expect((await byUuid.svc.checkGpus('c1', ['0'], false)).gpus).toHaveLength(1);
    expect((await byUuid.svc.checkGpus('other', ['0'], true)).gpus).toHaveLength(1);
  });

  it('uses CDI where Docker lists the GPUs, and refuses one its CDI spec lacks after a fresh look', async () => {
    const { svc, engineInfos } = service({ cdi: ['0', UUID[0] as string, 'all'] });
    expect((await svc.checkGpus('c1', [UUID[0] as string], true)).devicePath).toBe('cdi');
    const before = engineInfos.n;
    const err = await refusal(svc.checkGpus('c1', [UUID[1] as string], true));
    expect(err.message).toContain(`GPU 1 (${UUID[1]}) 没有对应的 CDI 设备`);
    expect(err.message).toContain('nvidia-ctk cdi generate');
    expect(engineInfos.n).toBe(before + 1);
    // The spec regenerated meanwhile: the fresh look finds it.
    engineInfos.cdi = ['0', '1', ...UUID, 'all'];
    expect((await svc.checkGpus('c1', [UUID[1] as string], true)).devicePath).toBe('cdi');
  });

  it('refuses GPU work with a toolkit in CDI mode and no CDI devices listed', async () => {
    const { svc } = service({ mode: 'cdi', cdi: undefined });
    expect((await refusal(svc.checkGpus('c1', ['0'], true))).message).toMatch(/CDI 模式, 但 Docker 未列出/);
  });
});

const spec = (overrides: Partial<ContainerSpecInput> = {}): ContainerSpecInput => ({
  containerId: 'c1',
  ownerId: 'owner1',
  ownerName: 'Alice',
  displayName: 'c1',
  image: 'nvidia/cuda:12.4.1-base-ubuntu22.04',
  gpuDeviceIds: [UUID[0] as string],
  ports: [],
  mounts: [],
  resources: { memoryBytes: 0, nanoCpus: 0, pidsLimit: 0, shmSizeBytes: 0 },
  env: {},
  labels: {},
  command: [],
  extraDriverCapabilities: [],
  ...overrides,
});

describe("a GPU container's definition", () => {
  const opts = { image: 'nvidia/cuda:12.4.1-base-ubuntu22.04', generation: 0, command: [], imageUser: '' };

  it('names the GPUs by UUID in Docker, the env and the labels, with compute,utility and the extras', () => {
    const { svc } = service();
    const def = svc.definition(spec({ extraDriverCapabilities: ['video'] }), [], {
      ...opts,
      devicePath: 'cdi',
    });
    expect(def.nvidiaDeviceIds).toEqual([UUID[0]]);
    expect(def.gpuDevicePath).toBe('cdi');
    expect(def.env).toContain(`NVIDIA_VISIBLE_DEVICES=${UUID[0]}`);
    expect(def.env).toContain('NVIDIA_DRIVER_CAPABILITIES=compute,utility,video');
    expect(def.labels['gpucloud.gpus']).toBe(UUID[0]);
  });

  it("never keeps an old env's NVIDIA_* variables on a recreate, but keeps NVIDIA_REQUIRE_*", () => {
    const { svc } = service();
    const def = svc.definition(spec(), [], {
      ...opts,
      devicePath: 'legacy',
      env: [
        'NVIDIA_VISIBLE_DEVICES=all',
        'NVIDIA_DRIVER_CAPABILITIES=all',
        'NVIDIA_REQUIRE_CUDA=cuda>=12.4',
        'PATH=/usr/local/cuda/bin:/usr/bin',
      ],
    });
    expect(def.env.filter((e) => e.startsWith('NVIDIA_'))).toEqual([
      'NVIDIA_REQUIRE_CUDA=cuda>=12.4',
      `NVIDIA_VISIBLE_DEVICES=${UUID[0]}`,
      'NVIDIA_DRIVER_CAPABILITIES=compute,utility',
    ]);
  });

  it('without GPUs: void devices, no DeviceRequests', () => {
    const { svc } = service();
    const def = svc.definition(spec({ gpuDeviceIds: [] }), [], { ...opts, devicePath: '' });
    expect(def.nvidiaDeviceIds).toEqual([]);
    expect(def.env).toContain('NVIDIA_VISIBLE_DEVICES=void');
    expect(def.env).toContain('NVIDIA_DRIVER_CAPABILITIES=compute,utility');
  });
});

describe("a GPU container's start", () => {
  const timedOut = () =>
    Promise.reject(
      new AgentError(
        'INTERNAL',
        "start container gpucloud-c1: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: driver rpc error: timed out: unknown",
      ),
    );

  it('is tried once more after a toolkit timeout; one without GPUs is not', async () => {
    const gpuStart = service({ starts: [timedOut] });
    await gpuStart.svc.startDocker('d1', true);
    expect(gpuStart.started).toEqual(['d1', 'd1']);
    const plain = service({ starts: [timedOut] });
    await expect(plain.svc.startDocker('d2', false)).rejects.toThrow(/driver rpc error: timed out/);
    expect(plain.started).toEqual(['d2']);
  });

  it('runs at most `--gpu-start-concurrency` at once', async () => {
    let running = 0;
    let peak = 0;
    const slow = async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 10));
      running -= 1;
    };
    const { svc, started } = service({ starts: [slow, slow, slow, slow, slow] });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => svc.startDocker(id, true)));
    expect(started).toHaveLength(5);
    expect(peak).toBe(2);
  });
});
