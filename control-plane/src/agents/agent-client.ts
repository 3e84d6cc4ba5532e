import {
  type AgentEvent__Output,
  AUTH_METADATA_KEY,
  type ConsoleInput,
  type ConsoleOutput__Output,
  type ContainerInfo__Output,
  type CreateContainerRequest,
  type DeleteVolumeProgress__Output,
  type HostInfo__Output,
  type ListImagesResponse__Output,
  type LogChunk__Output,
  loadAgentProto,
  type NodeAgentClient,
  type PullImageProgress__Output,
  type ReconfigureContainerRequest,
  type RegistryAuth,
  type SaveImageProgress__Output,
  type SaveImageRequest,
  type StartContainerRequest,
  type StreamLogsRequest,
  type UpgradeAgentChunk,
  type UpgradeAgentResponse__Output,
  type Volume__Output,
  type WatchEventsRequest,
} from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';

/** What went wrong in a call to an agent, with the gRPC status code kept for mapping. */
export class AgentCallError extends Error {
  constructor(
    readonly code: grpc.status,
    readonly details: string,
    readonly method: string,
  ) {
    super(`${method}: ${grpc.status[code]} ${details}`);
  }

  get unreachable(): boolean {
    return this.code === grpc.status.UNAVAILABLE || this.code === grpc.status.DEADLINE_EXCEEDED;
  }
}

export interface AgentEndpoint {
  address: string;
  token: string;
  /**
   * How the node is dialled: 'config' (or absent) with the global AGENT_TLS_* settings (plaintext
   * without them); 'platform' with mutual TLS from the platform CA, checking the agent's
   * certificate names node-<id>.gpucloud.internal (`id` is then required).
   */
  tls?: 'config' | 'platform' | undefined;
  id?: number | undefined;
}

/** The platform CA and this replica's client certificate (PEM), for 'platform' endpoints. */
export interface PlatformTls {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
  /** Grows with every new client certificate (the pool then makes new channels). */
  generation: number;
}

export interface AgentClientOptions {
  callTimeoutMs: number;
  /** TLS to 'config' agents; plaintext when absent. */
  tls?: AgentTls | undefined;
  /** What 'platform' agents are dialled with; undefined while the platform CA is not available. */
  platformTls?: (() => PlatformTls | undefined) | undefined;
}

/** The name in a platform node's certificate (see modules/fleet/pki.ts). */
export function platformServerName(nodeId: number): string {
  return `node-${nodeId}.gpucloud.internal`;
}

/** The credentials and channel options an endpoint is dialled with. */
function channelOf(
  endpoint: AgentEndpoint,
  options: AgentClientOptions,
): { credentials: grpc.ChannelCredentials; channelOptions: grpc.ChannelOptions } {
  if (endpoint.tls === 'platform') {
    if (endpoint.id === undefined) throw new Error('a platform node is dialled by its id');
    const platform = options.platformTls?.();
    return {
      // Without the platform CA the handshake fails (the system's roots do not trust the
      // agent): never plaintext, so the node token is not sent in the clear.
      credentials: platform
        ? grpc.credentials.createSsl(platform.ca, platform.key, platform.cert)
        : grpc.credentials.createSsl(),
      channelOptions: { 'grpc.ssl_target_name_override': platformServerName(endpoint.id) },
    };
  }
  const tls = options.tls;
  return {
    credentials: tls
      ? grpc.credentials.createSsl(tls.ca, tls.key ?? null, tls.cert ?? null)
      : grpc.credentials.createInsecure(),
    channelOptions: {},
  };
}

export interface AgentTls {
  /** CA (PEM) that signed the agents' certificates. */
  ca: Buffer;
  /** Client certificate and key (PEM) for agents that require mutual TLS. */
  cert?: Buffer | undefined;
  key?: Buffer | undefined;
}

type Unary<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (err: grpc.ServiceError | null, response?: Res) => void,
) => grpc.ClientUnaryCall;

/** A typed, promise-based client of one node agent. Every unary call has a deadline. */
export class AgentClient {
  private readonly client: NodeAgentClient;

  constructor(
    readonly endpoint: AgentEndpoint,
    private readonly options: AgentClientOptions,
  ) {
    const Ctor = loadAgentProto().gpucloud.agent.v1.NodeAgent;
    const { credentials, channelOptions } = channelOf(endpoint, options);
    this.client = new Ctor(endpoint.address, credentials, {
      'grpc.keepalive_time_ms': 30_000,
      'grpc.max_receive_message_length': 32 * 1024 * 1024,
      ...channelOptions,
    });
  }

  close(): void {
    this.client.close();
  }

  metadata(): grpc.Metadata {
    const md = new grpc.Metadata();
    md.set(AUTH_METADATA_KEY, `Bearer ${this.endpoint.token}`);
    return md;
  }

  private unary<Req, Res>(
    method: string,
    fn: Unary<Req, Res>,
    request: Req,
    timeoutMs?: number,
  ): Promise<Res> {
    return new Promise((resolve, reject) => {
      const deadline = new Date(Date.now() + (timeoutMs ?? this.options.callTimeoutMs));
      fn.call(this.client, request, this.metadata(), { deadline }, (err, response) => {
        if (err) reject(new AgentCallError(err.code, err.details, method));
        else if (response === undefined)
          reject(new AgentCallError(grpc.status.INTERNAL, 'empty response', method));
        else resolve(response);
      });
    });
  }

  getHostInfo(timeoutMs?: number): Promise<HostInfo__Output> {
    return this.unary(
      'GetHostInfo',
      this.client.GetHostInfo as Unary<object, HostInfo__Output>,
      {},
      timeoutMs,
    );
  }

  createContainer(request: CreateContainerRequest, timeoutMs = 15 * 60_000): Promise<ContainerInfo__Output> {
    return this.unary(
      'CreateContainer',
      this.client.CreateContainer as Unary<CreateContainerRequest, ContainerInfo__Output>,
      request,
      timeoutMs,
    );
  }

  startContainer(request: StartContainerRequest): Promise<ContainerInfo__Output> {
    return this.unary(
      'StartContainer',
      this.client.StartContainer as Unary<StartContainerRequest, ContainerInfo__Output>,
      request,
    );
  }

  stopContainer(containerId: string, timeoutSeconds = 10): Promise<ContainerInfo__Output> {
    return this.unary(
      'StopContainer',
      this.client.StopContainer as Unary<
        { containerId: string; timeoutSeconds: number },
        ContainerInfo__Output
      >,
      { containerId, timeoutSeconds },
    );
  }

  async removeContainer(containerId: string): Promise<boolean> {
    const res = await this.unary(
      'RemoveContainer',
      this.client.RemoveContainer as Unary<{ containerId: string; force: boolean }, { removed: boolean }>,
      { containerId, force: true },
    );
    return res.removed;
  }

  inspectContainer(containerId: string): Promise<ContainerInfo__Output> {
    return this.unary(
      'InspectContainer',
      this.client.InspectContainer as Unary<{ containerId: string }, ContainerInfo__Output>,
      { containerId },
    );
  }

  async listContainers(): Promise<ContainerInfo__Output[]> {
    const res = await this.unary(
      'ListContainers',
      this.client.ListContainers as Unary<{ all: boolean }, { containers: ContainerInfo__Output[] }>,
      { all: true },
    );
    return res.containers;
  }

  reconfigureContainer(request: ReconfigureContainerRequest): Promise<ContainerInfo__Output> {
    return this.unary(
      'ReconfigureContainer',
      this.client.ReconfigureContainer as Unary<ReconfigureContainerRequest, ContainerInfo__Output>,
      request,
      15 * 60_000,
    );
  }

  async resetPassword(containerId: string, password: string): Promise<string> {
    const res = await this.unary(
      'ResetPassword',
      this.client.ResetPassword as Unary<{ containerId: string; password: string }, { password: string }>,
      { containerId, password },
    );
    return res.password;
  }

  async listOccupiedPorts(): Promise<number[]> {
    const res = await this.unary(
      'ListOccupiedPorts',
      this.client.ListOccupiedPorts as Unary<object, { ports: number[] }>,
      {},
    );
    return res.ports;
  }

  createVolume(ownerId: string, name: string): Promise<Volume__Output> {
    return this.unary(
      'CreateVolume',
      this.client.CreateVolume as Unary<{ ownerId: string; name: string }, Volume__Output>,
      { ownerId, name },
    );
  }

  /** False when the node had no such volume. */
  async deleteVolume(ownerId: string, name: string, timeoutMs?: number): Promise<boolean> {
    const res = await this.unary(
      'DeleteVolume',
      this.client.DeleteVolume as Unary<{ ownerId: string; name: string }, { deleted: boolean }>,
      { ownerId, name },
      timeoutMs,
    );
    return res.deleted;
  }

  /**
   * Deletes a volume on the node, hearing its progress (`onProgress`: measuring, then deleting
   * with what is gone of the total); resolves once it is gone, false when there was none.
   * `signal` stops following it: the node's delete goes on, and a later call follows it again.
   */
  deleteVolumeWithProgress(
    ownerId: string,
    name: string,
    onProgress: (progress: DeleteVolumeProgress__Output) => void,
    signal?: AbortSignal,
    timeoutMs = 6 * 3600_000,
  ): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const call = this.client.DeleteVolumeWithProgress({ ownerId, name }, this.metadata(), {
        deadline: Date.now() + timeoutMs,
      });
      const cancel = () => call.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      let last: DeleteVolumeProgress__Output | undefined;
      call.on('data', (progress: DeleteVolumeProgress__Output) => {
        if (progress.done) last = progress;
        else onProgress(progress);
      });
      call.on('error', (err: grpc.ServiceError) => {
        signal?.removeEventListener('abort', cancel);
        reject(new AgentCallError(err.code, err.details || err.message, 'DeleteVolumeWithProgress'));
      });
      call.on('end', () => {
        signal?.removeEventListener('abort', cancel);
        if (last) resolve(last.deleted);
        else
          reject(
            new AgentCallError(
              grpc.status.UNAVAILABLE,
              'the delete stream ended before the volume was gone',
              'DeleteVolumeWithProgress',
            ),
          );
      });
    });
  }

  /** One owner's volumes on the node with their measured sizes. */
  async listVolumes(ownerId: string, timeoutMs?: number): Promise<Volume__Output[]> {
    const res = await this.unary(
      'ListVolumes',
      this.client.ListVolumes as Unary<{ ownerId: string }, { volumes: Volume__Output[] }>,
      { ownerId },
      timeoutMs,
    );
    return res.volumes;
  }

  /** Server stream of log chunks; cancel the returned call to stop it. */
  /**
   * Pulls an image on the node (joining a pull of the same image under way there); resolves once
   * it is present. `onProgress` gets Docker's per-layer messages.
   */
  listImages(): Promise<ListImagesResponse__Output> {
    return this.unary('ListImages', this.client.ListImages as Unary<object, ListImagesResponse__Output>, {});
  }

  pullImage(
    image: string,
    onProgress: (progress: PullImageProgress__Output) => void,
    timeoutMs = 30 * 60_000,
    auth?: RegistryAuth,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const call = this.client.PullImage({ image, ...(auth ? { auth } : {}) }, this.metadata(), {
        deadline: Date.now() + timeoutMs,
      });
      let done = false;
      call.on('data', (progress: PullImageProgress__Output) => {
        if (progress.done) done = true;
        onProgress(progress);
      });
      call.on('error', (err: grpc.ServiceError) =>
        reject(new AgentCallError(err.code, err.details || err.message, 'PullImage')),
      );
      call.on('end', () =>
        done
          ? resolve()
          : reject(
              new AgentCallError(
                grpc.status.UNKNOWN,
                'the pull ended before the image was present',
                'PullImage',
              ),
            ),
      );
    });
  }

  /**
   * 保存镜像 on the node: resolves with the last message (done, digest, size, contents) once the
   * image is pushed. `onProgress` gets every message; `signal` cancels the save (the node then
   * leaves the container as it was).
   */
  saveImage(
    request: SaveImageRequest,
    onProgress: (progress: SaveImageProgress__Output) => void,
    signal?: AbortSignal,
    timeoutMs = 60 * 60_000,
  ): Promise<SaveImageProgress__Output> {
    return new Promise((resolve, reject) => {
      const call = this.client.SaveImage(request, this.metadata(), { deadline: Date.now() + timeoutMs });
      const cancel = () => call.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      let last: SaveImageProgress__Output | undefined;
      call.on('data', (progress: SaveImageProgress__Output) => {
        if (progress.done) last = progress;
        onProgress(progress);
      });
      call.on('error', (err: grpc.ServiceError) => {
        signal?.removeEventListener('abort', cancel);
        reject(new AgentCallError(err.code, err.details || err.message, 'SaveImage'));
      });
      call.on('end', () => {
        signal?.removeEventListener('abort', cancel);
        if (last) resolve(last);
        else
          reject(
            new AgentCallError(
              grpc.status.UNKNOWN,
              'the save ended before the image was pushed',
              'SaveImage',
            ),
          );
      });
    });
  }

  /** Asks the agent for a CSR of a new key (kept by the agent until InstallCertificate). */
  async renewCertificate(): Promise<string> {
    const res = await this.unary(
      'RenewCertificate',
      this.client.RenewCertificate as Unary<object, { csrPem: string }>,
      {},
    );
    return res.csrPem;
  }

  /** Gives the agent its new certificate (for the key of its last RenewCertificate); when it expires. */
  async installCertificate(certificatePem: string, caCertificatePem: string): Promise<number> {
    const res = await this.unary(
      'InstallCertificate',
      this.client.InstallCertificate as Unary<
        { certificatePem: string; caCertificatePem: string },
        { expiresUnixMs: number | string }
      >,
      { certificatePem, caCertificatePem },
    );
    return Number(res.expiresUnixMs);
  }

  /** Removes an image reference from the node; false when it was not there. */
  async removeImage(image: string, timeoutMs?: number): Promise<boolean> {
    const res = await this.unary(
      'RemoveImage',
      this.client.RemoveImage as Unary<{ image: string }, { removed: boolean }>,
      { image },
      timeoutMs,
    );
    return res.removed;
  }

  streamLogs(request: StreamLogsRequest): grpc.ClientReadableStream<LogChunk__Output> {
    return this.client.StreamLogs(request, this.metadata());
  }

  watchEvents(request: WatchEventsRequest): grpc.ClientReadableStream<AgentEvent__Output> {
    return this.client.WatchEvents(request, this.metadata());
  }

  console(): grpc.ClientDuplexStream<ConsoleInput, ConsoleOutput__Output> {
    return this.client.Console(this.metadata());
  }

  /**
   * 升级 (issue 19, fleet/upgrade.ts): a client stream of UpgradeAgentChunk messages (header
   * first); `done` settles with the agent's answer. Write with backpressure (write() false: wait
   * for 'drain'), then end().
   */
  upgradeAgent(timeoutMs: number): {
    call: grpc.ClientWritableStream<UpgradeAgentChunk>;
    done: Promise<UpgradeAgentResponse__Output>;
  } {
    let call!: grpc.ClientWritableStream<UpgradeAgentChunk>;
    const done = new Promise<UpgradeAgentResponse__Output>((resolve, reject) => {
      call = this.client.UpgradeAgent(
        this.metadata(),
        { deadline: Date.now() + timeoutMs },
        (err: grpc.ServiceError | null, response?: UpgradeAgentResponse__Output) => {
          if (err) reject(new AgentCallError(err.code, err.details || err.message, 'UpgradeAgent'));
          else if (!response)
            reject(new AgentCallError(grpc.status.INTERNAL, 'empty response', 'UpgradeAgent'));
          else resolve(response);
        },
      );
    });
    return { call, done };
  }
}
