import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { createApp } from '../src/app.js';
import type { RunningControlPlane } from '../src/platform.js';

export interface RouteInfo {
  method: string;
  /** The pattern as declared, e.g. /api/containers/:id/start. */
  path: string;
}

/** Every HTTP route the app mounts, read from its routers (HEAD duplicates of GET left out). */
export function listRoutes(cp: RunningControlPlane): RouteInfo[] {
  const app = createApp({ ...cp.services, webDist: undefined, log: () => {} });
  const routes: RouteInfo[] = [];
  for (const middleware of app.middleware as (Middleware & { router?: Router })[]) {
    const router = middleware.router;
    if (!router) continue;
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string') continue;
      for (const method of layer.methods) {
        if (method !== 'HEAD') routes.push({ method, path: layer.path });
      }
    }
  }
  const seen = new Set<string>();
  return routes.filter((r) => {
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The route with its parameters filled in. */
export function fillPath(path: string, value: string): string {
  return path.replace(/:[A-Za-z_]+/g, value);
}
