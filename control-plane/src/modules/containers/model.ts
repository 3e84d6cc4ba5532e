import { Model, type Modifiers, type QueryBuilder, type RelationMappingsThunk } from 'objection';
import type { ContainerStatus, PortMapping } from './repository.js';
import { ACTIVE, HALTED, PROVISIONING } from './status.js';

// The containers module's tables. Timestamps (created_at, started_at, stopped_at, expires_at,
// deleted_at, status_changed_at) are written as Date objects, which JSON Schema cannot describe:
// they stay out of `properties`. bigint columns read as numbers (db/knex.ts). The jsonb columns
// are `array` properties, so Objection writes them as JSON (not as PostgreSQL arrays). Types
// only: lengths and ranges are the schemas' (schema.ts) and the database's to refuse.

const mount = {
  type: 'object',
  required: ['source', 'target'],
  properties: { source: { type: 'string' }, target: { type: 'string' } },
};

/** A rented container: what was bought, where it runs, its status and its access. */
export class ContainerModel extends Model {
  static override tableName = 'containers';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  static override jsonSchema = {
    type: 'object',
    required: [
      'id',
      'user_id',
      'node_id',
      'name',
      'image',
      'status',
      'billing_type',
      'price_fen',
      'gpu_count',
    ],
    properties: {
      id: { type: 'string' },
      user_id: { type: 'integer' },
      node_id: { type: 'integer' },
      cloud_product_id: { type: ['integer', 'null'] },
      framework_version_id: { type: ['integer', 'null'] },
      name: { type: 'string' },
      image: { type: 'string' },
      status: { type: 'string' },
      billing_type: { type: 'string' },
      duration: { type: 'integer' },
      price_fen: { type: 'integer' },
      total_cost_fen: { type: 'integer' },
      gpu_count: { type: 'integer' },
      gpu_type: { type: 'string' },
      password_encrypted: { type: 'string' },
      ports: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'container_port', 'host_port'],
          properties: {
            name: { type: 'string' },
            container_port: { type: 'integer' },
            host_port: { type: 'integer' },
            custom: { type: 'boolean' },
          },
        },
      },
      mounts: { type: 'array', items: mount },
      pending_mounts: { type: ['array', 'null'], items: mount },
      gpu_devices: { type: 'array', items: { type: 'string' } },
      start_error: { type: ['string', 'null'] },
      jupyter: { type: 'string' },
      pull_progress: { type: ['integer', 'null'] },
      pull_phase: { type: ['string', 'null'] },
      writable_layer_bytes: { type: ['integer', 'null'] },
      writable_layer_allowance_bytes: { type: ['integer', 'null'] },
      purchase_order_id: { type: ['integer', 'null'] },
      no_gpu: { type: 'boolean' },
      no_gpu_price_fen: { type: 'integer' },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    gpus: {
      relation: Model.HasManyRelation,
      modelClass: GpuAllocationModel,
      join: { from: 'containers.id', to: 'gpu_allocations.container_id' },
    },
    hostPorts: {
      relation: Model.HasManyRelation,
      modelClass: PortAllocationModel,
      join: { from: 'containers.id', to: 'port_allocations.container_id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<ContainerModel>> = {
    /** Not destroyed. */
    live(query) {
      query.whereNot('containers.status', 'deleted');
    },
    /** Running or starting. */
    active(query) {
      query.whereIn('containers.status', ACTIVE);
    },
    /** Holding nothing that runs (stopped, failed, lost). */
    halted(query) {
      query.whereIn('containers.status', HALTED);
    },
    /** Neither destroyed nor still being made by the platform. */
    settled(query) {
      query.whereNotIn('containers.status', ['deleted', ...PROVISIONING]);
    },
    hourly(query) {
      query.where('containers.billing_type', 'hourly');
    },
    prepaid(query) {
      query.whereNot('containers.billing_type', 'hourly');
    },
    /** With `gpu_uuids`: the GPUs allocated to it, by UUID (the nodes module knows their indices). */
    withGpuUuids(query) {
      query.select(
        ContainerModel.raw(
          'coalesce((select array_agg(g.gpu_uuid order by g.gpu_uuid) from gpu_allocations g where g.container_id = containers.id), array[]::text[]) as gpu_uuids',
        ),
      );
    },
  };

  id!: string;
  user_id!: number;
  node_id!: number;
  cloud_product_id!: number | null;
  framework_version_id!: number | null;
  name!: string;
  image!: string;
  status!: ContainerStatus;
  billing_type!: string;
  duration!: number;
  price_fen!: number;
  total_cost_fen!: number;
  gpu_count!: number;
  gpu_type!: string;
  password_encrypted!: string;
  ports!: PortMapping[];
  mounts!: { source: string; target: string }[];
  pending_mounts!: { source: string; target: string }[] | null;
  gpu_devices!: string[];
  start_error!: string | null;
  jupyter!: string;
  pull_progress!: number | null;
  /** While pulling: downloading or extracting (下载中 / 解压中). */
  pull_phase!: string | null;
  writable_layer_bytes!: number | null;
  writable_layer_allowance_bytes!: number | null;
  provision_lease_until!: Date | null;
  purchase_order_id!: number | null;
  no_gpu!: boolean;
  no_gpu_price_fen!: number;
  created_at!: Date;
  started_at!: Date | null;
  stopped_at!: Date | null;
  expires_at!: Date | null;
  deleted_at!: Date | null;
  status_changed_at!: Date | null;

  gpus?: GpuAllocationModel[];
  hostPorts?: PortAllocationModel[];
}

/**
 * A GPU of a node given to a container, by its UUID (nvidia-smi's index may change): unique per
 * (node, UUID), so never given twice. It stays with its container while the GPU fails or is gone.
 */
export class GpuAllocationModel extends Model {
  static override tableName = 'gpu_allocations';
  static override useLimitInFirst = true;

  static override jsonSchema = {
    type: 'object',
    required: ['node_id', 'gpu_uuid', 'container_id'],
    properties: {
      id: { type: 'integer' },
      node_id: { type: 'integer' },
      gpu_uuid: { type: 'string' },
      container_id: { type: 'string' },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    container: {
      relation: Model.BelongsToOneRelation,
      modelClass: ContainerModel,
      join: { from: 'gpu_allocations.container_id', to: 'containers.id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<GpuAllocationModel>> = {
    onNode(query, nodeId: number) {
      query.where('gpu_allocations.node_id', nodeId);
    },
  };

  id!: number;
  node_id!: number;
  gpu_uuid!: string;
  container_id!: string;
}

/** A host port of a node published for a container: unique per (node, port). */
export class PortAllocationModel extends Model {
  static override tableName = 'port_allocations';
  static override useLimitInFirst = true;

  static override jsonSchema = {
    type: 'object',
    required: ['node_id', 'host_port', 'container_id'],
    properties: {
      id: { type: 'integer' },
      node_id: { type: 'integer' },
      host_port: { type: 'integer' },
      container_id: { type: 'string' },
    },
  };

  static override relationMappings: RelationMappingsThunk = () => ({
    container: {
      relation: Model.BelongsToOneRelation,
      modelClass: ContainerModel,
      join: { from: 'port_allocations.container_id', to: 'containers.id' },
    },
  });

  static override modifiers: Modifiers<QueryBuilder<PortAllocationModel>> = {
    onNode(query, nodeId: number) {
      query.where('port_allocations.node_id', nodeId);
    },
  };

  id!: number;
  node_id!: number;
  host_port!: number;
  container_id!: string;
}

/** A purchase made with an Idempotency-Key, and its answer once known. */
export class PurchaseRequestModel extends Model {
  static override tableName = 'purchase_requests';
  static override useLimitInFirst = true;

  static override jsonSchema = {
    type: 'object',
    required: ['user_id', 'idempotency_key', 'request_hash', 'status'],
    properties: {
      id: { type: 'integer' },
      user_id: { type: 'integer' },
      idempotency_key: { type: 'string' },
      request_hash: { type: 'string' },
      status: { type: 'integer' },
      response: { type: 'object' },
    },
  };

  id!: number;
  user_id!: number;
  idempotency_key!: string;
  request_hash!: string;
  status!: number;
  response!: unknown;
  created_at!: Date;
}
