import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../../test/agents.js';
import { expectServed } from '../../../test/contract.js';
import { ADMIN, ApiClient, startTestControlPlane } from '../../../test/harness.js';
import { createApiKey, runUbuntuOnLocalImage, UBUNTU_IMAGE, WINDOWS_IMAGE } from '../../../test/mcp.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture } from '../../../test/purchase.js';
import type { RunningControlPlane } from '../../platform.js';
import { mcpContainerListReply, mcpCreatedReply } from './contract.js';
import type { McpContainerView } from './view.js';

type Answer = { detail: string; code: string };
type Created = McpContainerView & { password_set: boolean; password_error?: string };

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;

beforeAll(async () => {
  cp = await startTestControlPlane();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'node-mcp');
  await runUbuntuOnLocalImage(cp);
});

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

/** A registered user whose requests carry only an API key (no session token). */
async function keyHolder(name: string): Promise<{ api: ApiClient; key: string; session: ApiClient }> {
  const session = new ApiClient(cp.url);
  await session.register(name);
  const key = await createApiKey(session);
  const api = new ApiClient(cp.url);
  const request = api.request.bind(api);
  api.request = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request<T>(method, path, body, { 'X-API-Key': key, ...headers });
  return { api, key, session };
}

const createBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'mcp-box',
  image_name: UBUNTU_IMAGE,
  product_id: market.productId,
  gpu_count: 1,
  password: 'Mcp-pass-123',
  ...overrides,
});

async function balanceOf(api: ApiClient): Promise<number> {
  return (await api.request<{ balance: number }>('GET', '/api/billing/balance')).body.balance;
}

describe('the MCP container API', { timeout: 120_000 }, () => {
  it('creates a container with an API key as a console purchase would: hourly, charged, running, with the requested password', async () => {
    const { api, session } = await keyHolder('mcp_ann');
    const created = await api.request<Created>('POST', '/api/mcp/containers', createBody({ gpu_count: 2 }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The answer comes before the node has pulled and started it (MCP status creating).
    expect(created.body).toMatchObject({ status: 'creating', password_set: true });
    expectServed(mcpCreatedReply, created.body);
    const c = (await api.request<Created>('GET', `/api/mcp/containers/${created.body.container_id}`)).body;
    expect(c).toMatchObject({
      name: 'mcp-box',
      image_name: UBUNTU_IMAGE,
      gpu_count: 2,
      status: 'running',
      ssh_server: '127.0.0.1',
      price: market.pricePerGpuHour,
    });
    expect(c.container_id).toMatch(/^c-/);
    expect(Date.parse(c.created_at)).not.toBeNaN();
    expect(c.ssh_port).toBeGreaterThanOrEqual(agent.portStart);

    // The console sees the same container: hourly billing, two GPUs, the requested root password.
    const consoleView = await session.request<{
      billing_type: string;
      gpu_indices: number[];
      password: string;
    }>('GET', `/api/containers/${c.container_id}`);
    expect(consoleView.body.billing_type).toBe('hourly');
    expect(consoleView.body.gpu_indices).toHaveLength(2);
    expect(consoleView.body.password).toBe('Mcp-pass-123');
    const order = await cp.knex('container_orders').where({ container_id: c.container_id }).first();
    expect(order).toMatchObject({ billing_type: 'hourly', gpu_count: 2, unit_price_fen: 199 });

    const one = await api.request<McpContainerView>('GET', `/api/mcp/containers/${c.container_id}`);
    expect(one.body).toMatchObject({ container_id: c.container_id, status: 'running' });
    expectServed(mcpContainerListReply, (await api.request('GET', '/api/mcp/containers')).body);
  });

  it('filters the list by status and follows stop, start, reset password, logs and delete', async () => {
    const { api, session } = await keyHolder('mcp_bob');
    const { container_id: id } = (await api.request<Created>('POST', '/api/mcp/containers', createBody()))
      .body;
    const ids = async (status?: string) => {
      const res = await api.request<{ items: McpContainerView[]; total: number }>(
        'GET',
        `/api/mcp/containers${status === undefined ? '' : `?status=${status}`}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(res.body.items.length);
      return res.body.items.map((x) => x.container_id);
    };
    expect(await ids()).toEqual([id]);
    expect(await ids('running')).toEqual([id]);
    expect(await ids('all')).toEqual([id]);
    expect(await ids('stopped')).toEqual([]);
    const bad = await api.request<Answer>('GET', '/api/mcp/containers?status=paused');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('状态只能是');

    await expect
      .poll(
        async () => (await api.request<{ logs: string }>('GET', `/api/mcp/containers/${id}/logs`)).body.logs,
        {
          timeout: 60_000,
        },
      )
      .toContain('SSH 服务监听端口 22');
    const tail = await api.request<{ logs: string }>('GET', `/api/mcp/containers/${id}/logs?tail=1`);
    expect(tail.body.logs.trim().split('\n')).toHaveLength(1);

    const stopped = await api.request<McpContainerView>('POST', `/api/mcp/containers/${id}/stop`);
    expect(stopped.body.status).toBe('stopped');
    expect(await ids('stopped')).toEqual([id]);
    expect(await ids('running')).toEqual([]);
    const notRunning = await api.request<Answer>('POST', `/api/mcp/containers/${id}/reset-password`, {
      password: 'Another-123',
    });
    expect(notRunning.status).toBe(409);
    expect(notRunning.body.detail).toBe('容器未运行，请先启动容器再重置密码');

    const started = await api.request<McpContainerView>('POST', `/api/mcp/containers/${id}/start`);
    expect(started.body.status).toBe('running');

    const noPassword = await api.request<Answer>('POST', `/api/mcp/containers/${id}/reset-password`, {});
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.detail).toBe('请输入新密码');
    const reset = await api.request('POST', `/api/mcp/containers/${id}/reset-password`, {
      password: 'Another-123',
    });
    expect(reset.status).toBe(200);
    expect((await session.request<{ password: string }>('GET', `/api/containers/${id}`)).body.password).toBe(
      'Another-123',
    );

    expect((await api.request('DELETE', `/api/mcp/containers/${id}`)).status).toBe(200);
    expect((await api.request<Answer>('GET', `/api/mcp/containers/${id}`)).status).toBe(404);
    expect(await ids()).toEqual([]);
    expect(await ids('deleted')).toEqual([id]);
    const row = await cp.knex('containers').where({ id }).first();
    expect(row.status).toBe('deleted');
    expect(await cp.knex('gpu_allocations').where({ container_id: id })).toEqual([]);
  });

  it('answers 404 for another user’s container, on every action', async () => {
    const { api: owner } = await keyHolder('mcp_cat');
    const { api: other } = await keyHolder('mcp_dan');
    const { container_id: id } = (await owner.request<Created>('POST', '/api/mcp/containers', createBody()))
      .body;
    const attempts: [string, string, unknown?][] = [
      ['GET', `/api/mcp/containers/${id}`],
      ['GET', `/api/mcp/containers/${id}/logs`],
      ['POST', `/api/mcp/containers/${id}/start`],
      ['POST', `/api/mcp/containers/${id}/stop`],
      ['POST', `/api/mcp/containers/${id}/reset-password`, { password: 'Stolen-123' }],
      ['DELETE', `/api/mcp/containers/${id}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await other.request<Answer>(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.detail).toBe('容器不存在');
    }
    expect((await other.request<{ total: number }>('GET', '/api/mcp/containers')).body.total).toBe(0);
    expect((await owner.request<McpContainerView>('GET', `/api/mcp/containers/${id}`)).body.status).toBe(
      'running',
    );
  });

  it('refuses incomplete or impossible creations with the reason, and charges nothing', async () => {
    const { api } = await keyHolder('mcp_eve');
    const before = await balanceOf(api);
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ name: '' }, 400, '请填写所有必填字段'],
      [{ password: undefined }, 400, '请填写所有必填字段'],
      [{ product_id: undefined }, 400, '请填写所有必填字段'],
      [{ image_name: ' ' }, 400, '请填写所有必填字段'],
      [{ gpu_count: 0 }, 400, 'GPU数量必须在1-8之间'],
      [{ gpu_count: 9 }, 400, 'GPU数量必须在1-8之间'],
      [{ password: 'short' }, 400, '密码至少需要8个字符'],
      [{ image_name: 'CentOS 7' }, 400, '不支持的镜像：CentOS 7，可选镜像：'],
      [{ image_name: WINDOWS_IMAGE }, 400, 'Windows 镜像仅可用于 Windows 服务器'],
      [{ product_id: 999999 }, 404, '服务器不存在'],
    ];
    for (const [overrides, status, detail] of refusals) {
      const res = await api.request<Answer>('POST', '/api/mcp/containers', createBody(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(status);
      expect(res.body.detail).toContain(detail);
    }
    expect(await balanceOf(api)).toBe(before);
    expect(
      await cp.knex('containers').join('users', 'users.id', 'containers.user_id').where({
        username: 'mcp_eve',
      }),
    ).toEqual([]);
  });

  it('refuses a creation the balance cannot pay for an hour (402), like the console', async () => {
    const { api, session } = await keyHolder('mcp_fay');
    const admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const me = await session.request<{ id: number }>('GET', '/api/mcp/whoami');
    const balance = await balanceOf(session);
    const adjusted = await admin.request('POST', `/api/admin/users/${me.body.id}/balance`, {
      amount: -(balance - 1),
      reason: '测试：余额只剩 1 元',
    });
    expect(adjusted.status).toBe(200);
    const res = await api.request<Answer>('POST', '/api/mcp/containers', createBody());
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      detail: '余额不足，账户余额需至少可支付1小时费用',
      code: 'INSUFFICIENT_BALANCE',
    });
    expect((await api.request<{ total: number }>('GET', '/api/mcp/containers')).body.total).toBe(0);
  });

  it('needs a session token or a valid API key', async () => {
    const anonymous = new ApiClient(cp.url);
    expect((await anonymous.request('GET', '/api/mcp/containers')).status).toBe(401);
    const wrong = await anonymous.request<Answer>('GET', '/api/mcp/containers', undefined, {
      'X-API-Key': 'gpuc_not-a-real-key',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('UNAUTHORIZED');
    // The console's session token works as well (the dashboard uses it).
    const { session } = await keyHolder('mcp_gil');
    const listed = await session.request<{ items: unknown[] }>('GET', '/api/mcp/containers');
    expect(listed.status).toBe(200);
  });
});
