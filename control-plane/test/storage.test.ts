import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { storageInfoReply } from '../src/modules/storage/contract.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseBody } from './purchase.js';

interface Volume {
  id: number;
  name: string;
  path: string;
  size: number;
  node_id: number;
  agent: { server_hostname: string; name: string };
  containers: { container_id: string; mount_path: string; pending: boolean }[];
}
interface Info {
  used_storage: number;
  quota_storage: number;
  used_bytes: number;
  volumes: Volume[];
}

const MIB = 1024 ** 2;
// A quota of 2 MiB, so a test can pass it by writing a few bytes more.
const QUOTA_GB = 2 / 1024;

let cp: RunningControlPlane;
let agent: TestAgent;
let otherAgent: TestAgent;
let market: MarketFixture;
let otherMarket: MarketFixture;
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

beforeAll(async () => {
  cp = await startTestControlPlane({ storageQuotaGb: QUOTA_GB });
  agent = await startTestAgent();
  otherAgent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'node-store-a');
  otherMarket = await addNodeWithProduct(cp, otherAgent, 'node-store-b');
});

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  await agent?.close();
  await otherAgent?.close();
});

async function user(name: string): Promise<ApiClient & { id: number }> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  const row = await cp.knex('users').where({ username: name }).first('id');
  return Object.assign(api, { id: Number(row.id) });
}

/** The volume's directory on its node, as the agent made it. */
const hostDir = (a: TestAgent, userId: number, volumeId: number) =>
  path.join(a.volumeRoot, String(userId), `v${volumeId}`);

async function buy(api: ApiClient, f: MarketFixture, mounts: { source: string; target: string }[]) {
  return api.request<{ container_id: string; status: string; detail?: string; code?: string }>(
    'POST',
    `/api/cloud-products/${f.productId}/purchase`,
    purchaseBody(f, { mounts }),
  );
}

describe('storage volumes', () => {
  it('creates a volume as a directory on the node, prefixed with the username, and validates input', async () => {
    const api = await user('vol_alice');
    const empty = await api.request<{ detail: string }>('POST', '/api/storage/volumes', {
      name: '',
      path: '/data',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('请输入存储卷名称和路径');
    const noPath = await api.request<{ detail: string }>('POST', '/api/storage/volumes', { name: 'data' });
    expect(noPath.body.detail).toBe('请输入存储卷名称和路径');
    const badPath = await api.request<{ detail: string }>('POST', '/api/storage/volumes', {
      name: 'data',
      path: 'data',
    });
    expect(badPath.status).toBe(400);
    expect(badPath.body.detail).toContain('挂载路径格式不正确');
    const badName = await api.request<{ detail: string }>('POST', '/api/storage/volumes', {
      name: '../x',
      path: '/data',
    });
    expect(badName.body.detail).toBe('存储卷名称只能包含字母、数字、下划线和横线');

    const created = await api.request<Volume>('POST', '/api/storage/volumes', {
      name: 'data01',
      path: '/root/data',
      node_id: market.nodeId,
    });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('vol_alice-data01');
    expect(created.body.agent.name).toBe('node-store-a');
    expect(existsSync(hostDir(agent, api.id, created.body.id))).toBe(true);

    const again = await api.request<{ detail: string }>('POST', '/api/storage/volumes', {
      name: 'data01',
      path: '/x',
      node_id: market.nodeId,
    });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('存储卷名称已存在');

    const list = await api.request<{ id: number; name: string }[]>('GET', '/api/storage/volumes');
    expect(list.body.map((v) => v.name)).toEqual(['vol_alice-data01']);
    // Nobody else sees or touches it.
    const bob = await user('vol_bob');
    expect((await bob.request<unknown[]>('GET', '/api/storage/volumes')).body).toEqual([]);
    expect((await bob.request('DELETE', `/api/storage/volumes/${created.body.id}`)).status).toBe(404);
  });

  it('measures usage on the node and refuses a create or a mount past the quota', async () => {
    const api = await user('vol_carol');
    const v = (
      await api.request<Volume>('POST', '/api/storage/volumes', {
        name: 'big',
        path: '/big',
        node_id: market.nodeId,
      })
    ).body;
    writeFileSync(path.join(hostDir(agent, api.id, v.id), 'weights.bin'), Buffer.alloc(3 * MIB, 1));
    const info = await api.request<Info>('GET', '/api/storage/info');
    expect(info.status).toBe(200);
    expect(info.body.used_bytes).toBe(3 * MIB);
    expect(info.body.volumes[0]?.size).toBe(3 * MIB);
    expect(info.body.quota_storage).toBeCloseTo(QUOTA_GB, 2);
    // A measurement is reused for a few seconds; 刷新 (refresh=1) measures again now.
    writeFileSync(path.join(hostDir(agent, api.id, v.id), 'more.bin'), Buffer.alloc(MIB, 2));
    expect((await api.request<Info>('GET', '/api/storage/info')).body.used_bytes).toBe(3 * MIB);
    expect((await api.request<Info>('GET', '/api/storage/info?refresh=1')).body.used_bytes).toBe(4 * MIB);

    const more = await api.request<{ detail: string }>('POST', '/api/storage/volumes', {
      name: 'more',
      path: '/more',
      node_id: market.nodeId,
    });
    expect(more.status).toBe(403);
    expect(more.body.detail).toContain('配额');
    const mounted = await buy(api, market, [{ source: String(v.id), target: '/big' }]);
    expect(mounted.status).toBe(403);
    expect(mounted.body.detail).toContain('配额');
    // Nothing was bought: no container, no allocation, no order.
    const count = async (table: string) =>
      Number((await cp.knex(table).where({ user_id: api.id }).count({ n: '*' }).first())?.n);
    expect(await count('containers')).toBe(0);
    expect(await count('container_orders')).toBe(0);
  });

  it('mounts a volume at purchase; the data outlives the container; delete is refused while in use', async () => {
    const api = await user('vol_dave');
    const v = (
      await api.request<Volume>('POST', '/api/storage/volumes', {
        name: 'work',
        path: '/root/work',
        node_id: market.nodeId,
      })
    ).body;
    const bought = await buy(api, market, [{ source: 'work', target: '/root/work' }]);
    expect(bought.status).toBe(201);
    const id = bought.body.container_id;
    const inspect = await docker().getContainer(`gpucloud-${id}`).inspect();
    const bind = inspect.Mounts.find((m) => m.Destination === '/root/work');
    expect(bind?.Source).toBe(hostDir(agent, api.id, v.id));

    const exec = await docker()
      .getContainer(`gpucloud-${id}`)
      .exec({ Cmd: ['sh', '-c', 'echo epoch-7 > /root/work/ckpt.txt'], AttachStdout: true });
    const stream = await exec.start({});
    await new Promise((resolve) => stream.on('end', resolve).resume());
    expect(readFileSync(path.join(hostDir(agent, api.id, v.id), 'ckpt.txt'), 'utf8')).toBe('epoch-7\n');

    const container = await api.request<{ mounts: { source: string; target: string }[] }>(
      'GET',
      `/api/containers/${id}`,
    );
    expect(container.body.mounts).toEqual([{ source: String(v.id), target: '/root/work' }]);
    const info = await api.request<Info>('GET', '/api/storage/info');
    expect(info.body.volumes[0]?.containers).toEqual([
      expect.objectContaining({ container_id: id, mount_path: '/root/work', pending: false }),
    ]);
    expectServed(storageInfoReply, info.body);

    const refused = await api.request<{ detail: string }>('DELETE', `/api/storage/volumes/${v.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('该存储卷已被容器使用，无法删除');

    expect((await api.request('DELETE', `/api/containers/${id}`)).status).toBeLessThan(300);
    expect(readFileSync(path.join(hostDir(agent, api.id, v.id), 'ckpt.txt'), 'utf8')).toBe('epoch-7\n');

    // 202: 删除中 at once, gone once the node has removed it (storage-delete.test.ts).
    const deleted = await api.request<{ status: string }>('DELETE', `/api/storage/volumes/${v.id}`);
    expect(deleted.status).toBe(202);
    expect(deleted.body.status).toBe('deleting');
    expect((await api.request<unknown[]>('GET', '/api/storage/volumes')).body).toEqual([]);
    for (let i = 0; (await api.request<Info>('GET', '/api/storage/info')).body.volumes.length > 0; i++) {
      if (i > 300) throw new Error('the volume was not deleted');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(existsSync(hostDir(agent, api.id, v.id))).toBe(false);
  });

  it('mounts only the owner’s volumes on the container’s own node', async () => {
    const api = await user('vol_erin');
    const other = await user('vol_frank');
    const foreign = (
      await other.request<Volume>('POST', '/api/storage/volumes', {
        name: 'secret',
        path: '/s',
        node_id: market.nodeId,
      })
    ).body;
    const byId = await buy(api, market, [{ source: String(foreign.id), target: '/s' }]);
    expect(byId.status).toBe(400);
    expect(byId.body.detail).toBe(`存储卷 ${foreign.id} 不存在`);
    const byName = await buy(api, market, [{ source: foreign.name, target: '/s' }]);
    expect(byName.body.detail).toBe(`存储卷 ${foreign.name} 不存在`);

    const elsewhere = (
      await api.request<Volume>('POST', '/api/storage/volumes', {
        name: 'far',
        path: '/far',
        node_id: otherMarket.nodeId,
      })
    ).body;
    expect(existsSync(hostDir(otherAgent, api.id, elsewhere.id))).toBe(true);
    const wrongNode = await buy(api, market, [{ source: String(elsewhere.id), target: '/far' }]);
    expect(wrongNode.status).toBe(400);
    expect(wrongNode.body.code).toBe('VOLUME_OTHER_NODE');

    const admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const removeNode = await admin.request<{ detail: string }>(
      'DELETE',
      `/api/admin/nodes/${otherMarket.nodeId}`,
    );
    expect(removeNode.status).toBe(409);
    expect(removeNode.body.detail).toContain('存储卷');
  });

  it('renames a volume without moving its data, refusing invalid and duplicate names', async () => {
    const api = await user('vol_gina');
    const a = (
      await api.request<Volume>('POST', '/api/storage/volumes', {
        name: 'a',
        path: '/a',
        node_id: market.nodeId,
      })
    ).body;
    await api.request<Volume>('POST', '/api/storage/volumes', {
      name: 'b',
      path: '/b',
      node_id: market.nodeId,
    });
    writeFileSync(path.join(hostDir(agent, api.id, a.id), 'keep.txt'), 'kept');

    const bad = await api.request<{ detail: string }>('PUT', `/api/storage/volumes/${a.id}/rename`, {
      new_name: 'no spaces',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('存储卷名称只能包含字母、数字、下划线和横线');
    const dup = await api.request<{ detail: string }>('PUT', `/api/storage/volumes/${a.id}/rename`, {
      new_name: 'b',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toBe('存储卷名称已存在');
    const ok = await api.request<Volume>('PUT', `/api/storage/volumes/${a.id}/rename`, {
      new_name: 'dataset_v2',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe('vol_gina-dataset_v2');
    expect(readFileSync(path.join(hostDir(agent, api.id, a.id), 'keep.txt'), 'utf8')).toBe('kept');
  });

  it('changes the mounts of an existing container at its next start', async () => {
    const api = await user('vol_hank');
    const v = (
      await api.request<Volume>('POST', '/api/storage/volumes', {
        name: 'later',
        path: '/mnt/later',
        node_id: market.nodeId,
      })
    ).body;
    writeFileSync(path.join(hostDir(agent, api.id, v.id), 'hello.txt'), 'from the volume');
    const bought = await buy(api, market, []);
    const id = bought.body.container_id;

    const saved = await api.request<{ pending_mounts: unknown }>('POST', `/api/containers/${id}/mounts`, {
      mounts: [{ source: String(v.id), target: '/mnt/later' }],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.pending_mounts).toEqual([{ source: String(v.id), target: '/mnt/later' }]);
    const pending = await api.request<Info>('GET', '/api/storage/info');
    expect(pending.body.volumes[0]?.containers[0]).toMatchObject({ container_id: id, pending: true });

    const unknown = await api.request<{ detail: string }>('POST', `/api/containers/${id}/mounts`, {
      mounts: [{ source: 'nosuch', target: '/x' }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe('存储卷 nosuch 不存在');

    await api.request('POST', `/api/containers/${id}/stop`);
    const started = await api.request<{ status: string; mounts: unknown; pending_mounts: unknown }>(
      'POST',
      `/api/containers/${id}/start`,
    );
    expect(started.body.status).toBe('running');
    expect(started.body.mounts).toEqual([{ source: String(v.id), target: '/mnt/later' }]);
    expect(started.body.pending_mounts).toBeNull();
    const inspect = await docker().getContainer(`gpucloud-${id}`).inspect();
    expect(inspect.Mounts.find((m) => m.Destination === '/mnt/later')?.Source).toBe(
      hostDir(agent, api.id, v.id),
    );
  });

  it('refuses at the mounts endpoint every target the purchase refuses, with the purchase’s words', async () => {
    const api = await user('vol_ivan');
    const v = (
      await api.request<Volume>('POST', '/api/storage/volumes', {
        name: 'sys',
        path: '/data',
        node_id: market.nodeId,
      })
    ).body;
    const bought = await buy(api, market, []);
    const id = bought.body.container_id;
    for (const target of [
      '/',
      '/proc',
      '/proc/self',
      '/sys',
      '/dev',
      '/etc',
      '/usr',
      '/var',
      '/root/.ssh',
      '/.gpucloud',
    ]) {
      const mounts = [{ source: String(v.id), target }];
      const atPurchase = await buy(api, market, mounts);
      expect(atPurchase.status, target).toBe(400);
      expect(atPurchase.body.detail, target).toBe(`不能挂载到系统目录 ${target}`);
      const later = await api.request<{ detail: string }>('POST', `/api/containers/${id}/mounts`, { mounts });
      expect(later.status, target).toBe(400);
      expect(later.body.detail, target).toBe(atPurchase.body.detail);
    }
    // Nothing was saved for the next start (which the node would have refused).
    const container = await api.request<{ pending_mounts: unknown }>('GET', `/api/containers/${id}`);
    expect(container.body.pending_mounts).toBeNull();
  });
});
