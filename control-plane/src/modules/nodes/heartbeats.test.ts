import type { HostInfo__Output } from '@gpucloud/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeContainer, fakeNode } from '../../../test/fake-containers.js';
import { startTestControlPlane } from '../../../test/harness.js';
import type { RunningControlPlane } from '../../platform.js';
import { HeartbeatBatcher, type HeartbeatWrite } from './heartbeats.js';

describe('HeartbeatBatcher', () => {
  function recorder(fail = false) {
    const batches: HeartbeatWrite[][] = [];
    const write = async (w: HeartbeatWrite[]) => {
      batches.push(w);
      if (fail) throw new Error('database down');
    };
    return { batches, write };
  }

  it('writes the beats of one tick together, the latest of each node', async () => {
    const { batches, write } = recorder();
    const b = new HeartbeatBatcher(write, 20);
    const t0 = new Date(1000);
    const t1 = new Date(2000);
    await Promise.all([b.beat(1, true, t0), b.beat(2, false, t0), b.beat(1, false, t1)]);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual([
      { id: 1, at: t1, dockerAvailable: false },
      { id: 2, at: t0, dockerAvailable: false },
    ]);
    await b.beat(3, true, t1);
    expect(batches).toHaveLength(2);
    expect(batches[1]?.map((w) => w.id)).toEqual([3]);
  });

  it('sends carried facts with the node’s next beat only, and keeps them when the write fails', async () => {
    const failing = recorder(true);
    const b = new HeartbeatBatcher(failing.write, 5);
    const at = new Date(5000);
    b.carry(7, { reconciledAt: at });
    b.carry(7, { hostInfo: { diskFreeBytes: 1 } });
    await expect(b.beat(8, true, at)).rejects.toThrow('database down');
    expect(failing.batches[0]).toEqual([{ id: 8, at, dockerAvailable: true }]);
    await expect(b.beat(7, true, at)).rejects.toThrow('database down');
    expect(failing.batches[1]).toEqual([
      { id: 7, at, dockerAvailable: true, reconciledAt: at, hostInfo: { diskFreeBytes: 1 } },
    ]);

    // The failed write's facts come again; a drop forgets them.
    const ok = recorder();
    const c = new HeartbeatBatcher(ok.write, 5);
    c.carry(7, { reconciledAt: at, hostInfo: { diskFreeBytes: 2 } });
    c.drop(7, ['hostInfo']);
    await c.beat(7, true, at);
    await c.beat(7, true, at);
    expect(ok.batches).toEqual([
      [{ id: 7, at, dockerAvailable: true, reconciledAt: at, hostInfo: undefined }],
      [{ id: 7, at, dockerAvailable: true }],
    ]);
  });
});

// ------------------------------------------------------------------------------------------------

function hostInfo(
  gpus: { uuid: string; healthProblem?: string }[],
  extra: Partial<HostInfo__Output> = {},
): HostInfo__Output {
  return {
    hostname: 'h',
    dockerAvailable: true,
    dockerError: '',
    simulated: true,
    portRangeStart: 20000,
    portRangeEnd: 29999,
    unsafeReason: '',
    gpuProbeError: '',
    diskTotalBytes: '1000',
    diskFreeBytes: '500',
    gpus: gpus.map((g, index) => ({
      index,
      uuid: g.uuid,
      model: 'RTX4090',
      memoryTotalMib: '24564',
      pciBusId: `00000000:0${index}:00.0`,
      healthProblem: g.healthProblem ?? '',
      persistenceMode: true,
      migEnabled: false,
      fabricState: '',
      numaNode: 0,
      nvlinkPeers: [],
    })),
    ...extra,
  } as unknown as HostInfo__Output;
}

const NODE_WRITE = /^\s*(update|insert\s+into)\s+"?(nodes|node_gpus)"?[\s(]/i;

describe('node writes (database)', () => {
  let cp: RunningControlPlane;
  beforeAll(async () => {
    cp = await startTestControlPlane({ billingJobs: false });
  });
  afterAll(async () => {
    await cp?.close();
  });

  /** The statements `fn` sends, and the rows the node-table writes among them report. */
  async function counted(fn: () => Promise<unknown>) {
    const sql: string[] = [];
    let rows = 0;
    const onResponse = (response: unknown, q: { sql?: string }) => {
      if (!q.sql) return;
      // The node monitor records its failed dials of these fake nodes (unreachable addresses)
      // whenever its sync comes: not what is measured here.
      if (/"last_error"/.test(q.sql)) return;
      sql.push(q.sql);
      if (NODE_WRITE.test(q.sql)) {
        if (typeof response === 'number') rows += response;
        else if (Array.isArray(response)) rows += response.length;
        else rows += Number((response as { rowCount?: number } | undefined)?.rowCount ?? 1);
      }
    };
    cp.knex.on('query-response', onResponse);
    try {
      await fn();
    } finally {
      cp.knex.off('query-response', onResponse);
    }
    return { sql, writes: sql.filter((s) => NODE_WRITE.test(s)), rows };
  }

  it('writes the heartbeats of many nodes in one statement, keeping unsafe nodes unsafe', async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, () => fakeNode(cp)));
    await cp.knex('nodes').whereIn('id', ids).update({ status: 'offline', last_heartbeat_at: null });
    const [unsafeId] = ids;
    await cp.knex('nodes').where({ id: unsafeId }).update({ status: 'unsafe' });
    const before = Date.now();
    const { writes, rows } = await counted(() =>
      Promise.all(ids.map((id, i) => cp.services.nodes.heartbeat(id, i % 2 === 0))),
    );
    expect(writes).toHaveLength(1);
    expect(rows).toBe(40);
    const stored = await cp.knex('nodes').whereIn('id', ids).orderBy('id');
    expect(stored).toHaveLength(40);
    for (const row of stored) {
      expect(row.status).toBe(row.id === unsafeId ? 'unsafe' : 'online');
      expect(row.docker_available).toBe(ids.indexOf(row.id) % 2 === 0);
      expect(new Date(row.last_heartbeat_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
  });

  it('writes a refresh that changes nothing not at all, and disk space only with the next heartbeat', async () => {
    const id = await fakeNode(cp);
    const nodes = cp.services.nodes;
    const gpus = [{ uuid: 'GPU-hb-a' }, { uuid: 'GPU-hb-b' }];
    const first = await counted(() => nodes.applyHostInfo({ id }, hostInfo(gpus)));
    expect(first.rows).toBe(3); // the node and its two GPUs, new

    const again = await counted(() => nodes.applyHostInfo({ id }, hostInfo(gpus)));
    expect(again.writes).toEqual([]);

    // Only the disk changed: nothing now, the new figure with the next heartbeat.
    const disk = await counted(() =>
      nodes.applyHostInfo({ id }, hostInfo(gpus, { diskFreeBytes: '400' } as never)),
    );
    expect(disk.writes).toEqual([]);
    let row = await cp.knex('nodes').where({ id }).first();
    expect(row.host_info.diskFreeBytes).toBe('500');
    const beat = await counted(() => nodes.heartbeat(id, true));
    expect(beat.rows).toBe(1);
    row = await cp.knex('nodes').where({ id }).first();
    expect(row.host_info.diskFreeBytes).toBe('400');
    expect(row.host_info.hostname).toBe('h');

    // A GPU that fails: its row alone is written (and the node's facts are the same).
    const sick = await counted(() =>
      nodes.applyHostInfo(
        { id },
        hostInfo([{ uuid: 'GPU-hb-a' }, { uuid: 'GPU-hb-b', healthProblem: 'Xid 79' }], {
          diskFreeBytes: '400',
        } as never),
      ),
    );
    expect(sick.rows).toBe(1);
    const stored = await cp.knex('node_gpus').where({ node_id: id }).orderBy('gpu_index');
    expect(stored.map((g) => g.health_problem)).toEqual(['', 'Xid 79']);
    expect(stored[1].problem_since).not.toBeNull();

    // A node's own facts changing (Docker gone) are written at once.
    const docker = await counted(() =>
      nodes.applyHostInfo({ id }, hostInfo(gpus, { dockerAvailable: false, dockerError: 'down' } as never)),
    );
    expect(docker.writes.some((s) => /^\s*update\s+"nodes"/i.test(s))).toBe(true);
    row = await cp.knex('nodes').where({ id }).first();
    expect(row.docker_error).toBe('down');
  });

  it('writes an unchanged reconcile with the next heartbeat, a new unknown container at once', async () => {
    const id = await fakeNode(cp);
    const nodes = cp.services.nodes;
    const unknown = {
      containerId: 'stray-1',
      dockerId: 'd1',
      ownerId: '9',
      state: 'CONTAINER_STATE_RUNNING',
      image: 'x',
    } as never;
    const found = await counted(() => nodes.recordUnknownContainers(id, [unknown], new Set()));
    expect(found.rows).toBe(1);
    let row = await cp.knex('nodes').where({ id }).first();
    expect(row.unknown_containers.map((c: { container_id: string }) => c.container_id)).toEqual(['stray-1']);
    const reconciledBefore = new Date(row.reconciled_at).getTime();

    await new Promise((r) => setTimeout(r, 20));
    const same = await counted(() => nodes.recordUnknownContainers(id, [unknown], new Set()));
    expect(same.writes).toEqual([]);
    await nodes.heartbeat(id, true);
    row = await cp.knex('nodes').where({ id }).first();
    expect(new Date(row.reconciled_at).getTime()).toBeGreaterThan(reconciledBefore);

    // Gone: written at once.
    await nodes.recordUnknownContainers(id, [], new Set());
    row = await cp.knex('nodes').where({ id }).first();
    expect(row.unknown_containers).toEqual([]);
  });

  it('counts the free GPUs of any number of nodes in a fixed number of queries', async () => {
    const nodes = cp.services.nodes;
    const [owner] = await cp
      .knex('users')
      .insert({ username: `hb_${Date.now()}`, password_hash: 'x' })
      .returning('id');
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const id = await fakeNode(cp);
      ids.push(id);
      const uuids = ['a', 'b', 'c', 'd'].map((x) => `GPU-free-${id}-${x}`);
      await nodes.applyHostInfo(
        { id },
        hostInfo(uuids.map((uuid, k) => ({ uuid, healthProblem: i % 3 === 1 && k === 0 ? 'Xid 48' : '' }))),
      );
      // nvidia-smi failing as a whole: the GPU rows stay, none is sold.
      if (i % 3 === 2)
        await nodes.applyHostInfo({ id }, hostInfo([], { gpuProbeError: 'nvidia-smi failed' } as never));
      if (i % 2 === 0) {
        const container = await fakeContainer(cp, { userId: owner.id, nodeId: id, priceFen: 100 });
        await cp.knex('gpu_allocations').insert({ node_id: id, gpu_uuid: uuids[1], container_id: container });
      }
    }
    // Expected from the rules: 4 GPUs, one failed on every third node from the second, one
    // held on every other node; none on a node whose GPUs could not be read.
    const expected = new Map(
      ids.map((id, i) => [id, i % 3 === 2 ? 0 : 4 - (i % 3 === 1 ? 1 : 0) - (i % 2 === 0 ? 1 : 0)]),
    );
    const one = await counted(() => nodes.freeGpuCounts(ids.slice(0, 1)));
    let counts: Map<number, number> = new Map();
    const all = await counted(async () => {
      counts = await nodes.freeGpuCounts(ids);
    });
    expect(counts).toEqual(expected);
    expect(all.sql.length).toBe(one.sql.length);
    expect(all.sql.length).toBeLessThanOrEqual(3);
  });
});
