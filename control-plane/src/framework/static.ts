import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';
import send from 'koa-send';

/**
 * Serves the built console; unknown GET paths get index.html (client-side routes), except the
 * protocol paths (/api/*, /.well-known/*), which answer JSON further on.
 */
export function serveConsole(root: string) {
  const index = path.join(root, 'index.html');
  if (!existsSync(index))
    throw new Error(`console build not found: ${index} (run npm run build -w @gpucloud/web)`);
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/api/') || ctx.path === '/api' || ctx.path.startsWith('/.well-known/'))
      return next();
    const isAsset = ctx.path.startsWith('/assets/');
    try {
      const served = await send(ctx, ctx.path, {
        root,
        index: 'index.html',
        immutable: isAsset,
        maxage: isAsset ? 365 * 24 * 3600_000 : 0,
        gzip: true,
        brotli: true,
      });
      if (served) return;
    } catch (err) {
      if (
        !(
          typeof err === 'object' &&
          err !== null &&
          'status' in err &&
          (err as { status: number }).status === 404
        )
      )
        throw err;
    }
    if (isAsset) return next();
    await send(ctx, 'index.html', { root });
  };
}
