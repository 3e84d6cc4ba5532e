import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { createApp } from '../src/app.js';
import type { RunningControlPlane } from '../src/platform.js';

export interface RouteInfo {
  method: string;
  /** The pattern as declared, e.g. /api/containers/:id/start. */
  path: string;
}

export interface TableRoute extends RouteInfo {
  /** A route of the WebSocket app (koa-websocket's own middleware stack); its method is then 'WS'. */
  ws: boolean;
}

/**
 * Every route of the app's routers, read from them at run time (@koa/router's `stack`): the HTTP
 * app's and the WebSocket app's, HEAD duplicates of GET left out, one entry per method and path.
 */
export function routerTable(cp: RunningControlPlane): TableRoute[] {
  const app = createApp({ ...cp.services, webDist: undefined, log: () => {} });
  const routes = new Map<string, TableRoute>();
  const read = (middlewares: unknown[], ws: boolean) => {
    for (const middleware of middlewares as (Middleware & { router?: Router })[]) {
      for (const layer of middleware.router?.stack ?? []) {
        if (typeof layer.path !== 'string') continue;
        for (const method of layer.methods) {
          if (method === 'HEAD') continue;
          const route = { method: ws ? 'WS' : method, path: layer.path, ws };
          routes.set(`${route.method} ${route.path}`, route);
        }
      }
    }
  };
  read(app.middleware, false);
  read((app as unknown as { ws: { middleware: unknown[] } }).ws.middleware, true);
  return [...routes.values()];
}

/** Every HTTP route the app mounts (routerTable without the WebSockets). */
export function listRoutes(cp: RunningControlPlane): RouteInfo[] {
  return routerTable(cp)
    .filter((r) => !r.ws)
    .map(({ method, path }) => ({ method, path }));
}

/** The route with its parameters filled in. */
export function fillPath(path: string, value: string): string {
  return path.replace(/:[A-Za-z_]+/g, value);
}
