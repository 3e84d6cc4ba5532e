// 我的镜像 through the API, against real agents, a real registry and PostgreSQL: what a save
// refuses and why, the quota, ownership (another user's image does not exist for anyone else,
// not even to buy), rename and in-use deletion, the admin's list, publish and quota, the 503
// without a registry, and saves interrupted by a process that died.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminImageReply, imageDetailReply, imagesReply } from '../src/modules/images/contract.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { fakeContainer, fakeNode } from './fake-containers.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';
import {
  addNodeWithProduct,
  destroyAllContainers,
  type MarketFixture,
  purchaseBody,
  purchaseSettled,
} from './purchase.js';

const GB = 1024 ** 3;

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let registryDir: string;
let admin: ApiClient;

beforeAll(async () => {
  registryDir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-registry-'));
  cp = await startTestControlPlane({
    registry: { kind: 'embedded', binary: '/usr/bin/docker-registry', port: 0, dataDir: registryDir },
  });
  // Host ports of a band of their own: other suites run beside this one on the same engine.
  agent = await startTestAgent({ portStart: 24200 });
  market = await addNodeWithProduct(cp, agent, 'node-img-a');
  admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
  if (registryDir) rmSync(registryDir, { recursive: true, force: true });
});

async function user(name: string): Promise<ApiClient & { id: number }> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  const row = await cp.knex('users').where({ username: name }).first('id');
  return Object.assign(api, { id: Number(row.id) });
}

let digestSeed = 0;
/**
 * An image row as a finished (or unfinished) save leaves it, without running one: for what does
 * not depend on the node (ownership, quota, rename, in-use). Its digest names nothing pushed.
 */
async function savedImage(
  userId: number,
  over: Record<string, unknown> = {},
): Promise<{ id: number; repository: string; digest: string }> {
  const digest = `sha256:${(++digestSeed).toString(16).padStart(64, '0')}`;
  const [row] = await cp.knex('user_images').insert(
    {
      user_id: userId,
      name: `img${digestSeed}`,
      tag: 'latest',
      status: 'ready',
      progress: 100,
      source_image: 'gpucloud/base:local',
      digest,
      size_bytes: 1000,
      ports: JSON.stringify({ ssh: 22 }),
      contents: JSON.stringify({
        os: null,
        python: null,
        cuda: null,
        cudnn: null,
        pip: [{ name: 'numpy', version: '1.26.4' }],
        conda: null,
        apt: null,
        apt_added: null,
        base: { image: 'gpucloud/base:local', digest: `sha256:${'e'.repeat(64)}` },
        layers: [{ created_by: 'save', size_bytes: 1000, added: true }],
        added_bytes: 1000,
      }),
      ...over,
    },
    ['id'],
  );
  const id = Number(row.id);
  const repository = `u${userId}/img${id}`;
  await cp.knex('user_images').where({ id }).update({ repository });
  return { id, repository, digest };
}

type Detail = { detail: string; code?: string };

const count = async (table: string, where: (q: ReturnType<RunningControlPlane['knex']>) => unknown) => {
  const q = cp.knex(table);
  where(q);
  const row = (await q.count('* as n').first()) as { n: string | number } | undefined;
  return Number(row?.n ?? 0);
};

describe('saving a container as an image', () => {
  it('refuses a bad name, tag or description, and a container that is not the user’s, with the reason', async () => {
    const alice = await user('img_alice');
    const bob = await user('img_bob');
    const id = await purchaseSettled(cp, alice, market);
    const save = (api: ApiClient, body: unknown, container = id) =>
      api.request<Detail>('POST', `/api/containers/${container}/save-image`, body);
    const refusals: [unknown, number, string][] = [
      [{}, 400, '请输入镜像名称'],
      [{ name: '' }, 400, '请输入镜像名称'],
      [{ name: 'MyEnv' }, 400, '镜像名称只能包含小写字母、数字、点、下划线和短横线，且以字母或数字开头'],
      [{ name: '-env' }, 400, '镜像名称只能包含小写字母、数字、点、下划线和短横线，且以字母或数字开头'],
      [{ name: 'a'.repeat(33) }, 400, '镜像名称不能超过32个字符'],
      [
        { name: 'env', tag: 'v 1' },
        400,
        '标签只能包含字母、数字、点、下划线和短横线，且不能以点或短横线开头，最多64个字符',
      ],
      [
        { name: 'env', tag: '.v1' },
        400,
        '标签只能包含字母、数字、点、下划线和短横线，且不能以点或短横线开头，最多64个字符',
      ],
      [
        { name: 'env', tag: 'a'.repeat(65) },
        400,
        '标签只能包含字母、数字、点、下划线和短横线，且不能以点或短横线开头，最多64个字符',
      ],
      [{ name: 'env', description: '长'.repeat(201) }, 400, '描述不能超过200个字符'],
    ];
    for (const [body, status, detail] of refusals) {
      const res = await save(alice, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.detail, JSON.stringify(body)).toBe(detail);
    }
    // Another user's container, and one that does not exist, are not found alike.
    const theirs = await save(bob, { name: 'stolen' });
    expect(theirs.status).toBe(404);
    expect(theirs.body.detail).toBe('容器不存在');
    expect((await save(alice, { name: 'env' }, 'c-doesnotexist1')).status).toBe(404);
    expect((await save(alice, { name: 'env' }, 'not-an-id')).body.detail).toBe('无效的容器编号');
    // Not signed in.
    expect((await save(new ApiClient(cp.url), { name: 'env' })).status).toBe(401);
    // Nothing was made by any of these.
    expect(await count('user_images', (q) => q.whereIn('user_id', [alice.id, bob.id]))).toBe(0);
  });

  it('keeps to the quota, in images and in GB, and to the admin’s quota for a user', async () => {
    const carol = await user('img_carol');
    const id = await purchaseSettled(cp, carol, market);
    const save = (name: string) =>
      carol.request<Detail>('POST', `/api/containers/${id}/save-image`, { name });

    const quota = (body: unknown, userId = carol.id, api = admin) =>
      api.request<Detail & { max_count: number; max_bytes: number }>(
        'PUT',
        `/api/admin/users/${userId}/image-quota`,
        body,
      );
    expect((await quota({ max_count: -1, max_gb: 1 })).body.detail).toBe('镜像数量上限为 0-1000');
    expect((await quota({ max_count: 1 })).body.detail).toBe('镜像存储上限为 0-100000 GB');
    expect((await quota({ max_count: 1, max_gb: 1 }, 99999999)).status).toBe(404);
    expect((await quota({ max_count: 1, max_gb: 1 }, carol.id, carol)).status).toBe(403);

    const set = await quota({ max_count: 1, max_gb: 1 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ count: 0, max_count: 1, bytes: 0, max_bytes: GB });

    await savedImage(carol.id, { size_bytes: 100 });
    const byCount = await save('env');
    expect(byCount.status).toBe(403);
    expect(byCount.body.detail).toBe('镜像数量已达上限（1个）');

    await quota({ max_count: 5, max_gb: 1 });
    await savedImage(carol.id, { size_bytes: 2 * GB });
    const byBytes = await save('env');
    expect(byBytes.status).toBe(403);
    expect(byBytes.body.detail).toBe('镜像存储已达上限（1 GB）');

    // A failed save holds nothing: neither a place in the count nor bytes.
    await savedImage(carol.id, { status: 'failed', digest: null, size_bytes: 0, error: '保存镜像失败' });
    const mine = await carol.request<{ quota: unknown; images: { status: string }[] }>(
      'GET',
      '/api/images/mine',
    );
    expect(mine.status).toBe(200);
    expect(mine.body.quota).toEqual({ count: 2, max_count: 5, bytes: 2 * GB + 100, max_bytes: GB });
    expect(mine.body.images.map((i) => i.status)).toEqual(['failed', 'ready', 'ready']);
    expectServed(imagesReply, mine.body);
  });

  it('marks saves whose process died as failed (保存中断，请重试), and leaves live ones saving', async () => {
    const dave = await user('img_dave');
    const dead = await savedImage(dave.id, {
      status: 'saving',
      progress: 40,
      digest: null,
      save_lease_until: new Date(Date.now() - 1000),
    });
    const alive = await savedImage(dave.id, {
      status: 'saving',
      progress: 40,
      digest: null,
      save_lease_until: new Date(Date.now() + 60_000),
    });
    expect(await cp.services.images.recoverAbandoned()).toBeGreaterThanOrEqual(1);
    const mine = await dave.request<{ images: { id: number; status: string; error: string | null }[] }>(
      'GET',
      '/api/images/mine',
    );
    expect(mine.body.images.find((i) => i.id === dead.id)).toMatchObject({
      status: 'failed',
      error: '保存中断，请重试',
    });
    expect(mine.body.images.find((i) => i.id === alive.id)).toMatchObject({ status: 'saving', error: null });
    // A saving image cannot be deleted yet.
    const busy = await dave.request<Detail>('DELETE', `/api/images/${alive.id}`);
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toBe('镜像正在保存中，请等待完成后再删除');
  });
});

describe('a user’s images', () => {
  it('another user’s image is not found: not listed, read, renamed, deleted, compared, downloaded or bought', async () => {
    const erin = await user('img_erin');
    const frank = await user('img_frank');
    const hers = await savedImage(erin.id);
    const his = await savedImage(frank.id);
    const notFound = [
      await frank.request<Detail>('GET', `/api/images/${hers.id}`),
      await frank.request<Detail>('PATCH', `/api/images/${hers.id}`, { name: 'mine-now' }),
      await frank.request<Detail>('DELETE', `/api/images/${hers.id}`),
      await frank.request<Detail>('GET', `/api/images/${hers.id}/dockerfile`),
      await frank.request<Detail>('GET', `/api/images/compare?a=${his.id}&b=${hers.id}`),
      await frank.request<Detail>('GET', '/api/images/99999999'),
    ];
    for (const res of notFound) {
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('镜像不存在');
    }
    const list = await frank.request<{ images: { id: number }[] }>('GET', '/api/images/mine');
    expect(list.body.images.map((i) => i.id)).toEqual([his.id]);
    // Still hers, unchanged.
    const own = await erin.request<{ name: string }>('GET', `/api/images/${hers.id}`);
    expect(own.status).toBe(200);
    expectServed(imageDetailReply, own.body);

    const before = await count('containers', (q) => q.where({ user_id: frank.id }));
    const buy = (body: Record<string, unknown>) =>
      frank.request<Detail>(
        'POST',
        `/api/cloud-products/${market.productId}/purchase`,
        purchaseBody(market, body),
      );
    const refusals: [Record<string, unknown>, string][] = [
      [{ imageType: 'custom', customImageId: hers.id }, '镜像不存在'],
      [{ imageType: 'custom', customImageId: undefined }, '请选择镜像'],
      [{ imageType: 'custom', customImageId: 'abc' }, '请选择镜像'],
      [{ imageType: 'other' }, '镜像类型只能是 public 或 custom'],
      [{ imageType: 'public', framework: undefined }, '请选择框架'],
    ];
    for (const [body, detail] of refusals) {
      const res = await buy(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail, JSON.stringify(body)).toBe(detail);
    }
    // Nor through the MCP API's image_id.
    const mcp = (body: Record<string, unknown>) =>
      frank.request<Detail>('POST', '/api/mcp/containers', {
        name: 'mcp-from-image',
        product_id: market.productId,
        password: 'Secret-pass-123',
        ...body,
      });
    const viaMcp = await mcp({ image_id: hers.id });
    expect(viaMcp.status).toBe(400);
    expect(viaMcp.body.detail).toBe('镜像不存在');
    expect((await mcp({ image_id: his.id, image_name: 'x' })).body.detail).toBe(
      'image_name 与 image_id 只能填写一个',
    );
    expect((await mcp({})).body.detail).toBe('请填写所有必填字段');
    const saving = await savedImage(frank.id, { status: 'saving', digest: null });
    const early = await buy({ imageType: 'custom', customImageId: saving.id });
    expect(early.body.detail).toBe('镜像尚未保存完成');
    expect(await count('containers', (q) => q.where({ user_id: frank.id }))).toBe(before);
  });

  it('renames with name:tag unique per user, refuses deletion while a container uses it, then deletes', async () => {
    const gina = await user('img_gina');
    const a = await savedImage(gina.id, { name: 'env', tag: 'v1' });
    const b = await savedImage(gina.id, { name: 'env', tag: 'v2' });
    const taken = await gina.request<Detail>('PATCH', `/api/images/${b.id}`, { tag: 'v1' });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe('镜像 env:v1 已存在');
    const bad = await gina.request<Detail>('PATCH', `/api/images/${b.id}`, { name: 'Env' });
    expect(bad.status).toBe(400);
    const renamed = await gina.request<{ name: string; tag: string; description: string }>(
      'PATCH',
      `/api/images/${b.id}`,
      { name: 'train', description: '训练环境' },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'train', tag: 'v2', description: '训练环境' });
    // Renaming is metadata: the registry repository stays.
    expect((await cp.knex('user_images').where({ id: b.id }).first('repository')).repository).toBe(
      b.repository,
    );

    // A container made from it (the pull of a digest never pushed fails: the container stays, failed).
    gina.awaitProvisioning = false;
    const bought = await gina.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market, { instanceName: 'from-image', imageType: 'custom', customImageId: a.id }),
    );
    expect(bought.status).toBe(201);
    await cp.services.purchases.settled(bought.body.container_id);
    const row = await cp.knex('containers').where({ id: bought.body.container_id }).first();
    expect(Number(row.custom_image_id)).toBe(a.id);
    expect(row.image).toBe(`${cp.services.registry.host}/${a.repository}@${a.digest}`);
    expect(row.framework_version_id).toBeNull();

    const detail = await gina.request<{ in_use: { id: string; name: string }[] }>(
      'GET',
      `/api/images/${a.id}`,
    );
    expect(detail.body.in_use).toEqual([{ id: bought.body.container_id, name: 'from-image' }]);
    const refused = await gina.request<Detail>('DELETE', `/api/images/${a.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('镜像正在被容器 from-image 使用，请先释放该容器');

    expect((await gina.request('DELETE', `/api/containers/${bought.body.container_id}`)).status).toBeLessThan(
      300,
    );
    const deleted = await gina.request('DELETE', `/api/images/${a.id}`);
    expect(deleted.status).toBe(200);
    expect((await gina.request<Detail>('GET', `/api/images/${a.id}`)).status).toBe(404);
    // The name is free again.
    expect((await gina.request('PATCH', `/api/images/${b.id}`, { name: 'env', tag: 'v1' })).status).toBe(200);
  });

  it('compares two images and writes a Dockerfile of one', async () => {
    const hana = await user('img_hana');
    const a = await savedImage(hana.id);
    const b = await savedImage(hana.id, {
      contents: JSON.stringify({
        os: null,
        python: '3.11.2',
        cuda: null,
        cudnn: null,
        pip: [
          { name: 'numpy', version: '2.0.1' },
          { name: 'torch', version: '2.4.0' },
        ],
        conda: null,
        apt: null,
        apt_added: null,
        base: { image: 'debian:12', digest: `debian@sha256:${'d'.repeat(64)}` },
        layers: [],
        added_bytes: 0,
      }),
    });
    const cmp = await hana.request<{
      facts: { what: string }[];
      pip: { added: unknown[]; changed: unknown[] };
    }>('GET', `/api/images/compare?a=${a.id}&b=${b.id}`);
    expect(cmp.status).toBe(200);
    expect(cmp.body.pip.added).toEqual([{ name: 'torch', version: '2.4.0' }]);
    expect(cmp.body.pip.changed).toEqual([{ name: 'numpy', from: '1.26.4', to: '2.0.1' }]);
    expect(cmp.body.facts.map((f) => f.what)).toEqual(['python', 'base']);
    expect((await hana.request<Detail>('GET', `/api/images/compare?a=${a.id}`)).body.detail).toBe(
      '请选择要对比的两个镜像',
    );

    const res = await fetch(`${cp.url}/api/images/${b.id}/dockerfile`, {
      headers: { authorization: `Bearer ${hana.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="Dockerfile"/);
    const text = await res.text();
    expect(text).toContain(`FROM debian@sha256:${'d'.repeat(64)}`);
    expect(text).toContain('torch==2.4.0');
  });
});

describe('the admin’s images', () => {
  it('lists every user’s images with owner and size, and publishes one to the catalogue', async () => {
    const ivan = await user('img_ivan');
    const img = await savedImage(ivan.id, { name: 'ivan-env', size_bytes: 12345 });
    expect((await ivan.request('GET', '/api/admin/images/saved')).status).toBe(403);
    const list = await admin.request<{ id: number; user: { username: string }; size_bytes: number }[]>(
      'GET',
      '/api/admin/images/saved',
    );
    expect(list.status).toBe(200);
    expect(list.body.find((i) => i.id === img.id)).toMatchObject({
      user: { id: ivan.id, username: 'img_ivan' },
      size_bytes: 12345,
      published: null,
    });
    for (const item of list.body) expectServed(adminImageReply, item);
    // The app market's own admin list is still where it was.
    expect((await admin.request<{ items: unknown[] }>('GET', '/api/admin/images')).body.items).toBeDefined();

    expect((await admin.request<Detail>('POST', `/api/admin/images/${img.id}/publish`, {})).body.detail).toBe(
      '请选择框架',
    );
    const published = await admin.request<{ published: { framework: string; version: string } }>(
      'POST',
      `/api/admin/images/${img.id}/publish`,
      { framework: '社区镜像', version: 'ivan-env-1' },
    );
    expect(published.status).toBe(201);
    expect(published.body.published).toEqual({ framework: '社区镜像', version: 'ivan-env-1' });
    const frameworks = await cp.services.catalogue.adminFrameworks();
    const version = frameworks.find((f) => f.name === '社区镜像')?.versions[0];
    expect(version?.image).toBe(`${cp.services.registry.host}/${img.repository}@${img.digest}`);
    // Anyone's purchase of that version pulls with a grant for exactly that repository.
    const grant = await cp.services.images.catalogueGrant(version?.id as number);
    expect(grant?.server_address).toBe(cp.services.registry.host);
    // So does an admin's warm-up of it on a node (it names the reference); nothing else gets one.
    const warmGrant = await cp.services.images.publishedReferenceGrant(version?.image as string);
    expect(warmGrant?.server_address).toBe(cp.services.registry.host);
    const other = await savedImage(ivan.id, { name: 'ivan-private', size_bytes: 1 });
    expect(
      await cp.services.images.publishedReferenceGrant(
        `${cp.services.registry.host}/${other.repository}@${other.digest}`,
      ),
    ).toBeUndefined();
    expect(await cp.services.images.publishedReferenceGrant('ubuntu:22.04')).toBeUndefined();
    const again = await admin.request<Detail>('POST', `/api/admin/images/${img.id}/publish`, {
      framework: '社区镜像',
      version: 'ivan-env-1',
    });
    expect(again.status).toBe(409);
  });
});

describe('a save that fails', () => {
  it('ends as failed with the reason in Chinese, and frees its place in the quota', async () => {
    const kim = await user('img_kim');
    const lost = await startTestAgent({ portStart: 24000 });
    let closed = false;
    let id: string | undefined;
    try {
      const lostMarket = await addNodeWithProduct(cp, lost, 'node-img-lost');
      id = await purchaseSettled(cp, kim, lostMarket);
      // The node stops answering (still online until its heartbeats are missed).
      await lost.close();
      closed = true;
      const res = await kim.request<{ image_id: number }>('POST', `/api/containers/${id}/save-image`, {
        name: 'never',
      });
      expect(res.status).toBe(202);
      await cp.services.images.settled();
      const image = await kim.request<{ status: string; error: string }>(
        'GET',
        `/api/images/${res.body.image_id}`,
      );
      expect(image.body.status).toBe('failed');
      expect(image.body.error).toBe('保存镜像失败：无法连接节点，请稍后重试');
      const mine = await kim.request<{ quota: { count: number } }>('GET', '/api/images/mine');
      expect(mine.body.quota.count).toBe(0);
    } finally {
      if (!closed) await lost.close();
      // Its agent is gone: the engine's container is removed here.
      if (id) {
        const docker = new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });
        await docker
          .getContainer(`gpucloud-${id}`)
          .remove({ force: true })
          .catch(() => undefined);
      }
    }
  });
});

describe('without a registry', () => {
  it('answers 503 镜像仓库未配置 to a save, and still lists', async () => {
    const bare = await startTestControlPlane();
    try {
      const api = new ApiClient(bare.url);
      await api.register('img_nobody');
      const userId = Number((await bare.knex('users').where({ username: 'img_nobody' }).first('id')).id);
      const container = await fakeContainer(bare, { userId, nodeId: await fakeNode(bare), priceFen: 100 });
      // Another user's container is still not found.
      const other = new ApiClient(bare.url);
      await other.register('img_nobody2');
      expect(
        (await other.request('POST', `/api/containers/${container}/save-image`, { name: 'env' })).status,
      ).toBe(404);
      const res = await api.request<Detail>('POST', `/api/containers/${container}/save-image`, {
        name: 'env',
      });
      expect(res.status).toBe(503);
      expect(res.body.detail).toBe('镜像仓库未配置');
      const mine = await api.request<{ images: unknown[] }>('GET', '/api/images/mine');
      expect(mine.status).toBe(200);
      expect(mine.body.images).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
