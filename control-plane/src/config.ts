import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type AccountSettings, accountSettingsFromEnv } from './account-settings.js';
import type { AgentTls } from './agents/agent-client.js';
import { type BillingSettings, billingSettingsFromEnv } from './billing-settings.js';
import { parseTrustProxy, type TrustProxy } from './framework/proxy.js';
import { type LifecycleSettings, lifecycleSettingsFromEnv } from './lifecycle-settings.js';
import { type RegistryConfig, registrySettingsFromEnv } from './registry-settings.js';
import { type StorageSettings, storageSettingsFromEnv } from './storage-settings.js';

/** Every setting of the control plane, read once from the environment. */
export interface Config
  extends AccountSettings,
    BillingSettings,
    LifecycleSettings,
    StorageSettings,
    RegistryConfig {
  port: number;
  host: string;
  databaseUrl: string;
  /** 32-byte key (hex or base64) encrypting secrets at rest (container passwords). */
  secretKey: Buffer;
  adminUsername: string;
  /** Undefined = generate one at first start and print it. */
  adminPassword: string | undefined;
  /** Folder of the built console (web/dist); not served when undefined. */
  webDist: string | undefined;
  sessionTtlHours: number;
  /** A node to register at start (the local agent of `npm start`). */
  bootstrapNode:
    | { name: string; address: string; token: string; region: string; publicHost: string | undefined }
    | undefined;
  /** TLS to the agents (AGENT_TLS_CA, and AGENT_TLS_CERT / AGENT_TLS_KEY for mutual TLS). */
  agentTls: AgentTls | undefined;
  /** Deadline of unary agent calls. */
  agentCallTimeoutMs: number;
  /** A node whose heartbeats stop for this long is offline. */
  nodeOfflineAfterMs: number;
  /** How often node subscriptions are synced and silent nodes marked offline. */
  monitorSyncIntervalMs: number;
  /**
   * How long a row a process works on (a purchase being provisioned, a container being
   * recreated) stays with it without a renewal (renewed every quarter of it); a process that
   * dies leaves it to run out, then another takes over or the node's reports settle it. 60 s.
   */
  leaseMs?: number;
  /** Heartbeat interval asked of the agents. */
  heartbeatIntervalMs: number;
  /**
   * How often each connected node's inventory (GPUs, health, toolkit) is read again, so a GPU
   * that fails or disappears is seen; 30 s when unset.
   */
  gpuInventoryIntervalMs?: number;
  /** TRUST_PROXY: whose X-Forwarded-For / -Proto / -Host are believed (none when unset). */
  trustProxy?: TrustProxy | undefined;
  /**
   * ALLOW_SANDBOX_PROVIDERS=true: a deployment whose PUBLIC_URL is not loopback may still run the
   * sandbox payment page and the sandbox WeChat login (a public demo). Refused otherwise.
   */
  allowSandboxProviders?: boolean | undefined;
  /** 我的镜像: how many images (IMAGE_QUOTA_COUNT, 10) and GB (IMAGE_QUOTA_GB, 50) a user may keep unless an admin sets theirs. */
  imageQuotaCount?: number | undefined;
  imageQuotaGb?: number | undefined;
  /** METRICS_TOKEN: /metrics answers on the public port with this bearer token (and asks for it on METRICS_LISTEN). */
  metricsToken?: string | undefined;
  /** METRICS_LISTEN (127.0.0.1:9464): /metrics on an address of its own. */
  metricsListen?: { host: string; port: number } | undefined;
}

function parseKey(value: string | undefined): Buffer {
  if (!value) return randomBytes(32);
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('SECRET_KEY must be 32 bytes (64 hex characters or base64)');
  return key;
}

function int(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new Error(`not an integer: ${value}`);
  return n;
}

/** METRICS_TOKEN: long enough not to be guessed (it guards the metrics on the public port). */
export function parseMetricsToken(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (value.length < 16 || /\s/.test(value))
    throw new Error('METRICS_TOKEN must be at least 16 characters, without spaces');
  return value;
}

/** METRICS_LISTEN: host:port ([::1]:9464 for IPv6); port 0 picks a free one. */
export function parseMetricsListen(value: string | undefined): { host: string; port: number } | undefined {
  if (!value) return undefined;
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(value.trim());
  const port = Number(m?.[3]);
  if (!m || port > 65535)
    throw new Error(`METRICS_LISTEN must be host:port (127.0.0.1:9464), got "${value}"`);
  return { host: (m[1] ?? m[2]) as string, port };
}

function agentTls(env: NodeJS.ProcessEnv): AgentTls | undefined {
  if (!env.AGENT_TLS_CA) {
    if (env.AGENT_TLS_CERT || env.AGENT_TLS_KEY)
      throw new Error('AGENT_TLS_CERT/AGENT_TLS_KEY need AGENT_TLS_CA');
    return undefined;
  }
  if (Boolean(env.AGENT_TLS_CERT) !== Boolean(env.AGENT_TLS_KEY)) {
    throw new Error('AGENT_TLS_CERT and AGENT_TLS_KEY go together');
  }
  return {
    ca: readFileSync(env.AGENT_TLS_CA),
    cert: env.AGENT_TLS_CERT ? readFileSync(env.AGENT_TLS_CERT) : undefined,
    key: env.AGENT_TLS_KEY ? readFileSync(env.AGENT_TLS_KEY) : undefined,
  };
}

/** Whether a URL's host is this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
}

/**
 * What a public deployment (PUBLIC_URL not loopback) must not run with: the sandboxes, where
 * anyone pays without money or signs in as anyone (unless ALLOW_SANDBOX_PROVIDERS=true), and a
 * WeChat Pay notify URL that is not HTTPS. Throws with a Chinese and English explanation.
 */
export function checkDeployment(
  config: Pick<
    Config,
    'publicUrl' | 'wechat' | 'wechatSandbox' | 'wechatPay' | 'paymentsSandbox' | 'allowSandboxProviders'
  >,
): void {
  if (!config.publicUrl || isLoopbackUrl(config.publicUrl)) return;
  const sandboxes: string[] = [];
  if (!config.wechatPay && config.paymentsSandbox !== false) sandboxes.push('PAYMENTS_SANDBOX');
  if (!config.wechat && config.wechatSandbox !== false) sandboxes.push('WECHAT_SANDBOX');
  if (sandboxes.length > 0 && !config.allowSandboxProviders) {
    throw new Error(
      `公网部署（PUBLIC_URL=${config.publicUrl}）不能启用沙箱支付或沙箱微信登录：请配置微信支付/微信开放平台凭据，` +
        `或设置 ${sandboxes.map((s) => `${s}=false`).join('、')}；确需公开演示请设置 ALLOW_SANDBOX_PROVIDERS=true。` +
        ` / A deployment with a public PUBLIC_URL refuses to start with sandbox providers on (${sandboxes.join(', ')}): ` +
        `configure the real providers, set ${sandboxes.map((s) => `${s}=false`).join(' and ')}, ` +
        'or set ALLOW_SANDBOX_PROVIDERS=true for a public demo.',
    );
  }
  const notifyUrl = config.wechatPay?.notifyUrl;
  if (notifyUrl && new URL(notifyUrl).protocol !== 'https:') {
    throw new Error(
      `微信支付回调地址必须使用 HTTPS：${notifyUrl} / WECHAT_PAY_NOTIFY_URL must be HTTPS on a public deployment: ${notifyUrl}`,
    );
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  if (!env.DATABASE_URL) throw new Error('DATABASE_URL is required');
  if (!env.SECRET_KEY) {
    // A random key makes stored container passwords unreadable after a restart.
    console.warn('SECRET_KEY is not set: a random key is used for this run only');
  }
  const bootstrapAddress = env.BOOTSTRAP_NODE_ADDRESS;
  const config: Config = {
    port: int(env.PORT, 8080),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL,
    secretKey: parseKey(env.SECRET_KEY),
    adminUsername: env.ADMIN_USERNAME ?? 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    webDist: env.WEB_DIST || undefined,
    sessionTtlHours: int(env.SESSION_TTL_HOURS, 24 * 7),
    bootstrapNode: bootstrapAddress
      ? {
          name: env.BOOTSTRAP_NODE_NAME ?? 'local',
          address: bootstrapAddress,
          token: env.BOOTSTRAP_NODE_TOKEN ?? '',
          region: env.BOOTSTRAP_NODE_REGION ?? '本地',
          publicHost: env.BOOTSTRAP_NODE_PUBLIC_HOST || undefined,
        }
      : undefined,
    agentTls: agentTls(env),
    agentCallTimeoutMs: int(env.AGENT_CALL_TIMEOUT_MS, 60_000),
    nodeOfflineAfterMs: int(env.NODE_OFFLINE_AFTER_MS, 30_000),
    monitorSyncIntervalMs: int(env.MONITOR_SYNC_INTERVAL_MS, 10_000),
    leaseMs: int(env.LEASE_MS, 60_000),
    heartbeatIntervalMs: int(env.HEARTBEAT_INTERVAL_MS, 5_000),
    gpuInventoryIntervalMs: int(env.GPU_INVENTORY_INTERVAL_MS, 30_000),
    ...accountSettingsFromEnv(env),
    ...billingSettingsFromEnv(env),
    ...lifecycleSettingsFromEnv(env),
    ...storageSettingsFromEnv(env),
    ...registrySettingsFromEnv(env),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    allowSandboxProviders: /^(1|true|yes|on)$/i.test(env.ALLOW_SANDBOX_PROVIDERS ?? ''),
    imageQuotaCount: int(env.IMAGE_QUOTA_COUNT, 10),
    imageQuotaGb: int(env.IMAGE_QUOTA_GB, 50),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN),
    metricsListen: parseMetricsListen(env.METRICS_LISTEN),
  };
  checkDeployment(config);
  return config;
}
