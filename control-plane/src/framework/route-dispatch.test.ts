import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppDeps, apiRouters } from '../app.js';
import { dispatchByPrefix, literalSegments, routerIndex } from './route-dispatch.js';

/** Routers shaped like the API's: prefixes, parameters, router.use(), a route on a bare prefix. */
function routers(): Router[] {
  const a = new Router({ prefix: '/api' });
  a.get('/things', (ctx) => {
    ctx.body = 'things';
  });
  a.post('/things/:id/start', (ctx) => {
    ctx.body = `start ${ctx.params.id}`;
  });
  const b = new Router({ prefix: '/api/billing' });
  b.use(async (ctx, next) => {
    ctx.set('x-billing', 'yes');
    await next();
  });
  b.get('/balance', (ctx) => {
    ctx.body = 'balance';
  });
  b.put('/balance', (ctx) => {
    ctx.body = 'put balance';
  });
  const c = new Router({ prefix: '/api' });
  c.use(async (ctx, next) => {
    ctx.set('x-c', 'yes');
    await next();
  });
  c.get('/billing/records', (ctx) => {
    ctx.body = 'records';
  });
  c.delete('/things/:id', (ctx) => {
    ctx.body = `deleted ${ctx.params.id}`;
  });
  const d = new Router({ prefix: '/api/admin/users' });
  d.get('/', (ctx) => {
    ctx.body = 'users';
  });
  d.post('/:id/disable', (ctx) => {
    ctx.body = `disable ${ctx.params.id}`;
  });
  const e = new Router();
  e.all('/api/mcp/server', (ctx) => {
    ctx.body = `mcp ${ctx.method}`;
  });
  const f = new Router({ prefix: '/api' });
  f.get('/:anything/echo', (ctx) => {
    ctx.body = `echo ${ctx.params.anything}`;
  });
  return [a, b, c, d, e, f];
}

async function listen(app: Koa): Promise<{ url: string; server: Server }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let chained: { url: string; server: Server };
let dispatched: { url: string; server: Server };

beforeAll(async () => {
  const every = new Koa();
  for (const r of routers()) every.use(r.routes()).use(r.allowedMethods());
  const byPrefix = new Koa();
  byPrefix.use(dispatchByPrefix(routers()));
  chained = await listen(every);
  dispatched = await listen(byPrefix);
});
afterAll(() => {
  chained?.server.close();
  dispatched?.server.close();
});

async function answer(base: string, method: string, path: string) {
  const res = await fetch(base + path, { method });
  return {
    status: res.status,
    allow: res.headers.get('allow'),
    billing: res.headers.get('x-billing'),
    c: res.headers.get('x-c'),
    body: method === 'HEAD' ? '' : await res.text(),
  };
}

describe('dispatching routers by the path’s first segments', () => {
  it('answers every request as the chain of every router does', async () => {
    const paths = [
      '/api/things',
      '/API/Things',
      '/api/things/',
      '/api/things/42/start',
      '/api/things/42',
      '/api/billing/balance',
      '/api/billing/balance/',
      '/api/billing/records',
      '/api/billing/nothing',
      '/api/admin/users',
      '/api/admin/users/',
      '/api/admin/users/7/disable',
      '/api/mcp/server',
      '/api/zzz/echo',
      '/api/things/echo',
      '/api',
      '/api/',
      '/',
      '/login',
      '//api/things',
      '/api/nothing',
    ];
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'PROPFIND'];
    for (const path of paths) {
      for (const method of methods) {
        const want = await answer(chained.url, method, path);
        const got = await answer(dispatched.url, method, path);
        expect(got, `${method} ${path}`).toEqual(want);
      }
    }
  });

  it('reads the literal leading segments of a route', () => {
    expect(literalSegments('/api/containers/:id')).toEqual(['api', 'containers']);
    expect(literalSegments('/api/billing/balance')).toEqual(['api', 'billing', 'balance']);
    expect(literalSegments('/api/admin/users/:id/disable')).toEqual(['api', 'admin', 'users']);
    expect(literalSegments('/api/Admin')).toEqual(['api', 'admin']);
    expect(literalSegments('/api/contain:x')).toEqual(['api']);
    expect(literalSegments('/api/')).toEqual(['api']);
    expect(literalSegments('/:x')).toEqual([]);
    expect(literalSegments(/^\/api/)).toEqual([]);
  });

  it('selects, for a path of each of the API’s routes, every router with a route matching it', () => {
    // The routers only keep their dependencies for later: any object stands in for them here.
    const stand: unknown = new Proxy(() => stand, {
      get: (_, key) => (key === Symbol.toPrimitive ? () => 1 : stand),
      apply: () => stand,
    });
    const all = apiRouters(stand as AppDeps);
    const index = routerIndex(all as unknown as Router<never>[]);
    let checked = 0;
    for (const router of all) {
      for (const layer of router.stack) {
        if (layer.methods.length === 0 || typeof layer.path !== 'string') continue;
        const concrete = layer.path.replace(/:[A-Za-z_]+(\([^)]*\))?[?*+]?/g, '1');
        for (const path of [concrete, `${concrete}/`, concrete.toUpperCase()]) {
          const selected = index.select(path);
          all.forEach((other, i) => {
            if (other.stack.some((l) => l.methods.length > 0 && l.match(path)))
              expect(selected, `${path} (router ${i})`).toContain(i);
          });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
    // Most requests run a few of the routers, not all of them.
    expect(index.select('/api/billing/balance').length).toBeLessThan(all.length / 2);
    expect(index.select('/api/containers').length).toBeLessThan(all.length / 2);
  });
});
