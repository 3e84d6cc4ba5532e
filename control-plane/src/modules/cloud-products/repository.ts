import type { Knex } from 'knex';

export interface CloudProductRow {
  id: number;
  node_id: number;
  name: string;
  region: string;
  gpu_type: string;
  price_fen: number;
  no_gpu_price_fen: number;
  cpu_model: string;
  cpu_cores: number;
  memory: string;
  disk_size: string;
  server_config: { system_gpu_type?: string } & Record<string, unknown>;
  enabled: boolean;
}

export interface CloudProductRecord extends CloudProductRow {
  node_status: string;
  node_docker_available: boolean;
  node_simulated: boolean;
  node_gpu_total: number;
}

export interface ProductFilter {
  region?: string | undefined;
  systemType?: string | undefined;
  gpuTypes?: string[] | undefined;
}

export class CloudProductsRepository {
  constructor(private readonly knex: Knex) {}

  private base() {
    return this.knex('cloud_products')
      .join('nodes', 'nodes.id', 'cloud_products.node_id')
      .select(
        'cloud_products.*',
        'nodes.status as node_status',
        'nodes.docker_available as node_docker_available',
        'nodes.simulated as node_simulated',
        'nodes.gpu_total as node_gpu_total',
      );
  }

  async list(filter: ProductFilter): Promise<CloudProductRecord[]> {
    const q = this.base().where('cloud_products.enabled', true);
    if (filter.region) q.where('cloud_products.region', filter.region);
    if (filter.gpuTypes && filter.gpuTypes.length > 0) q.whereIn('cloud_products.gpu_type', filter.gpuTypes);
    if (filter.systemType === 'windows')
      q.whereRaw("cloud_products.server_config->>'system_gpu_type' = 'windows'");
    else if (filter.systemType)
      q.whereRaw("coalesce(cloud_products.server_config->>'system_gpu_type', '') <> 'windows'");
    return q.orderBy('cloud_products.id');
  }

  find(id: number): Promise<CloudProductRecord | undefined> {
    return this.base().where('cloud_products.id', id).first();
  }

  async regions(): Promise<string[]> {
    const rows = await this.knex('cloud_products')
      .where({ enabled: true })
      .distinct('region')
      .orderBy('region');
    return rows.map((r: { region: string }) => r.region);
  }

  async gpuTypes(): Promise<string[]> {
    const rows = await this.knex('cloud_products')
      .where({ enabled: true })
      .distinct('gpu_type')
      .orderBy('gpu_type');
    return rows.map((r: { gpu_type: string }) => r.gpu_type);
  }

  /** Every product, disabled ones too, with its node's name (administration). */
  async listAll(): Promise<(CloudProductRecord & { node_name: string })[]> {
    return this.base().select('nodes.name as node_name').orderBy('cloud_products.id');
  }

  async update(id: number, values: Omit<CloudProductRow, 'id'>): Promise<void> {
    await this.knex('cloud_products')
      .where({ id })
      .update({ ...values, server_config: JSON.stringify(values.server_config), updated_at: new Date() });
  }

  async delete(id: number): Promise<void> {
    await this.knex('cloud_products').where({ id }).delete();
  }

  async countForNode(nodeId: number): Promise<number> {
    const [row] = await this.knex('cloud_products')
      .where({ node_id: nodeId })
      .count<{ count: string }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  }

  async insert(values: Omit<CloudProductRow, 'id' | 'enabled'> & { enabled?: boolean }): Promise<number> {
    const [row] = await this.knex('cloud_products')
      .insert({ ...values, server_config: JSON.stringify(values.server_config) })
      .returning('id');
    return (row as { id: number }).id;
  }
}
