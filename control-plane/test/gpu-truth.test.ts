// GPUs are named by their UUID everywhere (allocation, Docker, samples): nvidia-smi's index may
// change between boots and when a GPU is lost. Real PostgreSQL, real agents with simulated GPUs
// steered through their control file (<stateDir>/simulated-gpus.json), real gRPC and Docker.
import { randomBytes } from 'node:crypto';
import { type SimulatedGpuControl, writeSimulatedGpuControl } from '@gpucloud/node-agent';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKnex } from '../src/db/knex.js';
import { SecretBox } from '../src/framework/secret-box.js';
import { frameworkVersionReply } from '../src/modules/catalogue/contract.js';
import { containerReply } from '../src/modules/containers/contract.js';
import { nodeReply } from '../src/modules/nodes/contract.js';
import { totalPriceFen } from '../src/modules/pricing/pricing.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import {
  ADMIN,
  ApiClient,
  createTestDatabase,
  type OutboxItem,
  startControlPlaneOn,
  startTestControlPlane,
} from './harness.js';
import { adjustBalance } from './money.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

interface ContainerView {
  container_id: string;
  status: string;
  gpu_indices: number[];
  gpus: { uuid: string; index: number; pci_bus_id: string; state: string }[];
  gpu_problem: string | null;
}

interface NodeView {
  status: string;
  gpu_total: number;
  gpu_allocated: number;
  gpu_free: number;
  gpu_probe_error: string;
  warnings: string[];
  gpus: {
    uuid: string;
    index: number;
    pci_bus_id: string;
    state: string;
    health_problem: string;
    numa_node: number;
    nvlink_peers: string[];
    allocated: boolean;
    container_id: string | null;
  }[];
}

let cp: RunningControlPlane;
let admin: ApiClient;
/** 8 consumer cards (no NVLink, 2 NUMA nodes) and 8 H100 SXM (NVLink). */
let rtx: { agent: TestAgent; market: MarketFixture; uuids: string[] };
let h100: { agent: TestAgent; market: MarketFixture; uuids: string[] };
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

/** Steers the agent's simulated GPUs (it reads the control file on every inventory). */
function control(agent: TestAgent, value: SimulatedGpuControl): Promise<void> {
  return writeSimulatedGpuControl(agent.stateDir, value);
}

async function until<T>(
  what: string,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Reads the node's inventory again now (as the node monitor does at its interval). */
async function refresh(market: MarketFixture): Promise<void> {
  await cp.jobs.monitor.refreshInventory(await cp.services.nodes.require(market.nodeId));
}

async function nodeView(market: MarketFixture): Promise<NodeView> {
  const res = await admin.request<NodeView>('GET', `/api/admin/nodes/${market.nodeId}`);
  expect(res.status).toBe(200);
  expectServed(nodeReply, res.body);
  return res.body;
}

async function available(market: MarketFixture): Promise<number> {
  const res = await admin.request<{ gpu_available: number }>(
    'GET',
    `/api/cloud-products/${market.productId}`,
  );
  return res.body.gpu_available;
}

async function view(api: ApiClient, id: string): Promise<ContainerView> {
  const res = await api.request<ContainerView>('GET', `/api/containers/${id}`);
  expect(res.status).toBe(200);
  expectServed(containerReply, res.body);
  return res.body;
}

let users = 0;
async function user(prefix: string): Promise<{ api: ApiClient; email: string }> {
  const name = `${prefix}${++users}`;
  const api = new ApiClient(cp.url);
  await api.register(name);
  await adjustBalance(cp, name, 10_000);
  return { api, email: `${name}@example.com` };
}

async function buy(
  api: ApiClient,
  market: MarketFixture,
  gpuCount: number,
  extra: Record<string, unknown> = {},
) {
  return api.request<{ container_id: string; detail?: string; code?: string }>(
    'POST',
    `/api/cloud-products/${market.productId}/purchase`,
    purchaseBody(market, { gpuCount, ...extra }),
  );
}

/** Buys and expects it running; returns the container's id. */
async function bought(
  api: ApiClient,
  market: MarketFixture,
  gpuCount: number,
  extra: Record<string, unknown> = {},
) {
  const res = await buy(api, market, gpuCount, extra);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect((await view(api, res.body.container_id)).status).toBe('running');
  return res.body.container_id;
}

/** The UUIDs the container holds, lowest index first. */
async function held(api: ApiClient, id: string): Promise<string[]> {
  return (await view(api, id)).gpus.map((g) => g.uuid);
}

async function dockerGpus(id: string): Promise<{ env: string | undefined; label: string | undefined }> {
  const inspect = await docker().getContainer(`gpucloud-${id}`).inspect();
  return {
    env: inspect.Config.Env.find((e) => e.startsWith('NVIDIA_VISIBLE_DEVICES=')),
    label: inspect.Config.Labels['gpucloud.gpus'],
  };
}

async function gpuNotices(email: string): Promise<OutboxItem[]> {
  const res = await admin.request<{ items: OutboxItem[] }>(
    'GET',
    `/api/admin/outbox?to=${encodeURIComponent(email)}&size=100`,
  );
  return res.body.items.filter((m) => m.subject.endsWith('GPU 故障提醒'));
}

/** The node's UUIDs by index, as registered (before any test reorders them). */
async function uuidsOf(market: MarketFixture): Promise<string[]> {
  const rows = await cp
    .knex('node_gpus')
    .where({ node_id: market.nodeId })
    .orderBy('gpu_index')
    .select('uuid');
  return rows.map((r: { uuid: string }) => r.uuid);
}

beforeAll(async () => {
  // The monitor reads inventories often: the tests wait for what it sees (and refresh at once
  // where they must).
  cp = await startTestControlPlane({ monitorSyncIntervalMs: 300, gpuInventoryIntervalMs: 600 });
  admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
  const rtxAgent = await startTestAgent({ gpus: '8xRTX4090' });
  const h100Agent = await startTestAgent({ gpus: '8xH100' });
  const rtxMarket = await addNodeWithProduct(cp, rtxAgent, 'node-rtx');
  const h100Market = await addNodeWithProduct(cp, h100Agent, 'node-h100');
  rtx = { agent: rtxAgent, market: rtxMarket, uuids: await uuidsOf(rtxMarket) };
  h100 = { agent: h100Agent, market: h100Market, uuids: await uuidsOf(h100Market) };
});

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await rtx?.agent.close();
  await h100?.agent.close();
});

/** Each test starts from healthy GPUs in their first order, with nothing rented. */
/**
 * Every GPU present, healthy and free. A destroy that fails on a loaded machine (an agent call
 * timing out) is tried again: a container left over would hold GPUs the next test counts on.
 */
async function reset(): Promise<void> {
  await control(rtx.agent, {});
  await control(h100.agent, {});
  await until(
    'every GPU free',
    async () => {
      await destroyAllContainers(cp);
      await refresh(rtx.market);
      await refresh(h100.market);
      return [await nodeView(rtx.market), await nodeView(h100.market)].map((n) => n.gpu_free);
    },
    (free) => free[0] === 8 && free[1] === 8,
    60_000,
  );
}

describe('GPUs by UUID', () => {
  it('registers every GPU with its UUID, bus id and topology, and sells them all', async () => {
    await reset();
    expect(rtx.uuids).toHaveLength(8);
    const node = await nodeView(rtx.market);
    expect(node).toMatchObject({
      status: 'online',
      gpu_total: 8,
      gpu_free: 8,
      gpu_allocated: 0,
      gpu_probe_error: '',
    });
    expect(node.gpus.map((g) => g.uuid)).toEqual(rtx.uuids);
    expect(node.gpus.map((g) => g.state)).toEqual(Array(8).fill('ok'));
    expect(node.gpus[0]?.pci_bus_id).toMatch(/^[0-9A-F]{8}:[0-9A-F]{2}:00\.0$/i);
    // Default simulated topology: two NUMA nodes by position, no NVLink on consumer cards.
    expect(node.gpus.map((g) => g.numa_node)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(node.gpus.every((g) => g.nvlink_peers.length === 0)).toBe(true);
    expect((await nodeView(h100.market)).gpus[0]?.nvlink_peers).toHaveLength(7);
    expect(await available(rtx.market)).toBe(8);
  });

  it('gives Docker the UUIDs of a purchase (label and NVIDIA_VISIBLE_DEVICES), and records them', async () => {
    await reset();
    const { api } = await user('uuidbuyer');
    const id = await bought(api, rtx.market, 2);
    const c = await view(api, id);
    expect(c.gpus.map((g) => g.uuid)).toEqual([rtx.uuids[0], rtx.uuids[1]]);
    expect(c.gpu_indices).toEqual([0, 1]);
    expect(c.gpus.map((g) => g.state)).toEqual(['ok', 'ok']);
    const { env, label } = await dockerGpus(id);
    expect(env).toBe(`NVIDIA_VISIBLE_DEVICES=${rtx.uuids[0]},${rtx.uuids[1]}`);
    expect(label).toContain(rtx.uuids[0]);
    expect(label).toContain(rtx.uuids[1]);
    expect(label).not.toMatch(/(^|,)\d+(,|$)/);
    const rows = await cp.knex('gpu_allocations').where({ container_id: id }).orderBy('gpu_uuid');
    expect(rows.map((r: { gpu_uuid: string }) => r.gpu_uuid)).toEqual([rtx.uuids[0], rtx.uuids[1]].sort());
    const node = await nodeView(rtx.market);
    expect(node).toMatchObject({ gpu_allocated: 2, gpu_free: 6 });
    expect(node.gpus.filter((g) => g.container_id === id).map((g) => g.uuid)).toEqual([
      rtx.uuids[0],
      rtx.uuids[1],
    ]);
  });

  it('after a renumbering (reversed order) every container keeps its own GPU and the market stays right', async () => {
    await reset();
    const { api } = await user('renumber');
    const dailyFen = totalPriceFen({
      unitPriceFen: Math.round(rtx.market.pricePerGpuHour * 100),
      gpuCount: 1,
      billingType: 'daily',
      duration: 1,
    });
    // Prepaid: it keeps its GPU while stopped, and a restart must find the same one.
    const a = await bought(api, rtx.market, 1, { billing_type: 'daily', total_price: dailyFen / 100 });
    const b = await bought(api, rtx.market, 2);
    const aGpus = await held(api, a);
    const bGpus = await held(api, b);
    expect(aGpus).toEqual([rtx.uuids[0]]);
    expect(await available(rtx.market)).toBe(5);

    await control(rtx.agent, { order: [...rtx.uuids].reverse() });
    await refresh(rtx.market);
    const node = await nodeView(rtx.market);
    expect(node.gpus.map((g) => g.uuid)).toEqual([...rtx.uuids].reverse());
    expect(node.gpus.map((g) => g.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(node.gpus.every((g) => g.state === 'ok')).toBe(true);
    expect(node).toMatchObject({ gpu_total: 8, gpu_allocated: 3, gpu_free: 5 });
    expect(await available(rtx.market)).toBe(5);

    // Same GPUs, new indices: the one that was 0 is 7 now.
    const after = await view(api, a);
    expect(after.gpus).toMatchObject([{ uuid: rtx.uuids[0], index: 7, state: 'ok' }]);
    expect(after.gpu_problem).toBeNull();
    expect(await held(api, b)).toEqual([...bGpus].reverse());
    expect((await dockerGpus(a)).env).toBe(`NVIDIA_VISIBLE_DEVICES=${rtx.uuids[0]}`);

    // A restart keeps it on its GPU (by UUID), whatever index that GPU has now.
    expect((await api.request<ContainerView>('POST', `/api/containers/${a}/stop`)).body.status).toBe(
      'stopped',
    );
    const restarted = await api.request<ContainerView>('POST', `/api/containers/${a}/start`);
    expect(restarted.body.status).toBe('running');
    expect(restarted.body.gpus.map((g) => g.uuid)).toEqual(aGpus);
    expect((await dockerGpus(a)).env).toBe(`NVIDIA_VISIBLE_DEVICES=${rtx.uuids[0]}`);

    // The five free ones are sold, none of the held ones twice.
    const { api: other } = await user('renumber');
    const c = await bought(other, rtx.market, 5);
    const cGpus = await held(other, c);
    expect(cGpus.some((u) => aGpus.includes(u) || bGpus.includes(u))).toBe(false);
    expect(await available(rtx.market)).toBe(0);
    const refused = await buy(other, rtx.market, 1);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('GPU_INSUFFICIENT');
  });

  it('a container made when GPUs were named by index keeps working, and gets its UUID at its next start', async () => {
    await reset();
    const { api } = await user('legacy');
    const dailyFen = totalPriceFen({
      unitPriceFen: Math.round(rtx.market.pricePerGpuHour * 100),
      gpuCount: 1,
      billingType: 'daily',
      duration: 1,
    });
    const a = await bought(api, rtx.market, 1, { billing_type: 'daily', total_price: dailyFen / 100 });
    // As a row migrated from index days reads: the devices Docker was given are indices.
    await cp
      .knex('containers')
      .where({ id: a })
      .update({ gpu_devices: JSON.stringify(['0']) });
    const dockerId = async () => (await docker().getContainer(`gpucloud-${a}`).inspect()).Id;
    const before = await dockerId();

    // Renumbered: index 0 is another GPU now. The next start names its own by UUID.
    await control(rtx.agent, { order: [...rtx.uuids].reverse() });
    await refresh(rtx.market);
    expect((await view(api, a)).gpus).toMatchObject([{ uuid: rtx.uuids[0], index: 7 }]);
    expect((await api.request<ContainerView>('POST', `/api/containers/${a}/stop`)).body.status).toBe(
      'stopped',
    );
    const started = await api.request<ContainerView>('POST', `/api/containers/${a}/start`);
    expect(started.body.status, JSON.stringify(started.body)).toBe('running');
    // Recreated with its GPU named by UUID (the one that is index 7 now).
    expect(await dockerId()).not.toBe(before);
    expect((await dockerGpus(a)).env).toBe(`NVIDIA_VISIBLE_DEVICES=${rtx.uuids[0]}`);
    expect((await dockerGpus(a)).label).toBe(rtx.uuids[0]);
    const row = await cp.knex('containers').where({ id: a }).first('gpu_devices');
    expect(row.gpu_devices).toEqual([rtx.uuids[0]]);
    // Named by UUID now: the next start keeps the container as it is.
    await api.request('POST', `/api/containers/${a}/stop`);
    const again = await dockerId();
    expect((await api.request<ContainerView>('POST', `/api/containers/${a}/start`)).body.status).toBe(
      'running',
    );
    expect(await dockerId()).toBe(again);
  });

  it('a GPU that fails is not sold, its holder sees why and is told once, and it is sold again once healthy', async () => {
    await reset();
    const owner = await user('sick');
    const a = await bought(owner.api, rtx.market, 1);
    const [mine] = await held(owner.api, a);
    const spare = rtx.uuids[5] as string;
    await control(rtx.agent, {
      unhealthy: { [mine as string]: 'Xid 79: GPU 已从总线掉线', [spare]: '不可纠正的 ECC 错误' },
    });
    // The node monitor sees it on its own.
    const sick = await until(
      'the holder sees the failure',
      () => view(owner.api, a),
      (c) => c.gpu_problem !== null,
    );
    expect(sick.gpu_problem).toBe(`GPU 0 (${sick.gpus[0]?.pci_bus_id}) 故障: Xid 79: GPU 已从总线掉线`);
    expect(sick.gpus[0]).toMatchObject({ uuid: mine, state: 'unhealthy' });
    const node = await nodeView(rtx.market);
    // One sick GPU does not make the node unsafe.
    expect(node.status).toBe('online');
    expect(node.gpus.find((g) => g.uuid === spare)).toMatchObject({
      state: 'unhealthy',
      health_problem: '不可纠正的 ECC 错误',
      allocated: false,
    });
    expect(node.gpus.find((g) => g.uuid === mine)).toMatchObject({ state: 'unhealthy', container_id: a });
    expect(node.gpu_free).toBe(6);
    expect(await available(rtx.market)).toBe(6);

    const notices = await until(
      'one notice',
      () => gpuNotices(owner.email),
      (n) => n.length > 0,
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]?.body).toContain(a);
    expect(notices[0]?.body).toContain('故障: Xid 79');
    // Later reads of the same failure tell nobody again.
    await refresh(rtx.market);
    await refresh(rtx.market);
    expect(await gpuNotices(owner.email)).toHaveLength(1);

    // Every sellable GPU can be bought; the sick spare never is.
    const other = await user('sick');
    const b = await bought(other.api, rtx.market, 6);
    expect(await held(other.api, b)).not.toContain(spare);
    expect((await buy(other.api, rtx.market, 1)).status).toBe(409);
    await other.api.request('DELETE', `/api/containers/${b}`);

    await control(rtx.agent, {});
    await until(
      'healthy again',
      () => view(owner.api, a),
      (c) => c.gpu_problem === null,
    );
    expect(await available(rtx.market)).toBe(7);
    const c = await bought(other.api, rtx.market, 7);
    expect(await held(other.api, c)).toContain(spare);
    // Its owner's GPU stays its own throughout.
    expect(await held(owner.api, a)).toEqual([mine]);

    // A new failure is a new notice.
    await control(rtx.agent, { unhealthy: { [mine as string]: '需要重置 GPU' } });
    await until(
      'a second notice',
      () => gpuNotices(owner.email),
      (n) => n.length === 2,
    );
  });

  it('a GPU that disappears marks its container, is never sold while held, and renumbers the rest', async () => {
    await reset();
    const owner = await user('lost');
    const a = await bought(owner.api, rtx.market, 1);
    const b = await bought(owner.api, rtx.market, 1);
    const [gone] = await held(owner.api, b);
    // One GPU each, lowest index first: b holds the second GPU.
    expect(gone).toBe(rtx.uuids[1]);
    await control(rtx.agent, { order: rtx.uuids.filter((u) => u !== gone) });
    await refresh(rtx.market);

    const lost = await view(owner.api, b);
    expect(lost.gpu_problem).toBe('GPU 1 已从节点消失');
    expect(lost.gpus).toMatchObject([{ uuid: gone, state: 'missing' }]);
    expect((await view(owner.api, a)).gpu_problem).toBeNull();
    const node = await nodeView(rtx.market);
    expect(node).toMatchObject({ gpu_total: 7, gpu_allocated: 2, gpu_free: 6 });
    expect(node.gpus.find((g) => g.uuid === gone)).toMatchObject({
      state: 'missing',
      allocated: true,
      container_id: b,
    });
    // The GPU after it took its index.
    expect(node.gpus.find((g) => g.uuid === rtx.uuids[2])?.index).toBe(1);
    expect(
      await until(
        'one notice',
        () => gpuNotices(owner.email),
        (n) => n.length === 1,
      ),
    ).toHaveLength(1);

    const other = await user('lost');
    const c = await bought(other.api, rtx.market, 6);
    expect(await held(other.api, c)).not.toContain(gone);
    expect((await buy(other.api, rtx.market, 1)).status).toBe(409);
    expect(await cp.knex('gpu_allocations').where({ gpu_uuid: gone })).toHaveLength(1);

    // Back on the bus: its container's again, still not for sale.
    await control(rtx.agent, {});
    await refresh(rtx.market);
    expect((await view(owner.api, b)).gpu_problem).toBeNull();
    expect(await available(rtx.market)).toBe(0);
  });

  it('does not sell MIG GPUs, nor GPUs whose NVLink fabric is not Completed', async () => {
    await reset();
    await control(rtx.agent, { mig: [rtx.uuids[3] as string] });
    await refresh(rtx.market);
    expect((await nodeView(rtx.market)).gpus[3]).toMatchObject({ state: 'mig' });
    expect(await available(rtx.market)).toBe(7);

    await control(h100.agent, { fabricState: 'In Progress' });
    await refresh(h100.market);
    const hgx = await nodeView(h100.market);
    expect(hgx.gpus.map((g) => g.state)).toEqual(Array(8).fill('fabric'));
    expect(hgx.gpu_free).toBe(0);
    expect(await available(h100.market)).toBe(0);
    const { api } = await user('fabric');
    const refused = await buy(api, h100.market, 1);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('GPU 资源不足，当前可用 0 卡');

    await control(h100.agent, { fabricState: 'Completed' });
    await refresh(h100.market);
    expect(await available(h100.market)).toBe(8);
    await bought(api, h100.market, 1);
  });
});

describe('NVIDIA driver capabilities of a framework version', () => {
  it('are edited by admins (validated) and reach the container as NVIDIA_DRIVER_CAPABILITIES', async () => {
    await reset();
    const base = await cp.services.catalogue.version(rtx.market.frameworkId, rtx.market.versionId);
    const path = `/api/admin/frameworks/${rtx.market.frameworkId}/versions`;
    const bad = await admin.request<{ detail: string }>('POST', path, {
      version: 'ffmpeg-bad',
      image: base.image,
      ports: base.ports,
      extra_driver_capabilities: ['all'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('驱动能力只能是 compute、utility、video、graphics、display 或 compat32');
    const created = await admin.request<{ id: number; extra_driver_capabilities: string[] }>('POST', path, {
      version: 'ffmpeg',
      image: base.image,
      ports: base.ports,
      extra_driver_capabilities: ['video', 'video'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectServed(frameworkVersionReply, created.body);
    expect(created.body.extra_driver_capabilities).toEqual(['video']);
    const edited = await admin.request<{ extra_driver_capabilities: string[] }>(
      'PUT',
      `/api/admin/framework-versions/${created.body.id}`,
      {
        version: 'ffmpeg',
        image: base.image,
        ports: base.ports,
        extra_driver_capabilities: ['video', 'graphics'],
      },
    );
    expect(edited.body.extra_driver_capabilities).toEqual(['video', 'graphics']);
    // A version saved without them asks for none.
    expect(
      (await cp.services.catalogue.version(rtx.market.frameworkId, rtx.market.versionId))
        .extra_driver_capabilities,
    ).toEqual([]);

    const { api } = await user('ffmpeg');
    const id = await bought(api, rtx.market, 1, { frameworkVersion: created.body.id });
    const env = (await docker().getContainer(`gpucloud-${id}`).inspect()).Config.Env;
    expect(env).toContain('NVIDIA_DRIVER_CAPABILITIES=compute,utility,video,graphics');
    const plain = await bought(api, rtx.market, 1);
    expect((await docker().getContainer(`gpucloud-${plain}`).inspect()).Config.Env).toContain(
      'NVIDIA_DRIVER_CAPABILITIES=compute,utility',
    );
  });
});

describe('placement of several GPUs', () => {
  it('keeps a rental inside one NVLink domain when one has room (fewest free first)', async () => {
    await reset();
    const u = h100.uuids;
    // Two domains that cut across the NUMA halves.
    await control(h100.agent, {
      nvlink: [[u[0], u[1], u[4], u[5]] as string[], [u[2], u[3], u[6], u[7]] as string[]],
    });
    await refresh(h100.market);
    const { api } = await user('nvlink');
    expect(await held(api, await bought(api, h100.market, 1))).toEqual([u[0]]);
    // The domain with three free fits two: not the lowest indices (1, 2), not NUMA 0.
    expect(await held(api, await bought(api, h100.market, 2))).toEqual([u[1], u[4]]);
    expect(await held(api, await bought(api, h100.market, 4))).toEqual([u[2], u[3], u[6], u[7]]);
  });

  it('else inside one NUMA node, else the lowest indices', async () => {
    await reset();
    const u = rtx.uuids;
    const { api } = await user('numa');
    expect(await held(api, await bought(api, rtx.market, 1))).toEqual([u[0]]);
    // NUMA 0 has three free, NUMA 1 four: four go to NUMA 1.
    const four = await bought(api, rtx.market, 4);
    expect(await held(api, four)).toEqual([u[4], u[5], u[6], u[7]]);
    expect(await held(api, await bought(api, rtx.market, 2))).toEqual([u[1], u[2]]);
    await api.request('DELETE', `/api/containers/${four}`);
    // Free: 3 (NUMA 0) and 4-7 (NUMA 1): two fit in NUMA 1 only.
    expect(await held(api, await bought(api, rtx.market, 2))).toEqual([u[4], u[5]]);
    // Free: 3, 6, 7: no NUMA node has three: the lowest indices.
    expect(await held(api, await bought(api, rtx.market, 3))).toEqual([u[3], u[6], u[7]]);
  });
});

describe('a node whose nvidia-smi fails as a whole', () => {
  it('keeps its GPUs (unavailable), shows the error, and stays usable', async () => {
    await reset();
    const { api } = await user('probe');
    const a = await bought(api, rtx.market, 1);
    // The monitor would read the (simulated, healthy) node again: stop it for this last test.
    cp.jobs.monitor.stop();
    const node = await cp.services.nodes.require(rtx.market.nodeId);
    const info = await cp.services.agents.get(node).getHostInfo(5000);
    await cp.services.nodes.applyHostInfo(node, {
      ...info,
      gpus: [],
      gpuProbeError: 'nvidia-smi 执行失败：Unable to determine the device handle for GPU0000:3B:00.0',
    });
    const view1 = await nodeView(rtx.market);
    expect(view1).toMatchObject({
      status: 'online',
      gpu_total: 8,
      gpu_allocated: 1,
      gpu_free: 0,
      gpu_probe_error: 'nvidia-smi 执行失败：Unable to determine the device handle for GPU0000:3B:00.0',
    });
    expect(view1.gpus.map((g) => g.uuid)).toEqual(rtx.uuids);
    expect(view1.gpus.every((g) => g.state === 'ok')).toBe(true);
    expect(await available(rtx.market)).toBe(0);
    expect((await buy(api, rtx.market, 1)).status).toBe(409);
    expect((await view(api, a)).gpus).toMatchObject([{ uuid: rtx.uuids[0] }]);

    // The next good report makes them sellable again.
    await cp.services.nodes.refresh(node);
    expect((await nodeView(rtx.market)).gpu_probe_error).toBe('');
    expect(await available(rtx.market)).toBe(7);
  });
});

describe('the migration to GPUs by UUID', () => {
  it('keeps every allocation made by index, naming the GPU by the UUID its index had', async () => {
    const url = await createTestDatabase();
    const secretKey = randomBytes(32);
    const knex = createKnex(url, { min: 0, max: 2 });
    try {
      for (;;) {
        const [done] = (await knex.migrate.list()) as [{ name: string }[], unknown[]];
        if (done.some((m) => m.name === '20261124000054_billing_accounts')) break;
        await knex.migrate.up();
      }
      const [user] = await knex('users').insert({ username: 'old', password_hash: 'x' }).returning('id');
      const [node] = await knex('nodes')
        .insert({ name: 'old-node', address: '127.0.0.1:1', token: 't', region: '测试区' })
        .returning('id');
      await knex('node_gpus').insert(
        ['GPU-A', 'GPU-B', 'GPU-C', 'GPU-D'].map((uuid, gpu_index) => ({
          node_id: node.id,
          gpu_index,
          uuid,
          model: 'NVIDIA GeForce RTX 4090',
        })),
      );
      const container = (id: string, gpu_count: number) => ({
        id,
        user_id: user.id,
        node_id: node.id,
        name: id,
        image: 'img',
        status: 'running',
        billing_type: 'hourly',
        price_fen: 100,
        gpu_count,
        password_encrypted: new SecretBox(secretKey).seal('old-password'),
      });
      await knex('containers').insert([container('c-old-1', 2), container('c-old-2', 2)]);
      await knex('gpu_allocations').insert([
        { node_id: node.id, gpu_index: 1, container_id: 'c-old-1' },
        { node_id: node.id, gpu_index: 2, container_id: 'c-old-1' },
        { node_id: node.id, gpu_index: 3, container_id: 'c-old-2' },
        // An index the node no longer lists: kept, under a name that matches no GPU.
        { node_id: node.id, gpu_index: 6, container_id: 'c-old-2' },
      ]);

      await knex.migrate.latest();
      const rows = await knex('gpu_allocations').orderBy('id').select('container_id', 'gpu_uuid');
      expect(rows).toEqual([
        { container_id: 'c-old-1', gpu_uuid: 'GPU-B' },
        { container_id: 'c-old-1', gpu_uuid: 'GPU-C' },
        { container_id: 'c-old-2', gpu_uuid: 'GPU-D' },
        { container_id: 'c-old-2', gpu_uuid: 'unknown-index-6' },
      ]);
      // The same GPU cannot be given twice; an index may repeat in node_gpus (a renumbering).
      await expect(
        knex('gpu_allocations').insert({ node_id: node.id, gpu_uuid: 'GPU-B', container_id: 'c-old-2' }),
      ).rejects.toThrow(/unique/);
      await knex('node_gpus').insert({ node_id: node.id, gpu_index: 1, uuid: 'GPU-E', model: 'x' });
      await knex('node_gpus').where({ uuid: 'GPU-E' }).delete();

      // The control plane reads them: the holder sees its GPUs by UUID, the vanished one as missing.
      const old = await startControlPlaneOn(url, { secretKey });
      try {
        const all = await old.services.containers.listAll({ page: 1, size: 10 });
        const one = all.items.find((c) => c.container_id === 'c-old-1');
        expect(one?.gpus).toEqual([
          { uuid: 'GPU-B', index: 1, pci_bus_id: '', state: 'ok' },
          { uuid: 'GPU-C', index: 2, pci_bus_id: '', state: 'ok' },
        ]);
        expect(one?.gpu_indices).toEqual([1, 2]);
        const two = all.items.find((c) => c.container_id === 'c-old-2');
        expect(two?.gpus.map((g) => g.state)).toEqual(['missing', 'ok']);
        expect(two?.gpu_problem).toBe('GPU unknown-index-6 已从节点消失');
      } finally {
        await old.close();
      }

      // And back (the later migrations first): the indices return where the GPUs are known.
      for (;;) {
        const [done] = (await knex.migrate.list()) as [{ name: string }[], unknown[]];
        if (!done.some((m) => m.name === '20261124000055_gpu_truth')) break;
        await knex.migrate.down();
      }
      const back = await knex('gpu_allocations').orderBy('id').select('container_id', 'gpu_index');
      expect(back.slice(0, 3)).toEqual([
        { container_id: 'c-old-1', gpu_index: 1 },
        { container_id: 'c-old-1', gpu_index: 2 },
        { container_id: 'c-old-2', gpu_index: 3 },
      ]);
      expect(back).toHaveLength(4);
    } finally {
      await knex.destroy();
    }
  });
});
