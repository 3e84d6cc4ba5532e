import { Model, type Modifiers, type QueryBuilder } from 'objection';

/** A node's offering in the market: GPU type, prices (fen) and the configuration shown. */
export class CloudProductModel extends Model {
  static override tableName = 'cloud_products';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  // created_at and updated_at are Date objects: left out of `properties`. The fen prices are
  // bigints, read as numbers (db/knex.ts). server_config is JSON (written as JSON by Objection).
  static override jsonSchema = {
    type: 'object',
    required: ['node_id', 'name', 'region', 'gpu_type', 'price_fen'],
    properties: {
      id: { type: 'integer' },
      node_id: { type: 'integer' },
      name: { type: 'string' },
      region: { type: 'string' },
      gpu_type: { type: 'string' },
      price_fen: { type: 'integer' },
      no_gpu_price_fen: { type: 'integer' },
      cpu_model: { type: 'string' },
      cpu_cores: { type: 'integer' },
      memory: { type: 'string' },
      disk_size: { type: 'string' },
      server_config: { type: 'object' },
      enabled: { type: 'boolean' },
    },
  };

  static override modifiers: Modifiers<QueryBuilder<CloudProductModel>> = {
    /** Offered in the market (admins may disable a product). */
    enabled(query) {
      query.where('cloud_products.enabled', true);
    },
  };

  id!: number;
  node_id!: number;
  name!: string;
  region!: string;
  gpu_type!: string;
  price_fen!: number;
  no_gpu_price_fen!: number;
  cpu_model!: string;
  cpu_cores!: number;
  memory!: string;
  disk_size!: string;
  server_config!: { system_gpu_type?: string } & Record<string, unknown>;
  enabled!: boolean;
  created_at!: Date;
  updated_at!: Date;
}

export type CloudProductRow = Pick<
  CloudProductModel,
  | 'id'
  | 'node_id'
  | 'name'
  | 'region'
  | 'gpu_type'
  | 'price_fen'
  | 'no_gpu_price_fen'
  | 'cpu_model'
  | 'cpu_cores'
  | 'memory'
  | 'disk_size'
  | 'server_config'
  | 'enabled'
>;
