import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { AppState } from '../auth.js';
import type { OpenApiDocument } from './types.js';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * GET /api/openapi.json: the API's OpenAPI document. Public (it is documentation), built on the
 * first request and kept for the life of the process (it changes only with the code), cacheable
 * by browsers and proxies with its ETag.
 */
export function openApiRoutes(build: () => OpenApiDocument): Router<AppState> {
  const router = new Router<AppState>();
  let served: { body: string; etag: string } | undefined;
  router.get(OPENAPI_PATH, (ctx) => {
    if (!served) {
      const body = JSON.stringify(build());
      served = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    }
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.etag = served.etag;
    ctx.type = 'application/json; charset=utf-8';
    // ctx.fresh compares the client's If-None-Match with the ETag only for a 2xx answer.
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = served.body;
  });
  return router;
}
