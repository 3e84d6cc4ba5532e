import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { ApiClient, startTestControlPlane } from './harness.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

interface ContainerView {
  container_id: string;
  status: string;
  gpu_indices: number[];
  no_gpu: boolean;
  custom_ports: number[];
  ports: { name: string; container_port: number; host_port: number }[];
  password: string;
}

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });
const env = async (id: string) => (await docker().getContainer(`gpucloud-${id}`).inspect()).Config.Env;
/** NVIDIA_VISIBLE_DEVICES naming every GPU of the node by UUID, lowest index first. */
const allGpusByUuid = async () =>
  `NVIDIA_VISIBLE_DEVICES=${(
    await cp.knex('node_gpus').where({ node_id: market.nodeId }).orderBy('gpu_index').select('uuid')
  )
    .map((g: { uuid: string }) => g.uuid)
    .join(',')}`;

beforeAll(async () => {
  cp = await startTestControlPlane();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'node-ops');
});

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

async function user(name: string): Promise<ApiClient> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  return api;
}

async function buy(
  api: ApiClient,
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const gpuCount = (overrides.gpuCount as number | undefined) ?? 1;
  const body = purchaseBody(market, {
    gpuCount,
    total_price: Math.round(market.pricePerGpuHour * 100 * gpuCount) / 100,
    ...overrides,
  });
  const res = await api.request<{ container_id: string; status: string; detail?: string }>(
    'POST',
    `/api/cloud-products/${market.productId}/purchase`,
    body,
    headers,
  );
  if (res.status >= 300 && !overrides.allowFailure) {
    const rows = await cp
      .knex('containers')
      .join('users', 'users.id', 'containers.user_id')
      .select('containers.id', 'username', 'status', 'gpu_devices');
    const allocs = await cp.knex('gpu_allocations').select('container_id', 'gpu_uuid');
    throw new Error(
      `purchase failed: ${JSON.stringify(res.body)} rows=${JSON.stringify(rows)} allocs=${JSON.stringify(allocs)}`,
    );
  }
  return res;
}

describe('stopping and starting hourly containers', () => {
  it('frees the GPUs on stop, takes new ones on start, and offers 无卡模式 when too few are free', async () => {
    const alice = await user('opsalice');
    const bob = await user('opsbob');
    const a = (await buy(alice, { gpuCount: 8 })).body.container_id;
    expect(await env(a)).toContain(await allGpusByUuid());

    await alice.request('POST', `/api/containers/${a}/stop`);
    expect(await cp.knex('gpu_allocations').where({ container_id: a })).toHaveLength(0);
    const b = (await buy(bob, { gpuCount: 4 })).body.container_id;

    const refused = await alice.request<{ detail: string; code: string }>(
      'POST',
      `/api/containers/${a}/start`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      detail: 'GPU 资源不足，当前可用 4 卡，可选择无卡模式启动',
      code: 'GPU_INSUFFICIENT',
    });
    expect((await alice.request<ContainerView>('GET', `/api/containers/${a}`)).body.status).toBe('stopped');

    const noGpu = await alice.request<ContainerView>('POST', `/api/containers/${a}/start`, { no_gpu: true });
    expect(noGpu.body).toMatchObject({ status: 'running', no_gpu: true, gpu_indices: [] });
    expect(await env(a)).toContain('NVIDIA_VISIBLE_DEVICES=void');

    await bob.request('DELETE', `/api/containers/${b}`);
    await alice.request('POST', `/api/containers/${a}/stop`);
    const back = await alice.request<ContainerView>('POST', `/api/containers/${a}/start`);
    expect(back.body).toMatchObject({ status: 'running', no_gpu: false });
    expect(back.body.gpu_indices).toHaveLength(8);
    expect(await env(a)).toContain(await allGpusByUuid());
    await alice.request('DELETE', `/api/containers/${a}`);
  });
});

describe('idempotent purchase', () => {
  it('answers a retried purchase with the first result and buys once', async () => {
    const api = await user('opsidem');
    const key = { 'Idempotency-Key': 'retry-me-1' };
    const first = await buy(api, {}, key);
    const second = await buy(api, {}, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.container_id).toBe(first.body.container_id);
    expect((await api.request<{ total: number }>('GET', '/api/containers')).body.total).toBe(1);

    const other = await buy(api, { instanceName: 'something-else', allowFailure: true }, key);
    expect(other.status).toBe(409);
    expect(other.body.detail).toBe('该 Idempotency-Key 已用于另一笔购买');
    await api.request('DELETE', `/api/containers/${first.body.container_id}`);
  });
});

describe('password, ports and mounts of an existing container', () => {
  it('resets the root password to a new random one', async () => {
    const api = await user('opspw');
    const id = (await buy(api)).body.container_id;
    const before = (await api.request<ContainerView>('GET', `/api/containers/${id}`)).body.password;
    const reset = await api.request<{ password: string }>('POST', `/api/containers/${id}/reset-password`);
    expect(reset.status).toBe(200);
    expect(reset.body.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(reset.body.password).not.toBe(before);
    expect((await api.request<ContainerView>('GET', `/api/containers/${id}`)).body.password).toBe(
      reset.body.password,
    );
    await api.request('DELETE', `/api/containers/${id}`);
  });

  it('changes custom ports with the spec rules, restarting the container', async () => {
    const api = await user('opsports');
    const id = (await buy(api)).body.container_id;
    const cases: [unknown, string][] = [
      [[9999], '端口号必须在10000-20000之间'],
      [[20001], '端口号必须在10000-20000之间'],
      [['abc'], '请输入有效的端口号'],
      [[15001, 15001], '该端口已添加'],
      [[15001, 15002, 15003, 15004, 15005, 15006], '最多只能添加5个自定义端口'],
    ];
    for (const [ports, detail] of cases) {
      const res = await api.request<{ detail: string }>('POST', `/api/containers/${id}/ports`, { ports });
      expect(res.status, JSON.stringify(ports)).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    const port = 15000 + Math.floor(Math.random() * 4000);
    const ok = await api.request<ContainerView>('POST', `/api/containers/${id}/ports`, { ports: [port] });
    expect(ok.status).toBe(200);
    expect(ok.body.custom_ports).toEqual([port]);
    expect(ok.body.status).toBe('running');
    const inspect = await docker().getContainer(`gpucloud-${id}`).inspect();
    expect(inspect.HostConfig.PortBindings?.[`${port}/tcp`]?.[0]?.HostPort).toBe(String(port));
    expect(inspect.State.Running).toBe(true);

    const other = await user('opsports2');
    const id2 = (await buy(other)).body.container_id;
    const taken = await other.request<{ detail: string }>('POST', `/api/containers/${id2}/ports`, {
      ports: [port],
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(409);
    expect(taken.body.detail).toBe(`${port}端口已被占用`);
    await api.request('DELETE', `/api/containers/${id}`);
    await other.request('DELETE', `/api/containers/${id2}`);
  });

  it('checks mount rules on existing containers', async () => {
    const api = await user('opsmounts');
    const id = (await buy(api)).body.container_id;
    const cases: [unknown, string][] = [
      [[{ source: 'my-data', target: '/data' }], '挂载点源路径只能包含字母和数字'],
      [[{ source: 'data', target: 'data' }], '挂载点目标路径必须以 / 开头'],
      [[{ source: '', target: '/data' }], '请完善所有挂载点配置'],
    ];
    for (const [mounts, detail] of cases) {
      const res = await api.request<{ detail: string }>('POST', `/api/containers/${id}/mounts`, { mounts });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    await api.request('DELETE', `/api/containers/${id}`);
  });
});

describe('web console', () => {
  it('runs commands in a login shell, interrupts on an empty frame, and closes when the shell exits', async () => {
    const api = await user('opsconsole');
    const id = (await buy(api)).body.container_id;
    const ws = new WebSocket(
      `${cp.url.replace('http', 'ws')}/api/containers/ws/${id}/console?token=${api.token}&cols=100&rows=30`,
    );
    let output = '';
    ws.on('message', (data: Buffer) => {
      output += data.toString();
    });
    const until = async (text: string) => {
      const deadline = Date.now() + 15_000;
      while (!output.includes(text)) {
        if (Date.now() > deadline) throw new Error(`no "${text}" in: ${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    ws.send(Buffer.from(JSON.stringify({ type: 'resize', cols: 120, rows: 40 })), { binary: true });
    ws.send('echo "sum=$((40+2))"; stty size\n');
    await until('sum=42').catch((e) => {
      throw new Error(`${e.message} closed=${ws.readyState}`);
    });
    await until('40 120');
    // Interrupt once the line runs (on a busy machine the shell may take a while to get there).
    ws.send('echo "started=$((2+2))"; sleep 300; echo "done=$((1000+1))"\n');
    await until('started=4');
    ws.send('');
    ws.send('echo after-interrupt\n');
    await until('after-interrupt');
    expect(output).not.toContain('done=1001');
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    ws.send('exit 3\n');
    expect(await closed).toEqual({ code: 1000, reason: 'exit 3' });
    await api.request('DELETE', `/api/containers/${id}`);
  });
});
