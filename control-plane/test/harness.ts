import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { inject } from 'vitest';
import type { Config } from '../src/config.js';
import { type RunningControlPlane, startControlPlane } from '../src/platform.js';

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
    agentCallTimeoutMs: 30_000,
    nodeOfflineAfterMs: 30_000,
    ...overrides,
  };
}

const quiet = () => {};

export async function startTestControlPlane(overrides: Partial<Config> = {}): Promise<RunningControlPlane> {
  return startControlPlane(testConfig(await createTestDatabase(), overrides), quiet);
}

/** A tiny JSON client for the API under test. */
export class ApiClient {
  token: string | undefined;

  constructor(private readonly baseUrl: string) {}

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
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async register(username: string, password = 'secret123'): Promise<void> {
    const res = await this.request<{ token: string }>('POST', '/api/auth/register', {
      username,
      password,
      email: `${username}@example.com`,
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
