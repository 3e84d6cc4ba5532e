// Every setting of the agent, read once and typed. Sources, strongest first: command-line
// flags, environment variables, the JSON file named by --config, defaults.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MIN_TOOLKIT_VERSION } from './gpu/toolkit.js';
import { DEFAULT_TENANT_SUBNET_POOL, parseSubnetPool } from './network/subnet-pool.js';
import { defaultInstallDir } from './version.js';

export interface SimulatedGpus {
  count: number;
  /** As given (`RTX4090`); the probe maps known short names to NVIDIA's product names. */
  model: string;
}

export interface PortRange {
  start: number;
  end: number;
}

export interface TlsFiles {
  certFile: string;
  keyFile: string;
  /** When set, clients must present a certificate signed by this CA. */
  caFile?: string;
  /**
   * The platform's certificates (`--tls-mode platform`, written by `gpucloud-agent join`): the
   * files are watched and a renewed certificate is served to new connections without a restart;
   * client certificates are required and must chain to caFile.
   */
  watch?: boolean;
}

/** Docker's json-file limits of every container: at most `maxFiles` files of `maxSize` each. */
export interface LogLimits {
  /** Docker's size syntax: a number with k, m or g (`10m`). */
  maxSize: string;
  maxFiles: number;
}

export interface AgentConfig {
  /** host:port of the gRPC server; port 0 picks a free port. */
  listen: string;
  token: string;
  simulateGpus?: SimulatedGpus;
  /** unix:///path, tcp://host:port or a bare socket path; undefined = the local default socket. */
  dockerHost?: string;
  /** Host address published container ports bind to. */
  bindAddress: string;
  /** Address users reach published ports on (HostInfo.public_host). */
  publicHost: string;
  portRange: PortRange;
  volumeRoot: string;
  /** Folder of the container toolbox (node-agent/toolbox/build.mjs). */
  toolboxDir: string;
  /** The agent's own files (the access staged for a container's start). */
  stateDir: string;
  /** How long a create or start waits for a container's SSH server to answer. */
  readyTimeoutMs: number;
  tls?: TlsFiles;
  /** Written into the gpucloud.node label of every container. */
  nodeName: string;
  /** Deadline of an ordinary Docker call. */
  dockerTimeoutMs: number;
  /** Deadline of an image pull. */
  pullTimeoutMs: number;
  /** Default heartbeat interval of WatchEvents when the request leaves it 0. */
  heartbeatIntervalMs: number;
  /** How often the reconciler reports the labelled containers on WatchEvents streams. */
  reconcileIntervalMs: number;
  /** How often writable layers are measured where the storage driver cannot limit them. */
  layerMeasureIntervalMs: number;
  logLimits: LogLimits;
  /** The lowest NVIDIA Container Toolkit version GPU work may run on (every part is checked). */
  minToolkitVersion: string;
  /** How many GPU containers this node creates/starts at once (the toolkit times out under a burst). */
  gpuStartConcurrency: number;
  /** The IPv4 range the tenant networks' /24s come from (`10.128.0.0/12`). */
  tenantSubnetPool: string;
  /** 'iptables' (the agent's rules keep tenants apart) or 'off' (development only; a warning says so). */
  tenantIsolation: 'iptables' | 'off';
  /** How long (ms) a user's network without containers is kept before it is removed. */
  tenantNetworkIdleMs: number;
  /** Writable-layer size limit of a container (`100G`), where the storage driver enforces one; '' = none. */
  containerLayerSize: string;
  /** The control plane this node joined (`gpucloud-agent join`); informational. */
  controlPlaneUrl?: string;
  /** The install this agent runs from (`/opt/gpucloud/agent`: versions/, current); none from a checkout. */
  installDir?: string;
  /** host:port of the Prometheus endpoint (GET /metrics); none = no metrics served. */
  metricsListen?: string;
  /** Bearer token the metrics endpoint asks for; none = the address alone guards it. */
  metricsToken?: string;
  /** How long GPU and container figures are kept between scrapes (ms). */
  metricsIntervalMs: number;
}

/** What startAgent accepts: the token plus any setting to override (same names as AgentConfig). */
export interface AgentOptions {
  token: string;
  listen?: string;
  /** `8xRTX4090` or { count, model }. */
  simulateGpus?: string | SimulatedGpus;
  dockerHost?: string;
  bindAddress?: string;
  publicHost?: string;
  /** `20000-29999` or { start, end }. */
  portRange?: string | PortRange;
  volumeRoot?: string;
  toolboxDir?: string;
  stateDir?: string;
  readyTimeoutMs?: number;
  tls?: TlsFiles;
  nodeName?: string;
  dockerTimeoutMs?: number;
  pullTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  reconcileIntervalMs?: number;
  layerMeasureIntervalMs?: number;
  /** Json-file size per container log file (`10m`). */
  logMaxSize?: string;
  /** Json-file files kept per container (rotated ones included). */
  logMaxFiles?: number | string;
  minToolkitVersion?: string;
  gpuStartConcurrency?: number | string;
  tenantSubnetPool?: string;
  tenantIsolation?: string;
  /** Seconds (number or text) an unused tenant network is kept; 0 = removed with its last container. */
  tenantNetworkIdle?: number | string;
  containerLayerSize?: string;
  controlPlaneUrl?: string;
  installDir?: string;
  metricsListen?: string;
  metricsToken?: string;
  /** Seconds (number or text) GPU and container figures are kept between scrapes. */
  metricsInterval?: number | string;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const DEFAULTS = {
  listen: '0.0.0.0:50051',
  bindAddress: 'auto',
  portRange: '20000-29999',
  volumeRoot: '/var/lib/gpucloud/volumes',
  toolboxDir: '/var/lib/gpucloud/toolbox',
  stateDir: '/var/lib/gpucloud/agent',
  readyTimeoutMs: 120_000,
  dockerTimeoutMs: 30_000,
  pullTimeoutMs: 30 * 60_000,
  heartbeatIntervalMs: 5_000,
  reconcileIntervalMs: 60_000,
  layerMeasureIntervalMs: 5 * 60_000,
  logMaxSize: '10m',
  logMaxFiles: 3,
  minToolkitVersion: DEFAULT_MIN_TOOLKIT_VERSION,
  gpuStartConcurrency: 2,
  tenantSubnetPool: DEFAULT_TENANT_SUBNET_POOL,
  tenantIsolation: 'iptables',
  tenantNetworkIdle: 3600,
  containerLayerSize: '100G',
  metricsInterval: 15,
} as const;

/** Flag name → environment variable. The JSON file uses the flag names (or camelCase). */
const SETTINGS = {
  listen: 'AGENT_LISTEN',
  token: 'AGENT_TOKEN',
  'simulate-gpus': 'AGENT_SIMULATE_GPUS',
  'docker-host': 'DOCKER_HOST',
  'bind-address': 'AGENT_BIND_ADDRESS',
  'public-host': 'AGENT_PUBLIC_HOST',
  'port-range': 'AGENT_PORT_RANGE',
  'volume-root': 'AGENT_VOLUME_ROOT',
  'toolbox-dir': 'AGENT_TOOLBOX_DIR',
  'state-dir': 'AGENT_STATE_DIR',
  'tls-cert': 'AGENT_TLS_CERT',
  'tls-key': 'AGENT_TLS_KEY',
  'tls-ca': 'AGENT_TLS_CA',
  'tls-mode': 'AGENT_TLS_MODE',
  'node-name': 'AGENT_NODE_NAME',
  'log-max-size': 'AGENT_LOG_MAX_SIZE',
  'log-max-files': 'AGENT_LOG_MAX_FILES',
  'min-toolkit-version': 'AGENT_MIN_TOOLKIT_VERSION',
  'gpu-start-concurrency': 'AGENT_GPU_START_CONCURRENCY',
  'tenant-subnet-pool': 'AGENT_TENANT_SUBNET_POOL',
  'tenant-isolation': 'AGENT_TENANT_ISOLATION',
  'tenant-network-idle': 'AGENT_TENANT_NETWORK_IDLE',
  'container-layer-size': 'AGENT_CONTAINER_LAYER_SIZE',
  'control-plane-url': 'AGENT_CONTROL_PLANE_URL',
  'install-dir': 'AGENT_INSTALL_DIR',
  'metrics-listen': 'AGENT_METRICS_LISTEN',
  'metrics-token': 'AGENT_METRICS_TOKEN',
  'metrics-interval': 'AGENT_METRICS_INTERVAL',
} as const;
type SettingName = keyof typeof SETTINGS;
const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

export const USAGE = `gpucloud node agent

Usage: gpucloud-agent --token <token> [options]
       gpucloud-agent join --control-plane <url> --token <gcj_...> [options]   (gpucloud-agent join --help)
       gpucloud-agent --version

  --listen <host:port>        gRPC address (AGENT_LISTEN, default ${DEFAULTS.listen})
  --token <token>             node token, required (AGENT_TOKEN)
  --simulate-gpus <NxMODEL>   simulated GPUs for demos and tests, e.g. 8xRTX4090 (AGENT_SIMULATE_GPUS)
  --docker-host <url>         Docker engine (DOCKER_HOST, default the local socket)
  --bind-address <ip|auto>    address published ports bind to (AGENT_BIND_ADDRESS, default ${DEFAULTS.bindAddress}:
                              the public host's address where it is on an interface, else the
                              default route's interface address)
  --public-host <host>        address users reach published ports on (AGENT_PUBLIC_HOST, default the hostname)
  --port-range <a-b>          host ports for containers (AGENT_PORT_RANGE, default ${DEFAULTS.portRange})
  --volume-root <dir>         root of user volumes (AGENT_VOLUME_ROOT, default ${DEFAULTS.volumeRoot})
  --toolbox-dir <dir>         container toolbox: SSH server, sftp-server, busybox, init
                              (AGENT_TOOLBOX_DIR, default ${DEFAULTS.toolboxDir};
                              built by node node-agent/toolbox/build.mjs <dir>)
  --state-dir <dir>           the agent's own files (AGENT_STATE_DIR, default ${DEFAULTS.stateDir})
  --tls-cert <file>           server certificate (AGENT_TLS_CERT); insecure without
  --tls-key <file>            server key (AGENT_TLS_KEY)
  --tls-ca <file>             CA that client certificates must chain to (AGENT_TLS_CA)
  --tls-mode <files|platform> platform: the certificates written by join, reread when renewed,
                              client certificates required (AGENT_TLS_MODE, default files)
  --node-name <name>          value of the gpucloud.node label (AGENT_NODE_NAME, default the hostname)
  --log-max-size <size>       json-file log size per file of a container (AGENT_LOG_MAX_SIZE, default ${DEFAULTS.logMaxSize})
  --log-max-files <n>         json-file log files kept per container (AGENT_LOG_MAX_FILES, default ${DEFAULTS.logMaxFiles})
  --min-toolkit-version <v>   lowest NVIDIA Container Toolkit version for GPU work, every part checked
                              (AGENT_MIN_TOOLKIT_VERSION, default ${DEFAULTS.minToolkitVersion})
  --gpu-start-concurrency <n> GPU containers created/started at once (AGENT_GPU_START_CONCURRENCY, default ${DEFAULTS.gpuStartConcurrency})
  --tenant-subnet-pool <cidr> IPv4 range of the per-user networks, one /24 each
                              (AGENT_TENANT_SUBNET_POOL, default ${DEFAULTS.tenantSubnetPool})
  --tenant-isolation <mode>   iptables (the agent's rules keep users apart) or off, for development
                              only (AGENT_TENANT_ISOLATION, default ${DEFAULTS.tenantIsolation})
  --tenant-network-idle <s>   seconds a user's network is kept after their last container on this
                              node has gone, so their next one starts sooner; 0 = removed at once
                              (AGENT_TENANT_NETWORK_IDLE, default ${DEFAULTS.tenantNetworkIdle})
  --container-layer-size <s>  writable-layer limit of a container where the storage driver has one,
                              0 = none (AGENT_CONTAINER_LAYER_SIZE, default ${DEFAULTS.containerLayerSize})
  --control-plane-url <url>   the control plane this node joined (AGENT_CONTROL_PLANE_URL)
  --install-dir <dir>         the install the agent runs from (AGENT_INSTALL_DIR, default the
                              bundle's install when run from one, e.g. /opt/gpucloud/agent)
  --metrics-listen <h:p>      Prometheus endpoint GET /metrics on this address, e.g. 0.0.0.0:9101
                              (AGENT_METRICS_LISTEN, default off)
  --metrics-token <token>     bearer token the metrics endpoint asks for, 16+ characters
                              (AGENT_METRICS_TOKEN, default none: keep the address private)
  --metrics-interval <s>      seconds GPU and container figures are kept between scrapes
                              (AGENT_METRICS_INTERVAL, default ${DEFAULTS.metricsInterval})
  --config <file.json>        JSON file with the same keys (flags and environment win)
  --help
`;

export function parseSimulatedGpus(text: string): SimulatedGpus {
  const m = /^\s*(\d+)\s*[xX×*]\s*(\S.*?)\s*$/.exec(text);
  const count = m ? Number(m[1]) : Number.NaN;
  if (!m?.[2] || !Number.isInteger(count) || count < 1 || count > 64) {
    throw new ConfigError(`--simulate-gpus must look like 8xRTX4090 (1 to 64 GPUs), got "${text}"`);
  }
  return { count, model: m[2] };
}

export function parsePortRange(text: string): PortRange {
  const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(text);
  const start = Number(m?.[1]);
  const end = Number(m?.[2]);
  if (!m || !(start >= 1 && end <= 65535 && start <= end)) {
    throw new ConfigError(`--port-range must look like 20000-29999 within 1-65535, got "${text}"`);
  }
  return { start, end };
}

function checkListen(listen: string): string {
  if (!/^(\[[0-9a-fA-F:.]+\]|[^:\s]+):\d{1,5}$/.test(listen) || Number(listen.split(':').pop()) > 65535) {
    throw new ConfigError(`--listen must be host:port (for example 0.0.0.0:50051), got "${listen}"`);
  }
  return listen;
}

export function parseLogLimits(maxSize: string, maxFiles: number | string): LogLimits {
  if (!/^[1-9]\d{0,9}[kmg]?$/i.test(maxSize.trim())) {
    throw new ConfigError(`--log-max-size must be a size like 10m, 512k or 1g, got "${maxSize}"`);
  }
  const files = Number(maxFiles);
  if (!Number.isInteger(files) || files < 1 || files > 100) {
    throw new ConfigError(`--log-max-files must be a whole number from 1 to 100, got "${maxFiles}"`);
  }
  return { maxSize: maxSize.trim().toLowerCase(), maxFiles: files };
}

export function parseToolkitVersionFloor(text: string): string {
  const version = text.trim().replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    throw new ConfigError(`--min-toolkit-version must look like 1.19.1, got "${text}"`);
  }
  return version;
}

export function parseGpuStartConcurrency(value: number | string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    throw new ConfigError(`--gpu-start-concurrency must be a whole number from 1 to 64, got "${value}"`);
  }
  return n;
}

export function parseTenantIsolation(text: string): 'iptables' | 'off' {
  const mode = text.trim().toLowerCase();
  if (mode !== 'iptables' && mode !== 'off') {
    throw new ConfigError(`--tenant-isolation must be iptables or off, got "${text}"`);
  }
  return mode;
}

export function parseTenantNetworkIdle(value: number | string): number {
  const seconds = Number(value);
  if (String(value).trim() === '' || !Number.isInteger(seconds) || seconds < 0 || seconds > 30 * 86_400) {
    throw new ConfigError(
      `--tenant-network-idle must be a whole number of seconds from 0 to 2592000, got "${value}"`,
    );
  }
  return seconds * 1000;
}

export function parseLayerSize(text: string): string {
  const size = text.trim();
  if (size === '0' || size === '') return '';
  if (!/^[1-9]\d{0,9}(\.\d+)?[KMGT]i?B?$/i.test(size)) {
    throw new ConfigError(`--container-layer-size must be a size like 100G or 0 (no limit), got "${text}"`);
  }
  return size;
}

export function parseMetricsInterval(value: number | string): number {
  const seconds = Number(value);
  if (String(value).trim() === '' || !Number.isFinite(seconds) || seconds < 1 || seconds > 3600) {
    throw new ConfigError(`--metrics-interval must be a number of seconds from 1 to 3600, got "${value}"`);
  }
  return seconds * 1000;
}

function metricsSettings(
  options: Pick<AgentOptions, 'metricsListen' | 'metricsToken'>,
): Pick<AgentConfig, 'metricsListen' | 'metricsToken'> {
  const token = options.metricsToken;
  if (token !== undefined && (token.length < 16 || /\s/.test(token))) {
    throw new ConfigError('--metrics-token must be at least 16 characters, without spaces');
  }
  if (token !== undefined && !options.metricsListen) {
    throw new ConfigError('--metrics-token needs --metrics-listen (the address the metrics are served on)');
  }
  if (options.metricsListen === undefined) return {};
  const listen = options.metricsListen;
  if (!/^(\[[0-9a-fA-F:.]+\]|[^:\s]+):\d{1,5}$/.test(listen) || Number(listen.split(':').pop()) > 65535) {
    throw new ConfigError(`--metrics-listen must be host:port (for example 0.0.0.0:9101), got "${listen}"`);
  }
  return { metricsListen: listen, ...(token !== undefined ? { metricsToken: token } : {}) };
}

function checkSubnetPool(text: string): string {
  try {
    parseSubnetPool(text);
  } catch (err) {
    throw new ConfigError(`--tenant-subnet-pool: ${err instanceof Error ? err.message : String(err)}`);
  }
  return text.trim();
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a positive number`);
  return value;
}

/** Fills in defaults and checks every value. */
export function resolveConfig(options: AgentOptions): AgentConfig {
  if (!options.token?.trim()) {
    throw new ConfigError(
      'A node token is required: pass --token or set AGENT_TOKEN (the agent refuses to run without one).',
    );
  }
  const simulateGpus =
    typeof options.simulateGpus === 'string'
      ? parseSimulatedGpus(options.simulateGpus)
      : options.simulateGpus;
  const portRange =
    typeof options.portRange === 'object'
      ? options.portRange
      : parsePortRange(options.portRange ?? DEFAULTS.portRange);
  if (typeof options.portRange === 'object') parsePortRange(`${portRange.start}-${portRange.end}`);
  const tls = options.tls;
  if (tls && (!tls.certFile || !tls.keyFile)) {
    throw new ConfigError('TLS needs both --tls-cert and --tls-key');
  }
  if (tls?.watch && !tls.caFile) {
    throw new ConfigError('--tls-mode platform needs --tls-ca (client certificates must chain to it)');
  }
  const installDir = options.installDir ?? defaultInstallDir();
  const hostname = os.hostname();
  return {
    listen: checkListen(options.listen ?? DEFAULTS.listen),
    token: options.token,
    ...(simulateGpus ? { simulateGpus } : {}),
    ...(options.dockerHost ? { dockerHost: options.dockerHost } : {}),
    bindAddress: options.bindAddress ?? DEFAULTS.bindAddress,
    publicHost: options.publicHost ?? hostname,
    portRange,
    volumeRoot: path.resolve(options.volumeRoot ?? DEFAULTS.volumeRoot),
    toolboxDir: path.resolve(options.toolboxDir ?? DEFAULTS.toolboxDir),
    stateDir: path.resolve(options.stateDir ?? DEFAULTS.stateDir),
    readyTimeoutMs: positive('readyTimeoutMs', options.readyTimeoutMs, DEFAULTS.readyTimeoutMs),
    ...(tls ? { tls } : {}),
    nodeName: options.nodeName ?? hostname,
    dockerTimeoutMs: positive('dockerTimeoutMs', options.dockerTimeoutMs, DEFAULTS.dockerTimeoutMs),
    pullTimeoutMs: positive('pullTimeoutMs', options.pullTimeoutMs, DEFAULTS.pullTimeoutMs),
    heartbeatIntervalMs: positive(
      'heartbeatIntervalMs',
      options.heartbeatIntervalMs,
      DEFAULTS.heartbeatIntervalMs,
    ),
    reconcileIntervalMs: positive(
      'reconcileIntervalMs',
      options.reconcileIntervalMs,
      DEFAULTS.reconcileIntervalMs,
    ),
    layerMeasureIntervalMs: positive(
      'layerMeasureIntervalMs',
      options.layerMeasureIntervalMs,
      DEFAULTS.layerMeasureIntervalMs,
    ),
    logLimits: parseLogLimits(
      options.logMaxSize ?? DEFAULTS.logMaxSize,
      options.logMaxFiles ?? DEFAULTS.logMaxFiles,
    ),
    minToolkitVersion: parseToolkitVersionFloor(options.minToolkitVersion ?? DEFAULTS.minToolkitVersion),
    gpuStartConcurrency: parseGpuStartConcurrency(
      options.gpuStartConcurrency ?? DEFAULTS.gpuStartConcurrency,
    ),
    tenantSubnetPool: checkSubnetPool(options.tenantSubnetPool ?? DEFAULTS.tenantSubnetPool),
    tenantIsolation: parseTenantIsolation(options.tenantIsolation ?? DEFAULTS.tenantIsolation),
    tenantNetworkIdleMs: parseTenantNetworkIdle(options.tenantNetworkIdle ?? DEFAULTS.tenantNetworkIdle),
    containerLayerSize: parseLayerSize(options.containerLayerSize ?? DEFAULTS.containerLayerSize),
    ...(options.controlPlaneUrl ? { controlPlaneUrl: options.controlPlaneUrl } : {}),
    ...(installDir ? { installDir: path.resolve(installDir) } : {}),
    ...metricsSettings(options),
    metricsIntervalMs: parseMetricsInterval(options.metricsInterval ?? DEFAULTS.metricsInterval),
  };
}

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function readConfigFile(
  file: string,
  readFile: (file: string) => string,
): Partial<Record<SettingName, string>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFile(file));
  } catch (err) {
    throw new ConfigError(
      `Cannot read the config file ${file}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`The config file ${file} must hold a JSON object`);
  }
  const out: Partial<Record<SettingName, string>> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const name = kebab(key) as SettingName;
    if (!SETTING_NAMES.includes(name)) throw new ConfigError(`Unknown key "${key}" in ${file}`);
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new ConfigError(`"${key}" in ${file} must be a string`);
    }
    out[name] = String(value);
  }
  return out;
}

export interface CliInput {
  argv: string[];
  env: NodeJS.ProcessEnv;
  readFile?: (file: string) => string;
}

/** Parses the command line; returns 'help' when --help was given. */
export function configFromCli({
  argv,
  env,
  readFile = (f) => readFileSync(f, 'utf8'),
}: CliInput): AgentConfig | 'help' {
  const flagOptions: Record<string, { type: 'string' | 'boolean' }> = {
    config: { type: 'string' },
    help: { type: 'boolean' },
  };
  for (const name of SETTING_NAMES) flagOptions[name] = { type: 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: flagOptions, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new ConfigError(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
  }
  if (values.help) return 'help';
  const configFile = typeof values.config === 'string' ? values.config : env.AGENT_CONFIG;
  const fromFile = configFile ? readConfigFile(configFile, readFile) : {};
  const pick = (name: SettingName): string | undefined => {
    const flag = values[name];
    if (typeof flag === 'string') return flag;
    const fromEnv = env[SETTINGS[name]];
    if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
    return fromFile[name];
  };
  const tlsCert = pick('tls-cert');
  const tlsKey = pick('tls-key');
  const tlsCa = pick('tls-ca');
  if ((tlsCert || tlsKey || tlsCa) && !(tlsCert && tlsKey)) {
    throw new ConfigError('TLS needs both --tls-cert and --tls-key');
  }
  const tlsMode = pick('tls-mode') ?? 'files';
  if (tlsMode !== 'files' && tlsMode !== 'platform') {
    throw new ConfigError(`--tls-mode must be files or platform, got "${tlsMode}"`);
  }
  if (tlsMode === 'platform' && !(tlsCert && tlsKey)) {
    throw new ConfigError('--tls-mode platform needs --tls-cert, --tls-key and --tls-ca');
  }
  const options: AgentOptions = { token: pick('token') ?? '' };
  const set = <K extends keyof AgentOptions>(key: K, value: AgentOptions[K] | undefined) => {
    if (value !== undefined) options[key] = value;
  };
  set('listen', pick('listen'));
  set('simulateGpus', pick('simulate-gpus'));
  set('dockerHost', pick('docker-host'));
  set('bindAddress', pick('bind-address'));
  set('publicHost', pick('public-host'));
  set('portRange', pick('port-range'));
  set('volumeRoot', pick('volume-root'));
  set('toolboxDir', pick('toolbox-dir'));
  set('stateDir', pick('state-dir'));
  set('nodeName', pick('node-name'));
  set('logMaxSize', pick('log-max-size'));
  set('logMaxFiles', pick('log-max-files'));
  set('minToolkitVersion', pick('min-toolkit-version'));
  set('gpuStartConcurrency', pick('gpu-start-concurrency'));
  set('tenantSubnetPool', pick('tenant-subnet-pool'));
  set('tenantIsolation', pick('tenant-isolation'));
  set('tenantNetworkIdle', pick('tenant-network-idle'));
  set('containerLayerSize', pick('container-layer-size'));
  set('controlPlaneUrl', pick('control-plane-url'));
  set('installDir', pick('install-dir'));
  set('metricsListen', pick('metrics-listen'));
  set('metricsToken', pick('metrics-token'));
  set('metricsInterval', pick('metrics-interval'));
  if (tlsCert && tlsKey)
    set('tls', {
      certFile: tlsCert,
      keyFile: tlsKey,
      ...(tlsCa ? { caFile: tlsCa } : {}),
      ...(tlsMode === 'platform' ? { watch: true } : {}),
    });
  return resolveConfig(options);
}
