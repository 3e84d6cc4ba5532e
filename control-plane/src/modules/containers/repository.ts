import type { Knex } from 'knex';
import type { Model } from 'objection';
import { type Prepared, preparedRows } from '../../db/prepared.js';
import {
  type ContainerGpuFacts,
  type ContainerNodeFacts,
  nodesForContainersSql,
} from '../nodes/for-containers.js';
import type { RecordedAllocations } from './adopt.js';
import { ContainerModel, GpuAllocationModel, PortAllocationModel } from './model.js';
import { PROVISIONING } from './status.js';

export type ContainerStatus =
  /** Recorded and paid; the node creates and starts it (shown as starting). */
  | 'creating'
  /** Recorded and paid; the node pulls its image (pull_progress %). */
  | 'pulling'
  | 'starting'
  | 'running'
  | 'stopped'
  | 'error'
  | 'failed'
  | 'not_found'
  | 'deleted';

export interface PortMapping {
  name: string;
  container_port: number;
  host_port: number;
  custom: boolean;
}

export interface ContainerRow {
  id: string;
  user_id: number;
  node_id: number;
  cloud_product_id: number | null;
  framework_version_id: number | null;
  name: string;
  image: string;
  status: ContainerStatus;
  billing_type: string;
  duration: number;
  price_fen: number;
  total_cost_fen: number;
  gpu_count: number;
  gpu_type: string;
  password_encrypted: string;
  ports: PortMapping[];
  mounts: { source: string; target: string }[];
  start_error: string | null;
  /** Jupyter as the node last reported it (running, starting, absent, image; '' = unknown). */
  jupyter: string;
  /** While pulling: how much of the image the node has, 0-100. */
  pull_progress: number | null;
  /** While pulling: downloading or extracting (下载中 / 解压中). */
  pull_phase: string | null;
  /** Bytes in its writable layer as the node last measured them; null = not measured (limited). */
  writable_layer_bytes: number | null;
  /** The node's writable-layer allowance per container; null or 0 = none. */
  writable_layer_allowance_bytes: number | null;
  /** While provisioning: until when the process provisioning it holds it (it renews this). */
  provision_lease_until: Date | null;
  /** The purchase's order (its charge goes back when the purchase fails). */
  purchase_order_id: number | null;
  /** GPU ids Docker's container has now (after a stop they may no longer be allocated). */
  gpu_devices: string[];
  no_gpu: boolean;
  no_gpu_price_fen: number;
  pending_mounts: { source: string; target: string }[] | null;
  created_at: Date;
  started_at: Date | null;
  stopped_at: Date | null;
  expires_at: Date | null;
  deleted_at: Date | null;
}

/** A container with the GPUs allocated to it (by UUID). */
export interface ContainerWithGpus extends ContainerRow {
  gpu_uuids: string[];
}

/** One GPU a container holds, as its views show it (the nodes module's facts). */
export interface ContainerGpu {
  uuid: string;
  index: number;
  pci_bus_id: string;
  state: 'ok' | 'unhealthy' | 'missing' | 'mig' | 'fabric';
}

/** A container with what its views need from other modules (the owner's name, the node). */
export interface ContainerRecord extends ContainerWithGpus {
  /** Its GPUs, lowest index first (UUIDs ordered so too). */
  gpus: ContainerGpu[];
  /** Their indices, for people. */
  gpu_indices: number[];
  /** Why one of its GPUs cannot be used (Chinese); null when all can. */
  gpu_problem: string | null;
  username: string;
  node_name: string;
  node_address: string;
  node_public_host: string | null;
  node_host_info: Record<string, unknown> | null;
  node_simulated: boolean;
  node_status: string;
  region: string;
}

export interface ListFilter {
  userId?: number;
  /** Only these owners' (an admin's username filter, resolved by the users module). */
  userIds?: number[];
  status?: string;
  includeDeleted?: boolean;
  offset: number;
  limit: number;
}

/** What billing reads of a container (metering, notices). */
const BILLED_COLUMNS = [
  'id',
  'user_id',
  'name',
  'status',
  'billing_type',
  'price_fen',
  'gpu_count',
  'no_gpu',
  'no_gpu_price_fen',
  'started_at',
  'stopped_at',
  'deleted_at',
] as const satisfies readonly (keyof ContainerRow)[];
type BilledColumn = (typeof BILLED_COLUMNS)[number];

/** What a renewal reads of a container. */
const RENEWAL_COLUMNS = [
  'id',
  'user_id',
  'name',
  'billing_type',
  'price_fen',
  'gpu_count',
  'gpu_type',
  'status',
  'expires_at',
] as const satisfies readonly (keyof ContainerRow)[];
type RenewalColumn = (typeof RENEWAL_COLUMNS)[number];

/** Every column of ContainerRow (the prepared list names them: a new column changes no reply). */
const ROW_COLUMNS = [
  'id',
  'user_id',
  'node_id',
  'cloud_product_id',
  'framework_version_id',
  'name',
  'image',
  'status',
  'billing_type',
  'duration',
  'price_fen',
  'total_cost_fen',
  'gpu_count',
  'gpu_type',
  'password_encrypted',
  'ports',
  'mounts',
  'start_error',
  'jupyter',
  'pull_progress',
  'pull_phase',
  'writable_layer_bytes',
  'writable_layer_allowance_bytes',
  'provision_lease_until',
  'purchase_order_id',
  'gpu_devices',
  'no_gpu',
  'no_gpu_price_fen',
  'pending_mounts',
  'created_at',
  'started_at',
  'stopped_at',
  'expires_at',
  'deleted_at',
] as const satisfies readonly (keyof ContainerRow)[];

/** A container of its owner's list with what its view shows of its node and GPUs (nodes module's). */
export interface OwnedContainer extends ContainerWithGpus, ContainerNodeFacts {
  /** The node's facts of the GPUs it holds (a held UUID the node has no row for is not here). */
  gpu_facts: ContainerGpuFacts[];
}

/**
 * One owner's live containers, newest first, with their GPUs (by UUID), their node's and GPUs'
 * facts (the nodes module's SQL) and the total: one statement, no query per node.
 */
const OWNED_STATEMENT: Prepared = {
  name: 'containers_owned_live_v2',
  text: `select ${ROW_COLUMNS.map((c) => `c.${c}`).join(', ')},
       coalesce(array_agg(g.gpu_uuid order by g.gpu_uuid) filter (where g.gpu_uuid is not null),
                array[]::text[]) as gpu_uuids,
       ${nodesForContainersSql.nodeColumns('n')},
       ${nodesForContainersSql.gpuFacts('ng')} as gpu_facts,
       count(*) over () as total_count
  from containers c
  left join gpu_allocations g on g.container_id = c.id
  ${nodesForContainersSql.joinGpu('ng', 'c.node_id', 'g.gpu_uuid')}
  ${nodesForContainersSql.joinNode('n', 'c.node_id')}
 where c.user_id = $1 and c.status <> 'deleted'
 group by c.id, n.id
 order by c.created_at desc
 limit $2`,
};

/** A model as the plain object the rest of the code reads. */
const plain = <T>(m: Model): T => m.toJSON() as T;

type ScalarValues = Partial<Omit<ContainerRow, 'id' | 'ports' | 'mounts' | 'gpu_devices' | 'pending_mounts'>>;

/** Owns containers, gpu_allocations and port_allocations, on their models (model.ts). */
export class ContainersRepository {
  constructor(private readonly knex: Knex) {}

  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(fn);
  }

  private containers(trx?: Knex.Transaction) {
    return ContainerModel.query(trx ?? this.knex);
  }

  private base(trx?: Knex.Transaction) {
    return this.containers(trx).select('containers.*').modify('withGpuUuids');
  }

  async find(id: string, trx?: Knex.Transaction): Promise<ContainerWithGpus | undefined> {
    const row = await this.base(trx).findById(id);
    return row ? plain<ContainerWithGpus>(row) : undefined;
  }

  /**
   * One page of containers, newest first, with their GPUs and the total: one query (the GPUs
   * joined and aggregated, the total a window count), a second only for a page past the end.
   */
  async list(filter: ListFilter): Promise<{ items: ContainerWithGpus[]; total: number }> {
    const q = this.containers();
    if (filter.userId !== undefined) q.where('containers.user_id', filter.userId);
    if (filter.userIds) q.whereIn('containers.user_id', filter.userIds);
    if (filter.status) q.where('containers.status', filter.status);
    else if (!filter.includeDeleted) q.modify('live');
    const rows = await q
      .clone()
      .select(
        'containers.*',
        ContainerModel.raw(
          'coalesce(array_agg(g.gpu_uuid order by g.gpu_uuid) filter (where g.gpu_uuid is not null), array[]::text[]) as gpu_uuids',
        ),
        ContainerModel.raw('count(*) over () as total_count'),
      )
      .leftJoin('gpu_allocations as g', 'g.container_id', 'containers.id')
      .groupBy('containers.id')
      .orderBy('containers.created_at', 'desc')
      .offset(filter.offset)
      .limit(filter.limit);
    const items = rows.map((c) => {
      const { total_count: _, ...row } = plain<ContainerWithGpus & { total_count: number }>(c);
      return row;
    });
    const first = rows[0] ? plain<{ total_count: number }>(rows[0]) : undefined;
    const total = first ? Number(first.total_count) : filter.offset > 0 ? await q.clone().resultSize() : 0;
    return { items, total };
  }

  /**
   * A user's live containers, newest first (the console's list, asked every few seconds), with
   * their nodes' and GPUs' facts: one prepared statement, without the query builder and the models.
   */
  async ownedLive(userId: number, limit: number): Promise<{ items: OwnedContainer[]; total: number }> {
    const rows = await preparedRows<OwnedContainer & { total_count: number }>(this.knex, OWNED_STATEMENT, [
      userId,
      limit,
    ]);
    const total = rows[0] ? Number(rows[0].total_count) : 0;
    const items = rows.map((r) => {
      const { total_count: _, ...row } = r;
      return row;
    });
    return { items, total };
  }

  async insert(
    row: Omit<
      ContainerRow,
      | 'created_at'
      | 'started_at'
      | 'stopped_at'
      | 'expires_at'
      | 'deleted_at'
      | 'total_cost_fen'
      | 'start_error'
      | 'jupyter'
      | 'pull_progress'
      | 'pull_phase'
      | 'writable_layer_bytes'
      | 'writable_layer_allowance_bytes'
      | 'purchase_order_id'
      | 'no_gpu'
      | 'pending_mounts'
    >,
    trx: Knex.Transaction,
  ): Promise<void> {
    await this.containers(trx).insert(row);
  }

  /** Updates the JSON columns (ports, mounts, GPU devices, pending mounts). */
  async updateJson(
    id: string,
    values: Partial<Pick<ContainerRow, 'ports' | 'mounts' | 'gpu_devices' | 'pending_mounts'>>,
    trx?: Knex.Transaction,
  ): Promise<void> {
    await this.containers(trx).patch(values).where('id', id);
  }

  async update(id: string, values: ScalarValues, trx?: Knex.Transaction): Promise<void> {
    const stamped = 'status' in values ? { ...values, status_changed_at: new Date() } : values;
    await this.containers(trx).patch(stamped).where('id', id);
  }

  /**
   * Keeps the container at `status` while an action recreates it (a port change): reports the
   * node observed before `until` are not applied (see applyObservedStatus), so the stop, the
   * absence and the start of the recreate never read as a stop of the container, whatever the
   * order they are handled in. The action writes its outcome when done (update, stamped now);
   * where the control plane dies meanwhile, the node's reports take over after `until`.
   */
  async holdStatus(id: string, status: ContainerStatus, until: Date): Promise<void> {
    await this.containers().patch({ status, status_changed_at: until }).where('id', id);
  }

  /** Extends a hold that has not ended (an action's own status write ends it). */
  async renewHold(id: string, until: Date): Promise<void> {
    await this.containers()
      .patch({ status_changed_at: until })
      .where('id', id)
      .andWhere('status_changed_at', '>', new Date());
  }

  /**
   * Applies a state a node observed at `observedAt`, only while the row is still in `from` and
   * the platform has not set its status since the observation: what an action (a port change, a
   * destroy) wrote meanwhile wins over an older report. True if it applied.
   */
  async applyObservedStatus(
    id: string,
    from: ContainerStatus,
    observedAt: Date,
    values: ScalarValues,
  ): Promise<boolean> {
    const updated = await this.containers()
      .patch({ ...values, status_changed_at: new Date() })
      .where({ id, status: from })
      .andWhere((q) => q.whereNull('status_changed_at').orWhere('status_changed_at', '<', observedAt));
    return updated > 0;
  }

  async releaseGpus(id: string, trx?: Knex.Transaction): Promise<void> {
    await GpuAllocationModel.query(trx ?? this.knex)
      .delete()
      .where('container_id', id);
  }

  /** Replaces the container's host port reservations. */
  async replacePorts(nodeId: number, id: string, hostPorts: number[], trx: Knex.Transaction): Promise<void> {
    await PortAllocationModel.query(trx).delete().where('container_id', id);
    if (hostPorts.length > 0) {
      await PortAllocationModel.query(trx).insert(
        hostPorts.map((host_port) => ({ node_id: nodeId, host_port, container_id: id })),
      );
    }
  }

  async releaseAllocations(id: string, trx?: Knex.Transaction): Promise<void> {
    await GpuAllocationModel.query(trx ?? this.knex)
      .delete()
      .where('container_id', id);
    await PortAllocationModel.query(trx ?? this.knex)
      .delete()
      .where('container_id', id);
  }

  /** UUIDs of the GPUs held on the node. */
  async allocatedGpuUuids(nodeId: number, trx?: Knex.Transaction): Promise<string[]> {
    const rows = await GpuAllocationModel.query(trx ?? this.knex)
      .modify('onNode', nodeId)
      .select('gpu_uuid');
    return rows.map((r) => r.gpu_uuid);
  }

  /** The GPUs held on these nodes, with the container holding each. */
  async heldGpus(nodeIds: number[]): Promise<{ node_id: number; gpu_uuid: string; container_id: string }[]> {
    if (nodeIds.length === 0) return [];
    const rows = await GpuAllocationModel.query(this.knex)
      .whereIn('node_id', nodeIds)
      .select('node_id', 'gpu_uuid', 'container_id')
      .orderBy('id');
    return rows.map((r) => ({ node_id: r.node_id, gpu_uuid: r.gpu_uuid, container_id: r.container_id }));
  }

  /** Live containers holding any of these GPUs of the node, with their owners. */
  async holdersOf(
    nodeId: number,
    uuids: string[],
  ): Promise<{ container_id: string; user_id: number; gpu_uuid: string }[]> {
    if (uuids.length === 0) return [];
    const rows = (await GpuAllocationModel.query(this.knex)
      .joinRelated('container')
      .where('gpu_allocations.node_id', nodeId)
      .whereIn('gpu_allocations.gpu_uuid', uuids)
      .whereNot('container.status', 'deleted')
      .select('gpu_allocations.container_id', 'gpu_allocations.gpu_uuid', 'container.user_id')
      .orderBy('gpu_allocations.id')) as unknown as {
      container_id: string;
      gpu_uuid: string;
      user_id: number;
    }[];
    return rows.map((r) => ({ container_id: r.container_id, user_id: r.user_id, gpu_uuid: r.gpu_uuid }));
  }

  async allocatedPorts(nodeId: number, trx?: Knex.Transaction): Promise<number[]> {
    const rows = await PortAllocationModel.query(trx ?? this.knex)
      .modify('onNode', nodeId)
      .select('host_port');
    return rows.map((r) => r.host_port);
  }

  async allocate(
    nodeId: number,
    containerId: string,
    gpuUuids: string[],
    hostPorts: number[],
    trx: Knex.Transaction,
  ): Promise<void> {
    if (gpuUuids.length > 0) {
      await GpuAllocationModel.query(trx).insert(
        gpuUuids.map((gpu_uuid) => ({ node_id: nodeId, gpu_uuid, container_id: containerId })),
      );
    }
    if (hostPorts.length > 0) {
      await PortAllocationModel.query(trx).insert(
        hostPorts.map((host_port) => ({ node_id: nodeId, host_port, container_id: containerId })),
      );
    }
  }

  /** The containers of these nodes that are not destroyed, oldest first (the nodes module's 节点 view). */
  async liveOnNodes(
    nodeIds: number[],
  ): Promise<{ id: string; name: string; user_id: number; node_id: number; status: string }[]> {
    if (nodeIds.length === 0) return [];
    const rows = await this.containers()
      .whereIn('node_id', nodeIds)
      .modify('live')
      .select('id', 'name', 'user_id', 'node_id', 'status')
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      user_id: r.user_id,
      node_id: r.node_id,
      status: r.status,
    }));
  }

  /** Containers of the node that are not destroyed. */
  activeCount(nodeId: number): Promise<number> {
    return this.containers().where('node_id', nodeId).modify('live').resultSize();
  }

  liveCount(filter: { productId?: number; versionIds?: number[] }): Promise<number> {
    const q = this.containers().modify('live');
    if (filter.productId !== undefined) q.where('cloud_product_id', filter.productId);
    if (filter.versionIds !== undefined) q.whereIn('framework_version_id', filter.versionIds);
    return q.resultSize();
  }

  async knownIdsOnNode(nodeId: number): Promise<string[]> {
    const rows = await this.containers().where('node_id', nodeId).modify('live').select('id');
    return rows.map((r) => r.id);
  }

  /** The pull's progress and phase, while the container is still pulling. */
  async setPullProgress(id: string, percent: number, phase: string): Promise<void> {
    await this.containers()
      .patch({ pull_progress: percent, pull_phase: phase })
      .where({ id, status: 'pulling' });
  }

  /** Moves a provisioning container on; false when it is no longer in `from` (destroyed). */
  async moveStatus(id: string, from: ContainerStatus, to: ContainerStatus): Promise<boolean> {
    const n = await this.containers()
      .patch({ status: to, pull_progress: null, status_changed_at: new Date() })
      .where({ id, status: from });
    return n > 0;
  }

  /** Ends provisioning with what the node did; false when the container left it (destroyed). */
  async settleProvisioning(
    id: string,
    values: Partial<
      Pick<ContainerRow, 'status' | 'started_at' | 'start_error' | 'jupyter' | 'pull_progress'>
    >,
    trx?: Knex.Transaction,
  ): Promise<boolean> {
    const n = await this.containers(trx)
      .patch({ ...values, pull_progress: null, status_changed_at: new Date() })
      .where('id', id)
      .whereIn('status', PROVISIONING);
    return n > 0;
  }

  // ------------------------------------------------------------------ provisioning leases

  /** Renews the lease of a purchase this process provisions; false once it is no longer provisioning. */
  async renewProvisionLease(id: string, until: Date): Promise<boolean> {
    const n = await this.containers()
      .patch({ provision_lease_until: until })
      .where('id', id)
      .whereIn('status', PROVISIONING);
    return n > 0;
  }

  /**
   * Takes over purchases whose provisioning process is gone (their lease ran out): each row is
   * given to one caller only (the lease moves to `until` in the same statement).
   */
  async claimAbandonedProvisioning(now: Date, until: Date, limit = 50): Promise<ContainerRow[]> {
    const rows = await this.knex.raw(
      `UPDATE containers SET provision_lease_until = ?
        WHERE id IN (SELECT id FROM containers
                      WHERE status = ANY(?) AND (provision_lease_until IS NULL OR provision_lease_until < ?)
                      ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [until, PROVISIONING, now, limit],
    );
    return (rows.rows as ContainerRow[]).map((r) => ({ ...r }));
  }

  /** Of these containers of a node, the ones the platform has ended (failed, destroyed). */
  async endedAmong(nodeId: number, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.containers()
      .where('node_id', nodeId)
      .whereIn('id', ids)
      .whereIn('status', ['failed', 'deleted'])
      .select('id');
    return rows.map((r) => r.id);
  }

  /**
   * What the platform records of each settled container of the node (row, port reservations,
   * GPU allocations), in three queries whatever their number: compared with the node's report.
   * With `containerId`, of that one container only.
   */
  async recordedAllocations(
    nodeId: number,
    trx?: Knex.Transaction,
    containerId?: string,
  ): Promise<RecordedAllocations[]> {
    const db = trx ?? this.knex;
    const rows = await this.containers(trx)
      .where('node_id', nodeId)
      .modify('settled')
      .modify((q) => (containerId === undefined ? q : q.where('id', containerId)))
      .select('id', 'status', 'status_changed_at', 'ports', 'gpu_devices');
    const ports = await PortAllocationModel.query(db)
      .where('node_id', nodeId)
      .modify((q) => (containerId === undefined ? q : q.where('container_id', containerId)))
      .select('container_id', 'host_port');
    const gpus = await GpuAllocationModel.query(db)
      .where('node_id', nodeId)
      .modify((q) => (containerId === undefined ? q : q.where('container_id', containerId)))
      .select('container_id', 'gpu_uuid');
    const portsOf = new Map<string, number[]>();
    for (const p of ports) {
      const list = portsOf.get(p.container_id) ?? [];
      list.push(p.host_port);
      portsOf.set(p.container_id, list);
    }
    const gpusOf = new Map<string, string[]>();
    for (const g of gpus) {
      const list = gpusOf.get(g.container_id) ?? [];
      list.push(g.gpu_uuid);
      gpusOf.set(g.container_id, list);
    }
    return rows.map((r) => ({
      id: r.id,
      status: r.status,
      status_changed_at: r.status_changed_at,
      ports: r.ports ?? [],
      gpu_devices: r.gpu_devices ?? [],
      reserved_ports: portsOf.get(r.id) ?? [],
      gpu_uuids: gpusOf.get(r.id) ?? [],
    }));
  }

  /** Which of these host ports (or GPUs) of the node another container than `id` holds. */
  async heldByOthers(
    nodeId: number,
    id: string,
    what: { ports: number[]; gpus: string[] },
    trx: Knex.Transaction,
  ): Promise<{ ports: Set<number>; gpus: Set<string> }> {
    const ports =
      what.ports.length === 0
        ? []
        : await PortAllocationModel.query(trx)
            .where('node_id', nodeId)
            .whereIn('host_port', what.ports)
            .whereNot('container_id', id)
            .select('host_port');
    const gpus =
      what.gpus.length === 0
        ? []
        : await GpuAllocationModel.query(trx)
            .where('node_id', nodeId)
            .whereIn('gpu_uuid', what.gpus)
            .whereNot('container_id', id)
            .select('gpu_uuid');
    return { ports: new Set(ports.map((p) => p.host_port)), gpus: new Set(gpus.map((g) => g.gpu_uuid)) };
  }

  /** Replaces the container's GPU allocations. */
  async replaceGpus(nodeId: number, id: string, uuids: string[], trx: Knex.Transaction): Promise<void> {
    await GpuAllocationModel.query(trx).delete().where('container_id', id);
    if (uuids.length > 0) {
      await GpuAllocationModel.query(trx).insert(
        uuids.map((gpu_uuid) => ({ node_id: nodeId, gpu_uuid, container_id: id })),
      );
    }
  }

  // ------------------------------------------------------------------ the lifecycle jobs

  /** Hourly containers of these users that run or start. */
  async activeHourlyOf(userIds: number[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await this.containers()
      .whereIn('user_id', userIds)
      .modify(['hourly', 'active'])
      .select('id');
    return rows.map((r) => r.id);
  }

  /** Prepaid containers that run or start after their paid time ended. */
  async prepaidDue(now: Date): Promise<string[]> {
    const rows = await this.containers()
      .modify(['prepaid', 'active'])
      .where('expires_at', '<=', now)
      .select('id');
    return rows.map((r) => r.id);
  }

  /** Prepaid containers not deleted whose paid time ends after `now` and by `until`. */
  async prepaidEndingBy(now: Date, until: Date): Promise<{ id: string; expires_at: Date }[]> {
    const rows = await this.containers()
      .modify(['prepaid', 'live'])
      .where('expires_at', '>', now)
      .where('expires_at', '<=', until)
      .select('id', 'expires_at');
    return rows.map((r) => ({ id: r.id, expires_at: r.expires_at as Date }));
  }

  /** Hourly containers halted since `before` or earlier (since: the stop, else the creation). */
  async hourlyHaltedSince(before: Date): Promise<{ id: string; since: Date }[]> {
    const rows = await this.containers()
      .modify(['hourly', 'halted'])
      .whereRaw('coalesce(stopped_at, created_at) <= ?', [before])
      .select('id', ContainerModel.raw('coalesce(stopped_at, created_at) as since'));
    return rows.map((r) => plain<{ id: string; since: Date }>(r));
  }

  /** How many containers not deleted are in each status, in one grouped query (the metrics' scrape). */
  async countByStatus(): Promise<Map<ContainerStatus, number>> {
    const rows = await this.containers()
      .modify('live')
      .select('status')
      .count('* as count')
      .groupBy('status');
    return new Map(
      rows.map((r) => {
        const row = plain<{ status: ContainerStatus; count: string | number }>(r);
        return [row.status, Number(row.count)];
      }),
    );
  }

  /** What the lifecycle jobs check before they act. */
  async lifecycle(
    id: string,
  ): Promise<
    Pick<ContainerRow, 'status' | 'expires_at' | 'started_at' | 'stopped_at' | 'created_at'> | undefined
  > {
    const row = await this.containers()
      .findById(id)
      .select('status', 'expires_at', 'started_at', 'stopped_at', 'created_at');
    return row ? plain(row) : undefined;
  }

  // ------------------------------------------------------------------ billing

  /** What billing reads of a container (metering, notices). */
  async billed(id: string, trx?: Knex.Transaction): Promise<Pick<ContainerRow, BilledColumn> | undefined> {
    const row = await this.containers(trx)
      .findById(id)
      .select(...BILLED_COLUMNS);
    return row ? plain(row) : undefined;
  }

  /** What a renewal reads of a container. */
  async renewalTarget(id: string): Promise<Pick<ContainerRow, RenewalColumn> | undefined> {
    const row = await this.containers()
      .findById(id)
      .select(...RENEWAL_COLUMNS);
    return row ? plain(row) : undefined;
  }

  /** Hourly containers that run now. */
  async runningHourly(): Promise<{ id: string; started_at: Date | null }[]> {
    const rows = await this.containers()
      .modify('hourly')
      .where('status', 'running')
      .select('id', 'started_at');
    return rows.map((r) => ({ id: r.id, started_at: r.started_at }));
  }

  async addCost(trx: Knex.Transaction, id: string, fen: number): Promise<void> {
    await this.containers(trx).increment('total_cost_fen', fen).where('id', id);
  }

  /**
   * The row locked for the transaction: its status and prepaid end. Called with the owner's
   * account locked (billing's lock order); FOR NO KEY UPDATE, the lock an update of the row takes,
   * so allocations that reference the row (key-share locks) never wait on a renewal or it on them.
   */
  async lockExpiry(
    trx: Knex.Transaction,
    id: string,
  ): Promise<Pick<ContainerRow, 'status' | 'expires_at'> | undefined> {
    const row = await this.containers(trx).findById(id).forNoKeyUpdate().select('status', 'expires_at');
    return row ? { status: row.status, expires_at: row.expires_at } : undefined;
  }

  // ------------------------------------------------------------------ storage

  /**
   * Which live containers mount these volumes (a stored mount's source is the volume's id), now
   * or at the next start (pending mounts).
   */
  async volumeUses(volumeIds: number[]): Promise<
    {
      volume_id: number;
      container_id: string;
      container_name: string;
      mount_path: string;
      pending: boolean;
    }[]
  > {
    if (volumeIds.length === 0) return [];
    const result = await this.knex.raw<{
      rows: {
        volume_id: string;
        container_id: string;
        container_name: string;
        mount_path: string;
        pending: boolean;
      }[];
    }>(
      `SELECT (m->>'source')::bigint AS volume_id, c.id AS container_id, c.name AS container_name,
              m->>'target' AS mount_path, src.pending
         FROM containers c
         CROSS JOIN LATERAL (
           SELECT false AS pending, c.mounts AS list
           UNION ALL SELECT true, coalesce(c.pending_mounts, '[]'::jsonb)
         ) src
         CROSS JOIN LATERAL jsonb_array_elements(src.list) m
        WHERE c.status <> 'deleted'
          AND m->>'source' ~ '^[0-9]+$'
          AND (m->>'source')::bigint IN (${volumeIds.map(() => '?').join(', ')})
        ORDER BY c.created_at, c.id`,
      volumeIds,
    );
    return result.rows.map((r) => ({ ...r, volume_id: Number(r.volume_id) }));
  }

  /** Live containers of a node the platform has made (for reconciling with the agent's report). */
  /** The node's settled containers, whole (with their GPUs), in one query: a report is applied to them. */
  async settledOnNode(nodeId: number): Promise<ContainerWithGpus[]> {
    const rows = await this.base().where('containers.node_id', nodeId).modify('settled');
    return rows.map((r) => plain<ContainerWithGpus>(r));
  }

  async liveOnNode(nodeId: number): Promise<Pick<ContainerRow, 'id' | 'status'>[]> {
    const rows = await this.containers().where('node_id', nodeId).modify('settled').select('id', 'status');
    return rows.map((r) => ({ id: r.id, status: r.status }));
  }
}
