import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  buildLayeredImage,
  type LocalRegistry,
  startLocalRegistry,
} from '../../node-agent/test/local-registry.js';
import type { NodeImagesView, NodeImageView } from '../src/modules/nodes/images.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

type NodeImage = NodeImageView;
type NodeImages = NodeImagesView;

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let admin: ApiClient;
let registry: LocalRegistry;
let warmRef: string;
let versionId: number;
let frameworkId: number;
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

beforeAll(async () => {
  cp = await startTestControlPlane();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'node-images');
  admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
  // A public registry whose answers come slowly enough that a pull has a visible middle.
  registry = await startLocalRegistry({ throttleBytesPerSecond: 512 * 1024 });
  const source = `gpucloud-test/warm-source:${Date.now().toString(36)}`;
  await buildLayeredImage(docker(), inject('testImage'), source, 3, 700_000);
  warmRef = await registry.push(docker(), source, 'gpucloud/warm', 'v1');
  // Only the registry has it now: a warm-up has to download every layer.
  await docker().getImage(warmRef).remove();
  await docker().getImage(source).remove();
  const fw = await admin.request<{ id: number }>('POST', '/api/admin/frameworks', {
    name: 'WarmTest',
    ports: { ssh: 22 },
  });
  const version = await admin.request<{ id: number }>(
    'POST',
    `/api/admin/frameworks/${fw.body.id}/versions`,
    {
      version: '1.0',
      image: warmRef,
      cuda_version: '12.4',
      ports: { ssh: 22 },
    },
  );
  expect(version.status).toBe(201);
  versionId = version.body.id;
  frameworkId = fw.body.id;
}, 120_000);

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
  await docker()
    .getImage(warmRef)
    .remove({ force: true })
    .catch(() => undefined);
  await registry?.close();
});

const images = async () => {
  const res = await admin.request<NodeImages>('GET', `/api/admin/nodes/${market.nodeId}/images`);
  expect(res.status).toBe(200);
  return res.body;
};
const entry = async (image: string) => (await images()).items.find((i) => i.image === image);

describe('warm images (节点 → 镜像)', () => {
  it('lists every catalogue image with what the node holds, its size and the disk', async () => {
    const list = await images();
    const held = list.items.find((i) => i.image === inject('testImage'));
    expect(held).toMatchObject({ status: 'present', progress: 100, in_catalogue: true });
    expect(held?.versions.length).toBeGreaterThan(0);
    expect(held?.size_bytes).toBeGreaterThan(0);
    expect(await entry(warmRef)).toMatchObject({ status: 'absent', versions: ['WarmTest 1.0'] });
    // The seeded framework images (pytorch/pytorch …) are in the list, not on this node.
    expect(list.items.some((i) => i.image.startsWith('pytorch/pytorch') && i.status === 'absent')).toBe(true);
    expect(list.disk_total_bytes).toBeGreaterThan(0);
    expect(list.disk_free_bytes).toBeGreaterThan(0);
  });

  it('warms an image on the node: 预热中 with a growing percentage, then present, and the market marks it', async () => {
    const before = await cp.services.products.get(market.productId);
    expect(before.warm_version_ids).not.toContain(versionId);

    const started = await admin.request<NodeImage>('POST', `/api/admin/nodes/${market.nodeId}/images/warm`, {
      image: warmRef,
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ image: warmRef, status: 'pulling', progress: 0 });
    const again = await admin.request<{ detail: string }>(
      'POST',
      `/api/admin/nodes/${market.nodeId}/images/warm`,
      {
        image: warmRef,
      },
    );
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('该镜像正在预热');

    const seen: number[] = [];
    const phases: (string | null)[] = [];
    for (;;) {
      const now = await entry(warmRef);
      if (now?.status !== 'pulling') {
        expect(now).toMatchObject({ status: 'present', progress: 100, error: null, pull_phase: null });
        expect(now?.size_bytes).toBeGreaterThan(2_000_000);
        break;
      }
      seen.push(now.progress);
      phases.push(now.pull_phase);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(seen.some((p) => p > 0 && p < 100)).toBe(true);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen); // never goes back
    // 下载中 from the start (the registry sends slowly), 解压中 only after: never back to downloading.
    expect(phases[0]).toBe('downloading');
    expect(phases.join(' ')).toMatch(/^(downloading ?)+(extracting ?)*$/);

    const present = await admin.request<{ detail: string }>(
      'POST',
      `/api/admin/nodes/${market.nodeId}/images/warm`,
      {
        image: warmRef,
      },
    );
    expect(present.status).toBe(409);
    expect(present.body.detail).toBe('该镜像已在节点上');
    const user = new ApiClient(cp.url);
    await user.login(ADMIN.username, ADMIN.password);
    const products = await user.request<{ items: { id: number; warm_version_ids: number[] }[] }>(
      'GET',
      '/api/cloud-products',
    );
    expect(products.body.items.find((p) => p.id === market.productId)?.warm_version_ids).toContain(versionId);
  });

  it('ends a warm-up that cannot pull as failed, with the reason', async () => {
    const fw = await admin.request<{ id: number }>('POST', '/api/admin/frameworks', {
      name: 'Gone',
      ports: {},
    });
    const missing = '127.0.0.1:1/gpucloud/nowhere:v1';
    await admin.request('POST', `/api/admin/frameworks/${fw.body.id}/versions`, {
      version: '1',
      image: missing,
      cuda_version: '12.4',
      ports: { ssh: 22 },
    });
    const started = await admin.request('POST', `/api/admin/nodes/${market.nodeId}/images/warm`, {
      image: missing,
    });
    expect(started.status).toBe(202);
    await expect
      .poll(async () => (await entry(missing))?.status, { timeout: 30_000, interval: 200 })
      .toBe('failed');
    expect((await entry(missing))?.error).toMatch(/镜像|refused|拉取/);
  });

  it('refuses images outside the catalogue, unknown nodes and non-admins', async () => {
    const outside = await admin.request<{ detail: string }>(
      'POST',
      `/api/admin/nodes/${market.nodeId}/images/warm`,
      { image: 'someone/else:latest' },
    );
    expect(outside.status).toBe(400);
    expect(outside.body.detail).toBe('该镜像不在镜像目录中');
    const empty = await admin.request<{ detail: string }>(
      'POST',
      `/api/admin/nodes/${market.nodeId}/images/warm`,
      {},
    );
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('请选择镜像');
    expect((await admin.request('GET', '/api/admin/nodes/999999/images')).status).toBe(404);
    const anonymous = new ApiClient(cp.url);
    expect((await anonymous.request('GET', `/api/admin/nodes/${market.nodeId}/images`)).status).toBe(401);
  });

  it('a purchase of an image the node does not hold shows 拉取镜像中 with the percentage and 下载中 / 解压中', async () => {
    // The warmed image goes from the node again; the listing says so.
    await docker().getImage(warmRef).remove({ force: true });
    expect((await entry(warmRef))?.status).toBe('absent');
    const buyer = new ApiClient(cp.url);
    await buyer.register('pull_watcher');
    buyer.awaitProvisioning = false;
    const bought = await buyer.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market, { framework: frameworkId, frameworkVersion: versionId }),
    );
    expect(bought.status).toBe(201);
    const seen: { status: string; pull_progress: number | null; pull_phase: string | null }[] = [];
    // Until the pull is over (what the image then does once started is another test's).
    for (let i = 0; ; i++) {
      const res = await buyer.request<(typeof seen)[number]>(
        'GET',
        `/api/containers/${bought.body.container_id}`,
      );
      const { status, pull_progress, pull_phase } = res.body;
      seen.push({ status, pull_progress, pull_phase });
      if (status !== 'pulling' && seen.some((s) => s.status === 'pulling')) break;
      if (i > 600) throw new Error(`still ${status} after two minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(seen.at(-1)).toMatchObject({ pull_progress: null, pull_phase: null });
    const pulling = seen.filter((s) => s.status === 'pulling');
    expect(pulling.some((s) => (s.pull_progress as number) > 0 && (s.pull_progress as number) < 100)).toBe(
      true,
    );
    expect(pulling[0]?.pull_phase).toBe('downloading');
    expect(pulling.map((s) => s.pull_phase).join(' ')).toMatch(/^(downloading ?)+(extracting ?)*$/);
    const percents = pulling.map((s) => s.pull_progress as number);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
  });
});
