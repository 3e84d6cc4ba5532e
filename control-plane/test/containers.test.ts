import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { containerListReply } from '../src/modules/containers/contract.js';
import { nodeListReply } from '../src/modules/nodes/contract.js';
import { totalPriceFen } from '../src/modules/pricing/pricing.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';
import { adjustBalance, balanceAndLedger, grantCoupon } from './money.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

interface ContainerView {
  container_id: string;
  status: string;
  ssh_server: string;
  ssh_port: number;
  password: string;
  gpu_indices: number[];
  gpus: { uuid: string; index: number; state: string }[];
  gpu_problem: string | null;
  simulated: boolean;
  start_error: string | null;
}

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
const docker = () => {
  const host = inject('dockerHost');
  return new Docker({ socketPath: host.replace(/^unix:\/\//, '') });
};

beforeAll(async () => {
  cp = await startTestControlPlane();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'node-a');
});

afterAll(async () => {
  // Destroy whatever the tests left, through the platform, so Docker is clean.
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

async function user(name: string): Promise<ApiClient> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  return api;
}

describe('nodes registry', () => {
  it('shows the node with its simulated GPUs, and refuses unreachable nodes and wrong tokens', async () => {
    const admin = new ApiClient(cp.url);
    await admin.login('admin', 'admin-password-for-tests');
    const list = await admin.request<{
      items: {
        name: string;
        status: string;
        gpu_total: number;
        simulated: boolean;
        docker_available: boolean;
        gpus: unknown[];
      }[];
    }>('GET', '/api/admin/nodes');
    expectServed(nodeListReply, list.body);
    const node = list.body.items.find((n) => n.name === 'node-a');
    expect(node).toMatchObject({ status: 'online', gpu_total: 8, simulated: true, docker_available: true });
    expect(node?.gpus).toHaveLength(8);

    const wrongToken = await admin.request<{ detail: string }>('POST', '/api/admin/nodes', {
      name: 'bad',
      address: agent.address,
      token: 'x'.repeat(20),
      region: '测试区',
    });
    expect(wrongToken.status).toBe(502);
    expect(wrongToken.body.detail).toBe('节点拒绝了令牌，请检查节点令牌');
    const unreachable = await admin.request<{ detail: string }>('POST', '/api/admin/nodes', {
      name: 'gone',
      address: '127.0.0.1:1',
      token: 'y'.repeat(20),
      region: '测试区',
    });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.detail).toContain('无法连接节点');
    expect(await cp.knex('nodes').whereIn('name', ['bad', 'gone'])).toHaveLength(0);
  });
});

describe('purchase and lifecycle', () => {
  it('when the image cannot be pulled, the purchase answers at once, then ends 失败 with the reason, its GPU and ports freed and the charge given back', async () => {
    const admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const version = await admin.request<{ id: number }>(
      'POST',
      `/api/admin/frameworks/${market.frameworkId}/versions`,
      // Nothing listens on port 1: the node's pull fails at once.
      { version: 'unpullable', image: '127.0.0.1:1/gpucloud/missing:none', ports: { ssh: 22 } },
    );
    expect(version.status, JSON.stringify(version.body)).toBe(201);
    const api = await user('pullfail1');
    api.awaitProvisioning = false;
    await adjustBalance(cp, 'pullfail1', 100);
    const before = await balanceAndLedger(cp, 'pullfail1');
    const dailyFen = totalPriceFen({
      unitPriceFen: Math.round(market.pricePerGpuHour * 100),
      gpuCount: 1,
      billingType: 'daily',
      duration: 1,
    });
    const res = await api.request<{ container_id: string; status: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market, {
        frameworkVersion: version.body.id,
        billing_type: 'daily',
        total_price: dailyFen / 100,
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe('creating');
    const id = res.body.container_id;
    expect((await balanceAndLedger(cp, 'pullfail1')).balanceFen).toBe(before.balanceFen - dailyFen);

    expect(await api.untilProvisioned(id)).toBe('failed');
    const c = (await api.request<ContainerView>('GET', `/api/containers/${id}`)).body;
    expect(c.start_error).toMatch(/127\.0\.0\.1:1\/gpucloud\/missing:none/);
    expect(await cp.knex('gpu_allocations').where({ container_id: id })).toHaveLength(0);
    expect(await cp.knex('port_allocations').where({ container_id: id })).toHaveLength(0);
    // The daily charge came back, through the ledger.
    await expect
      .poll(async () => (await balanceAndLedger(cp, 'pullfail1')).balanceFen)
      .toBe(before.balanceFen);
    await api.request('DELETE', `/api/containers/${id}`);
  });

  it('when a user buys one GPU by the hour, a running container with exactly that GPU is created', async () => {
    const api = await user('buyer1');
    const res = await api.request<{ container_id: string; status: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market),
    );
    expect(res.status).toBe(201);
    // The answer comes once the GPU, ports and charge are recorded; the node provisions after it.
    expect(res.body.status).toBe('creating');
    const id = res.body.container_id;

    const list = await api.request<{ items: ContainerView[]; total: number }>('GET', '/api/containers');
    expect(list.body.total).toBe(1);
    expectServed(containerListReply, list.body);
    const c = list.body.items[0] as ContainerView;
    expect(c).toMatchObject({
      container_id: id,
      status: 'running',
      ssh_server: '127.0.0.1',
      simulated: true,
    });
    expect(c.gpu_indices).toHaveLength(1);
    expect(c.gpus).toHaveLength(1);
    expect(c.gpus[0]).toMatchObject({ index: c.gpu_indices[0], state: 'ok' });
    expect(c.gpus[0]?.uuid).toMatch(/^GPU-/);
    expect(c.gpu_problem).toBeNull();
    expect(c.password).toMatch(/^[A-Za-z0-9]{16}$/);

    const inspect = await docker().getContainer(`gpucloud-${id}`).inspect();
    expect(inspect.Config.Labels['gpucloud.container-id']).toBe(id);
    // The GPU goes to Docker by UUID, never by nvidia-smi's index.
    expect(inspect.Config.Env).toContain(`NVIDIA_VISIBLE_DEVICES=${c.gpus[0]?.uuid}`);
    expect(inspect.HostConfig.PortBindings?.['22/tcp']?.[0]).toEqual({
      HostIp: '127.0.0.1',
      HostPort: String(c.ssh_port),
    });
    expect(inspect.HostConfig.Privileged).toBe(false);

    const status = await api.request<{ status: string }>('GET', `/api/containers/${id}/status`);
    expect(status.body.status).toBe('running');

    const stopped = await api.request<ContainerView>('POST', `/api/containers/${id}/stop`);
    expect(stopped.body.status).toBe('stopped');
    expect((await docker().getContainer(`gpucloud-${id}`).inspect()).State.Running).toBe(false);
    const again = await api.request<ContainerView>('POST', `/api/containers/${id}/start`);
    expect(again.body.status).toBe('running');

    expect((await api.request('DELETE', `/api/containers/${id}`)).status).toBe(200);
    expect((await api.request<{ total: number }>('GET', '/api/containers')).body.total).toBe(0);
    await expect(docker().getContainer(`gpucloud-${id}`).inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(await cp.knex('gpu_allocations').where({ container_id: id })).toHaveLength(0);
    expect(await cp.knex('port_allocations').where({ container_id: id })).toHaveLength(0);
  });

  it("another user's container answers 404 and is left untouched", async () => {
    const owner = await user('owner2');
    const res = await owner.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market),
    );
    const id = res.body.container_id;
    const intruder = await user('intruder2');
    for (const [method, path] of [
      ['GET', `/api/containers/${id}`],
      ['GET', `/api/containers/${id}/status`],
      ['POST', `/api/containers/${id}/stop`],
      ['POST', `/api/containers/${id}/start`],
      ['DELETE', `/api/containers/${id}`],
    ] as const) {
      const r = await intruder.request<{ detail: string }>(method, path);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.detail).toBe('容器不存在');
    }
    expect((await owner.request<ContainerView>('GET', `/api/containers/${id}`)).body.status).toBe('running');
    await owner.request('DELETE', `/api/containers/${id}`);
  });

  it('streams the container log over the WebSocket to its owner only', async () => {
    const api = await user('logger3');
    const res = await api.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market),
    );
    const id = res.body.container_id;
    const wsUrl = `${cp.url.replace('http', 'ws')}/api/containers/ws/${id}/logs?token=${api.token}`;
    const text = await new Promise<string>((resolve, reject) => {
      const ws = new WebSocket(wsUrl);
      let got = '';
      const timer = setTimeout(() => reject(new Error(`no log line, got: ${got}`)), 15_000);
      ws.on('message', (data) => {
        got += data.toString();
        if (got.includes('SSH 服务监听端口 22')) {
          clearTimeout(timer);
          ws.close();
          resolve(got);
        }
      });
      ws.on('error', reject);
    });
    expect(text).toContain('SSH 服务监听端口 22');

    const other = await user('logger3b');
    const code = await new Promise<number>((resolve) => {
      const ws = new WebSocket(
        `${cp.url.replace('http', 'ws')}/api/containers/ws/${id}/logs?token=${other.token}`,
      );
      ws.on('close', (c) => resolve(c));
    });
    expect(code).toBe(4404);
    await api.request('DELETE', `/api/containers/${id}`);
  });
});

describe('purchase rules', () => {
  it('refuses bad input with the spec messages and creates nothing', async () => {
    const api = await user('rules4');
    const cases: [Record<string, unknown>, number, string][] = [
      [{ total_price: 0.01 }, 400, '价格已变化，请刷新后重试'],
      [{ agreeTerms: false }, 400, '请同意服务条款'],
      // Prepaid types are charged in full at purchase: a new user's trial credit does not cover a month.
      [{ billing_type: 'monthly', total_price: 1146.24 }, 402, '余额不足，请先充值'],
      [{ billing_type: 'nope' }, 400, '请选择计费方式'],
      [{ duration: 0 }, 400, '时长必须大于0'],
      [{ duration: 721, total_price: 1434.79 }, 400, '按小时计费的使用时长最多为720'],
      [{ custom_ports: [9999] }, 400, '端口号必须在10000-65535之间'],
      [{ custom_ports: [20001, 20001] }, 400, '该端口已添加'],
      [{ custom_ports: [20001, 20002, 20003, 20004, 20005, 20006] }, 400, '最多只能添加5个自定义端口'],
      [
        { mounts: [{ source: 'data', target: 'relative' }] },
        400,
        '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线',
      ],
      [{ mounts: [{ source: '', target: '/data' }] }, 400, '请完善所有挂载点配置'],
      [{ framework: undefined }, 400, '请选择框架'],
      [{ gpuCount: 9, total_price: 17.91 }, 400, 'GPU数量不能超过8'],
    ];
    for (const [overrides, status, detail] of cases) {
      const res = await api.request<{ detail: string }>(
        'POST',
        `/api/cloud-products/${market.productId}/purchase`,
        purchaseBody(market, overrides),
      );
      expect(res.status, JSON.stringify(overrides)).toBe(status);
      expect(res.body.detail, JSON.stringify(overrides)).toBe(detail);
    }
    expect((await api.request<{ total: number }>('GET', '/api/containers')).body.total).toBe(0);
  });

  it('when the node cannot create the container, it ends failed and no GPU, port, charge or coupon is taken', async () => {
    const api = await user('failing5');
    // A coupon marked 使用 applies to this purchase; the failure must give it back.
    const [couponId] = await grantCoupon(cp, ['failing5'], { amount: 5, minAmount: 0 });
    expect((await api.request('POST', `/api/coupons/${couponId}/use`)).status).toBe(200);
    const money = await balanceAndLedger(cp, 'failing5');
    const versionId = await cp.services.catalogueRepo.upsertVersion({
      framework_id: market.frameworkId,
      version: 'missing-image',
      image: 'gpucloud/does-not-exist:never',
      cuda_version: '',
      system_type: 'ubuntu',
      ports: { ssh: 22 },
      mounts: [],
    });
    const before = await cp.knex('gpu_allocations').count<{ count: string }[]>({ count: '*' });
    const res = await api.request<{ container_id: string; status: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market, { frameworkVersion: versionId }),
    );
    // The purchase answers before the node pulls; the pull's failure ends it as failed.
    expect(res.status).toBe(201);
    const id = res.body.container_id;
    const c = (await api.request<ContainerView>('GET', `/api/containers/${id}`)).body;
    expect(c.status).toBe('failed');
    expect(c.start_error).toMatch(/^镜像 gpucloud\/does-not-exist:never 不存在且拉取失败|镜像拉取失败/);
    expect(await cp.knex('port_allocations').where({ container_id: id })).toHaveLength(0);
    const after = await cp.knex('gpu_allocations').count<{ count: string }[]>({ count: '*' });
    expect(after[0]?.count).toBe(before[0]?.count);
    const leftovers = await docker().listContainers({
      all: true,
      filters: { label: ['gpucloud.owner-name=failing5'] },
    });
    expect(leftovers).toHaveLength(0);
    expect(await balanceAndLedger(cp, 'failing5')).toEqual(money);
    const coupon = await cp.knex('coupons').where({ id: couponId }).first();
    expect(coupon.status).toBe('unused');
    expect(coupon.selected_at).not.toBeNull();
  });

  it('gives each of 8 GPUs to exactly one of 30 concurrent purchases, and no port twice', async () => {
    const local = await startTestAgent();
    try {
      const m = await addNodeWithProduct(cp, local, 'node-race');
      const buyers = await Promise.all(Array.from({ length: 30 }, (_, i) => user(`racer${i}`)));
      const results = await Promise.all(
        buyers.map((b) =>
          b.request<{ container_id?: string; detail?: string }>(
            'POST',
            `/api/cloud-products/${m.productId}/purchase`,
            purchaseBody(m),
          ),
        ),
      );
      const ok = results.filter((r) => r.status === 201);
      expect(ok).toHaveLength(8);
      for (const r of results.filter((x) => x.status !== 201)) {
        expect(r.status).toBe(409);
        expect(r.body.detail).toMatch(/^GPU 资源不足/);
      }
      const gpus = await cp.knex('gpu_allocations').where({ node_id: m.nodeId }).select('gpu_uuid');
      expect(new Set(gpus.map((g: { gpu_uuid: string }) => g.gpu_uuid)).size).toBe(8);
      const ports = await cp.knex('port_allocations').where({ node_id: m.nodeId }).select('host_port');
      expect(new Set(ports.map((p: { host_port: number }) => p.host_port)).size).toBe(ports.length);
      const product = await buyers[0]?.request<{ gpu_count: string }>(
        'GET',
        `/api/cloud-products/${m.productId}`,
      );
      expect(product?.body.gpu_count).toBe('0/8');
      for (const [i, r] of results.entries()) {
        if (r.status === 201) await buyers[i]?.request('DELETE', `/api/containers/${r.body.container_id}`);
      }
    } finally {
      await local.close();
    }
  });

  it("answers clearly when the node's Docker is unavailable", async () => {
    const dockerless = await startTestAgent({ dockerHost: 'unix:///nonexistent/docker.sock' });
    try {
      const m = await addNodeWithProduct(cp, dockerless, 'node-nodocker');
      const api = await user('nodocker6');
      const res = await api.request<{ detail: string; code: string }>(
        'POST',
        `/api/cloud-products/${m.productId}/purchase`,
        purchaseBody(m),
      );
      expect(res.status).toBe(503);
      expect(res.body.detail).toMatch(/节点的 Docker 服务不可用/);
      expect(await cp.knex('containers').where({ node_id: m.nodeId })).toHaveLength(0);
    } finally {
      await dockerless.close();
    }
  });
});
