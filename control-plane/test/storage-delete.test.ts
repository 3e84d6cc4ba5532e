import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageInfoReply, volumeReply } from '../src/modules/storage/contract.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { ApiClient, createTestDatabase, startControlPlaneOn } from './harness.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

interface Volume {
  id: number;
  name: string;
  size: number;
  status: 'ready' | 'deleting';
  delete_progress: number | null;
  delete_error: string | null;
}
interface Info {
  used_bytes: number;
  volumes: Volume[];
}

// A short lease: a delete whose process went away is taken over within a second or two.
const LEASE_MS = 2000;
const secretKey = randomBytes(32);
let databaseUrl: string;
let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;

const start = () => startControlPlaneOn(databaseUrl, { secretKey, leaseMs: LEASE_MS });

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  cp = await start();
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'node-deletes');
});

afterAll(async () => {
  if (cp) await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
});

async function user(name: string): Promise<ApiClient & { id: number }> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  const row = await cp.knex('users').where({ username: name }).first('id');
  return Object.assign(api, { id: Number(row.id) });
}

const hostDir = (userId: number, volumeId: number) =>
  path.join(agent.volumeRoot, String(userId), `v${volumeId}`);

/** A volume on the node with `dirs` × `files` files of `bytes` bytes (a dataset of many small files). */
async function bigVolume(
  api: ApiClient & { id: number },
  name: string,
  dirs: number,
  files: number,
  bytes = 512,
): Promise<Volume> {
  const created = await api.request<Volume>('POST', '/api/storage/volumes', {
    name,
    path: `/data/${name}`,
    node_id: market.nodeId,
  });
  expect(created.status).toBe(201);
  const content = Buffer.alloc(bytes, 3);
  for (let d = 0; d < dirs; d++) {
    const dir = path.join(hostDir(api.id, created.body.id), `part-${d}`);
    mkdirSync(dir, { recursive: true });
    // Synchronous: many small writes go faster without a trip through the thread pool each.
    for (let f = 0; f < files; f++) writeFileSync(path.join(dir, `${f}.bin`), content);
  }
  return created.body;
}

const info = async (api: ApiClient) => {
  const res = await api.request<Info>('GET', '/api/storage/info');
  expect(res.status).toBe(200);
  return res.body;
};

/** Reads the volume every 100 ms until it is gone or `stop` says so; what was seen on the way. */
async function watch(
  api: ApiClient,
  id: number,
  stop: (v: Volume | undefined) => boolean,
  timeoutMs = 120_000,
): Promise<Volume[]> {
  const seen: Volume[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const volume = (await info(api)).volumes.find((v) => v.id === id);
    if (volume) seen.push(volume);
    if (!volume || stop(volume)) return seen;
    if (Date.now() > deadline) throw new Error(`volume ${id} still there: ${JSON.stringify(volume)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** chattr +i / -i: a file not even root can remove, a failure a real node can meet. */
const immutable = (file: string, on: boolean) => execFileSync('chattr', [on ? '+i' : '-i', file]);

describe('deleting a volume (删除中 n%)', () => {
  it('answers 202 at once with the volume 删除中, shows a growing percentage, then the row and its quota go', async () => {
    const api = await user('del_amy');
    const v = await bigVolume(api, 'dataset', 20, 1000);
    const before = await info(api);
    expect(before.volumes[0]).toMatchObject({ id: v.id, status: 'ready', delete_progress: null });
    expect(before.used_bytes).toBe(20 * 1000 * 512);
    expectServed(storageInfoReply, before);

    const asked = Date.now();
    const deleted = await api.request<Volume>('DELETE', `/api/storage/volumes/${v.id}`);
    const answeredIn = Date.now() - asked;
    expect(deleted.status).toBe(202);
    expectServed(volumeReply, deleted.body);
    expect(deleted.body).toMatchObject({
      id: v.id,
      status: 'deleting',
      delete_progress: 0,
      delete_error: null,
    });
    // The answer did not wait for the node: the files are still there.
    expect(existsSync(hostDir(api.id, v.id))).toBe(true);
    expect(answeredIn).toBeLessThan(2000);

    // Deleting it again while it goes answers the same; renaming or mounting it is refused.
    const again = await api.request<Volume>('DELETE', `/api/storage/volumes/${v.id}`);
    expect(again.status).toBe(202);
    expect(again.body.status).toBe('deleting');
    const rename = await api.request<{ detail: string }>('PUT', `/api/storage/volumes/${v.id}/rename`, {
      new_name: 'other',
    });
    expect(rename.status).toBe(409);
    expect(rename.body.detail).toBe('存储卷正在删除');
    const mount = await api.request<{ detail: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market, { mounts: [{ source: String(v.id), target: '/data' }] }),
    );
    expect(mount.status).toBe(400);
    expect(mount.body.detail).toBe('存储卷 del_amy-dataset 正在删除，无法挂载');
    expect((await api.request<unknown[]>('GET', '/api/storage/volumes')).body).toEqual([]);

    const seen = await watch(api, v.id, () => false);
    const percents = seen.map((s) => s.delete_progress as number);
    expect(seen.every((s) => s.status === 'deleting')).toBe(true);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents); // never goes back
    expect(percents.some((p) => p > 0 && p < 100)).toBe(true);
    expect(existsSync(hostDir(api.id, v.id))).toBe(false);
    const after = await info(api);
    expect(after.volumes).toEqual([]);
    expect(after.used_bytes).toBe(0);
  });

  it('puts the volume back with the reason when the node cannot delete it; a later delete finishes', async () => {
    const api = await user('del_ben');
    const v = await bigVolume(api, 'stuck', 2, 100);
    const stuck = path.join(hostDir(api.id, v.id), 'part-1', '7.bin');
    immutable(stuck, true);
    try {
      expect((await api.request('DELETE', `/api/storage/volumes/${v.id}`)).status).toBe(202);
      const seen = await watch(api, v.id, (now) => now?.status !== 'deleting');
      const back = seen.at(-1);
      expect(back).toMatchObject({ id: v.id, status: 'ready', delete_progress: null });
      expect(back?.delete_error).toContain('part-1/7.bin');
      expect(existsSync(stuck)).toBe(true);
      // A volume put back is a volume again: it can be renamed and offered for mounts.
      const renamed = await api.request<Volume>('PUT', `/api/storage/volumes/${v.id}/rename`, {
        new_name: 'stuck2',
      });
      expect(renamed.status).toBe(200);
      expect(
        (await api.request<{ id: number }[]>('GET', '/api/storage/volumes')).body.map((x) => x.id),
      ).toEqual([v.id]);
    } finally {
      immutable(stuck, false);
    }
    expect((await api.request('DELETE', `/api/storage/volumes/${v.id}`)).status).toBe(202);
    await watch(api, v.id, () => false);
    expect(existsSync(hostDir(api.id, v.id))).toBe(false);
  });

  it('refuses at once, as before, a volume a container mounts', async () => {
    const api = await user('del_cat');
    const v = await bigVolume(api, 'used', 1, 10);
    const bought = await api.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market, { mounts: [{ source: String(v.id), target: '/data' }] }),
    );
    expect(bought.status).toBe(201);
    const refused = await api.request<{ detail: string }>('DELETE', `/api/storage/volumes/${v.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('该存储卷已被容器使用，无法删除');
    expect((await info(api)).volumes[0]).toMatchObject({ status: 'ready', delete_error: null });
    expect(existsSync(hostDir(api.id, v.id))).toBe(true);
  });

  it('a control plane that stops mid-delete leaves it to the next one, which finishes it', async () => {
    const api = await user('del_dan');
    // 40,000 files: the node is still at them when the control plane stops, however fast this
    // machine (10,000 were once all gone between two 100 ms reads while other suites ran beside).
    const v = await bigVolume(api, 'restart', 40, 1000);
    expect((await api.request('DELETE', `/api/storage/volumes/${v.id}`)).status).toBe(202);
    await watch(api, v.id, (now) => (now?.delete_progress ?? 0) > 0);
    await cp.close();
    const db = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 } });
    try {
      const row = await db('volumes').where({ id: v.id }).first();
      expect(row, 'the delete ended before the control plane stopped').toBeDefined();
      // Between the two: still 删除中, let go at once (no lease to wait out), files still going.
      expect(row?.deleting_since).not.toBeNull();
      expect(new Date(row?.delete_lease_until).getTime()).toBeLessThanOrEqual(Date.now());
    } finally {
      await db.destroy();
    }
    cp = await start();
    const next = new ApiClient(cp.url);
    next.token = api.token;
    await watch(next, v.id, () => false);
    expect(existsSync(hostDir(api.id, v.id))).toBe(false);
    expect((await info(next)).used_bytes).toBe(0);
  });

  it('a delete whose process died (its lease ran out) is taken over and finished', async () => {
    const api = await user('del_eve');
    const v = await bigVolume(api, 'orphan', 5, 200);
    // What a process killed mid-delete leaves: the row 删除中 with a lease nobody renews.
    await cp
      .knex('volumes')
      .where({ id: v.id })
      .update({
        deleting_since: new Date(Date.now() - 60_000),
        delete_progress: 40,
        delete_lease_until: new Date(Date.now() - 1000),
      });
    const seen = await watch(api, v.id, () => false);
    expect(seen.every((s) => s.status === 'deleting' && (s.delete_progress as number) >= 40)).toBe(true);
    expect(existsSync(hostDir(api.id, v.id))).toBe(false);
  });
});
