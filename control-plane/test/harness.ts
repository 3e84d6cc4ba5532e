import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { inject } from 'vitest';
import type { Config } from '../src/config.js';
import { lifecycleSettingsFromEnv } from '../src/lifecycle-settings.js';
import { type RunningControlPlane, startControlPlane } from '../src/platform.js';
import { storageSettingsFromEnv } from '../src/storage-settings.js';

/** A new, empty database on the test server; returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const base = inject('databaseUrl');
  const name = `cp_${randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`CREATE DATABASE ${name}`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export const ADMIN = { username: 'admin', password: 'admin-password-for-tests' };

export function testConfig(databaseUrl: string, overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    secretKey: randomBytes(32),
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    webDist: undefined,
    sessionTtlHours: 24,
    bootstrapNode: undefined,
    agentTls: undefined,
    agentCallTimeoutMs: 30_000,
    nodeOfflineAfterMs: 30_000,
    monitorSyncIntervalMs: 10_000,
    heartbeatIntervalMs: 1_000,
    ...lifecycleSettingsFromEnv({}),
    ...storageSettingsFromEnv({}),
    // Every test registers from 127.0.0.1: the per-address code limit would otherwise bite.
    rateLimits: { codesPerIp: { limit: 10_000, windowSeconds: 3600 } },
    ...overrides,
  };
}

const quiet = (m: string, e?: unknown) => {
  if (process.env.CP_TEST_LOG) console.log(m, e);
};

export async function startTestControlPlane(overrides: Partial<Config> = {}): Promise<RunningControlPlane> {
  return startControlPlaneOn(await createTestDatabase(), overrides);
}

/** A control plane on a database the caller made (with createTestDatabase) and may use too. */
export function startControlPlaneOn(
  databaseUrl: string,
  overrides: Partial<Config> = {},
): Promise<RunningControlPlane> {
  return startControlPlane(testConfig(databaseUrl, overrides), quiet);
}

/** Requests that buy a container: the market's purchase, the app market's deploy, MCP's create. */
const PURCHASE = /^\/api\/(cloud-products\/\d+\/purchase|apps\/deploy|mcp\/containers)$/;

/** A tiny JSON client for the API under test. */
export class ApiClient {
  token: string | undefined;

  constructor(readonly baseUrl: string) {}

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T }> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const answer = { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
    if (method === 'POST' && PURCHASE.test(path) && res.status === 201 && this.awaitProvisioning) {
      const id = (answer.body as { container_id?: string }).container_id;
      if (id) await this.untilProvisioned(id, path.startsWith('/api/mcp/') ? 'mcp' : 'console');
    }
    return answer;
  }

  /**
   * A purchase answers before the node has pulled, created and started the container. Tests that
   * go on to use the container wait here, as the console does, until it has left 拉取镜像中 and
   * 启动中 (running, or why not); `awaitProvisioning = false` sees the answer as it comes.
   */
  awaitProvisioning = true;

  async untilProvisioned(
    containerId: string,
    api: 'console' | 'mcp' = 'console',
    timeoutMs = 120_000,
  ): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    const path = api === 'mcp' ? `/api/mcp/containers/${containerId}` : `/api/containers/${containerId}`;
    for (;;) {
      const res = await this.request<{ status?: string; platform_status?: string }>('GET', path);
      const status = res.body?.platform_status ?? res.body?.status ?? '';
      if (res.status !== 200 || !['pulling', 'starting'].includes(status)) return status;
      if (Date.now() > deadline)
        throw new Error(`container ${containerId} still ${status} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Registers with an e-mail code read from the sandbox outbox (as an admin would). */
  async register(username: string, password = 'secret123', email = `${username}@example.com`): Promise<void> {
    const sent = await this.request('POST', '/api/auth/send-email-verify-code', { email });
    if (sent.status !== 200) throw new Error(`send code failed: ${JSON.stringify(sent.body)}`);
    const res = await this.request<{ token: string }>('POST', '/api/auth/register', {
      username,
      password,
      email,
      email_verify_code: await outboxCode(this.baseUrl, email),
    });
    if (res.status !== 201) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
    this.token = res.body.token;
  }

  async login(username: string, password: string): Promise<void> {
    const res = await this.request<{ token: string }>('POST', '/api/auth/login', { username, password });
    if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
    this.token = res.body.token;
  }
}

export interface OutboxItem {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  body: string;
  code: string | null;
  created_at: string;
}

const adminClients = new Map<string, ApiClient>();

/** The newest sandbox message to `to`, read through GET /api/admin/outbox. */
export async function outboxMessage(baseUrl: string, to: string): Promise<OutboxItem> {
  let admin = adminClients.get(baseUrl);
  if (!admin) {
    admin = new ApiClient(baseUrl);
    await admin.login(ADMIN.username, ADMIN.password);
    adminClients.set(baseUrl, admin);
  }
  const res = await admin.request<{ items: OutboxItem[] }>(
    'GET',
    `/api/admin/outbox?to=${encodeURIComponent(to)}`,
  );
  const item = res.body.items.find((m) => m.to === to);
  if (!item) throw new Error(`no message to ${to} in the outbox: ${JSON.stringify(res.body)}`);
  return item;
}

export async function outboxCode(baseUrl: string, to: string): Promise<string> {
  const { code } = await outboxMessage(baseUrl, to);
  if (!code) throw new Error(`the message to ${to} has no code`);
  return code;
}
