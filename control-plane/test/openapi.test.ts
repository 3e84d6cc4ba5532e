// The OpenAPI document (GET /api/openapi.json, src/openapi.ts) against the running app: every
// route of the app's routers (HTTP and WebSocket, read from them at run time) has an operation and
// every operation a route; the document is valid OpenAPI 3.1 whose schemas all compile; what it
// says about API keys is what the server does; and live replies pass the document's schemas.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_PATH } from '../src/framework/fast-path.js';
import { buildOpenApiDocument, OPENAPI_VERSION } from '../src/framework/openapi/document.js';
import type { OpenApiDocument, OpenApiOperation } from '../src/framework/openapi/types.js';
import { API_ROUTE_GROUPS } from '../src/openapi.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { ApiClient, startTestControlPlane } from './harness.js';
import { adjustBalance } from './money.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseSettled } from './purchase.js';
import { routerTable, type TableRoute } from './routes.js';

/** The methods an OpenAPI path item can name (HEAD is GET's, as in the router table). */
const OPENAPI_METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE']);
const DOC_ID = 'https://gpucloud.test/openapi.json';

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let user: ApiClient;
let apiKey: string;
let containerId: string;
let doc: OpenApiDocument;
let routes: TableRoute[];
let ajv: Ajv2020;

const koaPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
const pointer = (...parts: string[]) =>
  `${DOC_ID}#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

function operations(document: OpenApiDocument): { method: string; path: string; op: OpenApiOperation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      op: op as OpenApiOperation,
    })),
  );
}

/**
 * What the router table and the document disagree on: routes with no operation, and operations
 * with no route. A WebSocket route is an operation marked x-websocket (GET, the upgrade). A path
 * routed with router.all (its table lists methods OpenAPI has no name for) is documented for the
 * methods its clients use: its other methods answer the same as those.
 */
function disagreements(table: TableRoute[], document: OpenApiDocument) {
  const key = (method: string, path: string) => `${method} ${path}`;
  const documented = new Set(
    operations(document).map(({ method, path, op }) => key(op['x-websocket'] ? 'WS' : method, koaPath(path))),
  );
  const routed = new Set(table.map((r) => key(r.method, r.path)));
  const anyMethod = new Set(table.filter((r) => !r.ws && !OPENAPI_METHODS.has(r.method)).map((r) => r.path));
  const documentedPaths = new Set([...documented].map((k) => k.slice(k.indexOf(' ') + 1)));
  return {
    undocumented: table
      .filter((r) => r.ws || OPENAPI_METHODS.has(r.method))
      .filter((r) => !documented.has(key(r.method, r.path)))
      .filter((r) => !(anyMethod.has(r.path) && documentedPaths.has(r.path)))
      .map((r) => key(r.method, r.path)),
    unrouted: [...documented].filter((k) => !routed.has(k)),
  };
}

/** The schema of an operation's reply, compiled (its $refs resolve within the document). */
function replyValidator(method: string, path: string, status: number) {
  const validate = ajv.getSchema(
    pointer('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema'),
  );
  if (!validate) throw new Error(`no reply schema for ${method} ${path} ${status}`);
  return validate;
}

function expectReply(method: string, path: string, res: { status: number; body: unknown }) {
  const validate = replyValidator(method, path, res.status);
  const ok = validate(res.body);
  expect(ok ? [] : validate.errors, `${method} ${path} ${res.status}`).toEqual([]);
}

beforeAll(async () => {
  cp = await startTestControlPlane();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'openapi-node');
  user = new ApiClient(cp.url);
  await user.register('openapi_user');
  await adjustBalance(cp, 'openapi_user', 50);
  containerId = await purchaseSettled(cp, user, market, { instanceName: 'openapi' });
  const key = await user.request<{ key: string }>('POST', '/api/api-keys', { name: 'openapi' });
  apiKey = key.body.key;

  const res = await fetch(`${cp.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDocument;
  // The health check is answered before Koa (framework/fast-path.ts), not by a router.
  routes = [...routerTable(cp), { method: 'GET', path: HEALTH_PATH, ws: false }];

  // Strict: a keyword JSON Schema does not know fails to compile. The document's own fields are
  // annotations here, so refs into components and paths resolve.
  ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, validateFormats: false });
  for (const field of ['openapi', 'info', 'tags', 'paths', 'components']) ajv.addKeyword(field);
  ajv.addSchema(doc, DOC_ID);
}, 180_000);

afterAll(async () => {
  if (cp) await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

describe('GET /api/openapi.json', () => {
  it('is public and cacheable, and answers 304 to its ETag', async () => {
    const res = await fetch(`${cp.url}/api/openapi.json`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    // fetch() would add Cache-Control: no-cache to a conditional request (a reload): say max-age=0.
    const again = await fetch(`${cp.url}/api/openapi.json`, {
      headers: { 'If-None-Match': etag as string, 'Cache-Control': 'max-age=0' },
    });
    expect(again.status).toBe(304);
    expect(doc.openapi).toBe(OPENAPI_VERSION);
  });
});

describe('the document and the routers', () => {
  it('reads the routers (a comparison over nothing would pass)', () => {
    expect(routes.length).toBeGreaterThan(140);
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(keys).toContain('POST /api/cloud-products/:id/purchase');
    expect(keys).toContain('WS /api/containers/ws/:id/console');
    expect(keys).toContain('GET /api/openapi.json');
  });

  it('every route has an operation, and every operation a route', () => {
    expect(disagreements(routes, doc)).toEqual({ undocumented: [], unrouted: [] });
  });

  it('a route left out, or an operation without a route, is reported', () => {
    const lacking = structuredClone(doc);
    delete lacking.paths['/api/containers/{id}/stop'];
    delete lacking.paths['/api/containers/ws/{id}/logs'];
    lacking.paths['/api/containers/{id}/teleport'] = {
      post: lacking.paths['/api/containers']?.get as OpenApiOperation,
    };
    expect(disagreements(routes, lacking)).toEqual({
      undocumented: ['POST /api/containers/:id/stop', 'WS /api/containers/ws/:id/logs'],
      unrouted: ['POST /api/containers/:id/teleport'],
    });
  });

  it('gives every operation an id, a Chinese summary, a tag and its security', () => {
    const ids = new Set<string>();
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const { method, path, op } of operations(doc)) {
      const where = `${method} ${path}`;
      expect(ids.has(op.operationId), where).toBe(false);
      ids.add(op.operationId);
      expect(op.summary, where).toMatch(/[\u4e00-\u9fff]/);
      expect(
        op.tags.every((t) => tags.has(t)),
        where,
      ).toBe(true);
      expect(Array.isArray(op.security), where).toBe(true);
      if (path.startsWith('/api/admin/')) expect(op['x-admin'], where).toBe(true);
    }
  });
});

describe('the document is valid', () => {
  it('is an OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('every schema in it compiles (strict JSON Schema 2020-12) and every $ref resolves', () => {
    const places: string[] = Object.keys(doc.components.schemas).map((name) =>
      pointer('components', 'schemas', name),
    );
    for (const { method, path, op } of operations(doc)) {
      const at = ['paths', path, method.toLowerCase()];
      op.parameters?.forEach((_, i) => {
        places.push(pointer(...at, 'parameters', String(i), 'schema'));
      });
      for (const type of Object.keys(op.requestBody?.content ?? {})) {
        places.push(pointer(...at, 'requestBody', 'content', type, 'schema'));
      }
      for (const [status, response] of Object.entries(op.responses)) {
        for (const type of Object.keys(response.content ?? {})) {
          places.push(pointer(...at, 'responses', status, 'content', type, 'schema'));
        }
      }
    }
    expect(places.length).toBeGreaterThan(400);
    const broken = places.flatMap((place) => {
      try {
        return ajv.getSchema(place) ? [] : [`${place}: not found`];
      } catch (err) {
        return [`${place}: ${(err as Error).message}`];
      }
    });
    expect(broken).toEqual([]);
  });
});

describe('API keys, as the document says', () => {
  const usesKey = (op: OpenApiOperation) => op.security.some((s) => 'apiKey' in s);

  it('an operation lists X-API-Key exactly where the server takes one', async () => {
    const product = String(market.productId);
    const filled = (path: string) =>
      path.includes('{')
        ? path.replace('{id}', path.startsWith('/api/cloud-products') ? product : containerId)
        : path;
    // Signed-in routes (not the optional ones): every one without a path parameter, called with a
    // body that fails validation where it takes one, and reads of the caller's own objects.
    const checked = operations(doc).filter(
      ({ method, path, op }) =>
        op.security.some((s) => 'bearerAuth' in s) &&
        !op.security.some((s) => Object.keys(s).length === 0) &&
        !op['x-websocket'] &&
        (!path.includes('{') ||
          (method === 'GET' &&
            ['/api/containers/{id}', '/api/mcp/containers/{id}', '/api/cloud-products/{id}'].includes(path))),
    );
    expect(checked.length).toBeGreaterThan(60);
    expect(checked.filter(({ op }) => usesKey(op)).length).toBeGreaterThan(8);
    const wrong: string[] = [];
    for (const { method, path, op } of checked) {
      const res = await new ApiClient(cp.url).request(
        method,
        filled(path),
        method === 'GET' ? undefined : {},
        { 'X-API-Key': apiKey },
      );
      if ((res.status !== 401) !== usesKey(op)) wrong.push(`${method} ${path}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('live replies follow the document', () => {
  it('the market, the containers and the balance, by session and by API key', async () => {
    const products = await user.request<{ items: unknown[] }>('GET', '/api/cloud-products');
    expect(products.body.items.length).toBeGreaterThan(0);
    expectReply('get', '/api/cloud-products', products);
    expectReply(
      'get',
      '/api/cloud-products/{id}',
      await user.request('GET', `/api/cloud-products/${market.productId}`),
    );

    const containers = await user.request<{ items: unknown[] }>('GET', '/api/containers');
    expect(containers.body.items.length).toBe(1);
    expectReply('get', '/api/containers', containers);
    expectReply('get', '/api/containers/{id}', await user.request('GET', `/api/containers/${containerId}`));

    const byKey = new ApiClient(cp.url);
    const headers = { 'X-API-Key': apiKey };
    const mcp = await byKey.request<{ items: unknown[] }>('GET', '/api/mcp/containers', undefined, headers);
    expect(mcp.body.items.length).toBe(1);
    expectReply('get', '/api/mcp/containers', mcp);
    expectReply(
      'get',
      '/api/billing/balance',
      await byKey.request('GET', '/api/billing/balance', undefined, headers),
    );
    expectReply('get', '/api/frameworks', await new ApiClient(cp.url).request('GET', '/api/frameworks'));
    expectReply('get', '/api/user/info', await user.request('GET', '/api/user/info'));
  });

  it('refusals are the documented {detail, code}', async () => {
    const missing = await user.request('GET', '/api/containers/c-doesnotexist');
    expect(missing.status).toBe(404);
    expectReply('get', '/api/containers/{id}', missing);
    const bad = await user.request('POST', `/api/cloud-products/${market.productId}/purchase`, {
      gpuCount: 0,
    });
    expect(bad.status).toBe(400);
    expectReply('post', '/api/cloud-products/{id}/purchase', bad);
  });

  it('a reply that differs from the document is caught', async () => {
    const res = await user.request<{ items: Record<string, unknown>[] }>('GET', '/api/containers');
    const validate = replyValidator('get', '/api/containers', 200);
    const lacking = structuredClone(res.body);
    delete lacking.items[0]?.status;
    expect(validate(lacking)).toBe(false);
    const extra = structuredClone(res.body);
    if (extra.items[0]) extra.items[0].secret = 'x';
    expect(validate(extra)).toBe(false);
  });
});

/** The console's /docs/api test renders this document (web/src/features/api-docs). */
const SAMPLE = fileURLToPath(
  new URL('../../web/src/features/api-docs/testing/sample-openapi.json', import.meta.url),
);
// Routes whose schemas change rarely, so the sample seldom needs writing again.
const SAMPLE_ROUTES = new Set([
  'get /api/billing/balance',
  'get /api/mcp/containers/:id/logs',
  'post /api/cloud-products/:id/purchase',
  'get /api/containers/ws/:id/logs',
  'post /api/auth/login',
  'get /api/admin/users',
  'get /api/openapi.json',
]);

describe("the console's sample document", () => {
  it('is what the generator makes of a few routes (UPDATE_OPENAPI_SAMPLE=1 writes it again)', () => {
    const groups = API_ROUTE_GROUPS.map((g) => ({
      tag: g.tag,
      routes: g.routes.filter((r) => SAMPLE_ROUTES.has(`${r.method} ${r.path}`)),
    })).filter((g) => g.routes.length > 0);
    const sample = buildOpenApiDocument(groups, { title: 'GPU 云平台控制面 API（示例）', version: '0.0.0' });
    expect(Object.values(sample.paths).flatMap((item) => Object.keys(item))).toHaveLength(SAMPLE_ROUTES.size);
    if (process.env.UPDATE_OPENAPI_SAMPLE) writeFileSync(SAMPLE, `${JSON.stringify(sample, null, 2)}\n`);
    expect(
      JSON.parse(readFileSync(SAMPLE, 'utf8')),
      'out of date: UPDATE_OPENAPI_SAMPLE=1 npx vitest run test/openapi.test.ts writes it again',
    ).toEqual(sample);
  });
});
