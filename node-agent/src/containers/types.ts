// The container use cases in the agent's terms (the rpc layer converts from and to proto).
import type { LogLimits } from '../config.js';
import type {
  ContainerStateName,
  PortMapping,
  RegistryCredentials,
  ResourceLimits,
  VolumeMount,
} from '../docker/container-client.js';

export interface ContainerSpecInput {
  containerId: string;
  ownerId: string;
  ownerName: string;
  displayName: string;
  image: string;
  /** GPU UUIDs allocated by the control plane (indices are still accepted); empty = no GPU. */
  gpuDeviceIds: string[];
  /** hostIp '' = the agent's bind address. */
  ports: PortMapping[];
  mounts: VolumeMount[];
  /** 0 = the agent's default (pids, shm) or no limit (memory, cpu). */
  resources: ResourceLimits;
  env: Record<string, string>;
  labels: Record<string, string>;
  command: string[];
  /** NVIDIA driver capabilities beyond compute,utility (video, graphics, display, compat32). */
  extraDriverCapabilities?: string[];
}

export interface CreateContainerInput {
  spec: ContainerSpecInput;
  rootPassword: string;
  authorizedKeys: string[];
  start: boolean;
  registryAuth?: RegistryCredentials;
}

export interface StartContainerInput {
  containerId: string;
  authorizedKeys: string[];
  rootPassword: string;
}

export interface ReconfigureInput {
  containerId: string;
  ports?: PortMapping[];
  mounts?: VolumeMount[];
  gpuDeviceIds?: string[];
  restartIfRunning: boolean;
  authorizedKeys: string[];
}

export interface ManagedContainer {
  containerId: string;
  dockerId: string;
  ownerId: string;
  displayName: string;
  image: string;
  state: ContainerStateName;
  statusText: string;
  exitCode: number;
  createdAtMs: number;
  startedAtMs: number;
  finishedAtMs: number;
  gpuDeviceIds: string[];
  ports: PortMapping[];
  mounts: VolumeMount[];
  labels: Record<string, string>;
  /** Set when the container exists but its start (or the setup after it) failed. */
  startError: string;
  resources: ResourceLimits;
  /** Running and its SSH server (and Jupyter, where it runs) answers. */
  reachable: boolean;
  /** Jupyter as the health check saw it: running, starting, absent, image; '' = not exposed/unknown. */
  jupyter: string;
  /** Bytes in its writable layer where the node cannot limit it (measured now and then); 0 = not measured. */
  writableLayerBytes: number;
  /** The node's writable-layer allowance per container (--container-layer-size) in bytes; 0 = none. */
  writableLayerAllowanceBytes: number;
}

export interface ContainerServiceSettings {
  bindAddress: string;
  nodeName: string;
  portRange: { start: number; end: number };
  /** Simulated GPUs: no DeviceRequests, the allocation goes into NVIDIA_VISIBLE_DEVICES only. */
  simulatedGpus: boolean;
  /** Seconds Docker waits between SIGTERM and SIGKILL when the request says 0. */
  defaultStopTimeoutSeconds: number;
  logLimits: LogLimits;
  /** The toolbox folder mounted read-only at /.gpucloud in every container. */
  toolboxPath: string;
  /** How long a create or start waits for the SSH server to answer. */
  readyTimeoutMs: number;
}
