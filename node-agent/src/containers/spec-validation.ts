// Checks a container request before anything touches Docker: a malformed request is refused
// with INVALID_ARGUMENT and leaves nothing behind.
import net from 'node:net';
import path from 'node:path';
import type { PortMapping, ResourceLimits, VolumeMount } from '../docker/container-client.js';
import { RESERVED_LABELS } from '../docker/labels.js';
import { invalidArgument } from '../errors.js';
import { checkOwnerId, checkVolumeName } from '../volumes/volume-store.js';
import type { ContainerServiceSettings, ContainerSpecInput } from './types.js';

export const CONTAINER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const IMAGE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$/;
const GPU_ID_PATTERN = /^[A-Za-z0-9:._-]{1,128}$/;
const ENV_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_.]{0,127}$/;
const LABEL_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const SSH_KEY_PATTERN =
  /^(ssh-(rsa|dss|ed25519)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/]+={0,3}( [^\r\n]*)?$/;

/** Env the agent sets itself: a user value here could hand a container every GPU of the host. */
export const RESERVED_ENV = new Set(['NVIDIA_VISIBLE_DEVICES', 'NVIDIA_DRIVER_CAPABILITIES']);

/**
 * Every NVIDIA_* variable steers the toolkit (NVIDIA_VISIBLE_DEVICES, NVIDIA_DRIVER_CAPABILITIES,
 * NVIDIA_MIG_CONFIG_DEVICES, NVIDIA_IMEX_CHANNELS, NVIDIA_GDRCOPY, NVIDIA_NVSWITCH, ...) and is the
 * agent's; only NVIDIA_REQUIRE_* (an image's own CUDA/driver requirement) is the image's.
 */
export function isReservedEnv(key: string): boolean {
  return RESERVED_ENV.has(key) || (key.startsWith('NVIDIA_') && !key.startsWith('NVIDIA_REQUIRE_'));
}

/** What every GPU container gets: CUDA and nvidia-smi. */
export const BASE_DRIVER_CAPABILITIES = ['compute', 'utility'] as const;
/** What a spec may add (NVIDIA_DRIVER_CAPABILITIES values; `all` is never given). */
export const EXTRA_DRIVER_CAPABILITIES = ['compute', 'utility', 'video', 'graphics', 'display', 'compat32'];

export function checkDriverCapabilities(extra: string[]): string[] {
  const out: string[] = [];
  for (const raw of extra) {
    const cap = raw.trim().toLowerCase();
    if (!EXTRA_DRIVER_CAPABILITIES.includes(cap)) {
      throw invalidArgument(
        `不支持的 NVIDIA 驱动能力 "${raw}" (driver capability not allowed; allowed: ${EXTRA_DRIVER_CAPABILITIES.join(', ')})`,
      );
    }
    if (!out.includes(cap)) out.push(cap);
  }
  return out;
}

/** NVIDIA_DRIVER_CAPABILITIES of a container: compute,utility and the spec's extras. */
export function driverCapabilities(extra: string[]): string[] {
  const caps: string[] = [...BASE_DRIVER_CAPABILITIES];
  for (const cap of extra) if (!caps.includes(cap)) caps.push(cap);
  return caps;
}
/** Mount targets that would hide the system or reach the kernel's interfaces. */
const FORBIDDEN_TARGETS = ['/', '/etc', '/bin', '/sbin', '/usr', '/lib', '/lib64', '/run', '/var'];
const FORBIDDEN_TREES = ['/proc', '/sys', '/dev'];

export const DEFAULT_PIDS_LIMIT = 4096;
const GIB = 1024 ** 3;
const MIN_MEMORY_BYTES = 6 * 1024 * 1024;

export function checkContainerId(containerId: string): string {
  if (!CONTAINER_ID_PATTERN.test(containerId)) {
    throw invalidArgument(
      `container id must be 1-100 letters, digits, '.', '_' or '-', got "${containerId}"`,
    );
  }
  return containerId;
}

function checkText(value: string, what: string, max = 128): string {
  if (value.length > max || CONTROL_CHARS.test(value))
    throw invalidArgument(`${what} is too long or has control characters`);
  return value;
}

export function checkPassword(password: string): string {
  if (password.length < 1 || password.length > 128 || CONTROL_CHARS.test(password)) {
    throw invalidArgument(
      'root 密码须为 1-128 个可见字符 (the root password must be 1-128 characters without control characters)',
    );
  }
  return password;
}

export function checkAuthorizedKeys(keys: string[]): string[] {
  const trimmed = keys.map((k) => k.trim()).filter(Boolean);
  for (const key of trimmed) {
    if (key.length > 16_384 || !SSH_KEY_PATTERN.test(key)) {
      throw invalidArgument(`SSH 公钥格式不正确 (not an OpenSSH public key: "${key.slice(0, 40)}...")`);
    }
  }
  return trimmed;
}

export function checkGpuIds(ids: string[]): string[] {
  for (const id of ids) if (!GPU_ID_PATTERN.test(id)) throw invalidArgument(`bad GPU id "${id}"`);
  if (new Set(ids).size !== ids.length) throw invalidArgument('a GPU is listed twice');
  return ids;
}

/** Name of a port binding the user chose (as opposed to a framework port). */
export const CUSTOM_PORT_NAME = 'custom';
export const CUSTOM_PORT_RANGE = { start: 10000, end: 65535 };

const isUnspecified = (ip: string) => ip === '' || ip === '0.0.0.0' || ip === '::';

export function checkPorts(ports: PortMapping[], settings: ContainerServiceSettings): PortMapping[] {
  const seen = new Set<string>();
  return ports.map((port) => {
    const { containerPort, hostPort, protocol } = port;
    if (!Number.isInteger(containerPort) || containerPort < 1 || containerPort > 65535) {
      throw invalidArgument(`container port ${containerPort} is not in 1-65535`);
    }
    // The control plane hands out framework ports (ssh, jupyter…) from the node's range; ports
    // the user asked for ("custom") may be anywhere in the spec's user range.
    const custom = port.name === CUSTOM_PORT_NAME;
    const { start, end } = custom ? CUSTOM_PORT_RANGE : settings.portRange;
    if (!Number.isInteger(hostPort) || hostPort < start || hostPort > end) {
      throw invalidArgument(
        custom
          ? `自定义端口 ${hostPort} 必须在 ${start}-${end} 之间 (custom host port outside ${start}-${end})`
          : `主机端口 ${hostPort} 不在节点端口范围 ${start}-${end} 内 (host port outside the node's range)`,
      );
    }
    // A node with a bind address of its own publishes there only: a request's 0.0.0.0 (or any
    // other address) would open the port on every interface, the private ones included.
    const hostIp = isUnspecified(settings.bindAddress)
      ? port.hostIp || settings.bindAddress
      : settings.bindAddress;
    if (!net.isIP(hostIp)) throw invalidArgument(`host address "${hostIp}" is not an IP address`);
    const key = `${hostPort}/${protocol}`;
    if (seen.has(key)) throw invalidArgument(`host port ${key} is listed twice`);
    seen.add(key);
    return { containerPort, hostPort, protocol, hostIp, name: checkText(port.name, 'port name', 64) };
  });
}

export function checkMountTarget(target: string): string {
  // A trailing slash is harmless; anything else normalize() would change ('..', '.', '//') is refused.
  const trimmed = target.length > 1 ? target.replace(/\/+$/, '') : target;
  const normalized = path.posix.normalize(trimmed);
  if (
    !target.startsWith('/') ||
    target.split('/').includes('..') ||
    normalized !== trimmed ||
    CONTROL_CHARS.test(target) ||
    target.length > 255
  ) {
    throw invalidArgument(`挂载路径不合法 (mount target must be a clean absolute path, got "${target}")`);
  }
  if (
    FORBIDDEN_TARGETS.includes(normalized) ||
    FORBIDDEN_TREES.some((f) => normalized === f || normalized.startsWith(`${f}/`))
  ) {
    throw invalidArgument(`不能挂载到 ${normalized} (mount target ${normalized} is reserved)`);
  }
  return normalized;
}

export function checkMounts(mounts: VolumeMount[]): VolumeMount[] {
  const targets = new Set<string>();
  return mounts.map((mount) => {
    const target = checkMountTarget(mount.target);
    if (targets.has(target)) throw invalidArgument(`two mounts target ${target}`);
    targets.add(target);
    return { volumeName: checkVolumeName(mount.volumeName), target, readOnly: mount.readOnly };
  });
}

/** Resource limits with the agent's defaults filled in. */
export function resolveResources(resources: ResourceLimits): ResourceLimits {
  const { memoryBytes, nanoCpus, pidsLimit, shmSizeBytes } = resources;
  for (const [name, value] of Object.entries(resources)) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw invalidArgument(`${name} must be a non-negative integer`);
  }
  if (memoryBytes > 0 && memoryBytes < MIN_MEMORY_BYTES)
    throw invalidArgument('memory limit must be at least 6 MiB');
  // PyTorch's DataLoader workers share tensors through /dev/shm; Docker's 64 MiB is far too small.
  const defaultShm = memoryBytes > 0 ? Math.min(8 * GIB, Math.floor(memoryBytes / 2)) : 8 * GIB;
  return {
    memoryBytes,
    nanoCpus,
    pidsLimit: pidsLimit > 0 ? pidsLimit : DEFAULT_PIDS_LIMIT,
    shmSizeBytes: shmSizeBytes > 0 ? shmSizeBytes : defaultShm,
  };
}

function checkEnv(env: Record<string, string>): Record<string, string> {
  for (const [key, value] of Object.entries(env)) {
    if (!ENV_KEY_PATTERN.test(key)) throw invalidArgument(`bad environment variable name "${key}"`);
    if (isReservedEnv(key)) {
      throw invalidArgument(
        `环境变量 ${key} 由平台设置, 不能自定义 (environment variable ${key} is set by the agent; of the NVIDIA_* variables only NVIDIA_REQUIRE_* may be given)`,
      );
    }
    if (value.includes('\0') || value.length > 32_768)
      throw invalidArgument(`environment variable ${key} is invalid`);
  }
  return env;
}

function checkLabels(labels: Record<string, string>): Record<string, string> {
  for (const [key, value] of Object.entries(labels)) {
    if (RESERVED_LABELS.has(key))
      throw invalidArgument(`label ${key} is set by the agent and cannot be overwritten`);
    if (!LABEL_KEY_PATTERN.test(key)) throw invalidArgument(`bad label name "${key}"`);
    checkText(value, `label ${key}`, 4096);
  }
  return labels;
}

/** The spec with every field checked and defaults applied. */
export function validateSpec(
  spec: ContainerSpecInput,
  settings: ContainerServiceSettings,
): ContainerSpecInput {
  if (!IMAGE_PATTERN.test(spec.image))
    throw invalidArgument(`镜像名称不合法 (bad image reference "${spec.image}")`);
  for (const arg of spec.command)
    if (arg.includes('\0')) throw invalidArgument('command has a NUL character');
  return {
    containerId: checkContainerId(spec.containerId),
    ownerId: checkOwnerId(spec.ownerId),
    ownerName: checkText(spec.ownerName, 'owner name'),
    displayName: checkText(spec.displayName, 'display name'),
    image: spec.image,
    gpuDeviceIds: checkGpuIds(spec.gpuDeviceIds),
    ports: checkPorts(spec.ports, settings),
    mounts: checkMounts(spec.mounts),
    resources: resolveResources(spec.resources),
    env: checkEnv(spec.env),
    labels: checkLabels(spec.labels),
    command: spec.command,
    extraDriverCapabilities: checkDriverCapabilities(spec.extraDriverCapabilities ?? []),
  };
}
