import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';

/**
 * The home page's JavaScript budget and the tools to check it: the import graph of the built
 * console (Vite's manifest), a static server for web/dist that records what it sends, and a
 * browser measurement of JS bytes and Largest Contentful Paint. Shared by
 * test/web-budget.test.ts and bench/web-budget.ts.
 */

export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
/** 170 kB of gzip-compressed JavaScript before the first interaction (kB = 1000 bytes, as Vite prints). */
export const HOME_JS_BUDGET_GZIP = 170_000;
export const HOME_ROUTE_MODULE = 'src/app/routes/home.tsx';

export function gzipSize(content: Buffer): number {
  // Level 9, as Vite's build report computes it.
  return gzipSync(content, { level: 9 }).length;
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
}

export interface BundleSize {
  files: FileSize[];
  raw: number;
  gzip: number;
}

export function sizeOfFiles(files: string[], dist = WEB_DIST): BundleSize {
  const sizes = files.map((file) => {
    const content = readFileSync(path.join(dist, file));
    return { file, raw: content.length, gzip: gzipSize(content) };
  });
  return {
    files: sizes,
    raw: sizes.reduce((sum, size) => sum + size.raw, 0),
    gzip: sizes.reduce((sum, size) => sum + size.gzip, 0),
  };
}

/**
 * The JavaScript `/` runs before it can be used: index.html's entry and its static imports, plus
 * the home route and its imports when the route is split into its own chunk.
 */
export function homePageBundle(dist = WEB_DIST): BundleSize {
  const manifest = readManifest(dist);
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry && chunk.src === 'index.html');
  if (!entry) throw new Error('manifest has no index.html entry');
  const keys = [entry[0]];
  if (manifest[HOME_ROUTE_MODULE]) keys.push(HOME_ROUTE_MODULE);
  return sizeOfFiles(staticClosure(manifest, keys), dist);
}

export interface ServedFile {
  path: string;
  contentType: string;
  raw: number;
  sent: number;
}

export type ApiStub = (method: string, pathname: string) => { status: number; body: unknown } | undefined;

export interface StaticConsole {
  url: string;
  served: ServedFile[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Serves web/dist like a production web server: gzip for text when the browser accepts it,
 * index.html for client-side routes, and /api/* from `api` (404 otherwise).
 */
export async function startStaticConsole(
  options: { dist?: string; api?: ApiStub } = {},
): Promise<StaticConsole> {
  const dist = options.dist ?? WEB_DIST;
  const served: ServedFile[] = [];
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (pathname.startsWith('/api/')) {
      const answer = options.api?.(req.method ?? 'GET', pathname) ?? {
        status: 404,
        body: { detail: '不存在', code: 'NOT_FOUND' },
      };
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.body));
      return;
    }
    let file = path.join(dist, pathname);
    if (!file.startsWith(dist) || !existsSync(file) || !statSync(file).isFile()) {
      file = path.join(dist, 'index.html');
    }
    const contentType = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
    const content = readFileSync(file);
    const compress =
      /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && !/image\/png/.test(contentType);
    const body = compress ? gzipSync(content, { level: 9 }) : content;
    served.push({ path: pathname, contentType, raw: content.length, sent: body.length });
    res.writeHead(200, {
      'Content-Type': contentType,
      'Content-Length': body.length,
      'Cache-Control': 'no-store',
      ...(compress ? { 'Content-Encoding': 'gzip' } : {}),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export interface PageMeasurement {
  path: string;
  js: ServedFile[];
  jsRaw: number;
  jsTransferred: number;
  /** Largest Contentful Paint in ms after navigation start, as Chromium reports it. */
  lcpMs: number | null;
  lcpElement: string | null;
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

/**
 * Loads `pagePath` in a fresh browser context, waits until the network is idle (the page is
 * ready for input) and reports the JavaScript the server sent for it and Chromium's LCP.
 */
export async function measurePage(
  browser: Browser,
  site: StaticConsole,
  pagePath: string,
  options: {
    session?: { token: string; user: { username: string; nickname: string; isAdmin: boolean } };
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
    const first = site.served.length;
    await page.goto(`${site.url}${pagePath}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(300);
    const lcp = await page.evaluate(() => window.__lcp ?? null);
    const js = site.served.slice(first).filter((file) => file.contentType.startsWith('text/javascript'));
    return {
      path: pagePath,
      js,
      jsRaw: js.reduce((sum, file) => sum + file.raw, 0),
      jsTransferred: js.reduce((sum, file) => sum + file.sent, 0),
      lcpMs: lcp ? Math.round(lcp.time) : null,
      lcpElement: lcp?.element ?? null,
    };
  } finally {
    await context.close();
  }
}

/** Canned answers so the signed-in screens render a realistic first view without a control plane. */
export const DEMO_API: ApiStub = (method, pathname) => {
  if (method !== 'GET') return undefined;
  switch (pathname) {
    case '/api/cloud-products':
      return {
        status: 200,
        body: {
          items: [
            {
              id: 1,
              name: 'RTX 4090 × 8（本地）',
              region: '华东一区',
              gpu_type: 'RTX 4090',
              gpu_count: '8/8',
              gpu_available: 8,
              gpu_total: 8,
              cpu_model: 'Intel Xeon Gold 6430',
              cpu_cores: 64,
              memory: '512GB',
              disk_size: '3.84TB',
              price: 1.99,
              no_gpu_price: 0.1,
              server_config: {},
              status: 'available',
            },
          ],
          total: 1,
        },
      };
    case '/api/cloud-products/regions':
      return { status: 200, body: ['华东一区'] };
    case '/api/cloud-products/gpu-types':
      return { status: 200, body: ['RTX 4090'] };
    case '/api/containers':
      return { status: 200, body: { items: [], total: 0 } };
    default:
      return undefined;
  }
};

export const DEMO_SESSION = {
  token: 'budget-demo',
  user: { username: 'demo', nickname: '演示用户', isAdmin: false },
};
