import type { Knex } from 'knex';
import { CloudProductModel, type CloudProductRow } from './model.js';

export type { CloudProductRow } from './model.js';

/** A product with the facts of its node the market needs (joined by the service: the nodes module's). */
export interface CloudProductRecord extends CloudProductRow {
  node_status: string;
  node_docker_available: boolean;
  node_simulated: boolean;
  node_gpu_total: number;
  /** The node is in maintenance (维护中): not offered, nothing new placed there. */
  node_maintenance: boolean;
}

export interface ProductFilter {
  region?: string | undefined;
  systemType?: string | undefined;
  gpuTypes?: string[] | undefined;
}

const plain = (model: CloudProductModel): CloudProductRow => ({ ...model.toJSON() }) as CloudProductRow;

/** Owns cloud_products. */
export class CloudProductsRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * The enabled products matching the filter, by id: knex's plain rows (the market's whole list
   * is read at once after each change: a thousand models, each deep-copied by toJSON, held the
   * event loop in one piece).
   */
  async list(filter: ProductFilter): Promise<CloudProductRow[]> {
    const q = this.knex<CloudProductRow>('cloud_products').where('cloud_products.enabled', true);
    if (filter.region) q.where('cloud_products.region', filter.region);
    if (filter.gpuTypes && filter.gpuTypes.length > 0) q.whereIn('cloud_products.gpu_type', filter.gpuTypes);
    if (filter.systemType === 'windows')
      q.whereRaw("cloud_products.server_config->>'system_gpu_type' = 'windows'");
    else if (filter.systemType)
      q.whereRaw("coalesce(cloud_products.server_config->>'system_gpu_type', '') <> 'windows'");
    return q.orderBy('cloud_products.id');
  }

  async find(id: number): Promise<CloudProductRow | undefined> {
    const row = await CloudProductModel.query(this.knex).findById(id);
    return row && plain(row);
  }

  async regions(): Promise<string[]> {
    const rows = await CloudProductModel.query(this.knex)
      .modify('enabled')
      .distinct('region')
      .orderBy('region');
    return rows.map((r) => r.region);
  }

  async gpuTypes(): Promise<string[]> {
    const rows = await CloudProductModel.query(this.knex)
      .modify('enabled')
      .distinct('gpu_type')
      .orderBy('gpu_type');
    return rows.map((r) => r.gpu_type);
  }

  /** Every product, disabled ones too (administration), by id. */
  async listAll(): Promise<CloudProductRow[]> {
    const rows = await CloudProductModel.query(this.knex).orderBy('cloud_products.id');
    return rows.map(plain);
  }

  async update(id: number, values: Omit<CloudProductRow, 'id'>): Promise<void> {
    await CloudProductModel.query(this.knex)
      .findById(id)
      .patch({ ...values, updated_at: new Date() });
  }

  async delete(id: number): Promise<void> {
    await CloudProductModel.query(this.knex).deleteById(id);
  }

  countForNode(nodeId: number): Promise<number> {
    return CloudProductModel.query(this.knex).where({ node_id: nodeId }).resultSize();
  }

  async insert(values: Omit<CloudProductRow, 'id' | 'enabled'> & { enabled?: boolean }): Promise<number> {
    const row = await CloudProductModel.query(this.knex).insert(values).returning('id');
    return row.id;
  }
}
