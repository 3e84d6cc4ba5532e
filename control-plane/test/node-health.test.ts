import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gpuMetricsReply } from '../src/modules/nodes/contract.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

interface NodeView {
  id: number;
  name: string;
  status: string;
  unknown_containers: { container_id: string; state: string }[];
}

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let admin: ApiClient;
// The test restarts the agent on the same volumes: the root is the test's, not the agent's.
const volumeRoot = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-volumes-'));
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  cp = await startTestControlPlane({
    // Well above the heartbeat interval: a busy CI machine must not flap the node offline.
    nodeOfflineAfterMs: 4000,
    monitorSyncIntervalMs: 500,
    heartbeatIntervalMs: 500,
  });
  agent = await startTestAgent({ reconcileIntervalMs: 1000, volumeRoot });
  market = await addNodeWithProduct(cp, agent, 'node-health');
  admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
  rmSync(volumeRoot, { recursive: true, force: true });
});

describe('GPU metrics', () => {
  it('streams GPU samples from the agent into per-node series', async () => {
    type Metrics = {
      gpus: { uuid: string; index: number }[];
      samples: { time: string; gpus: { uuid: string; index: number; utilization_percent: number }[] }[];
    };
    const nodeMetrics = await until('a GPU sample', async () => {
      const res = await admin.request<Metrics>('GET', `/api/admin/nodes/${market.nodeId}/metrics?minutes=5`);
      return res.body.samples.length > 0 ? res.body : undefined;
    });
    expectServed(gpuMetricsReply, nodeMetrics);
    expect(nodeMetrics.gpus).toHaveLength(8);
    expect(nodeMetrics.samples[0]?.gpus).toHaveLength(8);
    // Simulated GPUs read a made-up load (a container's share: container-metrics.test.ts).
    const first = nodeMetrics.samples[0]?.gpus[0];
    expect(first?.index).toBe(0);
    expect(first?.utilization_percent).toBeGreaterThanOrEqual(0);
    expect(first?.utilization_percent).toBeLessThanOrEqual(100);

    // A sample stored before GPUs were named by UUID (index only) still reads, by index.
    const bucket = new Date(Math.floor((Date.now() - 120_000) / 15_000) * 15_000);
    await cp
      .knex('gpu_samples')
      .insert({
        node_id: market.nodeId,
        bucket,
        gpus: JSON.stringify(
          Array.from({ length: 8 }, (_, index) => ({
            index,
            utilization_percent: 42,
            memory_used_mib: 0,
            memory_total_mib: 24564,
            temperature_c: 40,
            power_draw_w: 100,
          })),
        ),
      })
      .onConflict(['node_id', 'bucket'])
      .merge();
    const nodeOld = await admin.request<Metrics>(
      'GET',
      `/api/admin/nodes/${market.nodeId}/metrics?minutes=5`,
    );
    expectServed(gpuMetricsReply, nodeOld.body);
    const old = nodeOld.body.samples.find((s) => s.time === bucket.toISOString());
    expect(old?.gpus).toHaveLength(8);
    expect(old?.gpus.map((g) => g.uuid)).toEqual(nodeMetrics.gpus.map((g) => g.uuid));
    expect(old?.gpus.map((g) => g.utilization_percent)).toEqual(Array(8).fill(42));
  });
});

describe('reconciliation', () => {
  it('reports a labelled container the platform does not know, and leaves it running', async () => {
    const orphan = await docker().createContainer({
      Image: inject('testImage'),
      Cmd: ['sleep', '3600'],
      name: 'gpucloud-c-orphan0001',
      Labels: {
        'gpucloud.managed': 'true',
        'gpucloud.container-id': 'c-orphan0001',
        'gpucloud.owner-id': '999',
      },
    });
    try {
      await orphan.start();
      const node = await until('the orphan in the node view', async () => {
        const res = await admin.request<NodeView>('GET', `/api/admin/nodes/${market.nodeId}`);
        return res.body.unknown_containers.some((c) => c.container_id === 'c-orphan0001')
          ? res.body
          : undefined;
      });
      expect(node.unknown_containers.find((c) => c.container_id === 'c-orphan0001')?.state).toBe('running');
      expect((await orphan.inspect()).State.Running).toBe(true);
    } finally {
      await orphan.remove({ force: true });
    }
  });
});

describe('node health', () => {
  it('marks a silent node offline, shows its containers as such, and reconciles when it returns', async () => {
    const user = new ApiClient(cp.url);
    await user.register('health1');
    const a = await user.request<{ container_id: string; status: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market),
    );
    const b = await user.request<{ container_id: string; status: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market),
    );
    expect(a.body).toMatchObject({ status: 'creating' });
    expect(b.body).toMatchObject({ status: 'creating' });
    const port = Number(agent.address.split(':')[1]);

    await agent.close();
    await until(
      'the node offline',
      async () =>
        (await admin.request<NodeView>('GET', `/api/admin/nodes/${market.nodeId}`)).body.status === 'offline',
    );
    const view = await user.request<{ node_status: string; status: string }>(
      'GET',
      `/api/containers/${a.body.container_id}`,
    );
    expect(view.body.node_status).toBe('offline');
    const product = await user.request<{ status: string }>('GET', `/api/cloud-products/${market.productId}`);
    expect(product.body.status).toBe('offline');
    const refused = await user.request<{ detail: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market),
    );
    expect(refused.status).toBe(503);
    expect(refused.body.detail).toBe('节点离线，暂时无法创建实例');

    // While the node is away, one container is removed behind the platform's back.
    await docker().getContainer(`gpucloud-${b.body.container_id}`).remove({ force: true });

    agent = await startTestAgent({
      listen: `127.0.0.1:${port}`,
      token: agent.token,
      portStart: agent.portStart,
      volumeRoot: agent.volumeRoot,
    });
    // The control plane redials with a backoff (2, 4, 8, 16 s): allow for it.
    await until(
      'the node online',
      async () =>
        (await admin.request<NodeView>('GET', `/api/admin/nodes/${market.nodeId}`)).body.status === 'online',
      45_000,
    );
    await until('the vanished container marked not_found', async () => {
      const res = await user.request<{ status: string }>('GET', `/api/containers/${b.body.container_id}`);
      return res.body.status === 'not_found';
    });
    let survivor: { status: string; node_status: string } | undefined;
    await until('the survivor running on an online node', async () => {
      const res = await user.request<{ status: string; node_status: string }>(
        'GET',
        `/api/containers/${a.body.container_id}`,
      );
      survivor = res.body;
      return res.body.status === 'running' && res.body.node_status === 'online';
    }).catch(() => {});
    expect(survivor).toMatchObject({ status: 'running', node_status: 'online' });
  });
});
