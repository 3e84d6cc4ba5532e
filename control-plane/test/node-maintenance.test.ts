import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeReply } from '../src/modules/nodes/contract.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { ADMIN, ApiClient, createTestDatabase, outboxMessage, startControlPlaneOn } from './harness.js';
import { createApiKey, UBUNTU_IMAGE } from './mcp.js';
import { adjustBalance, balanceAndLedger } from './money.js';
import {
  addNodeWithProduct,
  destroyAllContainers,
  type MarketFixture,
  purchaseBody,
  purchaseSettled,
} from './purchase.js';

// Issue 19, maintenance and health: two replicas on one database and a real agent. A drain
// (维护中) hides the node's product on the other replica's very next market reply, a purchase
// there is refused with nothing taken, the running container keeps running and its owner is told
// (container, region, date); putting it back offers it again. Removing a node that still holds
// containers or volumes names them. The node view's health fields come from the real agent.

type NodeView = ReturnType<typeof nodeReply.parse>;

let a: RunningControlPlane;
let b: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let adminA: ApiClient;
let adminB: ApiClient;
let user: ApiClient;
let containerId: string;
const EMAIL = 'maint_owner@example.com';

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

const offered = async (client: ApiClient) =>
  (await client.request<{ items: { id: number }[] }>('GET', '/api/cloud-products')).body.items.some(
    (p) => p.id === market.productId,
  );

const nodeView = async (client: ApiClient, id = market.nodeId): Promise<NodeView> => {
  const res = await client.request<NodeView>('GET', `/api/admin/nodes/${id}`);
  expect(res.status).toBe(200);
  return nodeReply.parse(res.body);
};

beforeAll(async () => {
  const url = await createTestDatabase();
  const overrides = {
    secretKey: randomBytes(32),
    nodeOfflineAfterMs: 4000,
    monitorSyncIntervalMs: 500,
    heartbeatIntervalMs: 500,
  };
  a = await startControlPlaneOn(url, overrides);
  b = await startControlPlaneOn(url, overrides);
  // Host ports of this file's band (35000-35499): other suites may run beside it.
  agent = await startTestAgent({ reconcileIntervalMs: 1000 });
  market = await addNodeWithProduct(a, agent, 'maint-node');
  adminA = new ApiClient(a.url);
  await adminA.login(ADMIN.username, ADMIN.password);
  adminB = new ApiClient(b.url);
  await adminB.login(ADMIN.username, ADMIN.password);
  user = new ApiClient(a.url);
  await user.register('maint_owner', 'secret123', EMAIL);
  await adjustBalance(a, 'maint_owner', 100);
  containerId = await purchaseSettled(a, user, market, { instanceName: 'train-job' });
});

afterAll(async () => {
  if (a) await destroyAllContainers(a);
  await a?.close();
  await b?.close();
  await agent?.close();
});

describe('maintenance', () => {
  it('hides the product on both replicas, refuses purchases with nothing taken, tells the owner, and puts it back', async () => {
    const running = await user.request<{ status: string }>('GET', `/api/containers/${containerId}`);
    expect(running.body.status).toBe('running');
    // Both replicas have the market cached with the product in it.
    const userB = new ApiClient(b.url);
    userB.token = user.token;
    expect(await offered(user)).toBe(true);
    expect(await offered(userB)).toBe(true);
    expect(await offered(userB)).toBe(true);

    // Bad input is refused in Chinese.
    const past = await adminA.request<{ detail: string }>(
      'POST',
      `/api/admin/nodes/${market.nodeId}/maintenance`,
      {
        until: new Date(Date.now() - 3600_000).toISOString(),
      },
    );
    expect(past.status).toBe(400);
    expect(past.body.detail).toBe('结束时间须晚于当前时间');
    const long = await adminA.request<{ detail: string }>(
      'POST',
      `/api/admin/nodes/${market.nodeId}/maintenance`,
      {
        reason: 'x'.repeat(201),
      },
    );
    expect(long.status).toBe(400);
    expect(long.body.detail).toBe('维护原因不能超过200个字符');

    const until = new Date(Date.UTC(2031, 0, 2, 8, 30));
    const drained = await adminA.request<NodeView>('POST', `/api/admin/nodes/${market.nodeId}/maintenance`, {
      until: until.toISOString(),
      reason: '更换电源',
    });
    expect(drained.status).toBe(200);
    expect(drained.body.maintenance).toMatchObject({ until: until.toISOString(), reason: '更换电源' });

    // The other replica's very next reply no longer offers it (nor this one's).
    expect(await offered(userB)).toBe(false);
    expect(await offered(user)).toBe(false);
    expect((await nodeView(adminB)).maintenance?.reason).toBe('更换电源');

    // A purchase through the other replica is refused, and nothing is taken.
    const before = await balanceAndLedger(a, 'maint_owner');
    const containersBefore = await a.knex('containers').count<{ count: string }[]>({ count: '*' });
    const ordersBefore = await a.knex('container_orders').count<{ count: string }[]>({ count: '*' });
    const refused = await userB.request<{ detail: string; code: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('节点维护中，暂不可购买');
    expect(await balanceAndLedger(a, 'maint_owner')).toEqual(before);
    expect(before.balanceFen).toBe(before.ledgerFen);
    expect(await a.knex('containers').count<{ count: string }[]>({ count: '*' })).toEqual(containersBefore);
    // MCP's create (a console purchase underneath) is refused alike, and takes nothing either.
    const key = await createApiKey(user);
    const mcp = await new ApiClient(b.url).request<{ detail: string }>(
      'POST',
      '/api/mcp/containers',
      {
        name: 'mcp-box',
        image_name: UBUNTU_IMAGE,
        product_id: market.productId,
        gpu_count: 1,
        password: 'Mcp-pass-123',
      },
      { 'X-API-Key': key },
    );
    expect(mcp.status).toBe(409);
    expect(mcp.body.detail).toBe('节点维护中，暂不可购买');
    expect(await balanceAndLedger(a, 'maint_owner')).toEqual(before);
    expect(await a.knex('containers').count<{ count: string }[]>({ count: '*' })).toEqual(containersBefore);
    expect(await a.knex('container_orders').count<{ count: string }[]>({ count: '*' })).toEqual(ordersBefore);

    // The running container keeps running; its owner was told, with the container, region and date.
    const notice = await outboxMessage(a.url, EMAIL);
    expect(notice.subject).toContain('节点维护通知');
    expect(notice.body).toContain('train-job');
    expect(notice.body).toContain(containerId);
    expect(notice.body).toContain('测试区');
    expect(notice.body).toContain('2031-01-02 08:30');
    expect(notice.body).toContain('更换电源');
    expect(
      (await user.request<{ status: string }>('GET', `/api/containers/${containerId}`)).body.status,
    ).toBe('running');

    // Put back through the other replica: offered again on both, and the owner told.
    const back = await adminB.request<NodeView>('DELETE', `/api/admin/nodes/${market.nodeId}/maintenance`);
    expect(back.status).toBe(200);
    expect(back.body.maintenance).toBeNull();
    expect(await offered(user)).toBe(true);
    expect(await offered(userB)).toBe(true);
    const ended = await outboxMessage(a.url, EMAIL);
    expect(ended.subject).toContain('节点维护结束');
    expect(ended.body).toContain(containerId);
  });

  it('without an end date says 另行通知', async () => {
    const res = await adminA.request<NodeView>('POST', `/api/admin/nodes/${market.nodeId}/maintenance`, {});
    expect(res.status).toBe(200);
    expect(res.body.maintenance).toMatchObject({ until: null, reason: null });
    expect((await outboxMessage(a.url, EMAIL)).body).toContain('另行通知');
    expect((await adminA.request('DELETE', `/api/admin/nodes/${market.nodeId}/maintenance`)).status).toBe(
      200,
    );
    expect(await offered(user)).toBe(true);
  });
});

describe('removing a node', () => {
  it('names the containers still on it', async () => {
    const res = await adminA.request<{ detail: string; code: string }>(
      'DELETE',
      `/api/admin/nodes/${market.nodeId}`,
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('NODE_IN_USE');
    expect(res.body.detail).toBe(`节点上仍有 1 个容器：train-job（${containerId}），请先销毁容器`);
  });

  it('names up to 10 volumes, then 等 N 个', async () => {
    const [node] = await a
      .knex('nodes')
      .insert({
        name: 'volume-node',
        address: '127.0.0.1:1',
        token: 't',
        region: '测试区',
        status: 'offline',
      })
      .returning('id');
    const id = (node as { id: number }).id;
    const owner = await a.knex('users').where({ username: 'maint_owner' }).first('id');
    await a.knex('volumes').insert(
      Array.from({ length: 12 }, (_, i) => ({
        user_id: owner.id,
        node_id: id,
        name: `vol${i + 1}`,
        path: `/v/${i}`,
      })),
    );
    const res = await adminA.request<{ detail: string; code: string }>('DELETE', `/api/admin/nodes/${id}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('NODE_HAS_VOLUMES');
    expect(res.body.detail).toMatch(/^节点上仍有 12 个用户的存储卷：vol1（\d+）、/);
    expect(res.body.detail).toContain('vol10（');
    expect(res.body.detail).not.toContain('vol11（');
    expect(res.body.detail).toContain('等 12 个，请先删除存储卷');
    await a.knex('volumes').where({ node_id: id }).delete();
    expect((await adminA.request('DELETE', `/api/admin/nodes/${id}`)).status).toBe(200);
  });
});

describe('health at a glance', () => {
  it('reports heartbeat age, GPUs free/used/held, toolkit, disks from the real agent', async () => {
    const view = await until('the agent disks in the node view', async () => {
      const v = await nodeView(adminA);
      return v.volume_disk_total_bytes !== null ? v : undefined;
    });
    expect(view.status).toBe('online');
    expect(view.heartbeat_age_ms).not.toBeNull();
    expect(view.heartbeat_age_ms as number).toBeGreaterThanOrEqual(0);
    expect(view.gpu_usage).toEqual({ free: 7, used: 1, held: 0, total: 8 });
    expect(view.toolkit_unsafe).toBe(false);
    expect(view.toolkit_unsafe_reason).toBe('');
    expect(view.image_disk_total_bytes as number).toBeGreaterThan(0);
    expect(view.image_disk_free_bytes as number).toBeGreaterThan(0);
    expect(view.image_disk_free_bytes as number).toBeLessThanOrEqual(view.image_disk_total_bytes as number);
    expect(view.volume_disk_free_bytes as number).toBeGreaterThan(0);
    expect(view.last_error).toBeNull();
    expect(view.maintenance).toBeNull();
    expect(view.agent_version).not.toBe('');
    expect(view.agent_version).not.toBeNull();

    // A stopped prepaid container keeps what was paid for, its GPU: held (保留), not used (an
    // hourly one gives its GPUs back when stopped).
    const prepaid = await purchaseSettled(a, user, market, {
      instanceName: 'prepaid-job',
      billing_type: 'daily',
      duration: 1,
      total_price: 45.37,
    });
    const stopped = await user.request('POST', `/api/containers/${prepaid}/stop`);
    expect(stopped.status).toBeLessThan(300);
    const afterStop = await until('the stopped container held', async () => {
      const v = await nodeView(adminA);
      return v.gpu_usage.held === 1 ? v : undefined;
    });
    expect(afterStop.gpu_usage).toEqual({ free: 6, used: 1, held: 1, total: 8 });
  });

  it('shows the node monitor’s last error, and clears it once the node answers again', async () => {
    const port = Number(agent.address.split(':').pop());
    await agent.close();
    const failed = await until(
      'a last error',
      async () => {
        const v = await nodeView(adminA);
        return v.last_error ? v : undefined;
      },
      30_000,
    );
    expect(failed.last_error_at).not.toBeNull();
    expect(Date.parse(failed.last_error_at as string)).toBeGreaterThan(Date.now() - 60_000);
    agent = await startTestAgent({
      listen: `127.0.0.1:${port}`,
      token: agent.token,
      portStart: agent.portStart,
      volumeRoot: agent.volumeRoot,
    });
    // The monitors redial with a backoff (2, 4, 8, 16 s): allow for it.
    await until(
      'the last error cleared',
      async () => {
        const v = await nodeView(adminA);
        return v.status === 'online' && v.last_error === null;
      },
      60_000,
    );
  }, 120_000);
});
