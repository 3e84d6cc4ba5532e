// Builds the agent's object graph and serves it over gRPC. The only place where the pieces
// meet; nothing is created at import time.
import fs from 'node:fs/promises';
import path from 'node:path';
import { agentServiceDefinition, type NodeAgentHandlers } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { type AgentConfig, type AgentOptions, resolveConfig } from './config.js';
import { ContainerService } from './containers/container-service.js';
import { Semaphore } from './containers/gpu-starts.js';
import { recoverRecreates } from './containers/reconfigure.js';
import { RECREATES_DIR, RecreateJournal } from './containers/recreate-journal.js';
import { probeWithAnyImage, StorageLimit, WritableLayers } from './containers/resource-share.js';
import { StagedAccess } from './containers/staged-access.js';
import { resolveToolbox } from './containers/toolbox.js';
import type { ContainerClient, OpenDockerStreams } from './docker/container-client.js';
import { DockerodeContainerClient } from './docker/dockerode-container-client.js';
import { dockerConnection } from './docker/dockerode-support.js';
import { LABELS, MANAGED_FILTER } from './docker/labels.js';
import { CertificateExpiry } from './fleet/certificates.js';
import { fleetHandlers } from './fleet/handlers.js';
import { serverTls } from './fleet/tls-server.js';
import { createGpuProbe } from './gpu/create-probe.js';
import type { GpuProbe } from './gpu/gpu-probe.js';
import { ToolkitProbe } from './gpu/toolkit.js';
import { chooseBindAddress } from './host/bind-address.js';
import { GpuRuntime } from './host/gpu-runtime.js';
import { HostFacts, type StaticHostFacts } from './host/host-facts.js';
import { collectHostInfo } from './host/host-info.js';
import { ImageDisk, isLocalEngine } from './host/image-disk.js';
import { ImageInventoryReader } from './images/image-inventory.js';
import { ImageSaver } from './images/image-saver.js';
import { AgentMetrics } from './metrics/agent-metrics.js';
import { serveMetrics } from './metrics/metrics-server.js';
import { AgentReadings } from './metrics/readings.js';
import { type IptablesRunner, TenantFirewall } from './network/firewall.js';
import { parseSubnetPool } from './network/subnet-pool.js';
import { type NetworkEngine, TenantNetworks } from './network/tenant-networks.js';
import { ephemeralOverlapWarning, ephemeralPortRange } from './ports/ephemeral-range.js';
import { OccupiedPorts } from './ports/occupied-ports.js';
import { Reconciler } from './reconcile/reconciler.js';
import type { RpcDeps } from './rpc/rpc-support.js';
import { streamHandlers } from './rpc/stream-handlers.js';
import { unaryHandlers } from './rpc/unary-handlers.js';
import { VolumeStore } from './volumes/volume-store.js';

export interface RunningAgent {
  /** The port the gRPC server listens on (the real one when `listen` asked for port 0). */
  port: number;
  /** host:port to dial, e.g. 127.0.0.1:41234. */
  address: string;
  config: AgentConfig;
  /** Streams open right now: streaming gRPC calls being served, and the Docker streams behind them. */
  openStreams(): { calls: number; docker: OpenDockerStreams };
  /** Stops the server (in-flight calls get `graceMs` to finish) and every timer. */
  /** The address containers' ports are published on, and why (`--bind-address auto` chooses it). */
  publishedOn: { address: string; reason: string };
  /** Where --metrics-listen serves GET /metrics (its port bound); undefined when it is off. */
  metricsUrl: string | undefined;
  close(graceMs?: number): Promise<void>;
}

export interface AgentRuntime {
  log?: (line: string) => void;
  /** Replaces the GPU probe (tests of real-GPU code paths). */
  gpuProbe?: GpuProbe;
  /** Replaces the NVIDIA Container Toolkit probe (tests of real-GPU code paths). */
  toolkitProbe?: ToolkitProbe;
  /** Replaces iptables (tests of a host where the isolation rules cannot be set). */
  iptables?: IptablesRunner;
  /**
   * Replaces Docker (`dockerHost` is then unused): a MemoryContainerClient runs many agents in
   * one process for benches and tests (a simulated fleet).
   */
  containerClient?: AgentEngine;
  /** Replaces the host probe (OS, CPU, memory): fixed facts, for many agents on one host. */
  hostFacts?: StaticHostFacts;
  /** How often platform TLS files are reread (--tls-mode platform; tests of renewal shorten it). */
  tlsRefreshMs?: number;
  /**
   * After UpgradeAgent installed a new version: stop and exit so the supervisor starts it
   * (default: SIGTERM to this process, answered by main.ts's graceful shutdown and exit 0).
   */
  restartAfterUpgrade?: () => void;
  /**
   * Where the host's sockets are read (`<procRoot>/net/tcp`, tcp6; default /proc): agents
   * sharing one host each get a host of their own.
   */
  procRoot?: string;
}

/** What the agent needs of a container engine: containers, tenant networks, the storage probe. */
export type AgentEngine = ContainerClient &
  NetworkEngine & { supportsStorageSize(image: string, size: string): Promise<string> };

function bind(server: grpc.Server, listen: string, credentials: grpc.ServerCredentials): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(listen, credentials, (err, port) => (err ? reject(err) : resolve(port)));
  });
}

function dialAddress(listen: string, port: number): string {
  const host = listen.slice(0, listen.lastIndexOf(':'));
  const dialHost = host === '0.0.0.0' || host === '[::]' || host === '' ? '127.0.0.1' : host;
  return `${dialHost}:${port}`;
}

export async function startAgent(options: AgentOptions, runtime: AgentRuntime = {}): Promise<RunningAgent> {
  const config = resolveConfig(options);
  const log = runtime.log ?? ((line: string) => console.log(`[gpucloud-agent] ${line}`));
  // Prometheus metrics only where --metrics-listen asks for them (nothing is timed otherwise).
  const metrics = config.metricsListen ? new AgentMetrics({ nodeName: config.nodeName }) : undefined;

  const client: AgentEngine =
    runtime.containerClient ??
    new DockerodeContainerClient({
      ...(config.dockerHost ? { dockerHost: config.dockerHost } : {}),
      timeoutMs: config.dockerTimeoutMs,
      pullTimeoutMs: config.pullTimeoutMs,
      log,
      ...(metrics ? { observe: metrics.dockerCalls } : {}),
    });
  const gpus =
    runtime.gpuProbe ??
    createGpuProbe({
      simulate: config.simulateGpus,
      nodeName: config.nodeName,
      stateDir: config.stateDir,
      log,
    });
  metrics?.readFrom(
    new AgentReadings({ client, gpus, nodeName: config.nodeName, maxAgeMs: config.metricsIntervalMs, log }),
    gpus.simulated,
  );
  // Simulated GPUs get no DeviceRequests: no toolkit to check, no device path to choose.
  const gpuRuntime = new GpuRuntime({
    client,
    toolkit: gpus.simulated
      ? undefined
      : (runtime.toolkitProbe ?? new ToolkitProbe({ minVersion: config.minToolkitVersion })),
  });
  // The volume store asks the container service whether a volume is mounted; the service needs the store.
  let containers: ContainerService | undefined;
  const volumes = new VolumeStore(config.volumeRoot, (ownerId, name) =>
    containers ? containers.containerUsingVolume(ownerId, name) : Promise.resolve(undefined),
  );
  await volumes.init();
  const overlap = ephemeralOverlapWarning(config.portRange, await ephemeralPortRange());
  if (overlap) log(overlap);
  const occupiedPorts = new OccupiedPorts(client, runtime.procRoot);
  // An engine in memory has no socket for containers to be kept from.
  const engineSocket = runtime.containerClient
    ? undefined
    : dockerConnection(config.dockerHost).options.socketPath;
  // Each owner's containers on a network of their own, kept from the host and other tenants by
  // the agent's iptables rules. Without them (no iptables, not root) the node takes no containers
  // and reports why (HostInfo.unsafe_reason), unless isolation is turned off for development.
  const networks =
    config.tenantIsolation === 'iptables'
      ? new TenantNetworks({
          engine: client,
          firewall: new TenantFirewall({ log, ...(runtime.iptables ? { run: runtime.iptables } : {}) }),
          nodeName: config.nodeName,
          pool: parseSubnetPool(config.tenantSubnetPool),
          idleMs: config.tenantNetworkIdleMs,
          log,
        })
      : undefined;
  await networks?.init(); // logs why, where the rules cannot be set
  const storage = new StorageLimit(
    config.containerLayerSize,
    (image, size) => client.supportsStorageSize(image, size),
    log,
  );
  await probeWithAnyImage(client, storage);
  const layers = new WritableLayers({
    client,
    storage,
    labels: [MANAGED_FILTER, `${LABELS.node}=${config.nodeName}`],
    intervalMs: config.layerMeasureIntervalMs,
    log,
  });
  layers.start();
  const published =
    config.bindAddress === 'auto'
      ? await chooseBindAddress(config.publicHost)
      : { address: config.bindAddress, reason: 'set by --bind-address', warning: '' };
  // Root-only: the staged access holds password hashes until a start is over.
  const stagedRoot = path.join(config.stateDir, 'access');
  await fs.mkdir(stagedRoot, { recursive: true, mode: 0o700 });
  containers = new ContainerService({
    client,
    volumes,
    gpus,
    gpuRuntime,
    gpuStarts: new Semaphore(config.gpuStartConcurrency),
    occupiedPorts: () => occupiedPorts.list(),
    staged: new StagedAccess(stagedRoot),
    recreates: new RecreateJournal(path.join(config.stateDir, RECREATES_DIR)),
    settings: {
      bindAddress: published.address,
      nodeName: config.nodeName,
      portRange: config.portRange,
      simulatedGpus: gpus.simulated,
      defaultStopTimeoutSeconds: 10,
      logLimits: config.logLimits,
      toolboxPath: resolveToolbox(config.toolboxDir),
      readyTimeoutMs: config.readyTimeoutMs,
    },
    ...(engineSocket ? { extraSocketPaths: [engineSocket] } : {}),
    ...(networks ? { networks } : {}),
    storage,
    layers,
    log,
  });
  const service = containers;
  const reconciler = new Reconciler(() => service.list(true, ''), config.reconcileIntervalMs, log);
  // Recreates the agent died in are undone before any call can see the container missing.
  await recoverRecreates(service);
  const facts = new HostFacts(config.volumeRoot, runtime.hostFacts);
  const imageDisk = new ImageDisk(() => client.dataRoot(), isLocalEngine(config.dockerHost));
  const certificateExpiry = new CertificateExpiry(config.tls?.certFile);

  const deps: RpcDeps = {
    token: config.token,
    containers: service,
    volumes,
    occupiedPorts,
    images: new ImageInventoryReader(client, service.puller, log),
    saver: new ImageSaver({ containers: service, toolboxPath: service.deps.settings.toolboxPath, log }),
    hostInfo: () =>
      collectHostInfo({
        facts,
        client,
        gpus,
        runtime: gpuRuntime,
        portRange: config.portRange,
        publicHost: config.publicHost,
        imageDisk: () => imageDisk.space(),
        certificateExpiresUnixMs: () => certificateExpiry.read(),
        isolationProblem: () => (networks ? networks.firewall.problem : ''),
        warnings: () => [
          ...(networks
            ? []
            : [
                '租户网络隔离已关闭, 用户容器可互相访问并访问主机 (--tenant-isolation off: containers of different users, and the host, can reach each other; for development only)',
              ]),
          ...(storage.warning ? [storage.warning] : []),
          ...(published.warning ? [published.warning] : []),
        ],
      }),
    watch: { client, gpus, reconciler, log },
    defaultHeartbeatIntervalMs: config.heartbeatIntervalMs,
    log,
    openStreams: new Set(),
    ...(runtime.restartAfterUpgrade ? { restartAfterUpgrade: runtime.restartAfterUpgrade } : {}),
  };
  const handlers: NodeAgentHandlers = {
    ...unaryHandlers(deps),
    ...streamHandlers(deps),
    ...fleetHandlers(deps, config),
  };

  const server = new grpc.Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024 });
  server.addService(agentServiceDefinition(), handlers);
  const tls = serverTls(config.tls, runtime.tlsRefreshMs);
  const port = await bind(server, config.listen, tls.credentials);
  await tls.ready.catch((err: unknown) => {
    server.forceShutdown();
    throw err;
  });
  const metricsServer =
    metrics && config.metricsListen
      ? await serveMetrics({ listen: config.metricsListen, token: config.metricsToken, metrics, log }).catch(
          (err: unknown) => {
            server.forceShutdown();
            throw err;
          },
        )
      : undefined;
  if (metricsServer) {
    log(`metrics on ${metricsServer.url}${config.metricsToken ? ' (bearer token required)' : ''}`);
  }

  let closed: Promise<void> | undefined;
  return {
    port,
    address: dialAddress(config.listen, port),
    config,
    publishedOn: published,
    metricsUrl: metricsServer?.url,
    openStreams: () => ({ calls: deps.openStreams.size, docker: client.openStreams() }),
    close: (graceMs = 2000) => {
      closed ??= new Promise<void>((resolve) => {
        reconciler.stop();
        networks?.close();
        layers.stop();
        // The kernel-message (Xid) watcher of a real probe; an injected probe may have none.
        gpus.close?.();
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
        // Long-lived streams (WatchEvents, logs, consoles) never finish by themselves: end them.
        for (const closeStream of [...deps.openStreams]) closeStream();
      }).then(() => metricsServer?.close());
      return closed;
    },
  };
}
