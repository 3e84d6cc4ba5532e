import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeFeed, KeyedChangeCache, REPLY_CHANNELS } from '../src/db/change-cache.js';
import type { CloudProductView } from '../src/modules/cloud-products/service.js';
import { type RunningControlPlane, startControlPlane } from '../src/platform.js';
import { ApiClient, createTestDatabase, testConfig } from './harness.js';

// The market's list is cached in each replica between changes. Two replicas on one database: a
// change committed through either (or by anything writing the database) is seen by the other's
// very next list, and what changes nothing the list shows (a heartbeat) keeps the cached list.
let url: string;
let a: RunningControlPlane;
let b: RunningControlPlane;
let nodeId: number;
let productId: number;
let userId: number;

const IMAGE = 'market-cache/test:1';

beforeAll(async () => {
  url = await createTestDatabase();
  const overrides = { secretKey: randomBytes(32) };
  a = await startControlPlane(testConfig(url, overrides), () => {});
  b = await startControlPlane(testConfig(url, overrides), () => {});
  // An offline node (no agent: the node monitor leaves it alone) with 4 GPUs and its product.
  const [node] = await a
    .knex('nodes')
    .insert({
      name: 'cache-node',
      address: '127.0.0.1:1',
      token: 't',
      region: '缓存区',
      status: 'offline',
      docker_available: true,
      gpu_total: 4,
      gpu_model: 'RTX4090',
    })
    .returning('id');
  nodeId = (node as { id: number }).id;
  await a.knex('node_gpus').insert(
    [0, 1, 2, 3].map((gpu_index) => ({
      node_id: nodeId,
      gpu_index,
      uuid: `GPU-CACHE-${gpu_index}`,
      model: 'RTX4090',
    })),
  );
  const row = await a.services.nodes.require(nodeId);
  await a.services.products.ensureDefaultProduct(row, 199);
  productId = (await a.knex('cloud_products').where({ node_id: nodeId }).first('id')).id;
  const [user] = await a
    .knex('users')
    .insert({ username: 'cache_owner', password_hash: 'x' })
    .returning('id');
  userId = (user as { id: number }).id;
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const product = async (cp: RunningControlPlane): Promise<CloudProductView | undefined> =>
  (await cp.services.products.list({})).find((p) => p.id === productId);

/** Lists on `cp` until it is cached (twice: the second loads nothing), then returns its view. */
async function warm(cp: RunningControlPlane): Promise<CloudProductView | undefined> {
  await product(cp);
  const loads = cp.services.marketCache.loads;
  const view = await product(cp);
  expect(cp.services.marketCache.loads).toBe(loads);
  return view;
}

describe('the market list cache', () => {
  it('is served again without reading the database on both replicas', async () => {
    expect(a.services.marketCache.listening).toBe(true);
    expect(b.services.marketCache.listening).toBe(true);
    const onA = await warm(a);
    const onB = await warm(b);
    expect(onB).toEqual(onA);
    expect(onB?.gpu_available).toBe(4);
    expect(onB?.status).toBe('offline');
  });

  it('an admin’s change of a product through one replica is on the other’s next list', async () => {
    expect((await warm(b))?.price).toBe(1.99);
    const current = await a.knex('cloud_products').where({ id: productId }).first();
    await a.services.products.update(productId, {
      ...current,
      price: 2.5,
      no_gpu_price: current.no_gpu_price_fen / 100,
    });
    expect((await product(b))?.price).toBe(2.5);
    // Filters read the cached list as the query did.
    expect(await b.services.products.list({ region: '缓存区' })).toHaveLength(1);
    expect(await b.services.products.list({ region: '别处' })).toHaveLength(0);
    expect(await b.services.products.list({ systemType: 'windows' })).toHaveLength(0);
    expect(await b.services.products.list({ systemType: 'ubuntu' })).toHaveLength(1);
    expect(await b.services.products.list({ gpuTypes: ['RTX4090'] })).toHaveLength(1);
    expect(await b.services.products.list({ gpuCount: 5 })).toHaveLength(0);
  });

  it('a GPU rented, given back, failed or back is on either replica’s next list', async () => {
    await a.knex('containers').insert({
      id: 'cache-c1',
      user_id: userId,
      node_id: nodeId,
      cloud_product_id: productId,
      name: 'cache-c1',
      image: IMAGE,
      status: 'running',
      billing_type: 'hourly',
      price_fen: 199,
      gpu_count: 1,
      password_encrypted: 'x',
    });
    for (const [change, expected] of [
      [
        () =>
          a
            .knex('gpu_allocations')
            .insert({ node_id: nodeId, gpu_uuid: 'GPU-CACHE-0', container_id: 'cache-c1' }),
        3,
      ],
      [() => b.knex('node_gpus').where({ uuid: 'GPU-CACHE-3' }).update({ health_problem: 'Xid 79' }), 2],
      [() => a.knex('node_gpus').where({ uuid: 'GPU-CACHE-3' }).update({ health_problem: '' }), 3],
      [() => b.knex('gpu_allocations').where({ container_id: 'cache-c1' }).delete(), 4],
    ] as const) {
      await warm(a);
      await warm(b);
      await change();
      expect((await product(b))?.gpu_available).toBe(expected);
      expect((await product(a))?.gpu_available).toBe(expected);
    }
  });

  it('a node coming online, an image arriving, a product disabled: on the next list', async () => {
    await warm(b);
    await a.knex('nodes').where({ id: nodeId }).update({ status: 'online', last_heartbeat_at: new Date() });
    expect((await product(b))?.status).toBe('available');

    const [framework] = await a.knex('frameworks').insert({ name: 'CacheFw' }).returning('id');
    const [version] = await a
      .knex('framework_versions')
      .insert({ framework_id: (framework as { id: number }).id, version: '1', image: IMAGE })
      .returning('id');
    await warm(b);
    await a.knex('node_images').insert({ node_id: nodeId, image: IMAGE, status: 'present', progress: 100 });
    expect((await product(b))?.warm_version_ids).toContain((version as { id: number }).id);

    await warm(b);
    await a.knex('cloud_products').where({ id: productId }).update({ enabled: false });
    expect(await product(b)).toBeUndefined();
    await a.knex('cloud_products').where({ id: productId }).update({ enabled: true });
    expect(await product(b)).toBeDefined();
  });

  it('a heartbeat or an image listing that changes nothing shown keeps the cached list', async () => {
    await warm(b);
    const loads = b.services.marketCache.loads;
    await a.services.nodes.heartbeat(nodeId, true);
    await a.services.nodes.flushHeartbeats();
    await a.knex('node_images').where({ node_id: nodeId }).update({ updated_at: new Date(), progress: 100 });
    await product(b);
    expect(b.services.marketCache.loads).toBe(loads);
  });

  it('answers GET /api/cloud-products with the kept reply: gzipped where accepted, 304 while unchanged', async () => {
    // A few more nodes' products: a list of over 1 KB (smaller replies are not compressed).
    for (const i of [1, 2, 3]) {
      const [more] = await a
        .knex('nodes')
        .insert({
          name: `cache-node-${i}`,
          address: `127.0.0.1:${i + 1}`,
          token: 't',
          region: '其他区',
          status: 'offline',
        })
        .returning('id');
      await a.services.products.ensureDefaultProduct(
        await a.services.nodes.require((more as { id: number }).id),
        99,
      );
    }
    const user = new ApiClient(b.url);
    await user.register('cache_reader');
    /** A raw GET (fetch would decompress and hide the encoding). */
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
        (resolve, reject) => {
          const req = httpRequest(
            `${b.url}/api/cloud-products`,
            { headers: { authorization: `Bearer ${user.token}`, ...headers } },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () =>
                resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
              );
            },
          );
          req.on('error', reject).end();
        },
      );
    const plain = await get({});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    const list = JSON.parse(plain.body.toString()) as { items: { id: number }[]; total: number };
    expect(list.items.map((p) => p.id)).toContain(productId);
    expect(list.total).toBe(list.items.length);
    expect(plain.body.length).toBeGreaterThan(1024);

    const zipped = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);

    // Unchanged: the client's copy is still good, for each encoding.
    for (const [first, encoding] of [
      [plain, {}],
      [zipped, { 'accept-encoding': 'gzip' }],
    ] as const) {
      const again = await get({ ...encoding, 'if-none-match': String(first.headers.etag) });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    }
    // A change of the list (another replica's): the old copy is not good any more.
    await a.knex('cloud_products').where({ id: productId }).update({ price_fen: 177 });
    const changed = await get({ 'if-none-match': String(plain.headers.etag) });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(plain.headers.etag);
    const item = (
      JSON.parse(changed.body.toString()) as { items: { id: number; price: number }[] }
    ).items.find((p) => p.id === productId);
    expect(item?.price).toBe(1.77);
  });

  it('caches nothing while it does not listen', async () => {
    const feed = new ChangeFeed({
      databaseUrl: url,
      channels: [REPLY_CHANNELS.market],
      name: 'a market listener',
      log: () => {},
    });
    const cache = new KeyedChangeCache<number>(feed, REPLY_CHANNELS.market, 1);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('market', load)).toBe(1);
    expect(await cache.get('market', load)).toBe(2);
    await feed.start();
    expect(await cache.get('market', load)).toBe(3);
    expect(await cache.get('market', load)).toBe(3);
    await a.knex.raw(`select pg_notify('market_changed', '')`);
    expect(await cache.get('market', load)).toBe(4);
    await feed.close();
    expect(cache.listening).toBe(false);
    expect(await cache.get('market', load)).toBe(5);
    expect(await cache.get('market', load)).toBe(6);
  });
});
