import type { Knex } from 'knex';

export interface NodeRow {
  id: number;
  name: string;
  address: string;
  token: string;
  region: string;
  public_host: string | null;
  status: 'online' | 'offline' | 'unsafe';
  last_heartbeat_at: Date | null;
  host_info: Record<string, unknown> | null;
  docker_available: boolean;
  docker_error: string | null;
  simulated: boolean;
  gpu_model: string | null;
  gpu_total: number;
  port_range_start: number;
  port_range_end: number;
  created_at: Date;
  unknown_containers: UnknownContainer[];
  reconciled_at: Date | null;
  image_disk_total_bytes: string | null;
  image_disk_free_bytes: string | null;
  images_listed_at: Date | null;
}

/** An image a node holds (present), is pulling for a warm-up, or failed to pull. */
export interface NodeImageRow {
  node_id: number;
  image: string;
  status: 'present' | 'pulling' | 'failed';
  progress: number;
  size_bytes: string | null;
  error: string | null;
  updated_at: Date;
}

/** What a node's agent reported (ListImages). */
export interface ImageListing {
  images: { tag: string; sizeBytes: number }[];
  pulling: string[];
  diskTotalBytes: number;
  diskFreeBytes: number;
}

/** A labelled container on the host that the platform has no live row for. */
export interface UnknownContainer {
  container_id: string;
  docker_id: string;
  owner_id: string;
  state: string;
  image: string;
}

export interface GpuSampleRow {
  bucket: Date;
  gpus: GpuMetric[];
}

export interface GpuMetric {
  index: number;
  utilization_percent: number;
  memory_used_mib: number;
  memory_total_mib: number;
  temperature_c: number;
  power_draw_w: number;
}

export interface NodeGpuRow {
  node_id: number;
  gpu_index: number;
  uuid: string;
  model: string;
  memory_total_mib: number;
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
> & { status: NodeRow['status'] };

export class NodesRepository {
  constructor(private readonly knex: Knex) {}

  list(): Promise<NodeRow[]> {
    return this.knex<NodeRow>('nodes').orderBy('id');
  }

  findById(id: number, trx?: Knex.Transaction): Promise<NodeRow | undefined> {
    return (trx ?? this.knex)<NodeRow>('nodes').where({ id }).first();
  }

  findByName(name: string): Promise<NodeRow | undefined> {
    return this.knex<NodeRow>('nodes').where({ name }).first();
  }

  /** Locks the node row: allocations on one node are serialised behind it. */
  async lock(id: number, trx: Knex.Transaction): Promise<NodeRow | undefined> {
    return trx<NodeRow>('nodes').where({ id }).forUpdate().first();
  }

  async insert(
    values: Pick<NodeRow, 'name' | 'address' | 'token' | 'region' | 'public_host'> & NodeFacts,
    gpus: Omit<NodeGpuRow, 'node_id'>[],
  ): Promise<NodeRow> {
    return this.knex.transaction(async (trx) => {
      const [row] = await trx<NodeRow>('nodes')
        .insert({
          ...values,
          host_info: JSON.stringify(values.host_info) as never,
          last_heartbeat_at: new Date(),
        })
        .returning('*');
      if (!row) throw new Error('insert returned no row');
      await this.replaceGpus(row.id, gpus, trx);
      return row;
    });
  }

  async update(
    id: number,
    values: Partial<Pick<NodeRow, 'address' | 'token' | 'region' | 'public_host'>> & NodeFacts,
    gpus: Omit<NodeGpuRow, 'node_id'>[],
  ): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx('nodes')
        .where({ id })
        .update({
          ...values,
          host_info: JSON.stringify(values.host_info),
          last_heartbeat_at: new Date(),
          updated_at: new Date(),
        });
      await this.replaceGpus(id, gpus, trx);
    });
  }

  private async replaceGpus(nodeId: number, gpus: Omit<NodeGpuRow, 'node_id'>[], trx: Knex.Transaction) {
    const keep = gpus.map((g) => g.gpu_index);
    await trx('node_gpus').where({ node_id: nodeId }).whereNotIn('gpu_index', keep).delete();
    for (const gpu of gpus) {
      await trx('node_gpus')
        .insert({ node_id: nodeId, ...gpu })
        .onConflict(['node_id', 'gpu_index'])
        .merge(['uuid', 'model', 'memory_total_mib']);
    }
  }

  gpus(nodeId: number, trx?: Knex.Transaction): Promise<NodeGpuRow[]> {
    return (trx ?? this.knex)<NodeGpuRow>('node_gpus').where({ node_id: nodeId }).orderBy('gpu_index');
  }

  async heartbeat(id: number, dockerAvailable: boolean, at: Date): Promise<void> {
    await this.knex('nodes')
      .where({ id })
      .update({
        last_heartbeat_at: at,
        docker_available: dockerAvailable,
        status: this.knex.raw("CASE WHEN status = 'unsafe' THEN 'unsafe' ELSE 'online' END"),
      });
  }

  /** Marks nodes offline whose last heartbeat is older than `before`; returns their ids. */
  async markStaleOffline(before: Date): Promise<number[]> {
    const rows = await this.knex('nodes')
      .where('status', 'online')
      .andWhere((q) => q.whereNull('last_heartbeat_at').orWhere('last_heartbeat_at', '<', before))
      .update({ status: 'offline' })
      .returning('id');
    return rows.map((r: { id: number }) => r.id);
  }

  async setStatus(id: number, status: NodeRow['status']): Promise<void> {
    await this.knex('nodes').where({ id }).update({ status });
  }

  /** Stores a sample in its time bucket; a second writer of the same bucket is ignored. */
  async insertGpuSample(nodeId: number, bucket: Date, gpus: GpuMetric[]): Promise<void> {
    await this.knex('gpu_samples')
      .insert({ node_id: nodeId, bucket, gpus: JSON.stringify(gpus) })
      .onConflict(['node_id', 'bucket'])
      .ignore();
  }

  gpuSamples(nodeId: number, since: Date): Promise<GpuSampleRow[]> {
    return this.knex('gpu_samples')
      .where({ node_id: nodeId })
      .where('bucket', '>=', since)
      .orderBy('bucket')
      .select('bucket', 'gpus');
  }

  async pruneGpuSamples(before: Date): Promise<void> {
    await this.knex('gpu_samples').where('bucket', '<', before).delete();
  }

  async setUnknownContainers(id: number, unknown: UnknownContainer[], at: Date): Promise<void> {
    await this.knex('nodes')
      .where({ id })
      .update({ unknown_containers: JSON.stringify(unknown), reconciled_at: at });
  }

  images(nodeId: number): Promise<NodeImageRow[]> {
    return this.knex<NodeImageRow>('node_images').where({ node_id: nodeId }).orderBy('image');
  }

  image(nodeId: number, image: string): Promise<NodeImageRow | undefined> {
    return this.knex<NodeImageRow>('node_images').where({ node_id: nodeId, image }).first();
  }

  /** Present images of these nodes, by node. */
  async presentImages(nodeIds: number[]): Promise<Map<number, Set<string>>> {
    const rows = await this.knex<NodeImageRow>('node_images')
      .whereIn('node_id', nodeIds)
      .where({ status: 'present' })
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
      await trx('node_images')
        .where({ node_id: nodeId, status: 'present' })
        .whereNotIn('image', listed)
        .delete();
      for (const image of listing.images) {
        await trx('node_images')
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
      await trx('node_images')
        .where({ node_id: nodeId, status: 'pulling' })
        .whereNotIn('image', [...listed, ...listing.pulling])
        .where('updated_at', '<', staleBefore)
        .update({ status: 'failed', error: '预热已中断', updated_at: now });
      await trx('nodes')
        .where({ id: nodeId })
        .update({
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
    const rows = await this.knex('node_images')
      .insert({ node_id: nodeId, image, status: 'pulling', progress: 0, error: null, updated_at: new Date() })
      .onConflict(['node_id', 'image'])
      .merge(['status', 'progress', 'error', 'updated_at'])
      .where('node_images.status', 'failed')
      .returning('id');
    return rows.length > 0;
  }

  async setImageState(
    nodeId: number,
    image: string,
    values: Partial<Pick<NodeImageRow, 'status' | 'progress' | 'error'>>,
  ): Promise<void> {
    await this.knex('node_images')
      .where({ node_id: nodeId, image })
      .update({ ...values, updated_at: new Date() });
  }

  async delete(id: number): Promise<void> {
    await this.knex('nodes').where({ id }).delete();
  }
}
