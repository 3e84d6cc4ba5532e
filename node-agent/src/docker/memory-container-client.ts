// A container engine in memory: the ContainerClient contract (and the tenant networks' engine
// calls) kept in maps, for benches and tests that run many agents in one process (a simulated
// fleet). Nothing runs in a container: a started container is `running` until it is stopped, an
// exec answers through a handler (exit code 0 by default), and the ports an image "serves" are
// real TCP listeners on the published host ports that send the image's greeting to every new
// connection (an SSH banner: the agent's readiness check reaches them as it reaches sshd).
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { AgentError } from '../errors.js';
import { readTar } from '../images/tar.js';
import type { NetworkEngine, TenantNetworkSpec, TenantNetworkSummary } from '../network/tenant-networks.js';
import type {
  CommitOptions,
  ContainerClient,
  ContainerDefinition,
  ContainerDetails,
  ContainerStateName,
  ContainerSummary,
  ContainerUsage,
  EngineEvent,
  EngineInfo,
  EngineVersion,
  ExecResult,
  ImageConfig,
  ImageDetails,
  ImageHistoryEntry,
  ImageSummary,
  InteractiveExec,
  LogMessage,
  LogOptions,
  OpenDockerStreams,
  PullProgress,
  PushProgress,
  RegistryCredentials,
  SandboxDefinition,
  StreamHandle,
} from './container-client.js';

/** An image the engine holds or its registry offers. */
export interface MemoryImage {
  ref: string;
  config?: Partial<ImageConfig>;
  sizeBytes?: number;
  /** Container port → the line a connection to it receives (e.g. `{22: 'SSH-2.0-memory\r\n'}`). */
  serves?: Record<number, string>;
}

export interface MemoryExecCall {
  ref: string;
  dockerId: string;
  command: string[];
  stdin: string | undefined;
}

export interface MemoryContainerClientOptions {
  /** Images present from the start. */
  images?: MemoryImage[];
  /** Images a pull can fetch (by ref); a pull of any other ref fails as Docker's would. */
  registry?: MemoryImage[];
  /** Answers an exec; the default: exit code 0, no output. */
  exec?: (call: MemoryExecCall) => ExecResult | Promise<ExecResult>;
  /** Reported by version(). */
  version?: string;
  dataRoot?: string;
  /** Where served ports listen when a mapping names no host address (default 127.0.0.1). */
  defaultHostIp?: string;
}

interface StoredImage {
  id: string;
  repoDigests: string[];
  labels: Record<string, string>;
  diffIds: string[];
  /** Newest first, as `docker history`. */
  history: ImageHistoryEntry[];
  tags: Set<string>;
  config: ImageConfig;
  sizeBytes: number;
  createdUnix: number;
  serves: Record<number, string>;
}

interface StoredContainer {
  details: ContainerDetails;
  image: StoredImage;
  /** Network the container joined ('' = the default bridge). */
  network: string;
  logs: LogMessage[];
  /** Followed log streams: a message, or undefined when the container stopped. */
  followers: Set<(message: LogMessage | undefined) => void>;
  listeners: net.Server[];
  writableBytes: number;
  removing: boolean;
}

const hexId = () => randomBytes(32).toString('hex');
const stripSlash = (name: string) => name.replace(/^\//, '');

function matchesLabels(labels: Record<string, string>, filters: string[]): boolean {
  return filters.every((filter) => {
    const eq = filter.indexOf('=');
    if (eq < 0) return filter in labels;
    return labels[filter.slice(0, eq)] === filter.slice(eq + 1);
  });
}

function nsOf(ms: number): bigint {
  return BigInt(ms) * 1_000_000n;
}

/** Docker's `since`: Unix seconds with optional nanoseconds → nanoseconds. */
function sinceNs(since: string): bigint {
  if (!since) return 0n;
  const [seconds = '0', fraction = ''] = since.split('.');
  return BigInt(seconds) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9));
}

function normaliseRef(ref: string): string {
  // `debian` means `debian:latest`, as Docker reads it; digests and tags are kept.
  const lastSlash = ref.lastIndexOf('/');
  return ref.includes('@') || ref.slice(lastSlash + 1).includes(':') ? ref : `${ref}:latest`;
}

export class MemoryContainerClient implements ContainerClient, NetworkEngine {
  private readonly images = new Map<string, StoredImage>();
  private readonly registry = new Map<string, MemoryImage>();
  private readonly containers = new Map<string, StoredContainer>();
  private readonly networks = new Map<string, TenantNetworkSummary>();
  private readonly eventListeners = new Set<{ filters: string[]; onEvent: (e: EngineEvent) => void }>();
  private readonly open: OpenDockerStreams = { logs: 0, events: 0, consoles: 0 };
  /** Every exec run, in order (tests read it). */
  readonly execs: MemoryExecCall[] = [];
  /** False: every call fails as it would with the engine down. */
  available = true;

  constructor(private readonly options: MemoryContainerClientOptions = {}) {
    for (const image of options.images ?? []) this.addImage(image);
    for (const image of options.registry ?? []) this.registry.set(normaliseRef(image.ref), image);
  }

  // ------------------------------------------------------------------ engine

  private up(): void {
    if (!this.available) {
      throw new AgentError('UNAVAILABLE', '节点的 Docker 服务不可用 (the in-memory engine is stopped)');
    }
  }

  async version(): Promise<EngineVersion> {
    this.up();
    return { version: this.options.version ?? '27.0.0-memory', apiVersion: '1.46' };
  }

  async dataRoot(): Promise<string> {
    this.up();
    return this.options.dataRoot ?? '/var/lib/docker';
  }

  async engineInfo(): Promise<EngineInfo> {
    this.up();
    return {
      serverVersion: this.options.version ?? '27.0.0-memory',
      dataRoot: this.options.dataRoot ?? '/var/lib/docker',
      cdiSpecDirs: [],
      discoveredDevices: undefined,
      runtimes: ['runc'],
    };
  }

  // ------------------------------------------------------------------ images

  /** Puts an image in the engine (as a pull or a load would); returns its id. */
  addImage(image: MemoryImage): string {
    const ref = normaliseRef(image.ref);
    const existing = this.images.get(ref);
    if (existing) return existing.id;
    const layer = `sha256:${hexId()}`;
    const stored: StoredImage = {
      id: `sha256:${hexId()}`,
      repoDigests: [],
      labels: {},
      diffIds: [layer],
      history: [
        {
          createdUnix: Math.floor(Date.now() / 1000),
          createdBy: '',
          comment: 'Imported from -',
          sizeBytes: image.sizeBytes ?? 100 * 1024 ** 2,
        },
      ],
      tags: new Set([ref]),
      config: {
        entrypoint: image.config?.entrypoint ?? [],
        command: image.config?.command ?? ['bash'],
        user: image.config?.user ?? '',
        env: image.config?.env ?? ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
      },
      sizeBytes: image.sizeBytes ?? 100 * 1024 ** 2,
      createdUnix: Math.floor(Date.now() / 1000),
      serves: { ...(image.serves ?? {}) },
    };
    this.images.set(ref, stored);
    return stored.id;
  }

  private findImage(ref: string): StoredImage | undefined {
    const byTag = this.images.get(normaliseRef(ref));
    if (byTag) return byTag;
    for (const image of this.images.values())
      if (image.id === ref || image.id === `sha256:${ref}`) return image;
    return undefined;
  }

  async imageExists(ref: string): Promise<boolean> {
    this.up();
    return this.findImage(ref) !== undefined;
  }

  async inspectImage(ref: string): Promise<ImageConfig | undefined> {
    this.up();
    const image = this.findImage(ref);
    return image && structuredClone(image.config);
  }

  async pullImage(
    ref: string,
    _auth: RegistryCredentials | undefined,
    onProgress: (progress: PullProgress) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    this.up();
    const offered = this.registry.get(normaliseRef(ref));
    if (signal?.aborted) throw new AgentError('CANCELLED', `pull image ${ref}: cancelled`);
    if (!offered) {
      throw new AgentError(
        'FAILED_PRECONDITION',
        `pull image ${ref}: manifest for ${ref} not found: manifest unknown`,
      );
    }
    const total = offered.sizeBytes ?? 100 * 1024 ** 2;
    onProgress({ id: 'layer', status: 'Downloading', current: Math.floor(total / 2), total });
    onProgress({ id: 'layer', status: 'Pull complete', current: total, total });
    this.addImage({ ...offered, ref });
  }

  async removeImage(ref: string): Promise<boolean> {
    this.up();
    const image = this.findImage(ref);
    if (!image) return false;
    for (const c of this.containers.values()) {
      if (c.image === image) {
        throw new AgentError(
          'FAILED_PRECONDITION',
          `remove image ${ref}: conflict: unable to remove repository reference (must force) - container ${c.details.dockerId.slice(0, 12)} is using its referenced image`,
        );
      }
    }
    for (const tag of image.tags) this.images.delete(tag);
    return true;
  }

  async listImages(): Promise<ImageSummary[]> {
    this.up();
    const seen = new Set<StoredImage>(this.images.values());
    return [...seen].map((i) => ({
      tags: [...i.tags],
      imageId: i.id,
      sizeBytes: i.sizeBytes,
      createdUnix: i.createdUnix,
    }));
  }

  /** The storage driver takes a size limit (overlay2 over xfs with pquota, as the test engine is not). */
  async supportsStorageSize(image: string, _size: string): Promise<string> {
    this.up();
    if (!this.findImage(image)) throw new AgentError('NOT_FOUND', `No such image: ${image}`);
    return '';
  }

  // ------------------------------------------------------------------ containers

  private find(ref: string): StoredContainer | undefined {
    const byId = this.containers.get(ref);
    if (byId) return byId;
    const name = stripSlash(ref);
    for (const c of this.containers.values()) {
      if (c.details.name === name) return c;
    }
    if (ref.length >= 12) {
      for (const [id, c] of this.containers) if (id.startsWith(ref)) return c;
    }
    return undefined;
  }

  private require(ref: string, what: string): StoredContainer {
    const c = this.find(ref);
    if (!c) throw new AgentError('NOT_FOUND', `${what}: No such container: ${ref}`);
    return c;
  }

  private emit(c: StoredContainer, action: string, extra: Record<string, string> = {}): void {
    const event: EngineEvent = {
      dockerId: c.details.dockerId,
      action,
      labels: { ...c.details.labels, name: c.details.name, image: c.details.image, ...extra },
      exitCode: Number(extra.exitCode ?? 0) || 0,
      timeUnixMs: Date.now(),
    };
    for (const listener of [...this.eventListeners]) {
      if (matchesLabels(c.details.labels, listener.filters)) listener.onEvent(event);
    }
  }

  async createContainer(definition: ContainerDefinition): Promise<string> {
    this.up();
    const what = `create container ${definition.name}`;
    if (this.find(definition.name)) {
      throw new AgentError(
        'FAILED_PRECONDITION',
        `${what}: Conflict. The container name "/${definition.name}" is already in use`,
      );
    }
    const image = this.findImage(definition.image);
    if (!image) throw new AgentError('NOT_FOUND', `${what}: No such image: ${definition.image}`);
    if (definition.networkMode && !['bridge', 'host', 'none'].includes(definition.networkMode)) {
      if (!this.networks.has(definition.networkMode)) {
        throw new AgentError('NOT_FOUND', `${what}: network ${definition.networkMode} not found`);
      }
    }
    const dockerId = hexId();
    const details: ContainerDetails = {
      dockerId,
      name: definition.name,
      image: definition.image,
      labels: { ...definition.labels },
      state: 'created',
      statusText: 'Created',
      exitCode: 0,
      createdAtMs: Date.now(),
      startedAtMs: 0,
      finishedAtMs: 0,
      tty: false,
      env: [...image.config.env, ...definition.env],
      command: definition.command.length > 0 ? [...definition.command] : [...image.config.command],
      entrypoint: definition.entrypoint ? [...definition.entrypoint] : [...image.config.entrypoint],
      workingDir: definition.workingDir ?? '',
      user: definition.user ?? image.config.user,
      ports: definition.ports.map((p) => ({ ...p })),
      binds: definition.binds.map((b) => ({ ...b })),
      nvidiaDeviceIds: [...definition.nvidiaDeviceIds],
      resources: { ...definition.resources },
      health: { status: definition.healthcheck ? 'starting' : '', output: '' },
    };
    const stored: StoredContainer = {
      details,
      image,
      network: definition.networkMode ?? '',
      logs: [],
      followers: new Set(),
      listeners: [],
      writableBytes: 0,
      removing: false,
    };
    this.containers.set(dockerId, stored);
    this.emit(stored, 'create');
    return dockerId;
  }

  async startContainer(ref: string): Promise<void> {
    this.up();
    const c = this.require(ref, `start container ${ref}`);
    if (c.details.state === 'running') return; // Docker's 304
    const taken = this.publishedPorts(c);
    for (const p of c.details.ports) {
      if (taken.has(`${p.protocol}/${p.hostPort}`)) {
        throw new AgentError(
          'INTERNAL',
          `start container ${ref}: driver failed programming external connectivity: Bind for ${p.hostIp || '0.0.0.0'}:${p.hostPort} failed: port is already allocated`,
        );
      }
    }
    c.listeners = await this.serve(c, ref);
    c.details.state = 'running';
    c.details.statusText = 'Up Less than a second';
    c.details.startedAtMs = Date.now();
    c.details.exitCode = 0;
    c.details.health = { status: c.details.health.status ? 'healthy' : '', output: '' };
    this.appendLog(c.details.dockerId, 'stdout', `${c.details.name} started`);
    this.emit(c, 'start');
  }

  /** Host ports the other running containers have published, as `tcp/20001`. */
  private publishedPorts(except: StoredContainer): Set<string> {
    const out = new Set<string>();
    for (const c of this.containers.values()) {
      if (c === except || c.details.state !== 'running') continue;
      for (const p of c.details.ports) out.add(`${p.protocol}/${p.hostPort}`);
    }
    return out;
  }

  /** Listens on the published ports the image serves; a port the host holds fails the start. */
  private async serve(c: StoredContainer, ref: string): Promise<net.Server[]> {
    const servers: net.Server[] = [];
    try {
      for (const p of c.details.ports) {
        const greeting = c.image.serves[p.containerPort];
        if (greeting === undefined || p.protocol !== 'tcp') continue;
        const server = net.createServer((socket) => {
          socket.on('error', () => undefined);
          socket.end(greeting);
        });
        const host =
          p.hostIp && p.hostIp !== '0.0.0.0' ? p.hostIp : (this.options.defaultHostIp ?? '127.0.0.1');
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(p.hostPort, host, () => resolve());
        });
        servers.push(server);
      }
      return servers;
    } catch (err) {
      for (const s of servers) s.close();
      throw new AgentError(
        'INTERNAL',
        `start container ${ref}: driver failed programming external connectivity: ${(err as Error).message}`,
      );
    }
  }

  private halt(c: StoredContainer, exitCode: number, actions: string[]): void {
    for (const s of c.listeners) s.close();
    c.listeners = [];
    c.details.state = 'exited';
    c.details.exitCode = exitCode;
    c.details.finishedAtMs = Date.now();
    c.details.statusText = `Exited (${exitCode}) Less than a second ago`;
    if (c.details.health.status) c.details.health = { status: 'unhealthy', output: '' };
    for (const follow of [...c.followers]) follow(undefined);
    for (const action of actions) {
      this.emit(c, action, action === 'die' ? { exitCode: String(exitCode) } : {});
    }
  }

  async stopContainer(ref: string, _timeoutSeconds: number): Promise<boolean> {
    this.up();
    const c = this.require(ref, `stop container ${ref}`);
    if (c.details.state !== 'running' && c.details.state !== 'paused') return false; // Docker's 304
    // The process ends at SIGTERM (an init that forwards it, as the toolbox's does).
    this.halt(c, 0, ['kill', 'die', 'stop']);
    return true;
  }

  /** The container's main process exits by itself (a crash, `exit 1`, an OOM kill: 137). */
  crash(ref: string, exitCode: number): void {
    const c = this.require(ref, `crash ${ref}`);
    if (c.details.state !== 'running') return;
    this.halt(c, exitCode, exitCode === 137 ? ['oom', 'die'] : ['die']);
  }

  async removeContainer(ref: string, force: boolean): Promise<boolean> {
    this.up();
    const c = this.find(ref);
    if (!c) return false;
    if (c.details.state === 'running' && !force) {
      throw new AgentError(
        'FAILED_PRECONDITION',
        `remove container ${ref}: cannot remove container "/${c.details.name}": container is running: stop the container before removing or force remove`,
      );
    }
    if (c.details.state === 'running') this.halt(c, 137, ['kill', 'die']);
    c.removing = true;
    this.containers.delete(c.details.dockerId);
    this.emit(c, 'destroy');
    return true;
  }

  async renameContainer(ref: string, newName: string): Promise<void> {
    this.up();
    const c = this.require(ref, `rename container ${ref} to ${newName}`);
    const other = this.find(newName);
    if (other && other !== c) {
      throw new AgentError(
        'FAILED_PRECONDITION',
        `rename container ${ref} to ${newName}: Conflict. The container name "/${newName}" is already in use`,
      );
    }
    c.details.name = stripSlash(newName);
    this.emit(c, 'rename');
  }

  async inspectContainer(ref: string): Promise<ContainerDetails | undefined> {
    this.up();
    const c = this.find(ref);
    return c && structuredClone(c.details);
  }

  /** Nothing runs in memory: no CPU time, no memory, never restarted by a policy. */
  async containerUsage(ref: string): Promise<ContainerUsage | undefined> {
    this.up();
    const c = this.find(ref);
    return c && { running: c.details.state === 'running', cpuSeconds: 0, memoryBytes: 0, restartCount: 0 };
  }

  async listContainers(filter: { all: boolean; labels: string[] }): Promise<ContainerSummary[]> {
    this.up();
    const out: ContainerSummary[] = [];
    for (const c of this.containers.values()) {
      if (!filter.all && c.details.state !== 'running') continue;
      if (!matchesLabels(c.details.labels, filter.labels)) continue;
      out.push({
        dockerId: c.details.dockerId,
        name: c.details.name,
        labels: { ...c.details.labels },
        state: c.details.state,
        publishedPorts: c.details.state === 'running' ? c.details.ports.map((p) => p.hostPort) : [],
      });
    }
    return out;
  }

  async writableLayerSizes(labels: string[]): Promise<Map<string, number>> {
    this.up();
    const out = new Map<string, number>();
    for (const c of this.containers.values()) {
      if (c.details.state === 'running' && matchesLabels(c.details.labels, labels)) {
        out.set(c.details.dockerId, c.writableBytes);
      }
    }
    return out;
  }

  /** Sets what the container has written to its layer (writableLayerSizes reports it). */
  setWritableBytes(ref: string, bytes: number): void {
    this.require(ref, `measure ${ref}`).writableBytes = bytes;
  }

  async commitContainer(ref: string, repo: string, tag: string, _options?: CommitOptions): Promise<string> {
    this.up();
    const c = this.require(ref, `commit container ${ref}`);
    const d = c.details;
    const id = this.addImage({
      ref: `${repo}:${tag}`,
      config: { entrypoint: d.entrypoint, command: d.command, user: d.user, env: d.env },
      sizeBytes: c.image.sizeBytes + c.writableBytes,
      serves: c.image.serves,
    });
    const stored = this.findImage(id);
    if (stored) {
      stored.diffIds = [...c.image.diffIds, `sha256:${hexId()}`];
      stored.history = [
        {
          createdUnix: Math.floor(Date.now() / 1000),
          createdBy: d.command.join(' '),
          comment: '',
          sizeBytes: c.writableBytes,
        },
        ...c.image.history,
      ];
    }
    return id;
  }

  async imageDetails(ref: string): Promise<ImageDetails | undefined> {
    this.up();
    const image = this.findImage(ref);
    if (!image) return undefined;
    return {
      id: image.id,
      repoDigests: [...image.repoDigests],
      config: {
        Env: [...image.config.env],
        Cmd: [...image.config.command],
        Entrypoint: image.config.entrypoint.length > 0 ? [...image.config.entrypoint] : null,
        User: image.config.user,
        Labels: { ...image.labels },
      },
      architecture: 'amd64',
      os: 'linux',
      variant: '',
      diffIds: [...image.diffIds],
      sizeBytes: image.sizeBytes,
    };
  }

  async imageHistory(ref: string): Promise<ImageHistoryEntry[]> {
    this.up();
    const image = this.findImage(ref);
    if (!image) throw new AgentError('NOT_FOUND', `read the history of image ${ref}: No such image: ${ref}`);
    return image.history.map((h) => ({ ...h }));
  }

  async tagImage(source: string, repo: string, tag: string): Promise<void> {
    this.up();
    const image = this.findImage(source);
    if (!image) throw new AgentError('NOT_FOUND', `tag image ${source}: No such image: ${source}`);
    const ref = normaliseRef(`${repo}:${tag}`);
    this.images.get(ref)?.tags.delete(ref);
    image.tags.add(ref);
    this.images.set(ref, image);
  }

  /** Loads images whose layers the engine holds (an archive of configs, as a save writes them). */
  async loadImage(archive: Buffer): Promise<void> {
    this.up();
    const files = new Map(readTar(archive).map((e) => [e.name, e.data]));
    const manifest = JSON.parse(files.get('manifest.json')?.toString('utf8') ?? '[]') as Array<{
      Config: string;
      RepoTags?: string[];
    }>;
    const known = new Set([...this.images.values()].flatMap((i) => i.diffIds));
    for (const entry of manifest) {
      const raw = files.get(entry.Config);
      if (!raw) throw new AgentError('FAILED_PRECONDITION', `load image: no ${entry.Config} in the archive`);
      const config = JSON.parse(raw.toString('utf8')) as {
        config?: Record<string, unknown>;
        rootfs?: { diff_ids?: string[] };
        history?: Array<{ created?: string; created_by?: string; comment?: string; empty_layer?: boolean }>;
      };
      const diffIds = config.rootfs?.diff_ids ?? [];
      const missing = diffIds.filter((d) => !known.has(d));
      if (missing.length > 0) {
        throw new AgentError(
          'FAILED_PRECONDITION',
          `load image: layer ${missing[0]} is neither held nor in the archive`,
        );
      }
      const c = config.config ?? {};
      const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
      const like = [...this.images.values()].find((i) => i.diffIds.join() === diffIds.join());
      for (const tag of entry.RepoTags ?? []) {
        this.images.get(normaliseRef(tag))?.tags.delete(normaliseRef(tag));
        this.images.delete(normaliseRef(tag));
        this.addImage({
          ref: tag,
          config: {
            env: list(c.Env),
            command: list(c.Cmd),
            entrypoint: list(c.Entrypoint),
            user: String(c.User ?? ''),
          },
          sizeBytes: like?.sizeBytes ?? 0,
          serves: like?.serves ?? {},
        });
        const stored = this.findImage(tag);
        if (stored) {
          stored.id = `sha256:${createHash('sha256').update(raw).digest('hex')}`;
          stored.diffIds = [...diffIds];
          stored.labels = { ...((c.Labels as Record<string, string> | undefined) ?? {}) };
          stored.history = (config.history ?? [])
            .map((h) => ({
              createdUnix: Math.floor(Date.parse(h.created ?? '') / 1000) || 0,
              createdBy: h.created_by ?? '',
              comment: h.comment ?? '',
              sizeBytes: h.empty_layer
                ? 0
                : (like?.history.find((x) => x.createdBy === h.created_by)?.sizeBytes ?? 0),
            }))
            .reverse();
        }
      }
    }
  }

  /** Pushes into the in-memory registry (a pull of `ref` then finds it); the digest is the image's id. */
  async pushImage(
    ref: string,
    _auth: RegistryCredentials | undefined,
    onProgress: (progress: PushProgress) => void,
    signal?: AbortSignal,
  ): Promise<{ digest: string }> {
    this.up();
    const image = this.findImage(ref);
    if (!image)
      throw new AgentError(
        'FAILED_PRECONDITION',
        `push image ${ref}: An image does not exist locally with the tag: ${ref}`,
      );
    if (signal?.aborted) throw new AgentError('CANCELLED', `push image ${ref}: cancelled`);
    onProgress({
      id: 'layer',
      status: 'Pushing',
      current: Math.floor(image.sizeBytes / 2),
      total: image.sizeBytes,
    });
    onProgress({ id: 'layer', status: 'Pushed', current: image.sizeBytes, total: image.sizeBytes });
    const digest = image.id;
    const repo = ref.slice(
      0,
      ref.lastIndexOf(':') > ref.lastIndexOf('/') ? ref.lastIndexOf(':') : ref.length,
    );
    const offered: MemoryImage = {
      ref,
      config: image.config,
      sizeBytes: image.sizeBytes,
      serves: image.serves,
    };
    this.registry.set(normaliseRef(ref), offered);
    this.registry.set(`${repo}@${digest}`, { ...offered, ref: `${repo}@${digest}` });
    image.repoDigests.push(`${repo}@${digest}`);
    return { digest };
  }

  /** The engine keeps no files: every path is absent. */
  async getArchive(ref: string, _path: string): Promise<Buffer | undefined> {
    this.up();
    this.require(ref, `read an archive of ${ref}`);
    return undefined;
  }

  /** The engine keeps no files: what is written is dropped. */
  async putArchive(ref: string, _dir: string, _tar: Buffer): Promise<void> {
    this.up();
    this.require(ref, `write an archive into ${ref}`);
  }

  /** A running container of the image (its execs answer through the exec handler). */
  async startSandbox(definition: SandboxDefinition): Promise<string> {
    const id = await this.createContainer({
      name: `sandbox-${hexId().slice(0, 12)}`,
      image: definition.image,
      env: [],
      labels: { ...definition.labels },
      command: definition.command,
      entrypoint: definition.entrypoint,
      ports: [],
      binds: definition.binds,
      nvidiaDeviceIds: [],
      resources: { memoryBytes: definition.memoryBytes, nanoCpus: 0, pidsLimit: 64, shmSizeBytes: 0 },
      logLimits: { maxSize: '1m', maxFiles: 1 },
      networkMode: 'none',
    });
    await this.startContainer(id);
    return id;
  }

  // ------------------------------------------------------------------ processes and output

  async exec(ref: string, command: string[], stdin?: string): Promise<ExecResult> {
    this.up();
    const c = this.require(ref, `exec in container ${ref}`);
    if (c.details.state !== 'running') {
      throw new AgentError(
        'FAILED_PRECONDITION',
        `exec in container ${ref}: container ${c.details.dockerId} is not running`,
      );
    }
    const call: MemoryExecCall = { ref, dockerId: c.details.dockerId, command: [...command], stdin };
    this.execs.push(call);
    return this.options.exec ? this.options.exec(call) : { exitCode: 0, stdout: '', stderr: '' };
  }

  /** A shell that echoes what it is sent; `exit` ends it with code 0, a hang-up with 129. */
  async openInteractiveExec(
    ref: string,
    _command: string[],
    _size: { cols: number; rows: number },
  ): Promise<InteractiveExec> {
    this.up();
    const c = this.require(ref, `open a shell in container ${ref}`);
    if (c.details.state !== 'running') {
      throw new AgentError(
        'FAILED_PRECONDITION',
        `open a shell in container ${ref}: container is not running`,
      );
    }
    const listeners: ((data: Buffer) => void)[] = [];
    let finish: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((resolve) => {
      finish = resolve;
    });
    let ended = false;
    this.open.consoles += 1;
    const end = (code: number) => {
      if (ended) return;
      ended = true;
      this.open.consoles -= 1;
      finish(code);
    };
    return {
      write: (data) => {
        if (ended) return;
        if (data.toString().trim() === 'exit') return end(0);
        for (const l of listeners) l(Buffer.from(data));
      },
      resize: async () => undefined,
      onData: (listener) => {
        listeners.push(listener);
      },
      exitCode,
      hangUp: () => end(129),
      close: () => {
        listeners.length = 0;
        end(129);
      },
    };
  }

  /** Adds a line to the container's output (what its process printed). */
  appendLog(ref: string, stream: 'stdout' | 'stderr', text: string): void {
    const c = this.require(ref, `write to ${ref}`);
    const nowMs = Date.now();
    // Nanoseconds that grow strictly within one millisecond, as Docker's do.
    const last = c.logs.at(-1)?.timeNs ?? 0n;
    const timeNs = nsOf(nowMs) > last ? nsOf(nowMs) : last + 1n;
    const seconds = timeNs / 1_000_000_000n;
    const fraction = (timeNs % 1_000_000_000n).toString().padStart(9, '0');
    const timestamp = `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
    const message: LogMessage = { stream, timestamp, timeNs, data: Buffer.from(`${text}\n`) };
    c.logs.push(message);
    for (const follow of [...c.followers]) follow(message);
  }

  async streamLogs(
    ref: string,
    options: LogOptions,
    onMessage: (message: LogMessage) => void,
  ): Promise<StreamHandle> {
    this.up();
    const c = this.require(ref, `read logs of ${ref}`);
    const from = sinceNs(options.since);
    let backlog = c.logs.filter((m) => m.timeNs >= from);
    if (options.tail !== 'all') backlog = options.tail > 0 ? backlog.slice(-options.tail) : [];
    this.open.logs += 1;
    let closed = false;
    let paused = false;
    /** Messages held while the reader has paused (backpressure); an end waits behind them. */
    const held: (LogMessage | undefined)[] = [];
    let settle: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const deliver = (message: LogMessage | undefined) => {
      if (closed) return;
      if (paused) held.push(message);
      else if (message) onMessage(message);
      else finish(); // the container stopped: Docker ends a followed stream
    };
    const finish = () => {
      if (closed) return;
      closed = true;
      c.followers.delete(deliver);
      this.open.logs -= 1;
      settle();
    };
    // Delivered after the caller holds the handle, as a stream's data events are.
    queueMicrotask(() => {
      for (const m of backlog) deliver(m);
      if (options.follow && c.details.state === 'running') c.followers.add(deliver);
      else deliver(undefined);
    });
    return {
      done,
      close: finish,
      pause: () => {
        paused = true;
      },
      resume: () => {
        paused = false;
        while (held.length > 0 && !paused && !closed) deliver(held.shift());
      },
    };
  }

  async streamEvents(labelFilters: string[], onEvent: (event: EngineEvent) => void): Promise<StreamHandle> {
    this.up();
    const listener = { filters: [...labelFilters], onEvent };
    this.eventListeners.add(listener);
    this.open.events += 1;
    let settle: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      settle = resolve;
    });
    let closed = false;
    return {
      done,
      close: () => {
        if (closed) return;
        closed = true;
        this.eventListeners.delete(listener);
        this.open.events -= 1;
        settle();
      },
    };
  }

  openStreams(): OpenDockerStreams {
    return { ...this.open };
  }

  /** Ends every listener and stream (the engine goes away). */
  close(): void {
    for (const c of this.containers.values()) {
      for (const s of c.listeners) s.close();
      c.listeners = [];
      for (const follow of [...c.followers]) follow(undefined);
    }
  }

  // ------------------------------------------------------------------ tenant networks

  async listNetworks(): Promise<TenantNetworkSummary[]> {
    this.up();
    return [...this.networks.values()].map((n) => structuredClone(n));
  }

  async inspectNetwork(name: string): Promise<TenantNetworkSummary | undefined> {
    this.up();
    const n = this.networks.get(name);
    return n && structuredClone(n);
  }

  async createNetwork(spec: TenantNetworkSpec): Promise<void> {
    this.up();
    if (this.networks.has(spec.name)) {
      throw new AgentError(
        'FAILED_PRECONDITION',
        `create network ${spec.name}: network with name ${spec.name} already exists`,
      );
    }
    this.networks.set(spec.name, {
      name: spec.name,
      bridge: spec.bridge,
      subnets: [spec.subnet],
      labels: { ...spec.labels },
    });
  }

  async removeNetwork(name: string): Promise<boolean> {
    this.up();
    if (!this.networks.has(name)) return false;
    if ((await this.containersOnNetwork(name)).length > 0) {
      throw new AgentError(
        'FAILED_PRECONDITION',
        `remove network ${name}: error while removing network: network ${name} has active endpoints`,
      );
    }
    this.networks.delete(name);
    return true;
  }

  async containersOnNetwork(name: string): Promise<string[]> {
    this.up();
    return [...this.containers.values()].filter((c) => c.network === name).map((c) => c.details.dockerId);
  }

  /** How many containers the engine holds in each state (benches). */
  counts(): Record<ContainerStateName, number> {
    const out = {} as Record<ContainerStateName, number>;
    for (const c of this.containers.values()) out[c.details.state] = (out[c.details.state] ?? 0) + 1;
    return out;
  }
}
