import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';

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

/**
 * Serves the built console from memory (read once here, at start): index.html for `/` and for
 * every path that is no file (client-side routes), except the protocol paths (/api/*,
 * /.well-known/*), which answer JSON further on, and /assets/*, where an unknown file is a JSON
 * 404. A file the build also wrote as `.br` / `.gz` is answered compressed to a client that
 * accepts it (Vary: Accept-Encoding); every answer has an ETag (If-None-Match → 304); /assets/*
 * (fingerprinted names) are cached for a year, immutable.
 */
export function serveConsole(root: string) {
  const indexPath = path.join(root, 'index.html');
  if (!existsSync(indexPath))
    throw new Error(`console build not found: ${indexPath} (run npm run build -w @gpucloud/web)`);
  const files = readTree(root);
  const index = files.get('/index.html') as ConsoleFile;
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const p = ctx.path;
    if (p.startsWith('/api/') || p === '/api' || p.startsWith('/.well-known/')) return next();
    const isAsset = p.startsWith('/assets/');
    const decoded = p.includes('%') ? decode(p) : p;
    let file = decoded === undefined ? undefined : files.get(decoded === '/' ? '/index.html' : decoded);
    if (!file) {
      if (isAsset) {
        ctx.status = 404;
        ctx.body = { detail: '资源不存在', code: 'NOT_FOUND' };
        return;
      }
      file = index;
    }
    send(ctx, file, isAsset);
  };
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
function pick(ctx: Context, file: ConsoleFile): { v: Variant; encoding?: 'br' | 'gzip' } {
  const { br, gzip, identity } = file.variants;
  if (!br && !gzip) return { v: identity };
  ctx.vary('Accept-Encoding');
  const accepted = ctx.get('accept-encoding');
  if (!accepted) return { v: identity };
  if (br && acceptance(accepted, 'br') > 0) return { v: br, encoding: 'br' };
  if (gzip && acceptance(accepted, 'gzip') > 0) return { v: gzip, encoding: 'gzip' };
  return { v: identity };
}

function send(ctx: Context, file: ConsoleFile, isAsset: boolean): void {
  const { v, encoding } = pick(ctx, file);
  ctx.set('Cache-Control', isAsset ? ASSET_CACHE : PAGE_CACHE);
  ctx.set('Last-Modified', file.lastModified);
  ctx.set('ETag', v.etag);
  ctx.type = file.ext;
  if (encoding) ctx.set('Content-Encoding', encoding);
  const match = ctx.get('if-none-match');
  if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === v.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.body = v.body;
}
