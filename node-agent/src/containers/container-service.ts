// The container use cases: create (pull, create, start, set up access), start, stop, remove,
// inspect, list, reset password. Containers are addressed by the platform's container id;
// Docker (through the labels) is the only record of them.
import fs from 'node:fs/promises';
import os from 'node:os';
import type {
  BindMount,
  ContainerClient,
  ContainerDefinition,
  ContainerDetails,
  GpuDevicePath,
  ImageConfig,
  PortMapping,
  RegistryCredentials,
} from '../docker/container-client.js';
import { DOCKER_SOCKET_PATHS } from '../docker/create-options.js';
import {
  containerName,
  gpusFromLabel,
  LABELS,
  MANAGED_FILTER,
  managedLabels,
  mountsFromLabel,
  portsFromLabel,
} from '../docker/labels.js';
import { AgentError, errorMessage, failedPrecondition, notFound } from '../errors.js';
import { type GpuDevice, type GpuProbe, matchGpus } from '../gpu/gpu-probe.js';
import type { GpuRuntime } from '../host/gpu-runtime.js';
import { ImagePuller } from '../images/image-puller.js';
import type { TenantNetworks } from '../network/tenant-networks.js';
import type { VolumeStore } from '../volumes/volume-store.js';
import { type Access, applyAccess, generatePassword, setRootPassword } from './container-access.js';
import { retryToolkitTimeout, Semaphore } from './gpu-starts.js';
import { exposesJupyter, jupyterEnv, writeJupyterConfig } from './jupyter-access.js';
import { KeyedLock } from './keyed-lock.js';
import { healthyNow, waitReachable } from './readiness.js';
import type { RecreateJournal } from './recreate-journal.js';
import { cpuShareNanoCpus, type StorageLimit, type WritableLayers } from './resource-share.js';
import {
  checkAuthorizedKeys,
  checkContainerId,
  checkPassword,
  driverCapabilities,
  isReservedEnv,
  validateSpec,
} from './spec-validation.js';
import { STAGED_MOUNT, type StagedAccess } from './staged-access.js';
import {
  HEALTHCHECK,
  imageCommand,
  jupyterFromHealth,
  TOOLBOX_INIT,
  TOOLBOX_MOUNT,
  toolboxEnv,
} from './toolbox.js';
import type {
  ContainerServiceSettings,
  ContainerSpecInput,
  CreateContainerInput,
  ManagedContainer,
  StartContainerInput,
} from './types.js';

/** How a start ended: '' or why the container is not reachable, and the container after it. */
export interface StartOutcome {
  problem: string;
  details: ContainerDetails | undefined;
}

/** How old an inventory a create or start may place GPUs on (nvidia-smi does not run on each). */
export const GPU_INVENTORY_MAX_AGE_MS = 30_000;
export const DEFAULT_GPU_START_CONCURRENCY = 2;

/** GPUs a container may get, and how Docker is to give them. */
export interface GpuPlacement {
  gpus: GpuDevice[];
  /** '' with simulated GPUs or without GPUs: no DeviceRequests. */
  devicePath: GpuDevicePath | '';
}

export interface ContainerServiceDeps {
  client: ContainerClient;
  volumes: VolumeStore;
  gpus: GpuProbe;
  /** The device path and the toolkit's safety; undefined = simulated GPUs (no DeviceRequests). */
  gpuRuntime?: GpuRuntime;
  /** Limits GPU container creates/starts of this node (default: 2 at a time). */
  gpuStarts?: Semaphore;
  occupiedPorts: () => Promise<number[]>;
  /** Where a start stages access for the init (one host folder per container). */
  staged: StagedAccess;
  /** Where a recreate records what it does before it does it (undone at the next start after a crash). */
  recreates: RecreateJournal;
  settings: ContainerServiceSettings;
  /** Host paths of the engine's own socket, refused as mount sources besides the usual ones. */
  extraSocketPaths?: string[];
  /** Each owner's network; undefined = Docker's default bridge (unit tests with a fake engine). */
  networks?: TenantNetworks;
  /** The writable-layer size limit, where the storage driver enforces one. */
  storage?: StorageLimit;
  /** Writable-layer sizes, measured where the storage driver cannot limit them. */
  layers?: WritableLayers;
  /** CPUs the CPU share is counted from (default: the host's). */
  hostCpus?: number;
  log?: (line: string) => void;
}

/** ContainerDetails of a managed container → the agent's ManagedContainer. */
export function toManaged(
  details: ContainerDetails,
  startError = '',
  reachable = false,
  layer = { bytes: 0, allowanceBytes: 0 },
): ManagedContainer {
  const labels = details.labels;
  const named = portsFromLabel(labels[LABELS.ports]);
  return {
    containerId: labels[LABELS.containerId] ?? '',
    dockerId: details.dockerId,
    ownerId: labels[LABELS.ownerId] ?? '',
    displayName: labels[LABELS.displayName] ?? '',
    image: labels[LABELS.image] || details.image,
    state: details.state,
    statusText: details.statusText,
    exitCode: details.exitCode,
    createdAtMs: details.createdAtMs,
    startedAtMs: details.startedAtMs,
    finishedAtMs: details.finishedAtMs,
    gpuDeviceIds: gpusFromLabel(labels[LABELS.gpus]),
    ports: details.ports.map((port) => ({
      ...port,
      name:
        named.find(
          (n) =>
            n.hostPort === port.hostPort &&
            n.protocol === port.protocol &&
            n.containerPort === port.containerPort,
        )?.name ?? '',
    })),
    mounts: mountsFromLabel(labels[LABELS.mounts]),
    labels,
    startError,
    resources: details.resources,
    reachable: details.state === 'running' && (reachable || healthyNow(details)),
    jupyter: exposesJupyter(details.ports) ? jupyterFromHealth(details.health.output) : '',
    writableLayerBytes: layer.bytes,
    writableLayerAllowanceBytes: layer.allowanceBytes,
  };
}

function isManaged(details: ContainerDetails, containerId: string): boolean {
  return details.labels[LABELS.managed] === 'true' && details.labels[LABELS.containerId] === containerId;
}

/** Docker's start failures (port taken, runtime missing) are about the host, not the request. */
function startFailure(err: unknown): AgentError {
  if (err instanceof AgentError && (err.code === 'INTERNAL' || err.code === 'INVALID_ARGUMENT')) {
    return failedPrecondition(`容器启动失败 (${err.message})`, err);
  }
  return err instanceof AgentError ? err : new AgentError('INTERNAL', errorMessage(err), { cause: err });
}

export class ContainerService {
  /** Held by every operation that changes a container (ReconfigureContainer included). */
  readonly lock = new KeyedLock();
  /** One pull per image at a time, shared by creates and PullImage calls. */
  readonly puller: ImagePuller;
  /**
   * Starts (`dockerId@startedAt`) the agent saw reachable, before Docker's health check did,
   * with the Jupyter state it saw.
   */
  private readonly reachableStarts = new Map<string, string>();

  /** GPU container creates and starts of this node, a few at a time. */
  readonly gpuStarts: Semaphore;

  constructor(readonly deps: ContainerServiceDeps) {
    this.puller = new ImagePuller(deps.client);
    this.gpuStarts = deps.gpuStarts ?? new Semaphore(DEFAULT_GPU_START_CONCURRENCY);
  }

  /**
   * Docker's start of a container; one with GPUs waits for a slot among the node's GPU starts
   * and is tried once more when the toolkit timed out.
   */
  async startDocker(dockerId: string, hasGpus: boolean): Promise<void> {
    if (!hasGpus) return this.client.startContainer(dockerId);
    return this.gpuStarts.run(() =>
      retryToolkitTimeout(() => this.client.startContainer(dockerId), this.deps.log),
    );
  }

  /** Docker's create; one with GPUs takes a slot among the node's GPU starts. */
  createDocker(definition: ContainerDefinition): Promise<string> {
    if (definition.nvidiaDeviceIds.length === 0) return this.client.createContainer(definition);
    return this.gpuStarts.run(() => this.client.createContainer(definition));
  }

  /**
   * Docker's create on the owner's network (made when missing; refused where tenants cannot be
   * isolated), with the writable-layer limit where the driver enforces one.
   */
  async createOnNetwork(ownerId: string, definition: ContainerDefinition): Promise<string> {
    const storageSize = await this.deps.storage?.sizeFor(definition.image);
    const sized = storageSize ? { ...definition, storageSize } : definition;
    const networks = this.deps.networks;
    if (!networks) return this.createDocker(sized);
    return networks.withNetwork(ownerId, (networkMode) => this.createDocker({ ...sized, networkMode }));
  }

  /** Removes the owner's network when its last container has gone (best effort). */
  async releaseNetwork(ownerId: string): Promise<void> {
    await this.deps.networks?.release(ownerId);
  }

  /** The CPU share (nano-CPUs) of a container of `gpuCount` GPUs on this node. */
  async cpuShare(gpuCount: number): Promise<number> {
    const inventory = await this.deps.gpus.cachedInventory(GPU_INVENTORY_MAX_AGE_MS).catch(() => undefined);
    const hostCpus = this.deps.hostCpus ?? os.availableParallelism();
    return cpuShareNanoCpus(gpuCount, inventory?.gpus.length ?? 0, hostCpus);
  }

  /** A catch handler that logs what failed and goes on (clean-ups after the outcome is known). */
  logFailure(what: string): (err: unknown) => void {
    return (err) => this.deps.log?.(`${what} failed: ${errorMessage(err)}`);
  }

  private get client(): ContainerClient {
    return this.deps.client;
  }

  /** The managed container with this platform id, or undefined. */
  async find(containerId: string): Promise<ContainerDetails | undefined> {
    const details = await this.client.inspectContainer(containerName(checkContainerId(containerId)));
    return details && isManaged(details, containerId) ? details : undefined;
  }

  async get(containerId: string): Promise<ContainerDetails> {
    const details = await this.find(containerId);
    if (!details) throw notFound(`容器 ${containerId} 不存在 (no container ${containerId} on this node)`);
    return details;
  }

  async inspect(containerId: string): Promise<ManagedContainer> {
    return this.managed(await this.get(containerId));
  }

  managed(details: ContainerDetails, startError = ''): ManagedContainer {
    const seen = this.reachableStarts.get(startKey(details));
    const layers = this.deps.layers;
    const managed = toManaged(
      details,
      startError,
      seen !== undefined,
      layers ? { bytes: layers.bytes(details.dockerId), allowanceBytes: layers.allowanceBytes } : undefined,
    );
    // The agent's own check at this start is fresher than a Docker check that ran while Jupyter
    // was still starting; once Docker says healthy, its check is the current one.
    return seen && details.health.status !== 'healthy' ? { ...managed, jupyter: seen } : managed;
  }

  /**
   * Waits until the started container answers: the problem ('' when it does) and the container
   * as inspected after the wait.
   */
  async waitUntilReachable(dockerId: string, ports: PortMapping[]): Promise<StartOutcome> {
    const { problem, jupyter, details } = await waitReachable(this.client, dockerId, ports, {
      bindAddress: this.deps.settings.bindAddress,
      timeoutMs: this.deps.settings.readyTimeoutMs,
    });
    if (!problem && details) {
      if (this.reachableStarts.size > 10_000) this.reachableStarts.clear();
      this.reachableStarts.set(startKey(details), jupyter);
    }
    return { problem, details };
  }

  async list(all: boolean, ownerId: string): Promise<ManagedContainer[]> {
    const labels = [MANAGED_FILTER, ...(ownerId ? [`${LABELS.ownerId}=${ownerId}`] : [])];
    const summaries = await this.client.listContainers({ all, labels });
    const details = await Promise.all(summaries.map((s) => this.client.inspectContainer(s.dockerId)));
    return (
      details
        .filter((d): d is ContainerDetails => d !== undefined) // removed between list and inspect
        // A container parked by a running reconfigure carries the same id under another name.
        .filter((d) => d.name === containerName(d.labels[LABELS.containerId] ?? ''))
        .map((d) => this.managed(d))
        .sort((a, b) => a.createdAtMs - b.createdAtMs)
    );
  }

  /** Host directories for the mounts, refusing anything that would expose the Docker socket. */
  async resolveBinds(ownerId: string, mounts: ContainerSpecInput['mounts']): Promise<BindMount[]> {
    const sockets = [...DOCKER_SOCKET_PATHS, ...(this.deps.extraSocketPaths ?? [])];
    const binds: BindMount[] = [];
    for (const mount of mounts) {
      const source = await fs.realpath(await this.deps.volumes.mountSource(ownerId, mount.volumeName));
      if (sockets.some((s) => s === source || s.startsWith(`${source}/`))) {
        throw new AgentError(
          'INVALID_ARGUMENT',
          `mount source ${source} would expose the Docker socket; refused`,
        );
      }
      binds.push({ source, target: mount.target, readOnly: mount.readOnly });
    }
    return binds;
  }

  /** Refuses host ports something else holds (ports of `ignore` excluded). */
  async checkPortsFree(ports: PortMapping[], ignore: number[] = []): Promise<void> {
    if (ports.length === 0) return;
    const occupied = new Set(await this.deps.occupiedPorts());
    const taken = ports.map((p) => p.hostPort).filter((p) => occupied.has(p) && !ignore.includes(p));
    if (taken.length > 0) throw failedPrecondition(`端口已被占用 (host port ${taken.join(', ')} is in use)`);
  }

  /**
   * GPUs must exist, be healthy and whole, and the host must be safe for GPU work; for a
   * container about to run (`starting`), no other running container may hold them. Returns the
   * GPUs (by UUID) and the device path their container is created with.
   */
  async checkGpus(containerId: string, gpuIds: string[], starting: boolean): Promise<GpuPlacement> {
    if (gpuIds.length === 0) return { gpus: [], devicePath: '' };
    let inventory = await this.deps.gpus.cachedInventory(GPU_INVENTORY_MAX_AGE_MS);
    let { found, unknown } = matchGpus(inventory.gpus, gpuIds);
    if (unknown.length > 0) {
      // A GPU added (or back after a reset) since the inventory was read: read it again once.
      inventory = await this.deps.gpus.inventory();
      ({ found, unknown } = matchGpus(inventory.gpus, gpuIds));
    }
    if (inventory.probeError) {
      throw failedPrecondition(
        `节点 GPU 状态读取失败, 暂不接受 GPU 任务 (the GPU inventory is not current: ${inventory.probeError})`,
      );
    }
    if (unknown.length > 0) {
      throw failedPrecondition(`GPU ${unknown.join(', ')} 在本节点不存在 (no such GPU on this node)`);
    }
    let runtime = this.deps.gpuRuntime ? await this.deps.gpuRuntime.state() : undefined;
    if (runtime?.unsafeReason) throw failedPrecondition(runtime.unsafeReason);
    for (const gpu of found) {
      if (gpu.healthProblem) {
        throw failedPrecondition(`GPU ${gpu.index} (${gpu.uuid}) 不可用: ${gpu.healthProblem}`);
      }
      if (gpu.migEnabled) {
        throw failedPrecondition(
          `GPU ${gpu.index} (${gpu.uuid}) 已开启 MIG, 不能整卡分配 (MIG mode is enabled: the GPU is split into instances and is not given whole)`,
        );
      }
    }
    if (runtime?.devicePath === 'cdi') {
      const listed = (names: string[]) => found.filter((g) => !names.includes(g.uuid));
      if (listed(runtime.cdiGpuNames).length > 0 && this.deps.gpuRuntime) {
        runtime = await this.deps.gpuRuntime.state(true); // a spec generated a moment ago
      }
      const missing = listed(runtime.cdiGpuNames);
      if (missing.length > 0) {
        const which = missing.map((g) => `GPU ${g.index} (${g.uuid})`).join(', ');
        throw failedPrecondition(
          `${which} 没有对应的 CDI 设备, 请重新生成 CDI 规格 (Docker lists no ${missing.map((g) => `nvidia.com/gpu=${g.uuid}`).join(', ')}: run \`nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml\`)`,
        );
      }
    }
    const placement: GpuPlacement = { gpus: found, devicePath: runtime?.devicePath ?? '' };
    if (!starting) return placement;
    // Compared by UUID: one container may name a GPU by its index (created before UUIDs), another by UUID.
    const wanted = new Set(found.map((g) => g.uuid));
    // Only this node's containers hold this node's GPUs (an engine shared by several agents,
    // as in tests, must not make one node's allocation block another's).
    const running = await this.client.listContainers({
      all: false,
      labels: [MANAGED_FILTER, `${LABELS.node}=${this.deps.settings.nodeName}`],
    });
    for (const other of running) {
      if (other.labels[LABELS.containerId] === containerId) continue;
      const held = matchGpus(inventory.gpus, gpusFromLabel(other.labels[LABELS.gpus])).found;
      const busy = held.filter((g) => wanted.has(g.uuid)).map((g) => `${g.index} (${g.uuid})`);
      if (busy.length > 0) {
        throw failedPrecondition(
          `GPU ${busy.join(', ')} 正被容器 ${other.labels[LABELS.containerId]} 使用 (GPU busy)`,
        );
      }
    }
    return placement;
  }

  /**
   * The Docker definition of a validated spec. The container runs our init (from the toolbox,
   * as root) with `command`, the image's own ENTRYPOINT + CMD, as its arguments. Its staging
   * folder must exist before the create (`staged.prepare`).
   */
  definition(
    spec: ContainerSpecInput,
    binds: BindMount[],
    options: {
      image: string;
      generation: number;
      command: string[];
      imageUser: string;
      env?: string[];
      rootPassword?: string;
      /** How Docker gives the GPUs (from checkGpus); '' = no DeviceRequests. */
      devicePath?: GpuDevicePath | '';
      /** The CPU limit when the spec names none (cpuShare); 0 = none. */
      cpuShare?: number;
    },
  ): ContainerDefinition {
    // A derived limit is marked, so that a recreate with other GPUs derives it anew.
    const autoCpus = spec.resources.nanoCpus === 0 && (options.cpuShare ?? 0) > 0;
    const resources = autoCpus ? { ...spec.resources, nanoCpus: options.cpuShare ?? 0 } : spec.resources;
    const { simulatedGpus, nodeName, toolboxPath } = this.deps.settings;
    const userEnv = options.env ?? Object.entries(spec.env).map(([k, v]) => `${k}=${v}`);
    // Always set explicitly: a CUDA image's own NVIDIA_VISIBLE_DEVICES=all or
    // NVIDIA_DRIVER_CAPABILITIES=all must never apply (the container's env wins over the image's).
    const visible = spec.gpuDeviceIds.length > 0 ? spec.gpuDeviceIds.join(',') : 'void';
    const agentEnv = [
      `NVIDIA_VISIBLE_DEVICES=${visible}`,
      `NVIDIA_DRIVER_CAPABILITIES=${driverCapabilities(spec.extraDriverCapabilities ?? []).join(',')}`,
      ...toolboxEnv(spec.ports, options.imageUser),
    ];
    if (exposesJupyter(spec.ports)) {
      // A recreate (no password at hand) keeps the token env it had; the config folder is current.
      const kept = options.rootPassword ? [] : userEnv.filter((e) => /^JUPYTER_(TOKEN|PASSWORD)=/.test(e));
      agentEnv.push(...kept, ...jupyterEnv(options.rootPassword ?? ''));
    }
    const agentKeys = new Set(agentEnv.map((e) => e.slice(0, e.indexOf('='))));
    // A recreate passes the old env: the agent's variables are set anew, never kept.
    const ownKey = (e: string) => {
      const key = e.slice(0, e.indexOf('='));
      return agentKeys.has(key) || key.startsWith('GPUCLOUD_') || isReservedEnv(key);
    };
    return {
      name: containerName(spec.containerId),
      image: options.image,
      env: [...userEnv.filter((e) => !ownKey(e)), ...agentEnv],
      labels: {
        ...managedLabels(
          { ...spec, node: nodeName, image: spec.image, generation: options.generation },
          spec.labels,
        ),
        ...(autoCpus ? { [LABELS.cpuShare]: 'auto' } : {}),
      },
      entrypoint: [TOOLBOX_INIT],
      command: options.command,
      // Our init sets up access as root; it runs the image's command as the image's USER.
      user: '0',
      healthcheck: HEALTHCHECK,
      ports: spec.ports,
      binds: [
        ...binds,
        { source: toolboxPath, target: TOOLBOX_MOUNT, readOnly: true },
        { source: this.deps.staged.dir(spec.containerId), target: STAGED_MOUNT, readOnly: true },
      ],
      nvidiaDeviceIds: simulatedGpus || !options.devicePath ? [] : spec.gpuDeviceIds,
      ...(options.devicePath ? { gpuDevicePath: options.devicePath } : {}),
      resources,
      logLimits: this.deps.settings.logLimits,
    };
  }

  private async ensureImage(image: string, auth: RegistryCredentials | undefined): Promise<ImageConfig> {
    const present = await this.client.inspectImage(image);
    if (present) return present;
    this.deps.log?.(`pulling image ${image}`);
    try {
      await this.puller.pull(image, auth, () => undefined);
    } catch (err) {
      if (err instanceof AgentError && (err.code === 'UNAVAILABLE' || err.code === 'DEADLINE_EXCEEDED'))
        throw err;
      throw failedPrecondition(
        `镜像 ${image} 不存在且拉取失败 (image not found locally and the pull failed: ${errorMessage(err)})`,
        err,
      );
    }
    const pulled = await this.client.inspectImage(image);
    if (!pulled) throw failedPrecondition(`镜像 ${image} 拉取后不存在 (image missing after the pull)`);
    return pulled;
  }

  /**
   * Starts with the access the start asks for and waits until SSH answers (see
   * waitUntilReachable). The access is staged for the init where the container has its staging
   * mount (every container since staging exists; `staged`: the caller has written it), else
   * applied right after the start. Throws when Docker refuses the start or the access cannot be
   * applied.
   */
  async startWithAccess(
    details: Pick<ContainerDetails, 'dockerId' | 'binds' | 'ports' | 'nvidiaDeviceIds'> & {
      containerId: string;
    },
    access: Access,
    options: { staged?: boolean } = {},
  ): Promise<StartOutcome> {
    const staging = details.binds.some((b) => b.target === STAGED_MOUNT);
    if (staging && !options.staged) await this.deps.staged.write(details.containerId, access);
    try {
      try {
        await this.startDocker(details.dockerId, details.nvidiaDeviceIds.length > 0);
      } catch (err) {
        throw startFailure(err);
      }
      if (!staging) {
        try {
          await applyAccess(this.client, details.dockerId, access);
        } catch (err) {
          throw failedPrecondition(
            `容器已启动, 但访问设置失败 (started, but setting up access failed: ${errorMessage(err)})`,
            err,
          );
        }
      }
      return await this.waitUntilReachable(details.dockerId, details.ports);
    } finally {
      if (staging) {
        await this.deps.staged
          .clear(details.containerId)
          .catch(this.logFailure(`clear the staged access of ${details.containerId}`));
      }
    }
  }

  create(input: CreateContainerInput): Promise<ManagedContainer> {
    const spec = validateSpec(input.spec, this.deps.settings);
    return this.lock.run(spec.containerId, () => this.createLocked(spec, input));
  }

  private async createLocked(
    spec: ContainerSpecInput,
    input: CreateContainerInput,
  ): Promise<ManagedContainer> {
    const access: Access = {
      rootPassword: input.rootPassword ? checkPassword(input.rootPassword) : '',
      authorizedKeys: checkAuthorizedKeys(input.authorizedKeys),
      jupyter: exposesJupyter(spec.ports),
    };
    // The checks run at once (a purchase waits on them) but refuse in a fixed order: a retried
    // create hears ALREADY_EXISTS, not that its own ports are taken. The image is pulled only
    // once they pass.
    const [binds, existing, present, ports, gpus] = await Promise.allSettled([
      this.resolveBinds(spec.ownerId, spec.mounts),
      this.client.inspectContainer(containerName(spec.containerId)),
      this.client.inspectImage(spec.image),
      this.checkPortsFree(spec.ports),
      this.checkGpus(spec.containerId, spec.gpuDeviceIds, input.start),
    ]);
    const value = <T>(result: PromiseSettledResult<T>): T => {
      if (result.status === 'rejected') throw result.reason;
      return result.value;
    };
    if (value(existing)) {
      throw new AgentError('ALREADY_EXISTS', `容器 ${spec.containerId} 已存在 (container already exists)`);
    }
    for (const check of [binds, ports, gpus, present] as PromiseSettledResult<unknown>[]) value(check);
    const image = value(present) ?? (await this.ensureImage(spec.image, input.registryAuth));
    await this.deps.staged.prepare(spec.containerId);
    const placement = value(gpus);
    // Docker, the env and the labels name the GPUs by UUID, whatever the request named them by.
    const placed = { ...spec, gpuDeviceIds: placement.gpus.map((g) => g.uuid) };
    const definition = this.definition(placed, value(binds), {
      devicePath: placement.devicePath,
      image: spec.image,
      generation: 0,
      command: imageCommand(image, spec.command),
      imageUser: image.user,
      rootPassword: access.rootPassword,
      cpuShare: await this.cpuShare(placement.gpus.length),
    });
    // The access is staged (its password hashed) while Docker creates the container.
    const staging = input.start ? this.deps.staged.write(spec.containerId, access) : Promise.resolve();
    const [created] = await Promise.allSettled([this.createOnNetwork(spec.ownerId, definition), staging]);
    if (created.status === 'rejected') {
      await this.deps.staged.remove(spec.containerId).catch(this.logFailure('remove the staging folder'));
      await this.releaseNetwork(spec.ownerId);
      throw created.reason;
    }
    const dockerId = created.value;
    let startError = '';
    try {
      let details: ContainerDetails | undefined;
      if (input.start) {
        await staging;
        const container = {
          dockerId,
          containerId: spec.containerId,
          binds: definition.binds,
          ports: spec.ports,
          nvidiaDeviceIds: definition.nvidiaDeviceIds,
        };
        const outcome = await this.startWithAccess(container, access, { staged: true }).catch(
          (err: unknown) => ({
            problem: err instanceof AgentError ? err.message : errorMessage(err),
            details: undefined,
          }),
        );
        startError = outcome.problem;
        details = outcome.details;
      }
      details ??= await this.client.inspectContainer(dockerId);
      if (!details) throw new AgentError('INTERNAL', `container ${dockerId} vanished right after creation`);
      if (startError) this.deps.log?.(`container ${spec.containerId} created, start failed: ${startError}`);
      return this.managed(details, startError);
    } catch (err) {
      // All or nothing: a container we cannot report is removed again.
      await this.client.removeContainer(dockerId, true).catch(this.logFailure(`clean up ${dockerId}`));
      await this.deps.staged.remove(spec.containerId).catch(this.logFailure('remove the staging folder'));
      await this.releaseNetwork(spec.ownerId);
      throw err;
    }
  }

  start(input: StartContainerInput): Promise<ManagedContainer> {
    const access = {
      rootPassword: input.rootPassword ? checkPassword(input.rootPassword) : '',
      authorizedKeys: checkAuthorizedKeys(input.authorizedKeys),
    };
    return this.lock.run(input.containerId, () => this.startLocked(input.containerId, access));
  }

  private async startLocked(
    containerId: string,
    access: { rootPassword: string; authorizedKeys: string[] },
  ): Promise<ManagedContainer> {
    const details = await this.get(containerId);
    const jupyter = exposesJupyter(details.ports);
    await this.checkGpus(containerId, gpusFromLabel(details.labels[LABELS.gpus]), true);
    const { problem, details: after } = await this.startWithAccess(
      { ...details, containerId },
      { ...access, jupyter },
    );
    return this.managed(after ?? (await this.get(containerId)), problem);
  }

  stop(containerId: string, timeoutSeconds: number): Promise<ManagedContainer> {
    return this.lock.run(containerId, async () => {
      const details = await this.get(containerId);
      await this.client.stopContainer(
        details.dockerId,
        timeoutSeconds || this.deps.settings.defaultStopTimeoutSeconds,
      );
      return this.inspect(containerId);
    });
  }

  /** False when there was nothing to remove. */
  remove(containerId: string, force: boolean): Promise<boolean> {
    return this.lock.run(containerId, async () => {
      const details = await this.find(containerId);
      if (!details) return false;
      const removed = await this.client.removeContainer(details.dockerId, force);
      if (removed) await this.deps.staged.remove(containerId);
      if (removed) await this.releaseNetwork(details.labels[LABELS.ownerId] ?? '');
      if (removed && details.image.startsWith('gpucloud/commit:')) {
        // The commit image of a reconfigured container has no other user.
        await this.client.removeImage(details.image).catch((err: unknown) => {
          this.deps.log?.(`could not remove ${details.image}: ${errorMessage(err)}`);
        });
      }
      return removed;
    });
  }

  /** Under the container's lock: a reset during a reconfigure lands in the recreated container. */
  resetPassword(containerId: string, password: string): Promise<string> {
    const chosen = password ? checkPassword(password) : generatePassword();
    return this.lock.run(containerId, async () => {
      const details = await this.get(containerId);
      if (details.state !== 'running') {
        throw failedPrecondition(`容器未运行, 无法重置密码 (container is ${details.state}; start it first)`);
      }
      await setRootPassword(this.client, details.dockerId, chosen);
      if (exposesJupyter(details.ports)) await writeJupyterConfig(this.client, details.dockerId, chosen);
      return chosen;
    });
  }

  /** Platform ids of containers of `ownerId` that mount `volumeName`. */
  async containerUsingVolume(ownerId: string, volumeName: string): Promise<string | undefined> {
    const list = await this.client.listContainers({
      all: true,
      labels: [MANAGED_FILTER, `${LABELS.ownerId}=${ownerId}`],
    });
    const user = list.find((c) =>
      mountsFromLabel(c.labels[LABELS.mounts]).some((m) => m.volumeName === volumeName),
    );
    return user?.labels[LABELS.containerId];
  }
}

const startKey = (details: ContainerDetails) => `${details.dockerId}@${details.startedAtMs}`;
