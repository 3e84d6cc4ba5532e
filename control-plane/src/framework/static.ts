import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import path from 'node:path';
import Koa, { type Context, type Next } from 'koa';

/** A file of the built console, read once, with the compressed copies the build wrote beside it. */
interface ConsoleFile {
  /** The extension: Koa's content type for it (`.js` → application/javascript; charset=utf-8). */
  ext: string;
  lastModified: string;
  variants: {
    identity: Variant;
    br?: Variant;
    gzip?: Variant;
  };
}

interface Variant {
  body: Buffer;
  etag: string;
}

const YEAR_SECONDS = 365 * 24 * 3600;
/** What koa-send answered before: fingerprinted assets forever, the rest revalidated. */
const ASSET_CACHE = `max-age=${YEAR_SECONDS},immutable`;
const PAGE_CACHE = 'max-age=0';
const COMPRESSED = [
  { ext: '.br', encoding: 'br' },
  { ext: '.gz', encoding: 'gzip' },
] as const;

function variant(body: Buffer, suffix: string): Variant {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return { body, etag: `"${hash}${suffix}"` };
}

/** Every file under `root` by its URL path (`/assets/x.js`), hidden ones (.vite/) left out. */
function readTree(root: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  const walk = (dir: string, urlPath: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      const url = `${urlPath}/${entry.name}`;
      if (entry.isDirectory()) {
        walk(full, url);
        continue;
      }
      if (!entry.isFile()) continue;
      const body = readFileSync(full);
      const file: ConsoleFile = {
        ext: path.extname(entry.name),
        lastModified: statSync(full).mtime.toUTCString(),
        variants: { identity: variant(body, '') },
      };
      for (const c of COMPRESSED) {
        if (!existsSync(full + c.ext)) continue;
        file.variants[c.encoding] = variant(readFileSync(full + c.ext), `-${c.encoding}`);
      }
      files.set(url, file);
    }
  };
  walk(root, '');
  return files;
}

function decode(p: string): string | undefined {
  try {
    return decodeURIComponent(p);
  } catch {
    return undefined;
  }
}

/** Koa's Content-Type for a file extension (what `ctx.type = ext` sets), once per extension. */
const contentTypes = new Map<string, string>();
function contentTypeOf(ext: string): string {
  let type = contentTypes.get(ext);
  if (type === undefined) {
    const req = new IncomingMessage(new Socket());
    const ctx = new Koa().createContext(req, new ServerResponse(req));
    ctx.type = ext;
    type = String(ctx.response.get('Content-Type') || 'application/octet-stream');
    contentTypes.set(ext, type);
  }
  return type;
}

/**
 * The pages the build prerendered (web/build/prerender.ts) by the path they answer:
 * /pages/index.html is `/`, /pages/login.html is `/login`. Every other client-side route gets the
 * empty index.html, which the browser renders itself.
 */
function prerenderedPages(files: Map<string, ConsoleFile>): Map<string, ConsoleFile> {
  const pages = new Map<string, ConsoleFile>();
  for (const [url, file] of files) {
    const match = /^\/pages(\/.+)\.html$/.exec(url);
    if (match?.[1]) pages.set(match[1] === '/index' ? '/' : match[1], file);
  }
  return pages;
}

/** A path that is the console's (not the protocol paths /api/*, /.well-known/*, /install/*). */
const consolePath = (p: string) =>
  !(p.startsWith('/api/') || p === '/api' || p.startsWith('/.well-known/') || p.startsWith('/install/'));

/**
 * The built console, read once into memory: index.html for `/` and for every path that is no
 * file (client-side routes), except the protocol paths (/api/*, /.well-known/*), which answer JSON
 * further on, and /assets/*, where an unknown file is a JSON 404. A file the build also wrote as
 * `.br` / `.gz` is answered compressed to a client that accepts it (Vary: Accept-Encoding); every
 * answer has an ETag (If-None-Match → 304); /assets/* (fingerprinted names) are cached for a
 * year, immutable.
 *
 * `middleware` answers through Koa; `answer` answers the same on the bare `http` response, before
 * Koa (app.ts's fast path), for what is a file or a client-side route.
 */
export interface ConsoleSite {
  middleware(ctx: Context, next: Next): Promise<unknown>;
  /**
   * Answers a GET or HEAD of a console path on the bare response, with `head` (name, value pairs)
   * among its headers; false, having written nothing, where it is no such request (then Koa's
   * middleware answers it: an unknown asset).
   */
  answer(req: IncomingMessage, res: ServerResponse, path: string, head: [string, string][]): boolean;
}

export function consoleSite(root: string): ConsoleSite {
  const indexPath = path.join(root, 'index.html');
  if (!existsSync(indexPath))
    throw new Error(`console build not found: ${indexPath} (run npm run build -w @gpucloud/web)`);
  const files = readTree(root);
  const index = files.get('/index.html') as ConsoleFile;
  for (const file of files.values()) contentTypeOf(file.ext);
  const pages = prerenderedPages(files);
  /** The file a console path answers; undefined for an unknown asset. */
  const fileFor = (p: string, isAsset: boolean): ConsoleFile | undefined => {
    const decoded = p.includes('%') ? decode(p) : p;
    const file =
      decoded === undefined
        ? undefined
        : (pages.get(decoded) ?? files.get(decoded === '/' ? '/index.html' : decoded));
    return file ?? (isAsset ? undefined : index);
  };
  return {
    async middleware(ctx, next) {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      const p = ctx.path;
      if (!consolePath(p)) return next();
      const isAsset = p.startsWith('/assets/');
      const file = fileFor(p, isAsset);
      if (!file) {
        ctx.status = 404;
        ctx.body = { detail: '资源不存在', code: 'NOT_FOUND' };
        return;
      }
      send(ctx, file, isAsset);
    },
    answer(req, res, p, head) {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !consolePath(p)) return false;
      const isAsset = p.startsWith('/assets/');
      const file = fileFor(p, isAsset);
      if (!file) return false;
      const { v, encoding, vary } = pick(file, req.headers['accept-encoding']);
      const headers: Record<string, string | number> = {};
      for (const [name, value] of head) headers[name] = value;
      if (vary) headers.Vary = 'Accept-Encoding';
      headers['Cache-Control'] = isAsset ? ASSET_CACHE : PAGE_CACHE;
      headers['Last-Modified'] = file.lastModified;
      headers.ETag = v.etag;
      if (encoding) headers['Content-Encoding'] = encoding;
      if (matches(req.headers['if-none-match'], v.etag)) {
        res.writeHead(304, headers).end();
        return true;
      }
      headers['Content-Type'] = contentTypeOf(file.ext);
      headers['Content-Length'] = v.body.length;
      res.writeHead(200, headers);
      if (req.method === 'HEAD') res.end();
      else res.end(v.body);
      return true;
    },
  };
}

/** Serves the built console from memory through Koa (see consoleSite). */
export function serveConsole(root: string) {
  return consoleSite(root).middleware;
}

/**
 * The q-value the client gives an encoding (0 = refused), from Accept-Encoding; `*` stands for
 * any encoding not named.
 */
export function acceptance(header: string, encoding: string): number {
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const value = Number.isFinite(q) ? q : 0;
    if (name.trim() === encoding) return value;
    if (name.trim() === '*') star = value;
  }
  return star ?? 0;
}

/** Brotli where accepted, else gzip, else the file itself (our preference, not the header's order). */
function pick(
  file: ConsoleFile,
  accepted: string | undefined,
): { v: Variant; encoding?: 'br' | 'gzip'; vary: boolean } {
  const { br, gzip, identity } = file.variants;
  if (!br && !gzip) return { v: identity, vary: false };
  if (!accepted) return { v: identity, vary: true };
  if (br && acceptance(accepted, 'br') > 0) return { v: br, encoding: 'br', vary: true };
  if (gzip && acceptance(accepted, 'gzip') > 0) return { v: gzip, encoding: 'gzip', vary: true };
  return { v: identity, vary: true };
}

/** Whether If-None-Match names this ETag (weak or strong). */
export function matches(header: string | undefined, etag: string): boolean {
  return Boolean(header?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag));
}

function send(ctx: Context, file: ConsoleFile, isAsset: boolean): void {
  const { v, encoding, vary } = pick(file, ctx.get('accept-encoding') || undefined);
  if (vary) ctx.vary('Accept-Encoding');
  ctx.set('Cache-Control', isAsset ? ASSET_CACHE : PAGE_CACHE);
  ctx.set('Last-Modified', file.lastModified);
  ctx.set('ETag', v.etag);
  ctx.type = file.ext;
  if (encoding) ctx.set('Content-Encoding', encoding);
  if (matches(ctx.get('if-none-match') || undefined, v.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.body = v.body;
}
