import { SUPPORTED_AGENT_PROTOCOLS } from '@gpucloud/proto';
import type { Knex } from 'knex';
import { isUniqueViolation } from '../../framework/db-errors.js';
import { gpuState } from './gpus.js';
import type { HeartbeatWrite } from './heartbeats.js';
import {
  GPU_ORDER,
  type GpuMetric,
  GpuSampleModel,
  type GpuSampleRow,
  NodeGpuModel,
  type NodeGpuRow,
  NodeImageModel,
  type NodeImageRow,
  NodeModel,
  type NodeRow,
  type ReportedGpu,
  type UnknownContainer,
} from './model.js';

export type {
  GpuMetric,
  GpuSampleRow,
  NodeGpuRow,
  NodeImageRow,
  NodeRow,
  ReportedGpu,
  UnknownContainer,
} from './model.js';

/** A GPU that became unusable (missing, failed, MIG, fabric not ready) at `since`. */
export type GpuTransition = NodeGpuRow & { since: Date };

/** What NodesRepository.update did. */
export interface NodeUpdate {
  /** The GPUs that became unusable now. */
  became: GpuTransition[];
  /**
   * The reported host_info when it differed from the stored one in `volatileHostInfo` keys only
   * (disk space): not written, for the caller to write with the node's next heartbeat.
   */
  deferredHostInfo: Record<string, unknown> | undefined;
  /** Whether any GPU row of the node is missing now. */
  anyMissing: boolean;
}

/** The parts of a GPU row a report sets: a row whose parts are all equal is not written again. */
const GPU_FACTS = [
  'gpu_index',
  'model',
  'memory_total_mib',
  'pci_bus_id',
  'health_problem',
  'persistence_mode',
  'mig_enabled',
  'fabric_state',
  'numa_node',
] as const;

function sameTime(a: Date | null | undefined, b: Date | null | undefined): boolean {
  return (a ? new Date(a).getTime() : null) === (b ? new Date(b).getTime() : null);
}

function sameGpu(a: NodeGpuRow, b: NodeGpuRow): boolean {
  return (
    GPU_FACTS.every((k) => a[k] === b[k]) &&
    JSON.stringify(a.nvlink_peers ?? []) === JSON.stringify(b.nvlink_peers ?? []) &&
    sameTime(a.missing_since, b.missing_since) &&
    sameTime(a.problem_since, b.problem_since)
  );
}

/** JSON with the keys of every object sorted: equal values give equal text, whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

function withoutKeys(info: Record<string, unknown> | null | undefined, keys: readonly string[]) {
  if (!info) return info ?? null;
  const out = { ...info };
  for (const k of keys) delete out[k];
  return out;
}

/** The GPU facts the market reads to count a node's free GPUs (no JSON, no model instances). */
export type GpuStateRow = Pick<
  NodeGpuRow,
  'node_id' | 'uuid' | 'gpu_index' | 'missing_since' | 'health_problem' | 'mig_enabled' | 'fabric_state'
>;

/** What a node's agent reported (ListImages). */
export interface ImageListing {
  images: { tag: string; sizeBytes: number }[];
  pulling: string[];
  diskTotalBytes: number;
  diskFreeBytes: number;
}

export type NodeFacts = Pick<
  NodeRow,
  | 'host_info'
  | 'docker_available'
  | 'docker_error'
  | 'simulated'
  | 'gpu_model'
  | 'gpu_total'
  | 'port_range_start'
  | 'port_range_end'
  | 'agent_version'
  | 'agent_build'
  | 'agent_protocol'
> & { status: NodeRow['status'] };

/** What other modules show of a node next to their own rows (a product's market card). */
export type NodeSummary = Pick<
  NodeRow,
  'id' | 'name' | 'status' | 'docker_available' | 'simulated' | 'gpu_total' | 'maintenance_since'
>;

/** The row of a model as a plain object (not a model instance). */
const plain = <T>(model: { toJSON(): object }): T => ({ ...model.toJSON() }) as T;

// Reads of many rows at once (every node, every GPU of the market's nodes), made every few
// seconds on a large fleet, are knex's plain rows, the same values as a model's toJSON: a
// thousand models, each deep-copied by toJSON, held the event loop for tens of milliseconds in one
// piece (the node monitor's sync, the market's list); pg parses rows as they arrive.

/** Owns nodes, node_gpus, gpu_samples and node_images. */
export class NodesRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * Claims the node for an upgrade to `build` (one at a time across replicas; one begun before
   * `staleBefore` may be taken over). False when another upgrade holds it.
   */
  async claimUpgrade(nodeId: number, build: string, staleBefore: Date): Promise<boolean> {
    const rows = await this.knex('nodes')
      .where({ id: nodeId })
      .where((q) => q.whereNull('upgrading_since').orWhere('upgrading_since', '<', staleBefore))
      .update({
        upgrading_since: new Date(),
        upgrade_target: build,
        upgrade_error: null,
        upgrade_error_at: null,
      })
      .returning('id');
    return rows.length > 0;
  }

  /** The node came back with `build`: an upgrade to it is over. Whether one was. */
  async settleUpgrade(nodeId: number, build: string): Promise<boolean> {
    const rows = await this.knex('nodes')
      .where({ id: nodeId, upgrade_target: build })
      .whereNotNull('upgrading_since')
      .update({ upgrading_since: null, upgrade_target: null, upgrade_error: null, upgrade_error_at: null })
      .returning('id');
    return rows.length > 0;
  }

  /** Upgrades begun before `staleBefore` failed with `error`; the ids of their nodes. */
  async expireUpgrades(staleBefore: Date, error: string): Promise<number[]> {
    const rows: { id: number }[] = await this.knex('nodes')
      .whereNotNull('upgrading_since')
      .where('upgrading_since', '<', staleBefore)
      .update({
        upgrading_since: null,
        upgrade_target: null,
        upgrade_error: error,
        upgrade_error_at: new Date(),
      })
      .returning('id');
    return rows.map((r) => Number(r.id));
  }

  async recordUpgradeFailure(nodeId: number, error: string): Promise<void> {
    await this.knex('nodes').where({ id: nodeId }).update({
      upgrading_since: null,
      upgrade_target: null,
      upgrade_error: error,
      upgrade_error_at: new Date(),
    });
  }

  async list(): Promise<NodeRow[]> {
    return this.knex<NodeRow>('nodes').orderBy('id');
  }

  /** Every node's last heartbeat, in one query (the metrics' heartbeat lag, read at each scrape). */
  async lastHeartbeats(): Promise<Pick<NodeRow, 'id' | 'name' | 'last_heartbeat_at'>[]> {
    return this.knex<NodeRow>('nodes').orderBy('id').select('id', 'name', 'last_heartbeat_at');
  }

  /** The summaries of these nodes, by id (a node that is gone is missing). */
  async summaries(ids: number[]): Promise<Map<number, NodeSummary>> {
    if (ids.length === 0) return new Map();
    const rows: NodeSummary[] = await this.knex<NodeRow>('nodes')
      .whereIn('id', ids)
      .select('id', 'name', 'status', 'docker_available', 'simulated', 'gpu_total', 'maintenance_since');
    return new Map(rows.map((r) => [r.id, r]));
  }

  async findById(id: number, trx?: Knex.Transaction): Promise<NodeRow | undefined> {
    const row = await NodeModel.query(trx ?? this.knex).findById(id);
    return row && plain<NodeRow>(row);
  }

  async findByName(name: string): Promise<NodeRow | undefined> {
    const row = await NodeModel.query(this.knex).where({ name }).first();
    return row && plain<NodeRow>(row);
  }

  /** Locks the node row: allocations on one node are serialised behind it. */
  async lock(id: number, trx: Knex.Transaction): Promise<NodeRow | undefined> {
    const row = await NodeModel.query(trx).findById(id).forUpdate();
    return row && plain<NodeRow>(row);
  }

  async insert(
    values: Pick<NodeRow, 'name' | 'address' | 'token' | 'region' | 'public_host'> &
      Omit<NodeFacts, 'gpu_model' | 'gpu_total'> &
      Partial<Pick<NodeFacts, 'gpu_model' | 'gpu_total'>>,
    gpus: ReportedGpu[] | undefined,
  ): Promise<NodeRow> {
    return this.knex.transaction(async (trx) => {
      const row = await NodeModel.query(trx)
        .insert({ ...values, last_heartbeat_at: new Date() })
        .returning('*');
      if (gpus) await this.applyGpus(row.id, gpus, new Date(), trx);
      return plain<NodeRow>(row);
    });
  }

  /**
   * A node that joined with a token (fleet module), in the caller's transaction: not probed yet
   * (offline until its agent answers). Its name gets a suffix (-2, -3...) when taken.
   */
  async insertJoined(
    values: Pick<NodeRow, 'name' | 'address' | 'token' | 'region' | 'public_host' | 'tls'>,
    trx: Knex.Transaction,
  ): Promise<NodeRow> {
    for (let n = 1; n <= 100; n++) {
      const suffix = n === 1 ? '' : `-${n}`;
      const name = `${values.name.slice(0, 64 - suffix.length)}${suffix}`;
      try {
        // A savepoint: a taken name fails this insert only, not the caller's transaction.
        const row = await trx.transaction(
          async (sp) =>
            await NodeModel.query(sp)
              .insert({ ...values, name, status: 'offline' })
              .returning('*'),
        );
        return plain<NodeRow>(row);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
    throw new Error(`no free node name for ${values.name}`);
  }

  /**
   * Stores what the node reported. `gpus` undefined (nvidia-smi failed as a whole) keeps the GPU
   * rows as they are. Otherwise GPUs are matched by UUID: reported ones are updated (index, bus
   * id, health...), ones no longer reported get missing_since (their rows stay), ones back are
   * cleared. Serialised per node (the node row is locked): replicas refreshing one node at once
   * see each change once. Returns the GPUs that became unusable now.
   */
  async update(
    id: number,
    values: Partial<Pick<NodeRow, 'address' | 'token' | 'region' | 'public_host'>> & Partial<NodeFacts>,
    gpus: ReportedGpu[] | undefined,
    options: { volatileHostInfo?: readonly string[] } = {},
  ): Promise<NodeUpdate> {
    return this.knex.transaction(async (trx) => {
      const locked = await NodeModel.query(trx).findById(id).forUpdate();
      const before = locked ? plain<NodeRow>(locked) : undefined;
      const volatile = options.volatileHostInfo ?? [];
      // Unchanged facts are not written again; host_info that changed in volatile keys only is
      // handed back (written with the next heartbeat).
      const changed = Object.entries(values).filter(([key, value]) => {
        if (!before) return true;
        const stored = (before as unknown as Record<string, unknown>)[key];
        if (key === 'host_info') {
          return (
            canonical(withoutKeys(value as Record<string, unknown>, volatile)) !==
            canonical(withoutKeys(stored as Record<string, unknown>, volatile))
          );
        }
        return (value ?? null) !== (stored ?? null);
      });
      const hostInfoChanged =
        values.host_info !== undefined &&
        canonical(values.host_info) !== canonical(before?.host_info ?? null);
      let deferredHostInfo: Record<string, unknown> | undefined;
      if (changed.length > 0 || volatile.length === 0) {
        await NodeModel.query(trx)
          .findById(id)
          .patch({ ...values, last_heartbeat_at: new Date(), updated_at: new Date() });
      } else if (hostInfoChanged) {
        deferredHostInfo = values.host_info ?? undefined;
      }
      const applied = gpus ? await this.applyGpus(id, gpus, new Date(), trx) : undefined;
      return {
        became: applied?.became ?? [],
        deferredHostInfo,
        anyMissing: applied ? applied.anyMissing : false,
      };
    });
  }

  private async applyGpus(
    nodeId: number,
    reported: ReportedGpu[],
    now: Date,
    trx: Knex.Transaction,
  ): Promise<{ became: GpuTransition[]; anyMissing: boolean }> {
    const existing = new Map(
      (await NodeGpuModel.query(trx).where({ node_id: nodeId })).map((g) => [g.uuid, plain<NodeGpuRow>(g)]),
    );
    const seen = new Set<string>();
    const next: NodeGpuRow[] = [];
    for (const gpu of reported) {
      if (seen.has(gpu.uuid)) continue;
      seen.add(gpu.uuid);
      const before = existing.get(gpu.uuid);
      next.push({
        ...gpu,
        node_id: nodeId,
        missing_since: null,
        problem_since: before?.problem_since ?? null,
      });
    }
    for (const [uuid, before] of existing) {
      if (!seen.has(uuid)) next.push({ ...before, missing_since: before.missing_since ?? now });
    }
    const became: GpuTransition[] = [];
    const changed: NodeGpuRow[] = [];
    for (const gpu of next) {
      delete (gpu as { id?: number }).id;
      const ok = gpuState(gpu) === 'ok';
      if (!ok && !gpu.problem_since) {
        gpu.problem_since = now;
        became.push({ ...gpu, since: now });
      } else if (ok) {
        gpu.problem_since = null;
      }
      // A GPU reported as it is stored is not written again (a refresh of a healthy node writes nothing).
      const before = existing.get(gpu.uuid);
      if (!before || !sameGpu(before, gpu)) changed.push(gpu);
    }
    // One statement for the changed ones.
    if (changed.length > 0)
      await NodeGpuModel.query(trx).insert(changed).onConflict(['node_id', 'uuid']).merge();
    return { became, anyMissing: next.some((g) => g.missing_since !== null) };
  }

  /** Forgets GPUs missing since before `before` that nobody holds (`held`: UUIDs held on the node). */
  async pruneMissingGpus(nodeId: number, before: Date, held: string[]): Promise<void> {
    await NodeGpuModel.query(this.knex)
      .where({ node_id: nodeId })
      .where('missing_since', '<', before)
      .whereNotIn('uuid', held)
      .delete();
  }

  /** Every GPU row of the node (missing ones too), lowest index first. */
  async gpus(nodeId: number, trx?: Knex.Transaction): Promise<NodeGpuRow[]> {
    const rows = await NodeGpuModel.query(trx ?? this.knex)
      .where({ node_id: nodeId })
      .modify('byIndex');
    return rows.map((r) => plain<NodeGpuRow>(r));
  }

  /** The GPU rows of these nodes, by node. */
  async gpusOf(nodeIds: number[]): Promise<Map<number, NodeGpuRow[]>> {
    const out = new Map<number, NodeGpuRow[]>(nodeIds.map((id) => [id, []]));
    if (nodeIds.length === 0) return out;
    const rows: NodeGpuRow[] = await this.knex<NodeGpuRow>('node_gpus')
      .whereIn('node_id', nodeIds)
      .orderBy(GPU_ORDER);
    for (const r of rows) out.get(r.node_id)?.push(r);
    return out;
  }

  /**
   * The heartbeats of one tick, in one statement: last seen, Docker's state, online (unless
   * unsafe, or its agent's protocol is not spoken: fleet/agent-versions.ts), and what rides along (reconciled_at, host_info: NULL leaves the stored one).
   * Returns the rows written.
   */
  async writeHeartbeats(writes: HeartbeatWrite[]): Promise<number> {
    if (writes.length === 0) return 0;
    const bindings = [
      writes.map((w) => w.id),
      writes.map((w) => w.dockerAvailable),
      writes.map((w) => w.at),
      writes.map((w) => w.reconciledAt ?? null),
      writes.map((w) => (w.hostInfo ? JSON.stringify(w.hostInfo) : null)),
    ];
    const result = await this.knex.raw(
      `UPDATE nodes AS n
          SET last_heartbeat_at = v.at,
              docker_available = v.docker_available,
              status = CASE WHEN n.status = 'unsafe' THEN 'unsafe'
                            WHEN n.agent_protocol IS NOT NULL
                             AND n.agent_protocol <> ALL (ARRAY[${SUPPORTED_AGENT_PROTOCOLS.map(Number).join(',')}]::int[])
                            THEN 'offline' ELSE 'online' END,
              reconciled_at = coalesce(v.reconciled_at, n.reconciled_at),
              host_info = coalesce(v.host_info, n.host_info)
         FROM unnest(?::bigint[], ?::boolean[], ?::timestamptz[], ?::timestamptz[], ?::jsonb[])
              AS v(id, docker_available, at, reconciled_at, host_info)
        WHERE n.id = v.id`,
      bindings as unknown as Knex.RawBinding[],
    );
    return (result as { rowCount: number }).rowCount;
  }

  /** Whether nvidia-smi failed as a whole on each of these nodes (host_info.gpuProbeError), by id. */
  async gpuProbeErrors(ids: number[]): Promise<Map<number, Pick<NodeRow, 'host_info'>>> {
    if (ids.length === 0) return new Map();
    const rows: { id: number; gpu_probe_error: unknown }[] = await this.knex('nodes')
      .whereIn('id', ids)
      .select('id', this.knex.raw(`host_info->'gpuProbeError' as gpu_probe_error`));
    return new Map(
      rows.map((r) => [
        r.id,
        { host_info: r.gpu_probe_error === null ? null : { gpuProbeError: r.gpu_probe_error } },
      ]),
    );
  }

  /** What decides whether each GPU of these nodes can be rented (one query, plain rows). */
  async gpuStates(nodeIds: number[]): Promise<GpuStateRow[]> {
    if (nodeIds.length === 0) return [];
    return this.knex('node_gpus')
      .whereIn('node_id', nodeIds)
      .select(
        'node_id',
        'uuid',
        'gpu_index',
        'missing_since',
        'health_problem',
        'mig_enabled',
        'fabric_state',
      );
  }

  /** Marks nodes offline whose last heartbeat is older than `before`; returns their ids. */
  async markStaleOffline(before: Date): Promise<number[]> {
    const rows = await NodeModel.query(this.knex)
      .modify('online')
      .where((q) => q.whereNull('last_heartbeat_at').orWhere('last_heartbeat_at', '<', before))
      .patch({ status: 'offline' })
      .returning('id');
    return rows.map((r) => r.id);
  }

  async setStatus(id: number, status: NodeRow['status']): Promise<void> {
    await NodeModel.query(this.knex).findById(id).patch({ status });
  }

  /** Stores samples in their time buckets, in one statement; a second writer of a bucket is ignored. */
  async insertGpuSamples(samples: { nodeId: number; bucket: Date; gpus: GpuMetric[] }[]): Promise<void> {
    if (samples.length === 0) return;
    // One row per node and bucket (a second sample of a tick for the same bucket is the same sample).
    const rows = new Map(samples.map((s) => [`${s.nodeId}|${s.bucket.getTime()}`, s]));
    await this.knex('gpu_samples')
      .insert(
        [...rows.values()].map((s) => ({
          node_id: s.nodeId,
          bucket: s.bucket,
          gpus: JSON.stringify(s.gpus),
        })),
      )
      .onConflict(['node_id', 'bucket'])
      .ignore();
  }

  async gpuSamples(nodeId: number, since: Date): Promise<GpuSampleRow[]> {
    const rows = await GpuSampleModel.query(this.knex)
      .where({ node_id: nodeId })
      .modify('since', since)
      .select('bucket', 'gpus');
    return rows.map((r) => plain<GpuSampleRow>(r));
  }

  async pruneGpuSamples(before: Date): Promise<void> {
    await GpuSampleModel.query(this.knex).where('bucket', '<', before).delete();
  }

  async setUnknownContainers(id: number, unknown: UnknownContainer[], at: Date): Promise<void> {
    await NodeModel.query(this.knex).findById(id).patch({ unknown_containers: unknown, reconciled_at: at });
  }

  async images(nodeId: number): Promise<NodeImageRow[]> {
    const rows = await NodeImageModel.query(this.knex).where({ node_id: nodeId }).orderBy('image');
    return rows.map((r) => plain<NodeImageRow>(r));
  }

  async image(nodeId: number, image: string): Promise<NodeImageRow | undefined> {
    const row = await NodeImageModel.query(this.knex).where({ node_id: nodeId, image }).first();
    return row && plain<NodeImageRow>(row);
  }

  /** Present images of these nodes, by node. */
  async presentImages(nodeIds: number[]): Promise<Map<number, Set<string>>> {
    const rows = await NodeImageModel.query(this.knex)
      .whereIn('node_id', nodeIds)
      .modify('present')
      .select('node_id', 'image');
    const byNode = new Map<number, Set<string>>();
    for (const row of rows) {
      const set = byNode.get(row.node_id) ?? new Set<string>();
      set.add(row.image);
      byNode.set(row.node_id, set);
    }
    return byNode;
  }

  /**
   * Takes a listing as the truth about what is present: listed images become present, present
   * rows no longer listed go. A warm-up row (pulling/failed) stays unless its image is listed;
   * one that is pulling but neither listed nor pulled on the node, and not touched since
   * `staleBefore`, failed (the process that ran it is gone).
   */
  async applyListing(nodeId: number, listing: ImageListing, staleBefore: Date): Promise<void> {
    const now = new Date();
    await this.knex.transaction(async (trx) => {
      const listed = listing.images.map((i) => i.tag);
      await NodeImageModel.query(trx)
        .where({ node_id: nodeId })
        .modify('present')
        .whereNotIn('image', listed)
        .delete();
      for (const image of listing.images) {
        await NodeImageModel.query(trx)
          .insert({
            node_id: nodeId,
            image: image.tag,
            status: 'present',
            progress: 100,
            size_bytes: image.sizeBytes,
            error: null,
            updated_at: now,
          })
          .onConflict(['node_id', 'image'])
          .merge(['status', 'progress', 'size_bytes', 'error', 'updated_at']);
      }
      await NodeImageModel.query(trx)
        .where({ node_id: nodeId, status: 'pulling' })
        .whereNotIn('image', [...listed, ...listing.pulling])
        .where('updated_at', '<', staleBefore)
        .patch({ status: 'failed', error: '预热已中断', updated_at: now });
      await NodeModel.query(trx)
        .findById(nodeId)
        .patch({
          image_disk_total_bytes: listing.diskTotalBytes || null,
          image_disk_free_bytes: listing.diskFreeBytes || null,
          images_listed_at: now,
        });
    });
  }

  /**
   * Starts a warm-up row: false when the image is already present or being pulled (another
   * admin, another replica).
   */
  async claimWarmUp(nodeId: number, image: string): Promise<boolean> {
    const row = await NodeImageModel.query(this.knex)
      .insert({
        node_id: nodeId,
        image,
        status: 'pulling',
        progress: 0,
        pull_phase: 'downloading',
        error: null,
        updated_at: new Date(),
      })
      .onConflict(['node_id', 'image'])
      .merge(['status', 'progress', 'pull_phase', 'error', 'updated_at'])
      .where('node_images.status', 'failed')
      .returning('id');
    // No row returned (kept as it was): Objection hands back the model it was given, id-less.
    return row.id !== undefined;
  }

  async setImageState(
    nodeId: number,
    image: string,
    values: Partial<Pick<NodeImageRow, 'status' | 'progress' | 'pull_phase' | 'error'>>,
  ): Promise<void> {
    await NodeImageModel.query(this.knex)
      .where({ node_id: nodeId, image })
      .patch({ ...values, updated_at: new Date() });
  }

  async delete(id: number): Promise<void> {
    await NodeModel.query(this.knex).deleteById(id);
  }

  /**
   * Puts the node in maintenance (维护中) or changes its end and reason; `since` is kept when it
   * already was. Returns the row as it is now, and whether it was in maintenance before.
   */
  async startMaintenance(
    id: number,
    until: Date | null,
    reason: string | null,
  ): Promise<{ row: NodeRow; already: boolean } | undefined> {
    return this.knex.transaction(async (trx) => {
      const locked = await NodeModel.query(trx).findById(id).forUpdate();
      if (!locked) return undefined;
      const already = locked.maintenance_since !== null;
      const row = await NodeModel.query(trx).patchAndFetchById(id, {
        maintenance_since: locked.maintenance_since ?? new Date(),
        maintenance_until: until,
        maintenance_reason: reason,
        updated_at: new Date(),
      });
      return { row: plain<NodeRow>(row), already };
    });
  }

  /** Ends the node's maintenance; false when it was not in maintenance (or is gone). */
  async endMaintenance(id: number): Promise<boolean> {
    const count = await NodeModel.query(this.knex).where('id', id).whereNotNull('maintenance_since').patch({
      maintenance_since: null,
      maintenance_until: null,
      maintenance_reason: null,
      updated_at: new Date(),
    });
    return count > 0;
  }

  /** The node monitor's last failed call to the node. */
  async setLastError(id: number, error: string, at: Date): Promise<void> {
    await NodeModel.query(this.knex).findById(id).patch({ last_error: error, last_error_at: at });
  }

  /** Clears the last error (a call succeeded); writes nothing when there is none. */
  async clearLastError(id: number): Promise<void> {
    await NodeModel.query(this.knex)
      .where('id', id)
      .whereNotNull('last_error')
      .patch({ last_error: null, last_error_at: null });
  }
}
