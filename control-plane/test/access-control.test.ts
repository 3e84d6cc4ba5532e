import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';
import { adjustBalance, grantCoupon } from './money.js';
import { addNodeWithProduct, type MarketFixture, purchaseSettled } from './purchase.js';
import { fillPath, listRoutes, type RouteInfo } from './routes.js';

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;

beforeAll(async () => {
  cp = await startTestControlPlane();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'acl-node');
});
afterAll(async () => {
  const rows = await cp.knex('containers').whereNot('status', 'deleted').select('id');
  for (const row of rows) {
    await cp.services.containers
      .destroy({ id: 0, username: 'admin', nickname: null, isAdmin: true }, row.id, { admin: true })
      .catch(() => {});
  }
  await cp?.close();
  await agent?.close();
});

/** Opens a WebSocket and resolves with the code the server closes it with. */
function wsCloseCode(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${cp.url.replace(/^http/, 'ws')}${path}`);
    ws.on('close', (code) => resolve(code));
    ws.on('error', reject);
  });
}

async function user(name: string): Promise<ApiClient> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  return api;
}

/**
 * Everything a user owns that is addressed by an id. Each entry names the routes that take that
 * id (a pattern, so new routes of the resource are covered by themselves), makes one for an owner
 * and snapshots it. When a route needs a valid body to reach its ownership check, give it in
 * `bodies`. New kinds of objects (volumes, orders, invoices …) get a new entry here.
 */
interface OwnedResource {
  name: string;
  routes: RegExp;
  /** WebSocket paths (koa-websocket's own stack) that take the id. */
  websockets?: string[];
  bodies?: Record<string, unknown>;
  create(owner: ApiClient): Promise<string>;
  snapshot(id: string): Promise<unknown>;
}

const RESOURCES: OwnedResource[] = [
  {
    name: 'container',
    // The console's routes and the MCP API's (/api/mcp/containers) address the same containers.
    routes: /^\/api\/(mcp\/)?containers\/:id(\/|$)/,
    websockets: ['/api/containers/ws/:id/logs', '/api/containers/ws/:id/console'],
    bodies: {
      'POST /api/containers/:id/ports': { ports: [15001] },
      'POST /api/containers/:id/mounts': { mounts: [{ source: 'data', target: '/data' }] },
      'POST /api/containers/:id/reset-password': { password: 'Another-pass-123' },
      'POST /api/containers/:id/renew': { duration: 1, payment_method: 'balance' },
      'POST /api/containers/:id/save-image': { name: 'stolen' },
      'POST /api/mcp/containers/:id/reset-password': { password: 'Another-pass-123' },
    },
    create: (owner) => purchaseSettled(cp, owner, market, { instanceName: 'acl' }),
    async snapshot(id) {
      const row = await cp.knex('containers').where({ id }).first();
      const gpus = await cp.knex('gpu_allocations').where({ container_id: id }).orderBy('gpu_uuid');
      const ports = await cp.knex('port_allocations').where({ container_id: id }).orderBy('host_port');
      return { row, gpus, ports };
    },
  },
  {
    name: 'API key',
    routes: /^\/api\/api-keys\/:id(\/|$)/,
    async create(owner) {
      const res = await owner.request<{ id: number }>('POST', '/api/api-keys', { name: 'acl' });
      return String(res.body.id);
    },
    snapshot: (id) =>
      cp
        .knex('api_keys')
        .where({ id: Number(id) })
        .first(),
  },
  {
    name: 'order',
    routes: /^\/api\/orders\/:id(\/|$)/,
    bodies: { 'POST /api/orders/:id/pay': { payment_method: 'balance' } },
    async create(owner) {
      const containerId = await purchaseSettled(cp, owner, market, { instanceName: 'acl-order' });
      const order = await cp.knex('container_orders').where({ container_id: containerId }).first('id');
      return String(order.id);
    },
    snapshot: (id) =>
      cp
        .knex('container_orders')
        .where({ id: Number(id) })
        .first(),
  },
  {
    name: 'invoice',
    routes: /^\/api\/invoices\/:id(\/|$)/,
    bodies: { 'PUT /api/invoices/:id': { status: 'cancelled' } },
    async create(owner) {
      const me = await owner.request<{ username: string }>('GET', '/api/user/info');
      await adjustBalance(cp, me.body.username, 50);
      const containerId = await purchaseSettled(cp, owner, market, {
        instanceName: 'acl-inv',
        billing_type: 'daily',
        total_price: 45.37,
      });
      const order = await cp.knex('container_orders').where({ container_id: containerId }).first('id');
      const res = await owner.request<{ id: number }>('POST', '/api/invoices', {
        order_id: order.id,
        title: '测试公司',
        tax_no: '91110000123456789X',
        amount: 10,
      });
      if (res.status !== 201) throw new Error(`invoice failed: ${JSON.stringify(res.body)}`);
      return String(res.body.id);
    },
    snapshot: (id) =>
      cp
        .knex('invoices')
        .where({ id: Number(id) })
        .first(),
  },
  {
    name: 'coupon',
    routes: /^\/api\/coupons\/:id(\/|$)/,
    async create(owner) {
      const me = await owner.request<{ username: string }>('GET', '/api/user/info');
      const [id] = await grantCoupon(cp, [me.body.username], { amount: 5, minAmount: 10 });
      return String(id);
    },
    snapshot: (id) =>
      cp
        .knex('coupons')
        .where({ id: Number(id) })
        .first(),
  },
  {
    name: 'storage volume',
    routes: /^\/api\/storage\/volumes\/:id(\/|$)/,
    bodies: { 'PUT /api/storage/volumes/:id/rename': { new_name: 'taken' } },
    async create(owner) {
      const res = await owner.request<{ id: number }>('POST', '/api/storage/volumes', {
        name: 'acl',
        path: '/acl',
        node_id: market.nodeId,
      });
      if (res.status !== 201) throw new Error(`volume failed: ${JSON.stringify(res.body)}`);
      return String(res.body.id);
    },
    snapshot: (id) =>
      cp
        .knex('volumes')
        .where({ id: Number(id) })
        .first(),
  },
  {
    name: 'saved image',
    routes: /^\/api\/images\/:id(\/|$)/,
    bodies: { 'PATCH /api/images/:id': { name: 'taken' } },
    // Made as a finished save leaves it (these tests run without a registry).
    async create(owner) {
      const me = await owner.request<{ username: string }>('GET', '/api/user/info');
      const user = await cp.knex('users').where({ username: me.body.username }).first('id');
      const [row] = await cp
        .knex('user_images')
        .insert({ user_id: user.id, name: 'acl', tag: 'latest', status: 'ready', progress: 100 }, ['id']);
      return String(row.id);
    },
    snapshot: (id) =>
      cp
        .knex('user_images')
        .where({ id: Number(id) })
        .first(),
  },
];

/** Routes with an id that address shared objects (the catalogue, the market's offerings). */
const SHARED = [
  /^\/api\/frameworks\//,
  /^\/api\/cloud-products\/:id/,
  // The sandbox payment page: addressed by an unguessable out_trade_no, opened without a session
  // (as a phone scanning the QR code would); it exists only without WeChat Pay credentials.
  /^\/api\/billing\/wechat\/sandbox\/:no/,
];

describe('access control', () => {
  it('every /api/admin route refuses users without the admin flag (403) and anonymous callers (401)', async () => {
    const admin = listRoutes(cp).filter((r) => r.path.startsWith('/api/admin'));
    expect(admin.length).toBeGreaterThan(10);
    const normal = await user('acl_normal');
    const anonymous = new ApiClient(cp.url);
    for (const route of admin) {
      const path = fillPath(route.path, '1');
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const asUser = await normal.request<{ detail: string }>(route.method, path, body);
      expect(asUser.status, `${route.method} ${route.path} as a user`).toBe(403);
      expect(asUser.body.detail).toBe('需要管理员权限');
      expect(
        (await anonymous.request(route.method, path, body)).status,
        `${route.method} ${route.path}`,
      ).toBe(401);
    }
  });

  it('every route that takes the id of a user’s object is in the matrix below', () => {
    const uncovered = listRoutes(cp).filter(
      (r: RouteInfo) =>
        r.path.includes('/:') &&
        !r.path.startsWith('/api/admin') &&
        !SHARED.some((p) => p.test(r.path)) &&
        !RESOURCES.some((res) => res.routes.test(r.path)),
    );
    expect(uncovered, 'add these routes to RESOURCES (or SHARED when nobody owns the object)').toEqual([]);
  });

  for (const resource of RESOURCES) {
    it(`another user’s ${resource.name} answers 404 on every route and is left unchanged`, async () => {
      const owner = await user(`owner_${RESOURCES.indexOf(resource)}`);
      const other = await user(`other_${RESOURCES.indexOf(resource)}`);
      const id = await resource.create(owner);
      const before = await resource.snapshot(id);
      const routes = listRoutes(cp).filter((r) => resource.routes.test(r.path));
      expect(routes.length).toBeGreaterThan(0);
      for (const route of routes) {
        const key = `${route.method} ${route.path}`;
        const body =
          resource.bodies?.[key] ?? (route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
        const res = await other.request<{ detail: string }>(route.method, fillPath(route.path, id), body);
        expect(res.status, `${key} by another user: ${JSON.stringify(res.body)}`).toBe(404);
      }
      for (const path of resource.websockets ?? []) {
        const code = await wsCloseCode(
          `${fillPath(path, id)}?token=${encodeURIComponent(other.token ?? '')}`,
        );
        expect(code, `${path} by another user`).toBe(4404);
      }
      expect(await resource.snapshot(id)).toEqual(before);
      // The owner still reaches it (the 404s above are about ownership, not a broken fixture).
      const mine = routes.find((r) => r.method === 'GET') ?? routes[0];
      if (mine && mine.method === 'GET') {
        expect((await owner.request('GET', fillPath(mine.path, id))).status).toBe(200);
      }
    });
  }

  it('the admin reaches the admin container routes for anyone’s container', async () => {
    const admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const list = await admin.request<{ total: number }>('GET', '/api/admin/containers');
    expect(list.status).toBe(200);
    expect(list.body.total).toBeGreaterThan(0);
  });
});
