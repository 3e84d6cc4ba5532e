// The IDOR matrix (issue "hardening", point 9), generated from the app's router table: every
// route whose path takes a parameter is read from the routers at run time (@koa/router's
// `stack`, the HTTP app's and the WebSocket app's), so a route added tomorrow is called here
// without anyone listing it. User A owns one of each kind of object; each route is then called
// with A's ids by an anonymous caller, by user B's session and by user B's API key (X-API-Key),
// and must answer 401, 403 or 404 — never 2xx, never 5xx — and leave A's objects, A's balance
// and A's running container as they were. A route whose parameter names nothing a user owns
// must be in ALLOWED with the reason; a route that is neither fails the first test.
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { ApiClient, startTestControlPlane } from './harness.js';
import { adjustBalance, balanceAndLedger, grantCoupon } from './money.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseSettled } from './purchase.js';
import { routerTable, type TableRoute } from './routes.js';

type Route = TableRoute;

const key = (r: Route) => `${r.method} ${r.path}`;
const takesParam = (r: Route) => /\/:[A-Za-z_]/.test(r.path);
const isAdmin = (r: Route) => r.path.startsWith('/api/admin');
const fill = (path: string, value: string) => path.replace(/:[A-Za-z_]+/g, value);

/**
 * Routes whose parameter addresses nothing a user owns, with the reason. They are not called
 * with B's credentials (some of them would rightly succeed, e.g. a purchase on a public product).
 */
const ALLOWED: { route: RegExp; reason: string }[] = [
  {
    route: /^\/api\/frameworks\/:(id|fid)(\/|$)/,
    reason: 'the public catalogue: frameworks and their versions are the same for every user',
  },
  {
    route: /^\/api\/cloud-products\/:id(\/|$)/,
    reason:
      'the market: a cloud product (server configuration) is offered to every user; a purchase on it makes an object of the buyer',
  },
  {
    route: /^\/api\/billing\/wechat\/sandbox\/:no(\/|$)/,
    reason:
      'the WeChat Pay sandbox page, opened without a session as a phone scanning the QR code would; addressed by an unguessable out_trade_no and served only without WeChat Pay credentials',
  },
];

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let routes: Route[];
const anonymous = () => new ApiClient(cp.url);
let ownerA: ApiClient;
let userB: ApiClient;
let keyB: string;
/** A's objects, by kind. */
const ids: Record<string, string> = {};

/** A's objects: each kind names the routes that take its id, and bodies that pass validation. */
interface OwnedKind {
  name: string;
  routes: RegExp;
  id: () => string;
  bodies?: Record<string, unknown>;
}

const OWNED: OwnedKind[] = [
  {
    name: 'container',
    // The console's routes, its WebSockets and the MCP API's address the same containers.
    routes: /^\/api\/(mcp\/)?containers\/(ws\/)?:id(\/|$)/,
    id: () => ids.container as string,
    bodies: {
      'POST /api/containers/:id/ports': { ports: [15001] },
      'POST /api/containers/:id/mounts': { mounts: [{ source: 'data', target: '/data' }] },
      'POST /api/containers/:id/reset-password': { password: 'Another-pass-123' },
      'POST /api/containers/:id/renew': { duration: 1, payment_method: 'balance' },
      'POST /api/containers/:id/save-image': { name: 'stolen' },
      'POST /api/mcp/containers/:id/reset-password': { password: 'Another-pass-123' },
    },
  },
  { name: 'API key', routes: /^\/api\/api-keys\/:id(\/|$)/, id: () => ids.apiKey as string },
  {
    name: 'order',
    routes: /^\/api\/orders\/:id(\/|$)/,
    id: () => ids.order as string,
    bodies: { 'POST /api/orders/:id/pay': { payment_method: 'balance' } },
  },
  {
    name: 'invoice',
    routes: /^\/api\/invoices\/:id(\/|$)/,
    id: () => ids.invoice as string,
    bodies: { 'PUT /api/invoices/:id': { status: 'cancelled' } },
  },
  { name: 'coupon', routes: /^\/api\/coupons\/:id(\/|$)/, id: () => ids.coupon as string },
  {
    name: 'storage volume',
    routes: /^\/api\/storage\/volumes\/:id(\/|$)/,
    id: () => ids.volume as string,
    bodies: { 'PUT /api/storage/volumes/:id/rename': { new_name: 'taken' } },
  },
  {
    name: 'saved image',
    routes: /^\/api\/images\/:id(\/|$)/,
    id: () => ids.image as string,
    bodies: { 'PATCH /api/images/:id': { name: 'taken' } },
  },
];

/** The id an admin route is called with: A's object of that kind where A has one. */
function adminId(path: string): string {
  const byPrefix: [RegExp, () => string][] = [
    [/^\/api\/admin\/users\//, () => ids.user as string],
    [/^\/api\/admin\/containers\//, () => ids.container as string],
    [/^\/api\/admin\/invoices\//, () => ids.invoice as string],
    [/^\/api\/admin\/coupons\//, () => ids.coupon as string],
    [/^\/api\/admin\/nodes\//, () => String(market.nodeId)],
    [/^\/api\/admin\/products\//, () => String(market.productId)],
    [/^\/api\/admin\/frameworks\//, () => String(market.frameworkId)],
    [/^\/api\/admin\/framework-versions\//, () => String(market.versionId)],
  ];
  return byPrefix.find(([p]) => p.test(path))?.[1]() ?? '1';
}

/** A row without the fields the meter moves on its own while a container runs. */
function unmetered<T extends Record<string, unknown> | undefined>(row: T, fields: string[]) {
  if (!row) return row;
  return Object.fromEntries(Object.entries(row).filter(([name]) => !fields.includes(name)));
}

/**
 * Everything of A's the calls must leave as they were. The settlement job meters A's running
 * hourly container meanwhile (a ledger expense with billed seconds, the container's cost, the
 * usage order's amount): that is the platform's own doing, so the balance is compared before
 * the meter's entries and every other ledger entry must be the same.
 */
async function snapshotOfA() {
  const userId = Number(ids.user);
  const container = await cp.knex('containers').where({ id: ids.container }).first();
  const ledger = await cp.knex('ledger_entries').where({ user_id: userId }).orderBy('id');
  const metered = ledger.filter((e) => e.billed_seconds !== null && e.kind === 'expense');
  const money = await balanceAndLedger(cp, 'idor_a');
  const meteredFen = metered.reduce((sum, e) => sum + Number(e.amount_fen), 0);
  return {
    container: unmetered(container, ['total_cost_fen', 'updated_at']),
    containerStatus: container?.status,
    gpus: await cp.knex('gpu_allocations').where({ container_id: ids.container }).orderBy('gpu_uuid'),
    ports: await cp.knex('port_allocations').where({ container_id: ids.container }).orderBy('host_port'),
    apiKey: await cp
      .knex('api_keys')
      .where({ id: Number(ids.apiKey) })
      .first(),
    apiKeys: Number((await cp.knex('api_keys').where({ user_id: userId }).count())[0]?.count),
    order: unmetered(
      await cp
        .knex('container_orders')
        .where({ id: Number(ids.order) })
        .first(),
      ['amount_fen', 'billed_seconds', 'updated_at'],
    ),
    invoice: await cp
      .knex('invoices')
      .where({ id: Number(ids.invoice) })
      .first(),
    coupon: await cp
      .knex('coupons')
      .where({ id: Number(ids.coupon) })
      .first(),
    volume: await cp
      .knex('volumes')
      .where({ id: Number(ids.volume) })
      .first(),
    image: await cp
      .knex('user_images')
      .where({ id: Number(ids.image) })
      .first(),
    balanceBeforeMetering: money.balanceFen - meteredFen,
    balanceIsLedger: money.balanceFen === money.ledgerFen,
    ledger: ledger.filter((e) => !metered.includes(e)).map((e) => unmetered(e, ['balance_after_fen'])),
    containers: await cp.knex('containers').where({ user_id: userId }).orderBy('id').select('id', 'status'),
  };
}

/** A WebSocket's close code (the routes answer an upgrade with 44xx closes, not HTTP statuses). */
function wsCloseCode(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${cp.url.replace(/^http/, 'ws')}${path}`);
    ws.on('open', () => {});
    ws.on('message', () => {});
    ws.on('close', (code) => resolve(code));
    ws.on('error', reject);
  });
}

const CALLERS = ['anonymous', "B's session", "B's API key"] as const;
type Caller = (typeof CALLERS)[number];

async function call(caller: Caller, route: Route, path: string, body: unknown) {
  if (route.ws) {
    const token = caller === "B's session" ? `?token=${encodeURIComponent(userB.token ?? '')}` : '';
    // A browser cannot set headers on a WebSocket: an API key can only travel as the token.
    const asKey = caller === "B's API key" ? `?token=${encodeURIComponent(keyB)}` : '';
    const code = await wsCloseCode(`${path}${token}${asKey}`);
    return { status: code - 4000, body: `close ${code}` };
  }
  if (caller === 'anonymous') return anonymous().request(route.method, path, body);
  if (caller === "B's session") return userB.request(route.method, path, body);
  return anonymous().request(route.method, path, body, { 'X-API-Key': keyB });
}

beforeAll(async () => {
  cp = await startTestControlPlane();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'idor-node');
  routes = routerTable(cp);

  ownerA = new ApiClient(cp.url);
  await ownerA.register('idor_a');
  userB = new ApiClient(cp.url);
  await userB.register('idor_b');
  await adjustBalance(cp, 'idor_a', 100);

  ids.user = String((await cp.knex('users').where({ username: 'idor_a' }).first('id')).id);
  ids.container = await purchaseSettled(cp, ownerA, market, { instanceName: 'idor-a' });
  const started = await cp.knex('containers').where({ id: ids.container }).first();
  if (started.status !== 'running')
    throw new Error(`A's container did not start: ${JSON.stringify(started)}`);
  ids.order = String(
    (await cp.knex('container_orders').where({ container_id: ids.container }).first('id')).id,
  );
  // An invoice needs a paid (prepaid) order.
  const daily = await purchaseSettled(cp, ownerA, market, {
    instanceName: 'idor-inv',
    billing_type: 'daily',
    total_price: 45.37,
  });
  const dailyOrder = await cp.knex('container_orders').where({ container_id: daily }).first('id');
  const invoice = await ownerA.request<{ id: number }>('POST', '/api/invoices', {
    order_id: dailyOrder.id,
    title: '测试公司',
    tax_no: '91110000123456789X',
    amount: 10,
  });
  if (invoice.status !== 201) throw new Error(`invoice failed: ${JSON.stringify(invoice.body)}`);
  ids.invoice = String(invoice.body.id);
  const key = await ownerA.request<{ id: number }>('POST', '/api/api-keys', { name: 'idor-a' });
  ids.apiKey = String(key.body.id);
  ids.coupon = String((await grantCoupon(cp, ['idor_a'], { amount: 5, minAmount: 10 }))[0]);
  const volume = await ownerA.request<{ id: number }>('POST', '/api/storage/volumes', {
    name: 'idora',
    path: '/idora',
    node_id: market.nodeId,
  });
  if (volume.status !== 201) throw new Error(`volume failed: ${JSON.stringify(volume.body)}`);
  ids.volume = String(volume.body.id);
  // A saved image as a finished save leaves it (this suite runs without a registry).
  const [image] = await cp
    .knex('user_images')
    .insert({ user_id: Number(ids.user), name: 'idora', tag: 'latest', status: 'ready', progress: 100 }, [
      'id',
    ]);
  ids.image = String(image.id);

  const keyOfB = await userB.request<{ key: string }>('POST', '/api/api-keys', { name: 'idor-b' });
  keyB = keyOfB.body.key;
}, 120_000);

afterAll(async () => {
  if (cp) await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

describe('IDOR matrix (generated from the router table)', () => {
  it('every route that takes a parameter is either called below with A’s ids or allowed with a reason', () => {
    const withParam = routes.filter(takesParam);
    expect(withParam.length).toBeGreaterThan(30);
    const uncovered = withParam
      .filter((r) => !isAdmin(r))
      .filter((r) => !OWNED.some((k) => k.routes.test(r.path)) && !ALLOWED.some((a) => a.route.test(r.path)))
      .map(key);
    expect(uncovered, 'add these routes to OWNED (a user’s object) or ALLOWED (with the reason)').toEqual([]);
    // No route is both, and no entry of either list is stale.
    const both = withParam
      .filter((r) => OWNED.some((k) => k.routes.test(r.path)) && ALLOWED.some((a) => a.route.test(r.path)))
      .map(key);
    expect(both).toEqual([]);
    for (const kind of OWNED)
      expect(
        withParam.some((r) => kind.routes.test(r.path)),
        kind.name,
      ).toBe(true);
    for (const allowed of ALLOWED)
      expect(
        withParam.some((r) => allowed.route.test(r.path)),
        allowed.reason,
      ).toBe(true);
    // The WebSocket routes are read from the table too.
    expect(routes.filter((r) => r.ws).map(key)).toEqual(
      expect.arrayContaining(['WS /api/containers/ws/:id/logs', 'WS /api/containers/ws/:id/console']),
    );
  });

  it('B’s credentials work (the refusals below are about A’s objects, not a broken caller)', async () => {
    expect((await userB.request('GET', '/api/user/info')).status).toBe(200);
    const viaKey = await anonymous().request<{ username: string; via: string }>(
      'GET',
      '/api/mcp/whoami',
      undefined,
      {
        'X-API-Key': keyB,
      },
    );
    expect(viaKey.body).toMatchObject({ username: 'idor_b', via: 'api_key' });
  });

  it('every /api/admin route refuses anonymous callers, B’s session and B’s API key', async () => {
    const admin = routes.filter((r) => isAdmin(r) && !r.ws);
    expect(admin.length).toBeGreaterThan(10);
    const before = await snapshotOfA();
    const answers: string[] = [];
    for (const route of admin) {
      const path = fill(route.path, adminId(route.path));
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      for (const caller of CALLERS) {
        const res = await call(caller, route, path, body);
        const expected = caller === "B's session" ? 403 : 401;
        if (res.status !== expected)
          answers.push(`${key(route)} as ${caller}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(answers).toEqual([]);
    expect(await snapshotOfA()).toEqual(before);
  });

  it('every route with A’s ids answers 401/403/404 to anonymous callers, B’s session and B’s API key', async () => {
    const before = await snapshotOfA();
    expect(before.containerStatus).toBe('running');
    const owned = routes.filter(
      (r) => takesParam(r) && !isAdmin(r) && !ALLOWED.some((a) => a.route.test(r.path)),
    );
    const problems: string[] = [];
    let calls = 0;
    for (const route of owned) {
      const kind = OWNED.find((k) => k.routes.test(route.path));
      if (!kind) throw new Error(`${key(route)} is not classified`);
      const path = fill(route.path, kind.id());
      const body =
        kind.bodies?.[key(route)] ?? (route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      for (const caller of CALLERS) {
        const res = await call(caller, route, path, body);
        calls += 1;
        if (![401, 403, 404].includes(res.status))
          problems.push(
            `${key(route)} (${kind.name}) as ${caller}: ${res.status} ${JSON.stringify(res.body)}`,
          );
      }
    }
    expect(problems, 'a foreign object must be refused (401/403/404), never served or broken').toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(owned.length * CALLERS.length);
    // A's objects, A's money and A's running container are as they were.
    const after = await snapshotOfA();
    expect(after).toEqual(before);
    expect(after.containerStatus).toBe('running');
    const docker = new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });
    const inspect = await docker.getContainer(`gpucloud-${ids.container}`).inspect();
    expect(inspect.State.Running).toBe(true);
  });

  it('A still reaches each of A’s objects (the refusals were about ownership, not broken fixtures)', async () => {
    for (const kind of OWNED) {
      const get = routes.find(
        (r) => !r.ws && r.method === 'GET' && kind.routes.test(r.path) && /:id$/.test(r.path),
      );
      if (!get) continue;
      const res = await ownerA.request('GET', fill(get.path, kind.id()));
      expect(res.status, `${key(get)} by its owner`).toBe(200);
    }
  });
});
