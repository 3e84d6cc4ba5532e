import type { Knex } from 'knex';
import { ACTIVE, HALTED, PROVISIONING } from './status.js';

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

/** A container with what its views need from other tables. */
export interface ContainerRecord extends ContainerRow {
  username: string;
  node_name: string;
  node_address: string;
  node_public_host: string | null;
  node_host_info: Record<string, unknown> | null;
  node_simulated: boolean;
  node_status: string;
  region: string;
  gpu_indices: number[];
}

export interface ListFilter {
  userId?: number;
  username?: string;
  status?: string;
  includeDeleted?: boolean;
  offset: number;
  limit: number;
}

/** Owns containers, gpu_allocations and port_allocations. */
export class ContainersRepository {
  constructor(private readonly knex: Knex) {}

  private base(trx?: Knex.Transaction) {
    const k = trx ?? this.knex;
    return k('containers')
      .join('users', 'users.id', 'containers.user_id')
      .join('nodes', 'nodes.id', 'containers.node_id')
      .select(
        'containers.*',
        'users.username',
        'nodes.name as node_name',
        'nodes.address as node_address',
        'nodes.public_host as node_public_host',
        'nodes.host_info as node_host_info',
        'nodes.simulated as node_simulated',
        'nodes.status as node_status',
        'nodes.region',
        k.raw(
          'coalesce((select array_agg(g.gpu_index order by g.gpu_index) from gpu_allocations g where g.container_id = containers.id), array[]::int[]) as gpu_indices',
        ),
      );
  }

  async find(id: string, trx?: Knex.Transaction): Promise<ContainerRecord | undefined> {
    return this.base(trx).where('containers.id', id).first();
  }

  async list(filter: ListFilter): Promise<{ items: ContainerRecord[]; total: number }> {
    const q = this.base();
    if (filter.userId !== undefined) q.where('containers.user_id', filter.userId);
    if (filter.username) q.whereILike('users.username', `%${filter.username.replace(/[%_\\]/g, '\\$&')}%`);
    if (filter.status) q.where('containers.status', filter.status);
    else if (!filter.includeDeleted) q.whereNot('containers.status', 'deleted');
    const countQuery = q.clone().clearSelect().clearOrder().count<{ count: string }[]>({ count: '*' });
    const [items, counted] = await Promise.all([
      q.orderBy('containers.created_at', 'desc').offset(filter.offset).limit(filter.limit),
      countQuery,
    ]);
    return { items, total: Number(counted[0]?.count ?? 0) };
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
      | 'no_gpu'
      | 'pending_mounts'
    >,
    trx: Knex.Transaction,
  ): Promise<void> {
    await trx('containers').insert({
      ...row,
      ports: JSON.stringify(row.ports),
      mounts: JSON.stringify(row.mounts),
      gpu_devices: JSON.stringify(row.gpu_devices),
    });
  }

  /** Updates the JSON columns (ports, mounts, GPU devices, pending mounts). */
  async updateJson(
    id: string,
    values: Partial<Pick<ContainerRow, 'ports' | 'mounts' | 'gpu_devices' | 'pending_mounts'>>,
    trx?: Knex.Transaction,
  ): Promise<void> {
    const encoded: Record<string, string | null> = {};
    for (const [key, value] of Object.entries(values))
      encoded[key] = value === null ? null : JSON.stringify(value);
    await (trx ?? this.knex)('containers').where({ id }).update(encoded);
  }

  async update(
    id: string,
    values: Partial<Omit<ContainerRow, 'id' | 'ports' | 'mounts' | 'gpu_devices' | 'pending_mounts'>>,
    trx?: Knex.Transaction,
  ): Promise<void> {
    const stamped = 'status' in values ? { ...values, status_changed_at: new Date() } : values;
    await (trx ?? this.knex)('containers').where({ id }).update(stamped);
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
    values: Partial<Omit<ContainerRow, 'id' | 'ports' | 'mounts' | 'gpu_devices' | 'pending_mounts'>>,
  ): Promise<boolean> {
    const updated = await this.knex('containers')
      .where({ id, status: from })
      .andWhere((q) => q.whereNull('status_changed_at').orWhere('status_changed_at', '<', observedAt))
      .update({ ...values, status_changed_at: new Date() });
    return updated > 0;
  }

  async releaseGpus(id: string, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('gpu_allocations').where({ container_id: id }).delete();
  }

  /** Replaces the container's host port reservations. */
  async replacePorts(nodeId: number, id: string, hostPorts: number[], trx: Knex.Transaction): Promise<void> {
    await trx('port_allocations').where({ container_id: id }).delete();
    if (hostPorts.length > 0) {
      await trx('port_allocations').insert(
        hostPorts.map((host_port) => ({ node_id: nodeId, host_port, container_id: id })),
      );
    }
  }

  async releaseAllocations(id: string, trx?: Knex.Transaction): Promise<void> {
    const k = trx ?? this.knex;
    await k('gpu_allocations').where({ container_id: id }).delete();
    await k('port_allocations').where({ container_id: id }).delete();
  }

  async allocatedGpuIndices(nodeId: number, trx?: Knex.Transaction): Promise<number[]> {
    const rows = await (trx ?? this.knex)('gpu_allocations').where({ node_id: nodeId }).select('gpu_index');
    return rows.map((r: { gpu_index: number }) => r.gpu_index);
  }

  async allocatedGpuCounts(): Promise<Map<number, number>> {
    const rows = await this.knex('gpu_allocations')
      .select('node_id')
      .count<{ node_id: number; count: string }[]>({ count: '*' })
      .groupBy('node_id');
    return new Map(rows.map((r) => [r.node_id, Number(r.count)]));
  }

  async allocatedPorts(nodeId: number, trx?: Knex.Transaction): Promise<number[]> {
    const rows = await (trx ?? this.knex)('port_allocations').where({ node_id: nodeId }).select('host_port');
    return rows.map((r: { host_port: number }) => r.host_port);
  }

  async allocate(
    nodeId: number,
    containerId: string,
    gpuIndices: number[],
    hostPorts: number[],
    trx: Knex.Transaction,
  ): Promise<void> {
    if (gpuIndices.length > 0) {
      await trx('gpu_allocations').insert(
        gpuIndices.map((gpu_index) => ({ node_id: nodeId, gpu_index, container_id: containerId })),
      );
    }
    if (hostPorts.length > 0) {
      await trx('port_allocations').insert(
        hostPorts.map((host_port) => ({ node_id: nodeId, host_port, container_id: containerId })),
      );
    }
  }

  async activeCount(nodeId: number): Promise<number> {
    const [row] = await this.knex('containers')
      .where({ node_id: nodeId })
      .whereNot('status', 'deleted')
      .count<{ count: string }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  }

  async liveCount(filter: { productId?: number; versionIds?: number[] }): Promise<number> {
    const q = this.knex('containers').whereNot('status', 'deleted');
    if (filter.productId !== undefined) q.where('cloud_product_id', filter.productId);
    if (filter.versionIds !== undefined) q.whereIn('framework_version_id', filter.versionIds);
    const [row] = await q.count<{ count: string }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  }

  async knownIdsOnNode(nodeId: number): Promise<string[]> {
    const rows = await this.knex('containers')
      .where({ node_id: nodeId })
      .whereNot('status', 'deleted')
      .select('id');
    return rows.map((r: { id: string }) => r.id);
  }

  /** Live containers of a node (for reconciling with what the agent reports). */
  /** The pull's progress, while the container is still pulling. */
  async setPullProgress(id: string, percent: number): Promise<void> {
    await this.knex('containers').where({ id, status: 'pulling' }).update({ pull_progress: percent });
  }

  /** Moves a provisioning container on; false when it is no longer in `from` (destroyed). */
  async moveStatus(id: string, from: ContainerStatus, to: ContainerStatus): Promise<boolean> {
    const n = await this.knex('containers')
      .where({ id, status: from })
      .update({ status: to, pull_progress: null, status_changed_at: new Date() });
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
    const n = await (trx ?? this.knex)('containers')
      .where({ id })
      .whereIn('status', PROVISIONING)
      .update({ ...values, pull_progress: null, status_changed_at: new Date() });
    return n > 0;
  }

  // ------------------------------------------------------------------ the lifecycle jobs

  /** Hourly containers of these users that run or start. */
  async activeHourlyOf(userIds: number[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    return this.knex('containers')
      .whereIn('user_id', userIds)
      .where('billing_type', 'hourly')
      .whereIn('status', ACTIVE)
      .pluck('id');
  }

  /** Prepaid containers that run or start after their paid time ended. */
  prepaidDue(now: Date): Promise<string[]> {
    return this.knex('containers')
      .whereNot('billing_type', 'hourly')
      .whereIn('status', ACTIVE)
      .where('expires_at', '<=', now)
      .pluck('id');
  }

  /** Prepaid containers not deleted whose paid time ends after `now` and by `until`. */
  prepaidEndingBy(now: Date, until: Date): Promise<{ id: string; expires_at: Date }[]> {
    return this.knex('containers')
      .whereNot('billing_type', 'hourly')
      .whereNot('status', 'deleted')
      .where('expires_at', '>', now)
      .where('expires_at', '<=', until)
      .select('id', 'expires_at');
  }

  /** Hourly containers halted since `before` or earlier (since: the stop, else the creation). */
  async hourlyHaltedSince(before: Date): Promise<{ id: string; since: Date }[]> {
    return this.knex('containers')
      .where('billing_type', 'hourly')
      .whereIn('status', HALTED)
      .whereRaw('coalesce(stopped_at, created_at) <= ?', [before])
      .select('id', this.knex.raw('coalesce(stopped_at, created_at) as since'));
  }

  /** What the lifecycle jobs check before they act. */
  lifecycle(
    id: string,
  ): Promise<
    Pick<ContainerRow, 'status' | 'expires_at' | 'started_at' | 'stopped_at' | 'created_at'> | undefined
  > {
    return this.knex('containers')
      .where({ id })
      .first('status', 'expires_at', 'started_at', 'stopped_at', 'created_at');
  }

  async liveOnNode(nodeId: number): Promise<Pick<ContainerRow, 'id' | 'status'>[]> {
    return this.knex('containers')
      .where({ node_id: nodeId })
      .whereNotIn('status', ['deleted', ...PROVISIONING])
      .select('id', 'status');
  }
}
