import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { ApiClient, startTestControlPlane } from './harness.js';
import { adjustBalance } from './money.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

// Failures underneath (a table that cannot be read, a write that fails after the node created the
// container) are made for real in the test database, not mocked.

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let buyer: ApiClient;
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

beforeAll(async () => {
  cp = await startTestControlPlane();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'failures-node');
  buyer = new ApiClient(cp.url);
  await buyer.register('failure_buyer');
  await adjustBalance(cp, 'failure_buyer', 100);
}, 120_000);

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

const purchase = (name: string, overrides: Record<string, unknown> = {}) =>
  buyer.request<{ container_id: string; detail?: string; code?: string; request_id?: string }>(
    'POST',
    `/api/cloud-products/${market.productId}/purchase`,
    purchaseBody(market, { instanceName: name, ...overrides }),
  );

describe('failures keep their cause', () => {
  it('a catalogue the database cannot read is a 500 with a request id, not 请选择版本', async () => {
    await cp.knex.raw('alter table framework_versions rename to framework_versions_away');
    try {
      const res = await purchase('db-down');
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('INTERNAL');
      expect(res.body.request_id).toMatch(/^[0-9a-f]{8}$/);
      expect(res.body.detail).toBe(`服务器内部错误（请求编号 ${res.body.request_id}）`);
    } finally {
      await cp.knex.raw('alter table framework_versions_away rename to framework_versions');
    }
    // A version that really does not exist is still the user's mistake.
    const missing = await buyer.request<{ detail: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market, { instanceName: 'no-version', frameworkVersion: 999_999 }),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('请选择版本');
  });

  it('a failure after the node created the container removes it from the node, frees its GPU and refunds', async () => {
    // The write that records 运行中 fails, as it would with the database going away right then.
    await cp.knex.raw(`
      create function refuse_running() returns trigger language plpgsql as $$
      begin
        if new.status = 'running' then raise exception 'disk full (test)'; end if;
        return new;
      end $$;
      create trigger refuse_running before update on containers
        for each row execute function refuse_running();
    `);
    let id: string;
    const buyer = await cp.knex('users').where({ username: 'failure_buyer' }).first('id');
    const before = await cp.knex('billing_accounts').where({ user_id: buyer.id }).first('balance_fen');
    try {
      // A day paid in advance: the charge is taken at the purchase and must come back.
      const res = await purchase('half-made', { billing_type: 'daily', total_price: 45.37 });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      id = res.body.container_id;
      await cp.services.purchases.settled(id);
    } finally {
      await cp.knex.raw('drop trigger refuse_running on containers; drop function refuse_running()');
    }
    const row = await cp.knex('containers').where({ id }).first('status', 'start_error');
    expect(row.status).toBe('failed');
    expect(row.start_error).toBe('服务器内部错误');
    expect(await cp.knex('gpu_allocations').where({ container_id: id })).toEqual([]);
    expect(await cp.knex('port_allocations').where({ container_id: id })).toEqual([]);
    const onNode = await docker().listContainers({ all: true, filters: { name: [`gpucloud-${id}`] } });
    expect(onNode).toEqual([]);
    const after = await cp.knex('billing_accounts').where({ user_id: buyer.id }).first('balance_fen');
    expect(after.balance_fen).toBe(before.balance_fen);
    const order = await cp.knex('container_orders').where({ container_id: id }).first('amount_fen');
    expect(order.amount_fen).toBeGreaterThan(0);
  });
});
