// ContainerClient on dockerode: the one module that talks to the Docker engine. Every call
// carries a deadline (an AbortSignal), so a hung engine fails the RPC instead of hanging it;
// 304 (already stopped) and 404 (already gone) are idempotent outcomes, not errors.
import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import Docker from 'dockerode';
import { TOOLBOX_SH } from '../containers/toolbox.js';
import { AgentError } from '../errors.js';
import type { TenantNetworkSpec, TenantNetworkSummary } from '../network/tenant-networks.js';
import type {
  CommitOptions,
  ContainerClient,
  ContainerDefinition,
  ContainerDetails,
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
import { buildCreateOptions } from './create-options.js';
import { dockerMessage, dockerStatus } from './docker-errors.js';
import { type DockerCallObserver, timedDocker } from './docker-timing.js';
import {
  asRecord,
  collector,
  dockerConnection,
  openWithDeadline,
  streamDone,
  withDeadline,
} from './dockerode-support.js';
import { detailsFromInspect, engineInfoFromDocker, stringList, summaryFromList } from './inspect-mapping.js';
import { consoleCommand, interactiveExec, newPidFile } from './interactive-exec.js';
import { jsonLineSplitter } from './json-lines.js';
import { logFrameSplitter, splitTimestamp } from './log-frames.js';
import { usageFromDocker } from './usage-mapping.js';

/** Deadline of creating or removing a network (Docker sets up the bridge and its rules). */
const NETWORK_TIMEOUT_MS = 30_000;

/** A network as listed or inspected, the parts tenant networks read. */
function networkSummary(value: unknown): TenantNetworkSummary {
  const network = asRecord(value);
  const ipam = asRecord(network.IPAM);
  const config = Array.isArray(ipam.Config) ? ipam.Config : [];
  const options = asRecord(network.Options);
  const labels = asRecord(network.Labels);
  return {
    name: typeof network.Name === 'string' ? network.Name : '',
    bridge:
      typeof options['com.docker.network.bridge.name'] === 'string'
        ? options['com.docker.network.bridge.name']
        : '',
    subnets: config.map((c) => asRecord(c).Subnet).filter((s): s is string => typeof s === 'string'),
    labels: Object.fromEntries(
      Object.entries(labels).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ),
  };
}

export interface DockerodeClientOptions {
  /** unix:///path, a socket path, tcp://host:port, http(s)://host:port; undefined = /var/run/docker.sock. */
  dockerHost?: string;
  timeoutMs: number;
  pullTimeoutMs: number;
  /** Where best-effort clean-ups report their failures. */
  log?: (line: string) => void;
  /** Told of every Docker call (the metrics' latency by operation, docker-timing.ts). */
  observe?: DockerCallObserver;
}

export class DockerodeContainerClient implements ContainerClient {
  private readonly docker: Docker;
  private readonly label: string;
  private readonly open: OpenDockerStreams = { logs: 0, events: 0, consoles: 0 };

  constructor(private readonly options: DockerodeClientOptions) {
    const { options: dockerOptions, label } = dockerConnection(options.dockerHost);
    const docker = new Docker(dockerOptions);
    this.docker = options.observe ? timedDocker(docker, options.observe) : docker;
    this.label = label;
  }

  /** Runs one Docker call under a deadline and maps its failure. */
  private call<T>(
    what: string,
    fn: (signal: AbortSignal) => Promise<T>,
    timeoutMs = this.options.timeoutMs,
  ): Promise<T> {
    return withDeadline(what, this.label, timeoutMs, fn);
  }

  /** Opens a long-lived stream: the deadline covers the opening only; `close()` aborts it later. */
  private openStream(what: string, open: (signal: AbortSignal) => Promise<NodeJS.ReadableStream>) {
    return openWithDeadline(what, this.label, this.options.timeoutMs, open);
  }

  version(): Promise<EngineVersion> {
    return this.call('docker version', async (abortSignal) => {
      // dockerode's version() honours abortSignal; its type definition does not list it.
      const version = this.docker.version as (opts: {
        abortSignal: AbortSignal;
      }) => Promise<Docker.DockerVersion>;
      const v = await version.call(this.docker, { abortSignal });
      return { version: v.Version, apiVersion: v.ApiVersion };
    });
  }

  listImages(): Promise<ImageSummary[]> {
    return this.call('list images', async (abortSignal) => {
      const list = await this.docker.listImages({ abortSignal });
      return list.map((image) => ({
        tags: (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>'),
        imageId: image.Id,
        sizeBytes: image.Size,
        createdUnix: image.Created,
      }));
    });
  }

  dataRoot(): Promise<string> {
    return this.engineInfo().then((info) => info.dataRoot);
  }

  engineInfo(): Promise<EngineInfo> {
    return this.call('docker info', async (abortSignal) => {
      // Like version(), info() honours abortSignal though its type definition does not list it.
      const info: unknown = await (
        this.docker.info as (opts: { abortSignal: AbortSignal }) => Promise<unknown>
      ).call(this.docker, { abortSignal });
      return engineInfoFromDocker(info);
    });
  }

  imageExists(ref: string): Promise<boolean> {
    // Image inspect takes no abortSignal in dockerode; the deadline race in call() still bounds it.
    return this.call(`inspect image ${ref}`, async () => {
      try {
        await this.docker.getImage(ref).inspect();
        return true;
      } catch (err) {
        if (dockerStatus(err) === 404) return false;
        throw err;
      }
    });
  }

  inspectImage(ref: string): Promise<ImageConfig | undefined> {
    return this.call(`inspect image ${ref}`, async () => {
      try {
        const config = (await this.docker.getImage(ref).inspect()).Config;
        return {
          entrypoint: stringList(config.Entrypoint),
          command: stringList(config.Cmd),
          user: config.User ?? '',
          env: config.Env ?? [],
        };
      } catch (err) {
        if (dockerStatus(err) === 404) return undefined;
        throw err;
      }
    });
  }

  pullImage(
    ref: string,
    auth: RegistryCredentials | undefined,
    onProgress: (progress: PullProgress) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const what = `pull image ${ref}`;
    return this.call(
      what,
      async (deadline) => {
        const abortSignal = signal ? AbortSignal.any([deadline, signal]) : deadline;
        const authconfig = auth?.username
          ? { username: auth.username, password: auth.password, serveraddress: auth.serverAddress }
          : undefined;
        const stream = await this.docker.pull(ref, { abortSignal, ...(authconfig ? { authconfig } : {}) });
        let failure: string | undefined;
        stream.on(
          'data',
          jsonLineSplitter((value) => {
            const line = asRecord(value);
            if (typeof line.error === 'string') {
              failure = line.error;
              return;
            }
            const detail = asRecord(line.progressDetail);
            onProgress({
              id: typeof line.id === 'string' ? line.id : '',
              status: typeof line.status === 'string' ? line.status : '',
              current: Number(detail.current) || 0,
              total: Number(detail.total) || 0,
            });
          }),
        );
        await streamDone(stream, () => abortSignal.aborted);
        if (signal?.aborted) throw new AgentError('CANCELLED', `${what}: cancelled`);
        if (failure) throw new AgentError('FAILED_PRECONDITION', `${what}: ${failure}`);
      },
      this.options.pullTimeoutMs,
    );
  }

  removeImage(ref: string): Promise<boolean> {
    return this.call(`remove image ${ref}`, async (abortSignal) => {
      try {
        await this.docker.getImage(ref).remove({ abortSignal });
        return true;
      } catch (err) {
        if (dockerStatus(err) === 404) return false;
        throw err;
      }
    });
  }

  createContainer(definition: ContainerDefinition): Promise<string> {
    return this.call(`create container ${definition.name}`, async (abortSignal) => {
      const container = await this.docker.createContainer({ ...buildCreateOptions(definition), abortSignal });
      return container.id;
    });
  }

  /**
   * Whether Docker limits the writable layer (`StorageOpt size`): overlay2 only over xfs with
   * pquota, devicemapper, btrfs, zfs. Creates (and removes) a container of `image` that never runs.
   */
  supportsStorageSize(image: string, size: string): Promise<string> {
    return this.call('probe the storage size limit', async (abortSignal) => {
      try {
        const probe = await this.docker.createContainer({
          Image: image,
          Entrypoint: ['/nonexistent'],
          Labels: { 'gpucloud.probe': 'storage-size' },
          HostConfig: { StorageOpt: { size }, NetworkMode: 'none' },
          abortSignal,
        });
        await probe.remove({ force: true, abortSignal }).catch(() => undefined);
        return '';
      } catch (err) {
        if (dockerStatus(err) === 404) throw err; // no such image: nothing learnt
        return dockerMessage(err);
      }
    });
  }

  startContainer(ref: string): Promise<void> {
    return this.call(`start container ${ref}`, async (abortSignal) => {
      try {
        await this.docker.getContainer(ref).start({ abortSignal });
      } catch (err) {
        if (dockerStatus(err) !== 304) throw err; // 304: already running
      }
    });
  }

  stopContainer(ref: string, timeoutSeconds: number): Promise<boolean> {
    // Docker waits `t` seconds before SIGKILL; the deadline has to cover that wait.
    const deadline = this.options.timeoutMs + timeoutSeconds * 1000;
    return this.call(
      `stop container ${ref}`,
      async (abortSignal) => {
        try {
          await this.docker.getContainer(ref).stop({ t: timeoutSeconds, abortSignal });
          return true;
        } catch (err) {
          if (dockerStatus(err) === 304) return false;
          throw err;
        }
      },
      deadline,
    );
  }

  removeContainer(ref: string, force: boolean): Promise<boolean> {
    return this.call(`remove container ${ref}`, async (abortSignal) => {
      try {
        await this.docker.getContainer(ref).remove({ force, v: false, abortSignal });
        return true;
      } catch (err) {
        if (dockerStatus(err) === 404) return false;
        // 409 "removal already in progress" also ends with the container gone.
        if (dockerStatus(err) === 409 && /already in progress/i.test(dockerMessage(err))) return true;
        throw err;
      }
    });
  }

  renameContainer(ref: string, newName: string): Promise<void> {
    return this.call(`rename container ${ref} to ${newName}`, async (abortSignal) => {
      await this.docker.getContainer(ref).rename({ name: newName, abortSignal });
    });
  }

  inspectContainer(ref: string): Promise<ContainerDetails | undefined> {
    return this.call(`inspect container ${ref}`, async (abortSignal) => {
      try {
        return detailsFromInspect(await this.docker.getContainer(ref).inspect({ abortSignal }));
      } catch (err) {
        if (dockerStatus(err) === 404) return undefined;
        throw err;
      }
    });
  }

  containerUsage(ref: string): Promise<ContainerUsage | undefined> {
    return this.call(`read the usage of container ${ref}`, async (abortSignal) => {
      const container = this.docker.getContainer(ref);
      try {
        const inspect = await container.inspect({ abortSignal });
        // one-shot: the numbers now, without waiting a second for a previous sample (API 1.41).
        const stats: unknown = inspect.State.Running
          ? // The stats call honours abortSignal; its type definition does not list it.
            await container.stats({ stream: false, 'one-shot': true, abortSignal } as {
              stream: false;
              'one-shot': boolean;
            })
          : {};
        return usageFromDocker(stats, inspect);
      } catch (err) {
        if (dockerStatus(err) === 404) return undefined;
        throw err;
      }
    });
  }

  listContainers(filter: { all: boolean; labels: string[] }): Promise<ContainerSummary[]> {
    return this.call('list containers', async (abortSignal) => {
      const list = await this.docker.listContainers({
        all: filter.all,
        ...(filter.labels.length > 0 ? { filters: { label: filter.labels } } : {}),
        abortSignal,
      });
      return list.map(summaryFromList);
    });
  }

  writableLayerSizes(labels: string[]): Promise<Map<string, number>> {
    return this.call('measure writable layers', async (abortSignal) => {
      const list = await this.docker.listContainers({
        size: true,
        ...(labels.length > 0 ? { filters: { label: labels } } : {}),
        abortSignal,
      });
      // SizeRw is in Docker's answer with size=true; dockerode's ContainerInfo type lacks it.
      return new Map(list.map((c) => [c.Id, (c as { SizeRw?: number }).SizeRw ?? 0]));
    });
  }

  listNetworks(): Promise<TenantNetworkSummary[]> {
    return this.call('list networks', async (abortSignal) => {
      const list: unknown[] = await this.docker.listNetworks({ abortSignal });
      return list.map(networkSummary);
    });
  }

  inspectNetwork(name: string): Promise<TenantNetworkSummary | undefined> {
    // Network inspect takes no abortSignal in dockerode's types; the deadline race in call() bounds it.
    return this.call(`inspect network ${name}`, async () => {
      try {
        return networkSummary(await this.docker.getNetwork(name).inspect());
      } catch (err) {
        if (dockerStatus(err) === 404) return undefined;
        throw err;
      }
    });
  }

  createNetwork(spec: TenantNetworkSpec): Promise<void> {
    // Docker programs the bridge and its iptables rules meanwhile: slower than most calls.
    return this.call(
      `create network ${spec.name}`,
      async (abortSignal) => {
        await this.docker.createNetwork({
          Name: spec.name,
          Driver: 'bridge',
          CheckDuplicate: true,
          Labels: spec.labels,
          IPAM: { Driver: 'default', Config: [{ Subnet: spec.subnet, Gateway: spec.gateway }] },
          Options: {
            'com.docker.network.bridge.name': spec.bridge,
            // A user's own containers talk to each other; the firewall keeps everyone else out.
            'com.docker.network.bridge.enable_icc': 'true',
            'com.docker.network.bridge.enable_ip_masquerade': 'true',
          },
          abortSignal,
        });
      },
      Math.max(this.options.timeoutMs, NETWORK_TIMEOUT_MS),
    );
  }

  removeNetwork(name: string): Promise<boolean> {
    return this.call(
      `remove network ${name}`,
      async (abortSignal) => {
        try {
          await this.docker.getNetwork(name).remove({ abortSignal });
          return true;
        } catch (err) {
          if (dockerStatus(err) === 404) return false;
          throw err;
        }
      },
      Math.max(this.options.timeoutMs, NETWORK_TIMEOUT_MS),
    );
  }

  containersOnNetwork(name: string): Promise<string[]> {
    return this.call(`list containers on network ${name}`, async (abortSignal) => {
      const list = await this.docker.listContainers({ all: true, filters: { network: [name] }, abortSignal });
      return list.map((c) => c.Id);
    });
  }

  commitContainer(ref: string, repo: string, tag: string, options: CommitOptions = {}): Promise<string> {
    // Committing a big writable layer takes a while; give it the pull deadline.
    return this.call(
      `commit container ${ref}`,
      async (abortSignal) => {
        const result: unknown = await this.docker.getContainer(ref).commit({
          repo,
          tag,
          pause: options.pause ?? true,
          // Docker joins the instructions with newlines itself; one query value is enough.
          ...(options.changes && options.changes.length > 0 ? { changes: options.changes.join('\n') } : {}),
          ...(options.comment ? { comment: options.comment } : {}),
          abortSignal,
        });
        const id = asRecord(result).Id;
        return typeof id === 'string' ? id : `${repo}:${tag}`;
      },
      this.options.pullTimeoutMs,
    );
  }

  imageDetails(ref: string): Promise<ImageDetails | undefined> {
    return this.call(`inspect image ${ref}`, async () => {
      try {
        const image = asRecord(await this.docker.getImage(ref).inspect());
        const rootFs = asRecord(image.RootFS);
        return {
          id: String(image.Id ?? ''),
          repoDigests: stringList(image.RepoDigests),
          config: asRecord(image.Config),
          architecture: String(image.Architecture ?? ''),
          os: String(image.Os ?? ''),
          variant: typeof image.Variant === 'string' ? image.Variant : '',
          diffIds: stringList(rootFs.Layers),
          sizeBytes: Number(image.Size) || 0,
        };
      } catch (err) {
        if (dockerStatus(err) === 404) return undefined;
        throw err;
      }
    });
  }

  imageHistory(ref: string): Promise<ImageHistoryEntry[]> {
    return this.call(`read the history of image ${ref}`, async () => {
      const list: unknown = await this.docker.getImage(ref).history();
      return (Array.isArray(list) ? list : []).map((entry) => {
        const e = asRecord(entry);
        return {
          createdUnix: Number(e.Created) || 0,
          createdBy: typeof e.CreatedBy === 'string' ? e.CreatedBy : '',
          comment: typeof e.Comment === 'string' ? e.Comment : '',
          sizeBytes: Number(e.Size) || 0,
        };
      });
    });
  }

  tagImage(source: string, repo: string, tag: string): Promise<void> {
    return this.call(`tag image ${source} as ${repo}:${tag}`, async (abortSignal) => {
      await this.docker.getImage(source).tag({ repo, tag, abortSignal });
    });
  }

  loadImage(archive: Buffer): Promise<void> {
    return this.call(
      'load image',
      async (abortSignal) => {
        const stream = await this.docker.loadImage(Readable.from([archive]), { quiet: true, abortSignal });
        let failure: string | undefined;
        stream.on(
          'data',
          jsonLineSplitter((value) => {
            const line = asRecord(value);
            if (typeof line.error === 'string') failure = line.error;
          }),
        );
        await streamDone(stream, () => abortSignal.aborted);
        if (failure) throw new AgentError('FAILED_PRECONDITION', `load image: ${failure}`);
      },
      this.options.pullTimeoutMs,
    );
  }

  pushImage(
    ref: string,
    auth: RegistryCredentials | undefined,
    onProgress: (progress: PushProgress) => void,
    signal?: AbortSignal,
  ): Promise<{ digest: string }> {
    const what = `push image ${ref}`;
    const slash = ref.lastIndexOf('/');
    const colon = ref.lastIndexOf(':');
    const [name, tag] = colon > slash ? [ref.slice(0, colon), ref.slice(colon + 1)] : [ref, 'latest'];
    return this.call(
      what,
      async (deadline) => {
        const abortSignal = signal ? AbortSignal.any([deadline, signal]) : deadline;
        // Docker wants an auth header for every push, even to an open registry.
        const authconfig = {
          username: auth?.username ?? '',
          password: auth?.password ?? '',
          serveraddress: auth?.serverAddress || name.slice(0, name.indexOf('/')),
        };
        const stream = await this.docker.getImage(name).push({ tag, authconfig, abortSignal });
        let failure: string | undefined;
        let digest = '';
        stream.on(
          'data',
          jsonLineSplitter((value) => {
            const line = asRecord(value);
            if (typeof line.error === 'string') {
              failure = line.error;
              return;
            }
            const aux = asRecord(line.aux);
            if (typeof aux.Digest === 'string') digest = aux.Digest;
            const detail = asRecord(line.progressDetail);
            onProgress({
              id: typeof line.id === 'string' ? line.id : '',
              status: typeof line.status === 'string' ? line.status : '',
              current: Number(detail.current) || 0,
              total: Number(detail.total) || 0,
            });
          }),
        );
        await streamDone(stream, () => abortSignal.aborted);
        if (signal?.aborted) throw new AgentError('CANCELLED', `${what}: cancelled`);
        if (failure) throw new AgentError('FAILED_PRECONDITION', `${what}: ${failure}`);
        if (!digest) throw new AgentError('INTERNAL', `${what}: the registry reported no digest`);
        return { digest };
      },
      this.options.pullTimeoutMs,
    );
  }

  getArchive(ref: string, path: string): Promise<Buffer | undefined> {
    return this.call(`read ${path} of container ${ref}`, async (abortSignal) => {
      try {
        const stream = await this.docker.getContainer(ref).getArchive({ path, abortSignal });
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        await streamDone(stream, () => abortSignal.aborted);
        return Buffer.concat(chunks);
      } catch (err) {
        if (dockerStatus(err) === 404) return undefined;
        throw err;
      }
    });
  }

  putArchive(ref: string, dir: string, tar: Buffer): Promise<void> {
    return this.call(`write into ${dir} of container ${ref}`, async (abortSignal) => {
      await this.docker.getContainer(ref).putArchive(tar, { path: dir, abortSignal });
    });
  }

  startSandbox(definition: SandboxDefinition): Promise<string> {
    return this.call(`start a sandbox of ${definition.image}`, async (abortSignal) => {
      const container = await this.docker.createContainer({
        Image: definition.image,
        Entrypoint: definition.entrypoint,
        Cmd: definition.command,
        Labels: definition.labels,
        // Where the toolkit's runtime is Docker's default, an image's NVIDIA_VISIBLE_DEVICES=all
        // would bring every GPU in: the sandbox names none.
        Env: ['NVIDIA_VISIBLE_DEVICES=void'],
        User: '0',
        Tty: false,
        HostConfig: {
          NetworkMode: 'none',
          ReadonlyRootfs: true,
          Memory: definition.memoryBytes,
          MemorySwap: definition.memoryBytes,
          NanoCpus: 1_000_000_000,
          PidsLimit: 64,
          CapDrop: ['ALL'],
          SecurityOpt: ['no-new-privileges:true'],
          Tmpfs: { '/tmp': 'rw,nosuid,nodev,size=64m' },
          Mounts: definition.binds.map((bind) => ({
            Type: 'bind' as const,
            Source: bind.source,
            Target: bind.target,
            ReadOnly: bind.readOnly,
          })),
          LogConfig: { Type: 'none', Config: {} },
        },
        abortSignal,
      });
      try {
        await container.start({ abortSignal });
      } catch (err) {
        await container.remove({ force: true }).catch(() => undefined);
        throw err;
      }
      return container.id;
    });
  }

  exec(ref: string, command: string[], stdin?: string): Promise<ExecResult> {
    return this.call(`exec in container ${ref}`, async (abortSignal) => {
      const withStdin = stdin !== undefined;
      const exec = await this.docker.getContainer(ref).exec({
        Cmd: command,
        AttachStdin: withStdin,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
        abortSignal,
      });
      const stream = await exec.start({ hijack: true, stdin: withStdin, abortSignal });
      abortSignal.addEventListener('abort', () => stream.destroy(), { once: true });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      this.docker.modem.demuxStream(stream, collector(stdout), collector(stderr));
      const done = streamDone(stream, () => abortSignal.aborted);
      // Half-close after the input: the process sees EOF on stdin, output still flows back.
      if (withStdin) stream.end(stdin);
      await done;
      const exitCode = await this.execExitCode(exec, abortSignal);
      return { exitCode, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() };
    });
  }

  /** The exec's exit code; Docker may report it a moment after the stream closed. */
  private async execExitCode(exec: Docker.Exec, abortSignal: AbortSignal): Promise<number> {
    // Usually at once; polled briefly, since every access change of a start waits on it.
    for (let attempt = 0; attempt < 250; attempt++) {
      const info = await exec.inspect({ abortSignal });
      if (!info.Running && info.ExitCode !== null) return info.ExitCode;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new AgentError('DEADLINE_EXCEEDED', 'the exec did not report an exit code');
  }

  async openInteractiveExec(
    ref: string,
    command: string[],
    size: { cols: number; rows: number },
  ): Promise<InteractiveExec> {
    const pidFile = newPidFile();
    const session = await this.call(`open a shell in container ${ref}`, async (abortSignal) => {
      const created = await this.docker.getContainer(ref).exec({
        Cmd: consoleCommand(pidFile, command),
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        Tty: true,
        Env: ['TERM=xterm-256color'],
        abortSignal,
      });
      // No abortSignal on start: the session outlives the deadline of opening it. A shell that
      // Docker starts only after the deadline has nobody watching: hang it up, do not leak it.
      const duplex: Duplex = await created.start({ hijack: true, stdin: true, Tty: true });
      const session = this.consoleSession(ref, created, duplex, pidFile);
      if (abortSignal.aborted) session.close();
      return session;
    });
    if (size.cols > 0 && size.rows > 0) {
      await session.resize(size.cols, size.rows).catch(() => undefined); // a shell that exited at once has no tty
    }
    return session;
  }

  private consoleSession(ref: string, exec: Docker.Exec, stream: Duplex, pidFile: string): InteractiveExec {
    this.countOpen('consoles', stream);
    return interactiveExec({
      stream,
      resize: (cols, rows) =>
        this.call(`resize the shell in ${ref}`, async (abortSignal) => {
          await exec.resize({ h: rows, w: cols, abortSignal });
        }),
      readExitCode: () =>
        this.call(`inspect the shell in ${ref}`, (abortSignal) => this.execExitCode(exec, abortSignal)),
      runScript: async (script) => {
        await this.exec(ref, [TOOLBOX_SH, '-c', script, pidFile]);
      },
      ...(this.options.log ? { log: this.options.log } : {}),
    });
  }

  async streamLogs(
    ref: string,
    options: LogOptions,
    onMessage: (message: LogMessage) => void,
  ): Promise<StreamHandle> {
    const details = await this.inspectContainer(ref);
    if (!details) throw new AgentError('NOT_FOUND', `container ${ref} does not exist`);
    const { stream, controller } = await this.openStream(`read logs of ${ref}`, async (abortSignal) => {
      const base = {
        stdout: true,
        stderr: true,
        // Docker's default is every line.
        ...(options.tail === 'all' ? {} : { tail: options.tail }),
        // Timestamps let the reader drop what Docker sends twice; a TTY stream has no frames to
        // tell where a timestamp starts, so it comes without.
        timestamps: !details.tty,
        ...(options.since ? { since: options.since } : {}),
        abortSignal,
      };
      const container = this.docker.getContainer(ref);
      if (options.follow) return container.logs({ ...base, follow: true });
      // Without follow Docker answers with one buffer; stream it the same way.
      return Readable.from([await container.logs({ ...base, follow: false })]);
    });
    this.countOpen('logs', stream);
    let closing = false;
    if (details.tty) {
      stream.on('data', (chunk: Buffer) =>
        onMessage({ stream: 'stdout', timestamp: '', timeNs: 0n, data: chunk }),
      );
    } else {
      stream.on(
        'data',
        logFrameSplitter((frame) => onMessage({ stream: frame.stream, ...splitTimestamp(frame.payload) })),
      );
    }
    return {
      done: streamDone(stream, () => closing),
      close: () => {
        closing = true;
        controller.abort();
        if (stream instanceof Readable) stream.destroy();
      },
      pause: () => stream.pause(),
      resume: () => stream.resume(),
    };
  }

  openStreams(): OpenDockerStreams {
    return { ...this.open };
  }

  /** Counts a Docker stream as open until it has closed. */
  private countOpen(kind: keyof OpenDockerStreams, stream: NodeJS.ReadableStream): void {
    this.open[kind] += 1;
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      this.open[kind] -= 1;
    };
    stream.on('close', release);
    stream.on('error', release);
  }

  async streamEvents(labelFilters: string[], onEvent: (event: EngineEvent) => void): Promise<StreamHandle> {
    const { stream, controller } = await this.openStream('subscribe to Docker events', (abortSignal) =>
      this.docker.getEvents({ filters: { type: ['container'], label: labelFilters }, abortSignal }),
    );
    this.countOpen('events', stream);
    let closing = false;
    stream.on(
      'data',
      jsonLineSplitter((value) => {
        const event = asRecord(value);
        const actor = asRecord(event.Actor);
        const attributes = Object.fromEntries(
          Object.entries(asRecord(actor.Attributes)).filter(
            (e): e is [string, string] => typeof e[1] === 'string',
          ),
        );
        const timeNano = Number(event.timeNano);
        onEvent({
          dockerId: typeof actor.ID === 'string' ? actor.ID : String(event.id ?? ''),
          action: String(event.Action ?? event.status ?? ''),
          labels: attributes,
          exitCode: Number(attributes.exitCode ?? 0) || 0,
          timeUnixMs: timeNano ? Math.floor(timeNano / 1e6) : Number(event.time ?? 0) * 1000,
        });
      }),
    );
    return {
      done: streamDone(stream, () => closing),
      close: () => {
        closing = true;
        controller.abort();
        if (stream instanceof Readable) stream.destroy();
      },
    };
  }
}
