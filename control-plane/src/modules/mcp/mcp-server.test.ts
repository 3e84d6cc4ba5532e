import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../../../test/agents.js';
import { ApiClient, startTestControlPlane } from '../../../test/harness.js';
import { createApiKey, runUbuntuOnLocalImage, UBUNTU_IMAGE } from '../../../test/mcp.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture } from '../../../test/purchase.js';
import type { RunningControlPlane } from '../../platform.js';
import type { McpServerOffer } from './service.js';
import type { McpContainerView } from './view.js';

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let session: ApiClient;
let key: string;
const clients: Client[] = [];

beforeAll(async () => {
  cp = await startTestControlPlane();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'node-mcp-server');
  await runUbuntuOnLocalImage(cp);
  session = new ApiClient(cp.url);
  await session.register('mcp_tools');
  key = await createApiKey(session, 'Claude');
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

/** The official SDK client over real HTTP, as Claude Desktop or Cursor would connect. */
async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'gpucloud-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${cp.url}/api/mcp/server`), {
    requestInit: { headers },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function text(result: unknown): string {
  const r = result as CallToolResult;
  const first = r.content[0];
  if (first?.type !== 'text') throw new Error(`no text content: ${JSON.stringify(result)}`);
  return first.text;
}

async function call<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${text(result)}`);
  return JSON.parse(text(result)) as T;
}

describe('the MCP server at /api/mcp/server', { timeout: 120_000 }, () => {
  it('lists its tools with read-only and destructive hints', async () => {
    const client = await connect({ 'X-API-Key': key });
    expect(client.getServerVersion()?.name).toBe('gpucloud');
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of [
      'list_servers',
      'list_containers',
      'create_container',
      'start_container',
      'stop_container',
      'delete_container',
      'reset_container_password',
      'get_container_logs',
      'get_balance',
      'list_my_images',
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
    for (const name of ['delete_container', 'stop_container', 'reset_container_password']) {
      expect(byName.get(name)?.annotations?.destructiveHint, name).toBe(true);
    }
    for (const name of ['list_servers', 'list_containers', 'get_container_logs', 'get_balance']) {
      expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(true);
    }
    expect(byName.get('create_container')?.inputSchema.required).toEqual(
      expect.arrayContaining(['name', 'product_id', 'password']),
    );
    // A catalogue image by name or a saved image by id: neither alone is required.
    expect(byName.get('create_container')?.inputSchema.required).not.toContain('image_name');
    expect(Object.keys(byName.get('create_container')?.inputSchema.properties ?? {})).toContain('image_id');
  });

  it('lists servers, creates a container, reads its logs, stops and deletes it, and tells the balance', async () => {
    // A Bearer API key works as well as X-API-Key.
    const client = await connect({ Authorization: `Bearer ${key}` });
    const servers = await call<{ items: McpServerOffer[] }>(client, 'list_servers');
    const offer = servers.items.find((s) => s.product_id === market.productId);
    expect(offer).toMatchObject({
      gpu_available: 8,
      gpu_total: 8,
      price_per_gpu_hour: market.pricePerGpuHour,
    });

    const before = await call<{ balance: number }>(client, 'get_balance');
    expect(before.balance).toBe(
      (await session.request<{ balance: number }>('GET', '/api/billing/balance')).body.balance,
    );

    const created = await call<McpContainerView & { password_set: boolean }>(client, 'create_container', {
      name: 'assistant-box',
      image_name: UBUNTU_IMAGE,
      product_id: market.productId,
      gpu_count: 3,
      password: 'Tool-pass-42',
    });
    // The tool answers once the container is bought; the assistant follows it with get_container.
    expect(created).toMatchObject({
      name: 'assistant-box',
      gpu_count: 3,
      status: 'creating',
      password_set: true,
    });
    const id = created.container_id;
    await expect
      .poll(
        async () => (await call<McpContainerView>(client, 'get_container', { container_id: id })).status,
        {
          timeout: 60_000,
        },
      )
      .toBe('running');
    const afterCreate = await call<{ items: McpServerOffer[] }>(client, 'list_servers');
    expect(afterCreate.items.find((s) => s.product_id === market.productId)?.gpu_available).toBe(5);

    const listed = await call<{ items: McpContainerView[] }>(client, 'list_containers', {
      status: 'running',
    });
    expect(listed.items.map((c) => c.container_id)).toEqual([id]);

    await expect
      .poll(
        async () =>
          text(await client.callTool({ name: 'get_container_logs', arguments: { container_id: id } })),
        {
          timeout: 60_000,
        },
      )
      .toContain('SSH 服务监听端口 22');

    const stopped = await call<McpContainerView>(client, 'stop_container', { container_id: id });
    expect(stopped.status).toBe('stopped');
    expect((await session.request<{ status: string }>('GET', `/api/containers/${id}`)).body.status).toBe(
      'stopped',
    );

    const deleted = await call<{ ok: boolean }>(client, 'delete_container', { container_id: id });
    expect(deleted.ok).toBe(true);
    expect((await cp.knex('containers').where({ id }).first()).status).toBe('deleted');
    const empty = await call<{ items: McpContainerView[] }>(client, 'list_containers');
    expect(empty.items).toEqual([]);
  });

  it("lists the user's saved images that are ready, for create_container's image_id", async () => {
    const client = await connect({ 'X-API-Key': key });
    const user = await cp.knex('users').where({ username: 'mcp_tools' }).first('id');
    const other = await cp.knex('users').whereNot({ username: 'mcp_tools' }).first('id');
    const row = (name: string, userId: number, status: string) => ({
      user_id: userId,
      name,
      tag: 'v1',
      status,
      source_image: 'ubuntu:22.04',
      repository: `u${userId}/${name}`,
      digest: status === 'ready' ? `sha256:${'a'.repeat(64)}` : null,
      size_bytes: 3 * 1024 ** 3,
    });
    const [ready] = await cp
      .knex('user_images')
      .insert([
        row('ready-env', user.id, 'ready'),
        row('half-env', user.id, 'saving'),
        row('theirs', other.id, 'ready'),
      ])
      .returning('id');
    const mine = await call<{ items: { image_id: number; name: string; size_gb: number }[]; total: number }>(
      client,
      'list_my_images',
    );
    expect(mine.items).toEqual([
      expect.objectContaining({ image_id: Number(ready.id), name: 'ready-env', size_gb: 3 }),
    ]);
    expect(mine.total).toBe(1);
    await cp.knex('user_images').whereIn('name', ['ready-env', 'half-env', 'theirs']).delete();
  });

  it('reports a refused action as a tool error with the Chinese reason', async () => {
    const client = await connect({ 'X-API-Key': key });
    const missing = (await client.callTool({
      name: 'stop_container',
      arguments: { container_id: 'c-doesnotexist' },
    })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe('停止容器失败：容器不存在（NOT_FOUND）');
    const tooShort = (await client.callTool({
      name: 'create_container',
      arguments: { name: 'x', image_name: UBUNTU_IMAGE, product_id: market.productId, password: 'short' },
    })) as CallToolResult;
    expect(tooShort.isError).toBe(true);
    expect(text(tooShort)).toContain('密码至少需要8个字符');
    expect(await cp.knex('containers').whereNot('status', 'deleted')).toEqual([]);
  });

  it('refuses a wrong API key and a session token', async () => {
    const refused = { code: 401, message: expect.stringContaining('INVALID_API_KEY') };
    await expect(
      connect({ 'X-API-Key': 'gpuc_wrong-key-000000000000000000000000000000' }),
    ).rejects.toMatchObject(refused);
    await expect(connect({ Authorization: `Bearer ${session.token}` })).rejects.toMatchObject(refused);
    await expect(connect({})).rejects.toMatchObject(refused);
    const res = await fetch(`${cp.url}/api/mcp/server`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'INVALID_API_KEY' });
    // Stateless: no server-initiated stream to open.
    expect((await fetch(`${cp.url}/api/mcp/server`, { headers: { 'X-API-Key': key } })).status).toBe(405);
  });
});
