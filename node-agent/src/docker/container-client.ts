// The agent's view of a container engine, in the agent's own terms. The dockerode
// implementation is the only code that knows Docker's API (Nomad keeps its driver apart from
// its RPC adapter the same way).

export type ContainerStateName =
  | 'created'
  | 'running'
  | 'paused'
  | 'restarting'
  | 'exited'
  | 'dead'
  | 'removing'
  | 'not_found'
  | 'unknown';

export type PortProtocol = 'tcp' | 'udp';

export interface PortMapping {
  containerPort: number;
  hostPort: number;
  protocol: PortProtocol;
  /** Host address the port is bound to. */
  hostIp: string;
  /** Name from the framework's port map (ssh, jupyter, ...) or "custom". */
  name: string;
}

export interface VolumeMount {
  volumeName: string;
  target: string;
  readOnly: boolean;
}

export interface ResourceLimits {
  memoryBytes: number;
  nanoCpus: number;
  pidsLimit: number;
  shmSizeBytes: number;
}

/** A bind mount resolved to a host directory. */
export interface BindMount {
  source: string;
  target: string;
  readOnly: boolean;
}

/** Everything needed to create a container; hardening is added by the implementation. */
export interface ContainerDefinition {
  name: string;
  image: string;
  env: string[];
  labels: Record<string, string>;
  /** Empty = the image's CMD. */
  command: string[];
  /** Kept from a committed container on recreate; undefined = the image's. */
  entrypoint?: string[];
  workingDir?: string;
  user?: string;
  ports: PortMapping[];
  binds: BindMount[];
  /** Real NVIDIA GPUs (UUIDs) to request through DeviceRequests; empty = none. */
  nvidiaDeviceIds: string[];
  /**
   * How the GPUs are requested: 'cdi' (Driver "cdi", nvidia.com/gpu=<UUID>) or 'legacy'
   * (Driver "nvidia", the toolkit's runtime hook). Only read when there are GPUs.
   */
  gpuDevicePath?: GpuDevicePath;
  resources: ResourceLimits;
  /** Json-file rotation: files of at most `maxSize` (`10m`), `maxFiles` of them. */
  logLimits: { maxSize: string; maxFiles: number };
  /** Docker's HEALTHCHECK; undefined = the image's. */
  healthcheck?: Healthcheck;
  /** The network the container joins (its tenant's); undefined = Docker's default bridge. */
  networkMode?: string;
  /** Size limit of the writable layer (`100G`, StorageOpt size); undefined = none. */
  storageSize?: string;
}

export interface Healthcheck {
  test: string[];
  intervalMs: number;
  timeoutMs: number;
  retries: number;
  startPeriodMs: number;
  /** Interval during the start period (Docker 25+). */
  startIntervalMs: number;
}

/** The parts of an image's configuration a container inherits. */
export interface ImageConfig {
  entrypoint: string[];
  command: string[];
  user: string;
  env: string[];
}

/** A container as Docker reports it, with the parts the agent reads. */
export interface ContainerDetails {
  dockerId: string;
  name: string;
  image: string;
  labels: Record<string, string>;
  state: ContainerStateName;
  statusText: string;
  exitCode: number;
  createdAtMs: number;
  startedAtMs: number;
  finishedAtMs: number;
  tty: boolean;
  env: string[];
  command: string[];
  entrypoint: string[];
  workingDir: string;
  user: string;
  ports: PortMapping[];
  binds: BindMount[];
  nvidiaDeviceIds: string[];
  resources: ResourceLimits;
  /** Docker's health status ('' without a health check) and the last check's output. */
  health: { status: string; output: string };
  /** The log driver, its options and the json-file's path ('' for other drivers); absent when unknown. */
  log?: { driver: string; options: Record<string, string>; path: string };
}

/** What a container uses now (`docker stats` and `docker inspect`): the metrics' per-container series. */
export interface ContainerUsage {
  running: boolean;
  /** CPU time used since it started (user + system), seconds; 0 when not running. */
  cpuSeconds: number;
  /** Memory in use without the reclaimable page cache (what `docker stats` shows), bytes; 0 when not running. */
  memoryBytes: number;
  /** How many times Docker restarted it after it exited (its restart policy). */
  restartCount: number;
}

export interface ContainerSummary {
  dockerId: string;
  name: string;
  labels: Record<string, string>;
  state: ContainerStateName;
  /** Host ports Docker has published for this container right now. */
  publishedPorts: number[];
}

export interface RegistryCredentials {
  serverAddress: string;
  username: string;
  password: string;
}

export interface PullProgress {
  id: string;
  status: string;
  current: number;
  total: number;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export type OutputStream = 'stdout' | 'stderr';

/** A running stream the caller can stop; `done` settles when it ends (error on failure). */
export interface StreamHandle {
  done: Promise<void>;
  close(): void;
  /** Stops reading the source for a while (backpressure); not every stream can. */
  pause?(): void;
  resume?(): void;
}

export interface LogOptions {
  follow: boolean;
  /** Lines from the end; 'all' for everything. */
  tail: number | 'all';
  /** Docker's `since`: Unix seconds, optionally with nanoseconds (`1700000000.000000001`); '' = from the start. */
  since: string;
}

/** One log message: a line, or a piece of a long one (Docker splits lines at 16 KiB). */
export interface LogMessage {
  stream: OutputStream;
  /** Docker's RFC 3339 timestamp of the message; '' when the engine sent none (TTY containers). */
  timestamp: string;
  /** The timestamp in nanoseconds since the epoch; 0 without one. */
  timeNs: bigint;
  data: Buffer;
}

/** Docker streams the agent holds open right now, by kind (leak checks, diagnostics). */
export interface OpenDockerStreams {
  logs: number;
  events: number;
  consoles: number;
}

export interface EngineEvent {
  dockerId: string;
  action: string;
  labels: Record<string, string>;
  exitCode: number;
  timeUnixMs: number;
}

export interface InteractiveExec {
  write(data: Buffer): void;
  resize(cols: number, rows: number): Promise<void>;
  onData(listener: (data: Buffer) => void): void;
  /** Settles with the exit code once the process has ended. */
  exitCode: Promise<number>;
  /** Ends the process as a closed terminal would (SIGHUP); its exit code still arrives. */
  hangUp(): void;
  /** Hangs up and stops reading. */
  close(): void;
}

export interface ImageSummary {
  /** Every repo:tag of the image; none for a dangling one. */
  tags: string[];
  imageId: string;
  sizeBytes: number;
  createdUnix: number;
}

/** An image as the engine describes it (what a save reads of its base and of its commit). */
export interface ImageDetails {
  /** `sha256:…` */
  id: string;
  /** `repo@sha256:…` of every registry the image was pulled from or pushed to. */
  repoDigests: string[];
  /** Docker's image Config as inspect returns it (Env, Cmd, Entrypoint, Labels, User, ...). */
  config: Record<string, unknown>;
  architecture: string;
  os: string;
  variant: string;
  /** The layers' diff ids, oldest first. */
  diffIds: string[];
  /** Uncompressed size of all its layers. */
  sizeBytes: number;
}

/** One step of an image's history (`docker history`), newest first. */
export interface ImageHistoryEntry {
  createdUnix: number;
  createdBy: string;
  comment: string;
  sizeBytes: number;
}

export interface CommitOptions {
  /** Pause the container while its filesystem is read (default true; Docker's default). */
  pause?: boolean;
  /** Dockerfile instructions applied to the committed config (CMD, ENTRYPOINT, ENV, LABEL, ...). */
  changes?: string[];
  comment?: string;
}

/** A push's progress as Docker reports it, per layer (`id`: the layer's short id). */
export interface PushProgress {
  id: string;
  status: string;
  current: number;
  total: number;
}

/**
 * A short-lived container that reads an image: no network, no GPUs, a read-only root, little
 * memory, no capabilities; it runs `command` (kept alive for execs) until it is removed.
 */
export interface SandboxDefinition {
  image: string;
  entrypoint: string[];
  command: string[];
  binds: BindMount[];
  memoryBytes: number;
  labels: Record<string, string>;
}

/** How containers get GPUs: CDI devices, or the toolkit's legacy runtime hook. */
export type GpuDevicePath = 'cdi' | 'legacy';

/** A device a Docker device driver discovered (Docker >= 28.2 lists CDI devices). */
export interface DiscoveredDevice {
  source: string;
  /** `nvidia.com/gpu=GPU-…` for a CDI device. */
  id: string;
}

/** The parts of Docker's /info the agent reads. */
export interface EngineInfo {
  serverVersion: string;
  /** Docker's data root (where images and containers live). */
  dataRoot: string;
  /** undefined: the engine predates CDI (Docker < 25) and does not report the field. */
  cdiSpecDirs: string[] | undefined;
  /** undefined: the engine does not list devices (Docker < 28.2, or none discovered). */
  discoveredDevices: DiscoveredDevice[] | undefined;
  /** Names of the OCI runtimes registered with Docker (runc, nvidia, ...). */
  runtimes: string[];
}

export interface EngineVersion {
  version: string;
  apiVersion: string;
}

export interface ContainerClient {
  version(): Promise<EngineVersion>;
  imageExists(ref: string): Promise<boolean>;
  /** Undefined when there is no such image. */
  inspectImage(ref: string): Promise<ImageConfig | undefined>;
  pullImage(
    ref: string,
    auth: RegistryCredentials | undefined,
    onProgress: (progress: PullProgress) => void,
    signal?: AbortSignal,
  ): Promise<void>;
  /** False when there was no such image. */
  removeImage(ref: string): Promise<boolean>;
  /** The images the engine holds. */
  listImages(): Promise<ImageSummary[]>;
  /** Docker's data root (where images and containers live), as `docker info` says. */
  dataRoot(): Promise<string>;
  /** Docker's /info, the parts the agent reads. */
  engineInfo(): Promise<EngineInfo>;
  /** Returns Docker's id. */
  createContainer(definition: ContainerDefinition): Promise<string>;
  startContainer(ref: string): Promise<void>;
  /** False when the container was already stopped. */
  stopContainer(ref: string, timeoutSeconds: number): Promise<boolean>;
  /** False when there was nothing to remove. */
  removeContainer(ref: string, force: boolean): Promise<boolean>;
  renameContainer(ref: string, newName: string): Promise<void>;
  /** Undefined when there is no such container. */
  inspectContainer(ref: string): Promise<ContainerDetails | undefined>;
  listContainers(filter: { all: boolean; labels: string[] }): Promise<ContainerSummary[]>;
  /** Undefined when there is no such container. One stats read and one inspect: call it rarely. */
  containerUsage(ref: string): Promise<ContainerUsage | undefined>;
  /**
   * Docker id → bytes in the writable layer of the running containers with these labels
   * (`size=true`: Docker walks each layer, seconds on a big one; call it rarely).
   */
  writableLayerSizes(labels: string[]): Promise<Map<string, number>>;
  /** Commits the container's filesystem (mounts excluded, as Docker does); returns the image id. */
  commitContainer(ref: string, repo: string, tag: string, options?: CommitOptions): Promise<string>;
  /** Undefined when there is no such image. */
  imageDetails(ref: string): Promise<ImageDetails | undefined>;
  /** `docker history`, newest first. */
  imageHistory(ref: string): Promise<ImageHistoryEntry[]>;
  /** Gives the image `source` the name `repo:tag`. */
  tagImage(source: string, repo: string, tag: string): Promise<void>;
  /** `docker load` of an archive (docker save format); layers the engine holds may be left out of it. */
  loadImage(archive: Buffer): Promise<void>;
  /** Pushes `ref` (repo:tag) with these credentials; returns the pushed manifest's digest. */
  pushImage(
    ref: string,
    auth: RegistryCredentials | undefined,
    onProgress: (progress: PushProgress) => void,
    signal?: AbortSignal,
  ): Promise<{ digest: string }>;
  /** A tar of `path` in the container (running or not); undefined when there is no such path. */
  getArchive(ref: string, path: string): Promise<Buffer | undefined>;
  /** Extracts a tar into the folder `dir` of the container (running or not). */
  putArchive(ref: string, dir: string, tar: Buffer): Promise<void>;
  /** Creates and starts a sandbox container (see SandboxDefinition); returns Docker's id. */
  startSandbox(definition: SandboxDefinition): Promise<string>;
  /** Runs a command to completion, feeding `stdin` when given. */
  exec(ref: string, command: string[], stdin?: string): Promise<ExecResult>;
  openInteractiveExec(
    ref: string,
    command: string[],
    size: { cols: number; rows: number },
  ): Promise<InteractiveExec>;
  /** Messages in the order Docker sends them (with timestamps, except for a TTY container). */
  streamLogs(
    ref: string,
    options: LogOptions,
    onMessage: (message: LogMessage) => void,
  ): Promise<StreamHandle>;
  streamEvents(labelFilters: string[], onEvent: (event: EngineEvent) => void): Promise<StreamHandle>;
  openStreams(): OpenDockerStreams;
}
