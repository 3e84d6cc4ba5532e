import type { Knex } from 'knex';
import { raw } from 'objection';
import {
  type GpuMetric,
  GpuSampleModel,
  type GpuSampleRow,
  NodeGpuModel,
  type NodeGpuRow,
  NodeImageModel,
  type NodeImageRow,
  NodeModel,
  type NodeRow,
  type UnknownContainer,
} from './model.js';

export type {
  GpuMetric,
  GpuSampleRow,
  NodeGpuRow,
  NodeImageRow,
  NodeRow,
  UnknownContainer,
} from './model.js';

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
> & { status: NodeRow['status'] };

/** What other modules show of a node next to their own rows (a product's market card). */
export type NodeSummary = Pick<
  NodeRow,
  'id' | 'name' | 'status' | 'docker_available' | 'simulated' | 'gpu_total'
>;

/** The row of a model as a plain object (not a model instance). */
const plain = <T>(model: { toJSON(): object }): T => ({ ...model.toJSON() }) as T;

/** Owns nodes, node_gpus, gpu_samples and node_images. */
export class NodesRepository {
  constructor(private readonly knex: Knex) {}

  async list(): Promise<NodeRow[]> {
    const rows = await NodeModel.query(this.knex).orderBy('id');
    return rows.map((r) => plain<NodeRow>(r));
  }

  /** The summaries of these nodes, by id (a node that is gone is missing). */
  async summaries(ids: number[]): Promise<Map<number, NodeSummary>> {
    if (ids.length === 0) return new Map();
    const rows = await NodeModel.query(this.knex)
      .whereIn('id', ids)
      .select('id', 'name', 'status', 'docker_available', 'simulated', 'gpu_total');
    return new Map(rows.map((r) => [r.id, plain<NodeSummary>(r)]));
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
    values: Pick<NodeRow, 'name' | 'address' | 'token' | 'region' | 'public_host'> & NodeFacts,
    gpus: Omit<NodeGpuRow, 'node_id'>[],
  ): Promise<NodeRow> {
    return this.knex.transaction(async (trx) => {
      const row = await NodeModel.query(trx)
        .insert({ ...values, last_heartbeat_at: new Date() })
        .returning('*');
      await this.replaceGpus(row.id, gpus, trx);
      return plain<NodeRow>(row);
    });
  }

  async update(
    id: number,
    values: Partial<Pick<NodeRow, 'address' | 'token' | 'region' | 'public_host'>> & NodeFacts,
    gpus: Omit<NodeGpuRow, 'node_id'>[],
  ): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await NodeModel.query(trx)
        .findById(id)
        .patch({ ...values, last_heartbeat_at: new Date(), updated_at: new Date() });
      await this.replaceGpus(id, gpus, trx);
    });
  }

  private async replaceGpus(nodeId: number, gpus: Omit<NodeGpuRow, 'node_id'>[], trx: Knex.Transaction) {
    const keep = gpus.map((g) => g.gpu_index);
    await NodeGpuModel.query(trx).where({ node_id: nodeId }).whereNotIn('gpu_index', keep).delete();
    for (const gpu of gpus) {
      await NodeGpuModel.query(trx)
        .insert({ node_id: nodeId, ...gpu })
        .onConflict(['node_id', 'gpu_index'])
        .merge(['uuid', 'model', 'memory_total_mib']);
    }
  }

  async gpus(nodeId: number, trx?: Knex.Transaction): Promise<NodeGpuRow[]> {
    const rows = await NodeGpuModel.query(trx ?? this.knex)
      .where({ node_id: nodeId })
      .modify('byIndex');
    return rows.map((r) => plain<NodeGpuRow>(r));
  }

  async heartbeat(id: number, dockerAvailable: boolean, at: Date): Promise<void> {
    await NodeModel.query(this.knex)
      .findById(id)
      .patch({
        last_heartbeat_at: at,
        docker_available: dockerAvailable,
        status: raw("CASE WHEN status = 'unsafe' THEN 'unsafe' ELSE 'online' END"),
      });
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

  /** Stores a sample in its time bucket; a second writer of the same bucket is ignored. */
  async insertGpuSample(nodeId: number, bucket: Date, gpus: GpuMetric[]): Promise<void> {
    await GpuSampleModel.query(this.knex)
      .insert({ node_id: nodeId, bucket, gpus })
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
      .insert({ node_id: nodeId, image, status: 'pulling', progress: 0, error: null, updated_at: new Date() })
      .onConflict(['node_id', 'image'])
      .merge(['status', 'progress', 'error', 'updated_at'])
      .where('node_images.status', 'failed')
      .returning('id');
    // No row returned (kept as it was): Objection hands back the model it was given, id-less.
    return row.id !== undefined;
  }

  async setImageState(
    nodeId: number,
    image: string,
    values: Partial<Pick<NodeImageRow, 'status' | 'progress' | 'error'>>,
  ): Promise<void> {
    await NodeImageModel.query(this.knex)
      .where({ node_id: nodeId, image })
      .patch({ ...values, updated_at: new Date() });
  }

  async delete(id: number): Promise<void> {
    await NodeModel.query(this.knex).deleteById(id);
  }
}
