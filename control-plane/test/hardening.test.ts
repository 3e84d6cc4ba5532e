import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningControlPlane } from '../src/platform.js';
import { ApiClient, startTestControlPlane } from './harness.js';

// Tenant isolation and hardening: rate limits that cannot be dodged or turned against the owner,
// sign-in timing that tells nothing, and protocol paths that answer as their clients expect.

interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
  ms: number;
}

/** A request from a chosen loopback address (127.0.0.x), with raw headers and body. */
function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  pathname: string,
  o: { body?: string | object; from?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const url = new URL(pathname, baseUrl);
  const payload =
    o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: o.from ?? '127.0.0.1',
        headers: {
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
          ...o.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: body as T,
            text,
            ms: performance.now() - started,
          });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

const login = (cp: RunningControlPlane, username: string, password: string, from?: string, xff?: string) =>
  call<{ detail?: string; token?: string }>(cp.url, 'POST', '/api/auth/login', {
    body: { username, password },
    from,
    headers: xff ? { 'x-forwarded-for': xff } : {},
  });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

describe('sign-in limits', () => {
  let cp: RunningControlPlane;
  beforeAll(async () => {
    cp = await startTestControlPlane({
      rateLimits: {
        codesPerIp: { limit: 10_000, windowSeconds: 3600 },
        loginFailuresPerUser: { limit: 3, windowSeconds: 900 },
        loginFailuresPerAccount: { limit: 6, windowSeconds: 900 },
        loginSlowdownMs: 400,
        loginFailuresPerIp: { limit: 8, windowSeconds: 900 },
      },
    });
    for (const name of ['owner1', 'owner2', 'owner3'])
      await new ApiClient(cp.url).register(name, 'right-password');
  });
  afterAll(async () => {
    await cp?.close();
  });

  it('a forged X-Forwarded-For from an untrusted peer does not reset the limit', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await login(cp, 'owner1', 'wrong-password', '127.0.0.2', `203.0.113.${i + 1}`);
      expect(res.status).toBe(401);
      expect(res.body.detail).toBe('用户名或密码错误');
    }
    const forged = await login(cp, 'owner1', 'right-password', '127.0.0.2', '198.51.100.77');
    expect(forged.status).toBe(429);
    expect(forged.body.detail).toMatch(/^登录失败次数过多，请\d+分钟后再试$/);
    const rows = await cp.knex('rate_limit_counters').where('key', 'like', 'login:user-ip:owner1:%');
    expect(rows.map((r: { key: string }) => r.key)).toEqual(['login:user-ip:owner1:127.0.0.2']);
  });

  it("the owner signs in from another address while the attacker's address is locked out", async () => {
    for (let i = 0; i < 3; i++) expect((await login(cp, 'owner2', 'guess', '127.0.0.3')).status).toBe(401);
    expect((await login(cp, 'owner2', 'right-password', '127.0.0.3')).status).toBe(429);
    const owner = await login(cp, 'owner2', 'right-password', '127.0.0.4');
    expect(owner.status).toBe(200);
    expect(owner.body.token).toBeTruthy();
  });

  it('many addresses together slow an account down but never lock its owner out', async () => {
    // 6 failures from 3 addresses: each address stays under its own limit of 3.
    for (const from of ['127.0.0.5', '127.0.0.6', '127.0.0.7'])
      for (let i = 0; i < 2; i++) expect((await login(cp, 'owner3', 'guess', from)).status).toBe(401);
    const owner = await login(cp, 'owner3', 'right-password', '127.0.0.8');
    expect(owner.status).toBe(200);
    expect(owner.ms).toBeGreaterThanOrEqual(390);
  });

  it('one address guessing many names is locked across accounts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await login(cp, `nobody${i}`, 'guess', '127.0.0.9')).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(401));
    expect(statuses[8]).toBe(429);
    // Another address is not affected.
    expect((await login(cp, 'owner1', 'right-password', '127.0.0.10')).status).toBe(200);
  });
});

describe('sign-in timing', () => {
  let cp: RunningControlPlane;
  beforeAll(async () => {
    cp = await startTestControlPlane({
      rateLimits: {
        codesPerIp: { limit: 10_000, windowSeconds: 3600 },
        loginFailuresPerUser: { limit: 1000, windowSeconds: 900 },
        loginFailuresPerAccount: { limit: 1000, windowSeconds: 900 },
        loginFailuresPerIp: { limit: 1000, windowSeconds: 900 },
      },
    });
    await new ApiClient(cp.url).register('timed', 'right-password');
  });
  afterAll(async () => {
    await cp?.close();
  });

  it('an unknown username takes as long as a wrong password (medians, generous ratio)', async () => {
    // Warm up (the dummy hash is made on first use; connections, JIT).
    await login(cp, 'nosuchuser', 'x');
    await login(cp, 'timed', 'x');
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 9; i++) {
      unknown.push((await login(cp, `nosuch${i}`, 'wrong-password')).ms);
      wrong.push((await login(cp, 'timed', 'wrong-password')).ms);
    }
    const ratio = median(unknown) / median(wrong);
    // Without the dummy hash an unknown name answered ~4x faster (8.7 ms vs 36.4 ms).
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.7);
  }, 60_000);
});

describe('protocol paths and headers', () => {
  let cp: RunningControlPlane;
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'console-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    cp = await startTestControlPlane({ webDist: dist });
  });
  afterAll(async () => {
    await cp?.close();
  });

  it('unknown /.well-known/* and /api/* paths answer a JSON 404, not the console', async () => {
    for (const p of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server/api/mcp/server',
      '/api/nothing-here',
      '/api/mcp/server/.well-known/x',
    ]) {
      const res = await call<{ detail: string }>(cp.url, 'GET', p);
      expect(res.status, p).toBe(404);
      expect(String(res.headers['content-type'])).toMatch(/application\/json/);
      expect(typeof res.body.detail).toBe('string');
    }
    const page = await call(cp.url, 'GET', '/user/profile');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');
  });

  it('malformed JSON to the MCP endpoint is a JSON-RPC parse error (-32700, 400)', async () => {
    const res = await call<{ jsonrpc: string; error: { code: number }; id: null }>(
      cp.url,
      'POST',
      '/api/mcp/server',
      { body: '{"jsonrpc": "2.0", "method": ', headers: { accept: 'application/json, text/event-stream' } },
    );
    expect(res.status).toBe(400);
    expect(res.body.jsonrpc).toBe('2.0');
    expect(res.body.error.code).toBe(-32700);
    expect(res.body.id).toBeNull();
    // Elsewhere malformed JSON stays the API's own 400.
    const api = await call<{ detail: string }>(cp.url, 'POST', '/api/auth/login', { body: '{bad' });
    expect(api.status).toBe(400);
    expect(api.body.detail).toBe('请求格式不正确');
  });

  it('answers carry the security headers; HSTS only over HTTPS', async () => {
    for (const p of ['/api/health', '/user/profile', '/api/nothing-here']) {
      const res = await call(cp.url, 'GET', p);
      expect(res.headers['content-security-policy'], p).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    // An untrusted client claiming HTTPS gets no HSTS either.
    const claimed = await call(cp.url, 'GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });
});
