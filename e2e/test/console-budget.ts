import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type RunningControlPlane, startControlPlane } from '@gpucloud/control-plane/platform';
import type { Browser, Request } from 'playwright-core';
import { controlPlaneConfig } from './control-plane-config.js';

/**
 * The console's loading budgets and the tools to check them: the import graph of the built
 * console (Vite's manifest), the control plane serving web/dist as it does in production, and a
 * browser measurement of what a page fetches before it can be used (bytes as they came over the
 * wire, and Largest Contentful Paint, optionally under CPU throttling). Shared by
 * test/web-budget.test.ts and bench/web-budget.ts.
 */

export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
/** kB = 1000 bytes, as Vite prints. Brotli (quality 11) bytes of the JavaScript `/` runs before it can be used. */
export const HOME_JS_BUDGET_BR = 110_000;
/** Brotli bytes of the JavaScript `/login` runs before it can be used. */
export const LOGIN_JS_BUDGET_BR = 170_000;
export const HOME_ROUTE_MODULE = 'src/app/routes/home.tsx';
export const LOGIN_ROUTE_MODULE = 'src/app/routes/login.tsx';
/** Text files the build compresses ahead of time (web/build/precompress.ts), from this size up. */
export const PRECOMPRESSED = /\.(html|js|mjs|css|svg|json|txt|xml|map|webmanifest|wasm)$/i;
export const PRECOMPRESS_MIN_BYTES = 1024;

export function gzipSize(content: Buffer): number {
  // Level 9, as Vite's build report and web/build/precompress.ts compute it.
  return gzipSync(content, { level: 9 }).length;
}

export function brotliSize(content: Buffer): number {
  return brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
  }).length;
}

export function kB(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export function readManifest(dist = WEB_DIST): Manifest {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: build the console first (npm run build -w @gpucloud/web)`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** The files of `keys` and of everything they import statically (what loads before they run). */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface BundleSize {
  files: FileSize[];
  raw: number;
  gzip: number;
  brotli: number;
}

export function sizeOfFiles(files: string[], dist = WEB_DIST): BundleSize {
  const sizes = files.map((file) => {
    const content = readFileSync(path.join(dist, file));
    return { file, raw: content.length, gzip: gzipSize(content), brotli: brotliSize(content) };
  });
  return {
    files: sizes,
    raw: sizes.reduce((sum, size) => sum + size.raw, 0),
    gzip: sizes.reduce((sum, size) => sum + size.gzip, 0),
    brotli: sizes.reduce((sum, size) => sum + size.brotli, 0),
  };
}

function entryKey(manifest: Manifest): string {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry && chunk.src === 'index.html');
  if (!entry) throw new Error('manifest has no index.html entry');
  return entry[0];
}

/**
 * The JavaScript a page runs before it can be used: index.html's entry and its static imports,
 * plus the page's route module and its imports when the route is split into its own chunk.
 * (The route's layouts are in the entry: the budgets would catch a lazy layout only in the
 * browser measurement.)
 */
export function pageBundle(routeModule: string, dist = WEB_DIST): BundleSize {
  const manifest = readManifest(dist);
  const keys = [entryKey(manifest)];
  if (manifest[routeModule]) keys.push(routeModule);
  return sizeOfFiles(staticClosure(manifest, keys), dist);
}

export function homePageBundle(dist = WEB_DIST): BundleSize {
  return pageBundle(HOME_ROUTE_MODULE, dist);
}

export function loginPageBundle(dist = WEB_DIST): BundleSize {
  return pageBundle(LOGIN_ROUTE_MODULE, dist);
}

/** Every file of the build, relative to `dist` (the manifest's folder left out). */
export function builtFiles(dist = WEB_DIST): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === '.vite' ? [] : walk(full);
      return [path.relative(dist, full)];
    });
  return walk(dist);
}

export interface ConsoleServer {
  url: string;
  cp: RunningControlPlane;
  admin: { username: string; password: string };
  close(): Promise<void>;
}

/**
 * The control plane as production runs it, serving `dist` (web/dist), with no node: what a
 * browser receives for the console's files. `databaseUrl` is an empty database of its own.
 */
export async function startConsoleServer(databaseUrl: string, dist = WEB_DIST): Promise<ConsoleServer> {
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`the console is not built (${dist}); run npm run build -w @gpucloud/web`);
  }
  const admin = { username: 'admin', password: randomBytes(12).toString('hex') };
  const config = controlPlaneConfig({
    databaseUrl,
    adminUsername: admin.username,
    adminPassword: admin.password,
    webDist: dist,
    sessionTtlHours: 24,
  });
  const cp = await startControlPlane(config, () => {});
  return { url: cp.url, cp, admin, close: () => cp.close() };
}

/** A token for `admin` through the sign-in API, and the user the console keeps beside it. */
export async function signInSession(server: ConsoleServer): Promise<PageSession> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(server.admin),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const answer = (await res.json()) as { token: string; username: string; nickname: string | null };
  return {
    token: answer.token,
    user: { username: answer.username, nickname: answer.nickname ?? '', isAdmin: true },
  };
}

/**
 * A plain static page for comparison: the home page's heading and first paragraph in hand-written
 * HTML with inline CSS, no script, served by bare Node `http`.
 */
export async function startPlainPage(): Promise<{ url: string; close(): Promise<void> }> {
  const html = `<!doctype html><html lang="zh-CN"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1.0"><title>GPU 云平台</title><style>body{margin:0;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Noto Sans CJK SC',sans-serif;background:#f5f7fa;color:rgba(0,0,0,.88)}header{height:56px;background:#fff;border-bottom:1px solid #f0f0f0}main{max-width:1200px;margin:0 auto;padding:96px 24px}h1{font-size:48px;line-height:1.2;margin:0 0 24px}p{font-size:18px;color:rgba(0,0,0,.65)}</style></head><body><header></header><main><h1>面向 AI 开发者的<br>GPU 云平台</h1><p>按需租用 GPU 容器，一键部署 PyTorch、大模型推理与 AI 绘画环境，秒级计费，开箱即用。</p></main></body></html>`;
  const body = Buffer.from(html);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export interface PageSession {
  token: string;
  user: { username: string; nickname: string; isAdmin: boolean };
}

/** One file the page fetched, as the browser received it. */
export interface LoadedFile {
  path: string;
  contentType: string;
  /** Content-Encoding of the answer (br, gzip), null when sent as is. */
  encoding: string | null;
  /** The file's own size (the decoded body). */
  raw: number;
  /** The body's bytes on the wire (compressed when encoded), headers not counted. */
  sent: number;
}

export interface PageMeasurement {
  path: string;
  /** Every same-origin file (not /api) fetched until the network was idle. */
  files: LoadedFile[];
  js: LoadedFile[];
  jsRaw: number;
  jsSent: number;
  sent: number;
  /** Largest Contentful Paint in ms after navigation start, as Chromium reports it. */
  lcpMs: number | null;
  lcpElement: string | null;
  acceptEncoding: string | null;
}

interface LcpRecord {
  time: number;
  element: string;
}

declare global {
  interface Window {
    __lcp?: LcpRecord;
  }
}

async function describe(request: Request, origin: string): Promise<LoadedFile | null> {
  const url = new URL(request.url());
  if (url.origin !== origin || url.pathname.startsWith('/api/')) return null;
  const response = await request.response();
  if (!response) return null;
  const headers = await response.allHeaders();
  const [sizes, body] = await Promise.all([request.sizes(), response.body()]);
  return {
    path: url.pathname,
    contentType: headers['content-type'] ?? '',
    encoding: headers['content-encoding'] ?? null,
    raw: body.length,
    sent: sizes.responseBodySize,
  };
}

/**
 * Loads `pagePath` in a fresh browser context (empty cache), waits until `ready` shows and the
 * network is idle after it (the page is ready for input; nothing is clicked or focused) and reports the files it fetched
 * and Chromium's LCP. `cpuThrottling` slows the CPU that many times (DevTools'
 * Emulation.setCPUThrottlingRate), as a slower machine would run the page.
 */
export async function measurePage(
  browser: Browser,
  baseUrl: string,
  pagePath: string,
  options: {
    session?: PageSession;
    cpuThrottling?: number;
    /** A selector of the page's own content (its heading, its form): shown when the page is. */
    ready?: string;
  } = {},
): Promise<PageMeasurement> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    if (options.session) {
      await context.addInitScript((session) => {
        window.localStorage.setItem('token', session.token);
        window.localStorage.setItem('user', JSON.stringify(session.user));
      }, options.session);
    }
    await context.addInitScript(() => {
      new PerformanceObserver((list) => {
        const last = list.getEntries().at(-1) as
          | (PerformanceEntry & { element?: Element | null })
          | undefined;
        if (!last) return;
        const element = last.element;
        window.__lcp = {
          time: last.startTime,
          element: element
            ? `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ')[0]}` : ''}`
            : '',
        };
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    const page = await context.newPage();
    if (options.cpuThrottling && options.cpuThrottling > 1) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.cpuThrottling });
    }
    const origin = new URL(baseUrl).origin;
    const pending: Promise<LoadedFile | null>[] = [];
    let acceptEncoding: string | null = null;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && acceptEncoding === null) {
        void request.allHeaders().then((headers) => {
          acceptEncoding = headers['accept-encoding'] ?? null;
        });
      }
    });
    let collecting = true;
    page.on('requestfinished', (request) => {
      // A request finishing while the context closes has nothing left to read.
      if (collecting) pending.push(describe(request, origin).catch(() => null));
    });
    await page.goto(`${baseUrl}${pagePath}`, { waitUntil: 'domcontentloaded' });
    // The network can pause while a slow CPU parses the first scripts: the page is ready once
    // its own content shows (options.ready) and nothing more is fetched for 500 ms after that.
    if (options.ready)
      await page.locator(options.ready).first().waitFor({ state: 'visible', timeout: 120_000 });
    await page.waitForLoadState('networkidle');
    await page
      .waitForFunction(() => window.__lcp !== undefined, undefined, { timeout: 5_000 })
      .catch(() => {});
    await page.waitForTimeout(300);
    const lcp = await page.evaluate(() => window.__lcp ?? null);
    collecting = false;
    const files = (await Promise.all(pending)).filter((file): file is LoadedFile => file !== null);
    const js = files.filter((file) => /javascript/.test(file.contentType));
    return {
      path: pagePath,
      files,
      js,
      jsRaw: js.reduce((sum, file) => sum + file.raw, 0),
      jsSent: js.reduce((sum, file) => sum + file.sent, 0),
      sent: files.reduce((sum, file) => sum + file.sent, 0),
      lcpMs: lcp ? Math.round(lcp.time) : null,
      lcpElement: lcp?.element ?? null,
      acceptEncoding,
    };
  } finally {
    await context.close();
  }
}

/** The gzip -9 and brotli sizes of files the page loaded, from the build (what they compress to). */
export function compressedSizes(files: LoadedFile[], dist = WEB_DIST): { gzip: number; brotli: number } {
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    const onDisk = path.join(dist, file.path === '/' || !path.extname(file.path) ? 'index.html' : file.path);
    const content = existsSync(onDisk) && statSync(onDisk).isFile() ? readFileSync(onDisk) : null;
    if (!content) throw new Error(`${file.path} is not in ${dist}`);
    gzip += gzipSize(content);
    brotli += brotliSize(content);
  }
  return { gzip, brotli };
}
