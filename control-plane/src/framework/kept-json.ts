// A JSON reply kept in memory between changes (the market's list): its bytes, ETag and gzip are
// made once, however many requests it answers. A client that has it (If-None-Match) gets a 304;
// one that accepts gzip gets it compressed (a thousand products are ~360 KB of JSON, ~10% gzipped).
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { ParameterizedContext } from 'koa';
import { acceptance, matches } from './static.js';

const gzipAsync = promisify(gzip);
/** Smaller replies are sent as they are: compressing them saves less than it costs. */
const COMPRESS_FROM_BYTES = 1024;

export class KeptJson {
  readonly body: Buffer;
  readonly etag: string;
  private gzipped: Promise<Buffer> | undefined;

  constructor(value: unknown) {
    this.body = Buffer.from(JSON.stringify(value));
    this.etag = `"${createHash('sha256').update(this.body).digest('base64url').slice(0, 27)}"`;
  }

  /** Whether the reply is sent compressed to clients that accept gzip. */
  get compressible(): boolean {
    return this.body.length >= COMPRESS_FROM_BYTES;
  }

  /** The gzipped body, made on the first call (off the event loop, in zlib's thread pool). */
  gzip(): Promise<Buffer> {
    this.gzipped ??= gzipAsync(this.body, { level: 6 });
    return this.gzipped;
  }
}

/**
 * Answers with a kept reply: 304 where If-None-Match names it, else its body, gzipped where the
 * client accepts that. `cacheControl` says how long a client may use it without asking again.
 */
export async function sendKept(
  ctx: ParameterizedContext<unknown>,
  kept: KeptJson,
  cacheControl = 'private, no-cache',
): Promise<void> {
  const gzipped = kept.compressible && acceptance(ctx.get('accept-encoding'), 'gzip') > 0;
  // Each encoding is a representation of its own, with an ETag of its own.
  const etag = gzipped ? `${kept.etag.slice(0, -1)}-gzip"` : kept.etag;
  if (kept.compressible) ctx.vary('Accept-Encoding');
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', etag);
  ctx.type = 'application/json; charset=utf-8';
  if (matches(ctx.get('if-none-match') || undefined, etag)) {
    ctx.status = 304;
    return;
  }
  if (gzipped) {
    const body = await kept.gzip();
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = body;
  } else {
    ctx.body = kept.body;
  }
}
