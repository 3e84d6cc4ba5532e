import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMiddleware } from './errors.js';
import { answerFirst, fastPath, HEALTH_PATH, HEALTH_REPLY } from './fast-path.js';
import { parseTrustProxy, type TrustProxy, trustedClient } from './proxy.js';
import { securityHeaders } from './security-headers.js';
import { consoleSite } from './static.js';

// The fast path answers health and the console's files before Koa: what it answers must be what
// Koa's chain (app.ts: trustedClient, securityHeaders, errorMiddleware, health, the console)
// answers, header for header. Two servers on the same files, one with the fast path, one without.

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('y'.repeat(3000))});`;

let dist: string;
const servers: Server[] = [];
let koaOnly: string;
let withFast: string;
let fastAnswered = 0;

function koaChain(trust: TrustProxy, fast: boolean): Koa {
  const site = consoleSite(dist);
  const app = new Koa();
  app.proxy = false;
  if (fast) {
    const answer = fastPath(trust, site);
    answerFirst(app, (req, res) => {
      const done = answer(req, res);
      if (done) fastAnswered++;
      return done;
    });
  }
  app.use(trustedClient(trust));
  app.use(securityHeaders());
  app.use(errorMiddleware(() => {}));
  app.use(async (ctx, next) => {
    if (ctx.path === HEALTH_PATH) {
      ctx.body = HEALTH_REPLY;
      return;
    }
    await next();
  });
  app.use(site.middleware);
  return app;
}

async function serve(app: Koa): Promise<string> {
  const server = http.createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(base: string, p: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${p}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('base64'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** An answer without what differs between any two answers (date, a generated request id). */
function comparable(r: Raw, keepRequestId: boolean) {
  const { date: _d, connection: _c, 'keep-alive': _k, 'x-request-id': id, ...headers } = r.headers;
  return { status: r.status, headers, body: r.body, ...(keepRequestId ? { id } : {}) };
}

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-fast-path-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, 'assets', 'app-9f.js'), SCRIPT);
  writeFileSync(path.join(dist, 'assets', 'app-9f.js.gz'), gzipSync(SCRIPT));
  const trust = parseTrustProxy('loopback');
  koaOnly = await serve(koaChain(trust, false));
  withFast = await serve(koaChain(trust, true));
});
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the fast path before Koa', () => {
  it('answers health and the console exactly as the Koa chain does, and leaves the rest to it', async () => {
    const etag = (await get(koaOnly, '/assets/app-9f.js', { 'accept-encoding': 'gzip' })).headers
      .etag as string;
    const cases: { p: string; headers?: Record<string, string>; method?: string; fast: boolean }[] = [
      { p: '/api/health', fast: true },
      { p: '/api/health?probe=1', fast: true },
      { p: '/api/health', method: 'HEAD', fast: true },
      { p: '/api/health', headers: { 'x-forwarded-proto': 'https' }, fast: true },
      { p: '/api/health', headers: { 'x-request-id': 'lb-1234' }, fast: true },
      { p: '/api/health', method: 'POST', fast: false },
      { p: '/', fast: true },
      { p: '/login', fast: true },
      { p: '/login', method: 'HEAD', fast: true },
      { p: '/favicon.svg', fast: true },
      { p: '/assets/app-9f.js', fast: true },
      { p: '/assets/app-9f.js', headers: { 'accept-encoding': 'gzip, br' }, fast: true },
      { p: '/assets/app-9f.js', headers: { 'accept-encoding': 'gzip', 'if-none-match': etag }, fast: true },
      { p: '/assets/app-9f.js', headers: { 'if-none-match': etag }, fast: true },
      { p: '/assets/%61pp-9f.js', fast: true },
      { p: '/assets/missing.js', fast: false },
      { p: '/api/other', fast: false },
      { p: '/.well-known/x', fast: false },
    ];
    for (const c of cases) {
      const before = fastAnswered;
      const ours = await get(withFast, c.p, c.headers, c.method);
      const theirs = await get(koaOnly, c.p, c.headers, c.method);
      const label = `${c.method ?? 'GET'} ${c.p} ${JSON.stringify(c.headers ?? {})}`;
      expect(fastAnswered - before, label).toBe(c.fast ? 1 : 0);
      const keepId = Boolean(c.headers?.['x-request-id']);
      expect(comparable(ours, keepId), label).toEqual(comparable(theirs, keepId));
      expect(ours.headers['x-request-id'], label).toMatch(/^[\w.:-]+$/);
    }
  });

  it('sets HSTS behind a trusted proxy that says HTTPS, and the security headers everywhere', async () => {
    const https = await get(withFast, '/api/health', { 'x-forwarded-proto': 'https' });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    for (const p of ['/api/health', '/login', '/assets/app-9f.js']) {
      const res = await get(withFast, p);
      expect(res.headers['content-security-policy'], p).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], p).toBe('DENY');
      expect(res.headers['x-content-type-options'], p).toBe('nosniff');
      expect(res.headers['referrer-policy'], p).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security'], p).toBeUndefined();
    }
    const health = await get(withFast, '/api/health');
    expect(Buffer.from(health.body, 'base64').toString()).toBe('{"ok":true}');
    expect(health.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
