import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContainerChanges } from '../src/modules/containers/changes.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { ApiClient, createTestDatabase, startControlPlaneOn } from './harness.js';
import { adjustBalance } from './money.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseSettled } from './purchase.js';

interface StatusAnswer {
  status: string;
  pull_progress: number | null;
  detail?: string;
}

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let owner: ApiClient;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  cp = await startControlPlaneOn(databaseUrl);
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'status-node');
  owner = new ApiClient(cp.url);
  await owner.register('status_owner');
  await adjustBalance(cp, 'status_owner', 100);
}, 120_000);

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

const statusPath = (id: string, query = '') => `/api/containers/${id}/status${query}`;

describe('GET /api/containers/{id}/status waiting for a change', () => {
  it('a purchase watched with ?while=starting answers 运行中 as soon as the node reports it', async () => {
    const bought = await owner.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      {
        instanceName: 'watched',
        gpuCount: 1,
        framework: market.frameworkId,
        frameworkVersion: market.versionId,
        agreeTerms: true,
        billing_type: 'hourly',
        duration: 1,
        total_price: market.pricePerGpuHour,
      },
    );
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const id = bought.body.container_id;
    let shown = (await owner.request<StatusAnswer>('GET', statusPath(id))).body.status;
    const seen = [shown];
    while (shown === 'starting' || shown === 'pulling') {
      const res = await owner.request<StatusAnswer>('GET', statusPath(id, `?while=${shown}&wait=20`));
      expect(res.status).toBe(200);
      shown = res.body.status;
      seen.push(shown);
    }
    expect(seen.at(-1)).toBe('running');
    const row = await cp.knex('containers').where({ id }).first('status');
    expect(row.status).toBe('running');
  });

  it('answers within moments of a change made by another process (the NOTIFY), not at its next re-read', async () => {
    const id = await purchaseSettled(cp, owner, market, { instanceName: 'notified' });
    expect(cp.services.containerChanges.listening).toBe(true);
    const started = Date.now();
    const waiting = owner.request<StatusAnswer>('GET', statusPath(id, '?while=running&wait=20'));
    // The request is waiting (a re-read comes a second later at the soonest); another
    // connection changes the row, as a replica or the settlement job would.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const changedAt = Date.now();
    await cp.knex('containers').where({ id }).update({ status: 'stopped' });
    const res = await waiting;
    expect(res.body.status).toBe('stopped');
    expect(Date.now() - changedAt).toBeLessThan(600);
    expect(changedAt - started).toBeGreaterThanOrEqual(300);
    await cp.knex('containers').where({ id }).update({ status: 'running' });
  });

  it('a second listener of its own hears the same change (every replica does)', async () => {
    const id = await purchaseSettled(cp, owner, market, { instanceName: 'replica' });
    const other = new ContainerChanges(databaseUrl, () => {});
    await other.start();
    try {
      const watch = other.watch(id);
      await cp.knex('containers').where({ id }).update({ pull_progress: 5 });
      await expect(Promise.race([watch.changed.then(() => 'heard'), sleep(2000)])).resolves.toBe('heard');
      watch.close();
    } finally {
      await other.close();
    }
  });

  it('answers after the wait with the unchanged status, and at once without ?while', async () => {
    const id = await purchaseSettled(cp, owner, market, { instanceName: 'unchanged' });
    let started = Date.now();
    const waited = await owner.request<StatusAnswer>('GET', statusPath(id, '?while=running&wait=1'));
    expect(waited.body.status).toBe('running');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    started = Date.now();
    const different = await owner.request<StatusAnswer>('GET', statusPath(id, '?while=starting&wait=20'));
    expect(different.body.status).toBe('running');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('refuses a wait out of range with a Chinese reason, and hides other users’ containers', async () => {
    const id = await purchaseSettled(cp, owner, market, { instanceName: 'refused' });
    const tooLong = await owner.request<StatusAnswer>('GET', statusPath(id, '?while=running&wait=31'));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.detail).toBe('等待时间为 0-30 秒');
    const stranger = new ApiClient(cp.url);
    await stranger.register('status_stranger');
    const hidden = await stranger.request<StatusAnswer>('GET', statusPath(id, '?while=running&wait=2'));
    expect(hidden.status).toBe(404);
  });
});

function sleep(ms: number): Promise<string> {
  return new Promise((resolve) => setTimeout(() => resolve('timeout'), ms));
}
