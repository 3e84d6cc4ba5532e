import Router from '@koa/router';
import type { AppState } from '../../framework/auth.js';
import type { PlatformRegistry } from './registry-service.js';

/**
 * GET /api/registry/token: the token server of the Docker token authentication protocol for the
 * embedded registry. Docker sends the grant an agent gave it as basic auth, `service` and the
 * `scope`s it needs; the answer is a JWT for what the grant allows of them. No session: Docker
 * engines call it, not users.
 */
export function registryRoutes(registry: Pick<PlatformRegistry, 'issueToken'>): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/registry' });
  router.get('/token', (ctx) => {
    const { scope, service } = ctx.query;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = registry.issueToken({
      authorization: ctx.get('authorization') || undefined,
      service: typeof service === 'string' ? service : undefined,
      scopes: scope === undefined ? [] : Array.isArray(scope) ? scope : [scope],
    });
  });
  return router;
}
