import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptance, serveConsole } from './static.js';

const INDEX =
  '<!doctype html><html><body><div id="root"></div><script src="/assets/app-1a2b.js"></script></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

let dist: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-static-'));
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, '.vite'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'index.html.gz'), gzipSync(INDEX));
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, 'assets', 'app-1a2b.js'), SCRIPT);
  writeFileSync(path.join(dist, 'assets', 'app-1a2b.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dist, 'assets', 'app-1a2b.js.gz'), gzipSync(SCRIPT));
  writeFileSync(path.join(dist, 'assets', 'style-9z.css'), 'body{margin:0}');
  writeFileSync(path.join(dist, '.vite', 'manifest.json'), '{"secret":true}');
  const app = new Koa();
  app.use(serveConsole(dist));
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = 'passed on';
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server?.close();
  rmSync(dist, { recursive: true, force: true });
});

/** A request with exactly these headers (fetch would add its own Accept-Encoding). */
function get(
  p: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${p}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the console served from memory', () => {
  it('answers index.html for / and for client-side routes, revalidated', async () => {
    for (const p of ['/', '/login', '/user/containers', '/index.html', '/.vite/manifest.json']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('max-age=0');
      expect(res.body.toString()).toBe(INDEX);
      expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(res.headers['last-modified']).toBeTruthy();
    }
  });

  it('answers a file compressed as the client accepts it, with Vary and a year of immutable caching', async () => {
    const p = '/assets/app-1a2b.js';
    const br = await get(p, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
    expect(br.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('max-age=31536000,immutable');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);

    const gz = await get(p, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);

    const plain = await get(p);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.toString()).toBe(SCRIPT);
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);

    // Only what the build compressed is sent compressed (and then no Vary is needed).
    const css = await get('/assets/style-9z.css', { 'accept-encoding': 'br, gzip' });
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers.vary).toBeUndefined();

    const page = await get('/login', { 'accept-encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(page.body).toString()).toBe(INDEX);
  });

  it('reads Accept-Encoding with q-values and *', () => {
    expect(acceptance('gzip, deflate, br, zstd', 'br')).toBe(1);
    expect(acceptance('br;q=0, gzip', 'br')).toBe(0);
    expect(acceptance('gzip;q=0.5', 'gzip')).toBe(0.5);
    expect(acceptance('*', 'br')).toBe(1);
    expect(acceptance('*;q=0, gzip', 'br')).toBe(0);
    expect(acceptance('identity', 'gzip')).toBe(0);
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const p = '/assets/app-1a2b.js';
    const first = await get(p, { 'accept-encoding': 'br' });
    const again = await get(p, { 'accept-encoding': 'br', 'if-none-match': first.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const otherEncoding = await get(p, {
      'accept-encoding': 'gzip',
      'if-none-match': first.headers.etag as string,
    });
    expect(otherEncoding.status).toBe(200);
    const head = await get(p, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(SCRIPT));
  });

  it('answers an unknown asset with a JSON 404, and passes the API and other methods on', async () => {
    const missing = await get('/assets/gone-0000.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(missing.body.toString())).toEqual({ detail: '资源不存在', code: 'NOT_FOUND' });
    for (const [method, p] of [
      ['GET', '/api/nothing'],
      ['GET', '/api'],
      ['GET', '/.well-known/x'],
      ['POST', '/login'],
    ] as const) {
      const res = await get(p, {}, method);
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.body.toString()).toBe('passed on');
    }
  });
});

describe('prerendered pages (web/build/prerender.ts)', () => {
  it('answers pages/index.html for / and pages/login.html for /login; every other route gets index.html', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-static-pages-'));
    const pages = {
      home: '<!doctype html><div id="root" data-prerendered="/">home</div>',
      login: '<!doctype html><div id="root" data-prerendered="/login">login</div>',
    };
    try {
      mkdirSync(path.join(root, 'pages'));
      writeFileSync(path.join(root, 'index.html'), INDEX);
      writeFileSync(path.join(root, 'pages', 'index.html'), pages.home);
      writeFileSync(path.join(root, 'pages', 'login.html'), pages.login);
      writeFileSync(path.join(root, 'pages', 'login.html.gz'), gzipSync(pages.login));
      const app = new Koa();
      app.use(serveConsole(root));
      const pageServer = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => pageServer.once('listening', resolve));
      const url = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
      try {
        const text = async (p: string) => {
          const res = await fetch(`${url}${p}`);
          expect(res.headers.get('content-type'), p).toBe('text/html; charset=utf-8');
          return res.text();
        };
        expect(await text('/')).toBe(pages.home);
        expect(await text('/login')).toBe(pages.login);
        expect(await text('/login?redirect=%2Fmarket')).toBe(pages.login);
        for (const p of ['/index.html', '/market', '/login/x', '/user/containers'])
          expect(await text(p), p).toBe(INDEX);
      } finally {
        pageServer.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
